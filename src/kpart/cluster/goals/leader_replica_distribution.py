"""Cruise Control's ``LeaderReplicaDistributionGoal``: each broker's leader count (soft)."""

from __future__ import annotations

from dataclasses import dataclass

from kpart.cluster.goals.joint_leadership import JointLeadershipGoal

__all__ = ["LeaderReplicaDistributionGoal"]


@dataclass(frozen=True, slots=True)
class LeaderReplicaDistributionGoal(JointLeadershipGoal):
    """``LeaderReplicaDistributionGoal``: each broker's leader count, within ``Thresholds.leader_balance`` of the mean (soft)."""

    name: str = "LeaderReplicaDistributionGoal"
    hard: bool = False
    resource: str = "leaders"
    capacity: str = ""
    threshold: str = "leader_balance"
    upper_only: bool = False
