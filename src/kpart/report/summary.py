"""The report's summary: per-partition loads joined with replica placement and group assignment.

Pure Python, no Spark: the Spark job (:mod:`kpart.spark.pipeline`) hands over :class:`Loads`
(records and bytes per partition, null keys, hot keys); :func:`layout_for` places the replicas
(``AdminUtils.assignReplicasToBrokers`` with the topology's seed) and assigns the partitions
to every group's members (Kafka's assignors); :func:`build_summary` rolls the loads up per
broker (as leader and as replica), per rack and per consumer, with skew figures.

Units: ``records`` are counts; ``bytes`` = serialized key length + value length, where the
value is the record as a JSON object (Spark's ``to_json`` over all columns, UTF-8), i.e. what
a producer with a JSON value serializer would send, without Kafka's record overhead.

Records with a null key have no key to hash: the topic's ``null_key_strategy`` places them
(:func:`kpart.producer.null_keys.distribute_null_keys`, a seeded model of the producer over
their count and bytes, led by the placement's leaders), and every per-partition, per-broker,
per-rack and per-consumer total *includes* them. Each partition also reports its
``keyed_records``/``keyed_bytes`` and ``null_key_records``/``null_key_bytes``; the document's
``null_key_distribution`` says how they were placed. With ``null_key_strategy = "separate"``
they are not placed: totals count keyed records only and ``null_key_records`` stands apart.
Records whose key is empty (``""``, ``b""``) *are* keyed: Kafka hashes the empty key like any
other; ``empty_key_records`` counts them (they are in ``keyed_records``).

>>> from kpart.topology import default_topology
>>> t = default_topology()
>>> loads = Loads(partition_records=tuple(range(12)), partition_bytes=tuple(range(12)),
...               partition_keys=(1,) * 12, null_key_records=5, null_key_bytes=50, hot_keys=())
>>> s = build_summary(t, loads)
>>> s["records"], s["keyed_records"], sum(b["leader_records"] for b in s["brokers"])
(71, 66, 71)
>>> sum(b["replica_records"] for b in s["brokers"]) == 3 * 71
True
>>> s = build_summary(t.with_topic(null_key_strategy="separate"), loads)
>>> s["records"], sum(b["leader_records"] for b in s["brokers"])
(71, 66)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kpart.consumer.spec import GroupAssignment
from kpart.errors import ConfigError
from kpart.producer.null_keys import NullKeyDistribution, distribute_null_keys
from kpart.topology import Topology

__all__ = [
    "BYTES_DEFINITION",
    "analysed_section",
    "HotKey",
    "Layout",
    "Loads",
    "build_summary",
    "distribute_loads_null_keys",
    "layout_for",
    "skew_stats",
]

BYTES_DEFINITION = (
    "serialized key length + UTF-8 length of the record as a JSON object "
    "(Spark to_json over all columns); Kafka's per-record overhead is not included"
)


@dataclass(frozen=True, slots=True)
class HotKey:
    """One of the most frequent keys: ``key`` (str, int, or hex for bytes), ``records``,
    ``bytes`` and its ``partition``."""

    key: str | int
    records: int
    bytes: int
    partition: int


@dataclass(frozen=True, slots=True)
class Loads:
    """What the Spark job measures. ``partition_*[p]``: records, bytes and distinct keys of
    partition ``p``; ``null_key_*``: records without key (not hashed); ``hot_keys``: the top keys
    by records, most frequent first (ties: smallest key first)."""

    partition_records: tuple[int, ...]
    partition_bytes: tuple[int, ...]
    partition_keys: tuple[int, ...]
    null_key_records: int
    null_key_bytes: int
    hot_keys: tuple[HotKey, ...]
    #: records whose key is the empty string/bytes: hashed like any key (Kafka hashes b""),
    #: so they are in ``partition_*``; counted apart from ``null_key_records``
    empty_key_records: int = 0
    #: records whose key the serializer cannot represent, counted apart on request (in no
    #: partition and in no total)
    invalid_key_records: int = 0

    def __post_init__(self) -> None:
        n = len(self.partition_records)
        if n == 0 or len(self.partition_bytes) != n or len(self.partition_keys) != n:
            raise ConfigError("loads: partition_records, partition_bytes and partition_keys "
                              "must have the same non-zero length")


@dataclass(frozen=True, slots=True)
class Layout:
    """Placement and assignment of the topology: ``replicas[p]`` (preferred leader first) and
    each group's :class:`~kpart.consumer.spec.GroupAssignment`, in topology order."""

    replicas: dict[int, tuple[int, ...]]
    assignments: tuple[tuple[str, GroupAssignment], ...]


