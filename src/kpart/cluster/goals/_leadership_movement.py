"""Leadership for the network-out, leader-count and leader-bytes-in goals, without moving
data (Cruise Control's ``LEADERSHIP_MOVEMENT`` actions of ``NetworkOutboundUsageDistributionGoal``,
``LeaderReplicaDistributionGoal`` and ``LeaderBytesInDistributionGoal``).

Only the leader (which replica comes first) changes, so no goal of disk, replicas or network
in can change, and the network-out capacity limit (a hard goal) is never crossed. Two steps:

1. :func:`assign_leaders`, a longest-processing-time greedy: partitions heaviest first (by
   leader network out), each led by the replica whose broker scores lowest on
   ``network out / fair share + count_weight × leaders / fair share`` after taking it (the
   current leader kept unless another scores 2 % lower) — the
   few heavy partitions (on a heavy-tailed cluster a handful carry most bytes) are spread by
   bytes, the many light ones by count;
2. :func:`refine_leaders`, a descent: sweeps over the partitions touching a broker outside a
   band pass the leadership to the follower that lowers the weighted squared distance to the
   bands most, never taking a broker out of a band it is in nor into a band's violation it
   was not in (so no goal's violation count grows: a lower goal never undoes a higher one),
   until a sweep changes nothing.

Then :func:`restore_leaders` gives each partition back the leader it had wherever that
leaves every broker's distance to the bands no larger and no broker entering a violation:
the greedy start and the later steps change leaders the goals do not need changed (a
leadership moved and moved back elsewhere, ties broken away from the current leader).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from kpart.cluster.goals.relocation import recount_leader_loads
from kpart.cluster.goals.state import GoalState

__all__ = [
    "HI",
    "HI_T",
    "LO",
    "LO_T",
    "NORM",
    "LeaderBands",
    "LeadershipLoads",
    "PairIndex",
    "assign_leaders",
    "first_at_least",
    "pair_index",
    "refine_leaders",
    "restore_leaders",
    "weight_order",
]


class LeaderBands(NamedTuple):
    """The bands of the three leadership goals, float64 ``(3, B)`` each: row 0 network out,
    row 1 leader count, row 2 leader bytes-in (absolute loads per broker; ``-inf``/``inf``
    for no limit): ``lo, hi`` the band aimed at (a broker's distance is measured to it,
    divided by ``norm`` > 0) and ``lo_t, hi_t`` the threshold band (a broker inside may not
    leave it; a violation is counted against it). A named tuple of arrays, so that the numba
    passes take it as it is.

    >>> b = LeaderBands.unbounded(2)
    >>> b.hi.shape, float(b.norm[1, 0])
    ((3, 2), 1.0)
    """

    lo: np.ndarray
    hi: np.ndarray
    norm: np.ndarray
    lo_t: np.ndarray
    hi_t: np.ndarray

    @classmethod
    def unbounded(cls, brokers: int) -> LeaderBands:
        """No limit for any goal (``norm`` 1)."""
        inf = np.full((3, brokers), np.inf)
        return cls(-inf, inf.copy(), np.ones((3, brokers)), -inf, inf.copy())

    def stacked(self) -> np.ndarray:
        """float64 ``(5, 3, B)``, C-contiguous: the fields in order, indexed by :data:`LO`,
        :data:`HI`, :data:`NORM`, :data:`LO_T`, :data:`HI_T` (what the numba passes take:
        one array, not five, in their hot loops)."""
        return np.ascontiguousarray(np.stack(self), dtype=np.float64)


#: The fields of :class:`LeaderBands` in its :meth:`~LeaderBands.stacked` array.
LO, HI, NORM, LO_T, HI_T = range(5)


@njit(cache=True)
def _choose(pos: np.ndarray, order: np.ndarray, lead_out: np.ndarray, share_out: np.ndarray,
            share_lead: np.ndarray, limit_out: np.ndarray, allowed: np.ndarray,
            count_weight: float) -> np.ndarray:  # pragma: no cover
    b = len(share_out)
    out = np.zeros(b)
    lead = np.zeros(b)
    slot = np.zeros(len(pos), np.int32)
    for i in order:
        best, best_score, best_over = -1, np.inf, True
        for k in range(pos.shape[1]):
            x = pos[i, k]
            if x < 0 or not allowed[x]:
                continue
            over = out[x] + lead_out[i] > limit_out[x]
            score = ((out[x] + lead_out[i]) / share_out[x]
                     + count_weight * (lead[x] + 1.0) / share_lead[x])
            if k > 0:  # keep the current leader unless another is clearly better
                score = score * 1.02 + 1e-9 * k
            if (best_over and not over) or (over == best_over and score < best_score):
                best, best_score, best_over = k, score, over
        if best < 0:
            best = 0
        slot[i] = best
        x = pos[i, best]
        out[x] += lead_out[i]
        lead[x] += 1.0
    return slot


def network_out_limits(s: GoalState) -> np.ndarray:
    out: np.ndarray = np.where(np.isfinite(s.cap_out), s.cap_out * s.thresholds.capacity,
                               np.inf)
    return out


def assign_leaders(s: GoalState, share_out: np.ndarray, count_weight: float = 10.0) -> int:
    """Choose every partition's leader by step 1 of the module docstring and apply it to
    ``s`` (slot 0 of :attr:`GoalState.pos`); ``share_out``: float64 ``(B,)``, each broker's
    fair network out. Returns the number of partitions whose leader changed."""
    allowed = s.allowed
    tiny = 1e-300
    share_lead = np.full(len(allowed), max(len(s.pos) / max(int(allowed.sum()), 1), tiny))
    order = np.argsort(-s.lead_out, kind="stable")
    slot = _choose(s.pos, order, s.lead_out, np.maximum(share_out, tiny), share_lead,
                   network_out_limits(s), allowed, count_weight)
    rows = np.flatnonzero(slot)
    if len(rows):
        first = s.pos[rows, 0].copy()
        s.pos[rows, 0] = s.pos[rows, slot[rows]]
        s.pos[rows, slot[rows]] = first
    recount_leader_loads(s)
    return len(rows)


@njit(cache=True)
def band_distance(k: int, loads: np.ndarray, bands: np.ndarray, weights: np.ndarray,
           flags: np.ndarray) -> float:  # pragma: no cover
    """Broker ``k``'s weighted squared distance to the (aimed) bands; ``flags[j]``: -1
    under goal ``j``'s (threshold) band, 1 over it, 0 inside."""
    total = 0.0
    for j in range(3):
        v = loads[j, k]
        lo, hi, norm = bands[LO, j, k], bands[HI, j, k], bands[NORM, j, k]
        flags[j] = 1 if v > bands[HI_T, j, k] else (-1 if v < bands[LO_T, j, k] else 0)
        if v > hi:
            d = (v - hi) / norm
        elif v < lo:
            d = (lo - v) / norm
        else:
            continue
        total += weights[j] * d * d
    return total


