"""The goal registry (``kpart.cluster.goals.registry``): goals found by name in the order
given, unknown names refused naming them, every goal a unit with its own class, and
BrokerSetAwareGoal placed after RackAwareGoal for a plan with pools."""

from __future__ import annotations

import pytest

from kpart.cluster.goals import GOALS, Goal, goals_by_name
from kpart.cluster.goals.registry import DEFAULT_GOALS, with_broker_sets
from kpart.errors import ConfigError


def test_names_in_the_order_given() -> None:
    got = goals_by_name("LeaderReplicaDistributionGoal, RackAwareGoal")
    assert [g.name for g in got] == ["LeaderReplicaDistributionGoal", "RackAwareGoal"]


def test_an_unknown_goal_is_refused_by_name() -> None:
    with pytest.raises(ConfigError, match="Unknown goal 'RackGoal'"):
        goals_by_name("RackGoal")


def test_each_goal_is_its_own_class_named_as_the_goal() -> None:
    assert all(isinstance(g, Goal) and type(g).__name__ == g.name for g in GOALS)
    assert len({type(g) for g in GOALS}) == len(GOALS)


def test_pools_add_broker_set_awareness_after_rack_awareness() -> None:
    names = [g.name for g in with_broker_sets(DEFAULT_GOALS)]
    assert names[:2] == ["RackAwareGoal", "BrokerSetAwareGoal"]
    once = with_broker_sets(DEFAULT_GOALS)
    assert with_broker_sets(once) == once
