"""``org.apache.kafka.clients.producer.internals.StickyPartitionCache`` (Kafka 2.4–3.x,
KIP-480): the current "sticky" partition of each topic, changed only when the batch of that
partition is complete.

* ``partition(topic)``: the topic's sticky partition, choosing one first if there is none;
* ``next_partition(topic, prev)``: if the topic has no sticky partition, or ``prev`` is the
  current one, draw a new one: with several available partitions a uniformly random available
  partition *different from the current one* (redrawing until it differs), with exactly one
  available partition that one, with none ``toPositive(nextInt()) % numPartitions``. A ``prev``
  that is not the current sticky partition changes nothing (another thread already switched).

Randomness: Kafka uses ``ThreadLocalRandom``; here a seeded ``JavaRandom`` passed in.

>>> from kpart.producer.cluster import Cluster
>>> c = Cluster.of("t", [0, 0, 0])
>>> cache = StickyPartitionCache(seed=1)
>>> first = cache.partition("t", c)
>>> cache.partition("t", c) == first                 # sticks
True
>>> cache.next_partition("t", c, first) != first     # a new batch: switch to another
True
>>> cur = cache.partition("t", c)
>>> cache.next_partition("t", c, (cur + 1) % 3) == cur   # stale prev: no change
True
"""

from __future__ import annotations

from typing import Any

from kpart._java.murmur2 import to_positive
from kpart.producer._nullkey import IntSource, key_partition, make_random
from kpart.producer.cluster import Cluster, PartitionInfo
from kpart.producer.null_key_versions import check_null_key_strategy
from kpart.versions import KafkaVersion

__all__ = ["StickyPartitionCache"]


class StickyPartitionCache:
    """Per-topic sticky partition (see the module docstring)."""

    def __init__(self, random: IntSource | None = None, *, seed: int | None = None) -> None:
        self._random = random if random is not None else make_random(seed)
        self._index: dict[str, int] = {}

    def partition(self, topic: str, cluster: Cluster) -> int:
        """The sticky partition of ``topic`` (chosen now if there is none)."""
        part = self._index.get(topic)
        if part is None:
            return self.next_partition(topic, cluster, -1)
        return part

    def next_partition(self, topic: str, cluster: Cluster, prev_partition: int) -> int:
        """Switch ``topic``'s sticky partition if ``prev_partition`` is the current one (or
        none is set); return the (possibly new) sticky partition."""
        old = self._index.get(topic)
        if old is not None and old != prev_partition:
            return old
        available = cluster.available_partitions_for_topic(topic)
        if not available:
            new = to_positive(self._random.next_int()) % len(cluster.partitions_for_topic(topic))
        elif len(available) == 1:
            new = available[0].partition
        else:
            new = self._draw(available)
            while new == old:  # Java: while (newPart == null || newPart.equals(oldPart))
                new = self._draw(available)
        self._index[topic] = new
        return new

    def _draw(self, available: tuple[PartitionInfo, ...]) -> int:
        """``availablePartitions.get(toPositive(nextInt()) % availablePartitions.size())``."""
        return available[to_positive(self._random.next_int()) % len(available)].partition


class _StickyCachePartitioner:
    """The body Kafka's ``DefaultPartitioner`` (2.4–3.2) and ``UniformStickyPartitioner`` share:
    a :class:`StickyPartitionCache` switched by ``onNewBatch``; ``hashes_keys`` tells whether a
    record with a key goes to ``toPositive(murmur2(key)) % numPartitions`` instead (only
    ``DefaultPartitioner``'s do). ``kafka_version`` (the client's; ``None``: not checked): both
    classes exist from 2.4.0 to 3.9.2 (removed in 4.0.0, KAFKA-18262), else ``ConfigError``."""

    name: str
    hashes_keys: bool

    def __init__(self, random: IntSource | None = None, *, seed: int | None = None,
                 kafka_version: str | KafkaVersion | None = None) -> None:
        if kafka_version is not None:  # 2.4.0 to 3.9.2 (rule sticky_partitioner_classes)
            check_null_key_strategy(self.name, kafka_version)
        self._cache = StickyPartitionCache(random, seed=seed)

    def partition(
        self,
        topic: str,
        key: Any,
        key_bytes: bytes | None,
        value: Any,
        value_bytes: bytes | None,
        cluster: Cluster,
    ) -> int:
        """The record's partition: the key's when it has one and keys are hashed, else the
        topic's sticky partition."""
        if key_bytes is not None and self.hashes_keys:
            return key_partition(key_bytes, len(cluster.partitions_for_topic(topic)))
        return self._cache.partition(topic, cluster)

    def on_new_batch(self, topic: str, cluster: Cluster, prev_partition: int) -> None:
        """A batch of ``prev_partition`` is complete: switch if it is the sticky one."""
        self._cache.next_partition(topic, cluster, prev_partition)

    def close(self) -> None:
        """Nothing to release."""
