"""Cruise Control's ``RackAwareGoal``: no two replicas of a partition in one rack (hard):
infeasible when a partition has more replicas than the racks left; its fix moves the later
replica sharing a rack to the least-filled broker of an unused rack."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kpart.cluster.goals.goal import Goal, Guards
from kpart.cluster.goals.optimization_failure import optimization_failure
from kpart.cluster.goals.relocation import relocate_first_accepted
from kpart.cluster.goals.state import GoalState
from kpart.cluster.model import ClusterModel
from kpart.errors import OptimizationFailureError

__all__ = ["RackAwareGoal", "rack_misplaced", "rack_violations"]


def rack_violations(state: GoalState) -> np.ndarray:
    """Rows (int64) with two replicas in one rack."""
    r = np.where(state.pos >= 0, state.rack[np.maximum(state.pos, 0)], -(2**30))
    r = np.where(state.pos >= 0, r, -(2**30) - np.arange(r.shape[1])[None, :])
    srt = np.sort(r, axis=1)
    return np.flatnonzero((srt[:, 1:] == srt[:, :-1]).any(axis=1))


def rack_misplaced(state: GoalState, row: int) -> list[int]:
    """Slots of ``row`` sharing a rack with another replica of it, followers first (the
    leader stays where it can)."""
    p = state.pos[row]
    held = np.flatnonzero(p >= 0)[::-1]
    codes = state.rack[p[held]]
    return [k for k in held.tolist() if (codes == state.rack[p[k]]).sum() >= 2]


@dataclass(frozen=True, slots=True)
class RackAwareGoal(Goal):
    """``RackAwareGoal``: no two replicas of a partition in one rack (hard). Violations: the
    partitions with two replicas in one rack.

    >>> from kpart.cluster.model import ClusterBroker, ClusterModel, PartitionState
    >>> from kpart.cluster.goals.state import goal_state
    >>> m = ClusterModel.from_partitions([ClusterBroker(i, "ab"[i // 2]) for i in range(4)],
    ...     [PartitionState("t", 0, (0, 1))])
    >>> s = goal_state(m, m.replicas, np.ones(4, bool))
    >>> g = RackAwareGoal(); g.name, g.hard, g.violations(s)
    ('RackAwareGoal', True, 1)
    >>> e = g.failure(s, m); e.goal, e.partition
    ('RackAwareGoal', ('t', 0))
    >>> g.optimize(s, Guards((g,))); s.pos[0].tolist(), g.failure(s, m)
    ([0, 2], None)
    """

    name: str = "RackAwareGoal"
    hard: bool = True

    def violations(self, state: GoalState) -> int:
        return len(rack_violations(state))

    def accepts(self, state: GoalState, row: int, src: int, dst: int) -> bool:
        rk = state.rack[dst]
        return all(p == src or p < 0 or state.rack[p] != rk for p in state.pos[row].tolist())

    def check_feasible(self, state: GoalState, model: ClusterModel) -> None:
        """A partition with more replicas than the racks of the brokers left: infeasible."""
        racks = np.unique(state.rack[state.allowed])
        rf = (state.pos >= 0).sum(axis=1)
        row = int(np.argmax(rf))
        if len(rf) and rf[row] > len(racks):
            names = sorted({b.rack or f"(broker {b.id})"
                            for b, ok in zip(model.brokers, state.allowed, strict=True) if ok})
            raise optimization_failure(
                f"Infeasible {self.name}: partition {model.partition_name(row)} has "
                f"{int(rf[row])} replicas but the brokers left span {len(racks)} "
                f"racks ({', '.join(names)}).", self.name, model, row=row)

    def rebalance(self, state: GoalState, guards: Guards) -> None:
        """Each partition with two replicas in one rack: the later of them to the
        least-filled broker (by disk) the guards accept — every goal's first, then the hard
        goals' (:meth:`Guards.fallbacks`)."""
        for moves in guards.fallbacks():
            for row in rack_violations(state).tolist():
                relocate_first_accepted(state, row, rack_misplaced(state, row), moves)

    def failure(self, state: GoalState, model: ClusterModel) -> OptimizationFailureError | None:
        found = rack_violations(state)
        if not len(found):
            return None
        row = int(found[0])
        return optimization_failure(
            f"Infeasible {self.name}: partition {model.partition_name(row)} keeps two replicas in "
            f"one rack ({len(found)} partitions do) whatever the other hard goals allow.",
            self.name, model, row=row)
