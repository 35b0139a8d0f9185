"""Cruise Control's ``LeaderBytesInDistributionGoal``: each broker's leader bytes-in, at most the upper limit (soft)."""

from __future__ import annotations

from dataclasses import dataclass

from kpart.cluster.goals.goal import Guards
from kpart.cluster.goals.joint_leadership import finish_jointly, solve_jointly
from kpart.cluster.goals.resource_distribution import ResourceDistributionGoal
from kpart.cluster.goals.state import GoalState

__all__ = ["LeaderBytesInDistributionGoal"]


@dataclass(frozen=True, slots=True)
class LeaderBytesInDistributionGoal(ResourceDistributionGoal):
    """``LeaderBytesInDistributionGoal``: each broker's leader bytes-in, at most the upper limit, within ``Thresholds.network_in_balance`` of the mean (soft)."""

    name: str = "LeaderBytesInDistributionGoal"
    hard: bool = False
    resource: str = "lead_in"
    capacity: str = ""
    threshold: str = "network_in_balance"
    upper_only: bool = True

    def optimize(self, state: GoalState, guards: Guards) -> None:
        """Leadership only, solved together with the other leadership goals
        (:mod:`kpart.cluster.goals.joint_leadership`, kpart's departure from Cruise
        Control), when this is the first of them."""
        solve_jointly(state, guards)

    def finish(self, state: GoalState, guards: Guards) -> str:
        return finish_jointly(state, guards)
