"""A sample custom partitioner (seed 004's geography example, not a Kafka class): records of
southern users go only to partitions whose leader is in a southern rack, records of the other
users only to partitions whose leader is not.

The seed's Java is ``partitions.stream().filter(p -> isSouth(p.leader().host()))
.map(PartitionInfo::partition).findAny().get()``: one cluster spanning a northern and a
southern data centre, the consumers that reward southern users running only in the south.
This sample decides "south" by the leader's *rack* (``broker.rack``) instead of its host, and
spreads a region's records round-robin over that region's available partitions (``findAny``
on a sequential stream would always return the first one). It implements ``on_new_batch`` so
that the producer's second ``partition()`` call for a record that starts a batch returns the
same partition instead of advancing the round-robin (the KAFKA-9965 trap).

A record's region: ``value["region"]`` when the value is a mapping with that field, otherwise
the key's text before the first ``:`` (``b"south:42"`` → ``"south"``). Regions listed in
``geo.south.regions`` (default ``south``) are southern. Racks listed in ``geo.south.racks``
(default: any rack whose name starts with ``south``) are southern. Both are comma-separated
``configure`` settings, so the class loads by import path with no arguments:
``--partitioner kpart.producer.geography_partitioner:GeographyPartitioner``.

Errors: :class:`~kpart.errors.ConfigError` naming the topic and region when no available
partition of that region exists (Kafka: ``NoSuchElementException`` from ``get()``).

>>> from kpart.producer.cluster import Cluster
>>> c = Cluster.of("signup", leaders=[1, 2, 3, 4],
...                racks={1: "north-a", 2: "south-a", 3: "north-b", 4: "south-b"})
>>> g = GeographyPartitioner()
>>> [g.partition("signup", None, b"south:%d" % i, None, None, c) for i in range(4)]
[1, 3, 1, 3]
>>> g.partition("signup", None, None, {"region": "north"}, None, c)
0
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kpart.errors import ConfigError
from kpart.producer.cluster import Cluster

__all__ = ["GeographyPartitioner", "region_of"]


def region_of(key_bytes: bytes | None, value: Any) -> str | None:
    """The region of a record: ``value["region"]`` or the key's text before ``:``.

    >>> region_of(b"south:7", None), region_of(None, {"region": "North"}), region_of(None, 1)
    ('south', 'north', None)
    """
    if isinstance(value, Mapping) and "region" in value:
        return str(value["region"]).strip().lower()
    if key_bytes is not None:
        text = bytes(key_bytes).decode("utf-8", "replace")
        return text.split(":", 1)[0].strip().lower() if ":" in text else None
    return None


class GeographyPartitioner:
    """Southern users' records to partitions led by southern-rack brokers, others elsewhere."""

    name = "geography"

    def __init__(self) -> None:
        self._south_racks: frozenset[str] | None = None  # None: racks starting with "south"
        self._south_regions: frozenset[str] = frozenset({"south"})
        self._counters: dict[tuple[str, bool], int] = {}
        self._previous: tuple[str, int] | None = None

    def configure(self, configs: Mapping[str, Any]) -> None:
        """Read ``geo.south.racks`` and ``geo.south.regions`` (comma-separated)."""
        racks = configs.get("geo.south.racks")
        if racks:
            self._south_racks = frozenset(r.strip() for r in str(racks).split(",") if r.strip())
        regions = configs.get("geo.south.regions")
        if regions:
            self._south_regions = frozenset(
                r.strip().lower() for r in str(regions).split(",") if r.strip()
            )

    def is_south_rack(self, rack: str | None) -> bool:
        """Whether a broker rack is southern."""
        if rack is None:
            return False
        if self._south_racks is None:
            return rack.lower().startswith("south")
        return rack in self._south_racks

    def partition(
        self,
        topic: str,
        key: Any,
        key_bytes: bytes | None,
        value: Any,
        value_bytes: bytes | None,
        cluster: Cluster,
    ) -> int:
        """The next partition (round-robin) of the record's region."""
        if self._previous is not None:
            previous, self._previous = self._previous, None
            if previous[0] == topic:
                return previous[1]
        south = region_of(key_bytes, value) in self._south_regions
        candidates = [
            p.partition
            for p in cluster.available_partitions_for_topic(topic)
            if p.leader is not None and self.is_south_rack(p.leader.rack) == south
        ]
        if not candidates:
            side = "southern" if south else "non-southern"
            raise ConfigError(
                f"no available partition of topic {topic!r} has a leader in a {side} rack"
            )
        slot = (topic, south)
        n = self._counters.get(slot, 0)
        self._counters[slot] = n + 1
        return candidates[n % len(candidates)]

    def on_new_batch(self, topic: str, cluster: Cluster, prev_partition: int) -> None:
        """Keep ``prev_partition`` for the record's second ``partition()`` call (Kafka 2.4+
        partitions a record again when it needs a new batch; a counter that advanced twice
        would skip partitions, as ``RoundRobinPartitioner`` does in KAFKA-9965)."""
        self._previous = (topic, prev_partition)

    def close(self) -> None:
        """Nothing to release."""
