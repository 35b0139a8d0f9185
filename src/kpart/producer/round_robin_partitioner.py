"""``org.apache.kafka.clients.producer.RoundRobinPartitioner`` (Kafka 2.4+, KAFKA-3333), by the
client's Kafka version: the uneven distribution of KAFKA-9965 up to 3.9.1, its fix from 3.9.2
(KAFKA-17632; rule ``round_robin_partitioner`` of :mod:`kpart.versions`).

Every record, keyed or not, takes ``counter.getAndIncrement()`` of its topic's counter (a Java
``int`` starting at 0) and goes to ``available[toPositive(value) % len(available)]``
(``toPositive(value) % numPartitions`` when no partition has a leader).

KAFKA-9965: since KIP-480 (2.4) the producer calls ``partition()`` a second time for a record
whose first partition needs a new batch (``onNewBatch`` in between, a no-op up to 3.9.1). The
counter then advances twice for that record. When every record needs a new batch
(``linger.ms=0`` and idle brokers, or batches drained as fast as they are made) the record
lands on the *second* value, so with an even number of partitions only every other partition
ever receives data: with 2 partitions, all records go to partition 1. Kafka 3.9.2 fixed it
(KAFKA-17632): ``onNewBatch`` remembers the partition, and the next ``partition()`` call for
that topic returns it without advancing the counter. Kafka 4.0 removed ``onNewBatch``
(KAFKA-18295) and partitions a record once, which gives the same partitions.

``kafka_version``: the client's (default: the newest release, 4.3). Errors:
:class:`~kpart.errors.ConfigError` for a version kpart does not know, or one before 2.4.0 (no
``RoundRobinPartitioner``). ``kafka_17632_fix=`` is a deprecated alias (``True``: 3.9.2's
behaviour, ``False``: 3.9.0's).

>>> from kpart.producer.cluster import Cluster
>>> c = Cluster.of("t", [0, 0])
>>> def send_needing_new_batch(p):      # what KafkaProducer 2.4-3.9 does when a new batch is needed
...     first = p.partition("t", None, None, None, None, c)
...     p.on_new_batch("t", c, first)
...     return p.partition("t", None, None, None, None, c)
>>> old = RoundRobinPartitioner(kafka_version="3.9.0")
>>> [send_needing_new_batch(old) for _ in range(4)]
[1, 1, 1, 1]
>>> fixed = RoundRobinPartitioner()                 # 4.3; the same from 3.9.2
>>> [send_needing_new_batch(fixed) for _ in range(4)]
[0, 1, 0, 1]
"""

from __future__ import annotations

import warnings
from typing import Any

from kpart._java.ints import to_int32
from kpart._java.murmur2 import to_positive
from kpart.errors import ConfigError
from kpart.producer.cluster import Cluster
from kpart.versions import DEFAULT_KAFKA_VERSION, KafkaVersion, behaviour, first_release_with

__all__ = ["RoundRobinPartitioner"]


class RoundRobinPartitioner:
    """Round-robin over available partitions for every record (keys ignored), as the
    client's ``kafka_version`` computes it (default 4.3; see the module docstring)."""

    name = "round-robin"

    def __init__(self, *, kafka_version: str | KafkaVersion | None = None,
                 kafka_17632_fix: bool | None = None) -> None:
        if kafka_17632_fix is not None:
            if kafka_version is not None:
                raise ConfigError.about(
                    "kafka_version", "Pass {param} only: kafka_17632_fix is its deprecated "
                    "alias (got both)")
            warnings.warn("RoundRobinPartitioner(kafka_17632_fix=...) is deprecated: pass "
                          "kafka_version= (the fix is in 3.9.2 and 4.0.0+)",
                          DeprecationWarning, stacklevel=2)
            kafka_version = first_release_with(
                "round_robin_partitioner", "kafka-17632" if kafka_17632_fix else "kafka-9965")
        rule = behaviour("round_robin_partitioner", kafka_version)
        self.kafka_version = str(kafka_version or DEFAULT_KAFKA_VERSION)
        #: KAFKA-17632's behaviour: the partition given to ``on_new_batch`` is reused
        self.kafka_17632_fix = rule == "kafka-17632"
        self._counters: dict[str, int] = {}
        self._previous: tuple[str, int] | None = None

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
        if self._previous is not None:
            previous, self._previous = self._previous, None
            if previous[0] == topic:
                return previous[1]
        next_value = self._counters.get(topic, 0)
        self._counters[topic] = to_int32(next_value + 1)
        available = cluster.available_partitions_for_topic(topic)
        if available:
            return available[to_positive(next_value) % len(available)].partition
        return to_positive(next_value) % len(cluster.partitions_for_topic(topic))

    def on_new_batch(self, topic: str, cluster: Cluster, prev_partition: int) -> None:
        """No-op in Kafka 2.4–3.9.1 (the KAFKA-9965 behaviour); from 3.9.2 (KAFKA-17632),
        remember ``prev_partition`` for the record's second ``partition()`` call (4.0+ has no
        ``onNewBatch`` and no second call: the same partitions)."""
        if self.kafka_17632_fix:
            self._previous = (topic, prev_partition)

    def close(self) -> None:
        """Nothing to release."""
