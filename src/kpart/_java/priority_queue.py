"""``java.util.PriorityQueue``: a binary heap whose ties are broken by heap position.

Java's queue is not stable: among equal elements the one ``poll`` returns depends on where
``offer``'s sift-up and ``poll``'s sift-down left them. :class:`JavaPriorityQueue` performs the
same moves as OpenJDK 17 (``siftUpUsingComparator``: move up while strictly smaller than the
parent; ``siftDownUsingComparator``: take the right child only when the left is strictly
greater, stop when the key is ≤ the child), so equal elements come out in Java's order.
``add_all`` is ``AbstractQueue.addAll`` (one ``add`` per element, no heapify). Elements are
compared by ``key(element)`` (a value with ``<``).

>>> q = JavaPriorityQueue(key=lambda e: e[1])
>>> q.add_all([("a", 1), ("b", 0), ("c", 0), ("d", 1)])
>>> [q.poll()[0] for _ in range(4)]           # d before a: not first-in, first-out
['b', 'c', 'd', 'a']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

__all__ = ["JavaPriorityQueue"]

E = TypeVar("E")


class JavaPriorityQueue(Generic[E]):
    """``new PriorityQueue<>(comparing(key))`` (see the module docstring)."""

    __slots__ = ("_heap", "_key", "_keys")

    def __init__(self, key: Callable[[E], Any]) -> None:
        self._key = key
        self._heap: list[E] = []
        self._keys: list[Any] = []

    def add(self, e: E) -> None:
        """``offer``: append, then sift up."""
        heap, keys = self._heap, self._keys
        x = self._key(e)
        k = len(heap)
        heap.append(e)
        keys.append(x)
        while k > 0:
            parent = (k - 1) >> 1
            if not x < keys[parent]:  # comparator.compare(x, e) >= 0: stop
                break
            heap[k] = heap[parent]
            keys[k] = keys[parent]
            k = parent
        heap[k] = e
        keys[k] = x

    def add_all(self, items: Iterable[E]) -> None:
        """``addAll``: :meth:`add` in the iteration order of ``items``."""
        for e in items:
            self.add(e)

    def poll(self) -> E | None:
        """Remove and return the head (``None`` when empty)."""
        heap, keys = self._heap, self._keys
        if not heap:
            return None
        result = heap[0]
        last, xlast = heap.pop(), keys.pop()
        n = len(heap)
        if n:
            k = 0
            half = n >> 1
            while k < half:
                child = 2 * k + 1
                right = child + 1
                if right < n and keys[right] < keys[child]:  # compare(c, right) > 0
                    child = right
                if not keys[child] < xlast:  # compare(key, c) <= 0: stop
                    break
                heap[k] = heap[child]
                keys[k] = keys[child]
                k = child
            heap[k] = last
            keys[k] = xlast
        return result

    def __len__(self) -> int:
        return len(self._heap)
