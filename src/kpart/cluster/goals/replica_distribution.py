"""Cruise Control's ``ReplicaDistributionGoal``: each broker's replica count (soft)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kpart.cluster.goals._replica_movement import fill_counts
from kpart.cluster.goals.goal import Guards
from kpart.cluster.goals.resource_distribution import ResourceDistributionGoal
from kpart.cluster.goals.state import BALANCE_MARGIN, GoalState, count_band

__all__ = ["ReplicaDistributionGoal"]


@dataclass(frozen=True, slots=True)
class ReplicaDistributionGoal(ResourceDistributionGoal):
    """``ReplicaDistributionGoal``: each broker's replica count, within ``Thresholds.replica_balance`` of the mean (soft)."""

    name: str = "ReplicaDistributionGoal"
    hard: bool = False
    resource: str = "replicas"
    capacity: str = ""
    threshold: str = "replica_balance"
    upper_only: bool = False

    def rebalance(self, state: GoalState, guards: Guards) -> None:
        """Replica counts into the band aimed at: brokers under it take replicas sized to
        what they still need of the disk target (bytes that must move anyway when the disk
        goal is one of the plan's, taken from brokers above the disk band aimed at: none
        moves twice) — :func:`~kpart.cluster.goals._replica_movement.fill_counts`; in bulk unless
        ``guards.strict``."""
        th = state.thresholds
        lo, hi = count_band(state.replicas, state.allowed, getattr(th, self.threshold),
                            BALANCE_MARGIN)
        cap = np.where(np.isfinite(state.cap_disk), state.cap_disk, 1.0)
        target = cap * state.disk.sum() / cap[state.allowed].sum()
        disk_goal = any(isinstance(x, ResourceDistributionGoal) and x.resource == "disk"
                        for x in guards.goals)
        giver = target * (1 + (th.disk_balance - 1) * BALANCE_MARGIN) if disk_goal else None
        fill_counts(state, lo, hi, guards.moves(), target, bulk=not guards.strict,
                    giver_disk=giver)
