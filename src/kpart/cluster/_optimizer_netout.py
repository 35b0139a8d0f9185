"""Network out where leadership alone cannot even it out (Cruise Control's
``NetworkOutboundUsageDistributionGoal``: ``LEADERSHIP_MOVEMENT`` first, then
``INTER_BROKER_REPLICA_MOVEMENT`` of leader replicas, as its ``rebalanceForBroker`` does).

Each broker outside its band, the farthest first, takes one step at a time, the cheapest
that helps:

1. a leadership passed between a broker over its band and a follower with room (no data
   moves), the one relieving most of what is needed;
2. otherwise an exchange (a broker over its band whose load is one or two heavy partitions
   and many light ones, none of which it can pass alone without falling under the band):
   it passes a heavy leadership to a follower with room and takes back the leadership of a
   partition it follows whose network out lands it inside its band;
3. otherwise one replica move: the leadership of a partition goes to a broker outside its
   replica set (a follower moved there first, or the leader replica itself), the partition
   chosen by the fewest bytes per byte/s of network out that the step needs, the receiving
   broker by how far under its band it is; then a replica swap, then an exchange whose
   partition taken back first has a follower replica moved to the broker.

Absorbers: a broker leading a partition whose network out alone is above the band's top
stays over the band in any plan while it leads it (the verifier's floor counts such brokers,
:func:`kpart.cluster.verifier.goal_floor`), so it may take more without a new violation: it
has no network-out top here (nor a leader bytes-in limit when it is already over that one),
and the steps above hand it what others cannot hold.

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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from kpart.cluster._optimizer_moves import accepted, move_replica, swap_leader
from kpart.cluster.goals import Goal, GoalState

__all__ = ["relocate_for_network_out"]

#: Candidates tried per step (partitions) and per partition (receiving brokers).
_ROWS = 48
_DSTS = 12

_Undo = list[Callable[[], None]]

_NETWORK_OUT = "NetworkOutboundUsageDistributionGoal"


@dataclass(frozen=True)
class _Limits:
    """Absolute per-broker limits: network out aimed at ``[lo, hi]``, kept within the
    threshold band ``[lo_t, hi_t]``; leader count ``[clo, chi]``; leader bytes-in ``≤ lin``."""

    lo: np.ndarray
    hi: np.ndarray
    lo_t: np.ndarray
    hi_t: np.ndarray
    clo: float
    chi: float
    lin: np.ndarray


def _swap(s: GoalState, row: int, slot: int, undo: _Undo) -> None:
    swap_leader(s, row, slot)
    undo.append(lambda: swap_leader(s, row, slot))


def _move(s: GoalState, row: int, slot: int, dst: int, undo: _Undo) -> None:
    src = int(s.pos[row, slot])
    move_replica(s, row, slot, dst)
    undo.append(lambda: move_replica(s, row, slot, src))


def _rollback(undo: _Undo) -> None:
    while undo:
        undo.pop()()


def _lead_ok(s: GoalState, row: int, old: int, new: int, guards: Sequence[Goal]) -> bool:
    return all(g.accepts_leader(s, row, old, new) for g in guards)


def _take_one(s: GoalState, x: int, limit: float, lim: _Limits, guards: Sequence[Goal],
              light: np.ndarray, undo: _Undo) -> float:
    """``x`` takes the leadership of one light partition from a broker with a leader to
    spare (network out of ``x`` staying ≤ ``limit``). Returns the bytes moved, -1 for none."""
    rows, slots = np.nonzero(s.pos[:, 1:] == x)
    slots = slots + 1
    order = np.argsort(s.lead_out[rows], kind="stable")[:256]
    for row, k in zip(rows[order].tolist(), slots[order].tolist(), strict=True):
        g, w = int(s.pos[row, 0]), float(s.lead_out[row])
        if s.nw_out[x] + w > limit:
            break
        if (s.leaders[g] - 1 >= lim.clo and s.nw_out[g] - w >= lim.lo_t[g]
                and s.lead_in[x] + s.rate_in[row] <= lim.lin[x]
                and _lead_ok(s, row, g, x, guards)):
            _swap(s, row, k, undo)
            return 0.0
    for row in light.tolist():  # no shared partition will do: bring one over (a few bytes)
        g = int(s.pos[row, 0])
        w = float(s.lead_out[row])
        if (g < 0 or (s.pos[row] == x).any() or s.leaders[g] - 1 < lim.clo
                or s.nw_out[x] + w > limit or s.nw_out[g] - w < lim.lo_t[g]):
            continue
        for k in range(1, s.pos.shape[1]):
            f = int(s.pos[row, k])
            if f >= 0 and accepted(guards, s, row, f, x):
                _move(s, row, k, x, undo)
                if _lead_ok(s, row, g, x, guards):
                    _swap(s, row, k, undo)
                    return float(s.size[row])
                undo.pop()()
    return -1.0


def _give_one(s: GoalState, x: int, floor: float, lim: _Limits, guards: Sequence[Goal],
              undo: _Undo) -> float:
    """``x`` passes the leadership of one light partition it leads to a follower with room
    for one more leader (network out of ``x`` staying ≥ ``floor``); when no follower has
    room, one moves to a broker that has. Returns the bytes moved, -1 for none."""
    rows = np.flatnonzero(s.pos[:, 0] == x)
    rows = rows[np.argsort(s.lead_out[rows], kind="stable")][:256]
    for row in rows.tolist():
        w = float(s.lead_out[row])
        if s.nw_out[x] - w < floor:
            break
        for k in range(1, s.pos.shape[1]):
            f = int(s.pos[row, k])
            if (f >= 0 and s.allowed[f] and s.leaders[f] + 1 <= lim.chi
                    and s.nw_out[f] + w <= lim.hi_t[f]
                    and s.lead_in[f] + s.rate_in[row] <= lim.lin[f]
                    and _lead_ok(s, row, x, f, guards)):
                _swap(s, row, k, undo)
                return 0.0
    room = np.flatnonzero(s.allowed & (s.leaders + 1 <= lim.chi))
    room = room[np.argsort(s.leaders[room], kind="stable")][:_DSTS].tolist()
    for row in rows[:16].tolist():  # no follower will do: move one to a broker with room
        w = float(s.lead_out[row])
        if s.nw_out[x] - w < floor:
            break
        for d in room:
            if (s.pos[row] == d).any() or s.nw_out[d] + w > lim.hi_t[d]:
                continue
            for k in range(1, s.pos.shape[1]):
                f = int(s.pos[row, k])
                if f >= 0 and accepted(guards, s, row, f, d):
                    _move(s, row, k, d, undo)
                    if _lead_ok(s, row, x, d, guards):
                        _swap(s, row, k, undo)
                        return float(s.size[row])
                    undo.pop()()
    return -1.0


def _counts(s: GoalState, gave: int, took: int, before: tuple[int, int], w: float,
            ctx: tuple[_Limits, Sequence[Goal], np.ndarray, set[tuple[bool, int]]],
            undo: _Undo) -> float:
    """Leader counts back in band after ``gave`` passed a leadership of network out ``w`` to
    ``took``, for a broker that was inside it (one already outside may go further: the
    goal's violations do not grow) (``before``: their counts before; each may hand back at
    most half of ``w`` in
    the repair; ``ctx``: limits, guards, light rows and the (take?, broker) already found
    impossible in this step). Returns the bytes moved, -1 when it cannot (the caller
    undoes)."""
    lim, every, light, failed = ctx
    # network out is kept by ``limit`` and the bands here: its goal would refuse any light
    # leadership to a broker still over its band, which this repair must allow
    guards = [g for g in every if g.name != _NETWORK_OUT]
    spent = 0.0
    if s.leaders[gave] < lim.clo <= before[0]:
        if (True, gave) in failed:
            return -1.0
        limit = max(float(lim.hi_t[gave]), float(s.nw_out[gave]) + w / 2)
        got = _take_one(s, gave, limit, lim, guards, light, undo)
        if got < 0:
            failed.add((True, gave))
            return -1.0
        spent += got
    if before[1] <= lim.chi < s.leaders[took]:
        floor = min(float(lim.lo_t[took]), float(s.nw_out[took]) - w / 2)
        got = -1.0 if (False, took) in failed else _give_one(s, took, floor, lim, guards,
                                                            undo)
        if got < 0:
            failed.add((False, took))
            return -1.0
        spent += got
    return spent


def _cheapest(size: np.ndarray, useful: np.ndarray, need: float) -> np.ndarray:
    """The first :data:`_ROWS` candidates by bytes per byte/s of the relief needed (in bins
    of about 9 %, so that among about equally cheap ones the one relieving most comes
    first), leaving out those relieving under 1/16 of it."""
    idx = np.flatnonzero(useful >= need / 16)
    cost = np.round(8 * np.log2(np.maximum(size[idx], 1.0) / useful[idx]))
    key = cost - 0.5 * useful[idx] / max(need, 1e-300)
    if len(idx) > _ROWS:
        part = np.argpartition(key, _ROWS)[:_ROWS]
        idx, key = idx[part], key[part]
    out: np.ndarray = idx[np.argsort(key, kind="stable")]
    return out


def _receivers(s: GoalState, w: float, rin: float, lim: _Limits) -> np.ndarray:
    """Brokers that can take a leadership of network out ``w``: the farthest under their
    band first, then by network out relative to the band's top."""
    ok = s.allowed & (s.nw_out + w <= lim.hi) & (s.lead_in + rin <= lim.lin)
    cand = np.flatnonzero(ok)
    key = np.where(s.nw_out[cand] < lim.lo[cand], s.nw_out[cand] - lim.lo[cand],
                   s.nw_out[cand]) / lim.hi[cand]
    out: np.ndarray = cand[np.argsort(key, kind="stable")][:_DSTS]
    return out


