"""``org.apache.kafka.clients.producer.RoundRobinPartitioner`` (Kafka 2.4+, KAFKA-3333), with
the uneven distribution of KAFKA-9965.

Every record, keyed or not, takes ``counter.getAndIncrement()`` of its topic's counter (a Java
``int`` starting at 0) and goes to ``available[toPositive(value) % len(available)]``
(``toPositive(value) % numPartitions`` when no partition has a leader).

KAFKA-9965: since KIP-480 (2.4) the producer calls ``partition()`` a second time for a record
whose first partition needs a new batch (``onNewBatch`` in between, a no-op here). The counter
then advances twice for that record. When every record needs a new batch (``linger.ms=0`` and
idle brokers, or batches drained as fast as they are made) the record lands on the *second*
value, so with an even number of partitions only every other partition ever receives data:
with 2 partitions, all records go to partition 1. ``kafka_17632_fix=True`` models the fix
released in Kafka 3.9.1/4.0 (KAFKA-17632): ``onNewBatch`` remembers the partition, and the
next ``partition()`` call for that topic returns it without advancing the counter.

>>> from kpart.producer.cluster import Cluster
>>> c = Cluster.of("t", [0, 0])
>>> rr = RoundRobinPartitioner()
>>> def send_needing_new_batch(p):      # what KafkaProducer does when a new batch is needed
...     first = p.partition("t", None, None, None, None, c)
...     p.on_new_batch("t", c, first)
...     return p.partition("t", None, None, None, None, c)
>>> [send_needing_new_batch(rr) for _ in range(4)]
[1, 1, 1, 1]
>>> fixed = RoundRobinPartitioner(kafka_17632_fix=True)
>>> [send_needing_new_batch(fixed) for _ in range(4)]
[0, 1, 0, 1]
"""

from __future__ import annotations

from typing import Any

from kpart._java.ints import to_int32
from kpart._java.murmur2 import to_positive
from kpart.producer.cluster import Cluster

__all__ = ["RoundRobinPartitioner"]


class RoundRobinPartitioner:
    """Round-robin over available partitions for every record (keys ignored)."""

    name = "round-robin"

    def __init__(self, *, kafka_17632_fix: bool = False) -> None:
        self.kafka_17632_fix = kafka_17632_fix
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
        """No-op in Kafka 2.4–3.9.0 (the KAFKA-9965 behaviour); with the KAFKA-17632 fix,
        remember ``prev_partition`` for the record's second ``partition()`` call."""
        if self.kafka_17632_fix:
            self._previous = (topic, prev_partition)

    def close(self) -> None:
        """Nothing to release."""
