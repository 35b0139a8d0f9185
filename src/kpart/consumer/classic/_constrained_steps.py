"""The steps of ``AbstractStickyAssignor.ConstrainedAssignmentBuilder`` on numpy arrays (used by
:mod:`kpart.consumer.classic._constrained_arrays`): the partition layout, the owned partitions
as claims, ``assignOwnedPartitions`` and ``assignRoundRobin``.

Partition ``(topic, p)`` is numbered ``offset[topic] + p`` with topics in ``String.compareTo``
order, so index order is Kafka's ``TreeSet``/two-pointer order (``getUnassignedPartitions``).
The round robin of Kafka's step 3 is "deal one partition per round to each member still under
``minQuota`` (in list order), then one each to the members polled from the ``minQuota``
list": both are closed forms here.

>>> from kpart.consumer.spec import GroupSpec
>>> g = GroupSpec.from_json({"topics": {"b": 2, "a": 1}, "members": [
...     {"id": "C0", "topics": ["b", "a"], "owned": [["b", [1]]]},
...     {"id": "C1", "topics": ["b", "a"]}]})
>>> layout = partition_layout(g, g.members)
>>> layout.topics, layout.offsets.tolist()
(['a', 'b'], [0, 1])
>>> claims = owned_claims(layout, [MemberData(m.owned_partitions, 1) for m in g.members])
>>> claims.gid.tolist(), claims.mem.tolist()
([2], [0])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from operator import itemgetter

import numpy as np

from kpart._java.strings import java_string_key
from kpart.consumer.classic.abstract_sticky_assignor import MemberData
from kpart.consumer.spec import GroupSpec, Member

__all__ = [
    "Claims",
    "Layout",
    "Owned",
    "assign_owned_partitions",
    "assign_round_robin",
    "owned_claims",
    "partition_layout",
    "subscriptions_equal",
]


def subscriptions_equal(members: Sequence[Member]) -> bool:
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


@dataclass(frozen=True, slots=True)
class Layout:
    """The subscribed topics (``String.compareTo`` order) and their partitions: partition
    ``(topics[t], p)`` is index ``offsets[t] + p`` of ``total``."""

    topics: list[str]
    index: dict[str, int]
    counts: np.ndarray
    offsets: np.ndarray
    total: int


@dataclass(frozen=True, slots=True)
class Claims:
    """Every owned partition as one claim, member-major in decoded order: topic index
    ``tid``, partition ``p``, claiming member ``mem`` and partition index ``gid``."""

    tid: np.ndarray
    p: np.ndarray
    mem: np.ndarray
    gid: np.ndarray

    def __len__(self) -> int:
        return len(self.gid)

    def take(self, which: np.ndarray) -> Claims:
        """The claims selected by the boolean mask ``which``, in order."""
        return Claims(self.tid[which], self.p[which], self.mem[which], self.gid[which])


@dataclass(frozen=True, slots=True)
class Owned:
    """``assignOwnedPartitions``' outcome: ``keep`` (per member, how many owned partitions it
    keeps), which claims are ``kept``, the ``owner`` of every partition (``-1``: unassigned),
    the member each released partition may be revoked from (``maybe_revoked``, ``-1``: none),
    the ``under`` (below ``minQuota``) and ``exact`` (at ``minQuota``, may take one more)
    members, ``by_claim`` (claims in each member's kept-list order, ``ordered`` only) and
    ``current_over`` (members keeping ``maxQuota``)."""

    keep: np.ndarray
    kept: np.ndarray
    owner: np.ndarray
    maybe_revoked: np.ndarray
    under: list[int]
    exact: list[int]
    by_claim: np.ndarray | None
    current_over: int


def partition_layout(group: GroupSpec, members: Sequence[Member]) -> Layout | None:
    """``partitionsPerTopic`` of the common subscription, or ``None`` when the array form
    does not apply (no member, unequal subscriptions, Java and Python orders of the topic
    names differ)."""
    if not members or not subscriptions_equal(members):
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
    return Layout(topics, {t: i for i, t in enumerate(topics)}, counts, offsets,
                   int(counts.sum()))


def owned_claims(layout: Layout, data: Sequence[MemberData]) -> Claims | None:
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
    return Claims(tid, p, mem, gid)


def assign_owned_partitions(
    layout: Layout, claims: Claims, n: int, ordered: bool
) -> Owned:
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
    owner = np.full(total, -1, dtype=np.int32)
    owner[claims.gid[kept]] = mem[kept]
    maybe_revoked = np.full(total, -1, dtype=np.int32)
    maybe_revoked[claims.gid[~kept]] = mem[~kept]
    return Owned(keep, kept, owner, maybe_revoked, under, exact, by_claim, current_over)


def assign_round_robin(
    under: list[int], exact: list[int], count: np.ndarray, n_unassigned: int, min_q: int
) -> np.ndarray | None:
    """Kafka's step 3, ``assignRoundRobin``: the member each of ``n_unassigned`` partitions
    goes to, given the members below ``minQuota`` and at ``minQuota`` (in Kafka's list order)
    and each member's assignment size ``count``; ``None`` where Kafka ends in an
    ``IllegalStateException`` (the reference builder says which). One partition per round to
    each member still under ``minQuota`` (in list order), then one each to the members polled
    from the ``minQuota`` list, both in closed form."""
    under_arr = np.array(under, dtype=np.int64)
    need = min_q - count[under_arr] if len(under) else np.zeros(0, dtype=np.int64)
    dealt = int(need.sum())
    if dealt > n_unassigned:
        return None
    if len(under) and (need == need[0]).all():  # one partition per member per round
        deal = np.tile(under_arr, int(need[0]))
    else:
        pos = np.repeat(np.arange(len(under)), need)
        rounds = np.arange(dealt) - np.repeat(np.cumsum(need) - need, need)
        deal = under_arr[pos[np.argsort(rounds, kind="stable")]]
    reach = under_arr[np.lexsort((np.arange(len(under)), need))]  # order reaching minQuota
    poll = np.concatenate([np.array(exact, dtype=np.int64), reach])
    rest = n_unassigned - dealt
    if rest > len(poll):
        return None
    return np.concatenate([deal, poll[:rest]])
