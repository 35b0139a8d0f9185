"""The optimizer's only moves (Cruise Control's ``ClusterModel.relocateReplica`` and
``relocateLeadership``, on the arrays of a :class:`~kpart.cluster.goals.state.GoalState`):
every change of replicas or leaders goes through these functions, which keep the per-broker
loads and the per-topic counts in step and invalidate the state's band cache (never cleared
by hand).

>>> from kpart.cluster.model import ClusterBroker, ClusterModel, PartitionState
>>> from kpart.cluster.goals.state import goal_state
>>> m = ClusterModel.from_partitions([ClusterBroker(i, None) for i in range(3)],
...     [PartitionState("t", 0, (0, 1), size_bytes=5.0)])
>>> s = goal_state(m, m.replicas, np.ones(3, bool))
>>> relocate_replica(s, 0, 1, 2); s.pos[0].tolist(), s.disk.tolist()
([0, 2], [5.0, 0.0, 5.0])
>>> relocate_leadership(s, 0, 1); s.pos[0].tolist(), s.leaders.tolist()
([2, 0], [0, 0, 1])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from kpart.cluster.goals.state import GoalState

if TYPE_CHECKING:  # goal.py's template moves through this module
    from kpart.cluster.goals.goal import Goal

__all__ = [
    "RELOCATE_BACK_TRIES",
    "SCAN",
    "accepted",
    "accepted_together",
    "disk_utilization",
    "move_first",
    "offline_replicas",
    "recount_leader_loads",
    "relocate_back",
    "relocate_first_accepted",
    "relocate_offline",
    "relocate_leadership",
    "relocate_leaderships",
    "relocate_replica",
    "relocate_replicas",
]


#: Candidates tried per (giver, receiver) pair before the pair is given up.
SCAN = 400


def relocate_replica(s: GoalState, row: int, slot: int, dst: int) -> None:
    """Move partition ``row``'s replica in ``slot`` to broker position ``dst`` (Cruise
    Control's ``relocateReplica``; slot 0 carries the leadership with it)."""
    src = int(s.pos[row, slot])
    size, rin, lout = float(s.size[row]), float(s.rate_in[row]), float(s.lead_out[row])
    t = int(s.topic[row])
    for b, sign in ((src, -1), (dst, 1)):
        s.replicas[b] += sign
        s.disk[b] += sign * size
        s.nw_in[b] += sign * rin
        s.pot_out[b] += sign * lout
        s.topic_count[t, b] += sign
        if slot == 0:
            s.leaders[b] += sign
            s.nw_out[b] += sign * lout
            s.lead_in[b] += sign * rin
    s.pos[row, slot] = dst
    s.held.placed((row,), dst)
    s.cache.invalidate()


def relocate_leadership(s: GoalState, row: int, slot: int) -> None:
    """Make the replica in ``slot`` of partition ``row`` its leader (slot 0; Cruise Control's
    ``relocateLeadership``): the old leader takes ``slot``."""
    old, new = int(s.pos[row, 0]), int(s.pos[row, slot])
    lout, rin = float(s.lead_out[row]), float(s.rate_in[row])
    s.leaders[old] -= 1
    s.leaders[new] += 1
    s.nw_out[old] -= lout
    s.nw_out[new] += lout
    s.lead_in[old] -= rin
    s.lead_in[new] += rin
    s.pos[row, 0], s.pos[row, slot] = new, old
    s.cache.invalidate()


def relocate_replicas(s: GoalState, rows: np.ndarray, slots: np.ndarray, dst: int) -> None:
    """:func:`relocate_replica` for many replicas of distinct partitions, all to ``dst``."""
    if not len(rows):
        return
    src = s.pos[rows, slots]
    b = len(s.replicas)
    lead = slots == 0
    for name, w, only_lead in (("replicas", None, False), ("disk", s.size, False),
                               ("nw_in", s.rate_in, False), ("pot_out", s.lead_out, False),
                               ("leaders", None, True), ("nw_out", s.lead_out, True),
                               ("lead_in", s.rate_in, True)):
        sel = lead if only_lead else np.ones(len(rows), dtype=bool)
        weights = None if w is None else w[rows[sel]]
        delta = np.bincount(src[sel], weights=weights, minlength=b)
        arr = getattr(s, name)
        arr -= delta.astype(arr.dtype)
        arr[dst] += delta.sum()
    t = s.topic[rows].astype(np.int64)
    np.subtract.at(s.topic_count, (t, src), 1)
    np.add.at(s.topic_count, (t, np.full(len(t), dst)), 1)
    s.pos[rows, slots] = dst
    s.held.placed(rows, dst)
    s.cache.invalidate()


