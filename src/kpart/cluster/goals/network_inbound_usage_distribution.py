"""Cruise Control's ``NetworkInboundUsageDistributionGoal``: each broker's network-in utilization (soft)."""

from __future__ import annotations

from dataclasses import dataclass

from kpart.cluster.goals.goal import Guards
from kpart.cluster.goals.resource_distribution import ResourceDistributionGoal
from kpart.cluster.goals.state import GoalState

__all__ = ["NetworkInboundUsageDistributionGoal"]


@dataclass(frozen=True, slots=True)
class NetworkInboundUsageDistributionGoal(ResourceDistributionGoal):
    """``NetworkInboundUsageDistributionGoal``: each broker's network-in utilization, within ``Thresholds.network_in_balance`` of the mean (soft)."""

    name: str = "NetworkInboundUsageDistributionGoal"
    hard: bool = False
    resource: str = "nw_in"
    capacity: str = "cap_in"
    threshold: str = "network_in_balance"
    upper_only: bool = False

    def rebalance(self, state: GoalState, guards: Guards) -> None:
        self.rebalance_by_moving_replicas(state, guards, state.rate_in)
