"""Hard goals broken before planning (``kpart.cluster._optimizer_repair``): repaired with the
fewest bytes, or refused with one line naming the goal and a partition or broker that makes
it infeasible. Every plan goes through the independent verifier."""

from __future__ import annotations

import numpy as np
import pytest

from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import DEFAULT_GOALS, DEFAULT_THRESHOLDS, Goal, Thresholds, goals_by_name
from kpart.cluster.optimizer import ClusterPlan, plan_cluster
from kpart.cluster.verifier import verify
from kpart.errors import ConfigError, OptimizationFailureError
from kpart.placement.pools import pools_from_dict

CAP = Capacity(disk_bytes=100.0, network_in=100.0, network_out=100.0)
HARD = goals_by_name("RackAwareGoal,ReplicaCapacityGoal,DiskCapacityGoal,"
                     "NetworkInboundCapacityGoal,NetworkOutboundCapacityGoal")


def _model(racks: list[str], parts: list[tuple[tuple[int, ...], float, float]],
           cap: Capacity = CAP) -> ClusterModel:
    """``parts``: (replicas, size, bytes-out per s) of topic ``t``; bytes-in 0."""
    return ClusterModel.from_partitions(
        [ClusterBroker(i, r, cap) for i, r in enumerate(racks)],
        [PartitionState("t", p, reps, leader=reps[0], isr=reps, size_bytes=size,
                        bytes_in_per_s=0.0, bytes_out_per_s=out)
         for p, (reps, size, out) in enumerate(parts)])


def _verified(plan: ClusterPlan, goals: tuple[Goal, ...] = HARD,
              th: Thresholds = DEFAULT_THRESHOLDS) -> ClusterPlan:
    report = verify(plan.model, plan.target, goals, removed=plan.removed, thresholds=th)
    assert report.ok, report
    return plan


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


def test_too_many_replicas_per_broker_spread_or_refused() -> None:
    m = _model(["a", "b", "c"], [((0, 1), 1.0, 0.0), ((0, 2), 1.0, 0.0), ((0, 1), 2.0, 0.0)])
    th = Thresholds(max_replicas_per_broker=2)
    plan = _verified(plan_cluster(m, goals=HARD, thresholds=th), th=th)
    assert int(plan.load_after.replicas.max()) <= 2
    th1 = Thresholds(max_replicas_per_broker=1)
    with pytest.raises(OptimizationFailureError) as e:
        plan_cluster(m, goals=HARD, thresholds=th1)
    assert (e.value.goal, e.value.broker) == ("ReplicaCapacityGoal", 0)


def test_repairs_then_default_goals_pass_the_verifier() -> None:
    m = _model(["a", "a", "b", "b", "c", "c"],
               [((0, 1), 30.0, 5.0), ((0, 2), 30.0, 5.0), ((0, 4), 25.0, 5.0),
                ((2, 3), 10.0, 1.0), ((4, 5), 10.0, 1.0), ((1, 3), 5.0, 1.0)])
    plan = plan_cluster(m)
    _verified(plan, DEFAULT_GOALS)
    assert np.all(plan.load_after.disk_bytes <= 80.0)


FAILURE = (*HARD, *goals_by_name("BrokerFailureCapacityGoal"))


def test_failover_goal_reorders_followers_without_moving_data() -> None:
    # broker 0 leads t-0 and t-1 (30 B/s out each), broker 1 leads t-2 (30): when broker 0
    # (alone in rack a) stops, Kafka hands t-0 and t-1 to their first follower, broker 1:
    # 90 > 0.8 x 100. Putting the other follower first in t-0 or t-1 keeps everyone <= 60.
    m = _model(["a", "b", "c", "d"], [((0, 1, 2), 1.0, 30.0), ((0, 1, 3), 1.0, 30.0),
                                      ((1, 2, 3), 1.0, 30.0)])
    before = verify(m, m.replicas, FAILURE)
    assert [g.before for g in before.goals if g.name == "BrokerFailureCapacityGoal"] == [2]
    plan = _verified(plan_cluster(m, goals=FAILURE), FAILURE)
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


