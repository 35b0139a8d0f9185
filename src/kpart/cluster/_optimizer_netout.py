"""Network out where leadership alone cannot even it out (Cruise Control's
``NetworkOutboundUsageDistributionGoal`` with ``INTER_BROKER_REPLICA_MOVEMENT`` after
``LEADERSHIP_MOVEMENT``): a broker over its band hands a partition's leadership to a broker
outside the partition's replica set, by moving one follower replica there first (the
partition whose replica weighs fewest bytes among those that cover the excess); a broker
under its band takes one the same way. When the leader count of a broker would leave its
band, the broker also passes (or takes) the leadership of a light partition it shares with a
partner, so that counts stay. Every replica move is accepted by the guards (the hard goals
and every goal up to network out); the bytes moved stay under a budget.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kpart.cluster._optimizer_moves import accepted, move_replica, swap_leader
from kpart.cluster.goals import Goal, GoalState

__all__ = ["relocate_for_network_out"]


def _slot(s: GoalState, row: int, b: int) -> int:
    hit = np.flatnonzero(s.pos[row] == b)
    return int(hit[0]) if len(hit) else -1


def _compensate(s: GoalState, x: int, give: bool, count_band: tuple[float, float],
                out_band: tuple[np.ndarray, np.ndarray], guards: Sequence[Goal]) -> bool:
    """Keep ``x``'s leader count: ``give`` one leadership of a light partition to a follower
    (or take one from a leader), the partner staying in its bands; False when none."""
    lo_c, hi_c = count_band
    lo_o, hi_o = out_band
    if give:
        rows = np.flatnonzero(s.pos[:, 0] == x)
    else:
        rows = np.flatnonzero((s.pos[:, 1:] == x).any(axis=1))
    for row in rows[np.argsort(s.lead_out[rows], kind="stable")][:256].tolist():
        w = float(s.lead_out[row])
        for k in range(1, s.pos.shape[1]):
            f = int(s.pos[row, k])
            if f < 0 or not s.allowed[f]:
                continue
            new, old = (f, x) if give else (x, int(s.pos[row, 0]))
            if not give and f != x:
                continue
            if (s.leaders[new] + 1 > hi_c or s.leaders[old] - 1 < lo_c
                    or s.nw_out[new] + w > hi_o[new] or s.nw_out[old] - w < lo_o[old]):
                continue
            if all(g.accepts_leader(s, row, old, new) for g in guards):
                swap_leader(s, row, k)
                return True
    return False


def relocate_for_network_out(s: GoalState, bands: np.ndarray, guards: Sequence[Goal],
                             budget: float) -> float:
    """Move follower replicas so that leadership can even out network out (module
    docstring); ``bands``: the rows of :func:`kpart.cluster.optimizer._leader_bands`
    (threshold bands in rows 3, 4 of network out and 8, 9 of leader count); ``budget``:
    bytes this pass may move. Returns the bytes moved."""
    lo_o, hi_o = bands[3], bands[4]
    count_band = (float(bands[8].max()), float(bands[9].min()))
    moved = 0.0
    for _ in range(4):
        bad = np.flatnonzero(s.allowed & ((s.nw_out > hi_o) | (s.nw_out < lo_o)))
        progress = False
        for x in bad[np.argsort(-np.abs(s.nw_out[bad] - (lo_o[bad] + hi_o[bad]) / 2))].tolist():
            over = s.nw_out[x] > hi_o[x]
            gap = s.nw_out[x] - hi_o[x] if over else lo_o[x] - s.nw_out[x]
            if gap <= 0:
                continue
            got = _one(s, x, over, gap, (lo_o, hi_o), count_band, guards, budget - moved)
            if got >= 0:
                moved += got
                progress = True
        if not progress:
            break
    return moved


def _one(s: GoalState, x: int, over: bool, gap: float,
         out_band: tuple[np.ndarray, np.ndarray], count_band: tuple[float, float],
         guards: Sequence[Goal], budget: float) -> float:
    """One relocation for broker ``x``; the bytes moved, -1 for none."""
    lo_o, hi_o = out_band
    lo_c, hi_c = count_band
    cap = np.where(np.isfinite(s.cap_disk), s.cap_disk, 1.0)
    if over:  # partitions x leads, whose leadership can go elsewhere
        rows = np.flatnonzero(s.pos[:, 0] == x)
    else:  # partitions x does not hold, led by a broker that can spare it
        rows = np.flatnonzero(~(s.pos == x).any(axis=1) & (s.pos[:, 0] >= 0))
        rows = rows[s.nw_out[s.pos[rows, 0]] - s.lead_out[rows] >= lo_o[s.pos[rows, 0]]]
    w = s.lead_out[rows]
    room = hi_o[x] - lo_o[x]
    fits = (w >= gap) & (w <= gap + room)
    rows = rows[fits]
    rows = rows[np.argsort(s.size[rows] / np.maximum(s.lead_out[rows], 1e-300),
                           kind="stable")][:64]
    for row in rows.tolist():
        size = float(s.size[row])
        if size > budget:
            continue
        leader = int(s.pos[row, 0])
        wr = float(s.lead_out[row])
        if over:
            util = np.where(s.allowed & (s.nw_out + wr <= hi_o), s.disk / cap, np.inf)
            dsts = np.argsort(util, kind="stable")[:16].tolist()
            dsts = [d for d in dsts if util[d] < np.inf and _slot(s, row, d) < 0]
        else:
            dsts = [x]
        for d in dsts:
            for k in range(1, s.pos.shape[1]):
                f = int(s.pos[row, k])
                if f < 0 or not accepted(guards, s, row, f, d):
                    continue
                new = d
                need_give = s.leaders[leader] - 1 < lo_c
                need_take = s.leaders[new] + 1 > hi_c
                move_replica(s, row, k, d)
                if not all(g.accepts_leader(s, row, leader, d) for g in guards):
                    move_replica(s, row, k, f)
                    continue
                swap_leader(s, row, k)
                ok = ((not need_give or _compensate(s, leader, False, count_band,
                                                    out_band, guards))
                      and (not need_take or _compensate(s, new, True, count_band, out_band,
                                                        guards)))
                if ok:
                    return size
                swap_leader(s, row, k)  # undo: leadership back, replica back
                move_replica(s, row, k, f)
                return -1
    return -1
