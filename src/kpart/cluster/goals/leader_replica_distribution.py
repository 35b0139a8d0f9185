"""Cruise Control's ``LeaderReplicaDistributionGoal``: each broker's leader count (soft)."""

from __future__ import annotations

from dataclasses import dataclass

from kpart.cluster.goals.goal import Guards
from kpart.cluster.goals.joint_leadership import finish_jointly, solve_jointly
from kpart.cluster.goals.resource_distribution import ResourceDistributionGoal
from kpart.cluster.goals.state import GoalState

__all__ = ["LeaderReplicaDistributionGoal"]


@dataclass(frozen=True, slots=True)
class LeaderReplicaDistributionGoal(ResourceDistributionGoal):
    """``LeaderReplicaDistributionGoal``: each broker's leader count, within ``Thresholds.leader_balance`` of the mean (soft)."""

    name: str = "LeaderReplicaDistributionGoal"
    hard: bool = False
    resource: str = "leaders"
    capacity: str = ""
    threshold: str = "leader_balance"
    upper_only: bool = False

    def optimize(self, state: GoalState, guards: Guards) -> None:
        """Leadership only, solved together with the other leadership goals
        (:mod:`kpart.cluster.goals.joint_leadership`, kpart's departure from Cruise
        Control), when this is the first of them."""
        solve_jointly(state, guards)

    def finish(self, state: GoalState, guards: Guards) -> str:
        return finish_jointly(state, guards)