def recount_leader_loads(s: GoalState) -> None:
    """The leader loads (``leaders``, ``nw_out``, ``lead_in``) recounted from slot 0 of
    ``s.pos``: after leaderships were passed in place on ``s.pos`` (the numba passes of the
    joint leadership solve, which work on copies of the loads)."""
    b = len(s.allowed)
    led = s.pos[:, 0]
    s.leaders[:] = np.bincount(led, minlength=b)
    s.nw_out[:] = np.bincount(led, weights=s.lead_out, minlength=b)
    s.lead_in[:] = np.bincount(led, weights=s.rate_in, minlength=b)
    s.cache.invalidate()


def relocate_leaderships(s: GoalState, brokers: np.ndarray,
                         rows: np.ndarray | None = None) -> None:
    """Make broker position ``brokers[i]`` (one of row ``rows[i]``'s replicas; ``rows``
    ``None``: every row, ``brokers`` then ``(P,)``) lead its row (slot 0, the leader's old
    slot taking it), and recount the leader loads."""
    if rows is None:
        rows = np.arange(len(s.pos))
    slot = np.argmax(s.pos[rows] == brokers[:, None], axis=1)
    change = slot > 0
    rows, slot = rows[change], slot[change]
    first = s.pos[rows, 0].copy()
    s.pos[rows, 0] = s.pos[rows, slot]
    s.pos[rows, slot] = first
    recount_leader_loads(s)


def accepted(goals: Sequence[Goal], s: GoalState, row: int, src: int, dst: int) -> bool:
    """Every goal of ``goals`` accepts moving ``row``'s replica from ``src`` to ``dst`` (a
    broker that may hold replicas and does not hold one of ``row``)."""
    if (s.pos[row] == dst).any() or not s.allowed[dst]:
        return False
    return all(g.accepts(s, row, src, dst) for g in goals)


def accepted_together(s: GoalState, steps: Sequence[tuple[int, int, int, int]],
                      guards: Sequence[Goal]) -> bool:
    """Every guard accepts each replica move ``(row, slot, src, dst)`` of ``steps`` in the
    state the other moves leave: the brokers' loads the guards check are then their loads
    once all are done (a swap: two moves between the same two brokers in opposite
    directions). ``s`` is as it was on return."""
    for i, (row, _slot, src, dst) in enumerate(steps):
        others = [(r2, k2, int(s.pos[r2, k2]), d2)
                  for j, (r2, k2, _s2, d2) in enumerate(steps) if j != i]
        for r2, k2, _s2, d2 in others:
            relocate_replica(s, r2, k2, d2)
        ok = accepted(guards, s, row, src, dst)
        for r2, k2, s2, _d2 in reversed(others):
            relocate_replica(s, r2, k2, s2)
        if not ok:
            return False
    return True


#: The moved replicas, largest first, :func:`relocate_back` tries.
RELOCATE_BACK_TRIES = 8192


