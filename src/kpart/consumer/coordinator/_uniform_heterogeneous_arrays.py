"""``org.apache.kafka.coordinator.group.assignor.UniformHeterogeneousAssignmentBuilder`` on arrays (KIP-848).

The array form of :mod:`kpart.consumer.coordinator._uniform_heterogeneous` (the reference),
with members numbered in ``GroupSpec.memberIds()`` order and one owner per partition:

1. ``maybeRevokePartitions``: each member keeps its current partitions of topics it
   subscribes to.
2. ``assignRemainingPartitions``: topics in the builder's order (partitions per subscriber
   descending, subscribers ascending, ``Uuid.compareTo``); a topic's free partitions go, in
   ascending order, to the sequence its ``MemberAssignmentBalancer`` yields. That sequence is
   water filling: with the subscribers sorted by (load, member), level ``c`` hands one
   partition to each subscriber whose load at the start was ``<= c``, in that order, for
   ``c`` from the lowest load up. :func:`_fill` computes it for all of a topic's partitions at
   once.
3. ``balance``: topics with two or more subscribers, in the same order, at most 16 passes.
   A topic whose subscribers' loads differ by at most one is skipped with one
   ``max - min``; any other runs the reference balancer (``_MemberAssignmentBalancer``) on that
   topic's subscribers only.

Declines (``None``: the object path runs) when a partition is owned twice or a deleted-topic
reference names a topic of the metadata.
"""

from __future__ import annotations

import numpy as np

from kpart.consumer._columns import AssignmentColumns
from kpart.consumer.coordinator._spec_arrays import SpecArrays
from kpart.consumer.coordinator._uniform_heterogeneous import (
    MAX_ITERATION_COUNT,
    _MemberAssignmentBalancer,
)

__all__ = ["heterogeneous_columns"]


def _topic_subscribers(arrays: SpecArrays, order: np.ndarray) -> dict[int, np.ndarray]:
    """Topic position → its subscribers (member numbers in ``order``, ascending), topics in
    position order; topics with the same subscribing classes share one array."""
    member_class = arrays.member_class[order]
    by_class = np.argsort(member_class, kind="stable")
    cuts = np.searchsorted(member_class[by_class], np.arange(len(arrays.class_topics) + 1))
    classes_of: dict[int, list[int]] = {}
    for c, topics in enumerate(arrays.class_topics):
        for t in topics.tolist():
            classes_of.setdefault(t, []).append(c)
    shared: dict[tuple[int, ...], np.ndarray] = {}
    out: dict[int, np.ndarray] = {}
    for t in sorted(classes_of):
        key = tuple(classes_of[t])
        subs = shared.get(key)
        if subs is None:
            parts = [by_class[cuts[c] : cuts[c + 1]] for c in key]
            subs = parts[0] if len(parts) == 1 else np.sort(np.concatenate(parts))
            shared[key] = subs
        out[t] = subs
    return out


def _fill(subs: np.ndarray, sizes: np.ndarray, count: int) -> np.ndarray:
    """The first ``count`` members ``next_least_loaded_member`` yields for subscribers
    ``subs`` (ascending) with loads ``sizes``: water filling by levels (module docstring).
    Updates ``sizes``."""
    loads = sizes[subs]
    lowest = np.flatnonzero(loads == loads.min())
    if len(lowest) >= count:  # the first level suffices: the least loaded, in member order
        chosen = subs[lowest[:count]]
        sizes[chosen] += 1
        return chosen
    by_load = np.argsort(loads, kind="stable")
    ranked, levels = subs[by_load], loads[by_load]
    values, firsts = np.unique(levels, return_index=True)
    width = np.append(firsts[1:], len(subs))  # members at or below each distinct load
    slots = width[:-1] * np.diff(values)  # partitions handed out before the next load
    starts = np.zeros(len(values), dtype=np.int64)
    np.cumsum(slots, out=starts[1:])
    f = np.arange(count, dtype=np.int64)
    segment = np.searchsorted(starts, f, side="right") - 1
    position = (f - starts[segment]) % width[segment]
    sizes[ranked] += np.bincount(position, minlength=len(subs))
    return ranked[position]  # type: ignore[no-any-return]


