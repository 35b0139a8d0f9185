"""A small synthetic summary, built by kpart's own :func:`kpart.analysis.summary.build_summary`.

For the report's tests and for ``docs/make_screenshot.py`` when no ``kpart report`` output is
at hand: ``records`` keys drawn from a Zipf law over ``distinct_keys`` tail-number-like keys
(3% of the records without key), hashed with Kafka's ``BuiltInPartitioner`` (murmur2) into the
:class:`~kpart.analysis.summary.Loads` the Spark job would measure; then, as ``kpart report``
does, replicas placed by ``AdminUtils`` (seeded), partitions assigned by each group's assignor,
null keys placed by the producer's rule, the what-if counted like the report and other
clients' partitioners compared (:mod:`kpart.producer.whatif` / ``compat``). No Spark, no I/O;
deterministic for a given ``seed``.

>>> s = sample_summary(num_partitions=6, records=1_000, seed=1)
>>> len(s["partitions"]), sum(p["records"] for p in s["partitions"])
(6, 1000)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kpart.analysis.summary import HotKey, Loads, build_summary
from kpart.topology import Topology, topology_from_dict

TOPIC = "flights"


def sample_topology(num_partitions: int, racks: tuple[str, ...], brokers_per_rack: int,
                    groups: tuple[tuple[str, str, int], ...], seed: int) -> Topology:
    """The sample's cluster (``brokers_per_rack`` brokers in each rack), topic (RF 3, key
    ``tailnum``) and groups (``(name, strategy, members)``; members in alternate racks, every
    other one static)."""
    brokers = [{"id": r * brokers_per_rack + i, "rack": rack}
               for i in range(brokers_per_rack) for r, rack in enumerate(racks)]
    return topology_from_dict({
        "cluster": {"brokers": brokers},
        "topic": {"name": TOPIC, "partitions": num_partitions, "replication_factor": 3,
                  "key": "tailnum", "placement_seed": seed},
        "groups": [
            {"name": name, "strategy": strategy,
             "members": [{"id": f"{name}-{i}", "rack": racks[i % len(racks)],
                          **({"instance_id": f"{name}-host-{i}"} if i % 2 else {})}
                         for i in range(n_members)]}
            for name, strategy, n_members in groups
        ],
    })


def _loads(per_key: dict[str, int], null_keys: int, n: int) -> Loads:
    """What the Spark job would measure: keys hashed with murmur2, 180 bytes of value each."""
    from kpart.producer.builtin import partition_for_key

    recs, size, keys = [0] * n, [0] * n, [0] * n
    where = {}
    for k, c in per_key.items():
        p = where[k] = partition_for_key(k.encode(), n)
        recs[p] += c
        size[p] += c * (len(k) + 180)
        keys[p] += c > 0
    top = sorted(per_key.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
    hot = tuple(HotKey(k, c, c * (len(k) + 180), where[k]) for k, c in top)
    return Loads(tuple(recs), tuple(size), tuple(keys), null_keys, null_keys * 180, hot)


def sample_summary(
    *,
    num_partitions: int = 12,
    records: int = 50_000,
    distinct_keys: int = 400,
    racks: tuple[str, ...] = ("rack-a", "rack-b", "rack-c"),
    brokers_per_rack: int = 2,
    groups: tuple[tuple[str, str, int], ...] = (("dashboard", "range", 5), ("audit", "roundrobin", 4)),
    whatif: bool = True,
    seed: int = 7,
) -> dict[str, Any]:
    """The summary ``kpart report`` would write for the sample (with ``whatif``, also the
    ``"whatif"`` and ``"compat"`` sections as kpart's producer cores compute them)."""
    rng = np.random.default_rng(seed)
    keys = [f"N{100 + 7 * i}{'ABCDEFGH'[i % 8]}" for i in range(distinct_keys)]
    weights = 1.0 / np.arange(1, distinct_keys + 1) ** 0.9
    counts = rng.multinomial(records, np.append(weights / weights.sum() * 0.97, 0.03))
    per_key = dict(zip(keys, (int(c) for c in counts[:-1]), strict=True))
    topology = sample_topology(num_partitions, racks, brokers_per_rack, groups, seed)
    loads = _loads(per_key, int(counts[-1]), num_partitions)
    summary = build_summary(topology, loads, source={"path": "sample (synthetic)"})
    if whatif:
        from kpart.analysis.loads import count_whatif_like_report
        from kpart.producer.compat import compare_partitioners
        from kpart.producer.whatif import partition_count_whatif

        counts_ = np.array(list(per_key.values()), dtype=np.int64)
        targets = [m for m in (6, 8, 16, 24) if m != num_partitions]
        summary["whatif"] = count_whatif_like_report(partition_count_whatif(
            list(per_key), num_partitions, targets, records=counts_
        ).to_json(), topology, loads)
        summary["compat"] = compare_partitioners(
            list(per_key), num_partitions, records=counts_, examples=2
        ).to_json()
    return summary
