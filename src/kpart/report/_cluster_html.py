"""The cluster's sections, shared by ``plan.html`` and ``report.html`` (one implementation):
per broker before/after load (disk, network in/out, leaders) and the ranked broker- and
rack-failure table (private to :mod:`kpart.report`).

The numbers are those of Cruise Control's load model (``com.linkedin.kafka.cruisecontrol.model.
Load``: every replica holds the partition's size; the leader takes bytes-in and serves
bytes-out and replication) and of ``kpart outage --all`` (Kafka's leader election with unclean
election off), computed by :mod:`kpart.cluster`; this module only reads, checks and draws them.
Broker rows are those of ``docs/plan-html.md``: ``{"broker", "rack"?, "added"?, "removed"?,
"capacity"?: {"disk_bytes", "nw_in_bytes_per_s", "nw_out_bytes_per_s"}, "before"?, "after":
{"replicas", "leaders", "disk_bytes", "nw_in_bytes_per_s", "nw_out_bytes_per_s"}}``, a load
``null`` when unknown. Errors are :class:`~kpart.errors.ConfigError` naming the field
(``brokers[3].after.disk_bytes: expected a number or null, got 'x'``).
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kpart.errors import ConfigError
from kpart.report._html_parts import html_section, html_table, require_field

__all__ = ["CSS", "BrokerLoads", "METRICS", "brokers_section", "cluster_sections",
           "failures_section", "opt_num",
           "parse_brokers", "req_list"]

#: ``(load key, chart id suffix, title, unit)`` of each per-broker chart, in page order; the
#: capacity of a load has the same key in ``capacity`` (leaders have none).
METRICS = (
    ("disk_bytes", "disk", "Disk (bytes on disk)", "B"),
    ("nw_in_bytes_per_s", "nw-in", "Network in (bytes/s: produce + replication)", "B/s"),
    ("nw_out_bytes_per_s", "nw-out", "Network out (bytes/s: consume + replication)", "B/s"),
    ("leaders", "leaders", "Leaders (partitions led)", ""),
)
#: The styles these sections add to the report's (notices, ✓ and ✗).
CSS = (".ok{color:#2e7d32;font-weight:600}.bad{color:#c62828;font-weight:600}"
       ".notice{background:#fff8e1;border:1px solid #f0d58c;padding:6px 10px}")
_LOADS = ("replicas", "leaders", "disk_bytes", "nw_in_bytes_per_s", "nw_out_bytes_per_s")
#: Why a load can be unknown for every broker.
_UNKNOWN = {"disk_bytes": "no partition sizes were given",
            "nw_in_bytes_per_s": "no per-partition rates were given",
            "nw_out_bytes_per_s": "no per-partition rates were given",
            "leaders": "no leaders were given"}


def opt_num(value: Any, where: str) -> float | None:
    """``value`` if a finite number, ``None`` if ``None``; else ``ConfigError`` naming ``where``."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ConfigError(f"{where}: expected a number or null, got {value!r}")
    return value


def req_list(doc: Mapping[str, Any], key: str, where: str) -> list[Any]:
    """``doc[key]``, which must be a list; ``ConfigError`` naming ``where.key`` otherwise."""
    value = require_field(doc, key, where)
    if not isinstance(value, list):
        raise ConfigError(f"{where}.{key}: expected a list, got {type(value).__name__}")
    return value


def _flag(row: Mapping[str, Any], key: str, where: str) -> bool:
    value = row.get(key, False)
    if not isinstance(value, bool):
        raise ConfigError(f"{where}.{key}: expected true or false, got {value!r}")
    return value


def _loads(row: Mapping[str, Any], key: str, where: str) -> dict[str, float | None]:
    doc = require_field(row, key, where)
    if not isinstance(doc, Mapping):
        raise ConfigError(f"{where}.{key}: expected an object, got {doc!r}")
    return {m: opt_num(require_field(doc, m, f"{where}.{key}"), f"{where}.{key}.{m}") for m in _LOADS}


@dataclass(frozen=True, slots=True)
class BrokerLoads:
    """The broker rows, checked, column by column (brokers in the given order)."""

    ids: tuple[int, ...]
    racks: tuple[str | None, ...]
    added: tuple[bool, ...]
    removed: tuple[bool, ...]
    capacity: dict[str, tuple[float | None, ...]]
    before: dict[str, tuple[float | None, ...]] | None
    after: dict[str, tuple[float | None, ...]]


