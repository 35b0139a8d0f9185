"""The optimizer's moves on a :class:`~kpart.cluster.goals.GoalState` (Cruise Control's
``AbstractGoal.maybeApplyBalancingAction`` / ``ClusterModel.relocateReplica`` /
``relocateLeadership``, on arrays): applying a replica move or a leadership swap, and the
greedy passes that fix one goal while every higher-priority goal accepts each move.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

import numpy as np

from kpart.cluster.goals.goal import Goal, TopicLimits
from kpart.cluster.goals.rack_aware import RackAwareGoal
from kpart.cluster.goals.relocation import (
    SCAN,
    accepted,
    accepted_together,
    relocate_replica,
    relocate_replicas,
)
from kpart.cluster.goals.state import GoalState

#: :func:`by_broker`'s result: rows, slots, weights, per-broker starts.
_Index = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def topic_goal(guards: Sequence[Goal]) -> TopicLimits | None:
    """The topic-replica goal among ``guards`` (the one whose ``guards_always`` is set), or
    ``None``."""
    found = next((x for x in guards if getattr(x, "guards_always", False)), None)
    return None if found is None else cast(TopicLimits, found)


def by_broker(s: GoalState, weight: np.ndarray, leaders_only: bool = False) -> _Index:
    """Every replica (or leader) as ``(row, slot)`` sorted by broker then ``weight[row]``:
    ``rows, slots, weights, starts`` (``starts[b]:starts[b+1]`` = broker ``b``'s)."""
    pos = s.pos[:, :1] if leaders_only else s.pos
    held = pos >= 0
    rows, slots = np.nonzero(held)
    brokers = pos[rows, slots]
    w = weight[rows]
    by_weight = np.argsort(w, kind="stable")
    # then by broker: a stable radix sort of the positions keeps the weights' order
    small = brokers.astype(np.int16) if len(s.replicas) < 2**15 else brokers
    order = by_weight[np.argsort(small[by_weight], kind="stable")]
    starts = np.searchsorted(brokers[order], np.arange(len(s.replicas) + 1))
    return rows[order], slots[order].astype(np.int32), w[order], starts


def fill_counts(s: GoalState, lower: float, upper: float, guards: Sequence[Goal],  # noqa: PLR0913
                disk_target: np.ndarray, bulk: bool = True,
                giver_disk: np.ndarray | None = None) -> int:
    """Bring every allowed broker's replica count into ``[lower, upper]``: brokers under it
    take replicas from the fullest (by count) brokers, each replica's size chosen near what
    the receiver still needs to reach ``disk_target`` per replica still missing (so that the
    disk goal that follows moves few more bytes); ``bulk``: first in batches checked against
    the rack, topic and capacity limits only (else every move by every guard);
    ``giver_disk``: the batches take only from brokers whose disk is above it (the bytes the
    disk goal would move off them anyway; taken from any other broker they would come back)
    while those can give enough, down to ``lower`` replicas. Returns the moves made."""
    moves = 0
    for r in np.flatnonzero(s.allowed & (s.replicas < lower) & bulk).tolist():
        for _ in range(8):  # each batch sees the state the previous one left
            made = _fill_batch(s, r, lower, guards, disk_target, giver_disk)
            moves += made
            if not made or s.replicas[r] >= lower:
                break
    index = by_broker(s, s.size)
    for r in np.flatnonzero(s.allowed & (s.replicas < lower)).tolist():
        tried: set[int] = set()
        while s.replicas[r] < lower:
            cand = np.where(s.allowed & (s.replicas > lower + 1), s.replicas, -1)
            cand[list(tried)] = -1
            if (cand < 0).all():
                break
            g = int(np.argmax(cand))
            need = max(lower - s.replicas[r], 1)
            want = max(float(disk_target[r] - s.disk[r]), 0.0) / need
            if _take_near(s, index, g, r, want, guards):
                moves += 1
            else:
                tried.add(g)
    for g in np.flatnonzero(s.allowed & (s.replicas > upper)).tolist():
        tried = set()
        while s.replicas[g] > upper:
            cand = np.where(s.allowed, -s.replicas.astype(float), -np.inf)
            cand[list(tried) + [g]] = -np.inf
            r = int(np.argmax(cand))
            if cand[r] == -np.inf or s.replicas[r] >= upper:
                break
            want = float(disk_target[g] - s.disk[g] + s.size.mean())
            if _take_near(s, index, g, r, max(want, 0.0), guards):
                moves += 1
            else:
                tried.add(r)
    return moves


def _group_rank(keys: np.ndarray) -> np.ndarray:
    """Per element, how many earlier elements share its key (the rank within its group)."""
    order = np.argsort(keys, kind="stable")
    k = keys[order]
    first = np.r_[0, np.flatnonzero(k[1:] != k[:-1]) + 1]
    run = np.repeat(first, np.diff(np.r_[first, len(k)]))
    rank = np.empty(len(keys), dtype=np.int64)
    rank[order] = np.arange(len(k)) - run
    return rank


def _fill_batch(s: GoalState, r: int, lower: float, guards: Sequence[Goal],
                disk_target: np.ndarray, giver_disk: np.ndarray | None) -> int:
    """Fill receiver ``r`` up to ``lower`` replicas in one vectorised pick: the replicas whose
    sizes are nearest what ``r`` still needs per replica, among those every guard would accept
    — checked here as arrays, for the whole batch at once: rack-aware, not of a partition
    ``r`` holds, one per partition, at most what each giver holds above the mean (or, with
    ``giver_disk``, above ``lower``, from the brokers whose disk is above it), each
    topic's upper limit on ``r`` and lower limit on the giver, and ``r``'s capacity limits
    (disk, network in/out, replicas) on the running sums. ``disk_target``: the disk target
    per broker; ``giver_disk``: :func:`fill_counts`'s. Moves are applied in bulk."""
    need = int(lower - s.replicas[r])
    if need <= 0:
        return 0
    want = max(float(disk_target[r] - s.disk[r]), 0.0) / need
    mean = s.replicas.sum() / max(int(s.allowed.sum()), 1)
    slack = np.where(s.allowed, s.replicas - np.ceil(mean), 0).astype(np.int64)
    if giver_disk is not None:  # only from brokers whose bytes must go, while they suffice
        heavy = np.where(s.allowed & (s.disk > giver_disk), s.replicas - lower - 1, 0)
        heavy[r] = 0
        if np.maximum(heavy, 0).sum() >= need:
            slack = heavy.astype(np.int64)
    slack[r] = 0
    p = s.pos
    held = p >= 0
    on_r = (p == r).any(axis=1)
    rack_hits = (held & (s.rack[np.maximum(p, 0)] == s.rack[r])).sum(axis=1)
    rows, slots = np.nonzero(held & (slack[np.maximum(p, 0)] > 0) & ~on_r[:, None])
    src = p[rows, slots]
    ok = rack_hits[rows] - (s.rack[src] == s.rack[r]) == 0
    if s.topic_pool is not None and s.broker_pool is not None:
        ok &= s.topic_pool[s.topic[rows]] == s.broker_pool[r]
    topic = topic_goal(guards)
    if topic is not None:  # room for the topic on r, and above its lower limit on the giver
        t = s.topic[rows]
        lim = topic.limits(s)
        ok &= (s.topic_count[t, r] < lim[1, t]) & (s.topic_count[t, src] > lim[0, t])
    rows, slots, src = rows[ok], slots[ok], src[ok]
    dist = np.abs(s.size[rows] - want)
    k = min(len(rows), 16 * need)
    near = np.argpartition(dist, k - 1)[:k] if 0 < k < len(rows) else np.arange(len(rows))
    near = near[np.argsort(dist[near], kind="stable")]
    rows, slots, src = rows[near], slots[near], src[near]
    _, first = np.unique(rows, return_index=True)  # one replica per partition
    keep = np.zeros(len(rows), dtype=bool)
    keep[first] = True
    keep &= _group_rank(np.where(keep, src, -1)) < slack[src]
    if topic is not None:
        t = s.topic[rows].astype(np.int64)
        lim = topic.limits(s)
        keep &= _group_rank(np.where(keep, t, -1)) < lim[1, t] - s.topic_count[t, r]
        pair = np.where(keep, t * len(s.replicas) + src, -1)
        keep &= _group_rank(pair) < s.topic_count[t, src] - lim[0, t]
    rows, slots, src = rows[keep][:need], slots[keep][:need], src[keep][:need]
    th = s.thresholds
    lead = slots == 0
    fits = ((s.disk[r] + np.cumsum(s.size[rows]) <= th.capacity * s.cap_disk[r])
            & (s.nw_in[r] + np.cumsum(s.rate_in[rows]) <= th.capacity * s.cap_in[r])
            & (s.nw_out[r] + np.cumsum(np.where(lead, s.lead_out[rows], 0.0))
               <= th.capacity * s.cap_out[r])
            & (s.replicas[r] + np.arange(1, len(rows) + 1) <= th.max_replicas_per_broker))
    n = int(np.argmin(fits)) if not fits.all() else len(rows)
    relocate_replicas(s, rows[:n], slots[:n], r)
    return n


def _take_near(s: GoalState, index: _Index, g: int, r: int, want: float,
               guards: Sequence[Goal]) -> bool:
    """Move one replica from ``g`` to ``r``, its weight nearest ``want``."""
    rows, slots, w, starts = index
    lo, hi = int(starts[g]), int(starts[g + 1])
    mid = lo + int(np.searchsorted(w[lo:hi], want))
    for width in (16, SCAN):
        idx = np.arange(max(lo, mid - width), min(hi, mid + width))
        idx = idx[np.argsort(np.abs(w[idx] - want), kind="stable")]
        if _first_accepted(s, rows[idx], slots[idx], g, r, guards):
            return True
    return False


def _first_accepted(s: GoalState, rows: np.ndarray, slots: np.ndarray, g: int, r: int,
                    guards: Sequence[Goal]) -> bool:
    """Move the first of the candidate replicas ``(rows, slots)`` on ``g`` that every guard
    accepts to ``r``; the cheap conditions (still on ``g``, not already on ``r``, rack, topic
    upper limit) are filtered as arrays first."""
    p = s.pos[rows]
    ok = (p[np.arange(len(rows)), slots] == g) & ~(p == r).any(axis=1)
    if not s.allowed[r]:
        return False
    others = (p >= 0) & (np.arange(p.shape[1])[None, :] != slots[:, None])
    if any(isinstance(x, RackAwareGoal) for x in guards):
        ok &= ~(others & (s.rack[np.maximum(p, 0)] == s.rack[r])).any(axis=1)
    topic = topic_goal(guards)
    if topic is not None:
        t = s.topic[rows]
        ok &= s.topic_count[t, r] + 1 <= topic.limits(s)[1, t]
    for i in np.flatnonzero(ok).tolist():
        row, slot = int(rows[i]), int(slots[i])
        if accepted(guards, s, row, g, r):
            relocate_replica(s, row, slot, r)
            return True
    return False


def balance(s: GoalState, load: np.ndarray, cap: np.ndarray,  # noqa: PLR0913
            band: tuple[float, float], threshold: tuple[float, float],
            weight: np.ndarray, guards: Sequence[Goal]) -> int:
    """Bring every allowed broker's ``load / cap`` into ``[lower, upper]`` by replica moves
    (``load`` is one of ``s``'s per-broker arrays, updated by each move; ``weight[row]`` what
    a move of ``row`` shifts): from the most loaded broker to the least, each time the
    largest replica that neither pushes the receiver over ``upper`` nor the giver under
    ``lower`` nor exceeds what is needed — the fewest bytes that fix the violation — or,
    when every replica is larger than that while one of the two brokers is outside the
    goal's own ``threshold`` band (``band`` = ``(lower, upper)`` being the one aimed at inside
    it), the largest that keeps both inside ``band`` (four 10-byte replicas on one of four
    brokers end 10, 10, 10, 10, not 20, 10, 0, 10). Returns the moves made."""
    lower, upper = band
    index = by_broker(s, weight)
    moves = 0
    dead: set[tuple[int, int]] = set()
    while True:
        util = np.where(s.allowed, load / cap, np.nan)
        over = s.allowed & (util > upper)
        under = s.allowed & (util < lower)
        if not over.any() and not under.any():
            break
        progressed = False
        givers = np.argsort(-np.nan_to_num(util, nan=-np.inf))
        receivers = np.argsort(np.nan_to_num(util, nan=np.inf))
        if over.any():
            givers = givers[over[givers]]
        if under.any():
            receivers = receivers[under[receivers]]
        for g in givers[:8].tolist():
            for r in receivers[:8].tolist():
                if g == r or (g, r) in dead or util[r] >= util[g]:
                    continue
                excess = max(load[g] - upper * cap[g], 0.0)
                need = max(lower * cap[r] - load[r], 0.0)
                room = min(upper * cap[r] - load[r], load[g] - lower * cap[g])
                take = min(room, max(excess, need))
                # every replica larger than the fix needs while a broker of the pair is
                # outside the threshold band itself: the largest that keeps both inside the
                # band aimed at (Cruise Control accepts any move that keeps the receiver
                # under its limit)
                violated = util[g] > threshold[1] or util[r] < threshold[0]
                if take <= 0 or not (_take_largest(s, index, g, r, take, guards)
                                     or (violated and room > take
                                         and _take_largest(s, index, g, r, room, guards))):
                    dead.add((g, r))
                    continue
                moves += 1
                progressed = True
                break
            if progressed:
                break
        if not progressed:
            break
    return moves


def _take_largest(s: GoalState, index: _Index, g: int, r: int, take: float,
                  guards: Sequence[Goal]) -> bool:
    """Move one replica from ``g`` to ``r``: the largest with weight ``<= take``."""
    rows, slots, w, starts = index
    lo, hi = int(starts[g]), int(starts[g + 1])
    i = lo + int(np.searchsorted(w[lo:hi], take, side="right"))
    for width in (32, 2 * SCAN):
        idx = np.arange(i - 1, max(lo, i - width) - 1, -1)
        if _first_accepted(s, rows[idx], slots[idx], g, r, guards):
            return True
    return False


def balance_topics(s: GoalState, goal: TopicLimits,
                   guards: Sequence[Goal]) -> int:
    """``TopicReplicaDistributionGoal``: each (topic, broker) count outside the topic's band
    takes (or gives) the topic's smallest follower replicas (leadership stays: the leadership
    goals are settled by then) from (to) the brokers with the most (the fewest) of it, each
    move accepted by every guard. Rows of a topic are contiguous (the
    model sorts them by topic). Returns the moves made."""
    lim = goal.limits(s)
    tc = s.topic_count
    bad = s.allowed[None, :] & ((tc < lim[0][:, None]) | (tc > lim[1][:, None]))
    if not bad.any():
        return 0
    starts = np.searchsorted(s.topic, np.arange(tc.shape[0] + 1))
    moves = 0
    for t, b in np.argwhere(bad).tolist():
        rows = slice(int(starts[t]), int(starts[t + 1]))
        gap = max(lim[0, t] - tc[t, b], tc[t, b] - lim[1, t])  # moves that bring b in
        for _ in range(int(math.ceil(gap))):
            under = tc[t, b] < lim[0, t]
            if not under and tc[t, b] <= lim[1, t]:
                break
            others = np.where(s.allowed, tc[t], -1 if under else np.iinfo(np.int32).max)
            others[b] = -1 if under else np.iinfo(np.int32).max
            order = np.argsort(-others if under else others, kind="stable")[:8].tolist()
            if not (_topic_move(s, rows, t, b, order, under, guards)
                    or _topic_swap(s, rows, (t, b, under), order, (lim, guards))):
                break
            moves += 1
    return moves


#: Replicas of the topic, and of other topics about as large, a swap tries per partner.
_SWAP_TRIES = 8


def _topic_swap(s: GoalState, rows: slice, what: tuple[int, int, bool], partners: list[int],
                how: tuple[np.ndarray, Sequence[Goal]]) -> bool:
    """When no single move is accepted (the receiver at the top of its disk or replica
    band): a follower replica of topic ``t`` goes from ``g`` to ``r`` and one of another
    topic about as large comes back (Cruise Control's ``INTER_BROKER_REPLICA_SWAP``), both
    brokers' replica counts and bytes about unchanged. The other topic stays inside its band
    on both brokers; every guard accepts each move with the other made."""
    t, b, under = what
    lim, guards = how
    racks = any(isinstance(x, RackAwareGoal) for x in guards)
    held: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # follower replicas a broker holds
    for x in partners:
        g, r = (x, b) if under else (b, x)
        if (not s.allowed[r] or g == r or s.topic_count[t, g] - 1 < lim[0, t]
                or s.topic_count[t, r] + 1 > lim[1, t]):
            continue  # neither broker may leave the topic's band
        cand, slots = _followers_in(s, rows, g)
        cand, slots = _movable(s, cand, slots, r, racks)
        order = np.argsort(s.size[cand], kind="stable")[:_SWAP_TRIES]
        if r not in held:  # (one scan of the cluster a receiver: r is b for every partner
            held[r] = s.replicas_on(r, first=1)  # when b is under the band)
        back_rows, back_slots = held[r]
        u = s.topic[back_rows]
        fit = ((u != t) & (s.topic_count[u, r] - 1 >= lim[0, u])
               & (s.topic_count[u, g] + 1 <= lim[1, u]))
        back_rows, back_slots = _movable(s, back_rows[fit], back_slots[fit], g, racks)
        if not len(back_rows):
            continue
        by_size = np.argsort(s.size[back_rows], kind="stable")
        back_rows, back_slots = back_rows[by_size], back_slots[by_size]
        for i in order.tolist():
            row, slot = int(cand[i]), int(slots[i])
            near = int(np.searchsorted(s.size[back_rows], s.size[row]))
            for j in range(max(0, near - _SWAP_TRIES // 2),
                           min(len(back_rows), near + _SWAP_TRIES // 2)):
                other, oslot = int(back_rows[j]), int(back_slots[j])
                if accepted_together(s, ((row, slot, g, r), (other, oslot, r, g)), guards):
                    relocate_replica(s, row, slot, r)
                    relocate_replica(s, other, oslot, g)
                    return True
    return False


def _movable(s: GoalState, rows: np.ndarray, slots: np.ndarray, dst: int,
             racks: bool) -> tuple[np.ndarray, np.ndarray]:
    """The replicas ``(rows, slots)`` that may go to ``dst``: their partition has none there
    and, with ``racks`` (RackAwareGoal guards), no other replica in ``dst``'s rack."""
    p = s.pos[rows]
    ok = ~(p == dst).any(axis=1)
    if racks:
        others = (p >= 0) & (np.arange(p.shape[1])[None, :] != slots[:, None])
        ok &= ~(others & (s.rack[np.maximum(p, 0)] == s.rack[dst])).any(axis=1)
    return rows[ok], slots[ok]

#: A topic's rows past which its follower replicas on a broker are looked up in the broker's
#: replicas rather than by scanning the topic's rows.
_SCAN_ROWS = 4096


def _followers_in(s: GoalState, rows: slice, g: int) -> tuple[np.ndarray, np.ndarray]:
    """``(rows, slots)`` of broker ``g``'s follower replicas among ``rows`` (contiguous)."""
    if rows.stop - rows.start < _SCAN_ROWS:
        here, slots = np.nonzero(s.pos[rows, 1:] == g)
        return here + rows.start, slots + 1
    return s.replicas_on(g, first=1, lo=rows.start, hi=rows.stop)


def _topic_move(s: GoalState, rows: slice, t: int, b: int, partners: list[int],
                under: bool, guards: Sequence[Goal]) -> bool:
    """Move one follower replica of topic ``t`` (its ``rows``, contiguous) between ``b`` and
    the first of ``partners`` that takes (gives) one, the fewest bytes first."""
    lim_ok = s.topic_count[t]
    for x in partners:
        g, r = (x, b) if under else (b, x)
        if not s.allowed[r] or g == r or (under and lim_ok[g] <= 0):
            continue
        cand, slots = _followers_in(s, rows, g)  # followers: leadership stays where it is
        order = np.argsort(s.size[cand], kind="stable")[:64]  # the fewest bytes
        if _first_accepted(s, cand[order], slots[order].astype(np.int32), g, r, guards):
            return True
    return False
