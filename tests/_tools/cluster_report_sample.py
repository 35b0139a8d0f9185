"""A multi-topic report document (``summary.json`` with ``"kind": "cluster"``) built by hand,
field by field as issue 14's contract (§3) gives it, for the page and terminal tests: seeded,
any number of topics, brokers and heat map columns, with or without timestamps and capacities.
Not the real builder (:mod:`kpart.analysis.cluster_summary`): only its format.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from kpart.analysis.summary import BYTES_DEFINITION


def _skew(values: list[float]) -> dict[str, Any]:
    mean = sum(values) / len(values) if values else 0.0
    std = (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5 if values else 0.0
    return {"min": min(values, default=0), "max": max(values, default=0), "mean": mean,
            "max_over_mean": max(values) / mean if mean else 0.0, "cv": std / mean if mean else 0}


def _iso(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def cluster_report_summary(  # noqa: PLR0913
    *,
    partitions: tuple[int, ...] = (12, 3, 6),
    brokers: int = 6,
    racks: int = 3,
    timed: bool = True,
    capacity: bool = True,
    windows: int = 48,
    columns: int | None = None,
    members: tuple[int, ...] = (3, 2),
    hot_key_topic: int | None = None,
    seed: int = 7,
) -> dict[str, Any]:
    """A document with ``len(partitions)`` topics (``topic-{i}``, ``partitions[i]`` partitions,
    RF min(3, brokers)), ``brokers`` brokers in ``racks`` racks, a group per entry of
    ``members`` (group 0 reads every topic, the others topic 0 only), ``windows`` windows of an
    hour (heat map of ``columns`` columns, default ``windows``) when ``timed``.
    ``hot_key_topic``: that topic's partition count finds no count (its hot key is too hot)."""
    rng = random.Random(seed)
    rf = min(3, brokers)
    window_s = 3600.0
    start = datetime(2013, 1, 1, 5, tzinfo=UTC)
    span_s = windows * window_s
    ncols = columns if columns is not None else windows
    rack_of = {b: f"rack-{b % racks}" if racks else None for b in range(brokers)}
    topics, heat_rows, hot_keys = [], [], []
    led: dict[int, list[tuple[float, float, float]]] = {b: [] for b in range(brokers)}
    held: dict[int, list[tuple[float, float]]] = {b: [] for b in range(brokers)}
    first = 0
    for i, n in enumerate(partitions):
        name = f"topic-{i}"
        rows = []
        for p in range(n):
            records = rng.randint(100, 10_000) * (3 if p == 0 else 1)
            size = records * rng.randint(80, 120)
            replicas = [(first + p + k) % brokers for k in range(rf)]
            mean = size / span_s if timed else None
            peak = mean * rng.uniform(2, 5) if mean is not None else None
            rows.append({
                "partition": p, "records": records, "bytes": size, "keys": rng.randint(1, 50),
                "leader": replicas[0], "replicas": replicas, "null_key_records": 0,
                "bytes_in_per_s": mean, "peak_bytes_in_per_s": peak,
                "p99_bytes_in_per_s": peak * 0.9 if peak is not None else None,
                "peak_records_per_s": records / span_s * 4 if timed else None,
                "consumers": {f"g{j}": f"g{j}-m{p % m}" if j == 0 or i == 0 else None
                              for j, m in enumerate(members)},
            })
            led[replicas[0]].append((records, size, mean or 0.0))
            for b in replicas:
                held[b].append((records, size))
            if timed:
                heat_rows.append({"topic": name, "partition": p, "bytes_per_s": [
                    round(rng.uniform(0, peak or 0), 3) for _ in range(ncols)]})
        first += n
        total_r, total_b = sum(r["records"] for r in rows), sum(r["bytes"] for r in rows)
        hot_keys.append({"rank": i + 1, "topic": name, "key": f"K{i}", "records": total_r // 10,
                         "bytes": total_b // 10, "partition": 0, "share": 0.1})
        count = None
        if timed:
            stuck = i == hot_key_topic
            count = {
                "limits": {"max_partition_bytes_per_s": 1e6, "consumer_records_per_s": 1e3,
                           "max_partitions": 4000},
                "current": n, "current_ok": i % 2 == 0 and not stuck,
                "recommended": None if stuck else (n if i % 2 == 0 else 2 * n),
                "peak_bytes_per_s": 5e5, "peak_records_per_s": 400.0,
                "skew": _skew([r["records"] for r in rows]),
                "moved_keys_share": None if stuck else (0.0 if i % 2 == 0 else 0.5),
                "moved_records_share": None if stuck else (0.0 if i % 2 == 0 else 0.48),
                "hot_key": {"key": f"K{i}", "peak_bytes_per_s": 2e6,
                            "peak_records_per_s": 3000.0} if stuck else None,
                "reason": f"key 'K{i}' alone exceeds the limit" if stuck else "",
            }
        topics.append({
            "topic": name, "records": total_r, "bytes": total_b, "num_partitions": n,
            "replication_factor": rf, "key": "k", "key_serializer": "string",
            "partitioner": "java:default", "null_key_strategy": "sticky",
            "input": {"path": f"/data/{name}.csv", "format": "csv"},
            "timestamp": "ts" if timed else None, "null_key_records": 0,
            "distinct_keys": sum(r["keys"] for r in rows), "span_s": span_s if timed else None,
            "partitions": rows, "hot_keys": [{k: v for k, v in hot_keys[-1].items()
                                              if k != "topic"}],
            "skew": {"partition_records": _skew([r["records"] for r in rows]),
                     "partition_bytes": _skew([r["bytes"] for r in rows])},
            "partition_count": count,
        })
    broker_rows = []
    for b in range(brokers):
        produce = sum(x[2] for x in led[b]) if timed else None
        repl_in = produce * (rf - 1) / rf * 2 if produce is not None else None
        peak = produce * 3 if produce is not None else None
        broker_rows.append({
            "broker": b, "rack": rack_of[b], "leaders": len(led[b]), "replicas": len(held[b]),
            "leader_records": sum(x[0] for x in led[b]), "leader_bytes": sum(x[1] for x in led[b]),
            "replica_records": sum(x[0] for x in held[b]),
            "replica_bytes": sum(x[1] for x in held[b]),
            "disk_bytes": sum(x[1] for x in held[b]),
            "produce_bytes_in_per_s": produce, "replication_bytes_in_per_s": repl_in,
            "consumer_bytes_out_per_s": produce * 2 if produce is not None else None,
            "replication_bytes_out_per_s": repl_in,
            "nw_in_bytes_per_s": (produce or 0) + (repl_in or 0) if timed else None,
            "nw_out_bytes_per_s": 3 * produce if produce is not None else None,
            "peak_bytes_in_per_s": peak, "p99_bytes_in_per_s": peak * 0.8 if peak else None,
            "mean_bytes_in_per_s": produce,
            "capacity": {"disk_bytes": 1e12, "nw_in_bytes_per_s": 3 * (produce or 1) if b % 4
                         else (produce or 1), "nw_out_bytes_per_s": 1e8} if capacity else None,
        })
    rack_rows = [{"rack": r, "brokers": [b["broker"] for b in broker_rows if b["rack"] == r],
                  **{k: sum(b[k] or 0 for b in broker_rows if b["rack"] == r) for k in (
                      "leader_records", "leader_bytes", "replica_records", "replica_bytes",
                      "nw_in_bytes_per_s", "nw_out_bytes_per_s")}}
                 for r in sorted({v for v in rack_of.values() if v is not None})]
    groups = []
    for j, m in enumerate(members):
        reads = [t["topic"] for t in topics] if j == 0 else [topics[0]["topic"]]
        mem = []
        for k in range(m):
            owned = [(t["topic"], p["partition"], p) for t in topics if t["topic"] in reads
                     for p in t["partitions"] if p["consumers"][f"g{j}"] == f"g{j}-m{k}"]
            mem.append({"member": f"g{j}-m{k}", "rack": rack_of[k % brokers],
                        "instance_id": None,
                        "partitions": [{"topic": t, "partition": p} for t, p, _ in owned],
                        "records": sum(x["records"] for *_, x in owned),
                        "bytes": sum(x["bytes"] for *_, x in owned),
                        "peak_records_per_s": 10.0 * (k + 1) if timed else None})
        groups.append({"group": f"g{j}", "strategy": "cooperative-sticky" if j == 0 else "range",
                       "topics": reads, "members": mem,
                       "skew": _skew([x["records"] for x in mem])})
    cluster_brokers = [{"broker": b["broker"], "rack": b["rack"], "capacity": b["capacity"],
                        "after": {"replicas": b["replicas"], "leaders": b["leaders"],
                                  "disk_bytes": b["disk_bytes"],
                                  "nw_in_bytes_per_s": b["nw_in_bytes_per_s"],
                                  "nw_out_bytes_per_s": b["nw_out_bytes_per_s"]}}
                       for b in broker_rows]
    hot_keys.sort(key=lambda h: -h["records"])
    for rank, h in enumerate(hot_keys, 1):
        h["rank"] = rank
    return {
        "format": "kpart-report", "format_version": 1, "kind": "cluster",
        "analysed": {"topics": [t["topic"] for t in topics], "brokers": list(range(brokers)),
                     "kpart_version": "0.1.0", "time": "2026-11-24T10:00:00Z"},
        "records": sum(t["records"] for t in topics), "bytes": sum(t["bytes"] for t in topics),
        "bytes_definition": BYTES_DEFINITION, "window_s": window_s if timed else None,
        "topics": topics, "brokers": broker_rows, "racks": rack_rows, "groups": groups,
        "hot_keys": hot_keys,
        "heatmap": {"window_s": window_s, "start": _iso(start),
                    "columns": [_iso(start + timedelta(seconds=window_s * c * windows / ncols))
                                for c in range(ncols)],
                    "rows": heat_rows} if timed else None,
        "cluster": {"brokers": cluster_brokers, "failures": None, "capacity_threshold": 0.8},
    }
