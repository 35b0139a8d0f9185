"""The joint leadership solve: ``NetworkOutboundUsageDistributionGoal``,
``LeaderReplicaDistributionGoal`` and ``LeaderBytesInDistributionGoal`` solved together —
**kpart's departure from Cruise Control**.

Cruise Control optimizes these three goals one after the other, each with its own
``LEADERSHIP_MOVEMENT`` actions accepted by the goals before it. On a heavy-tailed cluster
that order fights itself: network out wants a few heavy leaderships spread, the leader count
wants many light ones evened, and every leadership moves both. kpart weighs them at once
(weights 4, 2, 1 by their priority in the plan's goals, bands aimed at with Cruise Control's
``BALANCE_MARGIN``), runs when the first of them comes up, and never lets a broker enter a
violation of any of them (so no goal's count grows):

1. :meth:`JointLeadershipSolve.solve` — when network out is asked for, a greedy start
   (:func:`~kpart.cluster.goals._leadership_movement.assign_leaders`, heaviest partitions first)
   and the descent (:func:`~kpart.cluster.goals._leadership_movement.refine_leaders`), kept only
   when no leadership goal ends worse than the descent from the current leaders alone; then
   the network-out replica phase (:class:`~kpart.cluster.goals._network_out_rebalance.NetworkOutPass`,
   Cruise Control's ``rebalanceByMovingLoadOut/In`` and ``rebalanceBySwappingLoadOut/In``,
   within a byte budget, kept only when no soft goal ends worse) and leadership chains
   (:mod:`kpart.cluster.goals._leadership_chains`);
2. :func:`keep_current_leaders` — after every goal: each partition's current leader back
   wherever no broker ends further from the bands, and the current replica order kept;
3. :meth:`JointLeadershipSolve.finish` — what is still outside a leadership band, solved
   exactly over the heaviest partitions as a mixed-integer program
   (:mod:`kpart.cluster.goals._exact_leadership`, HiGHS under a node limit: deterministic, no
   wall-clock limit).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kpart.cluster.goals._exact_leadership import program_leaders
from kpart.cluster.goals._leadership_chains import chain_leaders
from kpart.cluster.goals._leadership_movement import (
    LeaderBands,
    assign_leaders,
    refine_leaders,
    restore_leaders,
)
from kpart.cluster.goals._network_out_rebalance import relocate_for_network_out
from kpart.cluster.goals.goal import Goal, Guards, guards_upto
from kpart.cluster.goals.relocation import relocate_leaderships
from kpart.cluster.goals.resource_distribution import ResourceDistributionGoal
from kpart.cluster.goals.state import BALANCE_MARGIN, GoalState, count_band, util_band

__all__ = ["LEADERSHIP_RESOURCES", "NETWORK_OUT_BUDGET", "JointLeadershipGoal",
           "JointLeadershipSolve", "finish_jointly", "keep_current_leaders", "leader_bands",
           "leadership_index", "solve_jointly"]

#: The loads of the three leadership goals, in the order of their rows in
#: :func:`leader_bands`: network out, leader count, leader bytes-in.
LEADERSHIP_RESOURCES = ("nw_out", "leaders", "lead_in")
#: Default of :func:`~kpart.cluster.optimizer.plan_cluster`'s ``network_out_budget``.
NETWORK_OUT_BUDGET = 0.0185


def leadership_index(g: Goal) -> int:
    """``g``'s row in :data:`LEADERSHIP_RESOURCES`, -1 when it is no leadership goal."""
    if isinstance(g, ResourceDistributionGoal) and g.resource in LEADERSHIP_RESOURCES:
        return LEADERSHIP_RESOURCES.index(g.resource)
    return -1


def leader_bands(s: GoalState, goals: Sequence[Goal]) -> tuple[LeaderBands, np.ndarray]:
    """``(bands, weights)`` for :func:`~kpart.cluster.goals._leadership_movement.refine_leaders`: the
    three leadership goals' bands (Cruise Control's margin inside the threshold), weights by
    priority (4, 2, 1 in the order ``goals`` lists them; 0 and no band for a goal not asked
    for)."""
    th = s.thresholds
    b = len(s.allowed)
    bands = LeaderBands.unbounded(b)
    weights = np.zeros(3)
    rows = [leadership_index(g) for g in goals if leadership_index(g) >= 0]
    for rank, j in enumerate(rows):
        weights[j] = 4.0 ** (len(rows) - 1 - rank)
        found = []
        for margin in (BALANCE_MARGIN, 1.0):
            if j == 0:
                lo, hi, c = util_band(s.nw_out, s.cap_out, s.allowed, th.network_out_balance,
                                      margin)
            elif j == 1:
                lo, hi = count_band(s.leaders, s.allowed, th.leader_balance, margin)
                c = np.ones(b)
            else:
                lo, hi, c = util_band(s.lead_in, np.ones(b), s.allowed,
                                      th.network_in_balance, margin)
                lo = -math.inf
            found.append((lo * c, hi * c))
        (lo_aim, hi_aim), (lo_th, hi_th) = found
        mid = (hi_aim + lo_aim) / 2 if np.isfinite(lo_aim).all() else hi_aim
        for field, value in zip(bands, (lo_aim, hi_aim, np.maximum(mid, 1e-300),
                                         lo_th * (1 - 1e-9), hi_th * (1 + 1e-9)),
                                strict=True):
            field[j] = value
    return bands, weights


