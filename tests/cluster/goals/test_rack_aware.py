"""``RackAwareGoal`` (``kpart.cluster.goals.rack_aware``): no two replicas of a partition in
one rack. Its ``check_feasible`` refuses more replicas than racks left, its ``optimize``
relocates the offline replicas and moves the later replica sharing a rack, its ``failure``
names a partition still sharing one. Every plan goes through the independent verifier."""

from __future__ import annotations

import numpy as np
import pytest

from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import DEFAULT_GOALS, Goal, goal_state, goals_by_name
from kpart.cluster.goals.goal import Guards
from kpart.cluster.goals.rack_aware import RackAwareGoal
from kpart.cluster.optimizer import ClusterPlan, plan_cluster
from kpart.cluster.verifier import verify
from kpart.errors import OptimizationFailureError

CAP = Capacity(disk_bytes=100.0, network_in=100.0, network_out=100.0)
HARD = goals_by_name("RackAwareGoal,ReplicaCapacityGoal,DiskCapacityGoal,"
                     "NetworkInboundCapacityGoal,NetworkOutboundCapacityGoal")


def _model(racks: list[str], parts: list[tuple[tuple[int, ...], float, float]]) -> ClusterModel:
    """``parts``: (replicas, size, bytes-out per s) of topic ``t``; bytes-in 0."""
    return ClusterModel.from_partitions(
        [ClusterBroker(i, r, CAP) for i, r in enumerate(racks)],
        [PartitionState("t", p, reps, leader=reps[0], isr=reps, size_bytes=size,
                        bytes_in_per_s=0.0, bytes_out_per_s=out)
         for p, (reps, size, out) in enumerate(parts)])


def _verified(plan: ClusterPlan, goals: tuple[Goal, ...] = HARD) -> ClusterPlan:
    report = verify(plan.model, plan.target, goals, removed=plan.removed)
    assert report.ok, report
    return plan


def test_check_feasible_refuses_more_replicas_than_racks_left() -> None:
    m = _model(["a", "a", "b", "c"], [((0, 2), 1.0, 0.0), ((0, 2, 3), 1.0, 0.0)])
    goal = RackAwareGoal()
    goal.check_feasible(goal_state(m, m.replicas, np.ones(4, bool)), m)  # 3 racks: fine
    s = goal_state(m, m.replicas, np.array([True, True, True, False]))  # rack c removed
    with pytest.raises(OptimizationFailureError) as e:
        goal.check_feasible(s, m)
    assert str(e.value) == ("Infeasible RackAwareGoal: partition t-1 has 3 replicas but the "
                            "brokers left span 2 racks (a, b).")
    assert (e.value.goal, e.value.partition, e.value.broker) == ("RackAwareGoal", ("t", 1), None)


def test_failure_names_a_partition_sharing_a_rack_and_none_once_fixed() -> None:
    m = _model(["a", "a", "b", "b"], [((2, 3), 1.0, 0.0), ((0, 1), 1.0, 0.0),
                                      ((1, 0), 1.0, 0.0)])
    goal = RackAwareGoal()
    s = goal_state(m, m.replicas, np.ones(4, bool))
    e = goal.failure(s, m)
    assert e is not None and (e.goal, e.partition) == ("RackAwareGoal", ("t", 0))
    assert str(e) == ("Infeasible RackAwareGoal: partition t-0 keeps two replicas in one "
                      "rack (3 partitions do) whatever the other hard goals allow.")
    goal.optimize(s, Guards((goal,)))
    assert goal.failure(s, m) is None and goal.violations(s) == 0
    assert s.pos[:, 0].tolist() == [2, 0, 1]  # the leaders stay, the followers move


def test_optimize_relocates_offline_replicas_first_then_others_find_none() -> None:
    # broker 3 is removed: its replica of t-0 goes to the least-filled broker of another
    # rack (broker 2, empty) before the goal's own fix; a second goal finds nothing to move
    m = _model(["a", "b", "c", "d"], [((0, 3), 5.0, 0.0), ((0, 1), 1.0, 0.0)])
    s = goal_state(m, m.replicas, np.array([True, True, True, False]))
    goals = (RackAwareGoal(), *goals_by_name("DiskCapacityGoal"))
    goals[0].optimize(s, Guards(goals))
    assert s.pos[0].tolist() == [0, 2] and int(s.replicas[3]) == 0
    before = s.pos.copy()
    goals[1].optimize(s, Guards(goals, goals[:1]))
    assert (s.pos == before).all()


def test_two_replicas_in_one_rack_move_apart() -> None:
    # brokers 0, 1 in rack a; 2, 3 in rack b; t-0 on 0 and 1 breaks RackAwareGoal
    m = _model(["a", "a", "b", "b"], [((0, 1), 10.0, 0.0), ((2, 0), 20.0, 0.0)])
    plan = _verified(plan_cluster(m, goals=HARD))
    assert plan.target[0, 0] == 0  # the leader stays, the follower moves to rack b
    assert plan.target[0, 1] in (2, 3)
    assert plan.replica_moves == 1 and plan.bytes_moved == 10.0


def test_more_replicas_than_racks_names_the_partition() -> None:
    m = _model(["a", "a", "b", "b"], [((0, 2), 1.0, 0.0), ((0, 1, 2), 1.0, 0.0)])
    with pytest.raises(OptimizationFailureError) as e:
        plan_cluster(m, goals=HARD)
    assert (e.value.goal, e.value.partition, e.value.broker) == ("RackAwareGoal", ("t", 1), None)


def test_removing_a_rack_can_make_rack_awareness_infeasible() -> None:
    m = _model(["a", "b", "c"], [((0, 1, 2), 1.0, 0.0)])
    with pytest.raises(OptimizationFailureError) as e:
        plan_cluster(m, remove_brokers=[2])
    assert (e.value.goal, e.value.partition) == ("RackAwareGoal", ("t", 0))


def test_repairs_then_default_goals_pass_the_verifier() -> None:
    m = _model(["a", "a", "b", "b", "c", "c"],
               [((0, 1), 30.0, 5.0), ((0, 2), 30.0, 5.0), ((0, 4), 25.0, 5.0),
                ((2, 3), 10.0, 1.0), ((4, 5), 10.0, 1.0), ((1, 3), 5.0, 1.0)])
    plan = plan_cluster(m)
    _verified(plan, DEFAULT_GOALS)
    assert np.all(plan.load_after.disk_bytes <= 80.0)
