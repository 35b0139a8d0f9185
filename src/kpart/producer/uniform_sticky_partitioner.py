"""``org.apache.kafka.clients.producer.UniformStickyPartitioner`` (Kafka 2.4+, KIP-480): every
record, keyed or not, goes to the topic's sticky partition, which changes when a new batch is
needed (``onNewBatch``) — see :mod:`kpart.producer.sticky_partition_cache`.

>>> from kpart.producer.cluster import Cluster
>>> c = Cluster.of("t", [0, 0, 0, 0])
>>> u = UniformStickyPartitioner(seed=3)
>>> a = u.partition("t", None, b"k1", None, None, c)
>>> a == u.partition("t", None, b"k2", None, None, c)     # keys are ignored
True
>>> u.on_new_batch("t", c, a)
>>> u.partition("t", None, None, None, None, c) != a
True
"""

from __future__ import annotations

from typing import Any

from kpart.producer._nullkey import IntSource
from kpart.producer.cluster import Cluster
from kpart.producer.sticky_partition_cache import StickyPartitionCache

__all__ = ["UniformStickyPartitioner"]


class UniformStickyPartitioner:
    """Sticky partitioning for all records (keys ignored)."""

    name = "uniform-sticky"

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
        """The topic's sticky partition."""
        return self._cache.partition(topic, cluster)

    def on_new_batch(self, topic: str, cluster: Cluster, prev_partition: int) -> None:
        """A batch of ``prev_partition`` is complete: switch if it is the sticky one."""
        self._cache.next_partition(topic, cluster, prev_partition)

    def close(self) -> None:
        """Nothing to release."""
