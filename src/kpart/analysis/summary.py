"""The report's summary: per-partition loads joined with replica placement and group assignment.

Pure Python, no Spark, and no Kafka logic of its own: the Spark job (:mod:`kpart.spark.pipeline`)
hands over :class:`~kpart.analysis.loads.Loads` (records and bytes per partition, null keys, hot keys);
the topology resolved once (:func:`kpart.analysis.layout.resolve_topology`) gives the replicas
(``AdminUtils.assignReplicasToBrokers`` with the topology's seed), the group assignments
(Kafka's assignors) and the null-key rule (:func:`kpart.analysis.loads.place_loads`);
:func:`build_summary` lays them out per partition, broker (as leader and as replica), rack and
consumer, with skew figures (:func:`kpart._skew.skew_stats`), one builder per section.

Units: ``records`` are counts; ``bytes`` = serialized key length + value length, where the
value is the record as a JSON object (Spark's ``to_json`` over all columns, UTF-8), i.e. what
a producer with a JSON value serializer would send, without Kafka's record overhead.

Records with a null key have no key to hash: the topic's ``null_key_strategy`` places them
(:class:`kpart.producer.null_keys.NullKeyRule`, a seeded model of the producer over
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

from collections.abc import Sequence
from typing import Any, NotRequired, TypedDict, cast

from kpart._skew import Skew, skew_stats
from kpart.analysis.layout import Layout, ResolvedTopology, resolve_topology
from kpart.analysis.loads import HotKey, Loads, PlacedLoads, place_loads
from kpart.analysis.share_stream_loads import share_streams_sections
from kpart.topology import Topology

__all__ = [
    "BYTES_DEFINITION",
    "HotKey",
    "Loads",
    "analysed_section",
    "build_summary",
]

BYTES_DEFINITION = (
    "serialized key length + UTF-8 length of the record as a JSON object "
    "(Spark to_json over all columns); Kafka's per-record overhead is not included"
)


class PartitionRow(TypedDict):
    """One ``partitions[]`` row: totals, keyed and null-key parts, placement and owners."""

    partition: int
    records: int
    bytes: int
    keyed_records: int
    keyed_bytes: int
    null_key_records: int
    null_key_bytes: int
    keys: int
    leader: int | None  # None: no brokers (the producer view)
    replicas: list[int]
    consumers: dict[str, str | None]


class BrokerRow(TypedDict):
    """One ``brokers[]`` row: the partitions a broker leads and holds, and their loads."""

    broker: int
    rack: str | None
    leader_partitions: list[int]
    replica_partitions: list[int]
    leader_records: int
    leader_bytes: int
    replica_records: int
    replica_bytes: int


class RackRow(TypedDict):
    """One ``racks[]`` row: a rack's brokers and their summed loads."""

    rack: str
    brokers: list[int]
    leader_records: int
    leader_bytes: int
    replica_records: int
    replica_bytes: int


class MemberRow(TypedDict):
    """One member of a ``groups[]`` row: its partitions and their loads."""

    member: str
    rack: str | None
    instance_id: str | None
    partitions: list[int]
    records: int
    bytes: int


class GroupRow(TypedDict):
    """One ``groups[]`` row: a consumer group, its members and their skew."""

    group: str
    strategy: str
    members: list[MemberRow]
    skew: Skew


class HotKeyRow(TypedDict):
    """One ``hot_keys[]`` row (``share``: of the records with a key)."""

    rank: int
    key: str | int
    records: int
    bytes: int
    partition: int
    share: float


class SkewSection(TypedDict):
    """The ``skew`` section: records and bytes per partition, per broker (none without
    brokers: the producer view), per consumer."""

    partition_records: Skew
    partition_bytes: Skew
    broker_leader_records: NotRequired[Skew]
    broker_replica_records: NotRequired[Skew]
    consumer_records: dict[str, Skew]


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


def partition_rows(layout: Layout, placed: PlacedLoads) -> list[PartitionRow]:
    """The ``partitions`` section: one row per partition, in partition order."""
    loads, nulls = placed.loads, placed.null_keys
    owners = {g: layout.owners(g) for g, _ in layout.assignments}
    return [
        {
            "partition": p,
            "records": placed.records[p],
            "bytes": placed.bytes[p],
            "keyed_records": loads.partition_records[p],
            "keyed_bytes": loads.partition_bytes[p],
            "null_key_records": nulls.records[p],
            "null_key_bytes": nulls.bytes[p],
            "keys": loads.partition_keys[p],
            "leader": replicas[0] if replicas else None,  # None: no brokers (producer view)
            "replicas": list(replicas),
            "consumers": {g: owner.get(p) for g, owner in owners.items()},
        }
        for p, replicas in enumerate(layout.replicas)
    ]


def broker_rows(topology: Topology, layout: Layout, placed: PlacedLoads) -> list[BrokerRow]:
    """The ``brokers`` section: one row per broker, in the topology's order."""
    rows: list[BrokerRow] = []
    for b in topology.brokers:
        led = [p for p, r in enumerate(layout.replicas) if r[0] == b.id]
        held = [p for p, r in enumerate(layout.replicas) if b.id in r]
        rows.append({
            "broker": b.id,
            "rack": b.rack,
            "leader_partitions": led,
            "replica_partitions": held,
            "leader_records": sum(placed.records[p] for p in led),
            "leader_bytes": sum(placed.bytes[p] for p in led),
            "replica_records": sum(placed.records[p] for p in held),
            "replica_bytes": sum(placed.bytes[p] for p in held),
        })
    return rows


