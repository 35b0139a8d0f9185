"""``ReplicaCapacityGoal`` (``kpart.cluster.goals.replica_capacity``): at most
``max.replicas.per.broker`` replicas a broker. Its ``check_feasible`` refuses more replicas
than the brokers left may hold, its ``optimize`` spreads a broker's smallest replicas to the
brokers holding fewest, its ``failure`` names a broker still over."""

from __future__ import annotations

import numpy as np
import pytest

from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import Thresholds, goal_state, goals_by_name
from kpart.cluster.goals.goal import Guards
from kpart.cluster.goals.replica_capacity import ReplicaCapacityGoal
from kpart.cluster.optimizer import plan_cluster
from kpart.cluster.verifier import verify
from kpart.errors import OptimizationFailureError

CAP = Capacity(disk_bytes=100.0, network_in=100.0, network_out=100.0)
HARD = goals_by_name("RackAwareGoal,ReplicaCapacityGoal,DiskCapacityGoal,"
                     "NetworkInboundCapacityGoal,NetworkOutboundCapacityGoal")


def _model(racks: list[str], parts: list[tuple[tuple[int, ...], float]]) -> ClusterModel:
    """``parts``: (replicas, size) of topic ``t``."""
    return ClusterModel.from_partitions(
        [ClusterBroker(i, r, CAP) for i, r in enumerate(racks)],
        [PartitionState("t", p, reps, leader=reps[0], isr=reps, size_bytes=size,
                        bytes_in_per_s=0.0, bytes_out_per_s=0.0)
         for p, (reps, size) in enumerate(parts)])


M = _model(["a", "b", "c"], [((0, 1), 1.0), ((0, 2), 1.0), ((0, 1), 2.0)])


def test_check_feasible_refuses_more_replicas_than_the_brokers_left_hold() -> None:
    goal = ReplicaCapacityGoal()
    goal.check_feasible(goal_state(M, M.replicas, np.ones(3, bool),
                                   Thresholds(max_replicas_per_broker=2)), M)  # 6 <= 3 x 2
    s = goal_state(M, M.replicas, np.ones(3, bool), Thresholds(max_replicas_per_broker=1))
    with pytest.raises(OptimizationFailureError) as e:
        goal.check_feasible(s, M)
    assert str(e.value) == ("Infeasible ReplicaCapacityGoal: 6 replicas over 3 brokers is "
                            "more than max.replicas.per.broker=1 each (broker 0 holds 3).")
    assert (e.value.goal, e.value.broker, e.value.partition) == ("ReplicaCapacityGoal", 0, None)


def test_failure_names_the_broker_over_the_limit_and_none_once_spread() -> None:
    goal = ReplicaCapacityGoal()
    s = goal_state(M, M.replicas, np.ones(3, bool), Thresholds(max_replicas_per_broker=2))
    e = goal.failure(s, M)
    assert e is not None and str(e) == ("Infeasible ReplicaCapacityGoal: broker 0 keeps 3 "
                                        "replicas, over max.replicas.per.broker=2 (1 brokers "
                                        "do).")
    assert (e.goal, e.broker) == ("ReplicaCapacityGoal", 0)
    goal.optimize(s, Guards((goal,)))
    assert goal.failure(s, M) is None and s.replicas.tolist() == [2, 2, 2]
    assert s.pos[0].tolist() == [2, 1]  # the smallest replica went to the emptiest broker


def test_too_many_replicas_per_broker_spread_or_refused() -> None:
    th = Thresholds(max_replicas_per_broker=2)
    plan = plan_cluster(M, goals=HARD, thresholds=th)
    assert verify(plan.model, plan.target, HARD, thresholds=th).ok
    assert int(plan.load_after.replicas.max()) <= 2
    th1 = Thresholds(max_replicas_per_broker=1)
    with pytest.raises(OptimizationFailureError) as e:
        plan_cluster(M, goals=HARD, thresholds=th1)
    assert (e.value.goal, e.value.broker) == ("ReplicaCapacityGoal", 0)
