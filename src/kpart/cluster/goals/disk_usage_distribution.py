"""Cruise Control's ``DiskUsageDistributionGoal``: each broker's disk utilization (soft)."""

from __future__ import annotations

from dataclasses import dataclass

from kpart.cluster.goals.goal import Guards
from kpart.cluster.goals.resource_distribution import ResourceDistributionGoal
from kpart.cluster.goals.state import GoalState

__all__ = ["DiskUsageDistributionGoal"]


@dataclass(frozen=True, slots=True)
class DiskUsageDistributionGoal(ResourceDistributionGoal):
    """``DiskUsageDistributionGoal``: each broker's disk utilization, within ``Thresholds.disk_balance`` of the mean (soft)."""

    name: str = "DiskUsageDistributionGoal"
    hard: bool = False
    resource: str = "disk"
    capacity: str = "cap_disk"
    threshold: str = "disk_balance"
    upper_only: bool = False

    def rebalance(self, state: GoalState, guards: Guards) -> None:
        self.rebalance_by_moving_replicas(state, guards, state.size)
