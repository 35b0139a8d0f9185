"""The ``CapacityGoal`` family (``kpart.cluster.goals.capacity``): a broker's disk, network
in or network out ≤ the capacity threshold × its capacity. A hard one's ``check_feasible``
refuses a replica or a total load over the threshold of the brokers left, its ``optimize``
relieves each broker over the limit with the fewest bytes (network out: leadership first),
its ``failure`` names a broker still over; ``PotentialNwOutGoal`` (soft) only guards."""

from __future__ import annotations

import numpy as np
import pytest

from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import Goal, Thresholds, goal_state, goals_by_name
from kpart.cluster.goals.capacity import (
    DiskCapacityGoal,
    NetworkInboundCapacityGoal,
    NetworkOutboundCapacityGoal,
    PotentialNwOutGoal,
)
from kpart.cluster.goals.goal import Guards
from kpart.cluster.optimizer import ClusterPlan, plan_cluster
from kpart.cluster.verifier import goal_violations, verify
from kpart.errors import OptimizationFailureError

CAP = Capacity(disk_bytes=100.0, network_in=100.0, network_out=100.0)
HARD = goals_by_name("RackAwareGoal,ReplicaCapacityGoal,DiskCapacityGoal,"
                     "NetworkInboundCapacityGoal,NetworkOutboundCapacityGoal")


def _model(racks: list[str], parts: list[tuple[tuple[int, ...], float, float]],
           rate_in: float = 0.0) -> ClusterModel:
    """``parts``: (replicas, size, bytes-out per s) of topic ``t``; bytes-in ``rate_in``."""
    return ClusterModel.from_partitions(
        [ClusterBroker(i, r, CAP) for i, r in enumerate(racks)],
        [PartitionState("t", p, reps, leader=reps[0], isr=reps, size_bytes=size,
                        bytes_in_per_s=rate_in, bytes_out_per_s=out)
         for p, (reps, size, out) in enumerate(parts)])


def _verified(plan: ClusterPlan, goals: tuple[Goal, ...] = HARD) -> ClusterPlan:
    report = verify(plan.model, plan.target, goals, removed=plan.removed)
    assert report.ok, report
    return plan


def _refusal(goal: Goal, m: ClusterModel) -> OptimizationFailureError:
    with pytest.raises(OptimizationFailureError) as e:
        goal.check_feasible(goal_state(m, m.replicas, np.ones(len(m.brokers), bool)), m)
    return e.value


def test_check_feasible_refuses_a_replica_over_every_limit() -> None:
    m = _model(["a", "b", "c"], [((0, 1), 90.0, 0.0), ((1, 2), 1.0, 0.0)])
    e = _refusal(DiskCapacityGoal(), m)
    assert str(e) == ("Infeasible DiskCapacityGoal: partition t-0's replica needs 90 bytes of "
                      "disk, over 0.8 x the capacity of every broker left.")
    assert (e.goal, e.partition, e.broker) == ("DiskCapacityGoal", ("t", 0), None)
    m = _model(["a", "b"], [((0, 1), 1.0, 85.0)])
    e = _refusal(NetworkOutboundCapacityGoal(), m)
    assert str(e) == ("Infeasible NetworkOutboundCapacityGoal: partition t-0's replica needs "
                      "85 bytes/s of network out, over 0.8 x the capacity of every broker "
                      "left.")


def test_check_feasible_refuses_a_total_over_the_brokers_left() -> None:
    m = _model(["a", "b"], [((0, 1), 1.0, 0.0), ((1, 0), 1.0, 0.0)], rate_in=45.0)
    e = _refusal(NetworkInboundCapacityGoal(), m)  # 4 replicas x 45 = 180 > 0.8 x 200
    assert str(e) == ("Infeasible NetworkInboundCapacityGoal: the partitions need 180 bytes/s "
                      "of network in, over 0.8 x the 200 bytes/s the brokers left have "
                      "(broker 0 holds 90 of 100).")
    assert (e.goal, e.broker, e.partition) == ("NetworkInboundCapacityGoal", 0, None)
    DiskCapacityGoal().check_feasible(goal_state(m, m.replicas, np.ones(2, bool)), m)


def test_failure_names_the_most_loaded_broker_and_a_soft_goal_none() -> None:
    m = _model(["a", "b", "c", "d"], [((0, 1), 50.0, 60.0), ((0, 2), 40.0, 30.0)])
    s = goal_state(m, m.replicas, np.ones(4, bool))
    e = DiskCapacityGoal().failure(s, m)
    assert e is not None and str(e) == (
        "Infeasible DiskCapacityGoal: broker 0 keeps 90 bytes of disk, over 0.8 x its 100 "
        "(1 brokers do): no replica it holds fits elsewhere.")
    assert (e.goal, e.broker) == ("DiskCapacityGoal", 0)
    assert NetworkOutboundCapacityGoal().failure(s, m) is not None  # 90 out > 80
    assert NetworkInboundCapacityGoal().failure(s, m) is None
    soft = PotentialNwOutGoal()
    assert soft.violations(s) == 1 and soft.failure(s, m) is None
    soft.check_feasible(s, m)
    goal = DiskCapacityGoal()
    goal.optimize(s, Guards((goal,)))  # 40 (the smallest covering the excess 10) moves
    assert goal.failure(s, m) is None and s.disk.tolist() == [50.0, 50.0, 40.0, 40.0]