def _pass_many(s: GoalState, x: int, rows: np.ndarray, lim: _Limits,
               guards: Sequence[Goal]) -> bool:
    """Pass the leadership of partitions ``x`` leads (``rows``, the heaviest first) to
    followers with room for their network out and for one more leader, while ``x`` has
    leaders to spare (or is already under the leader-count band): many light partitions at
    once, no data moved. Kept (True) only when it brings ``x`` into its band (else its spare
    leaders stay for :func:`_swap_step`)."""
    spare = len(rows) if s.leaders[x] < lim.clo else int(s.leaders[x] - lim.clo)
    undo: _Undo = []
    for row in rows[: 8 * 1024].tolist():
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
                    and _lead_ok(s, row, x, f, guards)):
                _swap(s, row, k, undo)
                break
    if s.nw_out[x] <= lim.hi_t[x]:
        return bool(undo)
    _rollback(undo)
    return False


def _pass_one(s: GoalState, x: int, rows: np.ndarray,
              ctx: tuple[_Limits, Sequence[Goal], np.ndarray, set[tuple[bool, int]]],
              ) -> bool:
    """Step 1 of :func:`_shed`: the leadership of one of ``rows`` (in order) to a follower
    with room, leader counts repaired (:func:`_counts`)."""
    lim, guards = ctx[0], ctx[1]
    undo: _Undo = []
    for row in rows.tolist():
        wr = float(s.lead_out[row])
        for k in range(1, s.pos.shape[1]):
            f = int(s.pos[row, k])
            if (f < 0 or not s.allowed[f] or s.nw_out[f] + wr > lim.hi[f]
                    or s.lead_in[f] + s.rate_in[row] > lim.lin[f]
                    or not _lead_ok(s, row, x, f, guards)):
                continue
            took = (int(s.leaders[x]), int(s.leaders[f]))
            _swap(s, row, k, undo)
            if _counts(s, x, f, took, wr, ctx, undo) >= 0:
                return True
            _rollback(undo)
    return False


