"""The compound steps of :mod:`kpart.cluster.goals._network_out_rebalance`: an exchange of two
leaderships (a heavy one to a follower with room, a lighter one the broker follows back),
and replica swaps (a replica out, one of about its size back: disk and replica counts about
unchanged on both brokers) for a broker over or under its network-out band — Cruise
Control's ``INTER_BROKER_REPLICA_SWAP`` with leadership.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kpart.cluster.goals._network_out_actions import (
    ROWS,
    StepContext,
    Undo,
    keep_leader_counts,
    lead_moved,
    lead_ok,
    move_replica,
    pass_leadership,
    receivers,
    spreads_network_out,
    undo_all,
)
from kpart.cluster.goals.goal import Goal
from kpart.cluster.goals.relocation import accepted, accepted_together
from kpart.cluster.goals.state import GoalState


def exchange_replicas(s: GoalState, x: int, budget: float,
              ctx: StepContext,
              moves: bool) -> float:
    """``x`` over its band, whose load is one or two heavy partitions and many light ones
    (no single leadership it passes leaves it inside the band), passes the leadership of
    one of its heaviest partitions ``p`` to a follower ``f`` with room for it (an absorber —
    a broker over the band in any plan — has all the room) and takes back the leadership of
    a partition ``q`` whose network out brings it into its band, from a broker ``z`` that
    stays inside its own (or was over it); ``x`` keeps its leader count, ``f`` and ``z``
    are repaired by :func:`keep_leader_counts`. ``moves``: ``q`` may be one ``x`` does not follow, a
    follower replica of it moved to ``x`` first (its size within ``budget``), the smallest
    first. Returns the bytes moved, -1 for none."""
    lim, guards = ctx.lim, ctx.guards
    free = [g for g in guards if not spreads_network_out(g)]
    lead = s.pos[:, 0]
    mine = s.leads(x)
    top = mine[np.argsort(-s.lead_out[mine], kind="stable")][:3]
    if moves:
        on_x = np.zeros(len(lead), dtype=bool)
        on_x[s.replicas_on(x)[0]] = True
        qs = np.flatnonzero((lead >= 0) & (lead != x) & ~on_x & (s.size <= budget))
    else:
        qs = s.replicas_on(x, first=1)[0]
    if not len(qs):
        return -1.0
    z, wq, rq = lead[qs], s.lead_out[qs], s.rate_in[qs]
    undo: Undo = []
    for p in top.tolist():
        wp, rp = float(s.lead_out[p]), float(s.rate_in[p])
        base = float(s.nw_out[x]) - wp
        for k in range(1, s.pos.shape[1]):
            f = int(s.pos[p, k])
            if (f < 0 or not s.allowed[f] or s.lead_in[f] + rp > lim.lin[f]
                    or not lead_ok(s, p, x, f, free)):
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
                pass_leadership(s, p, k, undo)
                slot = int(np.flatnonzero(s.pos[q] == x)[0])
                if not lead_ok(s, q, zq, x, free):
                    undo_all(undo)
                    continue
                pass_leadership(s, q, slot, undo)
                got = 0.0 if zq == f else keep_leader_counts(s, zq, f, took, min(wp, float(wq[c])),
                                                  ctx, undo)
                if got >= 0 and spent + got <= budget:
                    return spent + got
                undo_all(undo)
    return -1.0


def _take_back(s: GoalState, q: int, x: int, guards: Sequence[Goal], undo: Undo) -> float:
    """Move a follower replica of ``q`` to ``x`` (the guards accepting). Returns its size, -1
    for none."""
    for k in range(1, s.pos.shape[1]):
        f = int(s.pos[q, k])
        if f >= 0 and accepted(guards, s, q, f, x):
            move_replica(s, q, k, x, undo)
            return float(s.size[q])
    return -1.0


def swap_step(s: GoalState, x: int, rows: np.ndarray, order: np.ndarray, budget: float,
               ctx: StepContext,
               ) -> float:
    """A step of ``NetworkOutPass.rebalance_by_swapping_load_out``: one :func:`_swap_replicas` of the cheapest candidates
    (``rows[order]``). Returns the bytes moved, -1 for none."""
    undo: Undo = []
    for row in rows[order][:ROWS // 4].tolist():
        got = _swap_replicas(s, x, row, budget, ctx, undo)
        if got >= 0:
            return got
    return -1.0


def _swap_replicas(s: GoalState, x: int, row: int, budget: float,
                   ctx: StepContext,
                   undo: Undo) -> float:
    """``x``'s leader replica of ``row`` goes to a receiver ``d`` and a follower replica of
    ``d``'s of about the same size comes back (Cruise Control's
    ``INTER_BROKER_REPLICA_SWAP``): disk and replica counts about unchanged on both, where a
    single move would take ``x`` (or a follower's broker) under the disk band. Returns the
    bytes moved, -1 for none."""
    lim, guards = ctx.lim, ctx.guards
    size, wr = float(s.size[row]), float(s.lead_out[row])
    for d in receivers(s, wr, float(s.rate_in[row]), lim)[:4].tolist():
        if (s.pos[row] == d).any():
            continue
        qs, ks = s.replicas_on(d, first=1)
        fit = ~(s.pos[qs] == x).any(axis=1) & (s.size[qs] <= budget - size)
        qs, ks = qs[fit], ks[fit]
        near = np.argsort(np.abs(s.size[qs] - size), kind="stable")[:8]
        took = (int(s.leaders[x]), int(s.leaders[d]))
        for q, k in zip(qs[near].tolist(), ks[near].tolist(), strict=True):
            if _both(s, ((q, k, d, x), (row, 0, x, d)), guards, undo):
                got = keep_leader_counts(s, x, d, took, wr, ctx, undo)
                if got >= 0 and size + float(s.size[q]) + got <= budget:
                    return size + float(s.size[q]) + got
                undo_all(undo)
    return -1.0


def gain_swap(s: GoalState, x: int, row: int, budget: float,
               ctx: StepContext,
               undo: Undo) -> float:
    """``NetworkOutPass.rebalance_by_swapping_load_in`` (:func:`_swap_replicas` the other way): a replica of ``row``
    on ``f`` comes to ``x`` (under its band), which leads it, and a follower replica of
    ``x``'s of about the same size goes to ``f`` — disk and replica counts about unchanged
    where a single move would take ``x`` over its disk band. Returns the bytes moved, -1
    for none."""
    guards = ctx.guards
    g = int(s.pos[row, 0])
    size, wr = float(s.size[row]), float(s.lead_out[row])
    qs, ks = s.replicas_on(x, first=1)
    fit = s.size[qs] <= budget - size
    qs, ks = qs[fit], ks[fit]
    near = np.argsort(np.abs(s.size[qs] - size), kind="stable")[:64]
    qs, ks = qs[near], ks[near]
    took = (int(s.leaders[g]), int(s.leaders[x]))
    for k in range(s.pos.shape[1]):
        f = int(s.pos[row, k])
        if f < 0 or f == x:
            continue
        tried = 0
        for q, kq in zip(qs.tolist(), ks.tolist(), strict=True):
            if (s.pos[q] == f).any() or q == row:
                continue
            tried += 1
            if tried > 8:
                break
            if not _both(s, ((q, kq, x, f), (row, k, f, x)), guards, undo):
                continue
            if not lead_moved(s, row, k, g, x, guards, undo):
                undo_all(undo)
                continue
            got = keep_leader_counts(s, g, x, took, wr, ctx, undo)
            spent = size + float(s.size[q])
            if got >= 0 and spent + got <= budget:
                return spent + got
            undo_all(undo)
    return -1.0


def _both(s: GoalState, steps: tuple[tuple[int, int, int, int], ...],
          guards: Sequence[Goal], undo: Undo) -> bool:
    """Apply both replica moves ``(row, slot, src, dst)``, in either order, every guard
    accepting each; False (nothing applied) when neither order passes."""
    for order in (steps, steps[::-1]):
        done = 0
        for r, slot, src, dst in order:
            if not accepted(guards, s, r, src, dst):
                break
            move_replica(s, r, slot, dst, undo)
            done += 1
        if done == len(order):
            return True
        undo_all(undo)
    if s.count_guard or not accepted_together(s, steps, guards):
        return False
    for r, slot, _src, dst in steps:  # neither order alone: together (each accepted in
        move_replica(s, r, slot, dst, undo)  # the state the other leaves, so their final loads)
    return True
