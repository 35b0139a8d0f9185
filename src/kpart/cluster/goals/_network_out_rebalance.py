"""Network out where leadership alone cannot even it out (Cruise Control's
``NetworkOutboundUsageDistributionGoal``: ``LEADERSHIP_MOVEMENT`` first, then
``INTER_BROKER_REPLICA_MOVEMENT`` of leader replicas, as its ``rebalanceForBroker`` does).

Each broker outside its band, the farthest first, takes one step at a time, the cheapest
that helps:

1. a leadership passed between a broker over its band and a follower with room (no data
   moves), the one relieving most of what is needed (many light ones at once when that
   brings it into its band; under its band: the leaderships of many it follows);
2. otherwise an exchange (a broker over its band whose load is one or two heavy partitions
   and many light ones, none of which it can pass alone without falling under the band):
   it passes a heavy leadership to a follower with room and takes back the leadership of a
   partition it follows whose network out lands it inside its band;
3. otherwise one replica move: the leadership of a partition goes to a broker outside its
   replica set (a follower moved there first, or the leader replica itself), the partition
   chosen by the fewest bytes per byte/s of network out that the step needs, the receiving
   broker by how far under its band it is; then a replica swap (disk about unchanged on
   both brokers), then an exchange whose partition taken back first has a follower replica
   moved to the broker. A broker under its band takes the mirror steps: a leadership it
   follows, a replica moved onto it that it then leads, or such a replica swapped for one of
   its followers.

Absorbers: a broker leading a partition whose network out alone is above the band's top
stays over the band in any plan while it leads it (the verifier's floor counts such brokers,
:func:`kpart.cluster.verifier.goal_floor`), so it may take more without a new violation: its
network-out top here is the ceiling no broker passes (the hottest broker's utilization
before the plan, relative to the mean: :func:`kpart.cluster.load.network_out_ceiling`,
Cruise Control's refusal to leave the most-utilized broker more unbalanced), it has no
leader bytes-in limit when it is already over that one, and the steps above hand it what
others cannot hold. Then such partitions are packed two to
a broker and what is left over with mid-weight leaderships hands one to an absorber
(:mod:`kpart.cluster.goals._heavy_leaderships`), and the brokers those steps moved are settled
again; pairs that settling made possible are packed once more.

A broker over its band usually sits at the bottom of the leader-count band (it leads a few
heavy partitions and few light ones) and one under it at the top, so each step keeps leader
counts in their band: a broker that would leave it takes (or passes) the leadership of a
light partition — from a partition it shares with a broker that has a leader to spare, or,
when it shares none, after a follower replica of the lightest such partition moves to it
(a few bytes). Every replica move is accepted by the guards (the hard goals and every goal up
to network out) and every leadership change by their ``accepts_leader``; a step whose
leader-count repair fails is undone. The bytes moved stay under a budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from kpart.cluster.goals._heavy_leaderships import pair_heavy, relieve_over
from kpart.cluster.goals._leadership_movement import LeaderBands
from kpart.cluster.goals._network_out_actions import (
    ROWS,
    BrokerLimits,
    StepContext,
    Undo,
    cheapest,
    heavy_partitions,
    keep_leader_counts,
    lead_moved,
    lead_ok,
    move_replica,
    pass_leadership,
    receivers,
    undo_all,
)
from kpart.cluster.goals._replica_swap import exchange_replicas, gain_swap, swap_step
from kpart.cluster.goals.goal import Goal
from kpart.cluster.goals.relocation import accepted
from kpart.cluster.goals.state import GoalState
from kpart.cluster.load import network_out_ceiling

__all__ = ["NetworkOutPass", "relocate_for_network_out"]


def _pass_many(s: GoalState, x: int, rows: np.ndarray, lim: BrokerLimits,
               guards: Sequence[Goal]) -> bool:
    """Pass the leadership of partitions ``x`` leads (``rows``, the heaviest first) to
    followers with room for their network out and for one more leader, while ``x`` has
    leaders to spare (or is already under the leader-count band): many light partitions at
    once, no data moved. Kept (True) only when it brings ``x`` into its band (else its spare
    leaders stay for :meth:`NetworkOutPass.rebalance_by_swapping_load_out`)."""
    # leaders it may pass (all: under the leader-count band, or no band, ``clo`` -inf)
    spare = len(rows) if s.leaders[x] < lim.clo else int(min(s.leaders[x] - lim.clo,
                                                              len(rows)))
    undo: Undo = []
    for row in _could_pass(s, x, rows[: 8 * 1024], lim).tolist():
        if len(undo) >= spare or s.nw_out[x] <= lim.hi[x]:
            break
        w = float(s.lead_out[row])
        if s.nw_out[x] - w < lim.lo_t[x]:
            continue
        for k in range(1, s.pos.shape[1]):
            f = int(s.pos[row, k])
            if (f >= 0 and s.allowed[f] and s.nw_out[f] + w <= lim.hi[f]
                    and s.leaders[f] + 1 <= lim.chi
                    and s.lead_in[f] + s.rate_in[row] <= lim.lin[f]
                    and lead_ok(s, row, x, f, guards)):
                pass_leadership(s, row, k, undo)
                break
    if s.nw_out[x] <= lim.hi_t[x]:
        return bool(undo)
    undo_all(undo)
    return False


def _could_pass(s: GoalState, x: int, rows: np.ndarray, lim: BrokerLimits) -> np.ndarray:
    """The partitions of ``rows`` (in their order) that :func:`_pass_many` could pass as the
    loads are now: one follower with room for its network out, a leader and its bytes in, and
    ``x`` staying above its band's bottom. Passing leaderships only adds to the followers' and
    takes from ``x``'s loads, so a partition refused now is refused later in the same pass:
    the pass skips it without looking."""
    w, rin = s.lead_out[rows], s.rate_in[rows]
    some = np.zeros(len(rows), dtype=bool)
    for k in range(1, s.pos.shape[1]):
        f = s.pos[rows, k]
        fv = np.maximum(f, 0)
        some |= ((f >= 0) & s.allowed[fv] & (s.nw_out[fv] + w <= lim.hi[fv])
                 & (s.leaders[fv] + 1 <= lim.chi) & (s.lead_in[fv] + rin <= lim.lin[fv]))
    out: np.ndarray = rows[some & (s.nw_out[x] - w >= lim.lo_t[x])]
    return out


def _take_many(s: GoalState, x: int, lim: BrokerLimits, guards: Sequence[Goal]) -> bool:
    """The mirror of :func:`_pass_many` for ``x`` under its band: the leadership of many
    partitions it follows, the heaviest first, each from a leader that stays inside its
    band (or was over it) with a leader to spare, while ``x`` has room for one more leader
    and stays under its band's top. Kept (True) only when it brings ``x`` into its band."""
    rows, slots = s.replicas_on(x, first=1)
    w = s.lead_out[rows]
    g = s.pos[rows, 0]
    keep = ((w > 0) & (w <= lim.hi[x] - s.nw_out[x]) & (s.leaders[g] - 1 >= lim.clo)
            & ((s.nw_out[g] > lim.hi_t[g]) | (s.nw_out[g] - w >= lim.lo[g])))
    rows, slots, w = rows[keep], slots[keep], w[keep]
    room = lim.chi - float(s.leaders[x])  # leaders it may take (inf: no leader-count band)
    order = np.argsort(-w, kind="stable")[: max(int(min(room, len(w))), 0)]
    if s.nw_out[x] + w[order].sum() < lim.lo_t[x]:
        return False  # not even all it could take would do
    undo: Undo = []
    for row, k in zip(rows[order].tolist(), slots[order].tolist(), strict=True):
        if s.nw_out[x] >= lim.lo[x] or s.leaders[x] + 1 > lim.chi:
            break
        z, wr = int(s.pos[row, 0]), float(s.lead_out[row])
        if (s.nw_out[x] + wr > lim.hi[x] or s.leaders[z] - 1 < lim.clo
                or not (s.nw_out[z] > lim.hi_t[z] or s.nw_out[z] - wr >= lim.lo[z])
                or s.lead_in[x] + s.rate_in[row] > lim.lin[x]
                or not lead_ok(s, row, z, x, guards)):
            continue
        pass_leadership(s, row, k, undo)
    if s.nw_out[x] >= lim.lo_t[x]:
        return bool(undo)
    undo_all(undo)
    return False


