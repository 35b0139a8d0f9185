"""Custom partitioners: the ``org.apache.kafka.clients.producer.Partitioner`` interface as a
Python protocol, a loader by import path (Kafka's ``partitioner.class``) and the producer's
checks on the partition a custom partitioner returns.

A custom partitioner is any class with a no-argument constructor and a method
``partition(topic, key, key_bytes, value, value_bytes, cluster) -> int`` (the record's topic,
its key and value objects, their serialized bytes or ``None``, and a
:class:`~kpart.producer.cluster.Cluster`). Optional methods, called like Kafka calls them:
``configure(configs: dict)`` once after construction, ``on_new_batch(topic, cluster,
prev_partition)`` before a new batch is created (Kafka 2.4+, KIP-480) and ``close()``.

Kafka's checks on the returned partition (``KafkaProducer.partition`` and ``waitOnMetadata``),
reproduced by :func:`check_partition`:

* negative: ``IllegalArgumentException("The partitioner generated an invalid partition
  number: -1. Partition number should always be non-negative.")``;
* ``>= numPartitions``: ``KafkaException("Invalid partition given with record: 7 is not in
  the range [0...6).")`` — the wording of ``waitOnMetadata`` up to Kafka 2.1. Since Kafka 2.2
  (KAFKA-6833) the producer no longer rejects such a partition up front: the record is queued
  for a partition without a leader and expires after ``delivery.timeout.ms``. kpart rejects it
  immediately with the old message.

Both raise :class:`~kpart.errors.InvalidPartitionError`, whose message names the value.

>>> class First:
...     def partition(self, topic, key, key_bytes, value, value_bytes, cluster):
...         return cluster.available_partitions_for_topic(topic)[0].partition
>>> from kpart.producer.cluster import Cluster
>>> isinstance(First(), Partitioner)
True
>>> check_partition(First().partition("t", None, None, None, None, Cluster.of("t", [None, 3])),
...                 "t", 2)
1
>>> load_partitioner("kpart.producer.geography_partitioner:GeographyPartitioner").name
'geography'
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from kpart.errors import ConfigError, InvalidPartitionError
from kpart.producer.cluster import Cluster, Node, PartitionInfo

__all__ = [
    "Cluster",
    "Node",
    "PartitionInfo",
    "Partitioner",
    "check_partition",
    "load_partitioner",
]


@runtime_checkable
class Partitioner(Protocol):
    """``org.apache.kafka.clients.producer.Partitioner``: choose the partition of one record.

    ``key``/``value`` are the record's objects, ``key_bytes``/``value_bytes`` their serialized
    forms (``None`` when absent). Return a partition number in ``[0, numPartitions)``.
    """

    def partition(
        self,
        topic: str,
        key: Any,
        key_bytes: bytes | None,
        value: Any,
        value_bytes: bytes | None,
        cluster: Cluster,
    ) -> int: ...


def check_partition(partition: object, topic: str, num_partitions: int) -> int:
    """Return ``partition`` if it is a valid partition of a ``num_partitions``-partition topic.

    Errors: :class:`~kpart.errors.InvalidPartitionError` with Kafka's message when it is not an
    int, is negative or is ``>= num_partitions``.

    >>> check_partition(7, "t", 6)
    Traceback (most recent call last):
    ...
    kpart.errors.InvalidPartitionError: Invalid partition given with record: 7 is not in the range [0...6).
    """
    if isinstance(partition, bool) or not isinstance(partition, int):
        raise InvalidPartitionError(
            f"The partitioner generated an invalid partition number: {partition!r} "
            f"(not an int) for topic {topic}."
        )
    if partition < 0:
        raise InvalidPartitionError(
            f"The partitioner generated an invalid partition number: {partition}. "
            "Partition number should always be non-negative."
        )
    if partition >= num_partitions:
        raise InvalidPartitionError(
            f"Invalid partition given with record: {partition} "
            f"is not in the range [0...{num_partitions})."
        )
    return partition


def _not_found(spec: str, why: str = "") -> ConfigError:
    # Kafka: ConfigException(name, value, "Class " + value + " could not be found.")
    detail = f" ({why})" if why else ""
    return ConfigError(
        f"Invalid value {spec} for configuration partitioner.class: "
        f"Class {spec} could not be found.{detail}"
    )


def load_partitioner(spec: str, configs: Mapping[str, Any] | None = None) -> Partitioner:
    """Instantiate the partitioner class named ``spec`` (``"package.module:ClassName"``, or
    ``"package.module.ClassName"``), then call its ``configure(configs)`` if it has one — as
    Kafka does for ``partitioner.class``.

    Errors (:class:`~kpart.errors.ConfigError`, naming ``spec``): malformed path, module or
    class not found, or an object without a ``partition`` method.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ConfigError(f"Invalid value {spec!r} for configuration partitioner.class")
    spec = spec.strip()
    if ":" in spec:
        module_name, _, attr = spec.partition(":")
    else:
        module_name, _, attr = spec.rpartition(".")
    if not module_name or not attr:
        raise _not_found(spec, "expected module:ClassName")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise _not_found(spec, f"no module {module_name!r}") from e
    target: Any = module
    for part in attr.split("."):
        if not hasattr(target, part):
            raise _not_found(spec, f"module {module_name!r} has no attribute {attr!r}")
        target = getattr(target, part)
    instance = target() if isinstance(target, type) else target
    if not isinstance(instance, Partitioner):
        # Kafka: KafkaException(c.getName() + " is not an instance of " + t.getName())
        raise ConfigError(
            f"{spec} is not an instance of org.apache.kafka.clients.producer.Partitioner "
            "(it has no partition(topic, key, key_bytes, value, value_bytes, cluster) method)"
        )
    configure = getattr(instance, "configure", None)
    if callable(configure):
        configure(dict(configs or {}))
    return instance
