"""``AbstractStickyAssignor.ConstrainedAssignmentBuilder`` on numpy arrays, for large groups.

The same decisions as :mod:`kpart.consumer._constrained_builder` (which stays the reference),
computed on partition indices instead of per-partition Python objects. It covers the common
case and declines (returns ``None``, the caller then runs the reference builder) whenever a
rarer rule could apply:

- subscriptions differ (general path), or some member has a rack (KIP-881 ordering);
- an owned partition of a topic outside the metadata, a partition number beyond the topic's
  count, or a partition claimed twice (generation conflicts);
- too few partitions to fill every member (Kafka's ``IllegalStateException`` paths);
- topic names whose Java and Python orders differ.

Partition ``(topic, p)`` is numbered ``offset[topic] + p`` with topics in ``String.compareTo``
order, so index order is Kafka's ``TreeSet``/two-pointer order. The round robin of Kafka's
step 3 is "deal one partition per round to each member still under ``minQuota`` (in id order),
then one each to the members polled from the ``minQuota`` list": both are closed forms here.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from itertools import chain, repeat
from operator import itemgetter

import numpy as np

from kpart._java.strings import java_string_key
from kpart.consumer.abstract_sticky_assignor import MemberData
from kpart.consumer.spec import GroupAssignment, GroupSpec, Member

__all__ = ["ARRAY_THRESHOLD", "FastConstrained", "fast_constrained"]

#: Below this many partitions in the metadata the object-based builder is faster.
ARRAY_THRESHOLD = 2048

TP = tuple[str, int]


class FastConstrained:
    """Result of :func:`fast_constrained`: the canonical assignment and, on request, each
    member's Kafka list order."""

    __slots__ = ("assignment", "lists")

    def __init__(self, assignment: GroupAssignment, lists: dict[str, list[TP]] | None) -> None:
        self.assignment = assignment
        self.lists = lists


def _subscriptions_equal(members: Sequence[Member]) -> bool:
    subscribed: set[str] = set()
    for m in members:
        if not subscribed:
            subscribed.update(m.topics)
        elif not (len(m.topics) == len(subscribed) and subscribed.issuperset(m.topics)):
            return False
    return True


def _group_tuples(
    names: list[str], ps: list[int], starts: np.ndarray, sizes: np.ndarray
) -> Sequence[tuple[str, tuple[int, ...]]]:
    """``(names[g], tuple(ps[starts[g]:starts[g] + sizes[g]]))`` for every group ``g``: small
    groups of one size at a time through C-level ``zip``, then put back in order."""
    ps_arr = np.asarray(ps, dtype=np.int64)
    names_arr = np.array(names, dtype=object)
    pieces: list = []
    where: list[np.ndarray] = []
    for k in np.unique(sizes).tolist():
        idx = np.flatnonzero(sizes == k)
        if k <= 8:
            cols = [ps_arr[starts[idx] + i].tolist() for i in range(k)]
            pieces.extend(zip(names_arr[idx].tolist(), zip(*cols, strict=True), strict=True))
        else:
            st = starts[idx].tolist()
            pieces.extend(
                (t, tuple(ps[a : a + k])) for t, a in zip(names_arr[idx].tolist(), st, strict=True)
            )
        where.append(idx)
    if len(where) == 1:
        return pieces
    inverse = np.argsort(np.concatenate(where)).tolist()
    return itemgetter(*inverse)(pieces) if len(inverse) > 1 else [pieces[0]]


def _grouped(
    topics: list[str], offsets: np.ndarray, member: np.ndarray, gids: np.ndarray, n: int
) -> list[tuple[tuple[str, tuple[int, ...]], ...]]:
    """Partition indices sorted by (member, index) → per member ``((topic, (p, ...)), ...)``.

    Tuples are built by C-level ``zip`` where groups have equal sizes (the common case of
    large balanced groups), by slicing otherwise."""
    if not len(gids):
        return [()] * n
    tid = np.searchsorted(offsets, gids, side="right") - 1
    ps = (gids - offsets[tid]).tolist()
    new_group = np.ones(len(gids), dtype=bool)
    new_group[1:] = (np.diff(tid) != 0) | (np.diff(member) != 0)
    starts = np.flatnonzero(new_group)
    sizes = np.diff(np.append(starts, len(gids)))
    names = np.array(topics, dtype=object)[tid[starts]].tolist()
    groups = _group_tuples(names, ps, starts, sizes)
    cuts = np.searchsorted(member[starts], np.arange(n + 1)).tolist()
    return [tuple(groups[cuts[i] : cuts[i + 1]]) for i in range(n)]


