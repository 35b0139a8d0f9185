"""Scalar key hashes of the non-Java Kafka clients (pure Python reference implementations).

* CRC-32 (IEEE 802.3, as zlib): librdkafka ``consistent``, Sarama ``NewConsistentCRCHashPartitioner``,
  kafka-go ``CRC32Balancer``;
* FNV-1a 32: librdkafka ``fnv1a``, Sarama ``NewHashPartitioner``/``NewReferenceHashPartitioner``,
  kafka-go ``Hash``/``ReferenceHash``;
* kafkajs's pre-2.0 murmur2 (``LegacyPartitioner``), which JavaScript's float arithmetic makes
  differ from Java's: every ``*`` is an IEEE-754 double multiply (exact only up to 2**53), the
  block loop runs ``ceil(len/4)`` times over zero-padded bytes, and the tail bytes are then mixed in
  a second time.

Kafka's own murmur2 is :func:`kpart._java.murmur2.murmur2`. The compiled kernels in
:mod:`kpart.producer._client_kernels` are tested against these functions.

>>> crc32(b"SheetJS")
2647669026
>>> hex(fnv1a32(b"kafka"))
'0xd33c4e1'
"""

from __future__ import annotations

import zlib

from kpart._java.ints import to_int32
from kpart._java.murmur2 import MURMUR2_SEED

__all__ = ["crc32", "fnv1a32", "kafkajs_legacy_murmur2"]

_M = 0x5BD1E995
_MASK = 0xFFFFFFFF
FNV1A_OFFSET = 0x811C9DC5
FNV1A_PRIME = 0x01000193


def crc32(data: bytes) -> int:
    """CRC-32 (IEEE, reflected, as ``zlib.crc32``/Go ``crc32.ChecksumIEEE``), unsigned.

    >>> crc32(b"")
    0
    """
    return zlib.crc32(data) & _MASK


def fnv1a32(data: bytes) -> int:
    """FNV-1a 32-bit (Go ``hash/fnv.New32a``), unsigned.

    >>> hex(fnv1a32(b""))
    '0x811c9dc5'
    """
    h = FNV1A_OFFSET
    for byte in memoryview(data).cast("B"):
        h = ((h ^ byte) * FNV1A_PRIME) & _MASK
    return h


def _js_int32(x: int | float) -> int:
    """ECMAScript ToInt32 of an integral number."""
    return to_int32(int(x))


def _js_uint32(x: int | float) -> int:
    """ECMAScript ToUint32 of an integral number."""
    return int(x) & _MASK


def kafkajs_legacy_murmur2(data: bytes) -> int:
    """The murmur2 of kafkajs's ``LegacyPartitioner`` (kafkajs 1.x default), as a signed int32.

    Reproduces JavaScript number semantics: ``h *= M`` is a double multiply (rounded to 53
    bits), ``^``/``>>>`` apply ToInt32/ToUint32 to the rounded product, the block loop runs
    ``ceil(length / 4)`` times (reading ``undefined & 0xff == 0`` past the end), and the tail
    switch then mixes the last ``length % 4`` bytes again. Equal to Java's murmur2 only by chance.

    >>> (kafkajs_legacy_murmur2(b"100:48069") & 0x7FFFFFFF) % 12
    6
    """
    view = memoryview(data).cast("B")
    length = len(view)
    h: int | float = _js_int32(MURMUR2_SEED) ^ length
    for i in range(-(-length // 4)):
        i4 = i * 4
        b = [view[i4 + j] if i4 + j < length else 0 for j in range(4)]
        k: int | float = b[0] + (b[1] << 8) + (b[2] << 16) + _js_int32(b[3] << 24)
        k = float(k) * _M
        k = _js_int32(k) ^ (_js_uint32(k) >> 24)
        k = float(k) * _M
        h = float(h) * _M
        h = _js_int32(h) ^ _js_int32(k)
    base = length & ~3
    extra = length % 4
    if extra >= 3:
        h = _js_int32(h) ^ (view[base + 2] << 16)
    if extra >= 2:
        h = _js_int32(h) ^ (view[base + 1] << 8)
    if extra >= 1:
        h = _js_int32(h) ^ view[base]
        h = float(h) * _M
    h = _js_int32(h) ^ (_js_uint32(h) >> 13)
    h = float(h) * _M
    h = _js_int32(h) ^ (_js_uint32(h) >> 15)
    return int(h)
