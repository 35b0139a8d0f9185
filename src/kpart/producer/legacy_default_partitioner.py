"""``org.apache.kafka.clients.producer.internals.DefaultPartitioner`` of Kafka 0.9–2.3 (and the
0.8.2 ``Partitioner``): records without a key go round-robin over the *available* partitions.

Behaviour reproduced (seed 000):

* a record with a key goes to ``toPositive(murmur2(key)) % numPartitions``;
* a record without a key takes ``counter.getAndIncrement()`` of the topic's counter, whose
  start value is a random Java ``int`` (``ThreadLocalRandom.nextInt()``; here drawn from the
  ``random`` passed in), and goes to ``available[toPositive(value) % len(available)]``, or to
  ``toPositive(value) % numPartitions`` when no partition has a leader.

Before 0.10.2.0 the partitioner had one counter for every topic (``kafka_version`` 0.10.0 or
0.10.1, rule ``null_key_partitioner``: ``round-robin-shared``); KAFKA-4402 (0.10.2.0) gave each
topic its own, which is the default here. A ``kafka_version`` whose producer does not use this
partitioner (2.4.0 and later) is a :class:`~kpart.errors.ConfigError`.

The counter is a Java ``int``: it wraps from ``2**31-1`` to ``-2**31``, where ``toPositive``
restarts the cycle at 0 (a one-off jump unless ``len(available)`` divides ``2**31``).
Deviation: 0.8.2 used ``Utils.abs`` (``Math.abs``), which walks *down* the partitions while the
counter is negative; this module follows 0.9+ (``toPositive``).

>>> from kpart.producer.cluster import Cluster
>>> p = LegacyDefaultPartitioner(start=0)
>>> c = Cluster.of("t", [1, None, 1, 1])
>>> [p.partition("t", None, None, None, None, c) for _ in range(5)]
[0, 2, 3, 0, 2]
>>> two = Cluster.of("t", [1, 1]), Cluster.of("u", [1, 1])
>>> old = LegacyDefaultPartitioner(start=0, kafka_version="0.10.1.1")   # one shared counter
>>> [old.partition(t, None, None, None, None, c) for t, c in zip("tutu", two * 2)]
[0, 1, 0, 1]
>>> new = LegacyDefaultPartitioner(start=0, kafka_version="0.10.2.0")   # KAFKA-4402
>>> [new.partition(t, None, None, None, None, c) for t, c in zip("tutu", two * 2)]
[0, 0, 1, 1]
"""

from __future__ import annotations

from typing import Any

from kpart._java.ints import to_int32
from kpart._java.murmur2 import to_positive
from kpart.producer._nullkey import IntSource, key_partition, make_random
from kpart.producer.cluster import Cluster
from kpart.producer.null_key_versions import check_null_key_strategy
from kpart.versions import KafkaVersion, behaviour

__all__ = ["LegacyDefaultPartitioner"]


class LegacyDefaultPartitioner:
    """Round-robin for null keys, murmur2 for keys (Kafka 0.9–2.3 ``DefaultPartitioner``).

    ``start`` fixes every topic counter's initial value (a Java ``int``); by default it is
    drawn from ``random`` (a seeded ``JavaRandom`` if ``seed`` is given).
    """

    name = "legacy"

    def __init__(
        self, random: IntSource | None = None, *, seed: int | None = None,
        start: int | None = None, kafka_version: str | KafkaVersion | None = None,
    ) -> None:
        self._random = random if random is not None else make_random(seed)
        self._start = None if start is None else to_int32(start)
        self._counters: dict[str, int] = {}
        self._shared = False
        if kafka_version is not None:
            check_null_key_strategy("legacy", kafka_version)
            self._shared = behaviour("null_key_partitioner", kafka_version) == \
                "round-robin-shared"

    def _next_value(self, topic: str) -> int:
        topic = "" if self._shared else topic  # one counter for every topic before 0.10.2
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
