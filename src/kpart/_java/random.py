"""``java.util.Random`` (the 48-bit linear congruential generator) and
``java.util.Collections.shuffle(List, Random)``, emulated bit for bit.

Kafka draws its placement randomness from ``java.util.Random``: ``AdminUtils`` (random start
index and replica shift) and the KRaft ``StripedReplicaPlacer`` (rack/broker offsets and the
reshuffle of its lists). With the same seed, :class:`JavaRandom` yields the same numbers as
``new java.util.Random(seed)``, so kpart reproduces Kafka's seeded placements exactly.

The generator: ``seed = (seed * 0x5DEECE66D + 0xB) mod 2**48``; ``next(bits)`` returns the top
``bits`` bits as a signed 32-bit int. ``nextInt(bound)`` keeps Java's two rules: a power-of-two
bound takes the high bits (``(bound * next(31)) >> 31``), any other bound rejects the draws
that would bias ``next(31) % bound``.

>>> r = JavaRandom(42)
>>> [r.next_int(10) for _ in range(5)]
[0, 3, 8, 4, 0]
>>> JavaRandom(0).next_int()
-1155484576
>>> items = [1, 2, 3, 4, 5]
>>> shuffle(items, JavaRandom(7))
>>> items
[5, 4, 1, 3, 2]
"""

from __future__ import annotations

import os
from collections.abc import MutableSequence
from typing import Any

from kpart._java.ints import to_int32, to_int64

__all__ = ["JavaRandom", "shuffle"]

_MULTIPLIER = 0x5DEECE66D
_ADDEND = 0xB
_MASK = (1 << 48) - 1
_DOUBLE_UNIT = 1.0 / (1 << 53)


class JavaRandom:
    """``new java.util.Random(seed)``; ``JavaRandom()`` (no seed) is seeded from the OS like
    Java's unseeded ``new Random()``.

    ``seed`` is a Java ``long`` (any Python int is reduced to its low 64 bits first, which does
    not change the low 48 bits Java keeps). Not thread-safe (Java's is); one instance serves one
    sequence of draws.
    """

    __slots__ = ("_seed",)

    def __init__(self, seed: int | None = None) -> None:
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "big", signed=True)
        self.set_seed(seed)

    def set_seed(self, seed: int) -> None:
        """``Random.setSeed(long)``: scramble ``seed`` with the multiplier, keep 48 bits."""
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an int, got {seed!r}")
        self._seed = (to_int64(seed) ^ _MULTIPLIER) & _MASK

    def next(self, bits: int) -> int:
        """``Random.next(bits)``: advance the LCG, return its top ``bits`` bits (1..32) as a
        signed 32-bit int."""
        self._seed = (self._seed * _MULTIPLIER + _ADDEND) & _MASK
        return to_int32(self._seed >> (48 - bits))

    def next_int(self, bound: int | None = None) -> int:
        """``nextInt()`` (any int32) or ``nextInt(bound)`` (uniform in ``[0, bound)``).

        Errors: ``ValueError`` when ``bound <= 0`` (Java: ``IllegalArgumentException``).
        """
        if bound is None:
            return self.next(32)
        if bound <= 0:
            raise ValueError(f"bound must be positive: {bound}")
        if bound > 0x7FFFFFFF:
            raise ValueError(f"bound must be a Java int: {bound}")
        r = self.next(31)
        m = bound - 1
        if bound & m == 0:  # a power of two: take the high bits
            return (bound * r) >> 31
        u = r
        r = u % bound
        # Reject u when u - r + m overflows a Java int (the last, incomplete block).
        while u - r + m > 0x7FFFFFFF:
            u = self.next(31)
            r = u % bound
        return r

    def next_long(self) -> int:
        """``nextLong()``: ``(next(32) << 32) + next(32)`` as a signed 64-bit int."""
        return to_int64((self.next(32) << 32) + self.next(32))

    def next_boolean(self) -> bool:
        """``nextBoolean()``."""
        return self.next(1) != 0

    def next_double(self) -> float:
        """``nextDouble()``: 53 random bits scaled to ``[0, 1)``."""
        return ((self.next(26) << 27) + self.next(27)) * _DOUBLE_UNIT

    def __repr__(self) -> str:
        return f"JavaRandom(<state {self._seed:#014x}>)"


def shuffle(items: MutableSequence[Any], rnd: JavaRandom) -> None:
    """``Collections.shuffle(list, rnd)`` in place (the random-access path: for ``i`` from
    ``size`` down to 2, swap ``items[i-1]`` with ``items[rnd.nextInt(i)]``).

    A list of 0 or 1 element draws nothing from ``rnd``.
    """
    for i in range(len(items), 1, -1):
        j = rnd.next_int(i)
        items[i - 1], items[j] = items[j], items[i - 1]
