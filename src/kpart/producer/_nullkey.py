"""Helpers shared by the null-key partitioners (private): Java ``int`` arithmetic for their
counters, ``Utils.toPositive``, the random source and the key hash they delegate to.

Kafka draws these partitioners' randomness from ``ThreadLocalRandom`` (never reproducible);
kpart draws it from a seeded :class:`~kpart._java.random.JavaRandom` passed in explicitly, so a
simulation is a function of its seed.

>>> int32(0x7FFFFFFF + 1), to_positive(-1)
(-2147483648, 2147483647)
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["IntSource", "int32", "key_partition", "make_random", "to_positive"]


class IntSource(Protocol):
    """What the partitioners need from a random generator: Java's ``nextInt()`` /
    ``nextInt(bound)`` (``kpart._java.random.JavaRandom`` provides it)."""

    def next_int(self, bound: int | None = None) -> int: ...


def int32(x: int) -> int:
    """Wrap ``x`` to a signed 32-bit Java ``int``."""
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x & 0x80000000 else x


def to_positive(x: int) -> int:
    """``Utils.toPositive``: ``x & 0x7fffffff`` (not ``abs``)."""
    return x & 0x7FFFFFFF


def make_random(seed: int | None) -> IntSource:
    """A ``JavaRandom(seed)`` (unseeded when ``seed`` is ``None``, random like Kafka)."""
    from kpart._java.random import JavaRandom

    return JavaRandom(seed)


def key_partition(key_bytes: bytes, num_partitions: int) -> int:
    """Kafka's key hash ``toPositive(murmur2(key)) % numPartitions`` (from
    :mod:`kpart.producer.builtin`)."""
    from kpart.producer.builtin import partition_for_key

    return partition_for_key(key_bytes, num_partitions)