def layout_for(topology: Topology) -> Layout:
    """Place the topic's replicas and assign its partitions to every group (pure)."""
    from kpart.consumer import assign
    from kpart.consumer.spec import GroupSpec, Member, Topic
    from kpart.placement.admin_utils import assign_replicas_to_brokers

    t = topology.topic
    replicas = assign_replicas_to_brokers(
        topology.brokers, t.partitions, t.replication_factor,
        seed=t.placement_seed, rack_aware=t.rack_aware,
    )
    rack_of = {b.id: b.rack for b in topology.brokers}
    replica_racks = None
    if topology.racks:
        replica_racks = tuple(tuple(rack_of[b] for b in replicas[p]) for p in range(t.partitions))
    topic = Topic(t.name, t.partitions, replica_racks)
    assignments = []
    for g in topology.groups:
        members = tuple(Member(m.id, (t.name,), m.rack, m.instance_id) for m in g.members)
        assignments.append((g.name, assign(GroupSpec((topic,), members), g.strategy)))
    return Layout(replicas, tuple(assignments))


def _round(x: float) -> float:
    return round(x, 6)


def skew_stats(values: Sequence[int]) -> dict[str, float | int]:
    """``{"min", "max", "mean", "max_over_mean", "cv"}`` of ``values`` (``cv`` = population
    standard deviation / mean; both ratios 0 when the mean is 0).

    >>> skew_stats([1, 2, 3, 6])
    {'min': 1, 'max': 6, 'mean': 3.0, 'max_over_mean': 2.0, 'cv': 0.62361}
    """
    n = len(values)
    mean = sum(values) / n if n else 0.0
    std = math.sqrt(sum((v - mean) ** 2 for v in values) / n) if n else 0.0
    return {
        "min": min(values, default=0),
        "max": max(values, default=0),
        "mean": _round(mean),
        "max_over_mean": _round(max(values) / mean) if mean else 0.0,
        "cv": _round(std / mean) if mean else 0.0,
    }


def analysed_section(topology: Topology, source: dict[str, Any], records: int,
                     analysed_at: str | None = None) -> dict[str, Any]:
    """What a report analysed, as the page and the terminal show it: the ``input`` path (or
    dataset name) and ``format``, ``records``, the key column and how it was hashed, the
    topic's partitions and replication factor, the brokers (with their racks), the consumer
    groups, kpart's version and ``time`` (``analysed_at``: UTC, ISO 8601; ``None`` if not given).

    >>> from kpart.topology import default_topology
    >>> a = analysed_section(default_topology(), {"path": "f.csv", "format": "csv"}, 10)
    >>> a["input"], a["records"], a["key"], a["partitions"], a["brokers"], a["racks"][:1]
    ('f.csv', 10, 'tailnum', 12, [0, 1, 2, 3, 4, 5], ['us-east-1a'])
    """
    from kpart import __version__

    t = topology.topic
    return {
        "input": source.get("path") or source.get("dataset"),
        "dataset": source.get("dataset"),
        "format": source.get("format"),
        "records": records,
        "topic": t.name,
        "key": t.key,
        "key_serializer": t.key_serializer,
        "partitioner": t.partitioner,
        "null_key_strategy": t.null_key_strategy,
        "partitions": t.partitions,
        "replication_factor": t.replication_factor,
        "brokers": [b.id for b in topology.brokers],
        "broker_racks": [b.rack for b in topology.brokers],
        "racks": list(topology.racks),
        "groups": [g.name for g in topology.groups],
        "kpart_version": __version__,
        "time": analysed_at,
    }


def distribute_loads_null_keys(
    topology: Topology, loads: Loads, layout: Layout | None = None
) -> NullKeyDistribution:
    """Place ``loads``' null-key records by the topic's ``null_key_strategy``, ``partitioner``,
    ``batch_size`` and null-key seed, partitions led as in ``layout`` (default
    :func:`layout_for`). See :mod:`kpart.producer.null_keys`."""
    t = topology.topic
    layout = layout or layout_for(topology)
    return distribute_null_keys(
        loads.null_key_records, loads.null_key_bytes, t.partitions,
        strategy=t.null_key_strategy, partitioner=t.partitioner,
        leaders=[layout.replicas[p][0] for p in range(t.partitions)],
        batch_size=t.batch_size, seed=t.effective_null_key_seed,
    )


