"""A small synthetic summary in ``summary.json``'s shape, computed with kpart's own cores.

For the report's tests and for ``docs/make_screenshot.py`` when no ``kpart report`` output is
at hand: ``records`` keys drawn from a Zipf law over ``distinct_keys`` tail-number-like keys,
hashed with Kafka's ``BuiltInPartitioner`` (murmur2), replicas placed by ``AdminUtils`` (fixed
start index), partitions assigned by the Range and RoundRobin assignors, what-if partition
counts and other clients' partitioners by :mod:`kpart.producer.whatif` / ``compat``. No Spark, no I/O;
deterministic for a given ``seed``.

>>> s = sample_summary(num_partitions=6, records=1_000, seed=1)
>>> len(s["partitions"]), sum(p["records"] for p in s["partitions"]) + s["null_key_records"]
(6, 1000)
"""

from __future__ import annotations

from typing import Any

import numpy as np


def _skew(values: list[int]) -> dict[str, float | int]:
    arr = np.asarray(values, dtype=float)
    mean = float(arr.mean()) if arr.size else 0.0
    return {
        "min": int(arr.min()),
        "max": int(arr.max()),
        "mean": round(mean, 6),
        "max_over_mean": round(float(arr.max()) / mean, 6) if mean else 0.0,
        "cv": round(float(arr.std()) / mean, 6) if mean else 0.0,
    }


def sample_summary(
    *,
    topic: str = "flights",
    num_partitions: int = 12,
    records: int = 50_000,
    distinct_keys: int = 400,
    racks: tuple[str, ...] = ("rack-a", "rack-b", "rack-c"),
    brokers_per_rack: int = 2,
    groups: tuple[tuple[str, str, int], ...] = (("dashboard", "range", 5), ("audit", "roundrobin", 4)),
    whatif: bool = True,
    seed: int = 7,
) -> dict[str, Any]:
    """A summary dict (the fields the HTML page reads; with ``whatif``, also the ``"whatif"`` and
    ``"compat"`` sections as kpart's producer cores compute them)."""
    from kpart import Broker, GroupSpec, Member, Topic, assign, assign_replicas_to_brokers
    from kpart.producer.builtin import partition_for_key

    rng = np.random.default_rng(seed)
    keys = [f"N{100 + 7 * i}{'ABCDEFGH'[i % 8]}" for i in range(distinct_keys)]
    weights = 1.0 / np.arange(1, distinct_keys + 1) ** 0.9
    counts = rng.multinomial(records, np.append(weights / weights.sum() * 0.97, 0.03))
    per_key = dict(zip(keys, (int(c) for c in counts[:-1]), strict=True))
    null_keys = int(counts[-1])

    def loads(n: int) -> tuple[list[int], list[int], dict[str, int]]:
        recs, size, where = [0] * n, [0] * n, {}
        for k, c in per_key.items():
            p = partition_for_key(k.encode(), n)
            where[k] = p
            recs[p] += c
            size[p] += c * (len(k) + 180)
        return recs, size, where

    recs, size, where = loads(num_partitions)
    brokers = [Broker(r * brokers_per_rack + i, rack)
               for i in range(brokers_per_rack) for r, rack in enumerate(racks)]
    replicas = assign_replicas_to_brokers(brokers, num_partitions, 3, fixed_start_index=0)
    partitions = [
        {"partition": p, "records": recs[p], "bytes": size[p], "leader": replicas[p][0],
         "replicas": list(replicas[p])}
        for p in range(num_partitions)
    ]
    broker_rows = [
        {"broker": b.id, "rack": b.rack,
         "leader_records": sum(recs[p] for p in range(num_partitions) if replicas[p][0] == b.id),
         "replica_records": sum(recs[p] for p in range(num_partitions) if b.id in replicas[p])}
        for b in sorted(brokers, key=lambda b: b.id)
    ]
    group_rows = []
    for name, strategy, n_members in groups:
        members = tuple(Member(f"{name}-{i}", (topic,), racks[i % len(racks)],
                               f"{name}-host-{i}" if i % 2 else None)
                        for i in range(n_members))
        ga = assign(GroupSpec((Topic(topic, num_partitions),), members), strategy)
        rows = []
        for m in members:
            parts = sorted(p for _, p in ga.partitions_of(m.member_id))
            rows.append({"member": m.member_id, "rack": m.rack, "instance_id": m.group_instance_id,
                         "partitions": parts, "records": sum(recs[p] for p in parts)})
        group_rows.append({"group": name, "strategy": strategy, "members": rows,
                           "skew": _skew([r["records"] for r in rows])})
    top = sorted(per_key.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
    keyed = sum(recs)
    summary: dict[str, Any] = {
        "topic": topic,
        "num_partitions": num_partitions,
        "records": keyed + null_keys,
        "bytes": sum(size),
        "null_key_records": null_keys,
        "analysed": {
            "input": "sample (synthetic)", "dataset": None, "format": None,
            "records": keyed + null_keys, "topic": topic, "key": "tailnum",
            "key_serializer": "string", "partitioner": "java:default",
            "null_key_strategy": "client", "partitions": num_partitions,
            "replication_factor": 3, "brokers": [b.id for b in brokers],
            "broker_racks": [b.rack for b in brokers], "racks": sorted(racks),
            "groups": [g[0] for g in groups], "kpart_version": "sample", "time": None,
        },
        "partitions": partitions,
        "brokers": broker_rows,
        "groups": group_rows,
        "skew": {
            "partition_records": _skew(recs),
            "partition_bytes": _skew(size),
            "broker_leader_records": _skew([b["leader_records"] for b in broker_rows]),
        },
        "hot_keys": [
            {"rank": i + 1, "key": k, "records": c, "partition": where[k],
             "share": round(c / keyed, 6)}
            for i, (k, c) in enumerate(top)
        ],
    }
    if whatif:
        from kpart.producer.compat import compare_partitioners
        from kpart.producer.whatif import partition_count_whatif

        counts_ = np.array(list(per_key.values()), dtype=np.int64)
        targets = [m for m in (6, 8, 16, 24) if m != num_partitions]
        summary["whatif"] = partition_count_whatif(
            list(per_key), num_partitions, targets, records=counts_
        ).to_json()
        summary["compat"] = compare_partitioners(
            list(per_key), num_partitions, records=counts_, examples=2
        ).to_json()
    return summary
