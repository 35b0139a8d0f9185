"""Words and numbers shared by the pages (:mod:`kpart.report.html`, the cluster and plan pages)
and the terminal (:mod:`kpart.report.terminal`, ``kpart plan``, ``kpart outage``,
``kpart cluster``), so all say the same thing the same way: amounts of bytes in binary (IEC)
units, rates with significant digits, percentages as the CLI prints them, column headers in
words, what "as replica" means, and the "what was analysed" rows.

The unit convention, everywhere: bytes and bytes/s in IEC binary units (``KiB`` = 1,024 bytes,
``MiB``, ``GiB``, ``TiB``; Cruise Control's capacity "MB" is also 2^20 bytes), three
significant digits (:func:`human`), or one unit per table column named in its header
(:func:`unit_for`, :func:`in_unit`); counts whole with thousands separators, and
small rates (below 100) with three significant digits, never rounded to ``0``
(:func:`number`); JSON fields carry their unit in their name (``_bytes``, ``_bytes_per_s``,
``_records_per_s``, ``_fraction``).

>>> percent(0.759), percent(0.0012), header("leader_bytes")
('75.9%', '0.1%', 'bytes as leader')
>>> human(113 * 2**30, "B"), human(110_100_480, "B"), number(0.0261), number(12_345.6)
('113 GiB', '105 MiB', '0.0261', '12,346')
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["AS_REPLICA", "HEADERS", "IEC", "LOADS", "analysed_rows", "header", "human",
           "in_unit", "is_fraction", "key_text", "load_label", "null_keys_note", "number", "percent",
           "unit_for"]

#: Binary (IEC) prefixes and their factors: ``("Ki", 1024)`` ... ``("Ei", 1024**6)``.
IEC = (("", 1), ("Ki", 2**10), ("Mi", 2**20), ("Gi", 2**30), ("Ti", 2**40), ("Pi", 2**50),
       ("Ei", 2**60))


def _significant(x: float, digits: int = 3) -> str:
    """``x`` with up to ``digits`` significant digits, in plain notation (no exponent, no
    trailing zeros), thousands separated; ``0`` only for zero."""
    if x == 0 or not math.isfinite(x):
        return "0" if x == 0 else str(x)
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(x))))
    text = f"{x:,.{decimals}f}"
    if float(text.replace(",", "")) == 0:  # pragma: no cover - log10 rounding at the edge
        text = f"{x:.{decimals + 1}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def number(value: float | None, missing: str = "—") -> str:
    """A count or a count per second: whole, thousands separated, from 100 up (or when whole);
    below, three significant digits: a small rate is never shown as ``0`` (``missing`` for
    ``None``).

    >>> number(1234), number(1234.4), number(12.34), number(0.0261), number(0), number(None)
    ('1,234', '1,234', '12.3', '0.0261', '0', '—')
    """
    if value is None:
        return missing
    x = float(value)
    if abs(x) >= 100 or x.is_integer():
        return f"{x:,.0f}"
    return _significant(x)


def human(value: float | None, unit: str, missing: str = "—") -> str:
    """``value`` in ``unit`` with a binary (IEC) prefix and three significant digits (``unit``
    ``"B"`` or ``"B/s"``; ``""`` for a count, as :func:`number`); ``missing`` for ``None``.
    Below 1 KiB the amount is shown as :func:`number` shows it (``999 B``, ``0.5 B/s``).

    >>> human(1.2 * 2**40, "B"), human(52 * 2**20, "B/s"), human(999, "B"), human(1234, "")
    ('1.2 TiB', '52 MiB/s', '999 B', '1,234')
    >>> human(1023.9 * 2**10, "B"), human(0.25, "B/s"), human(None, "B")
    ('1,024 KiB', '0.25 B/s', '—')
    """
    if value is None:
        return missing
    if not unit:
        return number(value)
    scaled, i = float(value), 0
    while abs(scaled) >= 1024 and i < len(IEC) - 1:
        scaled, i = scaled / 1024, i + 1
    if i == 0:
        return f"{number(scaled)} {unit}"
    return f"{_significant(scaled)} {IEC[i][0]}{unit}"


def unit_for(values: Sequence[float | None]) -> tuple[str, float]:
    """The IEC prefix and factor a column of ``values`` is shown in: the largest whose factor
    the largest value reaches (``("", 1)`` for an empty column).

    >>> unit_for([3 * 2**30, 5 * 2**20, None]), unit_for([])
    (('Gi', 1073741824), ('', 1))
    """
    top = max((abs(v) for v in values if v is not None), default=0.0)
    prefix, scale = IEC[0]
    for p, s in IEC:
        if top >= s:
            prefix, scale = p, s
    return prefix, scale


def in_unit(value: float | None, scale: float, missing: str = "-") -> str:
    """``value`` divided by ``scale`` (an :data:`IEC` factor, as :func:`unit_for` picks), for
    a column whose header names the unit: whole from 100 up, one decimal below; a small
    non-zero value (below 0.05) keeps its significant digits; in bytes (``scale`` 1) as
    :func:`number`.

    >>> in_unit(44 * 2**30, 2**30), in_unit(5 * 2**20, 2**20), in_unit(0.02 * 2**20, 2**20)
    ('44.0', '5.0', '0.02')
    """
    if value is None:
        return missing
    x = value / scale
    if scale == 1:
        return number(x)
    if abs(x) >= 100:
        return f"{x:,.0f}"
    if x and abs(x) < 0.05:
        return _significant(x)
    return f"{x:,.1f}"


_HEX_BYTES = re.compile(r"(?:[0-9a-f]{2})*")


def key_text(key: Any, serializer: str | None) -> str:
    """A hot key as the user would write it: an integer key (``long``, ``int``, ``short``)
    without thousands separators; raw bytes (``bytes`` from a binary column, or ``hex``), which
    the summary holds as lower-case hex, marked ``(hex)``.

    >>> key_text(1234567, "long"), key_text("0a1b", "bytes"), key_text("N725MQ", "string")
    ('1234567', '0a1b (hex)', 'N725MQ')
    """
    if isinstance(key, int) and not isinstance(key, bool):
        return str(key)
    text = "—" if key is None else str(key)
    if isinstance(key, str) and (serializer == "hex"
                                 or (serializer == "bytes" and _HEX_BYTES.fullmatch(key))):
        return f"{text} (hex)"
    return text


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
    section as :func:`kpart.analysis.loads.count_whatif_like_report` counts it, or as measured)."""
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