def parse_brokers(rows: Any, where: str, *, before_required: bool) -> BrokerLoads:
    """Check the broker rows (see the module docstring); ``before`` is required with
    ``before_required``, else optional but given for every broker or for none."""
    if not isinstance(rows, list) or not rows:
        raise ConfigError(f"{where}: expected a non-empty list of brokers, got {rows!r:.60}")
    ids, racks, added, removed = [], [], [], []
    seen: dict[int, int] = {}
    cap: dict[str, list[float | None]] = {m: [] for m, *_ in METRICS[:3]}
    before: dict[str, list[float | None]] = {m: [] for m in _LOADS}
    after: dict[str, list[float | None]] = {m: [] for m in _LOADS}
    with_before = before_required or (isinstance(rows[0], Mapping) and "before" in rows[0])
    for i, row in enumerate(rows):
        at = f"{where}[{i}]"
        if not isinstance(row, Mapping):
            raise ConfigError(f"{at}: expected a broker object, got {row!r:.60}")
        broker = require_field(row, "broker", at)
        if isinstance(broker, bool) or not isinstance(broker, int):
            raise ConfigError(f"{at}.broker: expected a broker id, got {broker!r}")
        rack = row.get("rack")
        if rack is not None and not isinstance(rack, str):
            raise ConfigError(f"{at}.rack: expected a string or null, got {rack!r}")
        if broker in seen:
            raise ConfigError(f"{at}.broker: broker {broker} is also {where}[{seen[broker]}]")
        seen[broker] = i
        ids.append(broker)
        racks.append(rack)
        added.append(_flag(row, "added", at))
        removed.append(_flag(row, "removed", at))
        capacity = row.get("capacity") or {}
        if not isinstance(capacity, Mapping):
            raise ConfigError(f"{at}.capacity: expected an object or null, got {capacity!r}")
        for m, values in cap.items():
            values.append(opt_num(capacity.get(m), f"{at}.capacity.{m}"))
        if with_before != ("before" in row):
            raise ConfigError(f"{at}: missing field 'before'" if with_before else
                              f"{at}: field 'before' given, but not for {where}[0]")
        for doc, key in ((before, "before"), (after, "after")) if with_before else ((after,
                                                                                    "after"),):
            for m, v in _loads(row, key, at).items():
                doc[m].append(v)
    return BrokerLoads(
        tuple(ids), tuple(racks), tuple(added), tuple(removed),
        {m: tuple(v) for m, v in cap.items()},
        {m: tuple(v) for m, v in before.items()} if with_before else None,
        {m: tuple(v) for m, v in after.items()},
    )


def _status(b: BrokerLoads, i: int) -> str:
    return "added" if b.added[i] else "removed" if b.removed[i] else ""


def _hover(b: BrokerLoads, metric: str, unit: str) -> list[str]:
    from kpart.report._format import human

    out = []
    cap = b.capacity.get(metric)
    for i, broker in enumerate(b.ids):
        head = " · ".join(x for x in (f"broker {broker}", b.racks[i] and f"rack {b.racks[i]}",
                                      _status(b, i)) if x)
        lines = [f"<b>{html.escape(head)}</b>"]
        if b.before is not None:
            lines.append(f"before {human(b.before[metric][i], unit)}")
        now = b.after[metric][i]
        lines.append(f"{'after' if b.before is not None else 'now'} {human(now, unit)}")
        most = cap[i] if cap is not None else None
        if most is not None:
            share = f" ({now / most:.0%} used)" if now is not None and most else ""
            lines.append(f"capacity {human(most, unit)}{share}")
        out.append("<br>".join(lines))
    return out


def _charts(b: BrokerLoads, threshold: float | None) -> tuple[str, list[str]]:
    from kpart.report import _plan_charts

    body, unknown = "", []
    for metric, suffix, title, unit in METRICS:
        after = b.after[metric]
        before = b.before[metric] if b.before is not None else None
        if all(v is None for v in (*after, *(before or ()))):
            unknown.append(f"{title.split(' (')[0]}: not known ({_UNKNOWN[metric]}).")
            continue
        cap = b.capacity.get(metric)
        limit = ([None if c is None else c * threshold for c in cap]
                 if cap is not None and threshold is not None else None)
        series = {"before": before, "after": after} if before is not None else {"now": after}
        fig = _plan_charts.before_after_bars(
            b.ids, series, _hover(b, metric, unit), title=title, unit=unit,
            added=b.added, removed=b.removed,
            lines={"capacity": cap, "capacity threshold": limit})
        body += _plan_charts.chart_html(fig, f"chart-broker-{suffix}")
    return body, unknown


def _arrow(b: BrokerLoads, metric: str, i: int, unit: str) -> str:
    from kpart.report._format import human

    now = human(b.after[metric][i], unit)
    return now if b.before is None else f"{human(b.before[metric][i], unit)} → {now}"


def _table_rows(b: BrokerLoads) -> list[dict[str, Any]]:
    from kpart.report._format import human

    rows = []
    for i, broker in enumerate(b.ids):
        disk, cap = b.after["disk_bytes"][i], b.capacity["disk_bytes"][i]
        used = f"{disk / cap:.0%}" if disk is not None and cap else "—"
        rows.append({
            "broker": broker, "rack": b.racks[i], "status": _status(b, i),
            **{name: _arrow(b, m, i, u) for name, m, u in (
                ("replicas", "replicas", ""), ("leaders", "leaders", ""),
                ("disk", "disk_bytes", "B"), ("network in", "nw_in_bytes_per_s", "B/s"),
                ("network out", "nw_out_bytes_per_s", "B/s"))},
            "disk capacity": human(cap, "B"),
            "disk used": used,
        })
    return rows


