"""Benchmark: Spark local[2] rows/s of ``with_partition`` on N string keys (default 10M) vs
Spark's native ``xxhash64`` over the same cached DataFrame, measured in the same run.

Keys are 16-character strings (hex of a 64-bit hash of the row id), cached in memory before
timing. Each variant computes one column over all rows and reduces it with ``max`` (so every
row is hashed and nothing is collected). Also shown: the ``reflect`` and ``mapInArrow`` (numba)
paths of ``with_partition``. Results are checked against the scalar partitioner on a sample.
Target: ``with_partition`` ≥ 0.4× ``xxhash64``.

Usage: ``python benchmarks/bench_spark_partition.py [--n 10000000] [--repeats 3] [--no-slow]``.
"""

from __future__ import annotations

import argparse

from _timing import best_of

NUM_PARTITIONS = 12


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000_000, help="number of keys")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-slow", action="store_true", help="skip the reflect/arrow paths")
    args = parser.parse_args()

    from pyspark.sql import functions as F

    from kpart.producer.builtin import partition_for_key
    from kpart.spark import get_or_create_session, with_partition

    spark = get_or_create_session("local[2]", "kpart-bench-partition",
                                  conf={"spark.driver.memory": "2g"})
    df = spark.range(args.n).select(F.lpad(F.hex(F.xxhash64("id")), 16, "0").alias("key"))
    df = df.cache()
    assert df.count() == args.n

    sample = df.limit(2000).transform(with_partition("key", NUM_PARTITIONS)).collect()
    assert all(r.partition == partition_for_key(r.key.encode(), NUM_PARTITIONS) for r in sample)

    def run(col):
        return lambda: df.select(col.alias("h")).agg(F.max("h")).collect()

    def run_transform(method: str):
        t = with_partition("key", NUM_PARTITIONS, method=method)
        return lambda: df.transform(t).agg(F.max("partition")).collect()

    variants = [
        ("Spark native xxhash64", run(F.xxhash64("key"))),
        ("with_partition (JVM murmur2, auto)", run_transform("auto")),
    ]
    if not args.no_slow:
        variants += [
            ("with_partition method=reflect", run_transform("reflect")),
            ("with_partition method=arrow (numba)", run_transform("arrow")),
        ]
    for _, fn in variants:  # warm-up: JIT, codegen, Python workers, numba cache
        fn()
    results = [(name, args.n / best_of(args.repeats, fn)) for name, fn in variants]
    base = results[0][1]
    print(f"Spark local[2], {args.n:,} cached 16-char string keys, {NUM_PARTITIONS} partitions, "
          f"best of {args.repeats}")
    for name, rate in results:
        print(f"  {name:40s} {rate / 1e6:8.2f} M rows/s   {rate / base:5.2f}× xxhash64")
    ratio = results[1][1] / base
    print(f"with_partition / xxhash64 = {ratio:.2f} (target >= 0.4: {'met' if ratio >= 0.4 else 'NOT met'})")
    spark.stop()


if __name__ == "__main__":
    main()
