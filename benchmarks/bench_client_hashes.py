"""Benchmark: ns/key of every client's vectorised key partitioner on N random 16-byte keys.

For each partitioner id (``kpart partitioners``), ``partition_for_keys`` on an Arrow binary array
(compiled kernel, single-threaded, and the prange variant), plus two reference points measured in
the same run: a plain memory pass over the keys (numpy sum of the key bytes, the floor) and
CRC-32 through zlib called per key from Python on a sample. Usage:
``python benchmarks/bench_client_hashes.py [--n 10000000] [--sample 200000]``.
"""

from __future__ import annotations

import argparse
import zlib

import numpy as np
import pyarrow as pa
from _timing import best_of
from bench_murmur2 import random_keys

from kpart.producer.clients import PARTITIONERS
from kpart.producer.kernels import partition_for_keys

NUM_PARTITIONS = 12


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000_000, help="number of keys")
    parser.add_argument("--width", type=int, default=16, help="key length in bytes")
    parser.add_argument("--sample", type=int, default=200_000, help="keys for the zlib loop")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    keys = random_keys(args.n, args.width)
    data = np.frombuffer(keys.buffers()[2], dtype=np.uint8)
    floor = best_of(args.repeats, lambda: int(data.sum(dtype=np.uint64)))
    rows: list[tuple[str, str, float, float]] = []
    for pid, spec in PARTITIONERS.items():
        partition_for_keys(keys.slice(0, 1000), NUM_PARTITIONS, pid, seed=0)  # compile / cache
        partition_for_keys(keys.slice(0, 1000), NUM_PARTITIONS, pid, seed=0, parallel=True)
        serial = best_of(args.repeats, lambda p=pid: partition_for_keys(
            keys, NUM_PARTITIONS, p, seed=0))
        parallel = best_of(args.repeats, lambda p=pid: partition_for_keys(
            keys, NUM_PARTITIONS, p, seed=0, parallel=True))
        rows.append((pid, spec.hash, serial / args.n, parallel / args.n))

    sample = keys.slice(0, min(args.sample, args.n)).to_pylist()
    zlib_loop = best_of(3, lambda: [(zlib.crc32(k) & 0xFFFFFFFF) % NUM_PARTITIONS for k in sample])
    ours = partition_for_keys(pa.array(sample), NUM_PARTITIONS, "librdkafka:consistent")
    assert ours.to_pylist() == [zlib.crc32(k) % NUM_PARTITIONS for k in sample]

    print(f"{args.n:,} random {args.width}-byte keys, {NUM_PARTITIONS} partitions")
    print(f"{'partitioner':30s} {'hash':24s} {'ns/key':>8s} {'prange':>8s} {'x floor':>8s}")
    for pid, hash_name, serial, parallel in rows:
        print(f"{pid:30s} {hash_name:24s} {serial * 1e9:8.2f} {parallel * 1e9:8.2f} "
              f"{serial / (floor / args.n):8.1f}")
    print(f"{'(floor: numpy sum of key bytes)':55s} {floor / args.n * 1e9:8.2f}")
    zlib_ns = zlib_loop / len(sample) * 1e9
    crc_ns = next(r[2] for r in rows if r[0] == "librdkafka:consistent") * 1e9
    print(f"{'(zlib.crc32 per key from Python)':55s} {zlib_ns:8.2f}  "
          f"= {zlib_ns / crc_ns:.1f}x the CRC-32 kernel")
    print("target: <= 10 ns/key per kernel on one core")


if __name__ == "__main__":
    main()
