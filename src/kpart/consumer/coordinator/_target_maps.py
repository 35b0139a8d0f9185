"""A member's target assignment as Kafka's KIP-848 builders hold it (``Map<Uuid, Set<Integer>>``).

The builders receive each member's current assignment as an immutable map and never copy it
unless they alter it; the first alteration takes a deep copy
(``AssignorHelpers.deepCopyAssignment``: ``new HashMap<>(size)`` filled in iteration order,
``new HashSet<>(partitions)`` per topic) which is then changed in place. Kept for its
iteration order, which the next rebalance sees
(:mod:`kpart.consumer.coordinator.server_simulation`).
"""

from __future__ import annotations

from collections.abc import Callable

from kpart._java.collections import JavaHashMap, JavaHashSet
from kpart._java.uuid import uuid_hash_code

#: [(topic id, [partition, ...]), ...] in Java iteration order.
Parts = list[tuple[int, list[int]]]


class TargetMap:
    """Copy-on-write ``Map<Uuid, Set<Integer>>`` of one member."""

    __slots__ = ("_copy", "_original")

    def __init__(self, original: Parts) -> None:
        self._original = original
        self._copy: JavaHashMap[int, JavaHashSet[int]] | None = None

    def _mutable(self) -> JavaHashMap[int, JavaHashSet[int]]:
        if self._copy is None:
            copy: JavaHashMap[int, JavaHashSet[int]] = JavaHashMap(
                len(self._original), hash_of=uuid_hash_code
            )
            for tid, ps in self._original:
                copy.put(tid, JavaHashSet.copy_of(ps))
            self._copy = copy
        return self._copy

    def touch(self) -> None:
        """Take the deep copy now (what the builders do before any change)."""
        self._mutable()

    def remove_topic(self, tid: int) -> None:
        self._mutable().remove(tid)

    def remove(self, tid: int, partition: int) -> None:
        """Remove a partition; the topic goes when its set becomes empty."""
        m = self._mutable()
        ps = m.get(tid)
        if ps is not None:
            ps.remove(partition)
            if not len(ps):
                m.remove(tid)

    def add(self, tid: int, partition: int, new_set_capacity: int = 16) -> None:
        """``computeIfAbsent(tid, __ -> new HashSet<>(new_set_capacity)).add(partition)``."""
        m = self._mutable()
        new_set: Callable[[], JavaHashSet[int]] = lambda: JavaHashSet(new_set_capacity)  # noqa: E731
        m.compute_if_absent(tid, new_set).add(partition)

    def parts(self) -> Parts:
        """The assignment in Java iteration order."""
        if self._copy is None:
            return [(tid, list(ps)) for tid, ps in self._original]
        return [(tid, list(ps)) for tid, ps in self._copy.items()]
