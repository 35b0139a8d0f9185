"""``AbstractStickyAssignor.PartitionMovements``: the partition moves of one general-path
rebalance, used to move back a partition of the same topic instead of creating a cycle.

``get_the_actual_partition_to_be_moved`` picks "any" partition moved the opposite way; Kafka
takes the first element of a ``HashSet<TopicPartition>``, so the choice depends on Java's
``TopicPartition.hashCode`` bucket order, emulated with :class:`kpart._java.collections.JavaHashSet`.

>>> pm = PartitionMovements()
>>> pm.move_partition(("t", 1), "a", "b")
>>> pm.get_the_actual_partition_to_be_moved(("t", 2), "b", "a")
('t', 1)
"""

from __future__ import annotations

from kpart._java.collections import JavaHashSet

__all__ = ["PartitionMovements"]

TP = tuple[str, int]
Pair = tuple[str, str]


class PartitionMovements:
    """Moves recorded as partition → (source, destination), grouped by topic and pair."""

    __slots__ = ("by_topic", "movements")

    def __init__(self) -> None:
        self.movements: dict[TP, Pair] = {}
        self.by_topic: dict[str, dict[Pair, JavaHashSet[TP]]] = {}

    def _remove_record(self, tp: TP) -> Pair:
        pair = self.movements.pop(tp)
        per_topic = self.by_topic[tp[0]]
        moved = per_topic[pair]
        moved.remove(tp)
        if not len(moved):
            del per_topic[pair]
        if not per_topic:
            del self.by_topic[tp[0]]
        return pair

    def _add_record(self, tp: TP, pair: Pair) -> None:
        self.movements[tp] = pair
        per_topic = self.by_topic.setdefault(tp[0], {})
        moved = per_topic.get(pair)
        if moved is None:
            moved = per_topic[pair] = JavaHashSet()
        moved.add(tp)

    def move_partition(self, tp: TP, old: str, new: str) -> None:
        if tp in self.movements:
            src = self._remove_record(tp)[0]
            if src != new:
                self._add_record(tp, (src, new))
        else:
            self._add_record(tp, (old, new))

    def get_the_actual_partition_to_be_moved(self, tp: TP, old: str, new: str) -> TP:
        per_topic = self.by_topic.get(tp[0])
        if per_topic is None:
            return tp
        if tp in self.movements:
            old = self.movements[tp][0]
        reverse = per_topic.get((new, old))
        if reverse is None:
            return tp
        return reverse.first()