def _shed(s: GoalState, x: int, lim: _Limits, guards: Sequence[Goal], budget: float,
          light: np.ndarray) -> float:
    """One step for ``x`` over its band. Returns the bytes moved, -1 for no step."""
    need = float(s.nw_out[x] - lim.hi[x])
    most = float(s.nw_out[x] - lim.lo_t[x] * (1 + 1e-6))
    rows = np.flatnonzero(s.pos[:, 0] == x)
    w = s.lead_out[rows]
    keep = (w > 0) & (w <= most)
    rows, w = rows[keep], w[keep]
    useful = np.minimum(w, need)
    before = (int(s.leaders[x]), 0)
    undo: _Undo = []
    ctx = (lim, guards, light, set[tuple[bool, int]]())
    if _pass_many(s, x, rows[np.argsort(-w, kind="stable")], lim, guards):
        return 0.0
    # 1. a leadership to a follower with room (no data moves), the most relief first;
    # 2. else an exchange of leaderships (no data moves)
    free = np.argsort(-useful, kind="stable")
    if (_pass_one(s, x, rows[free[useful[free] >= need / 8]][:4 * _ROWS], ctx)
            or _exchange(s, x, budget, ctx, moves=False) >= 0):
        return 0.0
    # 3. a replica move: the fewest bytes per byte/s of the relief needed
    order = _cheapest(s.size[rows], useful, need)
    for row in rows[order][:_ROWS].tolist():
        size, wr = float(s.size[row]), float(s.lead_out[row])
        if size > budget:
            continue
        for d in _receivers(s, wr, float(s.rate_in[row]), lim).tolist():
            if (s.pos[row] == d).any():
                continue
            took = (before[0], int(s.leaders[d]))
            for k in range(s.pos.shape[1]):
                f = int(s.pos[row, k])
                if f < 0 or not accepted(guards, s, row, f, d):
                    continue
                _move(s, row, k, d, undo)
                if k and not _lead_ok(s, row, x, d, guards):
                    _rollback(undo)
                    continue
                if k:
                    _swap(s, row, k, undo)
                got = _counts(s, x, d, took, wr, ctx, undo)
                if got >= 0 and size + got <= budget:
                    return size + got
                _rollback(undo)
    # 4. a swap: the leader replica to a receiver, a follower replica of about its size back
    got = _swap_step(s, x, rows, order, budget, ctx)
    # 5. an exchange whose partition taken back first moves a follower replica to ``x``
    return got if got >= 0 else _exchange(s, x, budget, ctx, moves=True)