def _pass_one(s: GoalState, x: int, rows: np.ndarray,
              ctx: StepContext,
              ) -> bool:
    """A step of :meth:`NetworkOutPass.rebalance_by_moving_load_out`: the leadership of one of ``rows`` (in order) to a follower
    with room, leader counts repaired (:func:`keep_leader_counts`)."""
    lim, guards = ctx.lim, ctx.guards
    undo: Undo = []
    for row in rows.tolist():
        wr = float(s.lead_out[row])
        for k in range(1, s.pos.shape[1]):
            f = int(s.pos[row, k])
            if (f < 0 or not s.allowed[f] or s.nw_out[f] + wr > lim.hi[f]
                    or s.lead_in[f] + s.rate_in[row] > lim.lin[f]
                    or not lead_ok(s, row, x, f, guards)):
                continue
            took = (int(s.leaders[x]), int(s.leaders[f]))
            pass_leadership(s, row, k, undo)
            if keep_leader_counts(s, x, f, took, wr, ctx, undo) >= 0:
                return True
            undo_all(undo)
    return False


@dataclass(frozen=True, eq=False)
class _Candidates:
    """What a moving step found for its broker and a swapping step tries next: the partitions
    ``rows`` in ``order`` (the fewest bytes per byte/s of the relief needed first) and the
    broker's leader count before the step."""

    rows: np.ndarray
    order: np.ndarray
    leaders: int


