"""org.apache.kafka.common.utils.Utils#murmur2 and Utils#toPositive, bit for bit.

Kafka hashes a record's serialized key with a 32-bit MurmurHash2 variant (seed
``0x9747b28c``, little-endian 4-byte blocks, Java ``int`` arithmetic) and maps the signed
result to a partition with ``toPositive(h) % numPartitions`` (``BuiltInPartitioner``).
This module is the scalar reference: pure Python, no dependency. The compiled Arrow kernels in
:mod:`kpart.producer.kernels` are property-tested against it.

>>> murmur2(b"")
275646681
>>> murmur2(b"a")
-1563381124
>>> to_positive(-1563381124)
584102524
"""

from __future__ import annotations

from kpart._java.ints import to_int32

__all__ = ["MURMUR2_SEED", "murmur2", "murmur2_unsigned", "to_positive"]

MURMUR2_SEED = 0x9747B28C
_M = 0x5BD1E995
_MASK = 0xFFFFFFFF


def murmur2_unsigned(data: bytes) -> int:
    """Kafka's murmur2 of ``data`` as an unsigned 32-bit value in ``[0, 2**32)``.

    Same bits as :func:`murmur2`; this is the form kafka-python and kafka-go return.

    >>> murmur2_unsigned(b"a")
    2731586172
    """
    view = memoryview(data).cast("B")
    length = len(view)
    h = (MURMUR2_SEED ^ length) & _MASK
    blocks = length & ~3
    for i in range(0, blocks, 4):
        k = view[i] | (view[i + 1] << 8) | (view[i + 2] << 16) | (view[i + 3] << 24)
        k = (k * _M) & _MASK
        k ^= k >> 24
        k = (k * _M) & _MASK
        h = ((h * _M) & _MASK) ^ k
    extra = length & 3
    if extra >= 3:
        h ^= view[blocks + 2] << 16
    if extra >= 2:
        h ^= view[blocks + 1] << 8
    if extra >= 1:
        h ^= view[blocks]
        h = (h * _M) & _MASK
    h ^= h >> 13
    h = (h * _M) & _MASK
    h ^= h >> 15
    return h


def murmur2(data: bytes) -> int:
    """``Utils.murmur2(byte[])``: Kafka's 32-bit MurmurHash2 of ``data``, as a signed Java int.

    Args:
        data: the serialized key (any bytes-like object; ``b""`` is a valid key).

    Returns:
        an int in ``[-2**31, 2**31)``, exactly what Java returns.

    Source: ``org.apache.kafka.common.utils.Utils#murmur2`` (seed ``0x9747b28c``).

    >>> murmur2(b"my_key_1")
    1322862588
    """
    return to_int32(murmur2_unsigned(data))


def to_positive(number: int) -> int:
    """``Utils.toPositive(int)``: ``number & 0x7fffffff`` (not ``abs``: ``-1`` maps to ``2**31-1``).

    >>> to_positive(-1)
    2147483647
    """
    return number & 0x7FFFFFFF
