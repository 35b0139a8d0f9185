"""The partition-count section of the cluster report page (private to
:mod:`kpart.report._cluster_report_html`): per topic, the partition count advised — the
smallest count whose busiest partition stays under the user's limits in its peak window, never
below the current count nor the largest group's members, with what set it and the load's own
smallest count as a fact (:class:`kpart.producer.partition_count.PartitionCountResult`) — against the
current count, with the share of keys and records that would change partition (Kafka's
``BuiltInPartitioner`` hashes a key modulo the count, so a new count moves keys; existing
records never move); when no count works because one key alone exceeds a limit, the key and
the sentence that the fix is the key.

>>> _fact("peak_bytes_per_s", 2e6), _fact("peak_records_per_s", 3000), _fact("records", 7)
('peak 1.91 MiB/s', 'peak 3,000 records/s', 'records 7')
"""

from __future__ import annotations

import html
from typing import Any

from kpart.report import _cluster_report_charts as charts
from kpart.report._cluster_doc import ClusterDoc, CountDoc, TopicDoc, advice_words
from kpart.report._format import key_text
from kpart.report._html_parts import format_value, html_section, html_table
from kpart.report._plan_charts import chart_html, human

__all__ = ["partition_count_section"]


def _share(x: float | None) -> str:
    from kpart.report._format import percent

    return "—" if x is None else percent(x)


def _count_row(t: TopicDoc, c: CountDoc) -> dict[str, Any]:
    return {"topic": t.topic, "current": c.current,
            "current is enough": "✓" if c.current_ok else "✗",
            "recommended": c.recommended if c.recommended is not None else "none works",
            "set by": advice_words(c) or "—",
            "the load alone fits in": (c.smallest_fitting if c.smallest_fitting is not None
                                       else "—"),
            "peak bytes/s (busiest partition)": human(c.peak_bytes_per_s, "B/s"),
            "peak records/s (busiest partition)": human(c.peak_records_per_s, ""),
            "limit bytes/s": human(c.max_partition_bytes_per_s, "B/s"),
            "limit records/s (one consumer)": human(c.consumer_records_per_s, ""),
            "records max / mean": c.max_over_mean,
            "keys moved": _share(c.moved_keys_share),
            "records moved": _share(c.moved_records_share)}


def _fact(name: str, value: float) -> str:
    """A number of a hot key in words: ``peak_bytes_per_s`` → ``peak 1.91 MiB/s``."""
    for suffix, unit in (("_bytes_per_s", "B/s"), ("_records_per_s", "records/s"),
                         ("_bytes", "B")):
        if name.endswith(suffix):
            amount = human(value, unit) if unit != "records/s" else f"{human(value, '')} {unit}"
            return f"{name[:-len(suffix)].replace('_', ' ')} {amount}".strip()
    return f"{name.replace('_', ' ')} {format_value(value)}"


def _hot_key_sentence(t: TopicDoc, c: CountDoc) -> str:
    upto = f" up to {c.max_partitions:,}" if c.max_partitions is not None else ""
    text = (f"{t.topic}: no partition count{upto} keeps the busiest partition's peak window "
            "under the limits")
    if c.hot_key is not None:
        key = c.hot_key.get("key")
        facts = [_fact(k, v) for k, v in c.hot_key.items()
                 if k != "key" and isinstance(v, int | float) and not isinstance(v, bool)]
        text += (f": the key {key_text(key, None)!r} alone exceeds a limit"
                 + (f" ({', '.join(facts)})" if facts else "")
                 + ". The fix is the key (split it, salt it, or give it a topic of its own), "
                   "not the count.")
    else:
        text += "." + (f" {c.reason}" if c.reason else "")
    return f'<p class="notice hot-key">{html.escape(text)}</p>'


def partition_count_section(doc: ClusterDoc) -> str:
    """The ``partition-count`` section: ``chart-partition-count`` (current and recommended
    count per topic), ``table-partition-count``, a ``hot-key`` notice per topic for which no
    count works, and a note naming the topics without a timestamp column."""
    counted = [(t, t.partition_count) for t in doc.topics if t.partition_count is not None]
    untimed = [t.topic for t in doc.topics if t.partition_count is None and t.timestamp is None]
    empty = [t.topic for t in doc.topics if t.partition_count is None and t.timestamp is not None]
    body = ""
    if counted:
        fig = charts.partition_count(
            [t.topic for t, _ in counted], [c.current for _, c in counted],
            [c.recommended for _, c in counted],
            [f"<b>{html.escape(t.topic)}</b><br>{html.escape(c.reason)}" for t, c in counted])
        body += chart_html(fig, "chart-partition-count")
        body += html_table([_count_row(t, c) for t, c in counted], "table-partition-count")
        body += "".join(_hot_key_sentence(t, c) for t, c in counted if c.recommended is None)
    if untimed or empty:
        why = ([f"{html.escape(', '.join(untimed))}: the partition count needs the peak "
                "window, so a timestamp column"] if untimed else []) + (
               [f"{html.escape(', '.join(empty))}: no record to time"] if empty else [])
        body += ('<p class="notice" id="partition-count-missing">Not computed for '
                 f"{'; for '.join(why)}.</p>")
    note = ("The partition count advised: the smallest count whose busiest partition stays, in "
            "its peak window, under both limits (bytes per second a partition may take, records "
            "per second one consumer drains), for this data and these keys — but never below "
            "the current count (Kafka cannot reduce a topic's partition count) nor below the "
            "members of the largest group reading the topic (a member without a partition "
            "idles); 'set by' names the limit that decided. 'The load alone fits in': the "
            "smallest count within the limits, a fact, not advice. Moved: the share of keys and "
            "records whose partition changes from the current count — Kafka never moves "
            "existing records, so those keys lose their ordering across the change.")
    return html_section("partition-count", "Partition count", body, html.escape(note))
