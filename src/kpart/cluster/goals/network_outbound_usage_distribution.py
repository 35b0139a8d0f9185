"""Cruise Control's ``NetworkOutboundUsageDistributionGoal``: each broker's network-out utilization (as leader) (soft)."""

from __future__ import annotations

from dataclasses import dataclass

from kpart.cluster.goals.goal import Guards
from kpart.cluster.goals.joint_leadership import finish_jointly, solve_jointly
from kpart.cluster.goals.resource_distribution import ResourceDistributionGoal
from kpart.cluster.goals.state import GoalState

__all__ = ["NetworkOutboundUsageDistributionGoal"]


@dataclass(frozen=True, slots=True)
class NetworkOutboundUsageDistributionGoal(ResourceDistributionGoal):
    """``NetworkOutboundUsageDistributionGoal``: each broker's network-out utilization (as leader), within ``Thresholds.network_out_balance`` of the mean (soft)."""

    name: str = "NetworkOutboundUsageDistributionGoal"
    hard: bool = False
    resource: str = "nw_out"
    capacity: str = "cap_out"
    threshold: str = "network_out_balance"
    upper_only: bool = False

    def optimize(self, state: GoalState, guards: Guards) -> None:
        """Leadership only, solved together with the other leadership goals
        (:mod:`kpart.cluster.goals.joint_leadership`, kpart's departure from Cruise
        Control), when this is the first of them."""
        solve_jointly(state, guards)

    def finish(self, state: GoalState, guards: Guards) -> str:
        return finish_jointly(state, guards)
