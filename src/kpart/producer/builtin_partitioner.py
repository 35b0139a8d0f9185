"""``org.apache.kafka.clients.producer.internals.BuiltInPartitioner`` (Kafka 3.3+, KIP-794):
the producer's built-in "uniform sticky" / adaptive partitioning of records without a
partition (no key, or ``partitioner.ignore.keys=true``).

Behaviour reproduced:

* **Sticky by bytes.** One partition per topic takes records until ``stickyBatchSize``
  (= ``batch.size``) bytes have been produced to it, then the next partition is drawn. The
  switch waits for the partition's last batch to be full (``enable_switch``), but never past
  ``2 × stickyBatchSize`` bytes; the accumulator also completes a postponed switch before an
  append once all batches of the partition are full.
* **Next partition.** Without load stats: uniform over the available partitions
  (``available[toPositive(nextInt()) % n]``; all partitions if none is available). With load
  stats (``partitioner.adaptive.partitioning.enable``): a weighted draw
  ``random % cft[-1]`` looked up in a cumulative frequency table built from the partitions'
  queue sizes (number of batches queued): weight = ``max(queue) + 1 - queue``, so shorter
  queues get more records. The first value strictly greater than the draw wins.
* **Load stats** (:func:`partition_load_stats`) are ``None`` — uniform — when there are
  fewer than 2 partitions, no partition is left, or all queues are equal and none was
  excluded by ``partitioner.availability.timeout.ms``.

* **Rack-aware (KIP-1123, branch 4.4; rule ``partitioner_rack_aware`` of
  :mod:`kpart.versions`).** With ``rack_aware`` (``partitioner.rack.aware=true``) and the
  producer's ``rack`` (``client.rack``): without load stats, the draw is among the available
  partitions whose leader is in ``rack`` (all available ones if none is); with load stats, a
  second table is built from the same queue sizes restricted to the partitions led in ``rack``
  (its own ``max + 1``) and used whenever it is not empty. The version check is the caller's
  (:func:`kpart.producer.null_key_versions.check_rack_aware`); this class models the branch.

Randomness: Kafka's ``ThreadLocalRandom``; here a seeded ``JavaRandom`` passed in.

>>> partition_load_stats([0, 3, 1], [0, 1, 2])      # the example in Kafka's comments
PartitionLoadStats(cumulative_frequency_table=(4, 5, 8), partition_ids=(0, 1, 2))
>>> partition_load_stats([2, 2, 2], [0, 1, 2]) is None
True
>>> from kpart.producer.cluster import Cluster
>>> bip = BuiltInPartitioner("t", sticky_batch_size=100, seed=7)
>>> c = Cluster.of("t", [0, 0, 0])
>>> info = bip.peek_current_partition_info(c)
>>> bip.update_partition_info(info, 60, c); bip.peek_current_partition_info(c) is info
True
>>> bip.update_partition_info(info, 60, c); bip.peek_current_partition_info(c) is info
False
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from kpart._java.murmur2 import to_positive
from kpart.errors import ConfigError
from kpart.producer._nullkey import IntSource, make_random
from kpart.producer.cluster import Cluster
from kpart.producer.null_key_versions import check_null_key_strategy, check_rack_aware
from kpart.versions import KafkaVersion

__all__ = [
    "BuiltInPartitioner",
    "PartitionLoadStats",
    "StickyPartitionInfo",
    "partition_load_stats",
    "rack_load_stats",
]


@dataclass(frozen=True, slots=True)
class PartitionLoadStats:
    """``BuiltInPartitioner.PartitionLoadStats``: a cumulative frequency table over the
    partitions considered (strictly increasing) and their ids, in the same order."""

    cumulative_frequency_table: tuple[int, ...]
    partition_ids: tuple[int, ...]

    def pick(self, random: int) -> int:
        """The partition for a non-negative random int: the first CFT entry > ``random % last``.

        >>> PartitionLoadStats((4, 5, 8), (0, 1, 2)).pick(4)
        1
        """
        weighted = random % self.cumulative_frequency_table[-1]
        return self.partition_ids[bisect_right(self.cumulative_frequency_table, weighted)]


def partition_load_stats(
    queue_sizes: Sequence[int], partition_ids: Sequence[int], length: int | None = None
) -> PartitionLoadStats | None:
    """``updatePartitionLoadStats``: load stats from the queue sizes of the first ``length``
    partitions (the others were excluded by the availability timeout); ``queue_sizes`` covers
    every partition with a leader. ``None`` means "no adaptive stats, draw uniformly".
    """
    n = len(queue_sizes) if length is None else length
    if len(queue_sizes) != len(partition_ids) or not 0 <= n <= len(queue_sizes):
        raise ConfigError(
            f"queue sizes {list(queue_sizes)} do not match partition ids {list(partition_ids)}"
        )
    if n < 1 or len(queue_sizes) < 2:
        return None
    used = queue_sizes[:n]
    max_plus_1 = max(used) + 1
    if n == len(queue_sizes) and all(q == used[0] for q in used):
        return None
    cft: list[int] = []
    running = 0
    for q in used:
        running += max_plus_1 - q
        cft.append(running)
    return PartitionLoadStats(tuple(cft), tuple(partition_ids[:n]))


def rack_load_stats(
    queue_sizes: Sequence[int], partition_ids: Sequence[int],
    leader_racks: Sequence[str | None], rack: str, length: int,
) -> PartitionLoadStats | None:
    """``createPartitionLoadStatsForThisRackIfNeeded`` (KIP-1123): the table over the first
    ``length`` partitions whose leader's rack is ``rack``, weights ``max(in rack) + 1 - queue``;
    ``None`` when no partition is led in ``rack`` (Kafka: an empty table, then unused).

    >>> rack_load_stats([0, 3, 1], [0, 1, 2], ["a", "b", "a"], "a", 3)
    PartitionLoadStats(cumulative_frequency_table=(2, 3), partition_ids=(0, 2))
    """
    picked = [(queue_sizes[i], partition_ids[i]) for i in range(length)
              if leader_racks[i] == rack]
    if not picked:
        return None
    max_plus_1 = max(q for q, _ in picked) + 1
    cft: list[int] = []
    running = 0
    for q, _ in picked:
        running += max_plus_1 - q
        cft.append(running)
    return PartitionLoadStats(tuple(cft), tuple(pid for _, pid in picked))


class StickyPartitionInfo:
    """``BuiltInPartitioner.StickyPartitionInfo``: the current partition and the bytes produced
    to it since it was chosen. Compared by identity (a new object per switch)."""

    __slots__ = ("partition", "produced_bytes")

    def __init__(self, partition: int) -> None:
        self.partition = partition
        self.produced_bytes = 0

    def __repr__(self) -> str:
        return f"StickyPartitionInfo(partition={self.partition}, produced={self.produced_bytes})"


class BuiltInPartitioner:
    """Per-topic built-in partitioner state (see the module docstring).

    Errors: :class:`~kpart.errors.ConfigError` when ``sticky_batch_size < 1`` (Kafka:
    ``IllegalArgumentException("stickyBatchSize must be >= 1 but got 0")``), when
    ``rack_aware`` has no ``rack``, and, with ``kafka_version`` (the client's; ``None``: not
    checked), for a version before 3.3.0 or ``rack_aware`` before 4.4.
    """

    def __init__(
        self,
        topic: str,
        sticky_batch_size: int,
        random: IntSource | None = None,
        *,
        seed: int | None = None,
        rack_aware: bool = False,
        rack: str | None = None,
        kafka_version: str | KafkaVersion | None = None,
    ) -> None:
        if kafka_version is not None:  # 3.3.0 on; rack-aware on 4.4 only
            check_null_key_strategy("builtin", kafka_version)
            check_rack_aware(rack_aware, rack, kafka_version)
        if sticky_batch_size < 1:
            raise ConfigError(f"stickyBatchSize must be >= 1 but got {sticky_batch_size}")
        if rack_aware and not (rack or "").strip():
            raise ConfigError("client.rack must be provided if partitioner.rack.aware is "
                              "enabled")
        self.topic = topic
        self.sticky_batch_size = sticky_batch_size
        self.rack_aware = rack_aware
        self.rack = rack
        self._random = random if random is not None else make_random(seed)
        self.load_stats: PartitionLoadStats | None = None
        #: KIP-1123: the load stats of the partitions led in ``rack`` (``None``: none there)
        self.rack_load_stats: PartitionLoadStats | None = None
        self._info: StickyPartitionInfo | None = None

    def next_partition(self, cluster: Cluster) -> int:
        """Draw the next sticky partition (uniform, or weighted by the load stats)."""
        random = to_positive(self._random.next_int())
        if self.load_stats is not None:
            if self.rack_aware and self.rack_load_stats is not None:
                return self.rack_load_stats.pick(random)
            return self.load_stats.pick(random)
        available = cluster.available_partitions_for_topic(self.topic)
        if available:
            if self.rack_aware:
                in_rack = tuple(p for p in available
                                if p.leader is not None and p.leader.rack == self.rack)
                available = in_rack or available
            return available[random % len(available)].partition
        return random % len(cluster.partitions_for_topic(self.topic))

    def peek_current_partition_info(self, cluster: Cluster) -> StickyPartitionInfo:
        """The current sticky partition, choosing the first one if needed."""
        if self._info is None:
            self._info = StickyPartitionInfo(self.next_partition(cluster))
        return self._info

    def is_partition_changed(self, info: StickyPartitionInfo | None) -> bool:
        """Whether the sticky partition moved on since ``info`` was peeked."""
        return info is not None and self._info is not info

    def update_partition_info(
        self,
        info: StickyPartitionInfo | None,
        appended_bytes: int,
        cluster: Cluster,
        enable_switch: bool = True,
    ) -> None:
        """Count ``appended_bytes``; switch once ``stickyBatchSize`` bytes are produced (if
        ``enable_switch``) or ``2 × stickyBatchSize`` (always)."""
        if info is None:
            return
        info.produced_bytes += appended_bytes
        produced = info.produced_bytes
        size = self.sticky_batch_size
        if (produced >= size and enable_switch) or produced >= 2 * size:
            self._info = StickyPartitionInfo(self.next_partition(cluster))

    def update_partition_load_stats(
        self, queue_sizes: Sequence[int] | None, partition_ids: Sequence[int], length: int,
        leader_racks: Sequence[str | None] | None = None,
    ) -> None:
        """Set the load stats (``None`` queue sizes: adaptive partitioning is off);
        ``leader_racks`` (the rack of each partition's leader, same order) feeds the
        rack-aware table when ``rack_aware``."""
        self.rack_load_stats = None
        if queue_sizes is None:
            self.load_stats = None
            return
        self.load_stats = partition_load_stats(queue_sizes, partition_ids, length)
        if self.rack_aware and self.load_stats is not None:
            if leader_racks is None:
                raise ConfigError("rack-aware load stats need the leaders' racks")
            assert self.rack is not None
            self.rack_load_stats = rack_load_stats(
                queue_sizes, partition_ids, leader_racks, self.rack, length)
