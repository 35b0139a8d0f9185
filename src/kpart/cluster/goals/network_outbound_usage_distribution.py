"""Cruise Control's ``NetworkOutboundUsageDistributionGoal``: each broker's network-out utilization (as leader) (soft)."""

from __future__ import annotations

from dataclasses import dataclass

from kpart.cluster.goals.joint_leadership import JointLeadershipGoal

__all__ = ["NetworkOutboundUsageDistributionGoal"]


@dataclass(frozen=True, slots=True)
class NetworkOutboundUsageDistributionGoal(JointLeadershipGoal):
    """``NetworkOutboundUsageDistributionGoal``: each broker's network-out utilization (as leader), within ``Thresholds.network_out_balance`` of the mean (soft)."""

    name: str = "NetworkOutboundUsageDistributionGoal"
    hard: bool = False
    resource: str = "nw_out"
    capacity: str = "cap_out"
    threshold: str = "network_out_balance"
    upper_only: bool = False
