"""The report page: ``summary.json`` → one self-contained ``report.html`` (Plotly, JS inlined).

:func:`render_report` is a pure function of the summary dict written by ``kpart report``; the
page needs no network at view time (plotly.js is embedded once, ~4.5 MB). Sections, each an
``<section id=...>`` with its charts (``div.kpart-chart``, one bar per datum):

=================  ===========================================================================
``overview``       topic, partitions, records, bytes, null-key records, headline skew figures
``partitions``     records and bytes per partition: bars, dashed mean line, hot partitions red
``brokers``        leader and replica load per broker, brokers grouped by rack
``consumers``      records per member, one chart per entry of ``groups`` (group × strategy)
``share-groups``   only with ``share_groups``; ``streams-groups``: only with ``streams_groups``
                   (:mod:`kpart.report._share_streams`)
``hot-keys``       the ``hot_keys`` table
``skew``           every figure of ``skew``, one row per load
``whatif``         only when ``summary["whatif"]`` is present (see below)
``compat``         only when ``summary["compat"]`` is present (see below)
``broker-load``    only with ``summary["cluster"]``: load per broker (as on ``plan.html``)
``failures``       only with ``summary["cluster"]``: broker and rack failures, worst first
=================  ===========================================================================

Required keys: ``topic``, ``num_partitions``, ``records``, ``partitions`` (``[{"partition",
"records", "bytes"?, "leader"?, "replicas"?}]``). Optional: ``bytes``, ``null_key_records``,
``brokers`` (``[{"broker", "rack", "leader_records", "replica_records"}]``), ``racks``
(list of dicts, shown as a table), ``groups``
(``[{"group", "strategy", "members": [{"member", "partitions", "records"}], "skew"?}]``,
``partitions`` a list or a count), ``skew`` (dict of figures: one table row per innermost dict;
``max_over_mean`` of each top-level entry is shown in the overview), ``hot_keys`` (list of
dicts, columns as given).
A partition is *hot* when listed in ``skew["hot_partitions"]``, else when its records exceed
:data:`HOT_FACTOR` × the mean.

Optional sections, keys defined here:

- ``"whatif"``: ``{"scenarios": [{"num_partitions": int, "max_over_mean": float, "cv": float?,
  "moved_fraction": float?}]}`` — what a partition-count change would do (the current count
  may be one of the scenarios). One chart of max/mean per count, one of moved keys if given.
- ``"compat"``: ``{"reference": "java:default", "clients": [{"partitioner": str,
  "same_fraction": float, "max_over_mean": float?, "records_per_partition": [int]?}],
  "pairs": [...]?}`` — how other clients' partitioners place the same keys: the share of records
  landing on the same partition as the reference, and each client's load per partition.
  (:meth:`kpart.producer.compat.CompatReport.to_json` and
  :meth:`kpart.producer.whatif.WhatIfReport.to_json` write these two sections.)
- ``"version_change"``: ``kpart report --compare-version``'s section, ``<section
  id="version-change">`` after ``compat`` (its format and rendering:
  :mod:`kpart.report._version_change`).
- ``"cluster"``: ``{"brokers": [...], "failures": [...] | null, "capacity_threshold"?}`` — the
  cluster's brokers and failures as in ``plan.html``'s summary (``docs/plan-html.md``; each
  broker's ``"before"`` optional: without it one bar per broker, its load now); the very
  sections of :mod:`kpart.report.plan_html`.

A summary with ``"kind": "cluster"`` (several topics sharing the brokers, load over time, the
partition count each topic needs: ``docs/report-html.md``) is rendered by
:mod:`kpart.report._cluster_report_html` instead; any other ``kind`` is refused.

Raises :class:`kpart.errors.ConfigError` naming the missing or malformed field.

>>> page = render_report({"topic": "t", "num_partitions": 2, "records": 3,
...     "partitions": [{"partition": 0, "records": 1}, {"partition": 1, "records": 2}]})
>>> page.startswith("<!DOCTYPE html>") and 'id="chart-partition-records"' in page
True
"""