def _exchange(s: GoalState, x: int, budget: float,
              ctx: tuple[_Limits, Sequence[Goal], np.ndarray, set[tuple[bool, int]]],
              moves: bool) -> float:
    """``x`` over its band, whose load is one or two heavy partitions and many light ones
    (no single leadership it passes leaves it inside the band), passes the leadership of
    one of its heaviest partitions ``p`` to a follower ``f`` with room for it (an absorber —
    a broker over the band in any plan — has all the room) and takes back the leadership of
    a partition ``q`` whose network out brings it into its band, from a broker ``z`` that
    stays inside its own (or was over it); ``x`` keeps its leader count, ``f`` and ``z``
    are repaired by :func:`_counts`. ``moves``: ``q`` may be one ``x`` does not follow, a
    follower replica of it moved to ``x`` first (its size within ``budget``), the smallest
    first. Returns the bytes moved, -1 for none."""
    lim, guards = ctx[0], ctx[1]
    free = [g for g in guards if g.name != _NETWORK_OUT]
    lead = s.pos[:, 0]
    mine = np.flatnonzero(lead == x)
    top = mine[np.argsort(-s.lead_out[mine], kind="stable")][:3]
    if moves:
        qs = np.flatnonzero((lead >= 0) & (lead != x) & ~(s.pos == x).any(axis=1)
                            & (s.size <= budget))
    else:
        qs = np.nonzero(s.pos[:, 1:] == x)[0]
    if not len(qs):
        return -1.0
    z, wq, rq = lead[qs], s.lead_out[qs], s.rate_in[qs]
    undo: _Undo = []
    for p in top.tolist():
        wp, rp = float(s.lead_out[p]), float(s.rate_in[p])
        base = float(s.nw_out[x]) - wp
        for k in range(1, s.pos.shape[1]):
            f = int(s.pos[p, k])
            if (f < 0 or not s.allowed[f] or s.lead_in[f] + rp > lim.lin[f]
                    or not _lead_ok(s, p, x, f, free)):
                continue
            after_z = s.nw_out[z] - wq + np.where(z == f, wp, 0.0)
            ok = ((wq >= lim.lo[x] - base) & (wq <= lim.hi[x] - base) & (qs != p)
                  & (s.lead_in[x] - rp + rq <= lim.lin[x])
                  & (after_z >= lim.lo_t[z])
                  & ((after_z <= lim.hi_t[z]) | (s.nw_out[z] > lim.hi_t[z])))
            ok &= (z == f) | (s.nw_out[f] + wp <= lim.hi_t[f])
            cand = np.flatnonzero(ok)
            if not len(cand):
                continue
            mid = (lim.lo[x] + lim.hi[x]) / 2 - base
            key = s.size[qs[cand]] if moves else np.abs(wq[cand] - mid)
            for c in cand[np.argsort(key, kind="stable")][:8].tolist():
                q, zq = int(qs[c]), int(z[c])
                took = (int(s.leaders[zq]), int(s.leaders[f]))
                spent = _take_back(s, q, x, guards, undo) if moves else 0.0
                if spent < 0:
                    continue
                _swap(s, p, k, undo)
                slot = int(np.flatnonzero(s.pos[q] == x)[0])
                if not _lead_ok(s, q, zq, x, free):
                    _rollback(undo)
                    continue
                _swap(s, q, slot, undo)
                got = 0.0 if zq == f else _counts(s, zq, f, took, min(wp, float(wq[c])),
                                                  ctx, undo)
                if got >= 0 and spent + got <= budget:
                    return spent + got
                _rollback(undo)
    return -1.0


