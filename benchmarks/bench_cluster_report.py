"""Benchmark: the cluster report's Spark job (:func:`kpart.spark.cluster_job.measure_topics`) on
issue 14's target shape — 10 topics, 100M records in all, keys Zipf-distributed over 1M distinct
per topic, timestamps over a day, 1-minute windows — vs the identical job with Spark's own
``pmod(hash(key), n)`` (``spark:hash``) in place of Kafka's partitioners, in one run, local[2].

The data (string key, epoch-ms ``ts`` as a UTC timestamp, two value columns) is generated with
NumPy once per shape and cached as Parquet under ``--cache-dir`` (default
``/tmp/kpart-bench-cluster``). Each measured run is a fresh child process: it starts the session
(not timed), then times ``measure_topics`` over every topic to its materialized result (loads,
(partition, window) grids and partition counts: Python values and numpy arrays), wall and CPU
(driver process) seconds; the parent reports the child's peak RSS (``os.wait4``: the Python
driver) and the JVM's (``VmHWM`` of the driver JVM, read by the child before it stops). Runs
alternate between the two partitioners (the first of a pair alternates too); the median of
``--repeats`` each is reported. The driver runs with Spark's default memory (1 GiB heap).
Targets: Kafka's partitioners within 1.25× the ``spark:hash`` job; driver peak ≤ 2 GB.

Usage: ``python benchmarks/bench_cluster_report.py [--records 100000000] [--topics 10]
[--keys 1000000] [--repeats 1]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

DAY_MS = 86_400_000
T0 = 1_700_006_400_000  # 2023-11-15T00:00:00Z, on every window grid up to a day


def write_topic(path: Path, n: int, distinct: int, s: float, seed: int) -> None:
    """``n`` records of one topic: ``user`` drawn from ``distinct`` keys with P(rank r) ∝
    r^-s, ``ts`` uniform over a day, two value columns; written in 1M-row groups."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    weights = 1.0 / np.arange(1, distinct + 1, dtype=np.float64) ** s
    cdf = np.cumsum(weights / weights.sum())
    names = pc.binary_join_element_wise(
        "user-", pc.cast(pa.array(rng.permutation(distinct)), pa.string()), "")
    schema = pa.schema([("user", pa.string()), ("ts", pa.timestamp("ms", tz="UTC")),
                        ("amount", pa.int64()), ("status", pa.int32())])
    tmp = path.with_suffix(".tmp")
    with pq.ParquetWriter(tmp, schema) as writer:
        for lo in range(0, n, 1 << 20):
            m = min(1 << 20, n - lo)
            ranks = np.minimum(np.searchsorted(cdf, rng.random(m)), distinct - 1)
            writer.write_table(pa.table({
                "user": names.take(pa.array(ranks)),
                "ts": pa.array(T0 + rng.integers(0, DAY_MS, m), pa.timestamp("ms", tz="UTC")),
                "amount": pa.array(rng.integers(0, 100_000, m)),
                "status": pa.array(rng.integers(0, 5, m).astype(np.int32)),
            }, schema=schema))
    tmp.rename(path)


