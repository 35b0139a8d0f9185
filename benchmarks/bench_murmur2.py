"""Benchmark: Kafka's murmur2 key -> partition, ns/key on N random 16-byte keys (default 10M).

kpart's compiled Arrow kernel (single-threaded, and the prange variant) against two peers measured
in the same run: kafka-python's pure-Python ``murmur2`` and librdkafka's ``confluent_kafka.murmur2``
called per key (both timed on a sample, reported per key). All results are checked equal on the
sample. Usage: ``python benchmarks/bench_murmur2.py [--n 10000000] [--sample 200000]``.
"""

from __future__ import annotations

import argparse

import numpy as np
import pyarrow as pa
from _timing import best_of

from kpart.producer.kernels import partition_for_keys

NUM_PARTITIONS = 12


def random_keys(n: int, width: int, seed: int = 0) -> pa.BinaryArray:
    """``n`` random ``width``-byte keys as an Arrow binary array built straight from buffers."""
    data = np.random.default_rng(seed).integers(0, 256, size=n * width, dtype=np.uint8)
    offsets = np.arange(0, width * (n + 1), width, dtype=np.int32)
    return pa.Array.from_buffers(pa.binary(), n, [None, pa.py_buffer(offsets), pa.py_buffer(data)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000_000, help="number of keys")
    parser.add_argument("--width", type=int, default=16, help="key length in bytes")
    parser.add_argument("--sample", type=int, default=200_000, help="keys timed for the peers")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    keys = random_keys(args.n, args.width)
    partition_for_keys(keys.slice(0, 1000), NUM_PARTITIONS)  # compile or load from cache
    partition_for_keys(keys.slice(0, 1000), NUM_PARTITIONS, parallel=True)
    serial = best_of(args.repeats, lambda: partition_for_keys(keys, NUM_PARTITIONS))
    parallel = best_of(
        args.repeats, lambda: partition_for_keys(keys, NUM_PARTITIONS, parallel=True)
    )

    sample = keys.slice(0, min(args.sample, args.n))
    sample_py = sample.to_pylist()
    ours = partition_for_keys(sample, NUM_PARTITIONS).to_pylist()
    rows = [
        ("kpart kernel, 1 thread", serial / args.n),
        ("kpart kernel, prange", parallel / args.n),
    ]
    try:
        import confluent_kafka

        f = confluent_kafka.murmur2
        took = best_of(3, lambda: [f(k, NUM_PARTITIONS) for k in sample_py])
        assert [f(k, NUM_PARTITIONS) for k in sample_py] == ours
        rows.append(("confluent_kafka.murmur2 per key", took / len(sample_py)))
    except ImportError:
        print("confluent-kafka not installed: librdkafka peer skipped")
    try:
        from kafka.partitioner.default import murmur2 as kp_murmur2

        small = sample_py[: max(1, len(sample_py) // 4)]
        took = best_of(1, lambda: [(kp_murmur2(k) & 0x7FFFFFFF) % NUM_PARTITIONS for k in small])
        assert [(kp_murmur2(k) & 0x7FFFFFFF) % NUM_PARTITIONS for k in small] == ours[: len(small)]
        rows.append(("kafka-python murmur2 (pure Python)", took / len(small)))
    except ImportError:
        print("kafka-python not installed: pure-Python peer skipped")

    print(f"murmur2 -> partition, {args.n:,} random {args.width}-byte keys, n={NUM_PARTITIONS}")
    print(f"{'implementation':40s} {'ns/key':>10s} {'vs kpart 1 thread':>18s}")
    for name, seconds in rows:
        ns = seconds * 1e9
        print(f"{name:40s} {ns:10.2f} {seconds / rows[0][1]:17.1f}x")
    print("target: <= 10 ns/key on one core; results checked equal to every peer on the sample")


if __name__ == "__main__":
    main()
