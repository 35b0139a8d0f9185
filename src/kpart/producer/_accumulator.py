"""The producer's ``RecordAccumulator`` and ``Sender`` as a deterministic single-threaded model
(private; used by :mod:`kpart.producer.simulate`).

What is reproduced from Kafka (``RecordAccumulator``, ``Sender``, ``ProducerBatch``):

* appends go to the last batch of the partition's queue if the record fits (``batch.size``
  bytes; the first record of a batch always fits); a record that does not fit closes that
  batch and starts a new one. With ``abortOnNewBatch`` (Kafka 2.4+, custom partitioners) the
  append returns instead of creating the batch, so the producer can call ``onNewBatch`` and
  partition again;
* built-in partitioning (3.3+): the sticky partition is peeked, a postponed switch is completed
  when the queue's batches are all full, and produced bytes are counted after each append
  (switch allowed only if the last batch is full);
* ``ready``: a partition's first batch is sendable when the queue has more than one batch, the
  batch is full, or it has waited ``linger.ms``; its leader is then a ready node. The same pass
  builds the queue sizes for adaptive partitioning (only once every partition has a queue,
  partitions iterated in ascending id order as Kafka's ``ConcurrentHashMap`` does) and
  excludes partitions whose leader has been "ready but not drainable" for more than
  ``partitioner.availability.timeout.ms`` (an excluded partition's slot goes to the next
  partition; if that one's queue is empty, Kafka leaves the slot's queue size as it was, and
  so does this model);
* the sender drains a ready node only if it has fewer than ``max.in.flight`` requests in
  flight; draining takes the first batch of *every* partition led by that node (ready or not)
  into one request. A request completes after the broker's latency.

Simplifications (documented deviations): record sizes are taken as given (no batch header or
per-record overhead, no compression); no ``max.request.size`` cap, retries, muting,
``buffer.memory`` or metadata refresh; the sender runs immediately whenever Kafka would wake it
(new or full batch, linger expiry, request completion).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from kpart.producer.builtin_partitioner import BuiltInPartitioner
from kpart.producer.cluster import Cluster

ABORT = -1  # append result: a new batch is needed and abortOnNewBatch was set


@dataclass(slots=True)
class _Batch:
    partition: int
    created_ms: float
    bytes: int = 0
    records: int = 0
    arrival_sum: float = 0.0
    closed: bool = False


def _is_full(batch: _Batch, batch_size: int) -> bool:
    return batch.closed or (batch.records > 0 and batch.bytes >= batch_size)


@dataclass(slots=True)
class Accumulator:
    """Queues, in-flight requests and counters of one producer writing one topic."""

    topic: str
    cluster: Cluster
    batch_size: int
    linger_ms: float
    max_in_flight: int
    latency_ms: dict[int, float]
    default_latency_ms: float
    adaptive: bool
    availability_timeout_ms: float
    builtin: BuiltInPartitioner | None
    deques: dict[int, list[_Batch]] = field(default_factory=dict)
    in_flight: dict[int, list[float]] = field(default_factory=dict)
    node_stats: dict[int, list[float]] = field(default_factory=dict)  # id -> [ready, drain]
    records: list[int] = field(default_factory=list)
    bytes: list[int] = field(default_factory=list)
    batches: list[int] = field(default_factory=list)
    requests: int = 0
    latency_sum: float = 0.0
    sent_records: int = 0
    last_poll: float = -math.inf
    leaders: list[int | None] = field(default_factory=list)  # leader id per partition
    node_partitions: dict[int, list[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        parts = self.cluster.partitions_for_topic(self.topic)
        n = len(parts)
        self.leaders = [None] * n
        for info in parts:
            if info.leader is not None:
                self.leaders[info.partition] = info.leader.id
        # partitionsForNode order: the metadata order of the node's partitions
        for info in parts:
            if info.leader is not None:
                self.node_partitions.setdefault(info.leader.id, []).append(info.partition)
        self.records = [0] * n
        self.bytes = [0] * n
        self.batches = [0] * n

    # --- appends -------------------------------------------------------------------------
    def _try_append(self, dq: list[_Batch], size: int, now: float) -> bool:
        if not dq:
            return False
        last = dq[-1]
        if last.closed:
            return False
        if last.records > 0 and last.bytes + size > self.batch_size:
            last.closed = True  # closeForRecordAppends
            return False
        last.bytes += size
        last.records += 1
        last.arrival_sum += now
        return True

    def _new_batch(self, partition: int, dq: list[_Batch], size: int, now: float) -> None:
        batch = _Batch(partition, now, size, 1, now)
        dq.append(batch)
        self.batches[partition] += 1

    def _all_full(self, dq: list[_Batch]) -> bool:
        return not dq or _is_full(dq[-1], self.batch_size)

    def append(self, partition: int, size: int, now: float, abort_on_new_batch: bool) -> int:
        """Append to ``partition``; return ``partition`` or :data:`ABORT`. Wakes the sender
        when a batch is created or becomes full."""
        dq = self.deques.setdefault(partition, [])
        if self._try_append(dq, size, now):
            self._count(partition, size)
            if len(dq) > 1 or _is_full(dq[-1], self.batch_size):
                self.poll(now)
            return partition
        if abort_on_new_batch:
            return ABORT
        self._new_batch(partition, dq, size, now)
        self._count(partition, size)
        self.poll(now)
        return partition

    def append_builtin(self, size: int, now: float) -> int:
        """Append a record without a partition (built-in partitioner); return its partition."""
        bip = self.builtin
        assert bip is not None
        while True:
            info = bip.peek_current_partition_info(self.cluster)
            partition = info.partition
            dq = self.deques.setdefault(partition, [])
            if self._all_full(dq):  # complete a previously disabled switch
                bip.update_partition_info(info, 0, self.cluster, True)
                if bip.is_partition_changed(info):
                    continue
            created = not self._try_append(dq, size, now)
            if created:
                self._new_batch(partition, dq, size, now)
            self._count(partition, size)
            bip.update_partition_info(info, size, self.cluster, self._all_full(dq))
            if created or len(dq) > 1 or _is_full(dq[-1], self.batch_size):
                self.poll(now)
            return partition

    def _count(self, partition: int, size: int) -> None:
        self.records[partition] += 1
        self.bytes[partition] += size

    # --- sender --------------------------------------------------------------------------
    def _latency(self, node: int) -> float:
        return self.latency_ms.get(node, self.default_latency_ms)

    def _ready(self, now: float) -> set[int]:
        n_parts = len(self.cluster.partitions_for_topic(self.topic))
        adaptive = self.adaptive and self.builtin is not None and len(self.deques) >= n_parts
        queue_sizes = [0] * len(self.deques) if adaptive else None
        ids = [0] * len(self.deques)
        racks: list[str | None] = [None] * len(self.deques)
        index = -1
        ready: set[int] = set()
        for p in sorted(self.deques):
            leader = self.leaders[p]
            if leader is not None and queue_sizes is not None:
                index += 1
                ids[index] = p
                node = self.cluster.node_by_id(leader)
                racks[index] = None if node is None else node.rack
            dq = self.deques[p]
            if not dq or leader is None:
                continue
            if queue_sizes is not None:
                queue_sizes[index] = len(dq)
            if self.availability_timeout_ms > 0:
                stats = self.node_stats.get(leader)
                if stats is not None and stats[0] - stats[1] > self.availability_timeout_ms:
                    index -= 1
            first = dq[0]
            full = len(dq) > 1 or _is_full(first, self.batch_size)
            if full or now - first.created_ms >= self.linger_ms:
                ready.add(leader)
        if self.builtin is not None:
            self.builtin.update_partition_load_stats(queue_sizes, ids, index + 1, racks)
        return ready

    def poll(self, now: float) -> None:
        """One ``Sender.sendProducerData`` pass at time ``now``."""
        self.last_poll = now
        for node, times in self.in_flight.items():
            self.in_flight[node] = [t for t in times if t > now]
        for node in sorted(self._ready(now)):
            can_drain = len(self.in_flight.get(node, ())) < self.max_in_flight
            if self.availability_timeout_ms > 0:
                stats = self.node_stats.setdefault(node, [now, now])
                if can_drain:
                    stats[1] = now
                stats[0] = now
            if can_drain:
                self._drain(node, now)

    def _drain(self, node: int, now: float) -> None:
        done = now + self._latency(node)
        drained = False
        for p in self.node_partitions.get(node, ()):
            dq = self.deques.get(p)
            if dq:
                batch = dq.pop(0)
                self.latency_sum += batch.records * done - batch.arrival_sum
                self.sent_records += batch.records
                drained = True
        if drained:
            self.requests += 1
            self.in_flight.setdefault(node, []).append(done)

    def next_event(self) -> float:
        """The next time the sender has something to do (``inf``: nothing)."""
        t = math.inf
        for times in self.in_flight.values():
            for x in times:
                if x < t:
                    t = x
        last_poll, linger, leaders = self.last_poll, self.linger_ms, self.leaders
        for p, dq in self.deques.items():
            if dq:
                expiry = dq[0].created_ms + linger
                if last_poll < expiry < t and leaders[p] is not None:
                    t = expiry
        return t

    def run_until(self, t: float) -> None:
        """Run every sender event due at or before ``t`` (terminates: each repeated poll at
        one instant drains at least one batch, and expiries already polled are not events)."""
        while (e := self.next_event()) <= t and e != math.inf:
            self.poll(e)
