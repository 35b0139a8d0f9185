"""Cruise Control's ``CapacityGoal`` and its subclasses ``DiskCapacityGoal``,
``NetworkInboundCapacityGoal``, ``NetworkOutboundCapacityGoal`` (hard) and
``PotentialNwOutGoal`` (soft): a broker's load ≤ the capacity threshold × its capacity."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kpart.cluster.goals.goal import Goal, leader_delta, move_delta
from kpart.cluster.goals.state import GoalState

__all__ = ["CapacityGoal", "DiskCapacityGoal", "NetworkInboundCapacityGoal",
           "NetworkOutboundCapacityGoal", "PotentialNwOutGoal"]


@dataclass(frozen=True, slots=True)
class CapacityGoal(Goal):
    """A broker's ``resource`` load (a per-broker array of the state) ≤ capacity threshold ×
    its ``capacity`` (``cap_disk``, ``cap_in``, ``cap_out``). Violations: brokers over it."""

    resource: str = "disk"
    capacity: str = "cap_disk"

    def limit(self, state: GoalState) -> np.ndarray:
        out: np.ndarray = getattr(state, self.capacity) * state.thresholds.capacity
        return out

    def violations(self, state: GoalState) -> int:
        return int((getattr(state, self.resource) > self.limit(state) * (1 + 1e-12)).sum())

    def accepts(self, state: GoalState, row: int, src: int, dst: int) -> bool:
        d = move_delta(state, row, src, self.resource)
        lim = float(getattr(state, self.capacity)[dst]) * state.thresholds.capacity
        return d == 0 or float(getattr(state, self.resource)[dst]) + d <= lim

    def accepts_leader(self, state: GoalState, row: int, src: int, dst: int) -> bool:
        d = leader_delta(state, row, self.resource)
        lim = float(getattr(state, self.capacity)[dst]) * state.thresholds.capacity
        return d == 0 or float(getattr(state, self.resource)[dst]) + d <= lim


@dataclass(frozen=True, slots=True)
class DiskCapacityGoal(CapacityGoal):
    """``DiskCapacityGoal``: disk ≤ ``disk.capacity.threshold`` × capacity (hard)."""

    name: str = "DiskCapacityGoal"
    hard: bool = True
    resource: str = "disk"
    capacity: str = "cap_disk"


@dataclass(frozen=True, slots=True)
class NetworkInboundCapacityGoal(CapacityGoal):
    """``NetworkInboundCapacityGoal``: network in ≤ the threshold × capacity (hard)."""

    name: str = "NetworkInboundCapacityGoal"
    hard: bool = True
    resource: str = "nw_in"
    capacity: str = "cap_in"


@dataclass(frozen=True, slots=True)
class NetworkOutboundCapacityGoal(CapacityGoal):
    """``NetworkOutboundCapacityGoal``: network out (as leader) ≤ the threshold × capacity
    (hard)."""

    name: str = "NetworkOutboundCapacityGoal"
    hard: bool = True
    resource: str = "nw_out"
    capacity: str = "cap_out"


@dataclass(frozen=True, slots=True)
class PotentialNwOutGoal(CapacityGoal):
    """``PotentialNwOutGoal``: the network out a broker would serve if all its replicas led
    ≤ the threshold × its network-out capacity (soft in Cruise Control: a capacity-shaped
    limit, not a hard goal)."""

    name: str = "PotentialNwOutGoal"
    hard: bool = False
    resource: str = "pot_out"
    capacity: str = "cap_out"
