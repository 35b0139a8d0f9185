"""``AbstractStickyAssignor.RackInfo`` (KIP-881): which consumers and partitions share racks.

Rack-aware sticky assignment is used when some consumer has a non-empty ``client.rack``, that
rack holds replicas of some subscribed partition, and not every partition has replicas on
every rack (``AbstractPartitionAssignor.useRackAwareAssignment``). When it is not used, the
consumer→rack and partition→racks views are empty, but ``num_consumers_by_partition`` is
still filled whenever some consumer has a rack (as in Kafka), so unassigned partitions are
still ordered by the number of same-rack consumers.

>>> from kpart.consumer.spec import GroupSpec
>>> g = GroupSpec.from_json({"topics": {"t": 2}, "partition_racks": {"t": [["a"], ["b"]]},
...     "members": [{"id": "c0", "topics": ["t"], "rack": "a"}]})
>>> info = RackInfo.build(g, {"t": 2}, ["c0"])
>>> info.racks_mismatch("c0", ("t", 0)), info.racks_mismatch("c0", ("t", 1))
(False, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from kpart.consumer.spec import GroupSpec

__all__ = ["RackInfo", "use_rack_aware_assignment"]

TP = tuple[str, int]


def use_rack_aware_assignment(
    consumer_racks: set[str],
    partition_racks: set[str],
    racks_per_partition: Mapping[TP, frozenset[str]],
) -> bool:
    """``AbstractPartitionAssignor.useRackAwareAssignment`` (without the test-only override)."""
    if not consumer_racks or consumer_racks.isdisjoint(partition_racks):
        return False
    return not all(r == partition_racks for r in racks_per_partition.values())


@dataclass(frozen=True, slots=True)
class RackInfo:
    """Rack view of one assignment: ``consumer_racks`` (member → rack), ``partition_racks``
    ((topic, partition) → replica racks), both empty unless rack-aware assignment is used,
    and ``num_consumers_by_partition`` (consumers sharing a rack with each partition)."""

    consumer_racks: Mapping[str, str]
    partition_racks: Mapping[TP, frozenset[str]]
    num_consumers_by_partition: Mapping[TP, int]

    @classmethod
    def build(
        cls, group: GroupSpec, partitions_per_topic: Mapping[str, int], member_order: Sequence[str]
    ) -> RackInfo:
        """Rack view of ``group`` over the subscribed topics ``partitions_per_topic``;
        ``member_order`` is the leader's subscription map order."""
        members = {m.member_id: m for m in group.members}
        consumers_by_rack: dict[str, list[str]] = {}
        for mid in member_order:
            rack = members[mid].rack
            if rack:
                consumers_by_rack.setdefault(rack, []).append(mid)
        partition_racks: dict[TP, frozenset[str]] = {}
        all_racks: set[str] = set()
        if consumers_by_rack:
            for topic, n in partitions_per_topic.items():
                for p in range(n):
                    racks = group.racks_for_partition(topic, p)
                    partition_racks[(topic, p)] = racks
                    all_racks |= racks
        num_by_partition = {
            tp: sum(len(consumers_by_rack.get(r, ())) for r in racks)
            for tp, racks in partition_racks.items()
        }
        if use_rack_aware_assignment(set(consumers_by_rack), all_racks, partition_racks):
            consumer_racks = {c: r for r, cs in consumers_by_rack.items() for c in cs}
            return cls(consumer_racks, partition_racks, num_by_partition)
        return cls({}, {}, num_by_partition)

    def racks_mismatch(self, consumer: str, tp: TP) -> bool:
        """True when ``consumer`` has a rack holding no replica of ``tp`` (rack-aware only)."""
        rack = self.consumer_racks.get(consumer)
        if rack is None:
            return False
        racks = self.partition_racks.get(tp)
        return racks is None or rack not in racks

    def sort_partitions_by_rack_consumers(self, partitions: list[TP]) -> list[TP]:
        """Stable sort by the number of same-rack consumers (no-op without consumer racks)."""
        if not self.num_consumers_by_partition:
            return partitions
        counts = self.num_consumers_by_partition
        return sorted(partitions, key=lambda tp: counts.get(tp, 0))

    def next_rack_consumer(self, tp: TP, consumers: Sequence[str], first_index: int) -> int:
        """Index of the first consumer (cyclically from ``first_index``) on a replica rack of
        ``tp``, or -1."""
        racks = self.partition_racks.get(tp)
        if not racks:
            return -1
        n = len(consumers)
        for i in range(n):
            index = (first_index + i) % n
            rack = self.consumer_racks.get(consumers[index])
            if rack is not None and rack in racks:
                return index
        return -1
