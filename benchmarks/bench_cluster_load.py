"""Loading the cluster model at Cruise Control's #1592 scale: a ``kafka-topics.sh --describe``
dump of 930,000 partitions (3,500 topics, RF 3, 215 brokers in 6 racks) and the
``kafka-log-dirs.sh --describe`` JSON of its 2.8M replicas (heavy-tailed sizes: a few topics
hold most bytes), plus a Cruise Control ``capacity.json``.

Measured: :func:`kpart.cluster.from_files.cluster_from_files` (parse describe + log-dirs JSON +
capacities, build the frozen model) and, separately, ``cluster.json`` (``cluster_to_json`` +
``json.dumps``), each to a materialized result: wall and CPU seconds (median of ``--repeats``,
each in a fresh child process) and the child's peak RSS. ISSUE13's end-to-end target for the
whole plan is 120 s and 6 GB: loading should be a small part of it.

Run: ``.venv/bin/python benchmarks/bench_cluster_load.py [--scale 1.0] [--repeats 3]``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from _timing import peak_rss_mb

RACKS = 6


def generate(directory: Path, scale: float, seed: int = 42) -> dict[str, Any]:
    """Write ``describe.txt``, ``log-dirs.txt`` and ``capacity.json``; return the shape."""
    rng = np.random.default_rng(seed)
    n_brokers = max(6, round(215 * scale))
    n_topics = max(1, round(3_500 * scale))
    n_parts = max(n_topics, round(930_000 * scale))
    # heavy-tailed partitions per topic and bytes per topic (Pareto): a few topics hold most
    weights = rng.pareto(1.2, n_topics) + 1
    counts = np.maximum(1, np.floor(weights / weights.sum() * n_parts)).astype(np.int64)
    counts[np.argmax(counts)] += n_parts - counts.sum()
    topic_bytes = (rng.pareto(1.1, n_topics) + 1) * 5e8
    lines: list[str] = ["Banner: generated describe dump"]
    by_broker: list[list[str]] = [[] for _ in range(n_brokers)]
    for t in range(n_topics):
        name = f"topic-{t:05d}"
        n = int(counts[t])
        lines.append(f"Topic: {name}\tTopicId: id{t}\tPartitionCount: {n}\tReplicationFactor: 3"
                     f"\tConfigs: min.insync.replicas=2,segment.bytes=1073741824")
        first = rng.integers(0, n_brokers, n)
        shift = rng.integers(1, n_brokers // 3, n)
        sizes = (rng.pareto(1.5, n) + 1) * topic_bytes[t] / n
        for p in range(n):
            r = [int(first[p]), int((first[p] + shift[p]) % n_brokers),
                 int((first[p] + 2 * shift[p]) % n_brokers)]
            if len(set(r)) < 3:
                r[2] = (r[1] + 1) % n_brokers if (r[1] + 1) % n_brokers != r[0] else (r[1] + 2) % n_brokers
            ids = ",".join(map(str, r))
            lines.append(f"\tTopic: {name}\tPartition: {p}\tLeader: {r[0]}\tReplicas: {ids}"
                         f"\tIsr: {ids}\tElr: N/A\tLastKnownElr: N/A")
            size = int(sizes[p])
            for b in r:
                by_broker[b].append(f'{{"partition":"{name}-{p}","size":{size},'
                                    f'"offsetLag":0,"isFuture":false}}')
    (directory / "describe.txt").write_text("\n".join(lines) + "\n")
    with (directory / "log-dirs.txt").open("w") as f:
        f.write("Querying brokers for log directories information\n"
                "Received log directory information from brokers 0-...\n")
        f.write('{"version":1,"brokers":[')
        for b, parts in enumerate(by_broker):
            f.write(("," if b else "") + f'{{"broker":{b},"logDirs":[{{"logDir":"/var/kafka",'
                    '"error":null,"partitions":[' + ",".join(parts) + "]}]}")
        f.write("]}\n")
    del by_broker
    (directory / "capacity.json").write_text(json.dumps({"brokerCapacities": [
        {"brokerId": "-1", "capacity": {"DISK": "4000000", "CPU": "100", "NW_IN": "125000",
                                        "NW_OUT": "125000"}, "doc": "default"}]}))
    return {"brokers": n_brokers, "topics": n_topics, "partitions": n_parts,
            "replicas": 3 * n_parts,
            "describe_mb": (directory / "describe.txt").stat().st_size / 2**20,
            "log_dirs_mb": (directory / "log-dirs.txt").stat().st_size / 2**20}


def _load(directory: Path) -> Any:
    from kpart.cluster.capacity import parse_capacity_json
    from kpart.cluster.from_files import cluster_from_files

    d = directory
    return cluster_from_files(
        (d / "describe.txt").read_text(), sizes=(d / "log-dirs.txt").read_text(),
        capacity=parse_capacity_json((d / "capacity.json").read_text()),
        brokers=None)


def _child(directory: Path, with_json: bool, out: Any) -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    model = _load(directory)
    result: dict[str, float] = {"load_wall": time.perf_counter() - wall,
                                "load_cpu": time.process_time() - cpu,
                                "partitions": float(model.num_partitions),
                                "disk_bytes": float(np.nansum(model.size_bytes))}
    if with_json:
        from kpart.cluster import cluster_to_json

        wall, cpu = time.perf_counter(), time.process_time()
        text = json.dumps(cluster_to_json(model), separators=(",", ":"))
        result["json_wall"] = time.perf_counter() - wall
        result["json_cpu"] = time.process_time() - cpu
        result["json_mb"] = len(text) / 2**20
    result["peak_rss_mb"] = peak_rss_mb()
    out.put(result)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the full size")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-json", action="store_true", help="skip timing cluster.json")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        start = time.perf_counter()
        shape = generate(directory, args.scale)
        print(f"generated in {time.perf_counter() - start:.1f} s: {shape}")
        ctx = mp.get_context("spawn")  # a fresh process each: a clean peak RSS
        runs = []
        for _ in range(args.repeats):
            q = ctx.Queue()
            p = ctx.Process(target=_child, args=(directory, not args.no_json, q))
            p.start()
            runs.append(q.get())
            p.join()
        for key in runs[0]:
            values = [r[key] for r in runs]
            print(f"{key:>12}: median {statistics.median(values):,.2f} "
                  f"(runs: {', '.join(f'{v:,.2f}' for v in values)})")


if __name__ == "__main__":
    main()
