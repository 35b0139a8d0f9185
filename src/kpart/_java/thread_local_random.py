"""``java.util.concurrent.ThreadLocalRandom`` of JDK 17: ``nextInt()`` of a thread whose seed
and id are known (the generator Kafka's partitioners draw from: ``DefaultPartitioner``'s and
``UniformStickyPartitioner``'s sticky partition, ``Utils.toPositive(ThreadLocalRandom.current()
.nextInt())``). Java seeds it per thread from a global ``SecureRandom`` seeder, so outside a
driver that set the seed (the golden vectors' ``NullKeyDriver``) it cannot be replayed.

The state advances by the thread's gamma, ``(thread id << 1) + 0x9E3779B97F4A7C15``, and
``nextInt()`` is the upper 32 bits of ``mix64`` (``ThreadLocalRandom.mix32``).

>>> r = ThreadLocalRandom(seed=0, thread_id=1)
>>> r.next_int() == ThreadLocalRandom(seed=0, thread_id=1).next_int()
True
"""

from __future__ import annotations

__all__ = ["ThreadLocalRandom"]

_M = (1 << 64) - 1


class ThreadLocalRandom:
    """JDK 17's ``ThreadLocalRandom`` from a thread's ``seed`` (Java long, any int taken
    modulo 2^64) and ``thread_id``; :meth:`next_int` as ``nextInt()`` (a Java int)."""

    def __init__(self, seed: int, thread_id: int) -> None:
        self.seed, self.step = seed & _M, ((thread_id << 1) + 0x9E3779B97F4A7C15) & _M

    def next_int(self, bound: int | None = None) -> int:
        """``nextInt()``: the next Java int (``bound`` is not supported: Kafka's partitioners
        of these releases draw ``nextInt()`` only; ``ValueError`` when given)."""
        if bound is not None:
            raise ValueError("ThreadLocalRandom.next_int(bound) is not reproduced")
        self.seed = (self.seed + self.step) & _M
        z = ((self.seed ^ (self.seed >> 33)) * 0xFF51AFD7ED558CCD) & _M
        v = (((z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53) & _M) >> 32
        return v - (1 << 32) if v >= 1 << 31 else v
