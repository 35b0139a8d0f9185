"""Helpers shared by the null-key partitioners (private): the random source and the key hash
they delegate to. Java ``int`` arithmetic (``Utils.toPositive``, counter wrapping) is
:mod:`kpart._java.murmur2`'s :func:`~kpart._java.murmur2.to_positive` and
:func:`~kpart._java.murmur2.to_int32`.

Kafka draws these partitioners' randomness from ``ThreadLocalRandom`` (never reproducible);
kpart draws it from a seeded :class:`~kpart._java.random.JavaRandom` passed in explicitly, so a
simulation is a function of its seed.

>>> make_random(7).next_int(10), key_partition(b"my_key_1", 6)
(6, 0)
"""

from __future__ import annotations

from typing import Protocol

# ``to_positive`` is re-exported for kpart's own null-key load model, which imports it from here.
from kpart._java.murmur2 import to_positive

__all__ = ["IntSource", "key_partition", "make_random", "to_positive"]


class IntSource(Protocol):
    """What the partitioners need from a random generator: Java's ``nextInt()`` /
    ``nextInt(bound)`` (``kpart._java.random.JavaRandom`` provides it)."""

    def next_int(self, bound: int | None = None) -> int: ...


def make_random(seed: int | None) -> IntSource:
    """A ``JavaRandom(seed)`` (unseeded when ``seed`` is ``None``, random like Kafka)."""
    from kpart._java.random import JavaRandom

    return JavaRandom(seed)


def key_partition(key_bytes: bytes, num_partitions: int) -> int:
    """Kafka's key hash ``toPositive(murmur2(key)) % numPartitions``
    (``BuiltInPartitioner.partitionForKey``, from :mod:`kpart.producer.builtin`).

    Raises InvalidPartitionsError when ``num_partitions`` is not a positive int.
    """
    from kpart.producer.builtin import partition_for_key

    partition = partition_for_key(key_bytes, num_partitions)
    assert partition is not None  # java:default decides every non-null key
    return partition