def _take_back(s: GoalState, q: int, x: int, guards: Sequence[Goal], undo: _Undo) -> float:
    """Move a follower replica of ``q`` to ``x`` (the guards accepting). Returns its size, -1
    for none."""
    for k in range(1, s.pos.shape[1]):
        f = int(s.pos[q, k])
        if f >= 0 and accepted(guards, s, q, f, x):
            _move(s, q, k, x, undo)
            return float(s.size[q])
    return -1.0


def _swap_step(s: GoalState, x: int, rows: np.ndarray, order: np.ndarray, budget: float,
               ctx: tuple[_Limits, Sequence[Goal], np.ndarray, set[tuple[bool, int]]],
               ) -> float:
    """Step 3 of :func:`_shed`: one :func:`_swap_replicas` of the cheapest candidates
    (``rows[order]``). Returns the bytes moved, -1 for none."""
    undo: _Undo = []
    for row in rows[order][:_ROWS // 4].tolist():
        got = _swap_replicas(s, x, row, budget, ctx, undo)
        if got >= 0:
            return got
    return -1.0


def _swap_replicas(s: GoalState, x: int, row: int, budget: float,
                   ctx: tuple[_Limits, Sequence[Goal], np.ndarray, set[tuple[bool, int]]],
                   undo: _Undo) -> float:
    """``x``'s leader replica of ``row`` goes to a receiver ``d`` and a follower replica of
    ``d``'s of about the same size comes back (Cruise Control's
    ``INTER_BROKER_REPLICA_SWAP``): disk and replica counts about unchanged on both, where a
    single move would take ``x`` (or a follower's broker) under the disk band. Returns the
    bytes moved, -1 for none."""
    lim, guards = ctx[0], ctx[1]
    size, wr = float(s.size[row]), float(s.lead_out[row])
    for d in _receivers(s, wr, float(s.rate_in[row]), lim)[:4].tolist():
        if (s.pos[row] == d).any():
            continue
        qs, ks = np.nonzero(s.pos[:, 1:] == d)
        ks = ks + 1
        fit = ~(s.pos[qs] == x).any(axis=1) & (s.size[qs] <= budget - size)
        qs, ks = qs[fit], ks[fit]
        near = np.argsort(np.abs(s.size[qs] - size), kind="stable")[:8]
        took = (int(s.leaders[x]), int(s.leaders[d]))
        for q, k in zip(qs[near].tolist(), ks[near].tolist(), strict=True):
            for first in (True, False):  # which of the two moves goes first
                steps = [(q, k, d, x), (row, 0, x, d)]
                if not first:
                    steps.reverse()
                done = 0
                for r, slot, src, dst in steps:
                    if not accepted(guards, s, r, src, dst):
                        break
                    _move(s, r, slot, dst, undo)
                    done += 1
                if done == 2:
                    got = _counts(s, x, d, took, wr, ctx, undo)
                    if got >= 0 and size + float(s.size[q]) + got <= budget:
                        return size + float(s.size[q]) + got
                _rollback(undo)
    return -1.0


def _gain(s: GoalState, x: int, lim: _Limits, guards: Sequence[Goal], budget: float,
          light: np.ndarray) -> float:
    """One step for ``x`` under its band. Returns the bytes moved, -1 for no step."""
    need = float(lim.lo[x] - s.nw_out[x])
    most = float(lim.hi[x] - s.nw_out[x])
    lead = s.pos[:, 0]
    rows = np.flatnonzero((s.lead_out >= need / 16) & (s.lead_out <= most) & (lead >= 0))
    g_of = lead[rows]
    w = s.lead_out[rows]
    rows = rows[((s.nw_out[g_of] > lim.hi[g_of]) | (s.nw_out[g_of] - w >= lim.lo[g_of]))
                & (s.lead_in[x] + s.rate_in[rows] <= lim.lin[x]) & (g_of != x)]
    held = (s.pos[rows, 1:] == x).any(axis=1)
    undo: _Undo = []
    ctx = (lim, guards, light, set[tuple[bool, int]]())
    # 1. the leadership of a partition it follows
    cand = rows[held]
    useful = np.minimum(s.lead_out[cand], need)
    free = np.argsort(-useful, kind="stable")
    for row in cand[free[useful[free] >= need / 8]][:4 * _ROWS].tolist():
        g = int(lead[row])
        if not _lead_ok(s, row, g, x, guards):
            continue
        k = int(np.flatnonzero(s.pos[row] == x)[0])
        wr = float(s.lead_out[row])
        took = (int(s.leaders[g]), int(s.leaders[x]))
        _swap(s, row, k, undo)
        if _counts(s, g, x, took, wr, ctx, undo) >= 0:
            return 0.0
        _rollback(undo)
    # 2. a replica move onto it, the fewest bytes per byte/s of the gain needed
    rows = rows[~held & (s.size[rows] <= budget)]
    useful = np.minimum(s.lead_out[rows], need)
    order = _cheapest(s.size[rows], useful, need)
    for row in rows[order][:_ROWS].tolist():
        g = int(lead[row])
        size, wr = float(s.size[row]), float(s.lead_out[row])
        took = (int(s.leaders[g]), int(s.leaders[x]))
        for k in range(s.pos.shape[1]):
            f = int(s.pos[row, k])
            if f < 0 or not accepted(guards, s, row, f, x):
                continue
            _move(s, row, k, x, undo)
            if k and not _lead_ok(s, row, g, x, guards):
                _rollback(undo)
                continue
            if k:
                _swap(s, row, k, undo)
            got = _counts(s, g, x, took, wr, ctx, undo)
            if got >= 0 and size + got <= budget:
                return size + got
            _rollback(undo)
    return -1.0


def _absorbing(lim: _Limits, absorbers: np.ndarray, s: GoalState) -> _Limits:
    """``lim`` with no network-out top for the ``absorbers`` (brokers leading a partition
    heavier than the band's top: over it in any plan while they lead it, so they may take
    more) and no leader bytes-in limit for those already over it."""
    hi, hi_t, lin = lim.hi.copy(), lim.hi_t.copy(), lim.lin.copy()
    hi[absorbers] = np.inf
    hi_t[absorbers] = np.inf
    over = absorbers[s.lead_in[absorbers] > lin[absorbers]]
    lin[over] = np.inf
    return replace(lim, hi=hi, hi_t=hi_t, lin=lin)


def relocate_for_network_out(s: GoalState, bands: np.ndarray, guards: Sequence[Goal],
                             budget: float, rounds: int = 12) -> float:
    """Leadership changes and replica moves that bring brokers into the network-out band
    (module docstring); ``bands``: the rows of :func:`kpart.cluster.optimizer._leader_bands`
    (network out: aimed band rows 0, 1, threshold band rows 3, 4; leader count threshold
    band rows 8, 9; leader bytes-in threshold top row 14); ``budget``: bytes this pass may
    move. Returns the bytes moved."""
    lim = _Limits(lo=bands[0], hi=bands[1], lo_t=bands[3], hi_t=bands[4],
                  clo=float(bands[8].max()), chi=float(bands[9].min()), lin=bands[14])
    light = np.flatnonzero(s.pos[:, 0] >= 0)
    light = light[np.argsort(s.size[light] + s.lead_out[light], kind="stable")][:512]
    moved = 0.0
    # a broker leading a partition heavier than its band's top stays over it: left alone
    lead = s.pos[:, 0]
    heavy = (lead >= 0) & (s.lead_out > lim.hi_t[np.maximum(lead, 0)])
    stuck: set[int] = set(lead[heavy].tolist())
    lim = _absorbing(lim, np.array(sorted(stuck), dtype=np.int64), s)
    for _ in range(rounds):
        bad = np.flatnonzero(s.allowed & ((s.nw_out > lim.hi_t) | (s.nw_out < lim.lo_t)))
        bad = np.array([b for b in bad.tolist() if b not in stuck], dtype=np.int64)
        if not len(bad):
            break
        far = np.maximum(s.nw_out[bad] - lim.hi[bad], lim.lo[bad] - s.nw_out[bad])
        progress = False
        for x in bad[np.argsort(-far / lim.hi[bad], kind="stable")].tolist():
            for _step in range(64):
                if lim.lo_t[x] <= s.nw_out[x] <= lim.hi_t[x]:
                    break
                over = bool(s.nw_out[x] > lim.hi_t[x])
                step = (_shed if over else _gain)(s, x, lim, guards, budget - moved, light)
                if step < 0:
                    stuck.add(x)
                    break
                moved += step
                progress = True
        if not progress:
            break
    return moved