from __future__ import annotations

import html
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kpart._files import write_text
from kpart.errors import ConfigError, Param
from kpart.report._cluster_html import CSS, cluster_sections
from kpart.report._format import human
from kpart.report._html_parts import (
    PAGE_CSS,
    chart_div,
    doc_ratio,
    escape_html,
    html_section,
    html_table,
    number_field,
    require_field,
    stat_rows,
)
from kpart.report._share_streams import html_sections as share_streams_html
from kpart.report._version_change import version_change_html

__all__ = ["HOT_FACTOR", "render_report", "write_report_html"]

#: A partition whose records exceed ``HOT_FACTOR`` × the mean is marked hot.
HOT_FACTOR = 1.2

def _hot_flags(summary: Mapping[str, Any], ids: list[int], records: list[float]) -> list[bool]:
    skew = summary.get("skew")
    listed = skew.get("hot_partitions") if isinstance(skew, Mapping) else None
    if isinstance(listed, list) and all(isinstance(p, int) for p in listed):
        return [p in set(listed) for p in ids]
    mean = sum(records) / len(records) if records else 0.0
    return [mean > 0 and r > HOT_FACTOR * mean for r in records]


def _overview(summary: Mapping[str, Any], hot: list[int]) -> str:
    cards = [
        ("topic", summary["topic"]),
        ("partitions", summary["num_partitions"]),
        ("records", summary["records"]),
    ]
    for key, label in (("bytes", "bytes"), ("null_key_records", "null-key records"),
                       ("empty_key_records", "empty-key records")):
        if summary.get(key) is not None:
            value = summary[key]
            cards.append((label, human(number_field(value, key), "B") if key == "bytes" else value))
    invalid = summary.get("invalid_key_records")
    if isinstance(invalid, int) and invalid > 0:  # counted apart: in no partition
        cards.append(("invalid-key records", invalid))
    skew = summary.get("skew")
    if isinstance(skew, Mapping):
        for name, figures in skew.items():
            ratio = doc_ratio(figures) if isinstance(figures, Mapping) else None
            if ratio is not None:
                cards.append((f"{name.replace('_', ' ')} max/mean", ratio))
    cards.append(("hot partitions", ", ".join(map(str, hot)) or "none"))
    items = "".join(
        f'<div class="card"><div class="label">{html.escape(k)}</div>'
        f'<div class="value">{escape_html(v)}</div></div>'
        for k, v in cards
    )
    note = ""
    if isinstance(invalid, int) and invalid > 0:
        note = (f'<p class="note" id="invalid-keys">all {escape_html(invalid)} records have keys the '
                "serializer cannot represent</p>" if not summary["records"] else
                f'<p class="note" id="invalid-keys">{escape_html(invalid)} invalid-key records (keys '
                "the serializer cannot represent) are counted apart, in no partition</p>")
    return html_section("overview", "Overview", f'<div class="cards">{items}</div>' + note
                    + _analysed(summary))


def _analysed(summary: Mapping[str, Any]) -> str:
    from kpart.report._format import analysed_rows

    rows = analysed_rows(summary)
    if not rows:
        return ""
    body = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>"
                   for k, v in rows)
    return (f'<h3>What was analysed</h3><table id="table-analysed" class="analysed">'
            f"<tbody>{body}</tbody></table>")