def build_summary(
    topology: Topology,
    loads: Loads,
    layout: Layout | None = None,
    *,
    source: dict[str, Any] | None = None,
    analysed_at: str | None = None,
) -> dict[str, Any]:
    """The ``summary.json`` document (see the module docstring for units and null keys).

    ``len(loads.partition_records)`` must equal the topic's partition count. ``layout``
    defaults to :func:`layout_for` ``(topology)``; ``source`` (e.g. ``{"path", "format"}``) is
    recorded as ``input``; ``analysed`` says what was analysed (:func:`analysed_section`, with
    ``analysed_at``, the UTC time of the run, ISO 8601). The result is deterministic when the topology has a seed (or the
    null-key strategy draws nothing): equal inputs give equal JSON.
    """
    t = topology.topic
    n = t.partitions
    if len(loads.partition_records) != n:
        raise ConfigError(
            f"loads: {len(loads.partition_records)} partitions measured, topology has {n}"
        )
    layout = layout or layout_for(topology)
    nulls = distribute_loads_null_keys(topology, loads, layout)
    keyed_recs, keyed_byts = loads.partition_records, loads.partition_bytes
    recs = tuple(a + b for a, b in zip(keyed_recs, nulls.records, strict=True))
    byts = tuple(a + b for a, b in zip(keyed_byts, nulls.bytes, strict=True))
    keyed = sum(keyed_recs)

    owner: dict[str, dict[int, str]] = {}
    for name, ga in layout.assignments:
        owner[name] = {p: m for m, owned in ga.assignment for _, ps in owned for p in ps}

    partitions = [
        {
            "partition": p,
            "records": recs[p],
            "bytes": byts[p],
            "keyed_records": keyed_recs[p],
            "keyed_bytes": keyed_byts[p],
            "null_key_records": nulls.records[p],
            "null_key_bytes": nulls.bytes[p],
            "keys": loads.partition_keys[p],
            "leader": layout.replicas[p][0],
            "replicas": list(layout.replicas[p]),
            "consumers": {g: owner[g].get(p) for g, _ in layout.assignments},
        }
        for p in range(n)
    ]

    brokers = []
    for b in topology.brokers:
        led = [p for p in range(n) if layout.replicas[p][0] == b.id]
        held = [p for p in range(n) if b.id in layout.replicas[p]]
        brokers.append({
            "broker": b.id,
            "rack": b.rack,
            "leader_partitions": led,
            "replica_partitions": held,
            "leader_records": sum(recs[p] for p in led),
            "leader_bytes": sum(byts[p] for p in led),
            "replica_records": sum(recs[p] for p in held),
            "replica_bytes": sum(byts[p] for p in held),
        })

    racks = []
    for rack in topology.racks:
        mine = [x for x in brokers if x["rack"] == rack]
        racks.append({
            "rack": rack,
            "brokers": [x["broker"] for x in mine],
            **{f: sum(x[f] for x in mine) for f in
               ("leader_records", "leader_bytes", "replica_records", "replica_bytes")},
        })

    groups = []
    for (name, ga), cfg in zip(layout.assignments, topology.groups, strict=True):
        members = []
        for m in cfg.members:
            parts = sorted(p for _, p in ga.partitions_of(m.id))
            members.append({
                "member": m.id,
                "rack": m.rack,
                "instance_id": m.instance_id,
                "partitions": parts,
                "records": sum(recs[p] for p in parts),
                "bytes": sum(byts[p] for p in parts),
            })
        groups.append({
            "group": name,
            "strategy": cfg.strategy,
            "members": members,
            "skew": skew_stats([x["records"] for x in members]),
        })

    total = keyed + loads.null_key_records
    hot = [
        {"rank": i + 1, "key": k.key, "records": k.records, "bytes": k.bytes,
         "partition": k.partition, "share": _round(k.records / keyed) if keyed else 0.0}
        for i, k in enumerate(loads.hot_keys)
    ]
    return {
        "format": "kpart-report",  # first: marks a directory kpart may replace (report.output)
        "format_version": 1,
        "topic": t.name,
        "num_partitions": n,
        "replication_factor": t.replication_factor,
        "key": t.key,
        "key_serializer": t.key_serializer,
        "partitioner": t.partitioner,
        "null_key_strategy": t.null_key_strategy,
        "placement_seed": t.placement_seed,
        "input": source or {},
        "analysed": analysed_section(topology, source or {}, total, analysed_at),
        "records": total,
        "bytes": sum(keyed_byts) + loads.null_key_bytes,
        "bytes_definition": BYTES_DEFINITION,
        "keyed_records": keyed,
        "null_key_records": loads.null_key_records,
        "null_key_bytes": loads.null_key_bytes,
        "empty_key_records": loads.empty_key_records,
        "invalid_key_records": loads.invalid_key_records,
        "null_key_distribution": {
            "configured": t.null_key_strategy,
            **nulls.to_dict(),
            "included_in_totals": nulls.included,
            "seed": t.effective_null_key_seed,
            "batch_size": t.batch_size,
        },
        "distinct_keys": sum(loads.partition_keys),
        "partitions": partitions,
        "brokers": brokers,
        "racks": racks,
        "groups": groups,
        "skew": {
            "partition_records": skew_stats(recs),
            "partition_bytes": skew_stats(byts),
            "broker_leader_records": skew_stats([x["leader_records"] for x in brokers]),
            "broker_replica_records": skew_stats([x["replica_records"] for x in brokers]),
            "consumer_records": {g["group"]: g["skew"] for g in groups},
        },
        "hot_keys": hot,
    }
