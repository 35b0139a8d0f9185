"""The report's share groups and Streams groups, rendered (private to :mod:`kpart.report`): the
``share_groups`` and ``streams_groups`` sections of ``summary.json``
(:mod:`kpart.analysis.share_stream_loads` computes them) as terminal tables and as the page's sections,
for the single-topic and the cluster report alike.

Page sections (each only when its summary section is there):

``share-groups``    per group ``chart-share-group-{i}`` (expected records per member) and
                    ``table-share-group-{i}`` (one row per member: its partitions, ``÷k`` where
                    ``k`` members share one, and its expected records and bytes)
``streams-groups``  per group ``chart-streams-group-{i}`` (records its active tasks read, per
                    member) and ``table-streams-group-{i}`` (one row per member: process, active
                    and standby tasks as ``subtopology_partition``, records, bytes)

Errors: :class:`~kpart.errors.ConfigError` naming the malformed field
(``share_groups[0].members[1].expected_records: expected a number, got 'x'``).

>>> s = {"share_groups": [{"group": "w", "assignor": "simple", "kafka_version": "4.3",
...      "members": [{"member": "a", "partitions": [{"topic": "t", "partition": 0,
...      "shared_by": 2}], "expected_records": 5.0}]}]}
>>> [m["partitions"] for m in share_rows(s)[0]["members"]]
['t-0 ÷2']
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from rich.markup import escape
from rich.table import Table

from kpart.errors import ConfigError
from kpart.report._doc_fields import integer, lst, num, obj, ostr
from kpart.report._html_parts import html_section, html_table

__all__ = ["SHARE_NOTE", "html_sections", "share_rows", "streams_rows", "terminal_tables"]

#: How the pages label a share group's records: the split is the expected one.
SHARE_NOTE = ("Expected share: a partition read by k members counts records/k for each. Kafka "
              "hands each fetched batch of records to one member, so the real split depends on "
              "the consumers' speed — this is the expected share, not a guarantee.")


def _partition_text(p: Any, where: str) -> str:
    p = obj(p, where)
    topic = ostr(p, "topic", where) or "?"
    k = integer(p.get("shared_by", 1), f"{where}.shared_by")
    part = integer(p.get("partition"), f"{where}.partition")
    return f"{topic}-{part}" + (f" ÷{k}" if k > 1 else "")


def _task_text(t: Any, where: str) -> str:
    t = obj(t, where)
    return f"{ostr(t, 'subtopology', where)}_{integer(t.get('partition'), f'{where}.partition')}"


def share_rows(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The ``share_groups`` section, checked, with each member's ``partitions`` as text
    (``t-0 ÷2, t-3``) and its expected records and bytes as numbers."""
    out = []
    for i, g in enumerate(lst(summary, "share_groups", "summary", required=False)):
        where = f"share_groups[{i}]"
        g = obj(g, where)
        members = []
        for j, m in enumerate(lst(g, "members", where)):
            mw = f"{where}.members[{j}]"
            m = obj(m, mw)
            parts = [_partition_text(p, f"{mw}.partitions[{k}]")
                     for k, p in enumerate(lst(m, "partitions", mw))]
            members.append({"member": str(m.get("member")), "rack": ostr(m, "rack", mw),
                            "partitions": ", ".join(parts) or "none",
                            "expected_records": num(m, "expected_records", mw),
                            "expected_bytes": (None if m.get("expected_bytes") is None
                                               else num(m, "expected_bytes", mw))})
        out.append({"group": str(g.get("group")), "assignor": ostr(g, "assignor", where),
                    "kafka_version": ostr(g, "kafka_version", where), "members": members,
                    "unassigned": len(lst(g, "unassigned", where, required=False))})
    return out


