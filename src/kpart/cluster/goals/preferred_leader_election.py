"""Cruise Control's ``PreferredLeaderElectionGoal``: every partition led by its first replica."""

from __future__ import annotations

from dataclasses import dataclass

from kpart.cluster.goals.goal import Goal
from kpart.cluster.goals.state import GoalState

__all__ = ["PreferredLeaderElectionGoal"]


@dataclass(frozen=True, slots=True)
class PreferredLeaderElectionGoal(Goal):
    """``PreferredLeaderElectionGoal``: every partition led by its first replica. The target
    always is (the leader is slot 0 of :attr:`GoalState.pos`): 0 violations.

    >>> PreferredLeaderElectionGoal().hard
    False
    """

    name: str = "PreferredLeaderElectionGoal"
    hard: bool = False

    def violations(self, state: GoalState) -> int:
        return 0