def test_pools_keep_each_topic_on_its_brokers() -> None:
    # pool p1 = brokers 0-2 for topic t; topic u of no pool on brokers 3-5. t-0 sits on 3, 4
    # and u-0 on 0, 1: both move home (the broker-set goal is added after RackAwareGoal)
    brokers = [ClusterBroker(i, "abc"[i % 3], CAP) for i in range(6)]
    parts = [PartitionState("t", 0, (3, 4), leader=3, isr=(3, 4), size_bytes=5.0),
             PartitionState("t", 1, (0, 1), leader=0, isr=(0, 1), size_bytes=5.0),
             PartitionState("u", 0, (0, 1), leader=0, isr=(0, 1), size_bytes=5.0),
             PartitionState("u", 1, (4, 5), leader=4, isr=(4, 5), size_bytes=5.0)]
    m = ClusterModel.from_partitions(brokers, parts)
    spec = pools_from_dict({"pools": {"p1": [0, 1, 2]}, "topics": {"t": "p1"}})
    plan = plan_cluster(m, goals=HARD, pools=spec)
    assert plan.goals[1].name == "BrokerSetAwareGoal"
    goals = (*HARD, *goals_by_name("BrokerSetAwareGoal"))
    report = verify(plan.model, plan.target, goals, pools=spec)
    assert report.ok and report.goals[-1].before == 2 and report.goals[-1].after == 0
    assert set(plan.target[:2].ravel()) <= {0, 1, 2}
    assert set(plan.target[2:].ravel()) <= {3, 4, 5}
    assert plan.replica_moves == 4
    assert verify(plan.model, m.replicas, goals).goals[-1].after == 0  # no pools: holds


def test_a_pool_too_small_names_the_partition() -> None:
    m = _model(["a", "b", "c"], [((0, 1), 1.0, 0.0)])
    spec = pools_from_dict({"pools": {"p1": [0]}, "topics": {"t": "p1"}})
    with pytest.raises(OptimizationFailureError) as e:
        plan_cluster(m, goals=HARD, pools=spec)
    assert (e.value.goal, e.value.partition, e.value.broker) == ("BrokerSetAwareGoal", ("t", 0), 1)
    with pytest.raises(ConfigError, match="Unknown broker id 9 in pool 'p9'"):
        plan_cluster(m, pools=pools_from_dict({"pools": {"p9": [9]}}))


def test_network_out_moves_a_follower_where_leadership_alone_cannot() -> None:
    # broker 0 leads t-0 and t-1 (12 B/s out each), brokers 2 and 3 one each (12), broker 1
    # none and follows nothing with traffic: mean 12, band [10.8, 13.2]. No leadership swap
    # helps broker 1; moving a follower of a partition the over broker leads to broker 1 and
    # passing it the leadership does: one replica, the smallest that fits (t-0 or t-1,
    # depending on which the leadership pass left on the over broker).
    m = _model(["a", "b", "c", "d"], [((0, 2), 1.0, 12.0), ((0, 3), 2.0, 12.0),
                                      ((2, 3), 5.0, 12.0), ((3, 2), 5.0, 12.0),
                                      ((1, 2), 5.0, 0.0)],
               cap=Capacity(disk_bytes=1000.0, network_in=1000.0, network_out=1000.0))
    goals = (*HARD, *goals_by_name("NetworkOutboundUsageDistributionGoal"))
    plan = _verified(plan_cluster(m, goals=goals, network_out_budget=0.1), goals)
    check = verify(plan.model, plan.target, goals)
    assert [(g.before, g.after) for g in check.goals][-1] == (2, 0)
    assert plan.replica_moves == 1 and plan.bytes_moved <= 2.0
    assert int(plan.load_after.leaders[1]) == 2 and plan.load_after.network_out[1] == 12.0
    # no budget: leadership alone, broker 1 stays empty
    none = _verified(plan_cluster(m, goals=goals, network_out_budget=0.0), goals)
    assert none.bytes_moved == 0.0