def _partitions(summary: Mapping[str, Any]) -> tuple[str, list[int]]:
    from kpart.report import _charts

    rows = require_field(summary, "partitions")
    if not isinstance(rows, list) or not rows:
        raise ConfigError("summary: field 'partitions' must be a non-empty list")
    ids = [int(number_field(require_field(r, "partition", "partitions[]"), "partitions[].partition")) for r in rows]
    recs = [number_field(require_field(r, "records", "partitions[]"), "partitions[].records") for r in rows]
    hot = _hot_flags(summary, ids, recs)
    hot_ids = [p for p, h in zip(ids, hot, strict=True) if h]
    body = chart_div(
        _charts.partition_bars(ids, recs, hot, title="Records per partition", unit="records"),
        "chart-partition-records",
    )
    if all(r.get("bytes") is not None for r in rows):
        size = [number_field(r["bytes"], "partitions[].bytes") for r in rows]
        body += chart_div(
            _charts.partition_bars(ids, size, hot, title="Bytes per partition", unit="bytes"),
            "chart-partition-bytes",
        )
    if all("replicas" in r for r in rows):
        body += "<details><summary>Replica assignment</summary>" + html_table(
            [
                {k: r.get(k) for k in ("partition", "leader", "replicas", "records", "bytes")}
                for r in rows
            ],
            "table-partitions",
        ) + "</details>"
    nulls = summary.get("null_key_distribution")
    if isinstance(nulls, Mapping) and nulls.get("included_in_totals"):
        strategy = html.escape(str(nulls.get("configured", "client")))
        placed = f"Records without a key are included, placed by the {strategy!s} null-key model."
    else:
        placed = "Records without a key are not hashed by Kafka and are counted apart."
    note = (
        f"Hot partitions (red) carry more than {HOT_FACTOR}× the mean; the dashed line is the "
        f"mean over all partitions. {placed}"
    )
    return html_section("partitions", "Partitions", body, note), hot_ids


def _brokers(summary: Mapping[str, Any]) -> str:
    from kpart.report import _charts

    rows = summary.get("brokers") or []
    if not rows:
        return ""
    fig = _charts.broker_bars(
        [require_field(r, "broker", "brokers[]") for r in rows],
        [r.get("rack") for r in rows],
        [number_field(require_field(r, "leader_records", "brokers[]"), "brokers[].leader_records") for r in rows],
        [number_field(require_field(r, "replica_records", "brokers[]"), "brokers[].replica_records") for r in rows],
        unit="records",
    )
    body = chart_div(fig, "chart-brokers") + html_table(rows, "table-brokers")
    if summary.get("racks"):
        body += html_table(summary["racks"], "table-racks")
    from kpart.report._format import AS_REPLICA

    note = html.escape(AS_REPLICA[0].upper() + AS_REPLICA[1:] + ".")
    return html_section("brokers", "Brokers and racks", body, note)


def _members_text(parts: Any) -> str:
    if isinstance(parts, list | tuple):
        return ", ".join(map(str, parts)) or "none"
    return str(parts)


def _skew_suffix(skew: Any) -> str:
    ratio = doc_ratio(skew) if isinstance(skew, Mapping) else None
    return f" (max/mean {ratio:.3g})" if ratio is not None else ""


def _groups(summary: Mapping[str, Any]) -> str:
    from kpart.report import _charts

    groups = summary.get("groups") or []
    if not groups:
        return ""
    body = ""
    for i, g in enumerate(groups):
        name = require_field(g, "group", "groups[]")
        strategy = g.get("strategy", "?")
        members = require_field(g, "members", f"groups[{name}]")
        fig = _charts.member_bars(
            [str(require_field(m, "member", f"groups[{name}].members[]")) for m in members],
            [number_field(require_field(m, "records", f"groups[{name}].members[]"), "records") for m in members],
            [_members_text(m.get("partitions")) for m in members],
            title=f"Group {name} — {strategy}" + _skew_suffix(g.get("skew")),
        )
        body += chart_div(fig, f"chart-group-{i}") + _member_table(members, i)
    return html_section("consumers", "Consumer groups", body,
                    "Records consumed per member, and the partitions each member is assigned.")


def _member_table(members: list[Mapping[str, Any]], i: int) -> str:
    """Member → partitions (with the member's rack and instance id) of one group."""
    total = sum(m.get("records") or 0 for m in members)
    rows = [{"member": m.get("member"), "rack": m.get("rack"),
             "instance_id": m.get("instance_id"),
             "partitions": _members_text(m.get("partitions")),
             "records": m.get("records"),
             **({"bytes": m["bytes"]} if "bytes" in m else {}),
             "records_share": (m.get("records") or 0) / total if total else 0.0}
            for m in members]
    return html_table(rows, f"table-group-{i}")


