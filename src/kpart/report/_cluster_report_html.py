"""The report page of a whole cluster: the multi-topic ``summary.json`` (``"kind": "cluster"``,
read by :func:`kpart.report._cluster_doc.read_cluster_summary`) → one self-contained page
(private to :mod:`kpart.report.html`, whose :func:`~kpart.report.html.render_report`
dispatches here). Sections, each a ``<section id=...>`` (docs/report-html.md):

===================  =========================================================================
``overview``         topics, partitions, records, bytes, brokers, window; what was analysed
``topics``           ``table-topics``: one row per topic (records, bytes, partitions, RF, key,
                     timestamp, span, skew, busiest partition's peak bytes-in)
``partitions``       per topic ``chart-topic-{i}``: a bar per partition (records; buttons for
                     bytes and peak bytes-in/s with p99 and mean), ``table-topic-{i}``
``heatmap``          ``chart-heatmap``: bytes/s per (topic, partition) × time (without a
                     timestamp column, a note saying one enables it)
``brokers``          ``chart-brokers-bytes`` (as leader, as replica), ``chart-brokers-network``
                     (Cruise Control's network in/out), ``chart-brokers-peak`` (peak bytes-in
                     against the network-in capacity), ``table-brokers``
``racks``            ``table-racks``
``consumers``        per group ``chart-group-{i}`` (records per member) and ``table-group-{i}``
                     (member → topic-partitions)
``share-groups``,    only with ``share_groups`` / ``streams_groups`` (after ``consumers``):
``streams-groups``   :mod:`kpart.report._share_streams`
``hot-keys``         ``table-hot-keys`` (with their topic)
``partition-count``  ``chart-partition-count``, ``table-partition-count`` and, per topic whose
                     hot key alone exceeds a limit, the sentence that the fix is the key
``version-change``   only with ``summary["version_change"]`` (``--compare-version``):
                     ``table-version-change`` (:mod:`kpart.report._version_change`)
``broker-load``,     ``summary["cluster"]``'s sections, as on ``plan.html``
``failures``
===================  =========================================================================
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from kpart.report import _cluster_report_charts as charts
from kpart.report._cluster_count_html import partition_count_section
from kpart.report._cluster_doc import BrokerDoc, ClusterDoc, TopicDoc, read_cluster_summary
from kpart.report._cluster_html import CSS, cluster_sections
from kpart.report._format import human
from kpart.report._html_parts import PAGE_CSS, escape_html, format_value, html_section, html_table
from kpart.report._plan_charts import chart_html
from kpart.report._share_streams import html_sections as share_streams_html
from kpart.report._version_change import version_change_html

__all__ = ["render_cluster_report"]

_NAV = (("overview", "Overview"), ("topics", "Topics"), ("partitions", "Partitions"),
        ("heatmap", "Heat map"), ("brokers", "Brokers"), ("racks", "Racks"),
        ("consumers", "Consumers"), ("share-groups", "Share groups"),
        ("streams-groups", "Streams groups"), ("hot-keys", "Hot keys"),
        ("partition-count", "Partition count"), ("version-change", "Kafka version"),
        ("broker-load", "Broker load"),
        ("failures", "Failures"))


def duration_words(seconds: float | None) -> str:
    from kpart.report.plan_html import duration_words as words

    return "—" if seconds is None else words(seconds)


def _cards(cards: Sequence[tuple[str, str]]) -> str:
    items = "".join(f'<div class="card"><div class="label">{html.escape(k)}</div>'
                    f'<div class="value">{html.escape(v)}</div></div>' for k, v in cards)
    return f'<div class="cards">{items}</div>'


#: What a producer view (no brokers) leaves empty in ``analysed``: not shown on its page.
_PLACED = ("brokers", "broker_racks", "racks", "groups", "placer")


def _analysed(doc: ClusterDoc) -> str:
    if not doc.analysed:
        return ""
    rows = "".join(f"<tr><th>{html.escape(str(k).replace('_', ' '))}</th>"
                   f"<td>{escape_html(v if not isinstance(v, Mapping) else dict(v))}</td></tr>"
                   for k, v in doc.analysed.items()
                   if doc.brokers or k not in _PLACED or v)
    return (f'<h3>What was analysed</h3><table id="table-analysed" class="analysed">'
            f"<tbody>{rows}</tbody></table>")


def _overview(doc: ClusterDoc) -> str:
    parts = sum(t.num_partitions for t in doc.topics)
    racks = len({b.rack for b in doc.brokers if b.rack is not None})
    cards = [("topics", f"{len(doc.topics):,}"), ("partitions", f"{parts:,}"),
             ("records", format_value(doc.records if doc.records is not None
                              else sum(t.records for t in doc.topics))),
             ("bytes", human(doc.bytes if doc.bytes is not None
                             else sum(t.bytes for t in doc.topics), "B")),
             *([("brokers", f"{len(doc.brokers):,}"),
                ("racks", f"{racks:,}" if racks else "none")] if doc.brokers
               else [("brokers", "none (producer view)")]),
             *([("consumer groups", f"{len(doc.groups):,}")] if doc.brokers or doc.groups
               else []),
             ("window", duration_words(doc.window_s) if doc.window_s is not None
              else "no timestamp")]
    peaks = [(b.peak_in, b) for b in doc.brokers if b.peak_in is not None]
    if peaks:
        top, broker = max(peaks, key=lambda x: x[0])
        cards.append(("busiest broker, peak bytes in", f"{broker.broker}: {human(top, 'B/s')}"))
    return html_section("overview", "Overview", _cards(cards) + _analysed(doc))


#: The topic table fits the page: figures and durations on one line, the input path (its last
#: column) wrapped anywhere in a bounded width, the table scrolled sideways if still too wide.
TOPICS_CSS = (".wide{max-width:100%;overflow-x:auto}#table-topics td{white-space:nowrap}"
              "#table-topics td:last-child,#table-topics th:last-child{white-space:normal;"
              "overflow-wrap:anywhere;word-break:break-all;min-width:10em;max-width:24em;"
              "text-align:left}")


def _peak(t: TopicDoc) -> float | None:
    peaks = [p.peak_in for p in t.partitions if p.peak_in is not None]
    return max(peaks) if peaks else None


def _topics(doc: ClusterDoc) -> str:
    rows = [{"topic": t.topic, "records": t.records, "bytes": human(t.bytes, "B"),
             "partitions": t.num_partitions,
             **({"replication factor": t.replication_factor} if doc.brokers else {}),
             "key": t.key, "key serializer": t.key_serializer, "partitioner": t.partitioner,
             "timestamp": t.timestamp or "none", "span": duration_words(t.span_s),
             "distinct keys": t.distinct_keys, "null-key records": t.null_key_records,
             "records max / mean": t.records_max_over_mean,
             "busiest partition, peak bytes in": human(_peak(t), "B/s"),
             "input path": t.input_path}
            for t in doc.topics]
    note = ("One row per topic; max / mean: the partition with the most records over the mean "
            "(1 = even). The span is the time from the first to the last window.")
    return html_section("topics", "Topics",
                    f'<div class="wide">{html_table(rows, "table-topics")}</div>', html.escape(note))


def _partition_hover(t: TopicDoc) -> list[str]:
    out = []
    for p in t.partitions:
        lines = [f"<b>{html.escape(t.topic)} partition {p.partition}</b>",
                 f"{p.records:,.0f} records, {human(p.bytes, 'B')}"]
        if p.leader is not None:
            lines.append(f"leader {p.leader}, replicas {','.join(map(str, p.replicas))}")
        out.append("<br>".join(lines))
    return out


def _topic_chart(t: TopicDoc, i: int, placed: bool = True) -> str:
    """One topic's partition chart and table (``placed``: with leader and replicas columns;
    a producer view, without brokers, has none)."""
    parts = t.partitions
    series: dict[str, tuple[Sequence[float | None], str]] = {
        "records": ([p.records for p in parts], ""), "bytes": ([p.bytes for p in parts], "B")}
    markers: dict[str, Sequence[float | None]] = {}
    if t.timed:
        series["peak bytes in/s"] = ([p.peak_in for p in parts], "B/s")
        markers = {"p99 bytes in/s": [p.p99_in for p in parts],
                   "mean bytes in/s": [p.mean_in for p in parts]}
    fig = charts.topic_bars(t.topic, [p.partition for p in parts], series, markers,
                            _partition_hover(t))
    rows = [{"partition": p.partition, "records": p.records, "bytes": p.bytes, "keys": p.keys,
             **({"leader": p.leader, "replicas": list(p.replicas)} if placed else {}),
             "null-key records": p.null_key_records,
             **({"mean bytes in": human(p.mean_in, "B/s"),
                 "peak bytes in": human(p.peak_in, "B/s"),
                 "p99 bytes in": human(p.p99_in, "B/s"),
                 "peak records/s": p.peak_records} if t.timed else {}),
             **{f"consumer ({g})": m for g, m in p.consumers}}
            for p in parts]
    return (f'<h3 id="topic-{i}">{html.escape(t.topic)}</h3>'
            + chart_html(fig, f"chart-topic-{i}")
            + f"<details><summary>Every partition of {html.escape(t.topic)} "
              f"({len(parts):,})</summary>{html_table(rows, f'table-topic-{i}')}</details>")


def _partitions(doc: ClusterDoc) -> str:
    index = ('<p class="note">' + " · ".join(
        f'<a href="#topic-{i}">{html.escape(t.topic)}</a>' for i, t in enumerate(doc.topics))
        + "</p>") if len(doc.topics) > 1 else ""
    body = index + "".join(_topic_chart(t, i, bool(doc.brokers))
                           for i, t in enumerate(doc.topics))
    note = (f"Hot partitions (red) carry more than {charts.HOT_FACTOR}× their topic's mean; the "
            "dashed line is the mean. The buttons switch between records, bytes and, with a "
            "timestamp column, the peak window's bytes in per second (open marks: p99 and mean "
            "over every window of the span).")
    return html_section("partitions", "Partitions per topic", body, html.escape(note))


def _heatmap(doc: ClusterDoc) -> str:
    h = doc.heatmap
    if h is None:
        return html_section("heatmap", "Load over time",
                        '<p class="notice" id="heatmap-missing">No load over time: give a topic '
                        "a timestamp column (<code>timestamp = \"ts\"</code> in its "
                        "<code>[[topics]]</code> table) to see each partition's bytes per "
                        "second window by window.</p>")
    if not h.labels or not h.columns:
        return html_section("heatmap", "Load over time",
                        '<p class="notice" id="heatmap-missing">No window holds a record.</p>')
    fig = charts.heatmap(h.labels, h.columns, h.z,
                         title="Bytes in per second: partition × time")
    window = f"windows of {duration_words(h.window_s)}; " if h.window_s is not None else ""
    note = (f"One row per partition (topic order), one column per time step ({window}a column "
            "covering several windows shows the busiest of them).")
    if h.rows_omitted:
        note += (f" Only the {len(h.labels):,} partitions with the highest peak window are "
                 f"drawn; {h.rows_omitted:,} more are left out (windows.parquet holds every "
                 "partition's windows).")
    return html_section("heatmap", "Load over time", chart_html(fig, "chart-heatmap"),
                    html.escape(note))


def _broker_hover(b: BrokerDoc) -> str:
    head = f"broker {b.broker}" + (f" · rack {b.rack}" if b.rack else "")
    lines = [f"<b>{html.escape(head)}</b>",
             f"as leader: {format_value(b.leader_records)} records, {human(b.leader_bytes, 'B')}",
             f"as replica: {format_value(b.replica_records)} records, {human(b.replica_bytes, 'B')}",
             f"network in {human(b.nw_in, 'B/s')} (produce {human(b.produce_in, 'B/s')}, "
             f"replication {human(b.replication_in, 'B/s')})",
             f"network out {human(b.nw_out, 'B/s')} (consumers {human(b.consumer_out, 'B/s')}, "
             f"replication {human(b.replication_out, 'B/s')})"]
    if b.peak_in is not None:
        lines.append(f"bytes in: peak {human(b.peak_in, 'B/s')}, p99 {human(b.p99_in, 'B/s')}, "
                     f"mean {human(b.mean_in, 'B/s')}")
    if b.peak_nw_in is not None:
        lines.append(f"network in (produce + replication): peak {human(b.peak_nw_in, 'B/s')}")
    if b.capacity_nw_in is not None:
        used = (f" ({b.capacity_used:.0%} at the peak)" if b.capacity_used is not None
                else "")
        lines.append(f"network-in capacity {human(b.capacity_nw_in, 'B/s')}{used}")
    return "<br>".join(lines)


def _broker_rows(brokers: Sequence[BrokerDoc]) -> list[dict[str, Any]]:
    return [{"broker": b.broker, "rack": b.rack, "leaders": b.leaders, "replicas": b.replicas,
             "leader_records": b.leader_records, "leader_bytes": human(b.leader_bytes, "B"),
             "replica_records": b.replica_records, "replica_bytes": human(b.replica_bytes, "B"),
             "disk": human(b.disk_bytes, "B"), "network in": human(b.nw_in, "B/s"),
             "network out": human(b.nw_out, "B/s"), "peak bytes in": human(b.peak_in, "B/s"),
             "p99 bytes in": human(b.p99_in, "B/s"), "mean bytes in": human(b.mean_in, "B/s"),
             "peak network in": human(b.peak_nw_in, "B/s"),
             "network-in capacity": human(b.capacity_nw_in, "B/s"),
             "peak / capacity": "—" if b.capacity_used is None else f"{b.capacity_used:.0%}"}
            for b in brokers]


def _brokers(doc: ClusterDoc) -> str:
    bs = doc.brokers
    if not bs:
        return ""
    ids, hover = [b.broker for b in bs], [_broker_hover(b) for b in bs]
    body = chart_html(charts.broker_bytes(ids, [b.leader_bytes for b in bs],
                                          [b.replica_bytes for b in bs], hover),
                      "chart-brokers-bytes")
    network = {"produce in": [b.produce_in for b in bs],
               "replication in": [b.replication_in for b in bs],
               "consumers out": [b.consumer_out for b in bs],
               "replication out": [b.replication_out for b in bs]}
    if any(v is not None for values in network.values() for v in values):
        body += chart_html(charts.broker_network(ids, network, hover), "chart-brokers-network")
    capacity = [b.capacity_nw_in for b in bs]
    network_peak = any(b.peak_nw_in is not None for b in bs)
    if any(b.peak_in is not None for b in bs):
        threshold = (doc.cluster or {}).get("capacity_threshold")
        markers = ({"peak produce bytes in": [b.peak_in for b in bs],
                    "mean network in": [b.nw_in for b in bs]} if network_peak else
                   {"p99 bytes in": [b.p99_in for b in bs],
                    "mean bytes in": [b.mean_in for b in bs]})
        fig = charts.broker_peak(
            ids, [b.peak_vs_capacity for b in bs], markers, hover, capacity=capacity,
            threshold=threshold if isinstance(threshold, int | float) else None,
            label="peak network in" if network_peak else "peak bytes in")
        body += chart_html(fig, "chart-brokers-peak")
    body += (f"<details><summary>Every broker ({len(bs):,})</summary>"
             + html_table(_broker_rows(bs), "table-brokers") + "</details>")
    from kpart.report._format import AS_REPLICA

    over = [b.broker for b in bs if b.capacity_used is not None and b.capacity_used > 1]
    note = (AS_REPLICA[0].upper() + AS_REPLICA[1:] + ". Network loads are Cruise Control's: "
            "the leader takes the produce bytes in and serves the consumers, each follower "
            "replicates the leader's bytes in. The peak is the busiest window of the "
            + ("network in (the produce bytes in of the partitions a broker leads and the "
               "replication bytes in of those it follows)" if network_peak else "bytes in")
            + ", summed over every topic window by window"
            + ("; the line is the network-in capacity." if any(c is not None for c in capacity)
               else " (no capacities were given)."))
    if over:
        note += (f" {len(over)} broker{'s' * (len(over) != 1)} exceed their network-in "
                 f"capacity at the peak (red): {', '.join(map(str, over[:20]))}"
                 + ("…" if len(over) > 20 else "") + ".")
    return html_section("brokers", "Brokers", body, html.escape(note))


def _racks(doc: ClusterDoc) -> str:
    if not doc.racks:
        return ""
    names = {"nw_in_bytes_per_s": "network in", "nw_out_bytes_per_s": "network out"}
    rows = [{names.get(k, k): human(v, "B/s") if k in names and isinstance(v, int | float)
             and not isinstance(v, bool) else v for k, v in r.items()} for r in doc.racks]
    return html_section("racks", "Racks", html_table(rows, "table-racks"),
                    "The brokers of each rack, their loads summed.")


def _topic_partitions(pairs: Sequence[tuple[str, int]]) -> str:
    """``(topic, partition)`` pairs by topic, in the given order.

    >>> _topic_partitions([("a", 0), ("b", 1), ("a", 3)]), _topic_partitions([])
    ('a: 0, 3; b: 1', 'none')
    """
    by_topic: dict[str, list[int]] = {}
    for topic, p in pairs:
        by_topic.setdefault(topic, []).append(p)
    return "; ".join(f"{t}: {', '.join(map(str, ps))}" for t, ps in by_topic.items()) or "none"


def _groups(doc: ClusterDoc) -> str:
    body = ""
    for i, g in enumerate(doc.groups):
        texts = [_topic_partitions(m.partitions) for m in g.members]
        ratio = f" (max/mean {g.max_over_mean:.3g})" if g.max_over_mean is not None else ""
        reads = (", ".join(g.topics) if len(g.topics) <= 4 else f"{len(g.topics)} topics"
                 ) or "no topic"
        title = f"Group {g.group} — {g.strategy or '?'}, reading {reads}{ratio}"
        fig = charts.member_bars([m.member for m in g.members],
                                  [m.records for m in g.members], texts, title=title)
        total = sum(m.records for m in g.members)
        rows = [{"member": m.member, "rack": m.rack, "instance_id": m.instance_id,
                 "partitions": texts[j], "records": m.records, "bytes": m.bytes,
                 "peak records/s": m.peak_records,
                 "records_share": m.records / total if total else 0.0}
                for j, m in enumerate(g.members)]
        body += chart_html(fig, f"chart-group-{i}") + html_table(rows, f"table-group-{i}")
    if not body:
        return ""
    note = ("Records consumed per member over every topic its group reads, and the "
            "topic-partitions each member is assigned (the assignor ran over all of them).")
    return html_section("consumers", "Consumer groups", body, html.escape(note))


def _hot_keys(doc: ClusterDoc) -> str:
    from kpart.report._format import key_text

    if not doc.hot_keys:
        return ""
    serializers = {t.topic: t.key_serializer for t in doc.topics}
    rows = [{**h, "key": key_text(h.get("key"), serializers.get(str(h.get("topic"))))}
            for h in doc.hot_keys]
    return html_section("hot-keys", "Hot keys", html_table(rows, "table-hot-keys"),
                    "The most frequent keys of every topic, with the partition they hash to.")


def render_cluster_report(summary: Mapping[str, Any]) -> str:
    """The page of a multi-topic ``summary`` (see the module docstring); pure, no I/O.
    :class:`~kpart.errors.ConfigError` naming the first malformed field."""
    from plotly.offline import get_plotlyjs

    doc = read_cluster_summary(summary)
    sections = [_overview(doc), _topics(doc), _partitions(doc), _heatmap(doc), _brokers(doc),
                _racks(doc), _groups(doc), *share_streams_html(summary), _hot_keys(doc),
                partition_count_section(doc),
                version_change_html(summary), *cluster_sections(doc.cluster)]
    sections = [s for s in sections if s]
    nav = "".join(f'<a href="#{sid}">{label}</a>' for sid, label in _NAV
                  if any(s.startswith(f'<section id="{sid}"') for s in sections))
    names = ", ".join(t.topic for t in doc.topics[:5]) + ("…" if len(doc.topics) > 5 else "")
    title = html.escape(f"{len(doc.topics)} topic{'s' * (len(doc.topics) != 1)} ({names})")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>kpart report: {title}</title>"
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><style>{PAGE_CSS}'
        f"{CSS}{TOPICS_CSS}code{{background:#eef2f6;padding:0 3px}}</style>"
        f'<script type="text/javascript">{get_plotlyjs()}</script></head><body>'
        f"<header><h1>kpart report — {'cluster' if doc.brokers else 'producer view'}: "
        f"{title}</h1></header><nav>{nav}</nav>"
        f"<main>{''.join(sections)}</main></body></html>\n"
    )
