"""Leadership chains for the network-out and leader-bytes-in goals, without moving data
(Cruise Control's ``LEADERSHIP_MOVEMENT`` actions of ``NetworkOutboundUsageDistributionGoal``
and ``LeaderBytesInDistributionGoal``, chained).

A single leadership transfer or pair swap (:mod:`kpart.cluster.goals._leadership_movement`) cannot
help a broker above its band whose followers all sit at their band's top: whatever one of
them takes pushes it out. A chain can: the broker above the band passes a leadership to a
follower ``v``, ``v`` passes one of its own (about as heavy) on to ``w``, ..., and the last
broker has room. Every broker of the chain but the two ends keeps its leader count, and its
network out changes by the difference of two partitions. Found by a breadth-first search
over the broker graph (an edge ``u → v`` when ``u`` leads a partition ``v`` follows; per
edge the partition whose weight best fits, by binary search in the partitions of that
(leader, follower) pair sorted by weight): the shortest chain whose ends and intermediates
never enter a violation (nor cross from under to over) and that lowers the weighted squared
distance to the bands (the measure of :func:`~kpart.cluster.goals._leadership_movement.refine_leaders`).
A broker under its band pulls a chain the other way. When the chain's start may not lose a
leader (it sits at the bottom of the leader-count band), the chain closes into a cycle: its
last broker passes a lighter leadership back to the start, and no leader count changes.

Worked example: three brokers, band [9, 11] of network out each (mean 10); ``a`` leads
``p`` (4, followed by ``b``) and 9 of light load, so 13; ``b`` leads ``q`` (4, followed by
``c``) and 6, so 10; ``c`` leads 7. No single transfer helps (``b`` would reach 14) and no
pair swap (``b`` leads nothing ``a`` follows); the chain ``a → b → c`` moves ``p`` to ``b`` and
``q`` to ``c``: 9, 10, 11, all inside.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from kpart.cluster.goals._leadership_movement import (
    HI,
    LO,
    NORM,
    LeaderBands,
    LeadershipLoads,
    PairIndex,
    band_distance,
    enters_violation,
    first_at_least,
    network_out_limits,
    pair_index,
    shift_leader_load,
)
from kpart.cluster.goals.relocation import recount_leader_loads
from kpart.cluster.goals.state import GoalState

__all__ = ["ChainDirection", "chain_leaders"]


class ChainDirection(NamedTuple):
    """Which way a chain runs: ``sign`` 1 (its start gives a leadership) or -1 (takes one),
    ``col`` the load it evens (0: network out, 1: leader bytes-in), ``loose``: also through
    first steps that leave the start worse on its own (for cycles to make up)."""

    sign: float
    col: int
    loose: bool


@njit(cache=True)
def _node_gain(v: int, dc: float, wo: float, wi: float, ctx: LeadershipLoads,
               ) -> float:  # pragma: no cover
    """Penalty gain at broker ``v`` when its leader count changes by ``dc`` and its network
    out and leader bytes-in by ``wo``, ``wi``; ``-inf`` when it would enter a violation or
    cross its network-out limit."""
    loads, bands, weights, brokers = ctx
    f0, f1 = np.zeros(3, np.int64), np.zeros(3, np.int64)
    before = band_distance(v, loads, bands, weights, f0)
    loads[0, v] += wo
    loads[1, v] += dc
    loads[2, v] += wi
    after = band_distance(v, loads, bands, weights, f1)
    over = wo > 0 and loads[0, v] > brokers[1, v]
    loads[0, v] -= wo
    loads[1, v] -= dc
    loads[2, v] -= wi
    return -np.inf if over or enters_violation(f0, f1) else before - after


@njit(cache=True)
def _pick(edge: tuple[int, int], p_in: int, sign: float, col: int, pos: np.ndarray,
          part: np.ndarray, index: PairIndex,
          ctx: LeadershipLoads,
          ) -> tuple[int, float]:  # pragma: no cover
    """The partition ``v`` passes on along edge ``v → w`` (``sign`` 1: ``v`` leads it and
    gives it to ``w``; -1: ``w`` leads it and gives it to ``v``) after receiving ``p_in``
    (-1 at the chain's start), and ``v``'s gain; ``(-1, -inf)`` for none."""
    rows, starts = index.rows, index.starts
    loads, bands = ctx.loads, ctx.bands
    v, w = edge
    b = loads.shape[1]
    g = 0 if col == 0 else 2
    lead, fol = (v, w) if sign > 0 else (w, v)
    lo, hi = starts[lead * b + fol], starts[lead * b + fol + 1]
    if lo == hi:
        return -1, -np.inf
    x = loads[0 if col == 0 else 2, v]
    i0 = part[col, p_in] if p_in >= 0 else 0.0
    t = min(max(x, bands[LO, g, v]), bands[HI, g, v])
    want = i0 + sign * (x - t)
    mid = first_at_least(rows, part[col], lo, hi, want)
    wo0 = part[0, p_in] if p_in >= 0 else 0.0
    wi0 = part[1, p_in] if p_in >= 0 else 0.0
    best, best_gain = -1, -np.inf
    for m in range(max(lo, mid - 2), min(hi, mid + 2)):
        j = rows[m]
        held = False
        for q in range(1, pos.shape[1]):
            held = held or pos[j, q] == fol
        if pos[j, 0] != lead or not held:
            continue
        gain = _node_gain(v, 0.0, sign * (wo0 - part[0, j]), sign * (wi0 - part[1, j]), ctx)
        if best < 0 or gain > best_gain:
            best, best_gain = j, gain
    return best, best_gain


@njit(cache=True)
def _close(edge: tuple[int, int], rows_in: tuple[int, int], sign: float, col: int,
           pos: np.ndarray, part: np.ndarray, index: PairIndex,
           ctx: LeadershipLoads,
           ) -> tuple[int, float]:  # pragma: no cover
    """The partition closing the chain ``src → ... → v`` into a cycle along ``v → src``
    (both ends keep their leader counts; ``rows_in``: the partitions ``v`` and ``src``
    passed so far, ``v``'s received and ``src``'s first) and the gain of ``v`` and ``src``
    together; ``(-1, -inf)`` for none."""
    rows, starts = index.rows, index.starts
    loads, bands = ctx.loads, ctx.bands
    p_v, first = rows_in
    v, src = edge
    b = loads.shape[1]
    g = 0 if col == 0 else 2
    lead, fol = (v, src) if sign > 0 else (src, v)
    lo, hi = starts[lead * b + fol], starts[lead * b + fol + 1]
    if lo == hi:
        return -1, -np.inf
    row = 0 if col == 0 else 2
    x = loads[row, src]
    xv = loads[row, v]
    best, best_gain = -1, -np.inf
    want_s = part[col, first] + sign * (min(max(x, bands[LO, g, src]), bands[HI, g, src]) - x)
    want_v = part[col, p_v] + sign * (xv - min(max(xv, bands[LO, g, v]), bands[HI, g, v]))
    mid_s = first_at_least(rows, part[col], lo, hi, want_s)
    mid_v = first_at_least(rows, part[col], lo, hi, want_v)
    for k in range(8):
        m = (mid_s if k < 4 else mid_v) + k % 4 - 2
        if m < lo or m >= hi:
            continue
        j = rows[m]
        held = False
        for q in range(1, pos.shape[1]):
            held = held or pos[j, q] == fol
        if pos[j, 0] != lead or not held or j in (first, p_v):
            continue
        gain = (_node_gain(src, 0.0, sign * (part[0, j] - part[0, first]),
                           sign * (part[1, j] - part[1, first]), ctx)
                + _node_gain(v, 0.0, sign * (part[0, p_v] - part[0, j]),
                             sign * (part[1, p_v] - part[1, j]), ctx))
        if gain > best_gain:
            best, best_gain = j, gain
    return best, best_gain


@njit(cache=True)
def _pass(src: int, dst: int, r: int, pos: np.ndarray, part: np.ndarray,
          loads: np.ndarray) -> None:  # pragma: no cover
    for q in range(1, pos.shape[1]):
        if pos[r, q] == dst:
            pos[r, q] = src
    pos[r, 0] = dst
    shift_leader_load(src, loads, part[0, r], part[1, r], -1.0)
    shift_leader_load(dst, loads, part[0, r], part[1, r], 1.0)


@njit(cache=True)
def _apply(end: int, parent: np.ndarray, inrow: np.ndarray, sign: float, pos: np.ndarray,
           part: np.ndarray, loads: np.ndarray) -> int:  # pragma: no cover
    """Pass the leaderships of the chain ending at ``end``; returns how many."""
    made = 0
    w = end
    while parent[w] >= 0:
        v = parent[w]
        if sign > 0:
            _pass(v, w, inrow[w], pos, part, loads)
        else:
            _pass(w, v, inrow[w], pos, part, loads)
        made += 1
        w = v
    return made


@njit(cache=True)
def _chain(src: int, how: ChainDirection, pos: np.ndarray, part: np.ndarray,
           index: PairIndex,
           ctx: LeadershipLoads,
           depth: int) -> int:  # pragma: no cover
    """The shortest improving chain from ``src`` (``how``: ``sign`` 1: it gives, -1: it
    takes; the column; ``loose``: also through first steps that leave ``src`` worse on its
    own, for cycles to make up), applied; returns the leaderships passed (0: none found)."""
    sign, col, loose = how
    loads, brokers = ctx.loads, ctx.brokers
    b = loads.shape[1]
    parent = np.full(b, -1, np.int64)
    inrow = np.full(b, -1, np.int64)
    acc = np.zeros(b)
    seen = np.zeros(b, np.bool_)
    first = np.full(b, -1, np.int64)
    srcg = np.zeros(b)
    seen[src] = True
    level = np.array([src], np.int64)
    for _ in range(depth):
        nxt = np.empty(b, np.int64)
        n = 0
        best_end, best_total = -1, 1e-12
        cyc_v, cyc_r, cyc_total = -1, -1, 1e-12
        for v in level:
            if v != src:
                r, gc = _close((v, src), (inrow[v], first[v]), sign, col, pos, part, index, ctx)
                if r >= 0 and acc[v] + gc > cyc_total:
                    cyc_v, cyc_r, cyc_total = v, r, acc[v] + gc
            for w in range(b):
                if seen[w] or brokers[0, w] == 0:
                    continue
                r, gv = _pick((v, w), inrow[v], sign, col, pos, part, index, ctx)
                if r < 0 or ((v != src or not loose) and not np.isfinite(gv)):
                    continue
                seen[w] = True
                parent[w] = v
                inrow[w] = r
                if v == src:  # the source's gain, its leader count changing
                    acc[w] = 0.0
                    first[w] = r
                    srcg[w] = _node_gain(src, -sign, -sign * part[0, r], -sign * part[1, r],
                                         ctx)
                else:
                    acc[w] = acc[v] + gv
                    first[w] = first[v]
                    srcg[w] = srcg[v]
                nxt[n] = w
                n += 1
                end = _node_gain(w, sign, sign * part[0, r], sign * part[1, r], ctx)
                if acc[w] + srcg[w] + end > best_total:
                    best_end, best_total = w, acc[w] + srcg[w] + end
        if cyc_v >= 0 and cyc_total > best_total:
            if sign > 0:
                _pass(cyc_v, src, cyc_r, pos, part, loads)
            else:
                _pass(src, cyc_v, cyc_r, pos, part, loads)
            return 1 + _apply(cyc_v, parent, inrow, sign, pos, part, loads)
        if best_end >= 0:
            return _apply(best_end, parent, inrow, sign, pos, part, loads)
        if n == 0:
            break
        level = nxt[:n]
    return 0


@njit(cache=True)
def _chain_pass(col: int, pos: np.ndarray, part: np.ndarray,
                index: PairIndex,
                ctx: LeadershipLoads,
                depth: int, tries: int) -> int:  # pragma: no cover
    """Chains from every broker outside its band of ``col`` (0: network out, 1: leader
    bytes-in), worst first."""
    loads, bands, brokers = ctx.loads, ctx.bands, ctx.brokers
    g = 0 if col == 0 else 2
    row = 0 if col == 0 else 2
    b = loads.shape[1]
    excess = np.zeros(b)
    for v in range(b):
        if brokers[0, v] == 0 and loads[1, v] == 0:
            continue
        x = loads[row, v]
        if x > bands[HI, g, v]:
            excess[v] = (x - bands[HI, g, v]) / bands[NORM, g, v]
        elif x < bands[LO, g, v]:
            excess[v] = (bands[LO, g, v] - x) / bands[NORM, g, v]
    made = 0
    for v in np.argsort(-excess):
        if excess[v] <= 0:
            break
        for _ in range(tries):
            x = loads[row, v]
            if x > bands[HI, g, v]:
                sign = 1.0
            elif x < bands[LO, g, v] and brokers[0, v] != 0:
                sign = -1.0
            else:
                break
            step = _chain(v, ChainDirection(sign, col, False), pos, part, index, ctx, depth)
            if step == 0:
                step = _chain(v, ChainDirection(sign, col, True), pos, part, index, ctx, depth)
            if step == 0:
                break
            made += step
    return made


def chain_leaders(s: GoalState, bands: LeaderBands, weights: np.ndarray, depth: int = 4,
                  rounds: int = 2, tries: int = 4) -> int:
    """Leadership chains (the module docstring) from every broker outside the network-out
    band, then the leader-bytes-in band, in place on ``s``; ``bands``, ``weights`` as for
    :func:`~kpart.cluster.goals._leadership_movement.refine_leaders`. At most ``depth`` leaderships
    a chain, ``tries`` chains a broker per round. Returns the leaderships passed."""
    loads = np.stack([s.nw_out, s.leaders.astype(np.float64), s.lead_in])
    stacked = bands.stacked()
    weights = np.asarray(weights, dtype=np.float64)
    part = np.stack([s.lead_out, s.rate_in])
    brokers = np.stack([s.allowed.astype(np.float64), network_out_limits(s)])
    ctx = LeadershipLoads(loads, stacked, weights, brokers)
    b = len(s.allowed)
    made = 0
    for _ in range(rounds):
        step = 0
        for col in (0, 1):
            if weights[0 if col == 0 else 2] <= 0:
                continue
            index = pair_index(s.pos, np.ascontiguousarray(part[col]), b)
            step += int(_chain_pass(col, s.pos, part, index, ctx, depth, tries))
        made += step
        if not step:
            break
    recount_leader_loads(s)
    return made