def dataset(cache: Path, records: int, topics: int, keys: int, s: float) -> list[Path]:
    """The topics' Parquet files, generated once per shape."""
    folder = cache / f"r{records}-t{topics}-k{keys}-s{s}"
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(topics):
        path = folder / f"topic{i}.parquet"
        if not path.exists():
            started = time.perf_counter()
            write_topic(path, records // topics, keys, s, seed=i)
            print(f"generated {path} in {time.perf_counter() - started:.1f} s", flush=True)
        paths.append(path)
    return paths


def resolved_cluster(paths: list[Path], partitioner: str | None) -> Any:
    """The topics as ``kpart report`` resolves them: one ``[[topics]]`` topology (12
    partitions, RF 3 each, keyed by ``user``, timestamped by ``ts``) on 6 brokers in 3 racks."""
    from kpart._layout import resolve_cluster
    from kpart.topology import Broker, TopicConfig, Topology

    brokers = tuple(Broker(b, f"r{b % 3}") for b in range(6))
    topics = tuple(TopicConfig(f"topic{i}", 12, 3, "user", placement_seed=i, data=str(path),
                               timestamp="ts") for i, path in enumerate(paths))
    return resolve_cluster(Topology(brokers, topics, (), form="topics"),
                           key_partitioner=partitioner)


def child(args: argparse.Namespace) -> None:
    """One measured run (``--child``): prints one JSON line."""
    import resource

    from kpart.producer.partition_count import default_limits
    from kpart.spark import get_or_create_session
    from kpart.spark.cluster_job import measure_topics
    from kpart.spark.inputs import resolve_topic_input

    paths = [Path(p) for p in args.paths]
    partitioner = None if args.child == "kafka" else "spark:hash"
    resolved = resolved_cluster(paths, partitioner)
    spark = get_or_create_session(master="local[2]", app_name="kpart-bench-cluster")
    specs = {rt.topic.name: resolve_topic_input(rt.topic, i)
             for i, rt in enumerate(resolved.topics)}
    wall, cpu = time.perf_counter(), time.process_time()
    measures = measure_topics(spark, resolved, specs, window_ms=60_000, limits=default_limits())
    summary = {
        "records": sum(sum(m.loads.partition_records) + m.loads.null_key_records
                       for m in measures),
        "windows": sum(int(m.windows.records.sum()) for m in measures if m.windows is not None),
        "recommended": [m.partition_count.recommended for m in measures
                        if m.partition_count is not None],
        "hot": [m.loads.hot_keys[0].key for m in measures if m.loads.hot_keys],
    }
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    jvm_peak = 0.0
    gateway = getattr(spark.sparkContext, "_gateway", None)
    proc = getattr(gateway, "proc", None)
    if proc is not None:
        for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                jvm_peak = int(line.split()[1]) / 1024
    spark.stop()
    print(json.dumps({"wall": wall, "cpu": cpu, "jvm_peak_mb": jvm_peak, "summary": summary,
                      "python_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                      / 1024}), flush=True)


def run(kind: str, paths: list[Path]) -> dict[str, Any]:
    """One child run of ``kind`` (``kafka`` | ``spark``), with its peak RSS (``os.wait4``)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(Path(__file__).resolve().parents[1] / "src"), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, __file__, "--child", kind, *map(str, paths)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    out = proc.stdout.read().decode()
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{kind} run failed (exit {os.waitstatus_to_exitcode(status)})")
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    result["driver_rss_mb"] = usage.ru_maxrss / 1024
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000_000, help="records in all")
    parser.add_argument("--topics", type=int, default=10)
    parser.add_argument("--keys", type=int, default=1_000_000, help="distinct keys per topic")
    parser.add_argument("--zipf", type=float, default=1.0, help="Zipf exponent")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--cache-dir", default="/tmp/kpart-bench-cluster")
    parser.add_argument("--child", choices=("kafka", "spark"), help=argparse.SUPPRESS)
    parser.add_argument("paths", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    paths = dataset(Path(args.cache_dir), args.records, args.topics, args.keys, args.zipf)
    runs: dict[str, list[dict[str, Any]]] = {"kafka": [], "spark": []}
    for i in range(args.repeats):
        for kind in ("kafka", "spark") if i % 2 == 0 else ("spark", "kafka"):
            r = run(kind, paths)
            runs[kind].append(r)
            print(f"{kind}: {r['wall']:.1f} s wall, {r['cpu']:.1f} s driver CPU, driver RSS "
                  f"{r['driver_rss_mb']:.0f} MiB, JVM peak {r['jvm_peak_mb']:.0f} MiB, "
                  f"{r['summary']['records']:,} records, recommended "
                  f"{r['summary']['recommended']}", flush=True)
    kafka = statistics.median(r["wall"] for r in runs["kafka"])
    spark = statistics.median(r["wall"] for r in runs["spark"])
    print(f"{args.records:,} records, {args.topics} topics, {args.keys:,} keys/topic, local[2]: "
          f"Kafka's partitioners {kafka:.1f} s, spark:hash {spark:.1f} s, ratio "
          f"{kafka / spark:.2f} (target <= 1.25); driver peak "
          f"{max(r['driver_rss_mb'] for v in runs.values() for r in v):.0f} MiB Python + "
          f"{max(r['jvm_peak_mb'] for v in runs.values() for r in v):.0f} MiB JVM")


if __name__ == "__main__":
    main()
