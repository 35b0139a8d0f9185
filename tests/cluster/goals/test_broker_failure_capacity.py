"""kpart's ``BrokerFailureCapacityGoal`` (``kpart.cluster.goals.broker_failure_capacity``):
the cluster survives any single broker or rack failure below capacity, with leadership moved
as Kafka moves it. Its ``finish`` reorders followers; its ``failure`` (the ``Goal`` default)
names the first failure that overloads a survivor."""

from __future__ import annotations

import numpy as np
import pytest

from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import Thresholds, goal_state, goals_by_name
from kpart.cluster.goals.broker_failure_capacity import BrokerFailureCapacityGoal
from kpart.cluster.optimizer import plan_cluster
from kpart.cluster.verifier import goal_violations, verify
from kpart.errors import OptimizationFailureError

CAP = Capacity(disk_bytes=100.0, network_in=100.0, network_out=100.0)
HARD = goals_by_name("RackAwareGoal,ReplicaCapacityGoal,DiskCapacityGoal,"
                     "NetworkInboundCapacityGoal,NetworkOutboundCapacityGoal")
FAILURE = (*HARD, *goals_by_name("BrokerFailureCapacityGoal"))


def _model(racks: list[str], parts: list[tuple[tuple[int, ...], float, float]]) -> ClusterModel:
    """``parts``: (replicas, size, bytes-out per s) of topic ``t``; bytes-in 0."""
    return ClusterModel.from_partitions(
        [ClusterBroker(i, r, CAP) for i, r in enumerate(racks)],
        [PartitionState("t", p, reps, leader=reps[0], isr=reps, size_bytes=size,
                        bytes_in_per_s=0.0, bytes_out_per_s=out)
         for p, (reps, size, out) in enumerate(parts)])


def test_failure_names_the_first_overloading_failure() -> None:
    # broker 0 down: broker 1 leads t-0 too, 50 + 30 = 80 > 0.7 x 100 (and the same for 1)
    m = _model(["a", "b"], [((0, 1), 1.0, 50.0), ((1, 0), 1.0, 30.0)])
    goal = BrokerFailureCapacityGoal()
    s = goal_state(m, m.replicas, np.ones(2, bool), Thresholds(capacity=0.7))
    goal.check_feasible(s, m)  # nothing to refuse up front
    e = goal.failure(s, m)
    assert e is not None and (e.goal, e.broker, e.partition) == (
        "BrokerFailureCapacityGoal", None, None)
    assert str(e) == ("Infeasible BrokerFailureCapacityGoal: if broker 0 fails, broker 1's "
                      "network out becomes 80 bytes/s, over 0.7 x its 100 (4 such (failure, "
                      "broker) pairs) after planning.")
    assert goal.failure(goal_state(m, m.replicas, np.ones(2, bool)), m) is None  # 80 <= 80


def test_failure_goal_counts_overloaded_survivors_with_kafkas_election() -> None:
    # 3 brokers, 3 racks; broker 0 leads t-0 (rf 2: 20 + 2 out) whose follower is broker 1,
    # already leading t-1 (out 40 + 4): broker 0 down -> broker 1 serves 20 + 40 + 4 = 64 (t-0
    # has no follower left) > 0.8 x 60 = 48; rack r0 is broker 0 alone: the same pair again
    cap = Capacity(disk_bytes=100.0, network_in=100.0, network_out=60.0)
    m = ClusterModel.from_partitions(
        [ClusterBroker(i, f"r{i}", cap) for i in range(3)],
        [PartitionState("t", 0, (0, 1), leader=0, isr=(0, 1), size_bytes=1.0,
                        bytes_in_per_s=2.0, bytes_out_per_s=20.0),
         PartitionState("t", 1, (1, 2), leader=1, isr=(1, 2), size_bytes=1.0,
                        bytes_in_per_s=4.0, bytes_out_per_s=40.0)])
    allowed = np.ones(3, dtype=bool)
    th = Thresholds()
    assert goal_violations(m, m.replicas, m.leader, "BrokerFailureCapacityGoal", allowed,
                           th) == 2
    # t-0 followed by broker 2 instead: broker 2 takes 20 -> fine
    reps = np.array([[0, 2], [1, 2]])
    assert goal_violations(m, reps, reps[:, 0], "BrokerFailureCapacityGoal", allowed, th) == 0


def test_failover_goal_reorders_followers_without_moving_data() -> None:
    # broker 0 leads t-0 and t-1 (30 B/s out each), broker 1 leads t-2 (30): when broker 0
    # (alone in rack a) stops, Kafka hands t-0 and t-1 to their first follower, broker 1:
    # 90 > 0.8 x 100. Putting the other follower first in t-0 or t-1 keeps everyone <= 60.
    m = _model(["a", "b", "c", "d"], [((0, 1, 2), 1.0, 30.0), ((0, 1, 3), 1.0, 30.0),
                                      ((1, 2, 3), 1.0, 30.0)])
    before = verify(m, m.replicas, FAILURE)
    assert [g.before for g in before.goals if g.name == "BrokerFailureCapacityGoal"] == [2]
    plan = plan_cluster(m, goals=FAILURE)
    assert verify(plan.model, plan.target, FAILURE).ok
    assert plan.bytes_moved == 0.0 and plan.leader_changes == 0
    reordered = (plan.target != m.replicas).any(axis=1)
    assert reordered.sum() == 1 and reordered[2] == 0
    assert (np.sort(plan.target, axis=1) == np.sort(m.replicas, axis=1)).all()
    assert (plan_cluster(m, goals=HARD).target == m.replicas).all()  # opt-in


def test_failover_goal_that_cannot_hold_names_the_failure() -> None:
    m = _model(["a", "b"], [((0, 1), 1.0, 50.0), ((1, 0), 1.0, 30.0)])
    with pytest.raises(OptimizationFailureError) as e:
        plan_cluster(m, goals=FAILURE, thresholds=Thresholds(capacity=0.7))
    assert e.value.goal == "BrokerFailureCapacityGoal"
