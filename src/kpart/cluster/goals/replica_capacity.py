"""Cruise Control's ``ReplicaCapacityGoal``: at most ``max.replicas.per.broker`` replicas a
broker (hard)."""

from __future__ import annotations

from dataclasses import dataclass

from kpart.cluster.goals.goal import Goal
from kpart.cluster.goals.state import GoalState

__all__ = ["ReplicaCapacityGoal"]


@dataclass(frozen=True, slots=True)
class ReplicaCapacityGoal(Goal):
    """``ReplicaCapacityGoal``: at most ``max.replicas.per.broker`` replicas a broker (hard).
    Violations: the brokers over it.

    >>> ReplicaCapacityGoal().name
    'ReplicaCapacityGoal'
    """

    name: str = "ReplicaCapacityGoal"
    hard: bool = True

    def violations(self, state: GoalState) -> int:
        return int((state.replicas > state.thresholds.max_replicas_per_broker).sum())

    def accepts(self, state: GoalState, row: int, src: int, dst: int) -> bool:
        return bool(state.replicas[dst] + 1 <= state.thresholds.max_replicas_per_broker)