def _hot_keys(summary: Mapping[str, Any]) -> str:
    from kpart.report._format import key_text

    rows = summary.get("hot_keys") or []
    if not rows:
        return ""
    serializer = summary.get("key_serializer")
    rows = [{**r, "key": key_text(r.get("key"), serializer)} if isinstance(r, Mapping) else r
            for r in rows]
    return html_section("hot-keys", "Hot keys", html_table(rows, "table-hot-keys"))


def _skew(summary: Mapping[str, Any]) -> str:
    skew = summary.get("skew")
    if not isinstance(skew, Mapping) or not skew:
        return ""
    note = (
        "max / mean: the heaviest over the mean (1 = even); CV: coefficient of variation "
        "(standard deviation over mean)."
    )
    from kpart.report._format import load_label

    rows = [{**r, "load": load_label(str(r["load"]))} for r in stat_rows(skew)]
    return html_section("skew", "Skew", html_table(rows, "table-skew"), note)


def _whatif(summary: Mapping[str, Any]) -> str:
    from kpart.report import _charts

    doc = summary.get("whatif")
    if not doc:
        return ""
    scenarios = require_field(doc, "scenarios", "whatif") if isinstance(doc, Mapping) else doc
    meta = doc if isinstance(doc, Mapping) else {}
    now = meta.get("num_partitions", summary["num_partitions"])
    counts = [require_field(s, "num_partitions", "whatif.scenarios[]") for s in scenarios]
    best = meta.get("best")
    labels = [
        f"{m} (now, best)" if m == now and m == best else f"{m} (now)" if m == now
        else f"{m} (best)" if m == best else str(m)
        for m in counts
    ]
    current = [m == now for m in counts]
    ratio = []
    for s in scenarios:
        r = doc_ratio(s) if isinstance(s, Mapping) else None
        if r is None:
            raise ConfigError(f"whatif.scenarios[]: missing field 'max_over_mean' in {s!r}")
        ratio.append(r)
    body = chart_div(
        _charts.scenario_bars(
            labels, ratio, title="Skew (max/mean of records) by partition count",
            xaxis="partitions", yaxis="max/mean", highlight=current,
        ),
        "chart-whatif",
    )
    if all(s.get("moved_fraction") is not None for s in scenarios):
        moved = [number_field(s["moved_fraction"], "moved_fraction") for s in scenarios]
        body += chart_div(
            _charts.scenario_bars(
                labels, moved, title=f"Share of records whose partition changes from {now}",
                xaxis="partitions", yaxis="records moved", highlight=current, percent=True,
                color=_charts.COST_COLOR,
            ),
            "chart-whatif-moved",
        )
    body += html_table([{**s, "num_partitions": label} for s, label in
                    zip(scenarios, labels, strict=True)], "table-whatif")
    from kpart.report._format import null_keys_note

    note = html.escape(
        "Kafka never moves existing records: a key whose partition changes has records on two "
        "partitions from the change on, so its ordering breaks across the change. "
        + null_keys_note(meta)
    )
    return html_section("whatif", "What if the partition count changed", body, note)


def _compat(summary: Mapping[str, Any]) -> str:
    from kpart.report import _charts

    doc = summary.get("compat")
    if not doc:
        return ""
    clients = require_field(doc, "clients", "compat")
    reference = doc.get("reference", "java:default")
    labels = [str(require_field(c, "partitioner", "compat.clients[]")) for c in clients]
    same = [number_field(require_field(c, "same_fraction", "compat.clients[]"), "same_fraction") for c in clients]
    fig = _charts.scenario_bars(
        labels, same, title=f"Share of records on the same partition as {reference}",
        xaxis="client partitioner", yaxis="same partition", highlight=[x == reference for x in labels],
        percent=True,
    )
    body = chart_div(fig, "chart-compat")
    loads = [c.get("records_per_partition") for c in clients]
    if all(isinstance(x, list) and x for x in loads) and len({len(x) for x in loads}) == 1:
        fig = _charts.grouped_partition_bars(
            list(range(len(loads[0]))), dict(zip(labels, loads, strict=True)),
            title="Records per partition under each client's partitioner",
        )
        body += chart_div(fig, "chart-compat-loads")
    body += html_table(list(clients), "table-compat", skip=("records_per_partition",))
    if doc.get("pairs"):
        body += "<details><summary>Every pair of clients</summary>" + html_table(
            doc["pairs"], "table-compat-pairs") + "</details>"
    note = (
        "Producers in different languages use different hashes by default: a topic written by "
        "two of them splits each key over two partitions."
    )
    return html_section("compat", "Cross-client partitioning", body, note)


