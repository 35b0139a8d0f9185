"""Java's fixed-width integer arithmetic: the narrowing every Java ``int``/``long`` expression does.

Python integers do not overflow; Java's wrap to 32 (``int``) or 64 (``long``) bits in two's
complement. Every place kpart reproduces Java arithmetic (murmur2, ``String.hashCode``,
``java.util.Random``, ``UUID.hashCode``, the producer's round-robin counter) narrows with these.

>>> to_int32(2**31), to_int32(0xFFFFFFFF), to_int64(2**63)
(-2147483648, -1, -9223372036854775808)
"""

from __future__ import annotations

__all__ = ["to_int32", "to_int64", "utils_abs"]


def to_int32(value: int) -> int:
    """The low 32 bits of ``value`` as a Java ``int`` (two's complement), in ``[-2**31, 2**31)``.

    >>> to_int32(0xFFFFFFFF)
    -1
    """
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


def to_int64(value: int) -> int:
    """The low 64 bits of ``value`` as a Java ``long`` (two's complement), in ``[-2**63, 2**63)``.

    >>> to_int64(0xFFFFFFFFFFFFFFFF)
    -1
    """
    value &= 0xFFFFFFFFFFFFFFFF
    return value - (1 << 64) if value & 0x8000000000000000 else value


def utils_abs(n: int) -> int:
    """``org.apache.kafka.common.utils.Utils#abs(int)``: ``0`` for ``Integer.MIN_VALUE``, else
    ``Math.abs(n)``. Kafka's coordinators map a key's ``hashCode()`` to a partition with it.

    It is neither ``n & 0x7fffffff`` (``Utils.toPositive``: ``-1`` → ``2**31 - 1``) nor
    ``Math.abs`` (``Integer.MIN_VALUE`` stays negative). ``n`` must be a Java ``int``.

    >>> utils_abs(-2147483648), utils_abs(-1), utils_abs(7)
    (0, 1, 7)
    """
    if not -(1 << 31) <= n < (1 << 31):
        raise ValueError(f"not a Java int: {n}")
    return 0 if n == -(1 << 31) else abs(n)
