"""Java's string hashing and ordering on numpy arrays, for the array paths of the assignors.

Vectorised forms of :mod:`kpart._java.hashing` (``String.hashCode``, ``HashMap`` iteration
order) and :mod:`kpart._java.strings` (``String.compareTo`` order), exact where those are:
keys beyond the BMP and small maps fall back to the scalar emulation.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kpart._java.collections import JavaHashSet
from kpart._java.hashing import hashmap_capacity, string_hash_code
from kpart._java.strings import java_string_key

__all__ = ["SMALL_MAP", "hashmap_key_order", "java_sorted_positions", "string_hash_codes"]

#: Below this many keys a ``HashMap`` may have resized to avoid a tree bin (tables under 64
#: buckets): the object emulation, which models it, gives the order there.
SMALL_MAP = 48


def string_hash_codes(keys: Sequence[str]) -> np.ndarray:
    """``String.hashCode()`` of every key as uint32 values (int64 array): ASCII keys by a
    compiled Horner loop over their bytes, others by one over the UTF-16 code units, one
    column at a time. Keys with a code point beyond the BMP (two UTF-16
    units) are hashed one by one.

    >>> string_hash_codes(["rack-a", ""]).tolist(), -938608917 & 0xFFFFFFFF
    ([3356358379, 0], 3356358379)
    """
    n = len(keys)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    text = "\0".join(keys) + "\0"
    if text.isascii() and text.count("\0") == n:  # ASCII, no NUL: one UTF-16 unit a byte
        from kpart._java._hash_kernels import ascii_hash_codes  # numba: imported on use

        return ascii_hash_codes(np.frombuffer(text.encode("ascii"), dtype=np.uint8), n)
    units = np.array(keys, dtype=np.str_)
    width = units.dtype.itemsize // 4
    codes = units.view(np.uint32).reshape(n, width) if width else np.zeros((n, 0), np.uint32)
    if codes.size and int(codes.max()) > 0xFFFF:
        return np.array([string_hash_code(k) & 0xFFFFFFFF for k in keys], dtype=np.int64)
    lengths = np.fromiter(map(len, keys), dtype=np.int64, count=n)
    h = np.zeros(n, dtype=np.uint32)
    thirty_one = np.uint32(31)
    for col in range(width):
        live = lengths > col
        h = np.where(live, h * thirty_one + codes[:, col], h)
    return h.astype(np.int64)


def hashmap_key_order(keys: Sequence[str]) -> np.ndarray:
    """Positions of ``keys`` (distinct, in insertion order) in the iteration order of a default
    ``new HashMap<>()`` / ``HashSet`` they were put into: bucket
    ``spread(hashCode) & (capacity - 1)``, then insertion order. Exact where the object
    emulation (:class:`~kpart._java.collections.JavaHashSet`) is: small maps use it.

    >>> keys = [f"member{i}" for i in range(60)]
    >>> order = hashmap_key_order(keys)
    >>> emulated = JavaHashSet()
    >>> for k in keys:
    ...     emulated.add(k)
    >>> [keys[i] for i in order] == list(emulated)
    True
    """
    n = len(keys)
    if n <= SMALL_MAP:
        where = {k: i for i, k in enumerate(keys)}
        emulated: JavaHashSet[str] = JavaHashSet()
        for k in keys:
            emulated.add(k)
        return np.array([where[k] for k in emulated], dtype=np.int64)
    h = string_hash_codes(keys)
    bucket = (h ^ (h >> 16)) & (hashmap_capacity(n) - 1)
    return np.argsort(bucket, kind="stable")


def java_sorted_positions(keys: Sequence[str]) -> list[int]:
    """Positions of ``keys`` sorted (stably) in ``String.compareTo`` order (code-point order
    unless a key has a character beyond the BMP).

    >>> java_sorted_positions(["b", "\U0001F600", "\uffff", "a"])  # UTF-16: U+1F600 < U+FFFF
    [3, 0, 1, 2]
    """
    if "".join(keys).isascii():
        return sorted(range(len(keys)), key=keys.__getitem__)
    return sorted(range(len(keys)), key=lambda i: java_string_key(keys[i]))
