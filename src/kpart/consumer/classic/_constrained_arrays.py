"""``AbstractStickyAssignor.ConstrainedAssignmentBuilder`` on numpy arrays, for large groups.

The same decisions as :mod:`kpart.consumer.classic._constrained_builder` (which stays the
reference), computed on partition indices instead of per-partition Python objects. It covers
the common case and declines (returns ``None``, the caller then runs the reference builder)
whenever a rarer rule could apply:

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from operator import itemgetter

import numpy as np

from kpart._java.strings import java_string_key
from kpart.consumer._columns import AssignmentColumns
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.classic.abstract_sticky_assignor import MemberData, subscription_order
from kpart.consumer.spec import GroupSpec, Member

__all__ = ["ARRAY_THRESHOLD", "FastConstrained", "fast_constrained", "try_array_form"]

#: Below this many partitions in the metadata the object-based builder is faster.
ARRAY_THRESHOLD = 2048

TP = tuple[str, int]


class FastConstrained:
    """Result of :func:`fast_constrained`: the canonical assignment (deferred: its tuples are
    built on first use) and, on request, each member's Kafka list order."""

    __slots__ = ("assignment", "lists")

    def __init__(self, assignment: GroupAssignment, lists: dict[str, list[TP]] | None) -> None:
        self.assignment = assignment
        self.lists = lists


def _subscriptions_equal(members: Sequence[Member]) -> bool:
    """``allSubscriptionsEqual``'s test: every later member's topic list has the first one's
    set size and is contained in it (a list repeating a topic is therefore not equal)."""
    first = members[0].topics
    subscribed = set(first)
    same_list_is_equal = len(first) == len(subscribed)  # no repeated topic in the first list
    for m in members[1:]:
        if same_list_is_equal and m.topics == first:  # the common case: no set to build
            continue
        if not (len(m.topics) == len(subscribed) and subscribed.issuperset(m.topics)):
            return False
    return True


def try_array_form(
    group: GroupSpec,
    member_data: Callable[[Member], MemberData],
    cooperative: bool,
    ordered: bool = False,
) -> FastConstrained | None:
    """:func:`fast_constrained` for a group of at least :data:`ARRAY_THRESHOLD` partitions
    (members in subscription-map order, ``member_data`` the assignor's decoding), else
    ``None``: the caller then runs the object-based port."""
    if sum(t.num_partitions for t in group.topics) < ARRAY_THRESHOLD:
        return None
    members = subscription_order(group)
    data = [member_data(m) for m in members]
    return fast_constrained(group, members, data, cooperative, ordered)


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


@dataclass(frozen=True, slots=True)
class _Layout:
    """The subscribed topics (``String.compareTo`` order) and their partitions: partition
    ``(topics[t], p)`` is index ``offsets[t] + p`` of ``total``."""

    topics: list[str]
    index: dict[str, int]
    counts: np.ndarray
    offsets: np.ndarray
    total: int


@dataclass(frozen=True, slots=True)
class _Claims:
    """Every owned partition as one claim, member-major in decoded order: topic index
    ``tid``, partition ``p``, claiming member ``mem`` and partition index ``gid``."""

    tid: np.ndarray
    p: np.ndarray
    mem: np.ndarray
    gid: np.ndarray

    def __len__(self) -> int:
        return len(self.gid)


@dataclass(frozen=True, slots=True)
class _Owned:
    """``assignOwnedPartitions``' outcome: ``keep`` (per member, how many owned partitions it
    keeps), which claims are ``kept``, the ``owner`` of every partition (``-1``: unassigned),
    the member each released partition may be revoked from (``maybe_revoked``, ``-1``: none),
    the ``under`` (below ``minQuota``) and ``exact`` (at ``minQuota``, may take one more)
    members, and ``by_claim`` (claims in each member's kept-list order, ``ordered`` only)."""

    keep: np.ndarray
    kept: np.ndarray
    owner: np.ndarray
    maybe_revoked: np.ndarray
    under: list[int]
    exact: list[int]
    by_claim: np.ndarray | None