def test_capacity_goal_counts_brokers_over_the_threshold() -> None:
    brokers = [ClusterBroker(i, f"r{i % 2}", CAP) for i in range(4)]
    parts = [PartitionState("t", p, ((p) % 4, (p + 1) % 4), leader=p % 4, size_bytes=s,
                            bytes_in_per_s=s / 10, bytes_out_per_s=s / 5)
             for p, s in enumerate((50.0, 40.0, 1.0))]
    m = ClusterModel.from_partitions(brokers, parts)
    th = Thresholds()
    allowed = np.ones(4, dtype=bool)
    # broker 0 holds 50 + 40 = 90 > 0.8 * 100
    reps = np.array([[0, 1], [0, 3], [2, 3]])
    assert goal_violations(m, reps, reps[:, 0], "DiskCapacityGoal", allowed, th) == 1


def test_a_full_disk_sheds_the_fewest_bytes() -> None:
    # broker 0 holds 50 + 40 + 5 = 95 > 0.8 x 100: moving 40 (the smallest replica that
    # covers the excess of 15) fixes it; 5 is too small, 50 moves more bytes
    m = _model(["a", "b", "c", "d"], [((0, 1), 50.0, 0.0), ((0, 2), 40.0, 0.0),
                                      ((0, 3), 5.0, 0.0)])
    plan = _verified(plan_cluster(m, goals=HARD))
    assert plan.bytes_moved == 40.0
    assert plan.load_after.disk_bytes[0] == 55.0


def test_network_out_over_capacity_moves_leadership_not_data() -> None:
    # broker 0 leads two partitions of 50 bytes/s out each: 100 > 80; passing one
    # leadership to its follower (broker 1, with room) moves no data
    m = _model(["a", "b", "c"], [((0, 1), 1.0, 50.0), ((0, 2), 1.0, 50.0)])
    plan = _verified(plan_cluster(m, goals=HARD))
    assert plan.bytes_moved == 0.0 and plan.leader_changes == 1
    assert plan.load_after.network_out.max() <= 80.0


def test_total_load_over_the_threshold_names_a_broker() -> None:
    m = _model(["a", "b"], [((0, 1), 50.0, 0.0), ((1, 0), 40.0, 0.0)])  # 90 each > 80
    with pytest.raises(OptimizationFailureError) as e:
        plan_cluster(m, goals=HARD)
    assert (e.value.goal, e.value.broker, e.value.partition) == ("DiskCapacityGoal", 0, None)


def test_a_replica_larger_than_every_limit_names_the_partition() -> None:
    m = _model(["a", "b", "c"], [((0, 1), 90.0, 0.0), ((1, 2), 1.0, 0.0)])
    with pytest.raises(OptimizationFailureError) as e:
        plan_cluster(m, goals=HARD)
    assert (e.value.goal, e.value.partition) == ("DiskCapacityGoal", ("t", 0))


def test_an_offline_replica_no_broker_can_take_stays_and_the_plan_names_it() -> None:
    # broker 2 is removed; t-1's 40 bytes fit on neither broker 0 nor 1 (50 each, limit 80)
    # though the total (140) is under the brokers' 160: the goal's optimize leaves it, the
    # plan names it (and the goals refusing it)
    m = _model(["a", "b", "c"], [((0, 1), 50.0, 0.0), ((2,), 40.0, 0.0)])
    goal = DiskCapacityGoal()
    s = goal_state(m, m.replicas, np.array([True, True, False]))
    goal.check_feasible(s, m)
    goal.optimize(s, Guards((goal,)))
    assert s.pos[1].tolist() == [2, -1] and int(s.replicas[2]) == 1
    with pytest.raises(OptimizationFailureError) as e:
        plan_cluster(m, goals=goals_by_name("DiskCapacityGoal"), remove_brokers=[2])
    assert str(e.value) == ("Infeasible DiskCapacityGoal: no broker left can take partition "
                            "t-1's replica on broker 2 (1 replicas left on removed brokers) "
                            "without breaking it.")
    assert (e.value.goal, e.value.broker, e.value.partition) == ("DiskCapacityGoal", 2, ("t", 1))
    m2 = _model(["a", "b", "c"], [((0, 1), 30.0, 0.0), ((2,), 40.0, 0.0)])
    s2 = goal_state(m2, m2.replicas, np.array([True, True, False]))
    goal.optimize(s2, Guards((goal,)))  # with room: relocated to the least-filled broker
    assert s2.pos[1].tolist() == [0, -1] and int(s2.replicas[2]) == 0
