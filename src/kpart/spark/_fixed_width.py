"""Kafka's murmur2 over fixed-width keys as plain Spark SQL column arithmetic.

Reproduces ``Utils.murmur2`` applied to the bytes of Kafka's ``ShortSerializer`` (2 bytes),
``IntegerSerializer`` (4 bytes) and ``LongSerializer`` (8 bytes), all big-endian. A fixed width
needs no loop: the 32-bit words murmur2 reads (little-endian) are byte swaps of the value's
halves. Every intermediate is an unsigned 32-bit value held in a ``bigint`` and masked with
``0xFFFFFFFF`` after each multiply, so nothing overflows under Spark 4's ANSI mode
(``(2**32 - 1) * 0x5bd1e995 < 2**63``). Null values give null.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import Column

__all__ = ["FIXED_WIDTHS", "murmur2_fixed_width"]

#: Serialized width in bytes of Kafka's fixed-width key serializers.
FIXED_WIDTHS = {"short": 2, "int": 4, "long": 8}

_SEED = 0x9747B28C
_M = 0x5BD1E995
_MASK32 = 0xFFFFFFFF


def _mul(a: Column) -> Column:
    from pyspark.sql import functions as F

    return (a * F.lit(_M)).bitwiseAND(F.lit(_MASK32))


def _shr(a: Column, bits: int) -> Column:
    from pyspark.sql import functions as F

    return F.shiftright(a, bits)  # a is in [0, 2**32): arithmetic shift = logical shift


def _bswap32(u: Column) -> Column:
    """Byte swap of an unsigned 32-bit value (big-endian bytes read as a little-endian word)."""
    from pyspark.sql import functions as F

    return (
        _shr(u, 24).bitwiseAND(F.lit(0xFF))
        .bitwiseOR(_shr(u, 8).bitwiseAND(F.lit(0xFF00)))
        .bitwiseOR(F.shiftleft(u, 8).bitwiseAND(F.lit(0xFF0000)))
        .bitwiseOR(F.shiftleft(u, 24).bitwiseAND(F.lit(0xFF000000)))
    )


def _mix_word(h: Column, k: Column) -> Column:
    k = _mul(k)
    k = k.bitwiseXOR(_shr(k, 24))
    k = _mul(k)
    return _mul(h).bitwiseXOR(k)


def murmur2_fixed_width(value: Column, width: int) -> Column:
    """Unsigned 32-bit murmur2 (a ``bigint`` in ``[0, 2**32)``) of ``value`` serialized big-endian
    on ``width`` ∈ {2, 4, 8} bytes; ``value`` is an integral column. Null → null.

    Mask with ``0x7fffffff`` for Kafka's ``Utils.toPositive``.
    """
    from pyspark.sql import functions as F

    v = value.cast("bigint")
    h = F.lit((_SEED ^ width) & _MASK32).cast("bigint")
    if width == 2:
        s = v.bitwiseAND(F.lit(0xFFFF))
        # tail of two bytes [s >> 8, s & 0xff]: h ^= data[1] << 8; h ^= data[0]; h *= m
        h = h.bitwiseXOR(F.shiftleft(s.bitwiseAND(F.lit(0xFF)), 8)).bitwiseXOR(_shr(s, 8))
        h = _mul(h)
    elif width == 4:
        h = _mix_word(h, _bswap32(v.bitwiseAND(F.lit(_MASK32))))
    elif width == 8:
        hi = F.shiftright(v, 32).bitwiseAND(F.lit(_MASK32))
        lo = v.bitwiseAND(F.lit(_MASK32))
        h = _mix_word(_mix_word(h, _bswap32(hi)), _bswap32(lo))
    else:
        raise ValueError(f"unsupported fixed width {width!r}: expected 2, 4 or 8")
    h = h.bitwiseXOR(_shr(h, 13))
    h = _mul(h)
    return h.bitwiseXOR(_shr(h, 15))
