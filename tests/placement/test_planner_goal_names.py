"""The count-based planner's goals: Cruise Control's names and the load-aware goals' contract
(``name``, ``hard``, ``violations``, ``accepts``, ``accepts_leader``)."""

from __future__ import annotations

import inspect

from kpart.cluster.goals import GOALS
from kpart.placement._goals import DEFAULT_GOALS

# kpart's invariants Cruise Control's model keeps by construction (no Cruise Control goal)
_KPART_ONLY = {"ReplicationFactorGoal", "DistinctBrokersGoal", "RemovedBrokersGoal"}


def test_goal_names_are_cruise_controls() -> None:
    names = [g.name for g in DEFAULT_GOALS]
    assert names == ["ReplicationFactorGoal", "DistinctBrokersGoal", "RemovedBrokersGoal",
                     "BrokerSetAwareGoal", "RackAwareGoal", "ReplicaDistributionGoal",
                     "LeaderReplicaDistributionGoal"]
    cc = {g.name for g in GOALS}
    assert set(names) - _KPART_ONLY <= cc
    assert all(type(g).__name__ == g.name for g in DEFAULT_GOALS)


def test_goals_share_the_cluster_goals_contract() -> None:
    for g in DEFAULT_GOALS:
        for method in ("violations", "accepts", "accepts_leader"):
            params = list(inspect.signature(getattr(g, method)).parameters)
            assert params[0] == "state", (g.name, method, params)
        assert isinstance(g.hard, bool)


def test_an_empty_pool_is_an_optimization_failure_naming_the_goal() -> None:
    import pytest

    from kpart.errors import OptimizationFailureError
    from kpart.placement.planner import plan
    from kpart.placement.pools import pools_from_dict
    from kpart.placement.spec import Broker

    current = {"t": {0: (1, 2), 1: (2, 1)}, "u": {3: (3,)}}
    brokers = [Broker(1, None), Broker(2, None), Broker(3, None)]
    spec = pools_from_dict({"pools": {"p": [3]}, "topics": {"u": "p"}})
    with pytest.raises(OptimizationFailureError) as e:
        plan(current, brokers, remove_brokers=[3], pools=spec)
    assert (e.value.goal, e.value.partition, e.value.broker) == ("BrokerSetAwareGoal", ("u", 3),
                                                                 None)
