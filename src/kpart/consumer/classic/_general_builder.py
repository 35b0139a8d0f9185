"""``AbstractStickyAssignor.GeneralAssignmentBuilder``: the sticky assignors' path when members
subscribe to different topics (rack-aware per KIP-881).

Steps, as in Kafka: keep every still-valid owned partition (rack-matching only, when
rack-aware); assign the others, partition by partition (topics with fewest subscribers first),
to the least-loaded subscriber (same-rack subscribers first); then move partitions from
members with 2+ more partitions than another subscriber, preferring the previous generation's
owner and moving back partitions of the same topic instead of creating cycles; finally keep
the result only if its balance score improved (or nothing was owned before).

>>> b = GeneralBuilder({"t0": 1, "t1": 2}, RackInfo({}, {}, {}),
...                    {"a": [], "b": []}, {"a": ("t0",), "b": ("t0", "t1")}, {})
>>> b.build()
{'a': [('t0', 0)], 'b': [('t1', 0), ('t1', 1)]}
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterator, Mapping, Sequence
from heapq import heappop, heappush

from kpart._java.collections import JavaHashSet
from kpart._java.hashing import hashmap_capacity, hashmap_order
from kpart._java.strings import java_string_key
from kpart.consumer.classic._balance_index import BalanceIndex
from kpart.consumer.classic._partition_movements import PartitionMovements
from kpart.consumer.classic._sticky_rack import RackInfo

__all__ = ["GeneralBuilder"]

TP = tuple[str, int]


class _SortedConsumers:
    """``TreeSet<String>`` ordered by (current assignment size, member id), plus per topic a
    lazy min-heap answering "first subscriber of this topic in the set's order" without
    walking the set (each heap holds, for every subscriber, an entry ≤ its current key; sizes
    that grow are refreshed when they reach the top, sizes that shrink are pushed at once)."""

    __slots__ = ("_assignment", "_heaps", "_items", "_keys", "_known", "_topics_of")

    def __init__(
        self, assignment: Mapping[str, list[TP]], topics_of: Mapping[str, Sequence[str]]
    ) -> None:
        self._assignment = assignment
        self._topics_of = topics_of
        self._items: list[tuple[int, bytes, str]] = []
        self._keys: dict[str, tuple[int, bytes, str]] = {}
        self._known: dict[str, tuple[int, bytes, str]] = {}
        self._heaps: dict[str, list[tuple[int, bytes, str]]] = {}

    def add(self, c: str) -> None:
        key = (len(self._assignment[c]), java_string_key(c), c)
        self._keys[c] = key
        insort(self._items, key)
        known = self._known.get(c)
        if known is None or key < known:
            heaps = self._heaps
            for t in self._topics_of.get(c, ()):
                h = heaps.get(t)
                if h is None:
                    h = heaps[t] = []
                heappush(h, key)
        self._known[c] = key

    def remove(self, c: str) -> None:
        key = self._keys.pop(c)
        i = bisect_left(self._items, key)
        del self._items[i]

    def first(self) -> str:
        return self._items[0][2]

    def last(self) -> str:
        return self._items[-1][2]

    def first_subscriber(self, topic: str) -> str | None:
        """The first member of the set (in its order) subscribed to ``topic``."""
        h = self._heaps.get(topic)
        keys = self._keys
        while h:
            top = h[0]
            current = keys.get(top[2])
            if current == top:
                return top[2]
            heappop(h)
            if current is not None and current > top:
                heappush(h, current)
        return None

    def __iter__(self) -> Iterator[str]:  # live view: callers stop iterating as soon as they modify the set
        return (k[2] for k in self._items)


class GeneralBuilder:
    """One run of the general path.

    ``current_assignment``: member → still-valid owned partitions, in the leader's
    subscription-map order (every member present); ``subscriptions``: member → subscribed
    topics in the same order; ``prev_assignment``: partition → (member, generation) of the
    claims of older generations.
    """

    def __init__(
        self,
        partitions_per_topic: Mapping[str, int],
        rack_info: RackInfo,
        current_assignment: dict[str, list[TP]],
        subscriptions: Mapping[str, Sequence[str]],
        prev_assignment: Mapping[TP, tuple[str, int]],
        *,
        kafka_15106: bool = True,
    ) -> None:
        self.kafka_15106 = kafka_15106
        self.ppt = partitions_per_topic
        self.rack_info = rack_info
        self.current = current_assignment
        self.subscriptions = subscriptions
        self.prev = prev_assignment
        self.total = sum(partitions_per_topic.values())
        self.topic_consumers: dict[str, list[str]] = {t: [] for t in partitions_per_topic}
        self.consumer_topics: dict[str, list[str]] = {}
        self.topic_sets: dict[str, frozenset[str]] = {}
        for c, topics in subscriptions.items():
            mine = [t for t in topics if t in partitions_per_topic]
            self.consumer_topics[c] = mine
            self.topic_sets[c] = frozenset(mine)
            for t in mine:
                self.topic_consumers[t].append(c)
            current_assignment.setdefault(c, [])
        self.owner: dict[TP, str] = {}
        for c, tps in current_assignment.items():
            for tp in tps:
                self.owner[tp] = c
        tc = self.topic_consumers
        sorted_topics = sorted(tc, key=lambda t: (len(tc[t]), java_string_key(t)))
        self.sorted_all_partitions = [(t, p) for t in sorted_topics for p in range(self.ppt[t])]
        self.sorted_consumers = _SortedConsumers(current_assignment, self.consumer_topics)
        self.movements = PartitionMovements()
        self.revocation_required = False
        self.index: BalanceIndex | None = None
        #: member order of the final assignment map (HashMap order, for duplicate claims)
        self.final_order: list[str] = []

    def build(self) -> dict[str, list[TP]]:
        assigned = self.assign_owned_partitions()
        unassigned = self.get_unassigned_partitions(assigned)
        for c in self.current:
            self.sorted_consumers.add(c)
        self.balance(unassigned)
        return self.current

    def assign_owned_partitions(self) -> list[TP]:
        assigned: list[TP] = []
        rack = self.rack_info
        for c, tps in self.current.items():
            subscribed = self.subscriptions[c]
            kept: list[TP] = []
            for tp in tps:
                if tp[0] not in self.topic_consumers:
                    self.owner.pop(tp, None)
                elif tp[0] not in subscribed or rack.racks_mismatch(c, tp):
                    self.revocation_required = True
                else:
                    kept.append(tp)
                    assigned.append(tp)
            tps[:] = kept
        return assigned

    def get_unassigned_partitions(self, assigned: list[TP]) -> list[TP]:
        if not assigned:
            return self.sorted_all_partitions
        tc = self.topic_consumers
        assigned.sort(key=lambda tp: (len(tc[tp[0]]), java_string_key(tp[0]), tp[1]))
        it = iter(assigned)
        nxt = next(it)
        direct = False
        out: list[TP] = []
        for tp in self.sorted_all_partitions:
            if direct or nxt != tp:
                out.append(tp)
            else:
                try:
                    nxt = next(it)
                except StopIteration:
                    direct = True
        return out

    # -- balance ------------------------------------------------------------------------
    def max_assignment_size(self, topics: list[str]) -> int:
        if len(topics) == len(self.ppt):
            return self.total
        return sum(self.ppt[t] for t in topics)

    def is_balanced(self) -> bool:
        if not self.kafka_15106:  # 3.5.0 to 3.5.1: the check before KAFKA-15106
            return self.is_balanced_literal()
        if self.index is not None:
            return self.index.is_balanced()
        return self.is_balanced_literal()

    def is_balanced_literal(self) -> bool:
        """Kafka's ``isBalanced``, verbatim (O(partitions)); :class:`BalanceIndex` answers the
        same question incrementally. Before KAFKA-15106 (3.5.0 to 3.5.1) a partition could
        move whenever its owner had more partitions than the member (``count < owner's``), not
        at least two more."""
        cur = self.current
        sc = self.sorted_consumers
        if len(cur[sc.first()]) >= len(cur[sc.last()]) - 1:
            return True
        slack = 1 if self.kafka_15106 else 0
        all_partitions: dict[TP, str] = {}
        for c, tps in cur.items():
            for tp in tps:
                all_partitions[tp] = c
        for c in sc:
            mine = cur[c]
            count = len(mine)
            topics = self.consumer_topics[c]
            if count == self.max_assignment_size(topics):
                continue
            mine_set = set(mine)
            for t in topics:
                for p in range(self.ppt[t]):
                    tp = (t, p)
                    if tp not in mine_set and count + slack < len(cur[all_partitions[tp]]):
                        return False
        return True

    @staticmethod
    def balance_score(assignment: Mapping[str, list[TP]]) -> int:
        sizes = sorted(len(v) for v in assignment.values())
        n = len(sizes)
        return sum(s * (2 * i - n + 1) for i, s in enumerate(sizes))

    def maybe_assign_partition(self, tp: TP, rack: RackInfo | None) -> bool:
        if rack is None:
            c = self.sorted_consumers.first_subscriber(tp[0])
            if c is None:
                return False
            self.sorted_consumers.remove(c)
            self.current[c].append(tp)
            self.owner[tp] = c
            self.sorted_consumers.add(c)
            return True
        topic_sets = self.topic_sets
        for c in self.sorted_consumers:
            if tp[0] in topic_sets[c] and (rack is None or not rack.racks_mismatch(c, tp)):
                self.sorted_consumers.remove(c)
                self.current[c].append(tp)
                self.owner[tp] = c
                self.sorted_consumers.add(c)
                return True
        return False

    def maybe_assign(self, partitions: list[TP], rack: RackInfo | None, remove: bool) -> None:
        kept: list[TP] = []
        for tp in partitions:
            if not self.topic_consumers[tp[0]]:
                kept.append(tp)
                continue
            if not (self.maybe_assign_partition(tp, rack) and remove):
                kept.append(tp)
        if remove:
            partitions[:] = kept

    def can_topic_participate(self, topic: str) -> bool:
        return len(self.topic_consumers[topic]) >= 2

    def can_consumer_participate(self, c: str) -> bool:
        tps = self.current[c]
        if len(tps) < self.max_assignment_size(self.consumer_topics[c]):
            return True
        return any(self.can_topic_participate(tp[0]) for tp in tps)

    def balance(self, unassigned: list[TP]) -> None:
        cur = self.current
        initializing = not cur[self.sorted_consumers.last()]
        to_assign = unassigned
        if self.rack_info.consumer_racks:
            to_assign = list(unassigned)
            self.maybe_assign(to_assign, self.rack_info, True)
        self.maybe_assign(to_assign, None, False)

        fixed_topics = {t for t in self.topic_consumers if not self.can_topic_participate(t)}
        if fixed_topics:
            self.sorted_all_partitions[:] = [
                tp for tp in self.sorted_all_partitions if tp[0] not in fixed_topics
            ]
            unassigned[:] = [tp for tp in unassigned if tp[0] not in fixed_topics]

        # Java map orders, to know the final assignment map's iteration order
        order: JavaHashSet[str] = JavaHashSet()
        for c in cur:
            order.add(c)
        n = len(self.consumer_topics)
        c2t_order = hashmap_order(self.consumer_topics, capacity=hashmap_capacity(n, n))
        fixed: dict[str, list[TP]] = {}
        for c in c2t_order:
            if not self.can_consumer_participate(c):
                self.sorted_consumers.remove(c)
                fixed[c] = cur.pop(c)
                order.remove(c)
        pre_balance = {c: list(v) for c, v in cur.items()}
        pre_owner = dict(self.owner)
        self.index = BalanceIndex(
            cur,
            self.topic_consumers,
            self.consumer_topics,
            {c: self.max_assignment_size(self.consumer_topics[c]) for c in cur},
            self.ppt,
        )

        if not self.revocation_required:
            self.perform_reassignments(unassigned)
        performed = self.perform_reassignments(self.sorted_all_partitions)

        if (
            not initializing
            and performed
            and self.balance_score(cur) >= self.balance_score(pre_balance)
        ):
            pre_order = hashmap_order(order)  # deepCopy: a new HashMap<>() put in currentAssignment order
            cur.clear()
            order.clear()
            for c in pre_order:
                cur[c] = pre_balance[c]
                order.add(c)
            self.owner = pre_owner
        for c in hashmap_order(list(fixed)):
            cur[c] = fixed[c]
            order.add(c)
        self.final_order = list(order)
        self.index = None

    def perform_reassignments(self, partitions: list[TP]) -> bool:
        cur = self.current
        consumer_racks = self.rack_info.consumer_racks
        partition_racks = self.rack_info.partition_racks
        index = self.index
        assert index is not None
        performed = False
        modified = True
        while modified:
            modified = False
            for tp in partitions:
                if self.is_balanced():
                    break
                consumer = self.owner[tp]
                size = len(cur[consumer])
                prev = self.prev.get(tp)
                if prev is not None and size > len(cur[prev[0]]) + 1:
                    self.reassign_partition_to(tp, prev[0])
                    performed = modified = True
                    continue
                found = False
                rack = consumer_racks.get(consumer)
                if rack is not None:
                    racks = partition_racks[tp]
                    if racks and rack in racks:
                        for other in self.topic_consumers[tp[0]]:
                            other_rack = consumer_racks.get(other)
                            if other_rack is None or other_rack not in racks:
                                continue
                            if size > len(cur[other]) + 1:
                                self.reassign_partition(tp)
                                performed = modified = found = True
                                break
                if not found and size > index.min_subscriber_size(tp[0]) + 1:
                    self.reassign_partition(tp)
                    performed = modified = True
        return performed

    def reassign_partition(self, tp: TP) -> None:
        c = self.sorted_consumers.first_subscriber(tp[0])
        if c is None:
            raise AssertionError("no consumer for a reassignable partition")
        self.reassign_partition_to(tp, c)

    def reassign_partition_to(self, tp: TP, new: str) -> None:
        old = self.owner[tp]
        moved = self.movements.get_the_actual_partition_to_be_moved(tp, old, new)
        self.process_partition_movement(moved, new)

    def process_partition_movement(self, tp: TP, new: str) -> None:
        old = self.owner[tp]
        sc = self.sorted_consumers
        sc.remove(old)
        sc.remove(new)
        self.movements.move_partition(tp, old, new)
        mine = self.current[old]
        removed = tp in mine  # List.remove(Object): no-op when absent
        if removed:
            mine.remove(tp)
        self.current[new].append(tp)
        self.owner[tp] = new
        if self.index is not None:
            self.index.move(tp, old, new, removed)
        sc.add(new)
        sc.add(old)