def brokers_section(rows: Any, where: str, *, before_required: bool,
                    capacity_threshold: float | None = None) -> str:
    """The ``broker-load`` section: one chart per load of :data:`METRICS` (``chart-broker-disk``,
    ``-nw-in``, ``-nw-out``, ``-leaders``; a load unknown for every broker is a note instead),
    then the ``table-broker-load`` table (one row per broker). ``capacity_threshold`` (e.g.
    Cruise Control's 0.8): a dashed line at that share of each capacity."""
    b = parse_brokers(rows, where, before_required=before_required)
    threshold = opt_num(capacity_threshold, "capacity_threshold")
    body, unknown = _charts(b, threshold)
    n_added, n_removed = sum(b.added), sum(b.removed)
    body += (f"<details><summary>Every broker ({len(b.ids):,})</summary>"
             + html_table(_table_rows(b), "table-broker-load") + "</details>")
    what = ("Light bars: before the plan; dark bars: after it. " if b.before is not None
            else "The load each broker carries now. ")
    marks = []
    if n_added:
        marks.append(f"{n_added} added broker{'s' * (n_added != 1)} on a green band")
    if n_removed:
        marks.append(f"{n_removed} removed broker{'s' * (n_removed != 1)} on a red band")
    lines = ("The solid line is each broker's capacity"
             + (f", the dashed one {threshold:.0%} of it (the capacity threshold)"
                if threshold is not None else "") + ". ")
    note = html.escape(what + (("; ".join(marks).capitalize() + ". ") if marks else "")
                       + (lines if any(c is not None for v in b.capacity.values() for c in v)
                          else "") + " ".join(unknown))
    return html_section("broker-load", "Load per broker", body, note.strip())


def _failure_row(rank: int, f: Any, where: str) -> dict[str, Any]:
    from kpart.report._format import human

    at = f"{where}[{rank - 1}]"
    down = req_list(f, "down", at)
    if not down or not all(isinstance(x, int) and not isinstance(x, bool) for x in down):
        raise ConfigError(f"{at}.down: expected a non-empty list of broker ids, got {down!r}")
    rack = f.get("rack")
    if rack is not None and not isinstance(rack, str):
        raise ConfigError(f"{at}.rack: expected a string or null, got {rack!r}")
    num = {k: opt_num(require_field(f, k, at), f"{at}.{k}") for k in (
        "offline_partitions", "under_min_isr", "max_leaders", "max_bytes_in_per_s",
        "mean_bytes_in_per_s")}
    top, mean = num["max_bytes_in_per_s"], num["mean_bytes_in_per_s"]
    return {
        "rank": rank,
        "down": f"rack {rack} ({len(down)} brokers)" if rack is not None
        else ", ".join(map(str, down)),
        "offline partitions": num["offline_partitions"],
        "under min.insync.replicas": num["under_min_isr"],
        "max leaders per broker": num["max_leaders"],
        "max leader bytes in": human(top, "B/s"),
        "mean leader bytes in": human(mean, "B/s"),
        "leader bytes in max / mean": f"{top / mean:.2f}" if top is not None and mean else "—",
    }


def failures_section(failures: Any, where: str, *, missing: str) -> str:
    """The ``failures`` section: ``table-failures``, one row per failure in the given (ranked,
    worst first) order; ``failures`` ``None``: a note saying ``missing`` (how to compute it)."""
    if failures is None:
        return html_section("failures", "Broker and rack failures",
                        f'<p class="notice" id="failures-missing">Not computed: '
                        f"{html.escape(missing)}</p>")
    if not isinstance(failures, list):
        raise ConfigError(f"{where}: expected a list or null, got {failures!r:.60}")
    rows = [_failure_row(i, f, where) for i, f in enumerate(failures, 1)]
    body = html_table(rows, "table-failures") if rows else (
        '<p class="notice" id="failures-missing">No failure to rank.</p>')
    offline = sum(1 for r in rows if r["offline partitions"])
    note = ("Broker and rack failures, worst first (the highest leader bytes-in of a surviving "
            "broker, then the highest leader count), with Kafka's leader election, unclean "
            "election off: offline "
            "partitions have no live replica; under min.insync.replicas, producers with "
            "acks=all are refused.")
    if offline:
        note += f" {offline} of these failures take partitions offline."
    return html_section("failures", "Broker and rack failures", body, html.escape(note))



def cluster_sections(doc: Any) -> list[str]:
    """``report.html``'s cluster sections: ``[]`` for ``None``, else ``summary["cluster"]``
    (``{"brokers", "failures"?, "capacity_threshold"?}``, brokers' ``before`` optional) as
    ``broker-load`` and ``failures``."""
    if doc is None:
        return []
    if not isinstance(doc, Mapping):
        raise ConfigError(f"summary: field 'cluster' must be an object, got {doc!r:.60}")
    return [brokers_section(require_field(doc, "brokers", "cluster"), "cluster.brokers",
                            before_required=False,
                            capacity_threshold=doc.get("capacity_threshold")),
            failures_section(doc.get("failures"), "cluster.failures",
                             missing="the report's cluster has no failure what-ifs.")]