def relocate_back(s: GoalState, goals: Sequence[Goal], original: np.ndarray,
                  tries: int = RELOCATE_BACK_TRIES) -> int:
    """Follower replicas moved off their broker go back to a broker of ``original`` (int
    ``(P, R)`` broker positions, ``-1`` padding: the replicas before the plan) that no longer
    holds one of the partition, the largest first (at most ``tries`` of them), wherever every
    goal of ``goals`` accepts the move: a move a later goal made unnecessary costs no bytes
    (on #1592 adding 10 brokers, about 4.5 TB of 131). No goal's band is left (each goal's
    ``accepts``), so no goal ends with more violations. Leaders stay (the leadership goals
    settle them). Returns the replicas moved back.

    >>> from kpart.cluster.model import ClusterBroker, ClusterModel, PartitionState
    >>> from kpart.cluster.goals.state import goal_state
    >>> m = ClusterModel.from_partitions([ClusterBroker(i, None) for i in range(3)],
    ...     [PartitionState("t", 0, (0, 1), size_bytes=5.0)])
    >>> s = goal_state(m, m.replicas, np.ones(3, bool))
    >>> original = s.pos.copy()
    >>> relocate_replica(s, 0, 1, 2)   # a move no goal needs
    >>> relocate_back(s, [], original), s.pos[0].tolist()
    (1, [0, 1])
    """
    pos = s.pos
    moved = ((pos[:, :, None] != original[:, None, :]).all(axis=2) & (pos >= 0))
    moved[:, 0] = False  # leaderships are the leadership goals' to settle
    rows, slots = np.nonzero(moved)
    order = np.argsort(-s.size[rows], kind="stable")[:tries]
    made = 0
    for row, slot in zip(rows[order].tolist(), slots[order].tolist(), strict=True):
        src = int(pos[row, slot])
        for dst in original[row].tolist():
            if (dst >= 0 and s.allowed[dst] and not (pos[row] == dst).any()
                    and all(g.accepts(s, row, src, dst) for g in goals)):
                relocate_replica(s, row, slot, dst)
                made += 1
                break
    return made


def offline_replicas(s: GoalState) -> tuple[np.ndarray, np.ndarray]:
    """The replicas on brokers that may not hold one (removed brokers: Cruise Control's
    offline replicas), as ``(rows, slots)`` int64, largest first (stable)."""
    if not (s.replicas[~s.allowed] > 0).any():  # the usual case, in O(brokers)
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    rows, slots = np.nonzero(~s.allowed[np.maximum(s.pos, 0)] & (s.pos >= 0))
    order = np.argsort(-s.size[rows], kind="stable")
    return rows[order], slots[order]


def disk_utilization(s: GoalState) -> np.ndarray:
    """float64 ``(B,)``: each broker's disk bytes over its disk capacity (over 1 where the
    capacity is unknown), ``inf`` for a broker that may hold no replica — the order in which
    a replica with nowhere in particular to go tries the brokers."""
    cap = np.where(np.isfinite(s.cap_disk), s.cap_disk, 1.0)
    out: np.ndarray = np.where(s.allowed, s.disk / cap, np.inf)
    return out


def relocate_offline(s: GoalState, guards: Sequence[Goal]) -> int:
    """Move every offline replica (:func:`offline_replicas`), largest first, each to the
    allowed broker of lowest disk utilization every goal of ``guards`` accepts (Cruise
    Control's relocation of a dead broker's replicas). Returns how many it could not place."""
    rows, slots = offline_replicas(s)
    failed = 0
    for row, slot in zip(rows.tolist(), slots.tolist(), strict=True):
        src = int(s.pos[row, slot])
        util = disk_utilization(s)
        util[s.pos[row][s.pos[row] >= 0]] = np.inf
        for dst in np.argsort(util, kind="stable")[:64].tolist():
            if util[dst] != np.inf and accepted(guards, s, row, src, dst):
                relocate_replica(s, row, slot, dst)
                break
        else:
            failed += 1
    return failed


def relocate_first_accepted(s: GoalState, row: int, slots: Sequence[int],
                            guards: Sequence[Goal]) -> bool:
    """Move the first replica of ``row`` in ``slots`` (say, those breaking a goal) that can
    go to one of the :data:`SCAN` allowed brokers of lowest disk utilization every goal of
    ``guards`` accepts, to the first such broker. Returns whether one moved."""
    p = s.pos[row]
    util = disk_utilization(s)
    for slot in slots:
        src = int(p[slot])
        for dst in np.argsort(util, kind="stable")[:SCAN].tolist():
            if util[dst] == np.inf:
                break
            if accepted(guards, s, row, src, dst):
                relocate_replica(s, row, slot, dst)
                return True
    return False


def move_first(s: GoalState, rows: np.ndarray, slots: np.ndarray, g: int,
               receivers: Sequence[int], guards: Sequence[Goal]) -> bool:
    """Move the first replica ``(rows[i], slots[i])`` of broker position ``g`` that one of
    ``receivers`` (tried in order) takes with every goal of ``guards`` accepting, to it.
    Returns whether one moved."""
    for row, slot in zip(rows.tolist(), slots.tolist(), strict=True):
        for r in receivers:
            if r != g and accepted(guards, s, row, g, r):
                relocate_replica(s, row, slot, r)
                return True
    return False