@njit(cache=True)
def shift_leader_load(k: int, loads: np.ndarray, wo: float, wi: float, sign: float) -> None:
    loads[0, k] += sign * wo  # pragma: no cover
    loads[1, k] += sign  # pragma: no cover
    loads[2, k] += sign * wi  # pragma: no cover


@njit(cache=True)
def enters_violation(before: np.ndarray, after: np.ndarray) -> bool:  # pragma: no cover
    """A broker enters a goal's violation (or crosses from under to over): not allowed."""
    bad = False
    for j in range(3):
        bad = bad or (after[j] != 0 and after[j] != before[j])
    return bad


@njit(cache=True)
def _outside(k: int, loads: np.ndarray, bands: np.ndarray) -> bool:  # pragma: no cover
    out = False
    for j in range(3):
        out = out or loads[j, k] > bands[HI, j, k] or loads[j, k] < bands[LO, j, k]
    return out


@njit(cache=True)
def _near(pos: np.ndarray, i: int, loads: np.ndarray, bands: np.ndarray) -> bool:  # pragma: no cover
    """A broker of partition ``i`` is outside a band."""
    near = False
    for k in range(pos.shape[1]):
        near = near or (pos[i, k] >= 0 and _outside(pos[i, k], loads, bands))
    return near


@njit(cache=True)
def _best_follower(pos: np.ndarray, i: int, part: np.ndarray, brokers: np.ndarray,
                   loads: np.ndarray, bands: np.ndarray, weights: np.ndarray) -> int:  # pragma: no cover
    """The slot of ``i``'s follower whose taking the leadership lowers the penalty most
    without a broker entering a violation; -1 for none. ``brokers``: rows allowed (0/1) and
    the network-out limit."""
    a = pos[i, 0]
    wo, wi = part[0, i], part[1, i]
    fa, fc, ga, gc = (np.zeros(3, np.int64), np.zeros(3, np.int64), np.zeros(3, np.int64),
                      np.zeros(3, np.int64))
    best, best_gain = -1, 1e-15
    base_a = band_distance(a, loads, bands, weights, fa)
    shift_leader_load(a, loads, wo, wi, -1.0)
    after_a = band_distance(a, loads, bands, weights, ga)
    if not enters_violation(fa, ga):
        for k in range(1, pos.shape[1]):
            c = pos[i, k]
            if c < 0 or brokers[0, c] == 0 or loads[0, c] + wo > brokers[1, c]:
                continue
            base_c = band_distance(c, loads, bands, weights, fc)
            shift_leader_load(c, loads, wo, wi, 1.0)
            gain = base_a + base_c - after_a - band_distance(c, loads, bands, weights, gc)
            shift_leader_load(c, loads, wo, wi, -1.0)
            if gain > best_gain * (1 + 1e-9) and not enters_violation(fc, gc):
                best, best_gain = k, gain
    shift_leader_load(a, loads, wo, wi, 1.0)
    return best


