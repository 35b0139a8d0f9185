"""Cruise Control's ``ReplicaCapacityGoal``: at most ``max.replicas.per.broker`` replicas a
broker (hard): infeasible when the brokers left cannot hold every replica so; its fix moves
a broker's smallest replicas to the brokers holding fewest."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kpart.cluster.goals.goal import Goal, Guards
from kpart.cluster.goals.optimization_failure import broker_name, optimization_failure
from kpart.cluster.goals.relocation import SCAN, move_first
from kpart.cluster.goals.state import GoalState
from kpart.cluster.model import ClusterModel
from kpart.errors import OptimizationFailureError

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

    def check_feasible(self, state: GoalState, model: ClusterModel) -> None:
        """More replicas than the brokers left may hold: infeasible."""
        total = int(state.replicas.sum())
        n = int(state.allowed.sum())
        most = state.thresholds.max_replicas_per_broker
        if total > n * most:
            b = int(np.argmax(state.replicas))
            raise optimization_failure(
                f"Infeasible {self.name}: {total} replicas over {n} brokers is more than "
                f"max.replicas.per.broker={most} each ({broker_name(model, b)} holds "
                f"{int(state.replicas.max())}).", self.name, model, b=b)

    def rebalance(self, state: GoalState, guards: Guards) -> None:
        """The smallest replicas of a broker over the limit to the brokers holding fewest
        the guards accept — every goal's first, then the hard goals'
        (:meth:`Guards.fallbacks`)."""
        most = state.thresholds.max_replicas_per_broker
        for moves in guards.fallbacks():
            for g in np.flatnonzero(state.allowed & (state.replicas > most)).tolist():
                while state.replicas[g] > most:
                    rows, slots = state.replicas_on(g)
                    order = np.argsort(state.size[rows], kind="stable")[:SCAN]
                    fewest = np.argsort(np.where(state.allowed, state.replicas,
                                                 np.iinfo(np.int64).max),
                                        kind="stable")[:16].tolist()
                    if not move_first(state, rows[order], slots[order], g, fewest, moves):
                        break

    def failure(self, state: GoalState, model: ClusterModel) -> OptimizationFailureError | None:
        n = self.violations(state)
        if not n:
            return None
        b = int(np.argmax(state.replicas))
        return optimization_failure(
            f"Infeasible {self.name}: {broker_name(model, b)} keeps {int(state.replicas[b])} "
            f"replicas, over max.replicas.per.broker={state.thresholds.max_replicas_per_broker}"
            f" ({n} brokers do).", self.name, model, b=b)
