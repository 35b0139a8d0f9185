"""The terminal summary of a report of several topics (``"kind": "cluster"``; private to
:mod:`kpart.report.terminal`): a headline, one table of topics, the brokers with their loads
(Cruise Control's network in/out, the peak bytes-in against the network-in capacity), one line
per group and one line per topic saying the partition count it needs. The document is read by
:func:`kpart.report._cluster_doc.read_cluster_summary`, as the page reads it (one
:class:`~kpart.errors.ConfigError` naming a malformed field).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from kpart.report._cluster_doc import (
    BrokerDoc,
    ClusterDoc,
    CountDoc,
    TopicDoc,
    advice_words,
    read_cluster_summary,
)
from kpart.report._format import AS_REPLICA, human, in_unit, number, percent, unit_for
from kpart.report._share_streams import terminal_tables

__all__ = ["BROKER_ROWS", "print_cluster_summary"]

#: Brokers listed in full up to this many; beyond, the busiest :data:`BROKER_ROWS`.
BROKER_ROWS = 20
_ALL_BROKERS = 30
#: The console width when stdout is not a terminal.
_PIPED_WIDTH = 160


def duration_words(seconds: float | None) -> str:
    from kpart.report.plan_html import duration_words as words

    return "-" if seconds is None else words(seconds)


def _n(x: float | None) -> str:
    return "-" if x is None else f"{x:,.0f}"


def _per_s(x: float | None) -> str:
    """A count per second (:func:`kpart.report._format.number`: never rounded to ``0``)."""
    return number(x, "-")


def _rate(x: float | None) -> str:
    return human(x, "B/s", "-")


def _headline(doc: ClusterDoc) -> str:
    records = doc.records if doc.records is not None else sum(t.records for t in doc.topics)
    size = doc.bytes if doc.bytes is not None else sum(t.bytes for t in doc.topics)
    racks = len({b.rack for b in doc.brokers if b.rack is not None})
    window = (f"load over time in windows of {duration_words(doc.window_s)}"
              if doc.window_s is not None else "no timestamp column: no load over time")
    n = len(doc.topics)
    where = (f"on {len(doc.brokers):,} brokers {_in_racks(racks)}" if doc.brokers
             else "(producer view: no brokers, nothing placed)")
    return (f"[bold]{n} topic{'s' * (n != 1)}[/]: {_n(records)} records ({human(size, 'B')}), "
            f"{sum(t.num_partitions for t in doc.topics):,} partitions {where}; {window}")


def _producer_lines(doc: ClusterDoc) -> list[str]:
    """The producer view's keys (no brokers): per topic its null-key records and its hottest
    key (the page and hot_keys.parquet list the rest)."""
    from kpart.report._format import key_text

    out = []
    for t in doc.topics:
        out.append(f"{escape(t.topic)}: {_n(t.null_key_records)} null-key records "
                   f"({escape(t.null_key_strategy or '?')})")
        hot = next((h for h in doc.hot_keys if h.get("topic") == t.topic), None)
        if hot is not None:
            share = hot.get("share")
            out.append(f"{escape(t.topic)}: hottest key "
                       f"{escape(key_text(hot.get('key'), t.key_serializer))}, "
                       f"{_n(hot.get('records'))} records"
                       + ("" if share is None else f" ({percent(share)} of keyed records)")
                       + f", partition {hot.get('partition')}")
    return out


def _in_racks(racks: int) -> str:
    """``in 3 racks``, ``in 1 rack``, ``with no racks`` (never "0 racks")."""
    return "with no racks" if not racks else f"in {racks} rack{'s' * (racks != 1)}"


def _peak(t: TopicDoc) -> float | None:
    peaks = [p.peak_in for p in t.partitions if p.peak_in is not None]
    return max(peaks) if peaks else None


def _topics(doc: ClusterDoc) -> Table:
    t = Table(title="Topics", title_justify="left")
    prefix, scale = unit_for([x.bytes for x in doc.topics])  # the column's IEC unit
    for col in ("topic", "records", f"{prefix}B", "partitions", "RF", "key", "timestamp", "span",
                "max/mean", "peak partition in"):
        t.add_column(col, justify="left" if col in ("topic", "key", "timestamp") else "right")
    for x in doc.topics:
        ratio = x.records_max_over_mean
        t.add_row(escape(x.topic), _n(x.records), in_unit(x.bytes, scale), str(x.num_partitions),
                  str(x.replication_factor or "-"), escape(x.key or "-"),
                  escape(x.timestamp or "-"), duration_words(x.span_s),
                  "-" if ratio is None else f"{ratio:.3f}", _rate(_peak(x)))
    return t


def _busiest(doc: ClusterDoc) -> tuple[list[BrokerDoc], str | None]:
    brokers = list(doc.brokers)
    if len(brokers) <= _ALL_BROKERS:
        return brokers, None

    def load(b: BrokerDoc) -> float:
        for v in (b.peak_in, b.nw_in, b.leader_bytes, b.replica_bytes):
            if v is not None:
                return v
        return 0.0

    top = sorted(brokers, key=load, reverse=True)[:BROKER_ROWS]
    return top, (f"the {BROKER_ROWS} busiest of {len(brokers):,} brokers (every broker: "
                 "summary.json, report.html)")


def _brokers(doc: ClusterDoc) -> Table:
    shown, note = _busiest(doc)
    caption = "; ".join(x for x in (note, AS_REPLICA) if x)
    t = Table(title="Brokers", title_justify="left", caption=caption, caption_justify="left")
    prefix, scale = unit_for([v for b in shown for v in (b.leader_bytes, b.replica_bytes)])
    for col in ("broker", "rack", "leads", "replicas", f"{prefix}B as leader",
                f"{prefix}B as replica",
                "network in", "network out", "peak in", "peak net in", "capacity in",
                "peak/capacity"):
        t.add_column(col, justify="left" if col == "rack" else "right")
    for b in shown:
        share = b.capacity_used  # the peak network in (produce + replication) when known
        used = "-" if share is None else percent(share)
        if share is not None and share > 1:
            used = f"[bold red]{used}[/]"
        t.add_row(str(b.broker), escape(b.rack or "-"), _n(b.leaders), _n(b.replicas),
                  in_unit(b.leader_bytes, scale), in_unit(b.replica_bytes, scale), _rate(b.nw_in),
                  _rate(b.nw_out),
                  _rate(b.peak_in), _rate(b.peak_nw_in), _rate(b.capacity_nw_in), used)
    return t


def _hot_key(hot: Mapping[str, Any] | None) -> str:
    if hot is None:
        return ""
    return f": the key {escape(repr(hot.get('key')))} alone exceeds a limit; fix the key, not " \
           "the count"


def uncounted_reason(t: TopicDoc) -> str:
    """Why a topic has no partition count: no timestamp column, or no record to time (an
    empty dataset)."""
    if t.timestamp is None:
        return "no timestamp column"
    return "no records" if not t.records else "no timed record"


def _advised_line(name: str, c: CountDoc) -> str:
    assert c.recommended is not None
    peak = (f"busiest partition's peak {_rate(c.peak_bytes_per_s)}, "
            f"{_per_s(c.peak_records_per_s)} records/s")
    why = advice_words(c)
    if why is None:  # a document written before the advice named its limit
        if c.recommended == c.current:
            return f"{name}: {c.current} partitions are enough ({peak})"
        head, why, peak = f"{c.current} → {c.recommended}", "", f"{peak} at {c.recommended}"
    else:
        head = (str(c.current) if c.recommended == c.current
                else f"{c.current} → {c.recommended}")
        why = f" ({escape(why)})"
        peak = f"{peak} at {c.recommended}"
    fact = (f"; the load alone fits in {c.smallest_fitting} "
            f"partition{'s' * (c.smallest_fitting != 1)}"
            if c.smallest_fitting is not None and c.smallest_fitting != c.recommended else "")
    moved = (f"; {percent(c.moved_keys_share)} of keys and {percent(c.moved_records_share)} of "
             "records change partition"
             if c.recommended != c.current and c.moved_keys_share is not None
             and c.moved_records_share is not None else "")
    if not why:
        return f"{name}: {head} partitions ({peak}){moved}"
    return f"{name}: {head} partitions{why}{fact}; {peak}{moved}"


def partition_count_lines(doc: ClusterDoc) -> list[str]:
    """One line per topic: the partition count advised (never below the current count nor the
    largest group's members) and what set it, the load's own smallest count when it differs,
    or why none is given."""
    lines = []
    for t in doc.topics:
        c, name = t.partition_count, f"[bold]{escape(t.topic)}[/]"
        if c is None:
            lines.append(f"{name}: {uncounted_reason(t)}, partition count not computed")
        elif c.recommended is None:
            upto = f" up to {c.max_partitions:,}" if c.max_partitions is not None else ""
            lines.append(f"{name}: no partition count{upto} keeps the busiest partition under "
                         f"the limits{_hot_key(c.hot_key)}"
                         + (f" ({escape(c.reason)})" if c.reason and c.hot_key is None else ""))
        else:
            lines.append(_advised_line(name, c))
    return lines


def _groups(doc: ClusterDoc) -> list[str]:
    out = []
    for g in doc.groups:
        ratio = f", records max/mean {g.max_over_mean:.3f}" if g.max_over_mean is not None else ""
        out.append(f"group [bold]{escape(g.group)}[/] ({escape(g.strategy or '?')}) reads "
                   f"{escape(', '.join(g.topics) or 'no topic')}: {len(g.members)} "
                   f"member{'s' * (len(g.members) != 1)}{ratio}")
    return out


def print_cluster_summary(summary: dict[str, Any], console: Console | None = None) -> None:
    """Print the multi-topic ``summary`` on ``console`` (stdout by default); ``ConfigError``
    naming a malformed field, before anything is printed."""
    doc = read_cluster_summary(summary)
    if console is None:  # piped or logged: wide enough for the tables, not the 80 default
        console = Console()
        if not console.is_terminal:
            console = Console(width=max(console.width, _PIPED_WIDTH))
    console.print(_headline(doc), soft_wrap=True)
    console.print(_topics(doc))
    if doc.brokers:
        console.print(_brokers(doc))
    else:  # the producer view: its keys instead of brokers
        for line in _producer_lines(doc):
            console.print(line, soft_wrap=True)
    for line in _groups(doc):
        console.print(line, soft_wrap=True)
    for item in terminal_tables(summary):  # [[share_groups]], [[streams_groups]]
        console.print(item, soft_wrap=isinstance(item, str))
    console.print("[bold]Partition count[/]")
    for line in partition_count_lines(doc):
        console.print(line, soft_wrap=True)
