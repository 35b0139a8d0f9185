"""Compiled (numba) key-hash kernels over Arrow variable-size binary buffers (private).

Each kernel reads the keys ``data[offsets[i]:offsets[i + 1]]`` for ``i < len(out)`` and writes
``out[i]`` = the key's partition under one index rule (``mode``):

* ``MODE_TO_POSITIVE`` (0): ``(h & 0x7fffffff) % n``  (Java, murmur2 clients, Sarama reference);
* ``MODE_UNSIGNED`` (1):    ``uint32(h) % n``         (CRC-32 clients);
* ``MODE_ABS`` (2):         ``abs(int32(h)) % n``     (== Go's ``abs(int32(h) % n)``).

Kernels are defined at module level with ``cache=True`` so a Spark Python worker compiles (or
loads from the on-disk cache) its own copy; nothing compiled is ever pickled from the driver.
The hash body is written inline in each loop with explicit ``uint32`` arithmetic, shift counts
included (a helper per key, or mixed signed/unsigned typing, costs about twice as much). Each
kernel has a ``prange`` variant that runs the serial kernel over contiguous chunks. The scalar references live in :mod:`kpart._java.murmur2` and
:mod:`kpart.producer._hashes`; property tests check equality.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias, TypeVar, cast

import numpy as np
from numba import njit, prange
from numpy.typing import NDArray

_F = TypeVar("_F", bound=Callable[..., Any])


def _compiled(**options: Any) -> Callable[[_F], _F]:
    """``numba.njit(**options)``, typed as what it is to a caller: the compiled function takes and
    returns what the Python function does (numba ships no type information, so a bare ``@njit``
    would make every kernel untyped). Every kernel of this module is decorated with it."""
    return cast("Callable[[_F], _F]", njit(**options))


#: A kernel: ``(data, offsets, n, mode, out)`` -> writes ``out[i]`` for every key ``i``.
Kernel: TypeAlias = Callable[
    [NDArray[np.uint8], NDArray[np.int32] | NDArray[np.int64], int, int, NDArray[np.int32]], None
]
_Data: TypeAlias = NDArray[np.uint8]
_Offsets: TypeAlias = NDArray[np.int32] | NDArray[np.int64]
_Out: TypeAlias = NDArray[np.int32]

__all__ = ["KERNELS", "MODES", "MODE_ABS", "MODE_TO_POSITIVE", "MODE_UNSIGNED", "Kernel"]

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


def _crc_tables() -> NDArray[np.uint32]:
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
_U0 = np.uint32(0)
_S8 = np.uint32(8)
_S13 = np.uint32(13)
_S15 = np.uint32(15)
_S16 = np.uint32(16)
_S24 = np.uint32(24)
_LOW31 = np.uint32(0x7FFFFFFF)
_SIGN = np.uint32(0x80000000)
_BYTE = np.uint32(0xFF)
_ONES = np.uint32(0xFFFFFFFF)
# Unsigned byte indices: numba then skips negative-index wraparound, so LLVM can merge four byte
# loads into one 32-bit load (about 2x faster than signed indices).
_U64 = np.uint64
_I1 = np.uint64(1)
_I2 = np.uint64(2)
_I3 = np.uint64(3)
_I4 = np.uint64(4)
_I5 = np.uint64(5)
_I6 = np.uint64(6)
_I7 = np.uint64(7)
_I8 = np.uint64(8)
_NOT3 = ~np.uint64(3)


@_compiled(inline="always")
def _index(h: np.uint32, nn: np.uint32, mode: int) -> np.int32:
    """Partition of the uint32 hash ``h`` for ``nn = uint32(n)`` under ``mode``.

    Inlined in every kernel (a Python call per key would cost the speed), so it re-states Java
    ``int`` arithmetic: it must agree with :func:`kpart.producer.clients.index_of_hash`, i.e.
    ``kpart._java.murmur2.to_positive(h) % n`` (mode 0) and
    ``abs(kpart._java.murmur2.to_int32(h)) % n`` (mode 2);
    ``tests/producer/test_producer_kernels_property.py`` checks both.
    """
    if mode == 0:
        return np.int32((h & _LOW31) % nn)
    if mode == 1:
        return np.int32(h % nn)
    a = h if h < _SIGN else _U32(_U0 - h)  # |int32(h)|, with |MIN_INT| = 2**31
    return np.int32(a % nn)


# ---- serial kernels (hash bodies inline) ------------------------------------------------------


@_compiled(cache=True, nogil=True, boundscheck=False)
def murmur2_partitions(data: _Data, offsets: _Offsets, n: int, mode: int, out: _Out) -> None:
    nn = _U32(n)
    for i in range(out.shape[0]):
        start = _U64(offsets[i])
        length = _U64(offsets[i + 1]) - start
        h = _U32(_SEED ^ _U32(length))
        stop = start + (length & _NOT3)
        j = start
        while j < stop:
            k = (_U32(data[j]) | (_U32(data[j + _I1]) << _S8) | (_U32(data[j + _I2]) << _S16)
                 | (_U32(data[j + _I3]) << _S24))
            k = _U32(k * _M)
            k = _U32(k ^ (k >> _S24))
            k = _U32(k * _M)
            h = _U32(_U32(h * _M) ^ k)
            j += _I4
        extra = length & _I3
        if extra >= _I3:
            h = _U32(h ^ (_U32(data[stop + _I2]) << _S16))
        if extra >= _I2:
            h = _U32(h ^ (_U32(data[stop + _I1]) << _S8))
        if extra >= _I1:
            h = _U32(h ^ _U32(data[stop]))
            h = _U32(h * _M)
        h = _U32(h ^ (h >> _S13))
        h = _U32(h * _M)
        h = _U32(h ^ (h >> _S15))
        out[i] = _index(h, nn, mode)


@_compiled(cache=True, nogil=True, boundscheck=False)
def fnv1a_partitions(data: _Data, offsets: _Offsets, n: int, mode: int, out: _Out) -> None:
    # FNV-1a is one multiply chain per byte: hash two keys in lockstep so their chains overlap.
    nn = _U32(n)
    count = out.shape[0]
    i = 0
    while i + 1 < count:
        ja = _U64(offsets[i])
        jb = _U64(offsets[i + 1])
        ea = jb
        eb = _U64(offsets[i + 2])
        ha = _FNV_OFFSET
        hb = _FNV_OFFSET
        while ja < ea and jb < eb:
            ha = _U32(_U32(ha ^ _U32(data[ja])) * _FNV_PRIME)
            hb = _U32(_U32(hb ^ _U32(data[jb])) * _FNV_PRIME)
            ja += _I1
            jb += _I1
        while ja < ea:
            ha = _U32(_U32(ha ^ _U32(data[ja])) * _FNV_PRIME)
            ja += _I1
        while jb < eb:
            hb = _U32(_U32(hb ^ _U32(data[jb])) * _FNV_PRIME)
            jb += _I1
        out[i] = _index(ha, nn, mode)
        out[i + 1] = _index(hb, nn, mode)
        i += 2
    if i < count:
        h = _FNV_OFFSET
        j = _U64(offsets[i])
        end = _U64(offsets[i + 1])
        while j < end:
            h = _U32(_U32(h ^ _U32(data[j])) * _FNV_PRIME)
            j += _I1
        out[i] = _index(h, nn, mode)


@_compiled(cache=True, nogil=True, boundscheck=False)
def crc32_partitions(data: _Data, offsets: _Offsets, n: int, mode: int, out: _Out) -> None:
    nn = _U32(n)
    t = _CRC
    for i in range(out.shape[0]):
        crc = _ONES
        j = _U64(offsets[i])
        end = _U64(offsets[i + 1])
        while j + _I8 <= end:
            one = _U32(crc ^ (_U32(data[j]) | (_U32(data[j + _I1]) << _S8)
                              | (_U32(data[j + _I2]) << _S16) | (_U32(data[j + _I3]) << _S24)))
            crc = _U32(t[7, one & _BYTE] ^ t[6, (one >> _S8) & _BYTE]
                       ^ t[5, (one >> _S16) & _BYTE] ^ t[4, one >> _S24]
                       ^ t[3, data[j + _I4]] ^ t[2, data[j + _I5]]
                       ^ t[1, data[j + _I6]] ^ t[0, data[j + _I7]])
            j += _I8
        while j < end:
            crc = _U32(t[0, (crc ^ _U32(data[j])) & _BYTE] ^ (crc >> _S8))
            j += _I1
        out[i] = _index(_U32(crc ^ _ONES), nn, mode)


@_compiled(inline="always")
def _js_mul(x: np.integer[Any]) -> np.int64:
    """``x * M`` as a JavaScript double product, as int64 (exact: |x * M| < 2**63 for int32 x)."""
    return np.int64(np.float64(x) * _JS_M)


@_compiled(inline="always")
def _js_block(h: np.int32, w: np.uint32) -> np.int32:
    """One kafkajs block: ``k = int32(w)``, mixed by two double products; ``h = h * M ^ k``."""
    kf = _js_mul(np.int32(w))
    kf = _js_mul(np.int32(np.int32(kf) ^ np.int32(_U32(kf) >> _S24)))
    return np.int32(np.int32(_js_mul(h)) ^ np.int32(kf))


@_compiled(inline="always")
def _js_word(data: _Data, j: np.uint64) -> np.uint32:
    return (_U32(data[j]) | (_U32(data[j + _I1]) << _S8) | (_U32(data[j + _I2]) << _S16)
            | (_U32(data[j + _I3]) << _S24))


@_compiled(inline="always")
def _js_finish(
    data: _Data, j: np.uint64, stop: np.uint64, end: np.uint64, h: np.int32
) -> np.uint32:
    """The rest of one key from block ``j``: whole blocks to ``stop``, the tail, the final mix."""
    while j < stop:
        h = _js_block(h, _js_word(data, j))
        j += _I4
    if stop < end:
        # JS: `i < length / 4` runs ceil(length / 4) times; the last, partial block reads the
        # bytes past the end as `undefined & 0xff == 0`, so its word is the tail bytes `w`
        # (< 2**24). The tail switch then xors the same bytes into h: `h = (h ^ w) * M`.
        extra = end - stop
        w = _U32(data[stop])
        if extra >= _I2:
            w |= _U32(data[stop + _I1]) << _S8
        if extra >= _I3:
            w |= _U32(data[stop + _I2]) << _S16
        hf = _js_mul(np.int32(_js_block(h, w) ^ np.int32(w)))
    else:
        hf = np.int64(h)
    h = np.int32(np.int32(hf) ^ np.int32(_U32(hf) >> _S13))
    hf = _js_mul(h)
    return _U32(np.int32(hf) ^ np.int32(_U32(hf) >> _S15))


@_compiled(cache=True, nogil=True, boundscheck=False)
def kafkajs_legacy_partitions(data: _Data, offsets: _Offsets, n: int, mode: int, out: _Out) -> None:
    # JavaScript numbers: every `*` is a double multiply; `^`, `>>>` apply ToInt32/ToUint32 to
    # the (integral, |x| < 2**63) product, computed exactly through int64. Each block's h-chain
    # (int -> double -> multiply -> int) is latency-bound, so two keys run in lockstep: their
    # whole blocks (written out inline), then, when both reach their tails together (equal block
    # counts, or once the longer has caught up), their partial blocks and final mixes.
    nn = _U32(n)
    count = out.shape[0]
    i = 0
    while i + 1 < count:
        ja = _U64(offsets[i])
        jb = _U64(offsets[i + 1])
        ea = jb
        eb = _U64(offsets[i + 2])
        sa = ja + ((ea - ja) & _NOT3)
        sb = jb + ((eb - jb) & _NOT3)
        ha = np.int32(np.int32(-1756908916) ^ np.int32(ea - ja))
        hb = np.int32(np.int32(-1756908916) ^ np.int32(eb - jb))
        while ja < sa and jb < sb:
            wa = (_U32(data[ja]) | (_U32(data[ja + _I1]) << _S8) | (_U32(data[ja + _I2]) << _S16)
                  | (_U32(data[ja + _I3]) << _S24))
            wb = (_U32(data[jb]) | (_U32(data[jb + _I1]) << _S8) | (_U32(data[jb + _I2]) << _S16)
                  | (_U32(data[jb + _I3]) << _S24))
            ka = np.int64(np.float64(np.int32(wa)) * _JS_M)
            kb = np.int64(np.float64(np.int32(wb)) * _JS_M)
            ka = np.int64(np.float64(np.int32(np.int32(ka) ^ np.int32(_U32(ka) >> _S24))) * _JS_M)
            kb = np.int64(np.float64(np.int32(np.int32(kb) ^ np.int32(_U32(kb) >> _S24))) * _JS_M)
            ha = np.int32(np.int32(np.int64(np.float64(ha) * _JS_M)) ^ np.int32(ka))
            hb = np.int32(np.int32(np.int64(np.float64(hb) * _JS_M)) ^ np.int32(kb))
            ja += _I4
            jb += _I4
        while ja < sa:  # unequal numbers of whole blocks: the longer key's remaining blocks
            ha = _js_block(ha, _js_word(data, ja))
            ja += _I4
        while jb < sb:
            hb = _js_block(hb, _js_word(data, jb))
            jb += _I4
        # Both keys are at their partial block (if any): as in `_js_finish`, in lockstep.
        fa = np.int64(ha)
        fb = np.int64(hb)
        if sa < ea:
            wa = _U32(data[sa])
            if ea - sa >= _I2:
                wa |= _U32(data[sa + _I1]) << _S8
            if ea - sa >= _I3:
                wa |= _U32(data[sa + _I2]) << _S16
            fa = _js_mul(np.int32(_js_block(ha, wa) ^ np.int32(wa)))
        if sb < eb:
            wb = _U32(data[sb])
            if eb - sb >= _I2:
                wb |= _U32(data[sb + _I1]) << _S8
            if eb - sb >= _I3:
                wb |= _U32(data[sb + _I2]) << _S16
            fb = _js_mul(np.int32(_js_block(hb, wb) ^ np.int32(wb)))
        fa = _js_mul(np.int32(np.int32(fa) ^ np.int32(_U32(fa) >> _S13)))
        fb = _js_mul(np.int32(np.int32(fb) ^ np.int32(_U32(fb) >> _S13)))
        out[i] = _index(_U32(np.int32(fa) ^ np.int32(_U32(fa) >> _S15)), nn, mode)
        out[i + 1] = _index(_U32(np.int32(fb) ^ np.int32(_U32(fb) >> _S15)), nn, mode)
        i += 2
    if i < count:
        j = _U64(offsets[i])
        end = _U64(offsets[i + 1])
        h = np.int32(np.int32(-1756908916) ^ np.int32(end - j))
        out[i] = _index(_js_finish(data, j, j + ((end - j) & _NOT3), end, h), nn, mode)


# ---- parallel kernels: the serial kernel over contiguous chunks ------------------------------

_CHUNKS = 64


@_compiled(cache=True, nogil=True, parallel=True)
def murmur2_partitions_parallel(data: _Data, offsets: _Offsets, n: int, mode: int, out: _Out) -> None:
    size = (out.shape[0] + _CHUNKS - 1) // _CHUNKS
    for c in prange(_CHUNKS):
        lo = min(c * size, out.shape[0])
        hi = min(lo + size, out.shape[0])
        murmur2_partitions(data, offsets[lo : hi + 1], n, mode, out[lo:hi])


@_compiled(cache=True, nogil=True, parallel=True)
def fnv1a_partitions_parallel(data: _Data, offsets: _Offsets, n: int, mode: int, out: _Out) -> None:
    size = (out.shape[0] + _CHUNKS - 1) // _CHUNKS
    for c in prange(_CHUNKS):
        lo = min(c * size, out.shape[0])
        hi = min(lo + size, out.shape[0])
        fnv1a_partitions(data, offsets[lo : hi + 1], n, mode, out[lo:hi])


@_compiled(cache=True, nogil=True, parallel=True)
def crc32_partitions_parallel(data: _Data, offsets: _Offsets, n: int, mode: int, out: _Out) -> None:
    size = (out.shape[0] + _CHUNKS - 1) // _CHUNKS
    for c in prange(_CHUNKS):
        lo = min(c * size, out.shape[0])
        hi = min(lo + size, out.shape[0])
        crc32_partitions(data, offsets[lo : hi + 1], n, mode, out[lo:hi])


@_compiled(cache=True, nogil=True, parallel=True)
def kafkajs_legacy_partitions_parallel(data: _Data, offsets: _Offsets, n: int, mode: int, out: _Out) -> None:
    size = (out.shape[0] + _CHUNKS - 1) // _CHUNKS
    for c in prange(_CHUNKS):
        lo = min(c * size, out.shape[0])
        hi = min(lo + size, out.shape[0])
        kafkajs_legacy_partitions(data, offsets[lo : hi + 1], n, mode, out[lo:hi])


#: hash name -> (serial kernel, parallel kernel)
KERNELS: dict[str, tuple[Kernel, Kernel]] = {
    "murmur2": (murmur2_partitions, murmur2_partitions_parallel),
    "fnv1a": (fnv1a_partitions, fnv1a_partitions_parallel),
    "crc32": (crc32_partitions, crc32_partitions_parallel),
    "kafkajs-legacy-murmur2": (kafkajs_legacy_partitions, kafkajs_legacy_partitions_parallel),
}
