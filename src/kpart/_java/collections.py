"""``java.util.HashSet`` / ``HashMap`` as mutable objects whose iteration order is Java's.

A ``HashMap`` is a table of ``capacity`` buckets (``tableSizeFor(initialCapacity)``, allocated
at the first insertion, doubling when the size exceeds ``0.75 * capacity``, never shrinking),
iterated bucket by bucket (``spread(hash) & (capacity - 1)``); a resize splits each bucket
keeping the relative order of its keys. Inside a bucket the order depends on how a key was
inserted (Java 17):

- ``put`` / ``HashSet.add`` append the key at the *tail* of its bucket, then resize if the
  size exceeds the threshold;
- ``computeIfAbsent`` first resizes if the size *already* exceeds the threshold, then links a
  new key at the *head* of its bucket.

Both are emulated with one global position per key (tail inserts count up, head inserts count
down): since buckets only ever split, ordering a bucket's keys by position is exact. When a
bucket reaches the tree threshold (a 9th key through ``put``, an 8th through
``computeIfAbsent``) a table smaller than 64 buckets is resized instead, as Java does; real
tree bins (in larger tables) are not emulated.

The constructors mirror Java's: ``JavaHashSet(n)`` is ``new HashSet<>(n)`` (``n = 0`` gives a
1-bucket table), ``JavaHashSet.copy_of(c)`` is ``new HashSet<>(c)``
(``max((int) (size / .75f) + 1, 16)`` buckets, filled in ``c``'s order). Keys hash with
``hash_of`` (by default :func:`kpart._java.hashing.java_hash`: ``Integer``, ``String`` and
``TopicPartition`` hash codes; :func:`kpart._java.uuid.uuid_hash_code` for ``Uuid`` keys).

>>> s = JavaHashSet.copy_of([17, 1, 16, 0])
>>> list(s), s.capacity
([16, 0, 17, 1], 16)
>>> s.remove(16); s.add(16); list(s)
[0, 16, 17, 1]
>>> m = JavaHashMap()
>>> for k in (1, 17):
...     m.compute_if_absent(k, list).append(k)       # 17 is linked before 1 in bucket 1
>>> [k for k, _ in m.items()]
[17, 1]
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Any, Generic, TypeVar

from kpart._java.hashing import hashset_copy_capacity, java_hash, spread, table_size_for

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

__all__ = ["JavaHashMap", "JavaHashSet"]

_MAX_CAPACITY = 1 << 30
_TREEIFY_THRESHOLD = 8
_MIN_TREEIFY_CAPACITY = 64


class _Table:
    """Key order of a ``HashMap`` table under put / computeIfAbsent / remove."""

    __slots__ = ("_counts", "_head", "_initial", "_pos", "_spread", "_tail", "capacity", "hash_of")

    def __init__(self, initial_capacity: int, hash_of: Callable[[Any], int]) -> None:
        self._initial = table_size_for(initial_capacity)
        self.capacity = 0  # table not allocated yet
        self.hash_of = hash_of
        self._pos: dict[Any, int] = {}
        self._spread: dict[Any, int] = {}
        self._counts: dict[int, int] = {}  # keys per bucket at the current capacity
        self._tail = 0
        self._head = 0

    def _threshold(self) -> int:
        return int(self.capacity * 0.75)

    def _resize(self) -> None:
        if self.capacity == 0:
            self.capacity = self._initial
        elif self.capacity < _MAX_CAPACITY:
            self.capacity *= 2
        mask = self.capacity - 1
        counts: dict[int, int] = {}
        for h in self._spread.values():
            counts[h & mask] = counts.get(h & mask, 0) + 1
        self._counts = counts

    def _link(self, key: Any, position: int) -> int:
        """Record ``key``; returns how many keys its bucket held before."""
        h = spread(self.hash_of(key))
        self._pos[key] = position
        self._spread[key] = h
        b = h & (self.capacity - 1)
        before = self._counts.get(b, 0)
        self._counts[b] = before + 1
        return before

    def _treeify_bin(self) -> None:
        # treeifyBin: a table below MIN_TREEIFY_CAPACITY (64) is resized instead. Real tree
        # bins (larger tables) are not emulated.
        if self.capacity < _MIN_TREEIFY_CAPACITY:
            self._resize()

    def put(self, key: Any) -> bool:
        """``put``: tail insertion; returns False when the key was already there."""
        if key in self._pos:
            return False
        if self.capacity == 0:
            self._resize()
        self._tail += 1
        if self._link(key, self._tail) >= _TREEIFY_THRESHOLD:  # the new key is the 9th
            self._treeify_bin()
        if len(self._pos) > self._threshold():
            self._resize()
        return True

    def put_head(self, key: Any) -> bool:
        """``computeIfAbsent``: the pre-resize check runs first, *even when the key is
        already there* (Java 17's ``size > threshold`` test precedes the lookup), then an
        absent key is linked at the head of its bucket. Returns False for a present key."""
        if self.capacity == 0 or len(self._pos) > self._threshold():
            self._resize()
        if key in self._pos:
            return False
        self._head -= 1
        if self._link(key, self._head) >= _TREEIFY_THRESHOLD - 1:  # the new key is the 8th
            self._treeify_bin()
        return True

    def remove(self, key: Any) -> None:
        if key in self._pos:
            del self._pos[key]
            b = self._spread.pop(key) & (self.capacity - 1)
            self._counts[b] -= 1

    def clear(self) -> None:
        """``clear()``: every key removed, the table length kept."""
        self._pos.clear()
        self._spread.clear()
        self._counts.clear()

    def __contains__(self, key: object) -> bool:
        return key in self._pos

    def __len__(self) -> int:
        return len(self._pos)

    def _order_key(self) -> Callable[[Any], tuple[int, int]]:
        mask = max(self.capacity, 1) - 1
        h, pos = self._spread, self._pos
        return lambda k: (h[k] & mask, pos[k])

    def ordered(self) -> list[Any]:
        return sorted(self._pos, key=self._order_key())

    def first(self) -> Any:
        """The first key in iteration order (``KeyError`` when empty)."""
        if not self._pos:
            raise KeyError("empty map")
        return min(self._pos, key=self._order_key())


class JavaHashSet(Generic[K]):
    """A ``HashSet`` emulation: membership plus Java's iteration order (also the key order of
    a ``HashMap`` whose values do not matter).

    >>> s = JavaHashSet()
    >>> for k in ["t1", "t0", "t2"]:
    ...     s.add(k)
    >>> s.remove("t0"); s.add("t0"); list(s), s.first()
    (['t0', 't1', 't2'], 't0')
    """

    __slots__ = ("_table",)

    def __init__(
        self, initial_capacity: int = 16, *, hash_of: Callable[[Any], int] = java_hash
    ) -> None:
        self._table = _Table(initial_capacity, hash_of)

    @classmethod
    def copy_of(
        cls, items: Iterable[K], *, hash_of: Callable[[Any], int] = java_hash
    ) -> JavaHashSet[K]:
        """``new HashSet<>(items)``: sized from the collection's ``size()``, duplicates
        included (a ``List`` may repeat elements)."""
        items = list(items)
        out = cls(hashset_copy_capacity(len(items)), hash_of=hash_of)
        for k in items:
            out.add(k)
        return out

    @property
    def capacity(self) -> int:
        return self._table.capacity

    def add(self, key: K) -> None:
        self._table.put(key)

    def remove(self, key: K) -> None:
        self._table.remove(key)

    def clear(self) -> None:
        """``clear()``: removes every key but keeps the table length."""
        self._table.clear()

    def first(self) -> K:
        """``iterator().next()``: the first key in iteration order (``KeyError`` when empty)."""
        key: K = self._table.first()
        return key

    def __contains__(self, key: object) -> bool:
        return key in self._table

    def __len__(self) -> int:
        return len(self._table)

    def __iter__(self) -> Iterator[K]:
        return iter(self._table.ordered())


class JavaHashMap(Generic[K, V]):
    """A ``HashMap`` emulation: values by key, keys in Java's iteration order."""

    __slots__ = ("_table", "_values")

    def __init__(
        self, initial_capacity: int = 16, *, hash_of: Callable[[Any], int] = java_hash
    ) -> None:
        self._table = _Table(initial_capacity, hash_of)
        self._values: dict[K, V] = {}

    @property
    def capacity(self) -> int:
        return self._table.capacity

    def put(self, key: K, value: V) -> None:
        self._table.put(key)
        self._values[key] = value

    def compute_if_absent(self, key: K, factory: Callable[[], V]) -> V:
        """``computeIfAbsent(key, __ -> factory())``: the value, created if absent (a call
        for a present key can still resize the table, as in Java)."""
        if self._table.put_head(key):
            self._values[key] = factory()
        return self._values[key]

    def get(self, key: K, default: V | None = None) -> V | None:
        return self._values.get(key, default)

    def remove(self, key: K) -> None:
        self._table.remove(key)
        self._values.pop(key, None)

    def clear(self) -> None:
        """``clear()``: removes every entry but keeps the table length."""
        self._table.clear()
        self._values.clear()

    def __contains__(self, key: object) -> bool:
        return key in self._values

    def __len__(self) -> int:
        return len(self._values)

    def items(self) -> list[tuple[K, V]]:
        """Entries in Java iteration order."""
        return [(k, self._values[k]) for k in self._table.ordered()]
