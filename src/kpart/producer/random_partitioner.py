"""The "random" strategy of seed 004 (a custom ``Partitioner``, not a Kafka class): every
record goes to ``ThreadLocalRandom.current().nextInt(partitions.size())`` over *all*
partitions of the topic (available or not); keys are ignored.

Randomness: a seeded ``JavaRandom`` (Kafka's ``ThreadLocalRandom`` is not reproducible).

>>> from kpart.producer.cluster import Cluster
>>> r = RandomPartitioner(seed=42)
>>> [r.partition("t", None, None, None, None, Cluster.of("t", [0] * 10)) for _ in range(5)]
[0, 3, 8, 4, 0]
"""

from __future__ import annotations

from typing import Any

from kpart.producer._nullkey import IntSource, make_random
from kpart.producer.cluster import Cluster

__all__ = ["RandomPartitioner"]


class RandomPartitioner:
    """A uniformly random partition per record."""

    name = "random"

    def __init__(self, random: IntSource | None = None, *, seed: int | None = None) -> None:
        self._random = random if random is not None else make_random(seed)

    def partition(
        self,
        topic: str,
        key: Any,
        key_bytes: bytes | None,
        value: Any,
        value_bytes: bytes | None,
        cluster: Cluster,
    ) -> int:
        """A random partition of ``topic``."""
        return self._random.next_int(len(cluster.partitions_for_topic(topic)))

    def close(self) -> None:
        """Nothing to release."""