def _no_records(summary: Mapping[str, Any]) -> str:
    where = (summary.get("input") or {}).get("path", "the input")
    return html_section("partitions", "Partitions",
                    f'<p class="notice" id="no-records">No records in {escape_html(where)}: there is '
                    "nothing to partition, so nothing is charted.</p>")


def render_report(summary: Mapping[str, Any]) -> str:
    """Render ``summary`` (the dict of ``summary.json``) as one self-contained HTML page.

    A document with ``"kind": "cluster"`` (several topics, ``kpart report`` of a ``[[topics]]``
    topology) gets the cluster page instead (docs/report-html.md).
    Returns the page as a string (UTF-8 when written). Pure: no I/O, no network, no clock.
    Raises :class:`~kpart.errors.ConfigError` when a required field is missing or malformed.
    """
    from plotly.offline import get_plotlyjs

    kind = summary.get("kind") if isinstance(summary, Mapping) else None
    if kind == "cluster":  # several topics (docs/report-html.md)
        from kpart.report._cluster_report_html import render_cluster_report

        return render_cluster_report(summary)
    if kind is not None:
        raise ConfigError(f"summary.kind: expected 'cluster' or no kind, got {kind!r:.60}")
    for key in ("topic", "num_partitions", "records"):
        require_field(summary, key)
    partitions, hot = _partitions(summary)
    sections = [
        _overview(summary, hot),
        partitions,
        _brokers(summary),
        _groups(summary),
        *share_streams_html(summary),
        _hot_keys(summary),
        _skew(summary),
        _whatif(summary),
        _compat(summary),
        version_change_html(summary),
        *cluster_sections(summary.get("cluster")),
    ]
    sections = [s for s in sections if s]
    if not summary["records"]:  # an empty input: a notice instead of empty charts
        sections = [sections[0], _no_records(summary)]
    nav = "".join(
        f'<a href="#{sid}">{label}</a>'
        for sid, label in (
            ("overview", "Overview"), ("partitions", "Partitions"), ("brokers", "Brokers"),
            ("consumers", "Consumers"), ("share-groups", "Share groups"),
            ("streams-groups", "Streams groups"), ("hot-keys", "Hot keys"), ("skew", "Skew"),
            ("whatif", "What-if"), ("compat", "Cross-client"),
            ("version-change", "Kafka version"), ("broker-load", "Broker load"),
            ("failures", "Failures"),
        )
        if any(s.startswith(f'<section id="{sid}"') for s in sections)
    )
    topic = html.escape(str(summary["topic"]))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>kpart report: {topic}</title>"
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><style>{PAGE_CSS}'
        f"{CSS if summary.get('cluster') is not None else ''}</style>"
        f'<script type="text/javascript">{get_plotlyjs()}</script></head><body>'
        f"<header><h1>kpart report — topic {topic}</h1></header><nav>{nav}</nav>"
        f"<main>{''.join(sections)}</main></body></html>\n"
    )


def write_report_html(summary: Mapping[str, Any], path: str | os.PathLike[str], *,
                      option: str = Param("path")) -> Path:
    """Write :func:`render_report` (``summary``) to ``path`` atomically; return the path.

    The page is rendered first, written to a temporary file in the same directory and renamed
    into place, so a failure leaves no partial ``report.html``. ``ConfigError`` naming
    ``option`` (the name the caller gives ``path``) and the path when it cannot be written.
    """
    page = render_report(summary)
    target = Path(path)
    write_text(target, page, option)
    return target
