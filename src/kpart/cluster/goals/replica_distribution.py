"""Cruise Control's ``ReplicaDistributionGoal``: each broker's replica count (soft)."""

from __future__ import annotations

from dataclasses import dataclass

from kpart.cluster.goals.resource_distribution import ResourceDistributionGoal

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
