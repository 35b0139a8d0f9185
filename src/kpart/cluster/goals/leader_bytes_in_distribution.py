"""Cruise Control's ``LeaderBytesInDistributionGoal``: each broker's leader bytes-in, at most the upper limit (soft)."""

from __future__ import annotations

from dataclasses import dataclass

from kpart.cluster.goals.joint_leadership import JointLeadershipGoal

__all__ = ["LeaderBytesInDistributionGoal"]


@dataclass(frozen=True, slots=True)
class LeaderBytesInDistributionGoal(JointLeadershipGoal):
    """``LeaderBytesInDistributionGoal``: each broker's leader bytes-in, at most the upper limit, within ``Thresholds.network_in_balance`` of the mean (soft)."""

    name: str = "LeaderBytesInDistributionGoal"
    hard: bool = False
    resource: str = "lead_in"
    capacity: str = ""
    threshold: str = "network_in_balance"
    upper_only: bool = True
