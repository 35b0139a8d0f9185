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

from kpart.producer.sticky_partition_cache import _StickyCachePartitioner

__all__ = ["DefaultPartitioner"]


class DefaultPartitioner(_StickyCachePartitioner):
    """murmur2 for keys, sticky for null keys (Kafka 2.4–3.2 default).

    ``random``: the source of the sticky draws (default a ``JavaRandom(seed)``)."""

    name = "sticky"
    hashes_keys = True
