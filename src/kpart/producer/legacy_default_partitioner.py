"""``org.apache.kafka.clients.producer.internals.DefaultPartitioner`` of Kafka 0.9–2.3 (and the
0.8.2 ``Partitioner``): records without a key go round-robin over the *available* partitions.

Behaviour reproduced (seed 000):

* a record with a key goes to ``toPositive(murmur2(key)) % numPartitions``;
* a record without a key takes ``counter.getAndIncrement()`` of the topic's counter, whose
  start value is a random Java ``int`` (``ThreadLocalRandom.nextInt()``; here drawn from the
  ``random`` passed in), and goes to ``available[toPositive(value) % len(available)]``, or to
  ``toPositive(value) % numPartitions`` when no partition has a leader.

The counter is a Java ``int``: it wraps from ``2**31-1`` to ``-2**31``, where ``toPositive``
restarts the cycle at 0 (a one-off jump unless ``len(available)`` divides ``2**31``).
Deviation: 0.8.2 used ``Utils.abs`` (``Math.abs``), which walks *down* the partitions while the
counter is negative; this module follows 0.9+ (``toPositive``).

>>> from kpart.producer.cluster import Cluster
>>> p = LegacyDefaultPartitioner(start=0)
>>> c = Cluster.of("t", [1, None, 1, 1])
>>> [p.partition("t", None, None, None, None, c) for _ in range(5)]
[0, 2, 3, 0, 2]
"""

from __future__ import annotations

from typing import Any

from kpart._java.ints import to_int32
from kpart._java.murmur2 import to_positive
from kpart.producer._nullkey import IntSource, key_partition, make_random
from kpart.producer.cluster import Cluster

__all__ = ["LegacyDefaultPartitioner"]


class LegacyDefaultPartitioner:
    """Round-robin for null keys, murmur2 for keys (Kafka 0.9–2.3 ``DefaultPartitioner``).

    ``start`` fixes every topic counter's initial value (a Java ``int``); by default it is
    drawn from ``random`` (a seeded ``JavaRandom`` if ``seed`` is given).
    """

    name = "legacy"

    def __init__(
        self, random: IntSource | None = None, *, seed: int | None = None, start: int | None = None
    ) -> None:
        self._random = random if random is not None else make_random(seed)
        self._start = None if start is None else to_int32(start)
        self._counters: dict[str, int] = {}

    def _next_value(self, topic: str) -> int:
        value = self._counters.get(topic)
        if value is None:
            value = self._start if self._start is not None else self._random.next_int()
        self._counters[topic] = to_int32(value + 1)
        return value

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
        num_partitions = len(cluster.partitions_for_topic(topic))
        if key_bytes is not None:
            return key_partition(key_bytes, num_partitions)
        next_value = self._next_value(topic)
        available = cluster.available_partitions_for_topic(topic)
        if available:
            return available[to_positive(next_value) % len(available)].partition
        return to_positive(next_value) % num_partitions

    def close(self) -> None:
        """Nothing to release."""
