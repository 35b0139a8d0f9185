"""Compiled (numba) key-hash kernels over Arrow variable-size binary buffers (private).

Each kernel reads the keys ``data[offsets[i]:offsets[i + 1]]`` for ``i < len(out)`` and writes
``out[i]`` = the key's partition under one index rule (``mode``):

* ``MODE_TO_POSITIVE`` (0): ``(h & 0x7fffffff) % n``  (Java, murmur2 clients, Sarama reference);
* ``MODE_UNSIGNED`` (1):    ``uint32(h) % n``         (CRC-32 clients);
* ``MODE_ABS`` (2):         ``abs(int32(h)) % n``     (== Go's ``abs(int32(h) % n)``).

Kernels are defined at module level with ``cache=True`` so a Spark Python worker compiles (or
loads from the on-disk cache) its own copy; nothing compiled is ever pickled from the driver.
The hash body is written inline with explicit ``uint32`` arithmetic (a helper call per key, or
64-bit arithmetic with masks, costs about twice as much). Each has a serial and a ``prange``
variant. The scalar references live in :mod:`kpart._java.murmur2` and
:mod:`kpart.producer._hashes`; property tests check equality.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

__all__ = ["KERNELS", "MODE_ABS", "MODE_TO_POSITIVE", "MODE_UNSIGNED", "MODES"]

MODE_TO_POSITIVE = 0
MODE_UNSIGNED = 1
MODE_ABS = 2
MODES = {"to-positive": MODE_TO_POSITIVE, "unsigned": MODE_UNSIGNED, "abs": MODE_ABS}

_U32 = np.uint32
_M = np.uint32(0x5BD1E995)
_SEED = np.uint32(0x9747B28C)
_FNV_OFFSET = np.uint32(0x811C9DC5)
_FNV_PRIME = np.uint32(0x01000193)
_JS_M = 1540483477.0  # 0x5bd1e995 as a JavaScript number


def _crc_tables() -> np.ndarray:
    """Slicing-by-8 tables of the reflected IEEE CRC-32 polynomial 0xEDB88320."""
    tables = np.zeros((8, 256), dtype=np.uint32)
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
        tables[0, i] = c
    for i in range(256):
        c = int(tables[0, i])
        for t in range(1, 8):
            c = int(tables[0, c & 0xFF]) ^ (c >> 8)
            tables[t, i] = c
    return tables


_CRC = _crc_tables()


@njit(inline="always")
def _index(h, n, mode):
    if mode == 0:
        return np.int32(_U32(h & _U32(0x7FFFFFFF)) % _U32(n))
    if mode == 1:
        return np.int32(_U32(h) % _U32(n))
    s = np.int64(np.int32(h))
    if s < 0:
        s = -s
    return np.int32(np.uint64(s) % np.uint64(n))


@njit(inline="always")
def _murmur2(data, start, end):
    length = end - start
    h = _U32(_SEED ^ _U32(length))
    stop = start + (length & ~3)
    j = start
    while j < stop:
        k = _U32(
            _U32(data[j])
            | _U32(_U32(data[j + 1]) << 8)
            | _U32(_U32(data[j + 2]) << 16)
            | _U32(_U32(data[j + 3]) << 24)
        )
        k = _U32(k * _M)
        k = _U32(k ^ _U32(k >> 24))
        k = _U32(k * _M)
        h = _U32(_U32(h * _M) ^ k)
        j += 4
    extra = length & 3
    if extra >= 3:
        h = _U32(h ^ _U32(_U32(data[stop + 2]) << 16))
    if extra >= 2:
        h = _U32(h ^ _U32(_U32(data[stop + 1]) << 8))
    if extra >= 1:
        h = _U32(h ^ _U32(data[stop]))
        h = _U32(h * _M)
    h = _U32(h ^ _U32(h >> 13))
    h = _U32(h * _M)
    h = _U32(h ^ _U32(h >> 15))
    return h


@njit(inline="always")
def _fnv1a(data, start, end):
    h = _FNV_OFFSET
    for j in range(start, end):
        h = _U32(_U32(h ^ _U32(data[j])) * _FNV_PRIME)
    return h


@njit(inline="always")
def _crc32(data, start, end, tables):
    crc = _U32(0xFFFFFFFF)
    j = start
    while j + 8 <= end:
        one = _U32(
            crc
            ^ _U32(
                _U32(data[j])
                | _U32(_U32(data[j + 1]) << 8)
                | _U32(_U32(data[j + 2]) << 16)
                | _U32(_U32(data[j + 3]) << 24)
            )
        )
        crc = _U32(
            tables[7, one & 0xFF]
            ^ tables[6, (one >> 8) & 0xFF]
            ^ tables[5, (one >> 16) & 0xFF]
            ^ tables[4, one >> 24]
            ^ tables[3, data[j + 4]]
            ^ tables[2, data[j + 5]]
            ^ tables[1, data[j + 6]]
            ^ tables[0, data[j + 7]]
        )
        j += 8
    while j < end:
        crc = _U32(tables[0, (crc ^ _U32(data[j])) & 0xFF] ^ _U32(crc >> 8))
        j += 1
    return _U32(crc ^ _U32(0xFFFFFFFF))


@njit(inline="always")
def _js_int32(x):
    """ECMAScript ToInt32 of an integral double with |x| < 2**63."""
    return np.int32(np.int64(x))


@njit(inline="always")
def _js_uint32(x):
    """ECMAScript ToUint32 of an integral double with |x| < 2**63."""
    return _U32(np.int64(x))


@njit(inline="always")
def _kafkajs_legacy(data, start, end):
    length = end - start
    h = np.int32(np.int32(-1756908916) ^ np.int32(length))  # ToInt32(0x9747b28c) ^ length
    hf = 0.0
    h_is_float = False
    blocks = (length + 3) // 4
    for i in range(blocks):
        j = start + 4 * i
        k = np.int64(data[j])
        if j + 1 < end:
            k += np.int64(data[j + 1]) << 8
        if j + 2 < end:
            k += np.int64(data[j + 2]) << 16
        if j + 3 < end:
            k += np.int64(np.int32(_U32(data[j + 3]) << 24))
        kf = np.float64(k) * _JS_M
        k32 = np.int32(_js_int32(kf) ^ np.int32(_js_uint32(kf) >> 24))
        kf = np.float64(k32) * _JS_M
        hf = np.float64(h) * _JS_M
        h = np.int32(_js_int32(hf) ^ _js_int32(kf))
    base = start + (length & ~3)
    extra = length & 3
    if extra >= 3:
        h = np.int32(h ^ np.int32(np.int32(data[base + 2]) << 16))
    if extra >= 2:
        h = np.int32(h ^ np.int32(np.int32(data[base + 1]) << 8))
    if extra >= 1:
        h = np.int32(h ^ np.int32(data[base]))
        hf = np.float64(h) * _JS_M
        h_is_float = True
    if h_is_float:
        h = np.int32(_js_int32(hf) ^ np.int32(_js_uint32(hf) >> 13))
    else:
        h = np.int32(h ^ np.int32(_U32(h) >> 13))
    hf = np.float64(h) * _JS_M
    h = np.int32(_js_int32(hf) ^ np.int32(_js_uint32(hf) >> 15))
    return _U32(h)


# ---- serial kernels ---------------------------------------------------------------------------


@njit(cache=True, nogil=True, boundscheck=False)
def murmur2_partitions(data, offsets, n, mode, out):
    for i in range(out.shape[0]):
        out[i] = _index(_murmur2(data, offsets[i], offsets[i + 1]), n, mode)


@njit(cache=True, nogil=True, boundscheck=False)
def fnv1a_partitions(data, offsets, n, mode, out):
    for i in range(out.shape[0]):
        out[i] = _index(_fnv1a(data, offsets[i], offsets[i + 1]), n, mode)


@njit(cache=True, nogil=True, boundscheck=False)
def crc32_partitions(data, offsets, n, mode, out):
    tables = _CRC
    for i in range(out.shape[0]):
        out[i] = _index(_crc32(data, offsets[i], offsets[i + 1], tables), n, mode)


@njit(cache=True, nogil=True, boundscheck=False)
def kafkajs_legacy_partitions(data, offsets, n, mode, out):
    for i in range(out.shape[0]):
        out[i] = _index(_kafkajs_legacy(data, offsets[i], offsets[i + 1]), n, mode)


# ---- parallel (prange) kernels ----------------------------------------------------------------


@njit(cache=True, nogil=True, boundscheck=False, parallel=True)
def murmur2_partitions_parallel(data, offsets, n, mode, out):
    for i in prange(out.shape[0]):
        out[i] = _index(_murmur2(data, offsets[i], offsets[i + 1]), n, mode)


@njit(cache=True, nogil=True, boundscheck=False, parallel=True)
def fnv1a_partitions_parallel(data, offsets, n, mode, out):
    for i in prange(out.shape[0]):
        out[i] = _index(_fnv1a(data, offsets[i], offsets[i + 1]), n, mode)


@njit(cache=True, nogil=True, boundscheck=False, parallel=True)
def crc32_partitions_parallel(data, offsets, n, mode, out):
    tables = _CRC
    for i in prange(out.shape[0]):
        out[i] = _index(_crc32(data, offsets[i], offsets[i + 1], tables), n, mode)


@njit(cache=True, nogil=True, boundscheck=False, parallel=True)
def kafkajs_legacy_partitions_parallel(data, offsets, n, mode, out):
    for i in prange(out.shape[0]):
        out[i] = _index(_kafkajs_legacy(data, offsets[i], offsets[i + 1]), n, mode)


#: hash name -> (serial kernel, parallel kernel)
KERNELS = {
    "murmur2": (murmur2_partitions, murmur2_partitions_parallel),
    "fnv1a": (fnv1a_partitions, fnv1a_partitions_parallel),
    "crc32": (crc32_partitions, crc32_partitions_parallel),
    "kafkajs-legacy-murmur2": (kafkajs_legacy_partitions, kafkajs_legacy_partitions_parallel),
}