@dataclass(frozen=True, slots=True)
class JointLeadershipSolve:
    """The joint solve (the module docstring) for the plan's ``goals`` (every goal, in
    priority order): run by the first leadership goal among them (:meth:`runs_at`)."""

    goals: tuple[Goal, ...]

    def runs_at(self) -> int:
        """The position of the first leadership goal in ``goals`` (-1: none)."""
        return next((i for i, g in enumerate(self.goals) if leadership_index(g) >= 0), -1)

    def violations(self, s: GoalState) -> list[int]:
        """The leadership goals' violations, in their order in ``goals``."""
        return [g.violations(s) for g in self.goals if leadership_index(g) >= 0]

    def solve(self, s: GoalState) -> None:
        """Step 1: a greedy start then the descent (when network out is asked for), kept
        only when no leadership goal ends worse than the descent from the current leaders
        alone would leave it; then the network-out replica phase and the chains."""
        bands, weights = leader_bands(s, self.goals)
        start = s.pos[:, 0].copy()
        if weights[0] > 0:
            c = s.cap_out if np.isfinite(s.cap_out[s.allowed]).all() else np.ones(
                len(s.allowed))
            share = np.where(s.allowed, c, 0.0) * s.lead_out.sum() / c[s.allowed].sum()
            before = self.violations(s)
            assign_leaders(s, share)
            refine_leaders(s, bands, weights)
            after = self.violations(s)
            if all(a <= b for a, b in zip(after, before, strict=True)):
                self._move_replicas(s, bands, weights)
                self._chain(s)
                return
            relocate_leaderships(s, start)
        refine_leaders(s, bands, weights)
        if weights[0] > 0:
            self._move_replicas(s, bands, weights)
        self._chain(s)

    def _chain(self, s: GoalState) -> None:
        """Leadership chains for what single transfers and swaps left outside the
        network-out and leader-bytes-in bands; kept only when no leadership goal ends worse
        and one ends better."""
        before = self.violations(s)
        if not any(before):
            return
        bands, weights = leader_bands(s, self.goals)
        start = s.pos[:, 0].copy()
        # taken as the chains leave it: a descent after them changed no goal's count on
        # #1592's plans (adding or removing brokers) and cost 1.8 s
        chain_leaders(s, bands, weights)
        after = self.violations(s)
        if after == before or any(a > b for a, b in zip(after, before, strict=True)):
            relocate_leaderships(s, start)  # no fewer violations: the leaders as they were

    def _move_replicas(self, s: GoalState, bands: LeaderBands, weights: np.ndarray) -> None:
        """The network-out replica phase for what leadership could not even out, then
        leadership again; kept only when no soft goal ends worse."""
        i = next(i for i, g in enumerate(self.goals) if leadership_index(g) == 0)
        before = self.violations(s)
        if not before[0]:
            return
        budget = s.network_out_budget * float((s.size * (s.pos >= 0).sum(axis=1)).sum())
        if budget <= 0:
            return
        soft = [g for g in self.goals if not g.hard and not g.orders_followers]
        counts = [g.violations(s) for g in soft]
        saved = s.save()
        if relocate_for_network_out(s, bands, guards_upto(self.goals, i), budget):
            refine_leaders(s, bands, weights)
        if any(g.violations(s) > c for g, c in zip(soft, counts, strict=True)):
            s.restore(saved)  # a goal got worse: as it was

    def finish(self, s: GoalState) -> None:
        """Step 3: the program (:func:`~kpart.cluster.goals._exact_leadership.program_leaders`)."""
        program_leaders(s, self.goals)


def keep_current_leaders(s: GoalState, goals: Sequence[Goal]) -> None:
    """Step 2: leaders and follower order as they are in the model wherever the goals end
    the same: each partition's current first replica leads again where no broker's distance
    to the leadership bands grows (:func:`~kpart.cluster.goals._leadership_movement.restore_leaders`),
    and a partition on the same brokers with the same leader keeps its replica order (unless
    a goal orders followers: ``BrokerFailureCapacityGoal``)."""
    model = s.model
    if model is None:
        return
    orig = model.broker_positions(model.replicas)
    bands, weights = leader_bands(s, goals)
    restore_leaders(s, orig[:, 0], bands, weights)
    if any(g.orders_followers for g in goals):
        return
    same = (s.pos[:, 0] == orig[:, 0]) & (np.sort(s.pos, axis=1) == np.sort(orig, axis=1)).all(
        axis=1)
    s.pos[same] = orig[same]


def solve_jointly(state: GoalState, guards: Guards) -> None:
    """A leadership goal's ``optimize``: the joint solve, when it is the first leadership
    goal of the plan (the others find it done)."""
    solve = JointLeadershipSolve(guards.goals)
    if solve.runs_at() == len(guards.done):
        solve.solve(state)


def finish_jointly(state: GoalState, guards: Guards) -> str:
    """A leadership goal's ``finish``: the program, by the first leadership goal of the
    plan, unless a goal orders followers (the program weighs no failure: with such a goal,
    leaders stay as they are)."""
    solve = JointLeadershipSolve(guards.goals)
    if solve.runs_at() != len(guards.done) or any(g.orders_followers for g in guards.goals):
        return ""
    solve.finish(state)
    return "leadership program"


@dataclass(frozen=True, slots=True)
class JointLeadershipGoal(ResourceDistributionGoal):
    """A leadership goal (network out, leader count, leader bytes-in): its ``optimize`` is the
    joint solve and its ``finish`` the program (:func:`solve_jointly`, :func:`finish_jointly`),
    run by the first of them in the plan's order — kpart's departure from Cruise Control,
    where each goal moves leaderships on its own."""

    def rebalance(self, state: GoalState, guards: Guards) -> None:
        solve_jointly(state, guards)

    def finish(self, state: GoalState, guards: Guards) -> str:
        return finish_jointly(state, guards)
