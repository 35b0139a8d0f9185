"""Words and numbers shared by the page (:mod:`kpart.report.html`) and the terminal
(:mod:`kpart.report.terminal`), so both say the same thing the same way: percentages as the
CLI prints them, column headers in words, what "as replica" means, and the "what was analysed"
rows.

>>> percent(0.759), percent(0.0012), header("leader_bytes")
('75.9%', '0.1%', 'bytes as leader')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["AS_REPLICA", "HEADERS", "LOADS", "analysed_rows", "header", "is_fraction",
           "load_label", "null_keys_note", "percent"]


def percent(fraction: float) -> str:
    """A fraction (0..1) as ``kpart`` prints it everywhere: one decimal, ``%`` (``75.9%``)."""
    return f"{100 * fraction:.1f}%"


def is_fraction(column: str) -> bool:
    """True for the summary fields that hold a fraction (shown as a percentage)."""
    return column == "share" or column.endswith("_fraction") or column.endswith("_share")


#: "As replica", explained (a tooltip on the page, a caption in the terminal).
AS_REPLICA = (
    "as replica: what a broker stores, as leader or as follower — every partition it holds a "
    "copy of (the replication factor × the topic in total); as leader: only the partitions it "
    "leads, which producers write to and consumers read from"
)

#: Summary field → column header in words.
HEADERS = {
    "partition": "partition",
    "records": "records",
    "bytes": "bytes",
    "keys": "distinct keys",
    "leader": "leader (broker)",
    "replicas": "replicas (brokers, leader first)",
    "broker": "broker",
    "rack": "rack",
    "brokers": "brokers",
    "leader_partitions": "partitions led",
    "replica_partitions": "partitions held (as replica)",
    "leader_records": "records as leader",
    "leader_bytes": "bytes as leader",
    "replica_records": "records as replica",
    "replica_bytes": "bytes as replica",
    "member": "member",
    "instance_id": "instance id (group.instance.id)",
    "partitions": "partitions",
    "rank": "#",
    "key": "key",
    "share": "share of records with a key",
    "load": "load",
    "min": "min",
    "max": "max",
    "mean": "mean",
    "max_over_mean": "max / mean",
    "cv": "CV (std / mean)",
    "num_partitions": "partitions",
    "moved_fraction": "records moved",
    "moved_key_fraction": "keys moved",
    "moved_bytes_fraction": "bytes moved",
    "bytes_max_over_mean": "bytes max / mean",
    "partitioner": "partitioner",
    "same_fraction": "records on the same partition",
    "same_key_fraction": "keys on the same partition",
    "a": "partitioner A",
    "b": "partitioner B",
    "key_fraction": "keys on different partitions",
    "record_fraction": "records on different partitions",
    "examples": "example keys",
    "records_share": "share of the group's records",
}

#: ``skew`` entries of the summary → what they measure, in words.
LOADS = {
    "partition_records": "records per partition",
    "partition_bytes": "bytes per partition",
    "broker_leader_records": "records per broker, as leader",
    "broker_replica_records": "records per broker, as replica",
    "consumer_records": "records per consumer",
}


def load_label(path: str) -> str:
    """A ``skew`` row label (``"consumer_records · billing"``) in words."""
    return " · ".join(LOADS.get(part, part) for part in path.split(" · "))


def header(column: str) -> str:
    """The header of a summary field: :data:`HEADERS`, else the name with spaces."""
    return HEADERS.get(column, column.replace("_", " "))


def _brokers(a: Mapping[str, Any]) -> str:
    ids = a.get("brokers") or []
    if not ids:  # a topology without brokers: the producer view
        return "none (producer view: nothing placed)"
    racks = a.get("broker_racks") or [None] * len(ids)
    if not any(racks):
        return f"{len(ids)}: " + ", ".join(map(str, ids))
    return f"{len(ids)}: " + ", ".join(f"{b} ({r})" for b, r in zip(ids, racks, strict=False))


def analysed_rows(summary: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(label, value)`` rows saying what the report analysed (its ``"analysed"`` section;
    ``[]`` without one)."""
    a = summary.get("analysed")
    if not isinstance(a, Mapping):
        return []
    source = str(a.get("input") or "—")
    if a.get("dataset") and a.get("dataset") != a.get("input"):
        source = f"{a['dataset']} ({source})"
    if a.get("format"):
        source += f", {a['format']}"
    rows = [
        ("input", source),
        ("records", f"{a.get('records', 0):,}"),
        ("topic", str(a.get("topic"))),
        ("key column", str(a.get("key"))),
        ("key serializer", str(a.get("key_serializer"))),
        ("partitioner", str(a.get("partitioner"))),
        ("null-key strategy", str(a.get("null_key_strategy"))),
        ("partitions", str(a.get("partitions"))),
        ("replication factor", str(a.get("replication_factor") or "—")),
        ("brokers", _brokers(a)),
        ("racks", ", ".join(a.get("racks") or []) or "none"),
        ("consumer groups", ", ".join(a.get("groups") or []) or "none"),
        ("kpart version", str(a.get("kpart_version"))),
        ("time (UTC)", str(a.get("time") or "—")),
    ]
    return rows


def null_keys_note(section: Mapping[str, Any]) -> str:
    """One sentence saying how the what-if ``section`` counts records without a key (the
    section as :func:`kpart._loads.count_whatif_like_report` counts it, or as measured)."""
    if "null_key_records" not in section:
        return ("Records whose key does not decide their partition (no key, or a key the "
                "client places at random) are left out of these figures.")
    if not section["null_key_records"]:
        return ("Skew figures count every record as the report does (there are no records "
                "without a key); moved shares are of records with a key.")
    if not section.get("null_keys_included"):
        return ("Records without a key are left out of these figures, as of the report's "
                "totals (null-key strategy 'separate').")
    return (f"Skew figures count every record as the report does: records without a key "
            f"({section['null_key_records']:,}) are placed by the "
            f"{section['null_key_strategy']} null-key model for each partition count, so the "
            f"current count's figure is the report's own; moved shares are of records with a "
            f"key.")
