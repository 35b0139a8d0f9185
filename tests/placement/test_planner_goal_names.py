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
