"""``org.apache.kafka.clients.producer.internals.DefaultPartitioner`` of Kafka 2.4–3.2
(KIP-480 sticky partitioning; deprecated in 3.3 by KIP-794 but still configurable).

* a record with a key goes to ``toPositive(murmur2(key)) % numPartitions``;
* a record without a key goes to the topic's sticky partition
  (:class:`~kpart.producer.sticky_partition_cache.StickyPartitionCache`), which changes when
  the producer is about to create a new batch (``onNewBatch`` — for keyed records too).

>>> from kpart.producer.cluster import Cluster
>>> c = Cluster.of("t", [0, 0, 0])
>>> d = DefaultPartitioner(seed=5)
>>> s = d.partition("t", None, None, None, None, c)
>>> s == d.partition("t", None, None, None, None, c)
True
"""

from __future__ import annotations

from typing import Any

from kpart.producer._nullkey import IntSource, key_partition
from kpart.producer.cluster import Cluster
from kpart.producer.sticky_partition_cache import StickyPartitionCache

__all__ = ["DefaultPartitioner"]


class DefaultPartitioner:
    """murmur2 for keys, sticky for null keys (Kafka 2.4–3.2 default)."""

    name = "sticky"

    def __init__(self, random: IntSource | None = None, *, seed: int | None = None) -> None:
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
        """The record's partition (see the module docstring)."""
        if key_bytes is None:
            return self._cache.partition(topic, cluster)
        return key_partition(key_bytes, len(cluster.partitions_for_topic(topic)))

    def on_new_batch(self, topic: str, cluster: Cluster, prev_partition: int) -> None:
        """A batch of ``prev_partition`` is complete: switch if it is the sticky one."""
        self._cache.next_partition(topic, cluster, prev_partition)

    def close(self) -> None:
        """Nothing to release."""
