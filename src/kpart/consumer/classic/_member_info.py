"""``AbstractPartitionAssignor.MemberInfo`` ordering and the metadata view shared by the
classic (eager) assignors.

Kafka sorts the members of a group with ``MemberInfo.compareTo``: static members (with a
``group.instance.id``) first, ordered by instance id; then dynamic members ordered by member
id; both with ``String.compareTo`` (UTF-16 order, see :mod:`kpart._java.strings`).

>>> from kpart.consumer.spec import Member
>>> ms = [Member("b", ()), Member("z", (), group_instance_id="i2"),
...       Member("a", ()), Member("y", (), group_instance_id="i1")]
>>> [m.member_id for m in sort_members(ms)]
['y', 'z', 'a', 'b']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain
from operator import attrgetter
from typing import TypeVar

import numpy as np

from kpart._java.strings import java_string_key
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.spec import GroupSpec, Member

__all__ = [
    "MAX_SUBSCRIPTION_CELLS",
    "SubscriberClasses",
    "canonical_assignment",
    "member_info_key",
    "member_info_order",
    "partitions_per_topic",
    "sort_members",
    "subscriber_classes",
]

#: The array view (:func:`subscriber_classes`) keeps a distinct-subscriptions × topics and a
#: members × subscriber-classes boolean matrix; beyond this many cells it declines.
MAX_SUBSCRIPTION_CELLS = 1 << 26

_K = TypeVar("_K")


def member_info_key(member: Member) -> tuple[int, bytes]:
    """Sort key reproducing ``MemberInfo.compareTo`` (static members first)."""
    if member.group_instance_id is not None:
        return (0, java_string_key(member.group_instance_id))
    return (1, java_string_key(member.member_id))


def sort_members(members: Iterable[Member]) -> list[Member]:
    """Members in ``MemberInfo`` order (stable for ties, like ``Collections.sort``)."""
    return sorted(members, key=member_info_key)


def member_info_order(members: Sequence[Member]) -> list[int]:
    """Positions in ``members`` of the members in ``MemberInfo`` order (:func:`sort_members`
    as indices: ``[members[i] for i in member_info_order(members)] == sort_members(members)``).
    """
    keys = list(map(member_info_key, members))
    return sorted(range(len(members)), key=keys.__getitem__)


def partitions_per_topic(group: GroupSpec) -> dict[str, int]:
    """``AbstractPartitionAssignor.assign``: partition count of every subscribed topic present
    in the metadata with at least one partition (others are skipped, as Kafka does), in
    first-subscribed order. Members with the same topic tuple are read once: large groups
    mostly share one subscription."""
    out: dict[str, int] = {}
    for topics in dict.fromkeys(m.topics for m in group.members):
        for t in topics:
            if t not in out:
                n = group.num_partitions(t)
                if n:
                    out[t] = n
    return out


def canonical_assignment(
    out: dict[str, dict[str, list[int]]], *, presorted: bool = False
) -> GroupAssignment:
    """A :class:`GroupAssignment` from ``member → {topic: [partitions]}`` (members in the given
    order; topics and partitions sorted, as :meth:`GroupAssignment.from_pairs` does).
    ``presorted``: the caller guarantees topics were inserted in sorted order and partition
    lists are sorted (skips the sorting)."""
    if presorted:
        return GroupAssignment(
            tuple(
                (m, tuple((t, tuple(ps)) for t, ps in by_topic.items() if ps))
                for m, by_topic in out.items()
            )
        )
    return GroupAssignment(
        tuple(
            (m, tuple((t, tuple(sorted(ps))) for t, ps in sorted(by_topic.items()) if ps))
            for m, by_topic in out.items()
        )
    )


@dataclass(frozen=True, slots=True)
class SubscriberClasses:
    """The group's subscriptions as arrays (the view of the Range and RoundRobin array paths).

    - ``topics``: the subscribed topics present in the metadata with at least one partition
      (:func:`partitions_per_topic`), sorted by code point (the canonical order of
      :class:`~kpart.consumer._columns.AssignmentColumns`); ``counts[t]``/``offsets[t]``: their
      partition counts and first partition index (partition ``(topics[t], p)`` is index
      ``offsets[t] + p`` of ``total``).
    - ``order``: int array, ``order[r]`` = position in ``group.members`` of the member of rank
      ``r`` in ``MemberInfo`` order (ranks are what the algorithms work on).
    - Topics with the same subscribers form a *class*: ``topic_class[t]`` (int array, shape
      ``(T,)``); class ``k``'s subscribers are the ranks ``members[starts[k]:starts[k + 1]]``
      (increasing), ``sizes[k]`` of them.
    """

    topics: list[str]
    counts: np.ndarray
    offsets: np.ndarray
    total: int
    order: np.ndarray
    topic_class: np.ndarray
    members: np.ndarray
    starts: np.ndarray
    sizes: np.ndarray

    def class_members(self, k: int) -> np.ndarray:
        """The ranks subscribed to class ``k``'s topics, increasing."""
        return self.members[self.starts[k] : self.starts[k + 1]]