def _move_leading(s: GoalState, row: int, brokers: tuple[int, int], took: tuple[int, int],
                  budget: float, ctx: StepContext) -> float:
    """Partition ``row``'s leadership goes from ``brokers[0]`` to ``brokers[1]`` with one of
    its replicas (a follower's, which then leads, or the leader's own), the first the guards
    accept, and the leader counts are kept in their band (``took``: both brokers' leader
    counts before). Returns the bytes moved, or -1 (nothing changed) when no replica will do
    within ``budget``."""
    giver, taker = brokers
    size, wr = float(s.size[row]), float(s.lead_out[row])
    undo: Undo = []
    for k in range(s.pos.shape[1]):
        f = int(s.pos[row, k])
        if f < 0 or not accepted(ctx.guards, s, row, f, taker):
            continue
        move_replica(s, row, k, taker, undo)
        if not lead_moved(s, row, k, giver, taker, ctx.guards, undo):
            undo_all(undo)
            continue
        got = keep_leader_counts(s, giver, taker, took, wr, ctx, undo)
        if got >= 0 and size + got <= budget:
            return size + got
        undo_all(undo)
    return -1.0


@dataclass(frozen=True, eq=False)
class NetworkOutPass:
    """The network-out replica phase on ``s`` (the module docstring), Cruise Control's
    ``ResourceDistributionGoal.rebalanceForBroker`` for network out: every move accepted by
    ``guards``; ``light``: the rows a leader-count repair may bring over."""

    s: GoalState
    guards: Sequence[Goal]
    light: np.ndarray

    def rebalance_for_broker(self, x: int, lim: BrokerLimits,
                             budget: float) -> tuple[float, int]:
        """Steps for ``x`` until it is inside its band, at most 64: over it, moving load
        out, else swapping it out; under it, moving load in, else swapping it in. Returns
        the bytes moved and the steps taken, negated (minus one) when a step was not
        found."""
        s = self.s
        moved = 0.0
        for step in range(64):
            if lim.lo_t[x] <= s.nw_out[x] <= lim.hi_t[x]:
                return moved, step
            over = bool(s.nw_out[x] > lim.hi_t[x])
            ctx = StepContext(lim, self.guards, self.light)
            if over:
                got, out = self.rebalance_by_moving_load_out(x, budget - moved, ctx)
                if got < 0:
                    got = self.rebalance_by_swapping_load_out(x, budget - moved, ctx, out)
            else:
                got, into = self.rebalance_by_moving_load_in(x, budget - moved, ctx)
                if got < 0 and into is not None:
                    got = self.rebalance_by_swapping_load_in(x, budget - moved, ctx, into)
            if got < 0:
                return moved, -1 - step
            moved += got
        return moved, 64

    def rebalance_by_moving_load_out(self, x: int, budget: float, ctx: StepContext,
                                     ) -> tuple[float, _Candidates]:
        """``x`` over its band: many leaderships passed at once, else one to a follower with
        room (the most relief first), else an exchange of two leaderships (no data moves),
        else one replica moved with its leadership (the fewest bytes per byte/s of the relief
        needed). Returns the bytes moved (-1 for no step) and the candidates for
        :meth:`rebalance_by_swapping_load_out`."""
        s, lim, guards = self.s, ctx.lim, ctx.guards
        need = float(s.nw_out[x] - lim.hi[x])
        most = float(s.nw_out[x] - lim.lo_t[x] * (1 + 1e-6))
        rows = s.leads(x)
        w = s.lead_out[rows]
        keep = (w > 0) & (w <= most)
        rows, w = rows[keep], w[keep]
        useful = np.minimum(w, need)
        cand = _Candidates(rows, cheapest(s.size[rows], useful, need), int(s.leaders[x]))
        if _pass_many(s, x, rows[np.argsort(-w, kind="stable")], lim, guards):
            return 0.0, cand
        free = np.argsort(-useful, kind="stable")
        if (_pass_one(s, x, rows[free[useful[free] >= need / 8]][:4 * ROWS], ctx)
                or exchange_replicas(s, x, budget, ctx, moves=False) >= 0):
            return 0.0, cand
        for row in rows[cand.order][:ROWS].tolist():
            size, wr = float(s.size[row]), float(s.lead_out[row])
            if size > budget:
                continue
            for d in receivers(s, wr, float(s.rate_in[row]), lim).tolist():
                if (s.pos[row] == d).any():
                    continue
                got = _move_leading(s, row, (x, d), (cand.leaders, int(s.leaders[d])),
                                    budget, ctx)
                if got >= 0:
                    return got, cand
        return -1.0, cand

    def rebalance_by_swapping_load_out(self, x: int, budget: float, ctx: StepContext,
                                       cand: _Candidates) -> float:
        """``x`` over its band: its leader replica to a receiver and a follower replica of
        about its size back (:func:`~kpart.cluster.goals._replica_swap.swap_step`), else an
        exchange whose partition taken back first moves a follower replica to ``x``.
        Returns the bytes moved, -1 for no step."""
        got = swap_step(self.s, x, cand.rows, cand.order, budget, ctx)
        return got if got >= 0 else exchange_replicas(self.s, x, budget, ctx, moves=True)

    def rebalance_by_moving_load_in(self, x: int, budget: float, ctx: StepContext,
                                    ) -> tuple[float, _Candidates | None]:
        """``x`` under its band: the leadership of many partitions it follows at once, else
        of one (the most gain first), else a replica moved onto it that it then leads (the
        fewest bytes per byte/s of the gain needed). Returns the bytes moved (-1 for no
        step) and the candidates for :meth:`rebalance_by_swapping_load_in`."""
        s, lim, guards = self.s, ctx.lim, ctx.guards
        if _take_many(s, x, lim, guards):
            return 0.0, None
        need = float(lim.lo[x] - s.nw_out[x])
        most = float(lim.hi[x] - s.nw_out[x])
        lead = s.pos[:, 0]
        rows = np.flatnonzero((s.lead_out >= need / 16) & (s.lead_out <= most) & (lead >= 0))
        g_of = lead[rows]
        w = s.lead_out[rows]
        rows = rows[((s.nw_out[g_of] > lim.hi_t[g_of]) | (s.nw_out[g_of] - w >= lim.lo[g_of]))
                    & (s.lead_in[x] + s.rate_in[rows] <= lim.lin[x]) & (g_of != x)]
        held = (s.pos[rows, 1:] == x).any(axis=1)
        undo: Undo = []
        followed = rows[held]
        useful = np.minimum(s.lead_out[followed], need)
        free = np.argsort(-useful, kind="stable")
        for row in followed[free[useful[free] >= need / 8]][:4 * ROWS].tolist():
            g = int(lead[row])
            if not lead_ok(s, row, g, x, guards):
                continue
            k = int(np.flatnonzero(s.pos[row] == x)[0])
            wr = float(s.lead_out[row])
            took = (int(s.leaders[g]), int(s.leaders[x]))
            pass_leadership(s, row, k, undo)
            if keep_leader_counts(s, g, x, took, wr, ctx, undo) >= 0:
                return 0.0, None
            undo_all(undo)
        rows = rows[~held & (s.size[rows] <= budget)]
        useful = np.minimum(s.lead_out[rows], need)
        cand = _Candidates(rows, cheapest(s.size[rows], useful, need), int(s.leaders[x]))
        for row in rows[cand.order][:ROWS].tolist():
            g = int(lead[row])
            got = _move_leading(s, row, (g, x), (int(s.leaders[g]), int(s.leaders[x])),
                                budget, ctx)
            if got >= 0:
                return got, cand
        return -1.0, cand

    def rebalance_by_swapping_load_in(self, x: int, budget: float, ctx: StepContext,
                                      cand: _Candidates) -> float:
        """``x`` under its band: a replica of a partition comes to it, which it leads, and a
        follower replica of about the same size goes back
        (:func:`~kpart.cluster.goals._replica_swap.gain_swap`). Returns the bytes moved, -1
        for no step."""
        undo: Undo = []
        for row in cand.rows[cand.order][:ROWS // 4].tolist():
            got = gain_swap(self.s, x, row, budget, ctx, undo)
            if got >= 0:
                return got
        return -1.0


def _absorbing(lim: BrokerLimits, absorbers: np.ndarray, s: GoalState) -> BrokerLimits:
    """``lim`` with the ceiling as the network-out top of the ``absorbers`` (brokers leading a
    partition heavier than the band's top: over it in any plan while they lead it, so they
    may take more, up to :attr:`BrokerLimits.top`) and no leader bytes-in limit for those
    already over it."""
    hi, hi_t, lin = lim.hi.copy(), lim.hi_t.copy(), lim.lin.copy()
    hi[absorbers] = lim.top[absorbers]
    hi_t[absorbers] = lim.top[absorbers]
    over = absorbers[s.lead_in[absorbers] > lin[absorbers]]
    lin[over] = np.inf
    return replace(lim, hi=hi, hi_t=hi_t, lin=lin)


def _heavy_leaders(s: GoalState, lim: BrokerLimits) -> np.ndarray:
    """Brokers leading a partition heavier than their band's top (sorted)."""
    return np.unique(s.pos[heavy_partitions(s, lim), 0]).astype(np.int64)


def _settle_all(net: NetworkOutPass, base: BrokerLimits, budget: float, rounds: int) -> float:
    """Every broker outside its band, the farthest first, brought into it
    (:meth:`NetworkOutPass.rebalance_for_broker`), the brokers leading a heavy partition left
    alone (absorbers). Returns the bytes moved."""
    s = net.s
    absorbers = _heavy_leaders(s, base)
    stuck: set[int] = set(absorbers.tolist())
    lim = _absorbing(base, absorbers, s)
    moved = 0.0
    for _ in range(rounds):
        bad = np.flatnonzero(s.allowed & ((s.nw_out > lim.hi_t) | (s.nw_out < lim.lo_t)))
        bad = np.array([b for b in bad.tolist() if b not in stuck], dtype=np.int64)
        if not len(bad):
            break
        far = np.maximum(s.nw_out[bad] - lim.hi[bad], lim.lo[bad] - s.nw_out[bad])
        progress = False
        for x in bad[np.argsort(-far / lim.hi[bad], kind="stable")].tolist():
            got, steps = net.rebalance_for_broker(x, lim, budget - moved)
            moved += got
            progress = progress or steps > 0 or steps < -1
            if steps < 0:
                stuck.add(x)
        if not progress:
            break
    return moved


def relocate_for_network_out(s: GoalState, bands: LeaderBands, guards: Sequence[Goal],
                             budget: float, rounds: int = 12) -> float:
    """Leadership changes and replica moves that bring brokers into the network-out band
    (module docstring, :class:`NetworkOutPass`); ``bands``: the leadership goals'
    :class:`~kpart.cluster.goals._leadership_movement.LeaderBands` (network out: the band
    aimed at and the threshold band; the leader count's threshold band; the leader
    bytes-in threshold top); ``budget``: bytes this pass may move. Then heavy leaderships
    are packed two to a broker (:func:`kpart.cluster.goals._heavy_leaderships.pair_heavy`)
    and what that leaves settled again. Returns the bytes moved."""
    top = (np.full(len(s.allowed), np.inf) if s.model is None
           else network_out_ceiling(s.model, s.allowed) * (1 + 1e-9))
    base = BrokerLimits(lo=bands.lo[0], hi=np.minimum(bands.hi[0], top), lo_t=bands.lo_t[0],
                        hi_t=np.minimum(bands.hi_t[0], top), clo=float(bands.lo_t[1].max()),
                        chi=float(bands.hi_t[1].min()), lin=bands.hi_t[2], top=top)
    light = np.flatnonzero(s.pos[:, 0] >= 0)
    light = light[np.argsort(s.size[light] + s.lead_out[light], kind="stable")][:512]
    net = NetworkOutPass(s, guards, light)

    def settle(x: int, spend: float) -> tuple[float, bool]:
        lim = _absorbing(base, _heavy_leaders(s, base), s)
        got, _steps = net.rebalance_for_broker(x, lim, spend)
        return got, bool(lim.lo_t[x] <= s.nw_out[x] <= lim.hi_t[x])

    moved = _settle_all(net, base, budget, rounds)
    paired = pair_heavy(s, base, guards, budget - moved, light, settle)
    paired += relieve_over(s, base, guards, budget - moved - paired, light, settle)
    if paired > 0:  # what a pair's steps took out of their band, and what it unblocked
        moved += paired + _settle_all(net, base, budget - moved - paired, rounds)
        # a pair those steps made possible (a bin now leading what a heavy leader needs)
        again = pair_heavy(s, base, guards, budget - moved, light, settle)
        if again > 0:
            moved += again + _settle_all(net, base, budget - moved - again, rounds)
    return moved