def rack_rows(topology: Topology, brokers: Sequence[BrokerRow]) -> list[RackRow]:
    """The ``racks`` section: the broker rows summed per rack (none without racks)."""
    rows: list[RackRow] = []
    for rack in topology.racks:
        mine = [x for x in brokers if x["rack"] == rack]
        rows.append({
            "rack": rack,
            "brokers": [x["broker"] for x in mine],
            "leader_records": sum(x["leader_records"] for x in mine),
            "leader_bytes": sum(x["leader_bytes"] for x in mine),
            "replica_records": sum(x["replica_records"] for x in mine),
            "replica_bytes": sum(x["replica_bytes"] for x in mine),
        })
    return rows


def group_rows(topology: Topology, layout: Layout, placed: PlacedLoads) -> list[GroupRow]:
    """The ``groups`` section: each group's members (in join order) with their partitions."""
    rows: list[GroupRow] = []
    for (name, ga), cfg in zip(layout.assignments, topology.groups, strict=True):
        members: list[MemberRow] = []
        for m in cfg.members:
            parts = sorted(p for _, p in ga.partitions_of(m.id))
            members.append({
                "member": m.id,
                "rack": m.rack,
                "instance_id": m.instance_id,
                "partitions": parts,
                "records": sum(placed.records[p] for p in parts),
                "bytes": sum(placed.bytes[p] for p in parts),
            })
        rows.append({"group": name, "strategy": cfg.strategy, "members": members,
                     "skew": skew_stats(x["records"] for x in members)})
    return rows


def hot_key_rows(hot_keys: Sequence[HotKey], keyed: int) -> list[HotKeyRow]:
    """The ``hot_keys`` section, most frequent first (``keyed``: records with a key)."""
    return [
        {"rank": i + 1, "key": k.key, "records": k.records, "bytes": k.bytes,
         "partition": k.partition, "share": round(k.records / keyed, 6) if keyed else 0.0}
        for i, k in enumerate(hot_keys)
    ]


def skew_section(placed: PlacedLoads, brokers: Sequence[BrokerRow],
                 groups: Sequence[GroupRow]) -> SkewSection:
    """The ``skew`` section (:func:`kpart._skew.skew_stats` of each load; no broker figures
    without brokers)."""
    section: dict[str, Any] = {
        "partition_records": skew_stats(placed.records),
        "partition_bytes": skew_stats(placed.bytes),
    }
    if brokers:
        section["broker_leader_records"] = skew_stats(x["leader_records"] for x in brokers)
        section["broker_replica_records"] = skew_stats(x["replica_records"] for x in brokers)
    section["consumer_records"] = {g["group"]: g["skew"] for g in groups}
    return cast(SkewSection, section)


def null_key_section(resolved: ResolvedTopology, placed: PlacedLoads) -> dict[str, Any]:
    """The ``null_key_distribution`` section: the rule configured and applied, where the
    null-key records went, whether the totals include them, the seed and ``batch.size``."""
    rule = resolved.null_keys
    return {
        "configured": rule.configured,
        **placed.null_keys.to_dict(),
        "included_in_totals": placed.null_keys.included,
        "seed": rule.seed,
        "batch_size": rule.batch_size,
    }


def build_summary(
    topology: Topology | ResolvedTopology,
    loads: Loads,
    *,
    source: dict[str, Any] | None = None,
    analysed_at: str | None = None,
) -> dict[str, Any]:
    """The ``summary.json`` document (see the module docstring for units and null keys).

    ``topology``: resolved once by the caller (:func:`kpart.analysis.layout.resolve_topology`), or
    resolved here; ``len(loads.partition_records)`` must equal the topic's partition count
    (``ConfigError`` otherwise). ``source`` (e.g. ``{"path", "format"}``) is recorded as
    ``input``; ``analysed`` says what was analysed (:func:`analysed_section`, with
    ``analysed_at``, the UTC time of the run, ISO 8601). The result is deterministic when the
    topology has a seed (or the null-key strategy draws nothing): equal inputs give equal JSON.
    """
    resolved = resolve_topology(topology)
    placed = place_loads(resolved, loads)
    t, layout = resolved.topic, resolved.layout
    keyed = sum(loads.partition_records)
    total = keyed + loads.null_key_records
    brokers = broker_rows(resolved.topology, layout, placed)
    groups = group_rows(resolved.topology, layout, placed)
    analysed = analysed_section(resolved.topology, source or {}, total, analysed_at)
    analysed["partitioner"] = resolved.key_partitioner
    return {
        "format": "kpart-report",  # first: marks a directory kpart may replace (report.output)
        "format_version": 1,
        "topic": t.name,
        "num_partitions": t.partitions,
        "replication_factor": t.replication_factor,
        "key": t.key,
        "key_serializer": resolved.serializer,
        "partitioner": resolved.key_partitioner,
        "null_key_strategy": t.null_key_strategy,
        "placement_seed": t.placement_seed,
        "input": source or {},
        "analysed": analysed,
        "records": total,
        "bytes": sum(loads.partition_bytes) + loads.null_key_bytes,
        "bytes_definition": BYTES_DEFINITION,
        "keyed_records": keyed,
        "null_key_records": loads.null_key_records,
        "null_key_bytes": loads.null_key_bytes,
        "empty_key_records": loads.empty_key_records,
        "invalid_key_records": loads.invalid_key_records,
        "null_key_distribution": null_key_section(resolved, placed),
        "distinct_keys": sum(loads.partition_keys),
        "partitions": partition_rows(layout, placed),
        "brokers": brokers,
        "racks": rack_rows(resolved.topology, brokers),
        "groups": groups,
        "skew": skew_section(placed, brokers, groups),
        "hot_keys": hot_key_rows(loads.hot_keys, keyed),
        # [[share_groups]] / [[streams_groups]]: present only when the topology has them
        **share_streams_sections(resolved.topology, {t.name: placed.records},
                                 {t.name: placed.bytes}),
    }