class _Numbering(dict[_K, int]):
    """Key → its number, numbering new keys in the order they are met (C-level lookups)."""

    def __missing__(self, key: _K) -> int:
        n = self[key] = len(self)
        return n


def subscriber_classes(group: GroupSpec) -> SubscriberClasses | None:
    """:class:`SubscriberClasses` of ``group`` (repeated topics in a subscription count once,
    topics missing from the metadata or without partitions are left out), or ``None`` when
    its matrices would exceed :data:`MAX_SUBSCRIPTION_CELLS` cells (many distinct
    subscriptions over many topics). Members with one topic tuple are read once.

    >>> from kpart.consumer.spec import GroupSpec
    >>> g = GroupSpec.from_json({"topics": {"a": 2, "b": 1, "z": 0},
    ...                          "members": [{"id": "m1", "topics": ["b", "a", "z"]},
    ...                                      {"id": "m0", "topics": ["a", "a"]}]})
    >>> v = subscriber_classes(g)
    >>> v.topics, v.counts.tolist(), v.order.tolist()
    (['a', 'b'], [2, 1], [1, 0])
    >>> [v.class_members(k).tolist() for k in v.topic_class.tolist()]
    [[0, 1], [1]]
    """
    order = member_info_order(group.members)
    subscriptions = _Numbering[tuple[str, ...]]()  # distinct topic tuples, first-met order
    sub_of_rank = np.fromiter(
        map(subscriptions.__getitem__, map(attrgetter("topics"), map(group.members.__getitem__,
                                                                    order))),
        np.int64, len(order))
    names = _Numbering[str]()
    codes = np.fromiter(map(names.__getitem__, chain.from_iterable(subscriptions)), np.int64)
    valid = [t for t in names if group.num_partitions(t)]
    topics = sorted(valid)
    n_topics, n_subs, n_members = len(topics), len(subscriptions), len(order)
    if n_subs * n_topics > MAX_SUBSCRIPTION_CELLS:
        return None
    column = np.full(len(names) + 1, -1, dtype=np.int64)  # name code -> topic index
    column[np.fromiter(map(names.__getitem__, topics), np.int64, n_topics)] = np.arange(n_topics)
    counts = np.fromiter(map(group.num_partitions, topics), np.int64, n_topics)
    offsets = np.zeros(n_topics, dtype=np.int64)
    np.cumsum(counts[:-1], out=offsets[1:])
    subscribed = np.zeros((n_subs, n_topics), dtype=bool)
    cols = column[codes]
    row = np.repeat(np.arange(n_subs), np.fromiter(map(len, subscriptions), np.int64, n_subs))
    subscribed[row[cols >= 0], cols[cols >= 0]] = True
    if n_subs == 1 or not n_topics:  # equal subscriptions: one class, every member
        topic_class = np.zeros(n_topics, dtype=np.int64)
        members = np.arange(n_members, dtype=np.int64)
        starts = np.array([0, n_members], dtype=np.int64)
    else:
        # A class = a distinct column of ``subscribed`` (the set of subscriptions holding it).
        _, first, topic_class = np.unique(
            np.packbits(subscribed, axis=0).T, axis=0, return_index=True, return_inverse=True
        )
        topic_class = topic_class.reshape(-1)
        if n_members * len(first) > MAX_SUBSCRIPTION_CELLS:
            return None
        k, members = np.nonzero(subscribed[:, first][sub_of_rank].T)
        starts = np.searchsorted(k, np.arange(len(first) + 1))
    return SubscriberClasses(
        topics, counts, offsets, int(counts.sum()), np.array(order, dtype=np.int64),
        topic_class.astype(np.int64), members.astype(np.int64), starts.astype(np.int64),
        np.diff(starts),
    )
