"""Cruise Control's ``ResourceDistributionGoal`` (and the count-based
``ReplicaDistributionAbstractGoal``): every allowed broker's load of one resource within a
balance band around the mean (soft). The subclasses name the resource: ``disk``, ``nw_in``,
``nw_out``, ``replicas``, ``leaders``, ``lead_in``."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kpart.cluster.goals._replica_movement import balance
from kpart.cluster.goals.goal import Goal, Guards, leader_delta, leaves, move_delta
from kpart.cluster.goals.state import BALANCE_MARGIN, GoalState, count_band, util_band

__all__ = ["ResourceDistributionGoal"]


@dataclass(frozen=True, slots=True)
class ResourceDistributionGoal(Goal):
    """Every allowed broker's ``resource`` (utilization: load / ``capacity``, the load
    itself when ``capacity`` is ``""`` or any capacity unknown) within ``[avg × (2 − t), avg ×
    t]``, ``t`` the :class:`~kpart.cluster.goals.state.Thresholds` field ``threshold``
    (counts: ``[floor, ceil]``); ``upper_only``: no lower limit. Violations: brokers outside
    (with the state's ``removed_over``, also a removed broker over the band)."""

    resource: str = "disk"
    capacity: str = ""  # "" = a count
    threshold: str = "disk_balance"
    upper_only: bool = False

    def band(self, state: GoalState, margin: float = 1.0) -> tuple[float, float, np.ndarray]:
        """``(lower, upper, divisor)``: broker ``i`` is in band when ``lower ≤ load[i] /
        divisor[i] ≤ upper``."""
        load = getattr(state, self.resource)
        found = state.cache.get((self.name, margin), lambda: float(load.sum()))
        if found is not None:
            return found
        t = getattr(state.thresholds, self.threshold)
        if self.resource in ("replicas", "leaders"):
            lo, hi = count_band(load, state.allowed, t, margin)
            c = np.ones(len(load))
        else:
            cap = getattr(state, self.capacity) if self.capacity else np.ones(len(load))
            lo, hi, c = util_band(load, cap, state.allowed, t, margin)
        out = (-math.inf if self.upper_only else lo), hi, c
        state.cache.put((self.name, margin), out, float(load.sum()))
        return out

    def violations(self, state: GoalState) -> int:
        lo, hi, c = self.band(state)
        u = getattr(state, self.resource) / c
        eps = 1e-9 * max(abs(hi), 1e-300)
        over = u > hi + eps
        bad = state.allowed & ((u < lo - eps) | over)
        if state.removed_over:
            bad |= ~state.allowed & over
        return int(bad.sum())

    def keeps(self, state: GoalState, src: int, dst: int, d: float) -> bool:
        """Whether shifting ``d`` of the resource from ``src`` to ``dst`` keeps the goal."""
        if d == 0:
            return True
        lo, hi, c = self.band(state)
        load = getattr(state, self.resource)
        if state.count_guard:
            return not (leaves(load[dst], load[dst] + d, lo * c[dst], hi * c[dst])
                        or (state.allowed[src]
                            and leaves(load[src], load[src] - d, lo * c[src], hi * c[src])))
        return bool(load[dst] + d <= hi * c[dst] * (1 + 1e-9)
                    and (not state.allowed[src] or load[src] - d >= lo * c[src] * (1 - 1e-9)))

    def accepts(self, state: GoalState, row: int, src: int, dst: int) -> bool:
        return self.keeps(state, src, dst, move_delta(state, row, src, self.resource))

    def accepts_leader(self, state: GoalState, row: int, src: int, dst: int) -> bool:
        return self.keeps(state, src, dst, leader_delta(state, row, self.resource))

    def rebalance_by_moving_replicas(self, state: GoalState, guards: Guards,
                                     weight: np.ndarray) -> None:
        """Cruise Control's ``rebalanceByMovingLoadOut/In`` with replicas: every allowed
        broker into the band aimed at (``BALANCE_MARGIN`` inside the threshold), from the
        most loaded broker to the least, each time the largest replica (``weight[row]``: what
        it moves of the resource) that overshoots nothing
        (:func:`~kpart.cluster.goals._replica_movement.balance`), every move accepted by
        ``guards.moves()``."""
        t = getattr(state.thresholds, self.threshold)
        load = getattr(state, self.resource)
        lo, hi, c = util_band(load, getattr(state, self.capacity), state.allowed, t,
                              BALANCE_MARGIN)
        lo_t, hi_t, _ = util_band(load, getattr(state, self.capacity), state.allowed, t)
        balance(state, load, c, (lo, hi), (lo_t, hi_t), weight, guards.moves())
