"""The terminal summary of a report, printed with rich (tables + bars; plain on a non-TTY).

``print_summary(summary, console)`` renders a ``summary.json`` document: what was analysed
(input, records, key, serializer, partitioner, null-key strategy, partitions, replication
factor, brokers and racks, kpart version, time), the headline figures, records and bytes per
partition with leader/replicas and a bar against the hottest partition, the broker and rack
loads ("as replica" explained), every group's member → partitions table (racks, instance ids),
and the hot keys; a document of several topics (``"kind": "cluster"``) its topics, brokers
and partition counts (:func:`print_cluster_summary`). Percentages are printed as the rest of
the CLI prints them (``75.9%``).
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from kpart.errors import ConfigError
from kpart.report._format import (
    AS_REPLICA,
    analysed_rows,
    human,
    in_unit,
    key_text,
    percent,
    unit_for,
)
from kpart.report._share_streams import terminal_tables
from kpart.report._terminal_cluster import print_cluster_summary

__all__ = ["print_cluster_summary", "print_summary"]

_BAR = 20


def _bar(value: int, top: int) -> str:
    width = round(_BAR * value / top) if top else 0
    return "█" * width + "·" * (_BAR - width)


def _n(x: int) -> str:
    return f"{x:,}"


def _null_keys(s: dict[str, Any]) -> str:
    dist = s.get("null_key_distribution") or {}
    if not dist or not dist.get("included_in_totals"):
        return "not hashed, set aside"
    return f"placed by the {dist.get('strategy', s.get('null_key_strategy'))} null-key strategy"


def _headline(s: dict[str, Any]) -> str:
    sk = s["skew"]["partition_records"]
    return (
        f"[bold]{s['topic']}[/]: {_n(s['records'])} records ({human(s['bytes'], 'B')}), "
        f"{s['num_partitions']} partitions"
        f"{'' if s['replication_factor'] is None else ' × RF ' + str(s['replication_factor'])}, "
        f"key [bold]{s['key']}[/] ({s['key_serializer']}, {s['partitioner']})\n"
        f"{_n(s['distinct_keys'])} distinct keys; {_n(s['null_key_records'])} records without "
        f"key ({_null_keys(s)}); partition skew max/mean {sk['max_over_mean']:.3f}, "
        f"CV {sk['cv']:.3f}"
    )


def _analysed(s: dict[str, Any]) -> Table | None:
    rows = analysed_rows(s)
    if not rows:
        return None
    t = Table(title="Analysed", title_justify="left", show_header=False)
    t.add_column("what", style="dim")
    t.add_column("value")
    for label, value in rows:
        t.add_row(label, escape(value))
    return t


def _partitions(s: dict[str, Any]) -> Table:
    t = Table(title="Partitions", title_justify="left")
    prefix, scale = unit_for([p["bytes"] for p in s["partitions"]])  # the column's IEC unit
    for col in ("partition", "records", f"{prefix}B", "keys", "leader", "replicas"):
        t.add_column(col, justify="right" if col != "replicas" else "left")
    t.add_column("load")
    top = max((p["records"] for p in s["partitions"]), default=0)
    for p in s["partitions"]:
        t.add_row(str(p["partition"]), _n(p["records"]), in_unit(p["bytes"], scale),
                  _n(p["keys"]),
                  "-" if p["leader"] is None else str(p["leader"]),
                  ",".join(map(str, p["replicas"])) or "-", _bar(p["records"], top))
    return t


def _brokers(s: dict[str, Any]) -> Table:
    t = Table(title="Brokers", title_justify="left", caption=AS_REPLICA, caption_justify="left")
    for col in ("broker", "rack", "leads", "records as leader", "replicas",
                "records as replica", "leader load"):
        t.add_column(col, justify="left" if col in ("rack", "leader load") else "right")
    top = max((b["leader_records"] for b in s["brokers"]), default=0)
    for b in s["brokers"]:
        t.add_row(str(b["broker"]), escape(b["rack"] or "-"), str(len(b["leader_partitions"])),
                  _n(b["leader_records"]), str(len(b["replica_partitions"])),
                  _n(b["replica_records"]), _bar(b["leader_records"], top))
    for r in s["racks"]:
        t.add_row("[dim]rack[/]", f"[bold]{escape(r['rack'])}[/]", "", _n(r["leader_records"]), "",
                  _n(r["replica_records"]), "")
    return t


def _groups(s: dict[str, Any]) -> list[Table]:
    tables = []
    for g in s["groups"]:
        sk = g["skew"]
        t = Table(title=f"Group {g['group']} ({g['strategy']}): max/mean "
                        f"{sk['max_over_mean']:.3f}, CV {sk['cv']:.3f}", title_justify="left")
        for col in ("member", "rack", "instance id", "partitions", "records", "load"):
            t.add_column(col, justify="right" if col == "records" else "left")
        top = max((m["records"] for m in g["members"]), default=0)
        for m in g["members"]:
            t.add_row(escape(m["member"]), escape(m["rack"] or "-"),
                      escape(m.get("instance_id") or "-"),
                      ",".join(map(str, m["partitions"])) or "-",
                      _n(m["records"]), _bar(m["records"], top))
        tables.append(t)
    return tables


def _hot_keys(s: dict[str, Any]) -> Table:
    t = Table(title="Hot keys", title_justify="left")
    for col in ("#", "key", "records", "share of keyed records", "partition"):
        t.add_column(col, justify="left" if col == "key" else "right")
    for h in s["hot_keys"]:
        t.add_row(str(h["rank"]), escape(key_text(h["key"], s.get("key_serializer"))),
                  _n(h["records"]), percent(h["share"]),
                  str(h["partition"]))
    return t


def print_summary(summary: dict[str, Any], console: Console | None = None) -> None:
    """Print ``summary`` (a ``summary.json`` document) on ``console`` (stdout by default); a
    document of several topics (``"kind": "cluster"``) as :func:`print_cluster_summary`."""
    kind = summary.get("kind")
    if kind == "cluster":
        print_cluster_summary(summary, console)
        return
    console = console or Console()
    if kind is not None:
        raise ConfigError(f"summary.kind: expected 'cluster' or no kind, got {kind!r:.60}")
    analysed = _analysed(summary)
    if analysed is not None:
        console.print(analysed)
    console.print(_headline(summary))
    invalid = summary.get("invalid_key_records") or 0
    if invalid and summary["records"]:
        console.print(f"{_n(invalid)} invalid-key records (keys the serializer cannot "
                      "represent): counted apart, in no partition", soft_wrap=True)
    if not summary["records"]:  # nothing to tabulate
        if invalid:
            console.print(f"all {_n(invalid)} records have keys the serializer cannot "
                          "represent", soft_wrap=True)
        else:
            where = (summary.get("input") or {}).get("path", "the input")
            console.print(f"no records in {escape(str(where))}", soft_wrap=True)
        return
    console.print(_partitions(summary))
    if summary["brokers"]:  # none: the producer view (nothing placed)
        console.print(_brokers(summary))
    for t in _groups(summary):
        console.print(t)
    for item in terminal_tables(summary):  # [[share_groups]], [[streams_groups]]
        console.print(item, soft_wrap=isinstance(item, str))
    if summary["hot_keys"]:
        console.print(_hot_keys(summary))