@njit(cache=True)
def _descend(pos: np.ndarray, part: np.ndarray, brokers: np.ndarray, loads: np.ndarray,
             bands: np.ndarray, weights: np.ndarray, sweeps: int) -> int:  # pragma: no cover
    """Single leadership passes (``part``: rows network out and leader bytes-in per
    partition)."""
    changed = 0
    for _ in range(sweeps):
        made = 0
        for i in range(pos.shape[0]):
            if pos[i, 0] < 0 or not _near(pos, i, loads, bands):
                continue
            best = _best_follower(pos, i, part, brokers, loads, bands, weights)
            if best < 0:
                continue
            a, c = pos[i, 0], pos[i, best]
            shift_leader_load(a, loads, part[0, i], part[1, i], -1.0)
            shift_leader_load(c, loads, part[0, i], part[1, i], 1.0)
            pos[i, 0], pos[i, best] = c, a
            made += 1
        changed += made
        if made == 0:
            break
    return changed


@njit(cache=True)
def weight_order(weights: np.ndarray) -> np.ndarray:  # pragma: no cover
    """``np.argsort(weights)`` as :func:`pair_index` orders rows (numba's sort: computed once
    for the weights a plan keeps, not once per index)."""
    return np.argsort(weights)


@njit(cache=True)
def _pair_index(pos: np.ndarray, lead_out: np.ndarray, b: int,
                order: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover
    """:func:`pair_index`'s arrays (``order``: :func:`weight_order` of ``lead_out``)."""
    p, r = pos.shape
    count = np.zeros(b * b + 1, np.int64)
    for i in range(p):
        a = pos[i, 0]
        for k in range(1, r):
            if a >= 0 and pos[i, k] >= 0:
                count[a * b + pos[i, k] + 1] += 1
    starts = np.cumsum(count)
    fill = starts[:-1].copy()
    rows = np.zeros(starts[-1], np.int64)
    for i in order:
        a = pos[i, 0]
        for k in range(1, r):
            if a >= 0 and pos[i, k] >= 0:
                key = a * b + pos[i, k]
                rows[fill[key]] = i
                fill[key] += 1
    return rows, starts


class PairIndex(NamedTuple):
    """Rows by (leader, follower) pair, each pair's rows sorted by weight: pair ``l * B + f``
    is ``rows[starts[l * B + f]:starts[l * B + f + 1]]``."""

    rows: np.ndarray
    starts: np.ndarray


def pair_index(pos: np.ndarray, lead_out: np.ndarray, b: int,
               order: np.ndarray | None = None) -> PairIndex:
    """The :class:`PairIndex` of ``pos`` (``b`` brokers), rows sorted by ``lead_out``
    (``order``: its :func:`weight_order`, when the caller keeps it)."""
    if order is None:
        order = weight_order(lead_out)
    return PairIndex(*_pair_index(pos, lead_out, b, order))


class LeadershipLoads(NamedTuple):
    """What the leadership passes read and change: ``loads`` float64 ``(3, B)`` (network
    out, leader count, leader bytes-in per broker, changed as leaderships pass), the
    leadership goals' bands (:meth:`LeaderBands.stacked`) and ``weights`` and
    ``brokers`` float64 ``(2, B)``: may hold replicas (0/1), the network-out limit."""

    loads: np.ndarray
    bands: np.ndarray
    weights: np.ndarray
    brokers: np.ndarray


@njit(cache=True)
def _carry(a: int, c: int, loads: np.ndarray, wo: float, wi: float,
           sign: float) -> None:  # pragma: no cover
    """Shift ``sign ×`` (network out ``wo``, leader bytes-in ``wi``) from ``a`` to ``c``."""
    loads[0, a] -= sign * wo
    loads[2, a] -= sign * wi
    loads[0, c] += sign * wo
    loads[2, c] += sign * wi


@njit(cache=True)
def _pair_gain(a: int, c: int, wo: float, wi: float, loads: np.ndarray, bands: np.ndarray,
               weights: np.ndarray) -> float:  # pragma: no cover
    """Gain of shifting network out ``wo`` and leader bytes-in ``wi`` from ``a`` to ``c``
    (leader counts unchanged); ``-inf`` when a broker would enter a violation."""
    fa0, fc0, fa1, fc1 = (np.zeros(3, np.int64), np.zeros(3, np.int64), np.zeros(3, np.int64),
                          np.zeros(3, np.int64))
    base = band_distance(a, loads, bands, weights, fa0) + band_distance(c, loads, bands, weights, fc0)
    _carry(a, c, loads, wo, wi, 1.0)
    after = band_distance(a, loads, bands, weights, fa1) + band_distance(c, loads, bands, weights, fc1)
    _carry(a, c, loads, wo, wi, -1.0)
    return -np.inf if enters_violation(fa0, fa1) or enters_violation(fc0, fc1) else base - after


@njit(cache=True)
def first_at_least(rows: np.ndarray, values: np.ndarray, lo: int, hi: int,
                    want: float) -> int:  # pragma: no cover
    while lo < hi:
        m = (lo + hi) // 2
        if values[rows[m]] < want:
            lo = m + 1
        else:
            hi = m
    return lo


@njit(cache=True)
def _return_row(pos: np.ndarray, i: int, k: int, part: np.ndarray, ctx: LeadershipLoads,
                index: PairIndex) -> int:  # pragma: no cover
    """For passing ``i``'s leadership to its follower in slot ``k``: the row that follower
    leads and ``i``'s leader follows whose leadership, passed back, best lowers the
    penalty; -1 for none."""
    rows, starts = index.rows, index.starts
    loads, bands, weights, brokers = ctx.loads, ctx.bands, ctx.weights, ctx.brokers
    a, c = pos[i, 0], pos[i, k]
    b = loads.shape[1]
    lo, hi = starts[c * b + a], starts[c * b + a + 1]
    # what to bring back: what i carries less half the gap between the two
    want = part[0, i] - (loads[0, a] / bands[NORM, 0, a] - loads[0, c] / bands[NORM, 0, c]) / (
        1.0 / bands[NORM, 0, a] + 1.0 / bands[NORM, 0, c])
    mid = first_at_least(rows, part[0], lo, hi, want)
    best, best_gain = -1, 1e-15
    for m in range(max(lo, mid - 3), min(hi, mid + 3)):
        j = rows[m]
        held = False
        for q in range(1, pos.shape[1]):
            held = held or pos[j, q] == a
        if j == i or pos[j, 0] != c or not held:
            continue
        wo = part[0, i] - part[0, j]
        if loads[0, c] + wo > brokers[1, c] or loads[0, a] - wo > brokers[1, a]:
            continue
        gain = _pair_gain(a, c, wo, part[1, i] - part[1, j], loads, bands, weights)
        if gain > best_gain:
            best, best_gain = j, gain
    return best


@njit(cache=True)
def _swap_pass(pos: np.ndarray, part: np.ndarray, ctx: LeadershipLoads,
               index: PairIndex) -> int:  # pragma: no cover
    """Count-neutral exchanges: a broker outside its network-out band passes the leadership
    of one partition to a follower and takes back, from that follower, the leadership of a
    partition it follows whose network out brings the two closest to their bands."""
    loads, bands, brokers = ctx.loads, ctx.bands, ctx.brokers
    made = 0
    for i in range(pos.shape[0]):
        a = pos[i, 0]
        if a < 0 or bands[LO, 0, a] <= loads[0, a] <= bands[HI, 0, a]:
            continue
        for k in range(1, pos.shape[1]):
            c = pos[i, k]
            if c < 0 or brokers[0, c] == 0:
                continue
            j = _return_row(pos, i, k, part, ctx, index)
            if j < 0:
                continue
            _carry(a, c, loads, part[0, i] - part[0, j], part[1, i] - part[1, j], 1.0)
            for q in range(1, pos.shape[1]):
                if pos[j, q] == a:
                    pos[j, q] = c
            pos[j, 0] = a
            pos[i, k] = a
            pos[i, 0] = c
            made += 2
            break
    return made


def refine_leaders(s: GoalState, bands: LeaderBands, weights: np.ndarray,
                   sweeps: int = 4, rounds: int = 2) -> int:
    """Improve every partition's leader by step 2 of the module docstring, in place on ``s``.

    ``bands``: the :class:`LeaderBands` of the three goals; ``weights``: float64 ``(3,)`` per goal (0 for a goal
    not asked for: give it an infinite band). Returns the leadership changes made."""
    loads = np.stack([s.nw_out, s.leaders.astype(np.float64), s.lead_in])
    stacked = bands.stacked()
    weights = np.asarray(weights, dtype=np.float64)
    part = np.stack([s.lead_out, s.rate_in])
    brokers = np.stack([s.allowed.astype(np.float64), network_out_limits(s)])
    made = 0
    order = weight_order(s.lead_out)
    for _ in range(rounds):
        step = int(_descend(s.pos, part, brokers, loads, stacked, weights, sweeps))
        index = pair_index(s.pos, s.lead_out, len(s.allowed), order)
        step += int(_swap_pass(s.pos, part, LeadershipLoads(loads, stacked, weights, brokers),
                               index))
        made += step
        if not step:
            break
    recount_leader_loads(s)
    return made


@njit(cache=True)
def _restore(pos: np.ndarray, orig: np.ndarray, order: np.ndarray, part: np.ndarray,
             brokers: np.ndarray, loads: np.ndarray, bands: np.ndarray,
             weights: np.ndarray) -> int:  # pragma: no cover
    """One sweep of :func:`restore_leaders` over ``order``; returns the leaders restored."""
    fa0, fc0, fa1, fc1 = (np.zeros(3, np.int64), np.zeros(3, np.int64), np.zeros(3, np.int64),
                          np.zeros(3, np.int64))
    made = 0
    for i in order:
        a, c = pos[i, 0], orig[i]
        if a == c or c < 0 or brokers[0, c] == 0:
            continue
        k = -1
        for q in range(1, pos.shape[1]):
            if pos[i, q] == c:
                k = q
        wo, wi = part[0, i], part[1, i]
        if k < 0 or loads[0, c] + wo > brokers[1, c]:
            continue
        base = band_distance(a, loads, bands, weights, fa0) + band_distance(c, loads, bands, weights, fc0)
        shift_leader_load(a, loads, wo, wi, -1.0)
        shift_leader_load(c, loads, wo, wi, 1.0)
        after = band_distance(a, loads, bands, weights, fa1) + band_distance(c, loads, bands, weights, fc1)
        if after > base * (1 + 1e-12) or enters_violation(fa0, fa1) or enters_violation(fc0, fc1):
            shift_leader_load(c, loads, wo, wi, -1.0)
            shift_leader_load(a, loads, wo, wi, 1.0)
            continue
        pos[i, 0], pos[i, k] = c, a
        made += 1
    return made


def restore_leaders(s: GoalState, orig: np.ndarray, bands: LeaderBands, weights: np.ndarray,
                    sweeps: int = 3) -> int:
    """Give partitions back their leader ``orig`` (int32 ``(P,)`` broker positions, ``-1``
    none) where it is still a replica, may hold replicas, stays under its network-out limit
    and no broker's weighted distance to ``bands`` (as :func:`refine_leaders`'s) grows nor
    a broker enters a violation (so no goal's violation count grows); the lightest
    partitions first, in place on ``s``. Returns the leaders restored."""
    loads = np.stack([s.nw_out, s.leaders.astype(np.float64), s.lead_in])
    part = np.stack([s.lead_out, s.rate_in])
    brokers = np.stack([s.allowed.astype(np.float64), network_out_limits(s)])
    rows = np.flatnonzero(s.pos[:, 0] != orig)
    order = rows[np.argsort(s.lead_out[rows], kind="stable")]
    made = 0
    for _ in range(sweeps):
        step = int(_restore(s.pos, orig.astype(np.int32), order, part, brokers, loads,
                            bands.stacked(), np.asarray(weights, np.float64)))
        made += step
        if not step:
            break
        order = order[s.pos[order, 0] != orig[order]]
    recount_leader_loads(s)
    return made