def streams_rows(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The ``streams_groups`` section, checked, tasks as text (``0_1, 1_0``)."""
    out = []
    for i, g in enumerate(lst(summary, "streams_groups", "summary", required=False)):
        where = f"streams_groups[{i}]"
        g = obj(g, where)
        members = []
        for j, m in enumerate(lst(g, "members", where)):
            mw = f"{where}.members[{j}]"
            m = obj(m, mw)
            tasks = {kind: ", ".join(_task_text(t, f"{mw}.{kind}[{k}]")
                                     for k, t in enumerate(lst(m, kind, mw))) or "none"
                     for kind in ("active_tasks", "standby_tasks")}
            members.append({"member": str(m.get("member")),
                            "process": ostr(m, "process_id", mw), "rack": ostr(m, "rack", mw),
                            **tasks, "records": num(m, "records", mw),
                            "bytes": None if m.get("bytes") is None else num(m, "bytes", mw)})
        subs = []
        for j, s in enumerate(lst(g, "subtopologies", where)):
            sw = f"{where}.subtopologies[{j}]"
            s = obj(s, sw)
            subs.append(f"{ostr(s, 'id', sw)}: {', '.join(map(str, lst(s, 'source_topics', sw)))}"
                        f" → {integer(s.get('tasks'), f'{sw}.tasks')} tasks"
                        + (" (stateful)" if s.get("stateful") else ""))
        standby = g.get("num_standby_replicas", 0)
        if isinstance(standby, bool) or not isinstance(standby, int):
            raise ConfigError(f"{where}.num_standby_replicas: expected an integer, got "
                              f"{standby!r:.60}")
        out.append({"group": str(g.get("group")), "assignor": ostr(g, "assignor", where),
                    "kafka_version": ostr(g, "kafka_version", where), "standby": standby,
                    "subtopologies": subs,
                    "missing": [str(x) for x in lst(g, "missing_source_topics", where,
                                                    required=False)],
                    "members": members})
    return out


def _bar(value: float, top: float, width: int = 20) -> str:
    filled = round(width * value / top) if top else 0
    return "█" * filled + "·" * (width - filled)


def _records(x: float) -> str:
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:,.1f}"


def _how(g: Mapping[str, Any]) -> str:
    return f"{g['assignor'] or '?'}, Kafka {g['kafka_version'] or '?'}"


def terminal_tables(summary: Mapping[str, Any]) -> list[Table | str]:
    """The terminal's tables (and notes) of the two sections, share groups first; ``[]``
    when the summary has neither."""
    out: list[Table | str] = []
    for g in share_rows(summary):
        t = Table(title=f"Share group {g['group']} ({_how(g)}): expected records per member",
                  title_justify="left", caption=SHARE_NOTE, caption_justify="left")
        for col in ("member", "rack", "partitions (÷k: shared by k)", "expected records",
                    "load"):
            t.add_column(col, justify="right" if col == "expected records" else "left")
        top = max((m["expected_records"] for m in g["members"]), default=0)
        for m in g["members"]:
            t.add_row(escape(m["member"]), escape(m["rack"] or "-"), escape(m["partitions"]),
                      _records(m["expected_records"]), _bar(m["expected_records"], top))
        out.append(t)
        if g["unassigned"]:
            out.append(f"share group {escape(g['group'])}: {g['unassigned']} partition(s) of "
                       "its topics assigned to no member")
    for g in streams_rows(summary):
        subs = "; ".join(g["subtopologies"])
        t = Table(title=f"Streams group {g['group']} ({_how(g)}, {g['standby']} standby "
                        f"replica{'s' * (g['standby'] != 1)}): subtopologies {subs}",
                  title_justify="left")
        for col in ("member", "process", "rack", "active tasks", "standby tasks",
                    "records (active)", "load"):
            t.add_column(col, justify="right" if col.startswith("records") else "left")
        top = max((m["records"] for m in g["members"]), default=0)
        for m in g["members"]:
            t.add_row(escape(m["member"]), escape(m["process"] or "-"), escape(m["rack"] or "-"),
                      escape(m["active_tasks"]), escape(m["standby_tasks"]),
                      _records(m["records"]), _bar(m["records"], top))
        out.append(t)
        if g["missing"]:
            out.append(f"Streams group {escape(g['group'])}: source topics "
                       f"{escape(', '.join(g['missing']))} are missing: Kafka's coordinator "
                       "refuses the topology, no member gets a task")
    return out


def html_sections(summary: Mapping[str, Any]) -> list[str]:
    """The page's ``share-groups`` and ``streams-groups`` sections (see the module docstring);
    an empty string for a section the summary does not have."""
    from kpart.report import _charts
    from kpart.report._plan_charts import chart_html

    share = ""
    for i, g in enumerate(share_rows(summary)):
        ms = g["members"]
        fig = _charts.member_bars([m["member"] for m in ms], [m["expected_records"] for m in ms],
                                  [m["partitions"] for m in ms],
                                  title=f"Share group {g['group']} — {_how(g)} — expected "
                                        "records per member (expected share)")
        share += chart_html(fig, f"chart-share-group-{i}") + html_table(
            [{"member": m["member"], "rack": m["rack"], "partitions (÷k: shared by k)":
              m["partitions"], "expected records": m["expected_records"],
              "expected bytes": m["expected_bytes"]} for m in ms], f"table-share-group-{i}")
        if g["unassigned"]:
            share += (f'<p class="note">{g["unassigned"]} partition(s) of its topics are '
                      "assigned to no member.</p>")
    streams = ""
    for i, g in enumerate(streams_rows(summary)):
        ms = g["members"]
        fig = _charts.member_bars([m["member"] for m in ms], [m["records"] for m in ms],
                                  [m["active_tasks"] for m in ms],
                                  title=f"Streams group {g['group']} — {_how(g)} — records "
                                        "read by each member's active tasks")
        streams += chart_html(fig, f"chart-streams-group-{i}")
        streams += ('<p class="note">Subtopologies: ' + html.escape("; ".join(g["subtopologies"]))
                    + f"; {g['standby']} standby replica{'s' * (g['standby'] != 1)}.</p>")
        if g["missing"]:
            streams += ('<p class="note">Source topics ' + html.escape(", ".join(g["missing"]))
                        + " are missing: Kafka's coordinator refuses the topology, no member "
                        "gets a task.</p>")
        streams += html_table([{"member": m["member"], "process": m["process"], "rack": m["rack"],
                            "active tasks": m["active_tasks"],
                            "standby tasks": m["standby_tasks"], "records": m["records"],
                            "bytes": m["bytes"]} for m in ms], f"table-streams-group-{i}")
    return [
        html_section("share-groups", "Share groups", share, html.escape(SHARE_NOTE)) if share else "",
        html_section("streams-groups", "Streams groups", streams, html.escape(
            "Each member's active and standby tasks (subtopology_partition) as the group "
            "coordinator's sticky task assignor gives them; active task i of a subtopology "
            "reads partition i of each of its source topics, and a member's records are those "
            "its active tasks read (standby tasks replay changelogs, not the source topics)."))
        if streams else "",
    ]
