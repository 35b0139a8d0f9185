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

from kpart.producer.sticky_partition_cache import _StickyCachePartitioner

__all__ = ["UniformStickyPartitioner"]


class UniformStickyPartitioner(_StickyCachePartitioner):
    """Sticky partitioning for all records (keys ignored).

    ``random``: the source of the sticky draws (default a ``JavaRandom(seed)``)."""

    name = "uniform-sticky"
    hashes_keys = False
