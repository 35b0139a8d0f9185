"""``java.util.Objects#hash`` over boxed ``Long`` and ``Integer`` values, as OpenJDK computes it.

``Objects.hash(a, b, ...)`` is ``Arrays.hashCode(new Object[]{a, b, ...})``: start at 1 and
fold ``31 * h + e.hashCode()`` over the elements in ``int`` arithmetic. ``Long.hashCode(v)``
is ``(int) (v ^ (v >>> 32))``; ``Integer.hashCode(v)`` is ``v``. Kafka's tiered-storage
metadata partitioner (``RemoteLogMetadataTopicPartitioner``) hashes a topic id's two halves
and a partition number this way.

>>> long_hash_code(-1), long_hash_code(1 << 32)
(0, 1)
>>> objects_hash(long_value(1), long_value(2), int_value(3))
30817
"""

from __future__ import annotations

from dataclasses import dataclass

from kpart._java.ints import to_int32, to_int64

__all__ = ["JavaInt", "JavaLong", "int_value", "long_hash_code", "long_value", "objects_hash"]


@dataclass(frozen=True, slots=True)
class JavaLong:
    """A boxed ``java.lang.Long`` (``value`` a signed 64-bit int)."""

    value: int

    def hash_code(self) -> int:
        return long_hash_code(self.value)


@dataclass(frozen=True, slots=True)
class JavaInt:
    """A boxed ``java.lang.Integer`` (``value`` a signed 32-bit int)."""

    value: int

    def hash_code(self) -> int:
        return to_int32(self.value)


def long_value(v: int) -> JavaLong:
    """``v`` narrowed to a Java ``long`` and boxed (an unsigned 64-bit half of a ``Uuid`` is
    the ``long`` Java's ``getMostSignificantBits``/``getLeastSignificantBits`` return)."""
    return JavaLong(to_int64(v))


def int_value(v: int) -> JavaInt:
    """``v`` narrowed to a Java ``int`` and boxed."""
    return JavaInt(to_int32(v))


def long_hash_code(v: int) -> int:
    """``Long.hashCode(v)``: ``(int) (v ^ (v >>> 32))`` (``v`` taken as a 64-bit value).

    >>> long_hash_code(-9223372036854775808)
    -2147483648
    """
    u = v & 0xFFFFFFFFFFFFFFFF
    return to_int32(u ^ (u >> 32))


def objects_hash(*values: JavaLong | JavaInt) -> int:
    """``Objects.hash(values...)``: ``31 * h + e.hashCode()`` from ``h = 1``, as a Java int.

    >>> objects_hash()
    1
    """
    h = 1
    for e in values:
        h = (31 * h + e.hash_code()) & 0xFFFFFFFF
    return to_int32(h)
