"""Benchmark: the cluster report's Spark job (:func:`kpart.spark.cluster_job.measure_topics`) on
issue 14's target shape — 10 topics, 100M records in all, keys Zipf-distributed over 1M distinct
per topic, timestamps over a day, 1-minute windows — vs the identical job with Spark's own
``pmod(hash(key), n)`` (``spark:hash``) in place of Kafka's partitioners, in one run, local[2].

The data (string key, epoch-ms ``ts`` as a UTC timestamp, two value columns) is generated with
NumPy once per shape and cached as Parquet under ``--cache-dir`` (default
``/tmp/kpart-bench-cluster``). Each partitioner runs in a child process of its own with its own
session (started before timing), and both stay up while the parent measures the topics one at
a time, alternating between the two (the first of a pair alternates too), so that a machine
busy with something else slows both alike. A topic is timed through
:func:`kpart.spark.cluster_job.measure_topic` (what ``measure_topics`` runs for each topic) to
its materialized result (loads, (partition, window) grid and partition count: Python values
and numpy arrays); a partitioner's figure is the sum over its topics (the median of
``--repeats`` sums), wall and CPU (driver process) seconds. The parent reports each child's
peak RSS (``os.wait4``: the Python driver) and its JVM's (``VmHWM`` of the driver JVM, read by
the child before it stops). The driver runs with Spark's default memory (1 GiB heap).
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
    from kpart.analysis.layout import resolve_cluster
    from kpart.topology import Broker, TopicConfig, Topology

    brokers = tuple(Broker(b, f"r{b % 3}") for b in range(6))
    topics = tuple(TopicConfig(f"topic{i}", 12, 3, "user", placement_seed=i, data=str(path),
                               timestamp="ts") for i, path in enumerate(paths))
    return resolve_cluster(Topology(brokers, topics, (), form="topics"),
                           key_partitioner=partitioner)


def child(args: argparse.Namespace) -> None:
    """One partitioner's session (``--child``): starts Spark (not timed), prints ``ready``,
    then for each topic index read from stdin measures that topic to its materialized result
    and prints one JSON line; on ``done`` prints its JVM's peak RSS and stops."""
    import resource

    from kpart.producer.partition_count import CountRules, default_limits
    from kpart.spark import get_or_create_session
    from kpart.spark.cluster_job import measure_topic
    from kpart.spark.inputs import resolve_topic_input

    paths = [Path(p) for p in args.paths]
    partitioner = None if args.child == "kafka" else "spark:hash"
    resolved = resolved_cluster(paths, partitioner)
    spark = get_or_create_session(master="local[2]", app_name="kpart-bench-cluster")
    print("ready", flush=True)
    for line in sys.stdin:
        if line.strip() == "done":
            break
        i = int(line)
        rt = resolved.topics[i]
        spec = resolve_topic_input(rt.topic, i)
        wall, cpu = time.perf_counter(), time.process_time()
        m = measure_topic(spark, rt, spec, index=i, window_ms=60_000,
                          rules=CountRules(default_limits()))
        summary = {
            "records": sum(m.loads.partition_records) + m.loads.null_key_records,
            "windows": 0 if m.windows is None else int(m.windows.records.sum()),
            "recommended": None if m.partition_count is None else m.partition_count.recommended,
            "hot": m.loads.hot_keys[0].key if m.loads.hot_keys else None,
        }
        print(json.dumps({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                          "summary": summary}), flush=True)
    jvm_peak = 0.0
    gateway = getattr(spark.sparkContext, "_gateway", None)
    proc = getattr(gateway, "proc", None)
    if proc is not None:
        for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                jvm_peak = int(line.split()[1]) / 1024
    spark.stop()
    print(json.dumps({"jvm_peak_mb": jvm_peak, "python_peak_mb":
                      resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}), flush=True)


class Session:
    """A ``--child`` process of one partitioner, driven a topic at a time."""

    def __init__(self, kind: str, paths: list[Path]) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [str(Path(__file__).resolve().parents[1] / "src"), os.environ.get("PYTHONPATH", "")]))
        self.kind = kind
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--child", kind, *map(str, paths)], env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        if self._line() != "ready":
            raise SystemExit(f"{kind}: the session did not start")

    def _line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"{self.kind} run failed (exit {self.proc.wait()})")
        return line.strip()

    def measure(self, topic: int) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{topic}\n")
        self.proc.stdin.flush()
        result: dict[str, Any] = json.loads(self._line())
        return result

    def close(self) -> dict[str, Any]:
        """The child's peaks: its JVM's (``VmHWM``) and its Python's (``os.wait4``)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write("done\n")
        self.proc.stdin.flush()
        result: dict[str, Any] = json.loads(self._line())
        _, status, usage = os.wait4(self.proc.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{self.kind} run failed (exit {os.waitstatus_to_exitcode(status)})")
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
    walls: dict[str, list[float]] = {"kafka": [], "spark": []}
    peaks: list[dict[str, Any]] = []
    for r in range(args.repeats):
        sessions = [Session("kafka", paths), Session("spark", paths)]
        totals = {"kafka": 0.0, "spark": 0.0}
        for i in range(len(paths)):
            for s in sessions if (i + r) % 2 == 0 else sessions[::-1]:
                m = s.measure(i)
                totals[s.kind] += m["wall"]
                print(f"topic{i} {s.kind}: {m['wall']:.1f} s wall, {m['cpu']:.1f} s driver CPU, "
                      f"{m['summary']['records']:,} records, recommended "
                      f"{m['summary']['recommended']}", flush=True)
        peaks += [s.close() for s in sessions]
        for kind, total in totals.items():
            walls[kind].append(total)
        print(f"repeat {r + 1}: Kafka's partitioners {totals['kafka']:.1f} s, spark:hash "
              f"{totals['spark']:.1f} s", flush=True)
    kafka, spark = statistics.median(walls["kafka"]), statistics.median(walls["spark"])
    print(f"{args.records:,} records, {args.topics} topics, {args.keys:,} keys/topic, local[2]: "
          f"Kafka's partitioners {kafka:.1f} s, spark:hash {spark:.1f} s, ratio "
          f"{kafka / spark:.2f} (target <= 1.25); driver peak "
          f"{max(p['driver_rss_mb'] for p in peaks):.0f} MiB Python + "
          f"{max(p['jvm_peak_mb'] for p in peaks):.0f} MiB JVM")

if __name__ == "__main__":
    main()
