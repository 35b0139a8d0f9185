"""Cruise Control's ``CapacityGoal`` and its subclasses ``DiskCapacityGoal``,
``NetworkInboundCapacityGoal``, ``NetworkOutboundCapacityGoal`` (hard) and
``PotentialNwOutGoal`` (soft): a broker's load ≤ the capacity threshold × its capacity.

A hard capacity goal is infeasible when a replica, or the partitions' total load, exceeds
the threshold of the brokers left; its fix relieves each broker over the limit (network out:
leadership handed to a follower first, no data; then, like disk and network in, replicas
moved off: the smallest that covers the excess, else the largest, each to the broker with
most room the guards accept)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kpart.cluster.goals.goal import Goal, Guards, leader_delta, move_delta
from kpart.cluster.goals.optimization_failure import broker_name, fmt, optimization_failure
from kpart.cluster.goals.relocation import SCAN, move_first, relocate_leadership
from kpart.cluster.goals.state import GoalState
from kpart.cluster.model import ClusterModel
from kpart.errors import OptimizationFailureError

__all__ = ["CapacityGoal", "DiskCapacityGoal", "NetworkInboundCapacityGoal",
           "NetworkOutboundCapacityGoal", "PotentialNwOutGoal"]


#: Per resource a hard capacity goal checks and fixes: what one replica weighs (a per-row
#: array of the state; ``lead_out`` only where it leads) and the words of its messages.
_RESOURCES = {
    "disk": ("size", "disk", "bytes"),
    "nw_in": ("rate_in", "network in", "bytes/s"),
    "nw_out": ("lead_out", "network out", "bytes/s"),
}


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

    def _fixes(self) -> bool:
        """A hard goal on a resource of :data:`_RESOURCES` (the others only guard)."""
        return self.hard and self.resource in _RESOURCES

    def check_feasible(self, state: GoalState, model: ClusterModel) -> None:
        """A replica over the threshold of every broker left, or the partitions' total load
        over that of all of them: infeasible."""
        if not self._fixes():
            return
        name = self.name
        wname, words, unit = _RESOURCES[self.resource]
        cap = getattr(state, self.capacity)
        limit = cap * state.thresholds.capacity
        ok = state.allowed
        single = getattr(state, wname)
        copies = 1 if self.resource == "nw_out" else (state.pos >= 0).sum(axis=1)
        total = float((single * copies).sum())
        if not np.isfinite(limit[ok]).all():
            return
        if len(single) and float(single.max()) > float(limit[ok].max()) * (1 + 1e-12):
            row = int(np.argmax(single))
            raise optimization_failure(
                f"Infeasible {name}: partition {model.partition_name(row)}'s replica needs "
                f"{fmt(float(single[row]))} {unit} of {words}, over "
                f"{state.thresholds.capacity} x the capacity of every broker left.",
                name, model, row=row)
        if total > float(limit[ok].sum()) * (1 + 1e-12):
            load = getattr(state, self.resource)
            b = int(np.argmax(np.where(ok, load / np.maximum(cap, 1e-300), -np.inf)))
            raise optimization_failure(
                f"Infeasible {name}: the partitions need {fmt(total)} {unit} of {words}, over "
                f"{state.thresholds.capacity} x the {fmt(float(cap[ok].sum()))} {unit} the "
                f"brokers left have ({broker_name(model, b)} holds {fmt(float(load[b]))} of "
                f"{fmt(float(cap[b]))}).", name, model, b=b)

    def rebalance(self, state: GoalState, guards: Guards) -> None:
        """Each broker over the limit relieved (the module docstring) with moves the guards
        accept — every goal's first, then the hard goals' (:meth:`Guards.fallbacks`)."""
        if not self._fixes():
            return
        for moves in guards.fallbacks():
            over = np.flatnonzero(state.allowed
                                  & (getattr(state, self.resource) > self.limit(state)))
            for b in over.tolist():
                self._relieve(state, b, moves)

    def _hand_leaders(self, state: GoalState, g: int, limit: np.ndarray,
                      guards: list[Goal]) -> None:
        """Network out: pass leaderships of broker ``g`` (heaviest first) to followers."""
        rows = state.leads(g)
        for row in rows[np.argsort(-state.lead_out[rows], kind="stable")].tolist():
            if state.nw_out[g] <= limit[g]:
                return
            for slot in range(1, state.pos.shape[1]):
                f = int(state.pos[row, slot])
                if f >= 0 and state.allowed[f] and all(x.accepts_leader(state, row, g, f)
                                                       for x in guards):
                    relocate_leadership(state, row, slot)
                    break

    def _relieve(self, state: GoalState, g: int, guards: list[Goal]) -> None:
        """Move load off broker position ``g`` until it is under the limit."""
        load, limit = getattr(state, self.resource), self.limit(state)
        w = getattr(state, _RESOURCES[self.resource][0])
        if self.resource == "nw_out":
            self._hand_leaders(state, g, limit, guards)
        while load[g] > limit[g]:
            rows, slots = state.replicas_on(g)
            if self.resource == "nw_out":
                rows, slots = rows[slots == 0], slots[slots == 0]
            weight = w[rows]
            excess = load[g] - limit[g]
            covers = weight >= excess
            order = np.concatenate([np.flatnonzero(covers)[np.argsort(weight[covers])],
                                    np.flatnonzero(~covers)[np.argsort(-weight[~covers])]])
            room = np.where(state.allowed, limit - load, -np.inf)
            receivers = np.argsort(-room, kind="stable")[:16].tolist()
            if not move_first(state, rows[order[:SCAN]], slots[order[:SCAN]], g, receivers,
                              guards):
                return

    def failure(self, state: GoalState, model: ClusterModel) -> OptimizationFailureError | None:
        if not self._fixes():
            return Goal.failure(self, state, model)
        n = self.violations(state)
        if not n:
            return None
        _, words, unit = _RESOURCES[self.resource]
        load, cap = getattr(state, self.resource), getattr(state, self.capacity)
        b = int(np.argmax(np.where(state.allowed, load / np.maximum(cap, 1e-300), -math.inf)))
        return optimization_failure(
            f"Infeasible {self.name}: {broker_name(model, b)} keeps {fmt(float(load[b]))} "
            f"{unit} of {words}, over {state.thresholds.capacity} x its {fmt(float(cap[b]))} "
            f"({n} brokers do): no replica it holds fits elsewhere.", self.name, model, b=b)


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
