"""org.apache.kafka.clients.producer.internals.BuiltInPartitioner#partitionForKey (KIP-794), and
the explicit-partition path of ``KafkaProducer``.

How the Java producer picks a record's partition:

1. the record names a partition: that one (``ProducerRecord`` rejects a negative one; one beyond
   the topic's partition count never gets sent);
2. the record has a key (and ``partitioner.ignore.keys=false``):
   ``toPositive(murmur2(serializedKey)) % numPartitions``;
3. otherwise the built-in sticky/adaptive partitioner decides (not a function of the key).

Other clients hash differently: ``partitioner="librdkafka:consistent_random"``, ``"sarama:hash"``,
... (see :mod:`kpart.producer.clients`).

>>> partition_for_key(b"my_key_1", 6)
0
>>> partition_for_key(b"100:48069", 12, partitioner="kafkajs:legacy")
6
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kpart._java.murmur2 import murmur2, to_positive
from kpart.errors import InvalidPartitionError
from kpart.producer.clients import check_num_partitions, partition_for_key_by

if TYPE_CHECKING:
    import numpy as np

__all__ = ["murmur2", "partition_for_key", "partition_for_record", "to_positive"]


def partition_for_key(
    key: bytes | None,
    num_partitions: int,
    partitioner: str = "java:default",
    *,
    seed: int | np.random.Generator | None = None,
    counter: int | None = None,
) -> int | None:
    """The partition a producer sends a record with serialized key ``key`` to.

    With the default ``partitioner="java:default"`` this is Kafka's
    ``BuiltInPartitioner.partitionForKey``: ``(murmur2(key) & 0x7fffffff) % num_partitions``.
    Any id of :data:`kpart.producer.clients.PARTITIONERS` selects another client's rule.

    Args:
        key: serialized key bytes (``b""`` is a key like any other); ``None`` = record without key.
        num_partitions: the topic's partition count, ``> 0``.
        partitioner: partitioner id, e.g. ``"java:default"``, ``"librdkafka:consistent_random"``.
        seed: seed or ``numpy.random.Generator`` for rules that pick at random (null keys for
            ``*_random``, Sarama, kafka-go, kafka-python; every key for ``librdkafka:random``).
            ``None`` = fresh entropy, random like the client.
        counter: round-robin counter for null keys (kafkajs, ``kafka-go:hash``).

    Returns:
        the partition, in ``[0, num_partitions)``; ``None`` when the key does not decide
        (``java:default`` with ``key=None``: Kafka's sticky/adaptive partitioner picks).

    Raises:
        InvalidPartitionsError: ``num_partitions`` is not a positive int (message names it).
        ConfigError: unknown partitioner id, or ``key`` not bytes-like.

    >>> [partition_for_key(f"my_key_{i}".encode(), 6) for i in range(1, 5)]
    [0, 4, 5, 2]
    >>> partition_for_key(b"", 10)
    1
    >>> partition_for_key(b"TT0124", 15, "librdkafka:consistent")
    9
    """
    return partition_for_key_by(partitioner, key, num_partitions, seed=seed, counter=counter)


def partition_for_record(
    num_partitions: int,
    *,
    partition: int | None = None,
    key: bytes | None = None,
    partitioner: str = "java:default",
    seed: int | np.random.Generator | None = None,
    counter: int | None = None,
) -> int | None:
    """The partition of one record: explicit ``partition`` first, else the key (``KafkaProducer``).

    Args:
        num_partitions: the topic's partition count, ``> 0``.
        partition: the record's explicit partition (``ProducerRecord.partition``), or ``None``.
        key: serialized key bytes or ``None``.
        partitioner, seed, counter: as in :func:`partition_for_key` (used only without ``partition``).

    Returns:
        the partition, or ``None`` when neither partition nor key decides (Java, null key).

    Raises:
        InvalidPartitionError: ``partition < 0``: ``"Invalid partition: -1. Partition number
            should always be non-negative or null."`` (``ProducerRecord``'s
            ``IllegalArgumentException``); ``partition >= num_partitions``: ``"Invalid partition
            given with record: 12 is not in the range [0...12)."`` (the wording of
            ``KafkaProducer`` up to Kafka 2.1; since KAFKA-6833, Kafka 2.2, the producer instead
            waits ``max.block.ms`` for metadata that would contain it, then times out).
        InvalidPartitionsError: ``num_partitions`` is not a positive int.

    >>> partition_for_record(12, partition=3, key=b"ignored")
    3
    >>> partition_for_record(12, key=b"100:48069")
    9
    >>> partition_for_record(12, partition=12)
    Traceback (most recent call last):
    ...
    kpart.errors.InvalidPartitionError: Invalid partition given with record: 12 is not in the range [0...12).
    """
    n = check_num_partitions(num_partitions)
    if partition is not None:
        if isinstance(partition, bool) or not isinstance(partition, int):
            raise InvalidPartitionError(f"Invalid partition: {partition!r}. Partition must be an int.")
        if partition < 0:
            raise InvalidPartitionError(
                f"Invalid partition: {partition}. "
                "Partition number should always be non-negative or null."
            )
        if partition >= n:
            raise InvalidPartitionError(
                f"Invalid partition given with record: {partition} is not in the range [0...{n})."
            )
        return partition
    return partition_for_key_by(partitioner, key, n, seed=seed, counter=counter)
