"""Heavy leaderships shared (Cruise Control's ``NetworkOutboundUsageDistributionGoal`` with
``INTER_BROKER_REPLICA_SWAP``): a broker leading a partition whose network out alone is
above the band's top stays over the band while it leads it, so two such partitions led by
one broker leave one broker fewer over it — the packing
:func:`kpart.cluster.verifier.goal_floor` counts.

:func:`pair_heavy` packs them greedily: for a broker ``g`` leading one heavy partition
``q``, the broker ``b`` leading another (a bin) takes a replica of ``q`` from a broker
``f`` of ``q`` (the leader replica itself, or a follower), a replica of about the same size
goes back from ``b`` to ``f`` (disk, network in and replica counts about unchanged on
both: a single move would take them out of their bands) and ``b`` leads ``q``; when ``f``
is ``g`` and ``b``'s followers will not do, replicas ``b`` leads go back with their
leadership (on #1592, adding: a 1.8 TB heavy partition for two mid-weight ones of 1.4 TB
and 11.9 MB/s, the third pair); then ``g``,
now under its band, is brought back into it by ``settle`` (the steps of
:mod:`kpart.cluster.goals._network_out_rebalance`). A pair is kept only when ``g`` lands
inside its band with its leader count in band, within the byte budget, and ``b`` ends under
the ceiling no broker passes (the hottest broker's utilization before the plan, relative to
the mean: :func:`kpart.cluster.load.network_out_ceiling`; on #1592, adding, no two heavy
partitions fit under it); else everything it did is undone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from kpart.cluster.goals._network_out_actions import (
    BrokerLimits,
    StepContext,
    Undo,
    heavy_partitions,
    lead_ok,
    move_replica,
    pass_leadership,
    spreads_network_out,
    take_one,
    undo_all,
)
from kpart.cluster.goals.capacity import CapacityGoal
from kpart.cluster.goals.goal import Goal
from kpart.cluster.goals.relocation import accepted, accepted_together
from kpart.cluster.goals.resource_distribution import ResourceDistributionGoal
from kpart.cluster.goals.state import GoalState

__all__ = ["Exchange", "pair_heavy", "relieve_over"]

#: A pair moves at most this many times the bytes of the replica it brings to the bin (the
#: replica, about as much sent back, what the broker that led it takes on): a costlier one
#: is left for a cheaper pair (on #1592, adding: the same brokers outside the band for 3 TB
#: fewer).
_COST = 3.0
#: Bins tried per heavy partition, and replicas of about its size tried to send back.
_BINS = 3
_BACK = 32

#: ``settle(x, budget)``: bring broker ``x`` into its network-out band with at most
#: ``budget`` bytes; returns the bytes moved and whether ``x`` is in its band.
Settle = Callable[[int, float], tuple[float, bool]]


#: Goals the replicas sent back are weighed against together (their sum), not one by one.
def _summed(g: Goal) -> bool:
    """The disk and network-in distribution and capacity goals, the replica-count goal and
    the potential network-out goal."""
    return ((isinstance(g, ResourceDistributionGoal) and g.resource in ("disk", "nw_in",
                                                                         "replicas"))
            or (isinstance(g, CapacityGoal) and g.resource in ("disk", "nw_in", "pot_out")))


def _spreads(g: Goal, resource: str) -> bool:
    return isinstance(g, ResourceDistributionGoal) and g.resource == resource


def _window(s: GoalState, x: int, q: int, guards: Sequence[Goal], gives: bool,
            ) -> tuple[float, float]:
    """The bytes of replicas broker ``x`` may send (``gives``: ``x`` takes ``q``'s replica)
    or take (``x`` gives ``q``'s) in exchange so that it stays inside the disk and network-in
    bands (of the guards that weigh them), as ``(lo, hi)`` (network in converted at ``q``'s
    bytes-in per byte)."""
    lo_t, hi_t = 0.0, float("inf")
    for g in guards:
        if not (_spreads(g, "disk") or _spreads(g, "nw_in")):
            continue
        assert isinstance(g, ResourceDistributionGoal)
        lo, hi, c = g.band(s)
        disk = g.resource == "disk"
        load = float((s.disk if disk else s.nw_in)[x])
        w = float(s.size[q] if disk else s.rate_in[q])
        per = 1.0 if disk else float(s.rate_in[q] / max(float(s.size[q]), 1e-300))
        if per <= 0:
            continue
        if gives:
            lo_t, hi_t = max(lo_t, (load + w - hi * c[x]) / per), min(hi_t, (load + w - lo * c[x])
                                                                     / per)
        else:
            lo_t, hi_t = max(lo_t, (lo * c[x] - load + w) / per), min(hi_t, (hi * c[x] - load + w)
                                                                     / per)
    return max(lo_t, 0.0), hi_t


def _affordable(s: GoalState, rows: np.ndarray, lim: BrokerLimits, x: int) -> np.ndarray:
    """Network out ``x`` may take with the leadership of each of ``rows`` from its leader
    (one left inside its band, or over it, with a leader to spare); 0 where it may not."""
    z = s.pos[rows, 0]
    w = s.lead_out[rows]
    ok = ((z >= 0) & (z != x) & (s.leaders[z] - 1 >= lim.clo)
          & ((s.nw_out[z] > lim.hi_t[z]) | (s.nw_out[z] - w >= lim.lo[z]))
          & (s.lead_in[x] + s.rate_in[rows] <= lim.lin[x]))
    out: np.ndarray = np.where(ok, w, 0.0)
    return out


@dataclass(frozen=True, eq=False)
class Exchange:
    """An exchange for a heavy partition: the broker limits ``lim``, the ``guards`` each
    replica sent back keeps, and ``giver``, the broker that led the heavy partition."""

    lim: BrokerLimits
    guards: Sequence[Goal]
    giver: int


def _backs(s: GoalState, b: int, f: int, q: int, ctx: Exchange,
           with_led: bool = False) -> tuple[list[list[int]], float]:
    """Follower replicas ``[row, slot]`` on ``b`` to send to ``f`` in exchange for ``q``'s,
    their sizes summing into ``f``'s :func:`_window` and up to what ``b`` must send (at most
    :data:`_BACK`), each accepted alone by the guards that do not weigh a sum; when ``f`` is
    ``g`` (which loses ``q``'s leadership), first those whose leadership ``g`` may take
    (:func:`_affordable`), the most network out first, up to what ``g`` needs; then the
    largest. ``with_led`` (``f`` is ``g``): replicas ``b`` leads are candidates too (slot 0,
    their leadership going to ``g``: its network out back with the bytes; ``b`` leads a
    heavy partition, over its band in any plan, and its leader count is a lower-priority
    goal). Also returns what ``b`` must still send elsewhere (bytes). ``([], 0)`` when none
    fits."""
    lim, guards, g = ctx.lim, ctx.guards, ctx.giver
    lo, hi = _window(s, f, q, guards, gives=False)
    need_b, most_b = _window(s, b, q, guards, gives=True)
    if hi < lo or most_b < lo:
        return [], 0.0
    aim = min(max(need_b, lo), hi, most_b)  # what ``b`` must send, within both windows
    each = [x for x in guards if not _summed(x)]
    rows, slots = s.replicas_on(b, first=1)
    if with_led and f == g:  # also replicas ``b`` leads, their leadership going with them to ``g``
        led = s.leads(b)
        led = led[s.lead_out[led] <= lim.hi_t[b]]
        rows, slots = np.concatenate([rows, led]), np.concatenate([slots, 0 * led])
    fit = ~(s.pos[rows] == f).any(axis=1) & (rows != q) & (s.size[rows] <= hi)
    rows, slots = rows[fit], slots[fit]
    gain = _affordable(s, rows, lim, g) if f == g else np.zeros(len(rows))
    if with_led and f == g:
        lead = slots == 0
        gain[lead] = np.where(s.lead_in[g] - s.rate_in[q] + s.rate_in[rows[lead]] <= lim.lin[g],
                              s.lead_out[rows[lead]], 0.0)
    want = float(lim.lo[g] - (s.nw_out[g] - s.lead_out[q])) if f == g else 0.0
    room = float(lim.hi[g] - (s.nw_out[g] - s.lead_out[q]))
    order = np.lexsort((-s.size[rows], -gain))
    out: list[list[int]] = []
    total = got = 0.0
    for r, k, w in zip(rows[order].tolist(), slots[order].tolist(), gain[order].tolist(),
                       strict=True):
        # leaderships ``g`` may take up to what it needs (and ``b`` must send), then the
        # largest replicas up to the bottom of ``f``'s window (room for what ``g`` takes next)
        if len(out) >= _BACK or total >= (aim if w > 0 else max(lo, need_b)):
            if w > 0:
                continue
            break
        size = float(s.size[r])
        if w > 0 and (got >= want or got + w > room):
            continue
        if total + size <= hi and all(x.accepts(s, r, b, f) for x in each):
            out.append([r, k])
            total += size
            got += w
    if not lo <= total <= hi:
        return [], 0.0
    return out, max(need_b - total, 0.0)


def _disk_band(s: GoalState, guards: Sequence[Goal]) -> tuple[np.ndarray, np.ndarray]:
    """Per broker the disk band ``(lo, hi)`` in bytes of the disk goal among ``guards``
    (``(-inf, inf)`` without it)."""
    for g in guards:
        if _spreads(g, "disk"):
            lo, hi, c = g.band(s)  # type: ignore[attr-defined]
            return lo * c, hi * c
    n = len(s.allowed)
    return np.full(n, -np.inf), np.full(n, np.inf)


def _spread(s: GoalState, b: int, amount: float, avoid: Sequence[int],
            guards: Sequence[Goal], undo: Undo) -> float:
    """Move follower replicas off ``b``, the largest first of at most ``amount`` bytes in
    all, each to one of the brokers with the most disk room (not ``avoid``) that the guards
    accept. Returns the bytes moved."""
    lo, hi = _disk_band(s, guards)
    room = np.where(s.allowed, hi - s.disk, -np.inf)
    room[list(avoid)] = -np.inf
    dsts = np.argsort(-room, kind="stable")[:16].tolist()
    rows, slots = s.replicas_on(b, first=1)
    fit = s.size[rows] <= amount
    rows, slots = rows[fit], slots[fit]
    order = np.argsort(-s.size[rows], kind="stable")[:4 * _BACK]
    moved = 0.0
    for r, k in zip(rows[order].tolist(), slots[order].tolist(), strict=True):
        size = float(s.size[r])
        if moved + size > amount:
            continue
        for d in dsts:
            if s.disk[d] + size <= hi[d] and accepted(guards, s, r, b, d):
                move_replica(s, r, k, d, undo)
                moved += size
                break
    return moved


def _share(s: GoalState, q: int, b: int, ctx: StepContext,
           budget: float, settle: Settle) -> float:
    """Broker ``b`` leads ``q`` too (the module docstring); its leader ``g`` settled.
    Returns the bytes moved, -1 when no exchange was found, -2 when ``g`` could not settle
    after one (nothing changed either way)."""
    lim, guards, light = ctx.lim, ctx.guards, ctx.light
    free = [x for x in guards if not spreads_network_out(x)]
    g = int(s.pos[q, 0])
    counts = (int(s.leaders[g]), int(s.leaders[b]))
    if float(s.size[q]) + _window(s, b, q, free, gives=True)[0] > budget:
        return -1.0  # ``q``'s replica and what ``b`` must send for it: over the budget
    saved = s.save()  # restored when ``g`` cannot be settled
    for k in range(s.pos.shape[1]):
        f = int(s.pos[q, k])
        if f < 0 or not s.allowed[b]:
            continue
        # what ``b`` must send beyond the bottom of ``f``'s window goes first to brokers
        # with disk room (``f``, when it is ``g``, keeps room for what it takes on next)
        undo: Undo = []
        lo_f = _window(s, f, q, free, gives=False)[0]
        extra = _window(s, b, q, free, gives=True)[0] - lo_f
        spread = _spread(s, b, extra, (b, f, g), free, undo) if extra > 0 else 0.0
        back, rest = _backs(s, b, f, q, Exchange(lim, free, g))
        if not back and f == g:
            back, rest = _backs(s, b, f, q, Exchange(lim, free, g), with_led=True)
        cost = float(s.size[q]) + spread + float(sum(s.size[r] for r, _k in back))
        steps = ((q, k, f, b), *((r, kr, b, f) for r, kr in back))
        if (not back or rest > 0 or cost > budget
                or not accepted_together(s, steps, free)):
            undo_all(undo)
            continue
        for r, kr in back:
            move_replica(s, r, kr, f, undo)
        move_replica(s, q, k, b, undo)
        if k and not lead_ok(s, q, g, b, free):
            undo_all(undo)
            continue
        if k:
            pass_leadership(s, q, k, undo)
        if s.nw_out[b] > lim.top[b]:  # the packed broker would end hotter than any before
            undo_all(undo)
            continue
        for r, _kr in back if f == g else ():  # ``g`` leads what it may of what came back
            z, w = int(s.pos[r, 0]), float(s.lead_out[r])
            if (_affordable(s, np.array([r]), lim, g)[0] > 0
                    and s.nw_out[g] + w <= lim.hi[g] and s.leaders[g] + 1 <= lim.chi
                    and lead_ok(s, r, z, g, free)):
                pass_leadership(s, r, int(np.flatnonzero(s.pos[r] == g)[0]), undo)
        got, inside = settle(g, budget - cost)
        if inside and s.leaders[g] < min(lim.clo, counts[0]):
            extra = take_one(s, g, float(lim.hi_t[g]), lim, free, light, [])
            got = got + extra if extra >= 0 else -1.0
        if (inside and got >= 0 and cost + got <= budget
                and s.leaders[g] >= min(lim.clo, counts[0])
                and s.leaders[b] <= max(lim.chi, counts[1])):
            return cost + got
        s.restore(saved)
        return -2.0  # ``g`` cannot settle: another bin would not help either
    return -1.0


def _fullness(s: GoalState, bins: np.ndarray) -> np.ndarray:
    """Disk used over disk capacity of ``bins`` (bytes; used bytes where capacity is
    unknown)."""
    cap = s.cap_disk[bins]
    out: np.ndarray = s.disk[bins] / np.where(np.isfinite(cap), cap, 1.0)
    return out


def _first_bin(s: GoalState, q: int, bins: Sequence[int],
               ctx: StepContext, budget: float,
               settle: Settle) -> tuple[float, int]:
    """:func:`_share` of ``q`` with each of ``bins`` in turn until one takes it: the bytes
    moved (-1: none did) and how many bins were tried."""
    for i, b in enumerate(bins):
        got = _share(s, q, b, ctx, budget, settle)
        if got >= 0:
            return got, i + 1
    return -1.0, len(bins)


def pair_heavy(s: GoalState, lim: BrokerLimits, guards: Sequence[Goal], budget: float,
               light: np.ndarray, settle: Settle) -> float:
    """Pack the leaderships heavier than the band's top two (or more) to a broker, one
    pair at a time (the module docstring): each heavy partition led alone by its broker,
    the one whose broker keeps the most other network out first (the least to refill),
    goes to a broker leading another (the fewest heavy partitions, then the most disk
    room first), for at most :data:`_COST` times its replica's bytes. ``lim``: the limits
    without absorbers; ``light``: light rows for leader-count repairs; ``settle``: see
    :data:`Settle`. Not in the count-guard mode (its guards compare with the start of each
    move). Returns the bytes moved."""
    if s.count_guard:
        return 0.0
    spent = 0.0
    tried: set[tuple[int, int]] = set()
    ctx = StepContext(lim, guards, light)
    while True:
        lead = s.pos[:, 0]
        heavy = np.flatnonzero(heavy_partitions(s, lim))
        owners = lead[heavy]
        n_heavy = np.bincount(owners, minlength=len(s.allowed))
        alone = heavy[n_heavy[owners] == 1]
        rest = s.nw_out[lead[alone]] - s.lead_out[alone]
        bins = np.unique(owners)  # the fewest heavy partitions, then the most disk room
        bins = bins[np.lexsort((_fullness(s, bins), n_heavy[bins]))]
        for q in alone[np.argsort(-rest, kind="stable")].tolist():
            cands = [b for b in bins.tolist() if b != lead[q] and (q, b) not in tried][:_BINS]
            cap = min(budget - spent, _COST * float(s.size[q]))
            got, n = _first_bin(s, q, cands, ctx, cap, settle)
            tried.update((q, b) for b in cands[:n])
            if got >= 0:
                spent += got
                break
        else:
            return spent


def relieve_over(s: GoalState, lim: BrokerLimits, guards: Sequence[Goal], budget: float,
                 light: np.ndarray, settle: Settle) -> float:
    """A broker over its band that leads no heavy partition and that the steps of
    :mod:`kpart.cluster.goals._network_out_rebalance` left there (its load one or two partitions of
    0.2-1 x the band's top, their followers full) hands one of them to a broker leading a
    heavy one (over the band in any plan: it has all the room) as :func:`pair_heavy` hands
    a heavy one — a replica of it there, replicas of about its size back — and is then
    settled (the partitions that take it into its band, the cheapest first). Returns the
    bytes moved."""
    if s.count_guard:
        return 0.0
    spent = 0.0
    ctx = StepContext(lim, guards, light)
    bins = np.unique(s.pos[heavy_partitions(s, lim), 0])
    if not len(bins):
        return 0.0
    over = np.flatnonzero(s.allowed & (s.nw_out > lim.hi_t))
    for g in over[~np.isin(over, bins)].tolist():
        rows = s.leads(g)
        need = float(s.nw_out[g] - lim.hi[g])
        rows = rows[s.lead_out[rows] >= need]
        for q in rows[np.argsort(s.size[rows], kind="stable")][:3].tolist():
            cands = bins[np.argsort(_fullness(s, bins), kind="stable")][:_BINS].tolist()
            got, _n = _first_bin(s, q, cands, ctx, budget - spent, settle)
            if got >= 0:
                spent += got
                break
    return spent
