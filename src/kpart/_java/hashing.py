"""``java.lang.String#hashCode`` and ``java.util.HashMap`` iteration order, emulated.

Kafka's results sometimes depend on the order in which a ``HashMap``/``HashSet`` yields its
keys (``StripedReplicaPlacer``'s racks, the sticky assignors' member and topic maps). A
``HashMap`` iterates its table bucket by bucket (index ``spread(hash) & (capacity - 1)``) and,
inside a bucket, in insertion order (a resize splits each bucket into a "lo" and a "hi" list
keeping their relative order, so insertion order survives resizes). Removing a key and
inserting it again moves it to the end of its bucket. The table starts at
``tableSizeFor(initialCapacity)`` (16 by default) and doubles whenever the size exceeds
``capacity * 0.75``; it never shrinks.

Not emulated: tree bins (a bucket holding ≥ 8 keys in a table of ≥ 64 slots), which only
arise with pathological hash collisions.

>>> string_hash_code("rack-a"), string_hash_code("")
(-938608917, 0)
>>> hashmap_order(["b", "a", "rack1", None])
[None, 'a', 'b', 'rack1']
"""

from __future__ import annotations

import struct
import sys
from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

from kpart._java.ints import to_int32

__all__ = [
    "hashmap_capacity",
    "hashmap_order",
    "hashset_copy_capacity",
    "java_hash",
    "presized_capacity",
    "spread",
    "string_hash_code",
    "table_size_for",
]

K = TypeVar("K", bound=Hashable)

_MAX_CAPACITY = 1 << 30
_UTF16 = "utf-16-le" if sys.byteorder == "little" else "utf-16-be"  # native code units


def string_hash_code(s: str) -> int:
    """``String.hashCode()``: ``s[0]*31^(n-1) + ... + s[n-1]`` over UTF-16 code units, as a
    signed 32-bit int (lone surrogates count as the code unit they are, as in Java)."""
    units: bytes | memoryview
    if s.isascii():
        units = s.encode("ascii")
    else:
        units = memoryview(s.encode(_UTF16, "surrogatepass")).cast("H")
    h = 0
    if len(units) <= 64:  # a short string: one mask at the end is cheaper than one per unit
        for u in units:
            h = h * 31 + u
    else:
        for u in units:
            h = (h * 31 + u) & 0xFFFFFFFF
    return to_int32(h)


def java_hash(key: object) -> int:
    """``hashCode()`` of a key as Java sees it: ``String`` → :func:`string_hash_code`,
    ``None`` (``null`` or ``Optional.empty()``) → 0, ``int`` → ``Integer.hashCode`` (the value),
    a ``(topic, partition)`` tuple → ``TopicPartition.hashCode``."""
    if key is None:
        return 0
    if isinstance(key, str):
        return string_hash_code(key)
    if isinstance(key, bool):
        return 1231 if key else 1237
    if isinstance(key, int):
        return to_int32(key)
    if isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], str):
        # TopicPartition.hashCode: 31 * (31 + partition) + topic.hashCode()
        return to_int32(31 * (31 + key[1]) + string_hash_code(key[0]))
    raise TypeError(f"no Java hashCode known for {key!r}")


def spread(h: int) -> int:
    """``HashMap.hash``: ``h ^ (h >>> 16)`` on the unsigned 32-bit value."""
    h &= 0xFFFFFFFF
    return h ^ (h >> 16)


def table_size_for(cap: int) -> int:
    """``HashMap.tableSizeFor``: the smallest power of two ≥ ``cap`` (1 for ``cap`` ≤ 1)."""
    if cap <= 1:
        return 1
    return min(1 << (cap - 1).bit_length(), _MAX_CAPACITY)


def hashmap_capacity(size: int, initial_capacity: int = 16, load_factor: float = 0.75) -> int:
    """Table length of a ``new HashMap<>(initial_capacity)`` after ``size`` distinct puts."""
    cap = table_size_for(initial_capacity)
    while size > int(cap * load_factor) and cap < _MAX_CAPACITY:
        cap *= 2
    return cap


def _float32(x: float) -> float:
    """``x`` rounded to a Java ``float``."""
    return float(struct.unpack("f", struct.pack("f", x))[0])


def presized_capacity(expected: int) -> int:
    """``(int) (expected / 0.75f) + 1``: the initial capacity Java code passes to presize a
    ``HashMap``/``HashSet`` for ``expected`` entries, so that filling it never resizes (Kafka's
    assignors; ``HashSet``'s copy constructor). Computed in ``float``, as Java does.

    >>> presized_capacity(3), presized_capacity(12), hashmap_capacity(12, presized_capacity(12))
    (5, 17, 32)
    """
    return int(_float32(_float32(expected) / 0.75)) + 1


def hashset_copy_capacity(size: int) -> int:
    """Table length of ``new HashSet<>(collection)`` holding ``size`` elements (Java 17:
    ``new HashMap<>(Math.max((int) (size / .75f) + 1, 16))``)."""
    return hashmap_capacity(size, max(presized_capacity(size), 16))


def hashmap_order(
    keys: Iterable[K],
    *,
    capacity: int | None = None,
    hash_of: Callable[[K], int] = java_hash,
) -> list[K]:
    """Iteration order of a ``java.util.HashMap`` (or ``HashSet``) into which ``keys`` were
    inserted in the given order (duplicates keep their first position).

    Why it exists beside :class:`~kpart._java.collections.JavaHashSet` /
    :class:`~kpart._java.collections.JavaHashMap`: many of the maps Kafka iterates are
    filled once with ``put``/``add`` and only then read. For that fill-then-read pattern the
    order is a pure function of the keys and the final table length, so this stateless
    shortcut computes it with one stable sort, without building a table (cheaper than
    filling a ``JavaHashSet``). It is not a third emulation: it uses the same bucket model
    (``spread(hash) & (capacity - 1)``, insertion order inside a bucket, kept by resizes) and
    gives the order of a ``JavaHashSet`` filled with ``add`` in the same order, within the
    limits below.

    ``capacity``: the final table length; by default that of a ``new HashMap<>()`` after
    these inserts (:func:`hashmap_capacity`); pass ``hashmap_capacity(n, initial)`` for a
    ``new HashMap<>(initial)``. ``hash_of``: the keys' ``hashCode`` (default :func:`java_hash`,
    as for ``JavaHashSet``; :func:`kpart._java.uuid.uuid_hash_code` for ``Uuid`` keys).

    Not emulated: anything but ``put`` (``remove`` and re-insert, ``computeIfAbsent``'s
    head-of-bucket link, an order read before the last insert: use ``JavaHashMap`` /
    ``JavaHashSet``); tree bins; and the resize Java does instead of treeifying a bucket that
    reaches 9 keys in a table under 64 slots (``JavaHashSet`` does it): keys colliding that
    much need ``JavaHashSet``.

    >>> hashmap_order(["t1", "t0", "t2"]), hashmap_order([3, 17, 1])   # 17 and 1 share bucket 1
    (['t0', 't1', 't2'], [17, 1, 3])
    >>> from kpart._java.collections import JavaHashSet
    >>> s = JavaHashSet()
    >>> for k in [5, 21, 2, 37]:
    ...     s.add(k)
    >>> hashmap_order([5, 21, 2, 37]) == list(s) == [2, 5, 21, 37]
    True
    """
    unique = list(dict.fromkeys(keys))
    cap = hashmap_capacity(len(unique)) if capacity is None else capacity
    mask = cap - 1
    # sorted() is stable: inside a bucket, insertion order is kept.
    return sorted(unique, key=lambda k: spread(hash_of(k)) & mask)
