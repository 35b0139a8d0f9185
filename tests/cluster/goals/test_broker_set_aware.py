"""``BrokerSetAwareGoal`` (``kpart.cluster.goals.broker_set_aware``, kpart's resource pools):
each topic's replicas on its pool's brokers. Its ``optimize`` moves each replica outside its
pool home, its ``failure`` names a partition keeping one outside; with no pools it holds."""

from __future__ import annotations

import numpy as np
import pytest

from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import goal_state, goals_by_name
from kpart.cluster.goals.broker_set_aware import BrokerSetAwareGoal, pool_arrays
from kpart.cluster.goals.goal import Guards
from kpart.cluster.goals.state import GoalSettings
from kpart.cluster.optimizer import plan_cluster
from kpart.cluster.verifier import verify
from kpart.errors import ConfigError, OptimizationFailureError
from kpart.placement.pools import pools_from_dict

CAP = Capacity(disk_bytes=100.0, network_in=100.0, network_out=100.0)
HARD = goals_by_name("RackAwareGoal,ReplicaCapacityGoal,DiskCapacityGoal,"
                     "NetworkInboundCapacityGoal,NetworkOutboundCapacityGoal")


def _model(racks: list[str], parts: list[tuple[tuple[int, ...], float]]) -> ClusterModel:
    return ClusterModel.from_partitions(
        [ClusterBroker(i, r, CAP) for i, r in enumerate(racks)],
        [PartitionState("t", p, reps, leader=reps[0], isr=reps, size_bytes=size)
         for p, (reps, size) in enumerate(parts)])


def test_failure_names_a_replica_outside_its_pool_and_none_once_home() -> None:
    m = _model(["a", "b", "c"], [((0, 2), 1.0)])
    topic_pool, broker_pool = pool_arrays(
        m, pools_from_dict({"pools": {"p1": [0, 1]}, "topics": {"t": "p1"}}))
    s = goal_state(m, m.replicas, np.ones(3, bool),
                   settings=GoalSettings(topic_pool=topic_pool, broker_pool=broker_pool))
    goal = BrokerSetAwareGoal()
    goal.check_feasible(s, m)  # nothing to refuse up front
    e = goal.failure(s, m)
    assert e is not None and str(e) == (
        "Infeasible BrokerSetAwareGoal: partition t-0 keeps a replica on broker 2, outside its "
        "pool (1 partitions do): its pool has no broker every hard goal accepts.")
    assert (e.goal, e.partition, e.broker) == ("BrokerSetAwareGoal", ("t", 0), 2)
    goal.optimize(s, Guards((goal,)))
    assert s.pos[0].tolist() == [0, 1] and goal.failure(s, m) is None
    plain = goal_state(m, m.replicas, np.ones(3, bool))  # no pools: always holds
    assert goal.failure(plain, m) is None


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
    m = ClusterModel.from_partitions(
        [ClusterBroker(i, r, CAP) for i, r in enumerate(["a", "b", "c"])],
        [PartitionState("t", 0, (0, 1), leader=0, isr=(0, 1), size_bytes=1.0,
                        bytes_in_per_s=0.0, bytes_out_per_s=0.0)])
    spec = pools_from_dict({"pools": {"p1": [0]}, "topics": {"t": "p1"}})
    with pytest.raises(OptimizationFailureError) as e:
        plan_cluster(m, goals=HARD, pools=spec)
    assert (e.value.goal, e.value.partition, e.value.broker) == ("BrokerSetAwareGoal", ("t", 0), 1)
    with pytest.raises(ConfigError, match="Unknown broker id 9 in pool 'p9'"):
        plan_cluster(m, pools=pools_from_dict({"pools": {"p9": [9]}}))
