"""Benchmark: the ``kpart report`` job end to end on N records (default 10M) whose keys are drawn
from K distinct values (default 100k) with a Zipf skew, vs the identical job with Spark's own
``pmod(hash(key), n)`` in place of Kafka's partitioner, measured in the same run.

The data (key string + two int64 value columns) is generated with NumPy and written to Parquet
once; each timed run reads it, sizes every record, aggregates, partitions, rolls up and builds the
summary (:func:`kpart.spark.pipeline.run_report`) in Spark local[2]. Runs alternate between the
two partitioners; the best of each is reported. Target: Kafka's partitioner ≥ 0.8× the
``pmod(hash)`` job's throughput.

Usage: ``python benchmarks/bench_report.py [--n 10000000] [--keys 100000] [--zipf 1.1]
[--repeats 2]``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path


def zipf_table(n: int, distinct: int, s: float, seed: int = 0):
    """``n`` records: ``key`` drawn from ``distinct`` values with P(rank r) ∝ r^-s, plus values."""
    import numpy as np
    import pyarrow as pa

    rng = np.random.default_rng(seed)
    weights = 1.0 / np.arange(1, distinct + 1, dtype=np.float64) ** s
    cdf = np.cumsum(weights / weights.sum())
    ranks = np.minimum(np.searchsorted(cdf, rng.random(n)), distinct - 1).astype(np.int32)
    names = pa.array([f"user-{i:07d}" for i in rng.permutation(distinct)])
    keys = pa.DictionaryArray.from_arrays(pa.array(ranks), names).dictionary_decode()
    return pa.table({
        "key": keys,
        "amount": pa.array(rng.integers(0, 100_000, n)),
        "ts": pa.array(1_700_000_000_000 + np.arange(n, dtype=np.int64)),
    })


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000_000, help="number of records")
    parser.add_argument("--keys", type=int, default=100_000, help="distinct keys")
    parser.add_argument("--zipf", type=float, default=1.1, help="Zipf exponent")
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()

    import pyarrow.parquet as pq

    from kpart.spark import get_or_create_session
    from kpart.spark.inputs import resolve_input
    from kpart.spark.pipeline import run_report
    from kpart.topology import default_topology

    topology = default_topology().with_topic(key="key", name="events")
    with tempfile.TemporaryDirectory(prefix="kpart-bench-report-") as tmp:
        path = Path(tmp) / "events.parquet"
        started = time.perf_counter()
        pq.write_table(zipf_table(args.n, args.keys, args.zipf), path, row_group_size=1 << 20)
        print(f"generated {args.n:,} records over {args.keys:,} Zipf({args.zipf}) keys in "
              f"{time.perf_counter() - started:.1f} s")
        spec = resolve_input(path, None, "key")
        spark = get_or_create_session("local[2]", "kpart-bench-report",
                                      conf={"spark.driver.memory": "2g"})
        partitioners = {"Kafka java:default (murmur2)": None, "Spark pmod(hash(key), n)": "spark:hash"}
        best = dict.fromkeys(partitioners, float("inf"))
        summaries = {}
        run_report(spark, topology, spec)  # warm-up: JIT, codegen, file cache
        for _ in range(args.repeats):
            for name, partitioner in partitioners.items():
                start = time.perf_counter()
                summaries[name] = run_report(spark, topology, spec, partitioner=partitioner)
                best[name] = min(best[name], time.perf_counter() - start)
        spark.stop()
    kafka, spark_hash = best.values()
    s = summaries["Kafka java:default (murmur2)"]
    assert s["records"] == args.n
    print(f"report job, Spark local[2], {args.n:,} records, best of {args.repeats}:")
    for name, seconds in best.items():
        print(f"  {name:32s} {seconds:7.2f} s   {args.n / seconds / 1e6:6.2f} M records/s")
    ratio = spark_hash / kafka
    print(f"  partition skew (Kafka): max/mean {s['skew']['partition_records']['max_over_mean']}, "
          f"top key share {s['hot_keys'][0]['share']:.2%}")
    print(f"Kafka / pmod(hash) throughput = {ratio:.2f} "
          f"(target >= 0.8: {'met' if ratio >= 0.8 else 'NOT met'})")


if __name__ == "__main__":
    main()