def fast_constrained(
    group: GroupSpec,
    members: Sequence[Member],
    data: Sequence[MemberData],
    cooperative: bool,
    ordered: bool = False,
) -> FastConstrained | None:
    """The constrained path for ``group`` (``members``/``data`` in subscription-map order), or
    ``None`` when a case outside the array form applies (see the module docstring).
    ``cooperative``: withhold partitions changing owner and report them as revoked."""
    # Millions of small result tuples would trigger full garbage collections over the input's
    # objects again and again; none of them can form cycles.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _fast_constrained(group, members, data, cooperative, ordered)
    finally:
        if enabled:
            gc.enable()


def _fast_constrained(
    group: GroupSpec,
    members: Sequence[Member],
    data: Sequence[MemberData],
    cooperative: bool,
    ordered: bool = False,
) -> FastConstrained | None:
    """The constrained path for ``group`` (``members``/``data`` in subscription-map order), or
    ``None`` when a case outside the array form applies (see the module docstring).
    ``cooperative``: withhold partitions changing owner and report them as revoked."""
    n = len(members)
    if n == 0 or any(m.rack for m in members) or not _subscriptions_equal(members):
        return None
    ppt: dict[str, int] = {}
    for m in members:
        for t in m.topics:
            if t not in ppt:
                k = group.num_partitions(t)
                if k:
                    ppt[t] = k
    topics = sorted(ppt, key=java_string_key)
    if topics != sorted(ppt):
        return None
    tindex = {t: i for i, t in enumerate(topics)}
    counts = np.array([ppt[t] for t in topics], dtype=np.int64)
    offsets = np.zeros(len(topics), dtype=np.int64)
    if len(topics) > 1:
        offsets[1:] = np.cumsum(counts)[:-1]
    total = int(counts.sum())

    # -- claims: (member, partition index), member-major in decoded order ----------------
    owned = [md.owned for md in data]
    flat_groups = list(chain.from_iterable(owned))  # C-level passes over the input tuples
    grp_ps = list(map(itemgetter(1), flat_groups))
    grp_t = list(map(tindex.get, map(itemgetter(0), flat_groups), repeat(-1)))
    grp_len = np.fromiter(map(len, grp_ps), np.int64, len(grp_ps))
    n_claims = int(grp_len.sum()) if len(grp_len) else 0
    p = np.fromiter(chain.from_iterable(grp_ps), np.int64, n_claims)
    grp_t_arr = np.array(grp_t, dtype=np.int64)
    if len(grp_t_arr) and grp_t_arr.min() < 0:
        return None
    tid = np.repeat(grp_t_arr, grp_len)
    group_member = np.repeat(np.arange(n), np.array([len(o) for o in owned], dtype=np.int64))
    mem = np.repeat(group_member, grp_len)
    if n_claims and (p.min() < 0 or np.any(p >= counts[tid])):
        return None
    gid = offsets[tid] + p
    if n_claims and np.bincount(gid, minlength=total).max() > 1:
        return None

    # -- step 1: keep owned partitions up to the quotas (members in map order) ------------
    min_q, max_q = total // n, -(-total // n)
    expected_over = total % n
    order = np.lexsort((tid, p, mem))  # per member: by partition, then topic
    gid_s, mem_s = gid[order], mem[order]
    n_owned = np.bincount(mem_s, minlength=n)
    keep = np.empty(n, dtype=np.int64)
    current_over = 0
    under: list[int] = []
    exact: list[int] = []
    for i, k in enumerate(n_owned.tolist()):
        if k < min_q:
            keep[i] = k
            under.append(i)
        elif k >= max_q and current_over < expected_over:
            current_over += 1
            if current_over == expected_over:
                exact.clear()
            keep[i] = max_q
        else:
            keep[i] = min_q
            if current_over < expected_over:
                exact.append(i)
    starts = np.zeros(n, dtype=np.int64)
    starts[1:] = np.cumsum(n_owned)[:-1]
    rank = np.arange(len(gid_s)) - starts[mem_s]
    kept = rank < keep[mem_s]
    owner = np.full(total, -1, dtype=np.int64)
    owner[gid_s[kept]] = mem_s[kept]
    maybe_revoked = np.full(total, -1, dtype=np.int64)
    maybe_revoked[gid_s[~kept]] = mem_s[~kept]
    unassigned = np.flatnonzero(owner < 0)

    # -- step 3: round robin (no racks: step 2 does nothing) -----------------------------
    ids = [m.member_id for m in members]
    under.sort(key=lambda i: java_string_key(ids[i]))
    exact.sort(key=lambda i: java_string_key(ids[i]))
    under_arr = np.array(under, dtype=np.int64)
    need = min_q - keep[under_arr] if len(under) else np.zeros(0, dtype=np.int64)
    dealt = int(need.sum())
    if dealt > len(unassigned):
        return None  # Kafka ends in an IllegalStateException: the reference builder says which
    if len(under) and (need == need[0]).all():  # one partition per member per round
        deal = np.tile(under_arr, int(need[0]))
    else:
        pos = np.repeat(np.arange(len(under)), need)
        rounds = np.arange(dealt) - np.repeat(np.cumsum(need) - need, need)
        deal = under_arr[pos[np.argsort(rounds, kind="stable")]]
    reach = under_arr[np.lexsort((np.arange(len(under)), need))]  # order reaching minQuota
    poll = np.concatenate([np.array(exact, dtype=np.int64), reach])
    rest = len(unassigned) - dealt
    if rest > len(poll):
        return None
    event_member = np.concatenate([deal, poll[:rest]])
    owner[unassigned] = event_member
    previous = maybe_revoked[unassigned]
    moving = (previous >= 0) & (previous != event_member)

    # -- outputs ----------------------------------------------------------------------------
    final = owner.copy()
    if cooperative:
        final[unassigned[moving]] = -1
    small = np.int16 if n < 2**15 - 1 else np.int64  # 16-bit keys: numpy's radix sort
    by_member = np.argsort(final.astype(small), kind="stable")
    sorted_owner = final[by_member]
    first = int(np.searchsorted(sorted_owner, 0))  # skip withheld partitions (owner -1)
    per_member = _grouped(topics, offsets, sorted_owner[first:], by_member[first:], n)
    groups = dict(zip(ids, per_member, strict=True))
    revoked: tuple[tuple[str, tuple], ...] = ()
    if cooperative and n_claims:
        lost = final[gid] != mem
        if lost.any():
            rev_mem, rev_gid = mem[lost], gid[lost]
            o = np.lexsort((rev_gid, rev_mem))
            rev_mem, rev_gid = rev_mem[o], rev_gid[o]
            rev = {
                ids[i]: g for i, g in enumerate(_grouped(topics, offsets, rev_mem, rev_gid, n)) if g
            }
            revoked = tuple(
                (m.member_id, rev[m.member_id]) for m in group.members if m.member_id in rev
            )
    result = GroupAssignment(
        tuple((m.member_id, groups[m.member_id]) for m in group.members), revoked
    )
    lists = None
    if ordered:
        ev_gid = np.concatenate([gid_s[kept], unassigned])
        ev_mem = np.concatenate([mem_s[kept], event_member])
        if cooperative:
            stay = np.concatenate([np.ones(int(kept.sum()), dtype=bool), ~moving])
            ev_gid, ev_mem = ev_gid[stay], ev_mem[stay]
        o = np.argsort(ev_mem, kind="stable")
        ev_gid, ev_mem = ev_gid[o], ev_mem[o]
        tids = np.searchsorted(offsets, ev_gid, side="right") - 1
        pairs = list(
            zip([topics[t] for t in tids.tolist()], (ev_gid - offsets[tids]).tolist(), strict=True)
        )
        lb = np.searchsorted(ev_mem, np.arange(n + 1)).tolist()
        lists = {ids[i]: pairs[lb[i] : lb[i + 1]] for i in range(n)}
    return FastConstrained(result, lists)
