"""Cruise Control's ``RackAwareGoal``: no two replicas of a partition in one rack (hard)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kpart.cluster.goals.goal import Goal
from kpart.cluster.goals.state import GoalState

__all__ = ["RackAwareGoal", "rack_violations"]


def rack_violations(state: GoalState) -> np.ndarray:
    """Rows (int64) with two replicas in one rack."""
    r = np.where(state.pos >= 0, state.rack[np.maximum(state.pos, 0)], -(2**30))
    r = np.where(state.pos >= 0, r, -(2**30) - np.arange(r.shape[1])[None, :])
    srt = np.sort(r, axis=1)
    return np.flatnonzero((srt[:, 1:] == srt[:, :-1]).any(axis=1))


@dataclass(frozen=True, slots=True)
class RackAwareGoal(Goal):
    """``RackAwareGoal``: no two replicas of a partition in one rack (hard). Violations: the
    partitions with two replicas in one rack.

    >>> RackAwareGoal().name, RackAwareGoal().hard
    ('RackAwareGoal', True)
    """

    name: str = "RackAwareGoal"
    hard: bool = True

    def violations(self, state: GoalState) -> int:
        return len(rack_violations(state))

    def accepts(self, state: GoalState, row: int, src: int, dst: int) -> bool:
        rk = state.rack[dst]
        return all(p == src or p < 0 or state.rack[p] != rk for p in state.pos[row].tolist())
