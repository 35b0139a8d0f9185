"""Cruise Control's issue #1592 cluster, generated: the large shape of kpart issue 13.

linkedin/cruise-control#1592 reports 95 minutes (18 in fast mode) for its optimizer on 215
brokers, 3,500 topics and 2.8M replicas. :func:`cc1592` builds a
:class:`~kpart.cluster.ClusterModel` of that shape in a few seconds:

- 215 brokers (ids 0..214) in 6 racks (``rack-{id % 6}``), each with the same capacity (disk,
  network in/out) from :data:`CAPACITY`;
- 3,500 topics whose partition counts follow a heavy-tailed distribution summing to 930,000;
  replication factor 3, rack-aware (three consecutive brokers of the rack-alternating order,
  as ``AdminUtils`` lays them out), leader = the preferred (first) replica, ISR = replicas;
- partition sizes heavy-tailed (a few topics hold most bytes: Pareto topic weights × lognormal
  noise per partition), bytes-in/s proportional to size (a week's retention), bytes-out/s =
  bytes-in × a per-topic fan-out of 1–3 consumer groups, messages = size / 1 KiB.

``scale`` shrinks partitions and topics (brokers stay 215 unless ``brokers`` is given), for
tests and quick runs. Deterministic for a given ``seed``.
"""

from __future__ import annotations

import numpy as np

from kpart.cluster import Capacity, ClusterBroker, ClusterModel, TopicInfo

#: Per broker: 10 TB of disk, 1.25 GB/s in and out (a 10 GbE link each way).
CAPACITY = Capacity(disk_bytes=10e12, network_in=1.25e9, network_out=1.25e9)
RACKS = 6
WEEK = 7 * 24 * 3600


def _rack_alternating(ids: np.ndarray) -> np.ndarray:
    """Broker ids ordered rack by rack in turn (``AdminUtils.getRackAlternatedBrokerList``'s
    shape, simplified: racks in order, brokers by id within a rack)."""
    by_rack = [ids[ids % RACKS == r] for r in range(RACKS)]
    out = []
    for i in range(max(len(r) for r in by_rack)):
        out.extend(int(r[i]) for r in by_rack if i < len(r))
    return np.array(out, dtype=np.int32)


def _partition_counts(rng: np.random.Generator, topics: int, total: int) -> np.ndarray:
    weights = rng.pareto(1.2, topics) + 1.0
    counts = np.maximum(1, np.floor(weights / weights.sum() * total)).astype(np.int64)
    diff = total - int(counts.sum())
    order = np.argsort(-counts)
    counts[order[: abs(diff)]] += np.sign(diff)  # land exactly on ``total``
    return np.maximum(counts, 1)


#: Cruise Control's own figure on this shape (its optimizer with the default goals, on a larger
#: machine than these 2 cores), as linkedin/cruise-control#1592 reports it.
CC1592_JAVA = ("Cruise Control: 95 min (18 min in fast mode) for the full shape, "
               "linkedin/cruise-control#1592")


def cc1592(scale: float = 1.0, seed: int = 1592, brokers: int = 215) -> ClusterModel:
    """The generated cluster (see the module docstring): ``round(930_000 * scale)``
    partitions over ``max(1, round(3_500 * scale))`` topics on ``brokers`` brokers."""
    rng = np.random.default_rng(seed)
    n_topics = max(1, round(3_500 * scale))
    counts = _partition_counts(rng, n_topics, max(n_topics, round(930_000 * scale)))
    total = int(counts.sum())
    ids = np.arange(brokers, dtype=np.int32)
    ring = _rack_alternating(ids)
    topic = np.repeat(np.arange(n_topics, dtype=np.int32), counts)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    partition = (np.arange(total) - np.repeat(starts, counts)).astype(np.int32)
    first = (np.repeat(rng.integers(0, brokers, n_topics), counts) + partition) % brokers
    replicas = ring[(first[:, None] + np.arange(3)[None, :]) % brokers].astype(np.int32)
    topic_bytes = (rng.pareto(1.1, n_topics) + 0.05) * 4e9 * counts  # heavy tail by topic
    size = (np.repeat(topic_bytes / counts, counts) * rng.lognormal(0, 0.5, total))
    size *= 0.55 * CAPACITY.disk_bytes * brokers / 3 / size.sum()  # mean disk use ~55 %
    bytes_in = size / WEEK
    fanout = np.repeat(rng.integers(1, 4, n_topics), counts)
    return ClusterModel(
        brokers=tuple(ClusterBroker(int(i), f"rack-{int(i) % RACKS}", CAPACITY) for i in ids),
        topics=tuple(TopicInfo(f"topic-{t:05d}", 2) for t in range(n_topics)),
        topic=topic, partition=partition, replicas=replicas, leader=replicas[:, 0].copy(),
        isr=replicas.copy(), messages=np.floor(size / 1024), size_bytes=size,
        bytes_in_per_s=bytes_in, bytes_out_per_s=bytes_in * fanout,
    )


if __name__ == "__main__":
    import time

    from _timing import peak_rss_mb

    from kpart.cluster import broker_load

    start = time.perf_counter()
    model = cc1592()
    load = broker_load(model)
    print(f"{model.num_partitions:,} partitions, {len(model.brokers)} brokers: built in "
          f"{time.perf_counter() - start:.1f} s, peak RSS {peak_rss_mb():.0f} MiB; disk max/mean "
          f"{load.disk_bytes.max() / load.disk_bytes.mean():.3f}")