def _partition_layout(group: GroupSpec, members: Sequence[Member]) -> _Layout | None:
    """``partitionsPerTopic`` of the common subscription, or ``None`` when the array form
    does not apply (no member, racks, unequal subscriptions, Java and Python orders of the
    topic names differ)."""
    if not members or any(m.rack for m in members) or not _subscriptions_equal(members):
        return None
    ppt: dict[str, int] = {}
    for t in members[0].topics:  # every member subscribes to the same topics
        if t not in ppt:
            k = group.num_partitions(t)
            if k:
                ppt[t] = k
    topics = sorted(ppt, key=java_string_key)
    if topics != sorted(ppt):
        return None
    counts = np.array([ppt[t] for t in topics], dtype=np.int64)
    offsets = np.zeros(len(topics), dtype=np.int64)
    if len(topics) > 1:
        offsets[1:] = np.cumsum(counts)[:-1]
    return _Layout(topics, {t: i for i, t in enumerate(topics)}, counts, offsets,
                   int(counts.sum()))


def _owned_claims(layout: _Layout, data: Sequence[MemberData]) -> _Claims | None:
    """The members' owned partitions (``consumerToOwnedPartitions``) as claims, or ``None``
    for a topic outside the layout, a partition beyond its topic's count or a partition
    claimed twice (the reference builder handles those)."""
    owned = [md.owned for md in data]
    flat_groups = list(chain.from_iterable(owned))  # C-level passes over the input tuples
    n_groups = len(flat_groups)
    grp_ps = list(map(itemgetter(1), flat_groups))
    grp_t = np.fromiter(
        map(layout.index.get, map(itemgetter(0), flat_groups), repeat(-1)), np.int64, n_groups
    )
    grp_len = np.fromiter(map(len, grp_ps), np.int64, n_groups)
    n_claims = int(grp_len.sum()) if n_groups else 0
    p = np.fromiter(chain.from_iterable(grp_ps), np.int64, n_claims)
    if n_groups and grp_t.min() < 0:
        return None
    tid = np.repeat(grp_t, grp_len)
    group_member = np.repeat(np.arange(len(data)), np.fromiter(map(len, owned), np.int64,
                                                                len(data)))
    mem = np.repeat(group_member, grp_len)
    if n_claims and (p.min() < 0 or np.any(p >= layout.counts[tid])):
        return None
    gid = layout.offsets[tid] + p
    if n_claims and np.bincount(gid, minlength=layout.total).max() > 1:
        return None
    return _Claims(tid, p, mem, gid)


def _assign_owned_partitions(
    layout: _Layout, claims: _Claims, n: int, ordered: bool
) -> _Owned:
    """Kafka's step 1, ``assignOwnedPartitions``: members (in map order) keep their owned
    partitions up to ``minQuota``, or ``maxQuota`` while members above ``minQuota`` are still
    expected; which ones: the first ``keep`` of its partitions sorted by partition, then
    topic. Only members owning more than they keep need the sort (all, for the lists)."""
    total, mem = layout.total, claims.mem
    min_q, max_q = total // n, -(-total // n)
    expected_over = total % n
    keep = np.empty(n, dtype=np.int64)
    current_over = 0
    under: list[int] = []
    exact: list[int] = []
    n_owned = np.bincount(mem, minlength=n)
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
    kept = np.ones(len(claims), dtype=bool)
    excess = n_owned > keep
    by_claim = None
    if ordered or excess.any():
        sel = np.arange(len(claims)) if ordered else np.flatnonzero(excess[mem])
        o = sel[np.lexsort((claims.tid[sel], claims.p[sel], mem[sel]))]
        mem_o = mem[o]
        rank = np.arange(len(o)) - np.searchsorted(mem_o, mem_o, side="left")
        kept[o[rank >= keep[mem_o]]] = False
        if ordered:
            by_claim = o
    owner = np.full(total, -1, dtype=np.int64)
    owner[claims.gid[kept]] = mem[kept]
    maybe_revoked = np.full(total, -1, dtype=np.int64)
    maybe_revoked[claims.gid[~kept]] = mem[~kept]
    return _Owned(keep, kept, owner, maybe_revoked, under, exact, by_claim)


