"""The report's "what changes at Kafka V" section (``kpart report --compare-version V``), rendered
from ``summary.json``'s ``"version_change"`` key (:meth:`kpart.analysis.version_change.VersionChange.
to_json`, computed by :mod:`kpart.analysis.version_change`; this module renders only): terminal lines
(:func:`version_change_lines`) and the page's ``<section id="version-change">``
(:func:`version_change_html`).

The key: ``{"to_version": str, "brokers_version": str, "groups": [{"group", "strategy",
"follows": "brokers"|"clients", "from_version", "to_version", "compared": bool, "reason"?,
"before"?: {"label", "assignment", "balance": {"members", "min_partitions",
"max_partitions"}}, "after"?: {...}, "moved"?: int, "moves"?: [{"topic", "partition", "from",
"to"}], "members"?: {id: {"before", "after", "lost": {topic: [p]}, "gained": {topic: [p]}}}}],
"producers"?: [{"topic", "partitioner", "null_key_strategy", "from_version", "to_version",
"compared": bool, "keyed_records", "keyed_moved", "reason"?, "moved"?, "null_keys"?:
{"records", "partitioner": "default"|"round-robin", "null_key_strategy": {"from", "to"},
"per_record", "moved", "note", ...}}], "not_covered": [str]}``. Errors:
:class:`~kpart.errors.ConfigError` naming a missing field.

>>> doc = {"to_version": "4.3", "brokers_version": "4.0.0", "not_covered": [], "groups": [
...     {"group": "g", "strategy": "uniform", "follows": "brokers", "from_version": "4.0.0",
...      "to_version": "4.3", "compared": True, "moved": 1,
...      "before": {"balance": {"members": 2, "min_partitions": 1, "max_partitions": 2}},
...      "after": {"balance": {"members": 2, "min_partitions": 1, "max_partitions": 2}},
...      "moves": [{"topic": "t", "partition": 1, "from": "m1", "to": "m2"}],
...      "members": {"m1": {"before": 2, "after": 1, "lost": {"t": [1]}, "gained": {}},
...                  "m2": {"before": 1, "after": 2, "lost": {}, "gained": {"t": [1]}}}}]}
>>> print("\\n".join(version_change_lines(doc)))
What changes at Kafka 4.3 (brokers now 4.0.0):
  group g (uniform, follows the brokers: 4.0.0 -> 4.3): 1 partition changes owner; balance 1-2 -> 1-2 partitions per member
    m1: 2 -> 1 partitions, loses t[1]
    m2: 1 -> 2 partitions, gains t[1]
>>> doc["producers"] = [{"topic": "t", "partitioner": "java:default", "null_key_strategy":
...     "round-robin", "from_version": "3.9.0", "to_version": "4.3", "compared": True,
...     "keyed_records": 6, "keyed_moved": 0, "moved": 3, "null_keys": {"records": 4,
...     "partitioner": "round-robin", "per_record": True, "moved": 3,
...     "null_key_strategy": {"from": "kafka-9965", "to": "kafka-17632"}}}]
>>> print(version_change_lines(doc)[-1])
  topic t (java:default, null_key_strategy round-robin, client 3.9.0 -> 4.3): 6 keyed records, none moves; 4 without a key (RoundRobinPartitioner kafka-9965 -> kafka-17632): 3 change partition (per record, each in a new batch)
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from kpart.errors import ConfigError

__all__ = ["version_change_html", "version_change_lines"]

KEY = "version_change"


def _req(doc: Mapping[str, Any], key: str, where: str) -> Any:
    if not isinstance(doc, Mapping) or key not in doc:
        raise ConfigError(f"{where}: missing field {key!r}")
    return doc[key]


def _parts(by_topic: Mapping[str, list[int]]) -> str:
    return " ".join(f"{t}[{','.join(str(p) for p in ps)}]" for t, ps in by_topic.items() if ps)


def _balance(side: Mapping[str, Any], where: str) -> str:
    b = _req(side, "balance", where)
    return f"{b['min_partitions']}-{b['max_partitions']}"


def _group_head(g: Mapping[str, Any], i: int) -> str:
    where = f"{KEY}.groups[{i}]"
    head = (f"group {_req(g, 'group', where)} ({_req(g, 'strategy', where)}, follows the "
            f"{_req(g, 'follows', where)}: {_req(g, 'from_version', where)} -> "
            f"{_req(g, 'to_version', where)})")
    if not _req(g, "compared", where):
        return f"{head}: not compared: {g.get('reason') or 'no reason given'}"
    moved = int(_req(g, "moved", where))
    return (f"{head}: {moved:,} partition{'' if moved == 1 else 's'} "
            f"change{'s' if moved == 1 else ''} owner; balance "
            f"{_balance(_req(g, 'before', where), where + '.before')} -> "
            f"{_balance(_req(g, 'after', where), where + '.after')} partitions per member")


def _member_line(member: str, m: Mapping[str, Any]) -> str | None:
    lost, gained = _parts(m.get("lost") or {}), _parts(m.get("gained") or {})
    if not lost and not gained:
        return None
    what = [w for w in (f"loses {lost}" if lost else "", f"gains {gained}" if gained else "")
            if w]
    return f"{member}: {m['before']} -> {m['after']} partitions, {', '.join(what)}"


def _plural(count: int, one: str, many: str) -> str:
    return f"{count:,} {one if count == 1 else many}"


def _producer_head(p: Mapping[str, Any], i: int) -> str:
    where = f"{KEY}.producers[{i}]"
    head = (f"topic {_req(p, 'topic', where)} ({_req(p, 'partitioner', where)}, "
            f"null_key_strategy {_req(p, 'null_key_strategy', where)}, client "
            f"{_req(p, 'from_version', where)} -> {_req(p, 'to_version', where)})")
    if not _req(p, "compared", where):
        return f"{head}: not compared: {p.get('reason') or 'no reason given'}"
    keyed = int(_req(p, "keyed_records", where))
    u = _req(p, "null_keys", where)
    strategy = _req(u, "null_key_strategy", where + ".null_keys")
    records, moved = int(_req(u, "records", where)), int(_req(u, "moved", where))
    name = ("RoundRobinPartitioner" if u.get("partitioner") == "round-robin"
            else "null-key strategy")
    what = (f"{_plural(moved, 'changes', 'change')} partition (per record, each in a new batch)"
            if _req(u, "per_record", where) else
            "placed at random on both sides: the same expected share, 1/n per partition, "
            "none counted as moved")
    return (f"{head}: {_plural(keyed, 'keyed record', 'keyed records')}, none moves; "
            f"{records:,} without a key ({name} {strategy['from']} -> {strategy['to']}): "
            f"{what}")


def version_change_lines(doc: Mapping[str, Any]) -> list[str]:
    """The section as terminal lines: a heading, per group one line (what moves and each
    side's balance as ``min-max`` partitions per member) and, under it, one line per member
    that loses or gains partitions; one line per topic's producer (keyed records, records
    without a key and those that change partition); then what the section does not cover."""
    lines = [f"What changes at Kafka {_req(doc, 'to_version', KEY)} (brokers now "
             f"{_req(doc, 'brokers_version', KEY)}):"]
    groups = _req(doc, "groups", KEY)
    if not groups:
        lines.append("  no consumer group in the topology")
    for i, g in enumerate(groups):
        lines.append("  " + _group_head(g, i))
        for member, m in (g.get("members") or {}).items():
            line = _member_line(member, m)
            if line is not None:
                lines.append("    " + line)
    lines += ["  " + _producer_head(p, i) for i, p in enumerate(doc.get("producers") or ())]
    lines += [f"  not compared: {x}" for x in doc.get("not_covered") or ()]
    return lines


def version_change_html(summary: Mapping[str, Any]) -> str:
    """``<section id="version-change">`` (empty string without the key): one table row per
    group (``table-version-change``: versions, partitions changing owner, balance) and one per
    member that loses or gains partitions (``table-version-change-members``); one per topic's
    producer (``table-version-change-producers``: keyed records, records without a key, each
    side's null-key rule and the records changing partition)."""
    doc = summary.get(KEY)
    if not doc:
        return ""
    esc = html.escape
    rows, members = [], []
    for i, g in enumerate(_req(doc, "groups", KEY)):
        where = f"{KEY}.groups[{i}]"
        compared = _req(g, "compared", where)
        cells = [g["group"], g["strategy"], g["follows"], g["from_version"], g["to_version"],
                 f"{int(g['moved']):,}" if compared else "not compared",
                 (f"{_balance(g['before'], where)} → {_balance(g['after'], where)}"
                  if compared else g.get("reason") or "")]
        rows.append("<tr>" + "".join(f"<td>{esc(str(c))}</td>" for c in cells) + "</tr>")
        for member, m in (g.get("members") or {}).items():
            lost, gained = _parts(m.get("lost") or {}), _parts(m.get("gained") or {})
            if lost or gained:
                cells = [g["group"], member, f"{m['before']} → {m['after']}", lost or "–",
                         gained or "–"]
                members.append("<tr>" + "".join(f"<td>{esc(str(c))}</td>" for c in cells)
                               + "</tr>")
    head = ("<tr><th>group</th><th>strategy</th><th>follows</th><th>now</th><th>at</th>"
            "<th>partitions changing owner</th><th>partitions per member (min-max)</th></tr>")
    body = (f'<table id="table-version-change"><thead>{head}</thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")
    if members:
        head = ("<tr><th>group</th><th>member</th><th>partitions</th><th>loses</th>"
                "<th>gains</th></tr>")
        body += (f'<table id="table-version-change-members"><thead>{head}</thead>'
                 f"<tbody>{''.join(members)}</tbody></table>")
    producers = []
    for i, p in enumerate(doc.get("producers") or ()):
        where = f"{KEY}.producers[{i}]"
        u = p.get("null_keys") if _req(p, "compared", where) else None
        cells = [p["topic"], p["partitioner"], p["null_key_strategy"], p["from_version"],
                 p["to_version"], f"{int(p['keyed_records']):,}"]
        if u is None:
            cells += ["not compared", p.get("reason") or "", "–"]
        else:
            rule = u["null_key_strategy"]
            cells += [f"{int(u['records']):,}", f"{rule['from']} → {rule['to']}",
                      f"{int(u['moved']):,}" if u["per_record"]
                      else "0 (random on both sides: same expected share)"]
        producers.append("<tr>" + "".join(f"<td>{esc(str(c))}</td>" for c in cells) + "</tr>")
    if producers:
        head = ("<tr><th>topic</th><th>partitioner</th><th>null_key_strategy</th><th>client "
                "now</th><th>at</th><th>keyed records (none moves)</th><th>records without "
                "key</th><th>null-key rule</th><th>records changing partition</th></tr>")
        body += (f'<table id="table-version-change-producers"><thead>{head}</thead>'
                 f"<tbody>{''.join(producers)}</tbody></table>")
    notes = "".join(f"<li>{esc(str(x))}</li>" for x in doc.get("not_covered") or ())
    note = ("KIP-848 groups (uniform, server-range) follow the brokers' Kafka version, classic "
            "groups their clients'; at Kafka "
            f"{esc(str(doc['to_version']))} both run it. Replicas stay where they are. "
            "Producers follow their client's version: keyed records keep their partition "
            "(murmur2 in every version); records without a key follow the null-key rule "
            "(RoundRobinPartitioner: per record, each in a new batch).")
    return (f'<section id="version-change"><h2>What changes at Kafka '
            f"{esc(str(doc['to_version']))}</h2><p class=\"note\">{note}</p>{body}"
            + (f"<ul>{notes}</ul>" if notes else "") + "</section>")