def _balance_topic(subs: np.ndarray, sizes: np.ndarray, owner: np.ndarray) -> int:
    """``balanceTopic`` on one topic (``owner``: a view of its partitions' owners), with the
    reference balancer on its subscribers (numbered 0..k-1 in member order). Returns the
    number of partitions moved; updates ``sizes`` and ``owner``."""
    local = sizes[subs].tolist()
    balancer = _MemberAssignmentBalancer(local)
    if balancer.initialize(list(range(len(subs)))) <= 1:
        return 0
    holder = np.searchsorted(subs, owner)  # every partition is held by a subscriber
    partitions = np.argsort(holder, kind="stable")
    grouped = holder[partitions]
    members = np.arange(len(subs))
    start = np.searchsorted(grouped, members, side="left").tolist()
    end = np.searchsorted(grouped, members, side="right").tolist()
    plist = partitions.tolist()
    current = holder.tolist()
    moves: dict[int, int] = {}
    while not balancer.is_balanced():
        most = balancer.next_most_loaded_member()
        while most != -1 and end[most] - start[most] <= 0:
            balancer.exclude_most_loaded_member()
            most = balancer.next_most_loaded_member()
        if most == -1:
            break
        end[most] -= 1
        p = plist[end[most]]
        least = balancer.next_least_loaded_member()
        if balancer.is_balanced():
            break
        local[current[p]] -= 1
        local[least] += 1
        current[p] = least
        moves[p] = least
    if moves:
        moved = np.fromiter(moves, dtype=np.int64, count=len(moves))
        owner[moved] = subs[np.fromiter(moves.values(), dtype=np.int64, count=len(moves))]
        sizes[subs] = local
    return len(moves)


class _Builder:
    """One build: ``owner`` (member numbers, ``-1`` free) and ``sizes`` over the layout."""

    def __init__(self, arrays: SpecArrays, order: np.ndarray) -> None:
        self.arrays = arrays
        self.subscribers = _topic_subscribers(arrays, order)
        self.owner = np.full(arrays.total, -1, dtype=np.int64)
        self.sizes = np.zeros(len(order), dtype=np.int64)

    def sorted_topics(self, topics: list[int]) -> list[int]:
        """``topics`` in the builder's order: partitions per subscriber descending, then
        subscribers ascending, then ``Uuid.compareTo``."""
        if not topics:
            return []
        t = np.array(topics, dtype=np.int64)
        n = self.arrays.counts[t]
        k = np.array([len(self.subscribers[x]) for x in topics], dtype=np.int64)
        order = np.lexsort((self.arrays.uuid_rank[t], k, -(n / k)))
        return t[order].tolist()  # type: ignore[no-any-return]

    def view(self, t: int) -> np.ndarray:
        offsets = self.arrays.offsets
        return self.owner[offsets[t] : offsets[t + 1]]

    def assign_remaining_partitions(self) -> None:
        for t in self.sorted_topics(list(self.subscribers)):
            owner = self.view(t)
            free = np.flatnonzero(owner < 0)
            if len(free):
                owner[free] = _fill(self.subscribers[t], self.sizes, len(free))

    def balance(self) -> None:
        topics = self.sorted_topics([t for t, s in self.subscribers.items() if len(s) >= 2])
        last_rebalanced = -1
        sizes = self.sizes
        for _ in range(MAX_ITERATION_COUNT):
            for topic_index, t in enumerate(topics):
                if topic_index == last_rebalanced:
                    return
                subs = self.subscribers[t]
                loads = sizes[subs]
                moved = 0
                if int(loads.max()) - int(loads.min()) > 1:
                    moved = _balance_topic(subs, sizes, self.view(t))
                if moved > 0 or last_rebalanced == -1:
                    last_rebalanced = topic_index


def heterogeneous_columns(arrays: SpecArrays) -> AssignmentColumns | None:
    """The heterogeneous builder's result as columns, or ``None`` to decline."""
    order = arrays.map_order()
    builder = _Builder(arrays, order)
    if not builder.subscribers:
        return arrays.columns(builder.owner)
    current = arrays.current_owned(order, arrays.class_topics)
    if current is None:
        return None
    member, owned = current
    builder.owner[owned] = member
    builder.sizes += np.bincount(member, minlength=len(order))
    builder.assign_remaining_partitions()
    builder.balance()
    owner = builder.owner
    return arrays.columns(np.where(owner >= 0, order[owner], -1))