def _assign_round_robin(
    owned: _Owned, unassigned: np.ndarray, ids: list[str], min_q: int
) -> np.ndarray | None:
    """Kafka's step 3, ``assignRoundRobin`` (no racks: step 2 does nothing): the member
    each ``unassigned`` partition goes to, or ``None`` where Kafka ends in an
    ``IllegalStateException`` (the reference builder says which). One partition per round to
    each member still under ``minQuota`` (in id order), then one each to the members polled
    from the ``minQuota`` list, both in closed form."""
    under = sorted(owned.under, key=lambda i: java_string_key(ids[i]))
    exact = sorted(owned.exact, key=lambda i: java_string_key(ids[i]))
    under_arr = np.array(under, dtype=np.int64)
    need = min_q - owned.keep[under_arr] if len(under) else np.zeros(0, dtype=np.int64)
    dealt = int(need.sum())
    if dealt > len(unassigned):
        return None
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
    return np.concatenate([deal, poll[:rest]])


def _member_lists(
    layout: _Layout,
    claims: _Claims,
    owned: _Owned,
    unassigned: np.ndarray,
    event_member: np.ndarray,
    withheld: np.ndarray | None,
    ids: list[str],
) -> dict[str, list[TP]]:
    """Each member's partitions in the order of Kafka's assignment list: kept owned
    partitions first (sorted), then the round robin's, without the ``withheld`` ones
    (cooperative: changing owner)."""
    by_claim, kept = owned.by_claim, owned.kept
    assert by_claim is not None
    ev_gid = np.concatenate([claims.gid[by_claim][kept[by_claim]], unassigned])
    ev_mem = np.concatenate([claims.mem[by_claim][kept[by_claim]], event_member])
    if withheld is not None:
        stay = np.concatenate([np.ones(int(kept.sum()), dtype=bool), ~withheld])
        ev_gid, ev_mem = ev_gid[stay], ev_mem[stay]
    o = np.argsort(ev_mem, kind="stable")
    ev_gid, ev_mem = ev_gid[o], ev_mem[o]
    offsets, topics = layout.offsets, layout.topics
    tids = np.searchsorted(offsets, ev_gid, side="right") - 1
    pairs = list(
        zip([topics[t] for t in tids.tolist()], (ev_gid - offsets[tids]).tolist(), strict=True)
    )
    lb = np.searchsorted(ev_mem, np.arange(len(ids) + 1)).tolist()
    return {ids[i]: pairs[lb[i] : lb[i + 1]] for i in range(len(ids))}


def _fast_constrained(
    group: GroupSpec,
    members: Sequence[Member],
    data: Sequence[MemberData],
    cooperative: bool,
    ordered: bool = False,
) -> FastConstrained | None:
    layout = _partition_layout(group, members)
    claims = None if layout is None else _owned_claims(layout, data)
    if layout is None or claims is None:
        return None
    n = len(members)
    owned = _assign_owned_partitions(layout, claims, n, ordered)
    unassigned = np.flatnonzero(owned.owner < 0)
    ids = [m.member_id for m in members]
    event_member = _assign_round_robin(owned, unassigned, ids, layout.total // n)
    if event_member is None:
        return None
    owner = owned.owner
    owner[unassigned] = event_member
    previous = owned.maybe_revoked[unassigned]
    moving = (previous >= 0) & (previous != event_member)

    # -- outputs: cooperative assignors withhold partitions changing owner (revoked first) --
    final = owner
    rev_mem = rev_gid = None
    if cooperative:
        final = owner.copy()
        final[unassigned[moving]] = -1
        lost = final[claims.gid] != claims.mem
        if lost.any():
            rev_mem, rev_gid = claims.mem[lost], claims.gid[lost]
    out_index = {mid: i for i, mid in enumerate(ids)}
    out_order = [out_index[m.member_id] for m in group.members]
    position = np.empty(n, dtype=np.int64)  # subscription-map index -> output position
    position[out_order] = np.arange(n)
    out_owner = np.where(final >= 0, position[final], -1)
    out_ids = [ids[i] for i in out_order]
    revoked = None
    if rev_mem is not None and rev_gid is not None:
        rev_owner = np.full(layout.total, -1, dtype=np.int64)
        rev_owner[rev_gid] = position[rev_mem]
        revoked = AssignmentColumns(out_ids, layout.topics, layout.counts, rev_owner)
    result = GroupAssignment.from_columns(
        AssignmentColumns(out_ids, layout.topics, layout.counts, out_owner), revoked
    )
    lists = None
    if ordered:
        lists = _member_lists(layout, claims, owned, unassigned, event_member,
                              moving if cooperative else None, ids)
    return FastConstrained(result, lists)
