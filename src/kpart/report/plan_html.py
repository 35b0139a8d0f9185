"""The plan page: a load-aware plan's summary → one self-contained ``plan.html`` (Plotly, JS inlined).

What Cruise Control shows of an ``OptimizerResult`` (``com.linkedin.kafka.cruisecontrol.
analyzer.OptimizerResult``: goals' violations before and after, load per broker before and
after, the data to move) and of its ``OptimizationVerifier``, plus the execution of the plan as
``kafka-reassign-partitions.sh --execute --throttle`` runs it (one batch after the other) and
the ranked broker/rack failures of ``kpart outage --all``. :func:`render_plan` is a pure
function of the ``kpart plan --json`` summary (``"format": "kpart-plan-summary"``, version 1,
``docs/plan-html.md``); it draws the numbers the summary holds and computes none. Sections,
each a ``<section id=...>``:

================  ============================================================================
``moves``         partitions, replica moves, leader changes, bytes moved against the lower bound
``broker-load``   per broker before/after bars: disk, network in, network out, leaders (one
                  chart each, capacity lines where known, added/removed brokers on bands)
``goals``         the goal table: hard/soft, violations before → after, the floor no plan
                  can beat (when the summary has it), ✓/✗, verified or not
``schedule``      the batch timeline (one bar per batch; by bytes without a throttle)
``failures``      the failure table, worst first
================  ============================================================================

``schedule`` or ``failures`` ``null`` (not computed) gives a note saying which option
computes it. Raises :class:`kpart.errors.ConfigError` naming the missing or malformed field.

>>> load = {"replicas": 3, "leaders": 1, "disk_bytes": 2e9, "nw_in_bytes_per_s": None,
...         "nw_out_bytes_per_s": None}
>>> page = render_plan({"format": "kpart-plan-summary", "version": 1, "partitions": 3,
...     "replicas": 3, "moves": {"partitions": 0, "replica_moves": 0, "leader_changes": 0,
...     "bytes_moved": 0, "lower_bound_bytes": 0}, "goals": [], "verified": None,
...     "brokers": [{"broker": 1, "before": load, "after": load}], "schedule": None,
...     "failures": None})
>>> page.startswith("<!DOCTYPE html>") and 'id="chart-broker-disk"' in page
True
>>> "Network in: not known" in page and "Not computed: pass --throttle" in page
True
"""

from __future__ import annotations

import html
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kpart._files import write_texts
from kpart.errors import ConfigError, Param
from kpart.report._cluster_html import (
    CSS,
    brokers_section,
    failures_section,
    opt_num,
    parse_brokers,
    req_list,
)
from kpart.report._html_parts import PAGE_CSS, escape_html, html_section, html_table, require_field

__all__ = ["FORMAT", "VERSION", "duration_words", "render_plan", "write_plan_html"]

#: ``format`` and ``version`` of the summary this module renders.
FORMAT = "kpart-plan-summary"
VERSION = 1
_WHERE = "plan summary"
#: How to get what a summary lacks (the ``kpart plan`` options).
SCHEDULE_MISSING = "pass --throttle BYTES_PER_S (and --max-concurrent-moves-per-broker K) to " \
                   "kpart plan for the batches and their durations."
FAILURES_MISSING = "pass --failures to kpart plan for every broker and rack failure on the " \
                   "plan's target."


def duration_words(seconds: float) -> str:
    """A duration in words, two units at most.

    >>> duration_words(200_000), duration_words(3725), duration_words(200), duration_words(42.5)
    ('2 d 07 h', '1 h 02 min', '3 min 20 s', '42.5 s')
    """
    if seconds >= 2 * 86400:
        return f"{int(seconds // 86400)} d {int(seconds % 86400 // 3600):02d} h"
    if seconds >= 3600:
        return f"{int(seconds // 3600)} h {int(seconds % 3600 // 60):02d} min"
    if seconds >= 60:
        return f"{int(seconds // 60)} min {int(seconds % 60):02d} s"
    return f"{seconds:.3g} s"


def _cards(cards: list[tuple[str, str]]) -> str:
    items = "".join(f'<div class="card"><div class="label">{html.escape(k)}</div>'
                    f'<div class="value">{html.escape(v)}</div></div>' for k, v in cards)
    return f'<div class="cards">{items}</div>'


def _moves(summary: Mapping[str, Any]) -> str:
    from kpart.report._format import human

    moves = require_field(summary, "moves", _WHERE)
    num = {k: opt_num(require_field(moves, k, "moves"), f"moves.{k}") for k in (
        "partitions", "replica_moves", "leader_changes", "bytes_moved", "lower_bound_bytes")}
    moved, bound = num["bytes_moved"], num["lower_bound_bytes"]
    added = req_list(summary, "added_brokers", _WHERE) if "added_brokers" in summary else []
    removed = req_list(summary, "removed_brokers", _WHERE) if "removed_brokers" in summary else []
    cards = [
        ("partitions", human(opt_num(require_field(summary, "partitions", _WHERE), "partitions"), "")),
        ("replicas", human(opt_num(require_field(summary, "replicas", _WHERE), "replicas"), "")),
        _brokers_card("added", added),
        _brokers_card("removed", removed),
        ("partitions moved", human(num["partitions"], "")),
        ("replica moves", human(num["replica_moves"], "")),
        ("leader changes", human(num["leader_changes"], "")),
        ("bytes moved", human(moved, "B")),
        ("lower bound", human(bound, "B")),
        ("moved / lower bound", f"{moved / bound:.2f}×" if moved is not None and bound else "—"),
    ]
    note = ("Replica moves copy data; leader changes (a preferred leader elected) move none. "
            "The lower bound is the fewest bytes any plan reaching the goals must move (for "
            "added brokers: what they must hold to reach the mean).")
    return html_section("moves", "Moves", _cards(cards), html.escape(note))


def _verified(summary: Mapping[str, Any]) -> str:
    verified = summary.get("verified")
    errors = summary.get("errors") or []
    if verified is not None and not isinstance(verified, bool):
        raise ConfigError(f"verified: expected true, false or null, got {verified!r}")
    if not isinstance(errors, list):
        raise ConfigError(f"errors: expected a list, got {errors!r:.60}")
    if verified is None:
        text = ('<p class="notice" id="verified">Not verified: pass --verify to kpart plan to '
                "check the plan independently.</p>")
    elif verified:
        text = ('<p id="verified"><span class="ok">✓ verified</span>: every hard goal holds, no '
                "soft goal got worse, every replica set is valid.</p>")
    else:
        text = ('<p id="verified"><span class="bad">✗ not verified</span>: the independent '
                "check of the plan failed.</p>")
    if errors:
        text += '<ul id="verify-errors">' + "".join(
            f"<li>{html.escape(str(e))}</li>" for e in errors) + "</ul>"
    return text


def _goal_row(i: int, g: Any) -> dict[str, Any]:
    at = f"goals[{i}]"
    name = require_field(g, "goal", at)
    hard, ok = require_field(g, "hard", at), require_field(g, "ok", at)
    for key, value in (("hard", hard), ("ok", ok)):
        if not isinstance(value, bool):
            raise ConfigError(f"{at}.{key}: expected true or false, got {value!r}")
    before = opt_num(require_field(g, "before", at), f"{at}.before")
    after = opt_num(require_field(g, "after", at), f"{at}.after")
    floor = opt_num(g.get("floor"), f"{at}.floor")  # optional: summaries before it lack it
    return {"#": i + 1, "goal": str(name), "kind": "hard" if hard else "soft",
            "violations before → after": f"{escape_html(before)} → {escape_html(after)}",
            "floor": escape_html(floor), "ok": "✓" if ok else "✗"}


def _goals(summary: Mapping[str, Any]) -> str:
    goals = req_list(summary, "goals", _WHERE)
    rows = [_goal_row(i, g) for i, g in enumerate(goals)]
    body = _verified(summary) + (html_table(rows, "table-goals") if rows else
                                 '<p class="notice">No goal was given.</p>')
    failed = [r["goal"] for r in rows if r["ok"] == "✗"]
    note = ("Cruise Control's goals in the priority order used: a goal never undoes a "
            "higher-priority one. Violations: brokers (or partitions) breaking the goal. "
            "Floor: the violations no plan meeting the hard goals can go below (brokers "
            "that must carry a partition heavier than the band's top; - : not computed).")
    if failed:
        note += " Not met: " + ", ".join(failed) + "."
    return html_section("goals", "Goals", body, html.escape(note))


def _batches(sched: Mapping[str, Any], timed: bool) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for i, b in enumerate(req_list(sched, "batches", "schedule")):
        at = f"schedule.batches[{i}]"
        row = {k: opt_num(require_field(b, k, at), f"{at}.{k}")
               for k in ("batch", "partitions", "replica_moves", "bytes", "seconds")}
        batch: Any = row["batch"]  # a number or None (opt_num): an int is wanted
        if not isinstance(batch, int) or (rows and batch <= rows[-1]["batch"]):
            raise ConfigError(f"{at}.batch: expected a whole number above the previous "
                              f"batch's, got {batch!r}")
        if row["bytes"] is None and not timed:
            raise ConfigError(f"{at}.bytes: expected a number (no throttle: bars by bytes)")
        if timed and row["seconds"] is None:
            raise ConfigError(f"{at}.seconds: expected a number (a throttle is given)")
        rows.append({**row, "brokers": req_list(b, "brokers", at)})
    return rows


def _timeline(rows: list[dict[str, Any]], timed: bool) -> str:
    from kpart.report import _plan_charts
    from kpart.report._format import human

    key, unit, scale = ("seconds", *_time_unit(sum(r["seconds"] for r in rows))) if timed \
        else ("bytes", "B", 1.0)
    start, at = [], 0.0
    for r in rows:
        start.append(at / scale)
        at += r[key]
    hover = [f"<b>batch {_fmt_id(r['batch'])}</b><br>{human(r['partitions'], '')} partitions, "
             f"{human(r['replica_moves'], '')} replica moves<br>{human(r['bytes'], 'B')}"
             + (f", {duration_words(r['seconds'])}" if r["seconds"] is not None else "")
             + f"<br>brokers: {html.escape(_short(r['brokers']))}" for r in rows]
    fig = _plan_charts.batch_timeline(
        [f"batch {_fmt_id(r['batch'])}" for r in rows], start, [r[key] / scale for r in rows],
        hover,
        title="Batches, one after the other" + ("" if timed else " (by bytes: no throttle)"),
        xaxis="time from the start" if timed else "bytes moved from the start", unit=unit)
    return _plan_charts.chart_html(fig, "chart-schedule")


def _time_unit(total: float) -> tuple[str, float]:
    """The unit of the timeline's axis, and its length in seconds, for ``total`` seconds."""
    return ("h", 3600.0) if total >= 3 * 3600 else ("min", 60.0) if total >= 180 else ("s", 1.0)


def _fmt_id(value: float | None) -> str:
    return "?" if value is None else f"{value:g}"


def _brokers_card(verb: str, ids: list[Any]) -> tuple[str, str]:
    """The card of the brokers added (or removed): their ids, never read as a count.

    >>> _brokers_card("added", [10]), _brokers_card("removed", [4, 5]), _brokers_card("added", [])
    (('broker added', 'id 10'), ('2 brokers removed', 'ids 4, 5'), ('brokers added', 'none'))
    """
    if not ids:
        return f"brokers {verb}", "none"
    if len(ids) == 1:
        return f"broker {verb}", f"id {ids[0]}"
    return f"{len(ids):,} brokers {verb}", f"ids {_short(ids)}"


def _short(ids: list[Any], limit: int = 12) -> str:
    text = ", ".join(map(str, ids[:limit]))
    return text + (f", … ({len(ids)} brokers)" if len(ids) > limit else "")


def _schedule(summary: Mapping[str, Any]) -> str:
    from kpart.report._format import human

    sched = summary.get("schedule")
    if sched is None:
        return html_section("schedule", "Schedule", '<p class="notice" id="schedule-missing">'
                        f"Not computed: {html.escape(SCHEDULE_MISSING)}</p>")
    if not isinstance(sched, Mapping):
        raise ConfigError(f"schedule: expected an object or null, got {sched!r:.60}")
    k = opt_num(require_field(sched, "max_moves_per_broker", "schedule"), "schedule.max_moves_per_broker")
    throttle = opt_num(require_field(sched, "throttle_bytes_per_s", "schedule"),
                       "schedule.throttle_bytes_per_s")
    total = opt_num(require_field(sched, "total_seconds", "schedule"), "schedule.total_seconds")
    rows = _batches(sched, throttle is not None)
    cards = [("batches", f"{len(rows):,}"),
             ("moves per broker per batch", "no limit (one batch)" if k is None else f"≤ {k:g}"),
             ("throttle", "none given" if throttle is None else
              f"{human(throttle, 'B/s')} (--throttle {throttle:.0f})"),
             ("estimated duration", "—" if total is None else duration_words(total))]
    body = _cards(cards)
    if throttle is None:
        body += ('<p class="notice" id="no-throttle">No throttle was given: the batches are '
                 "drawn by the bytes they move, without durations; pass --throttle "
                 "BYTES_PER_S for them.</p>")
    if rows:
        body += _timeline(rows, throttle is not None)
        table = [{"batch": _fmt_id(r["batch"]), "partitions": r["partitions"],
                  "replica moves": r["replica_moves"], "bytes": human(r["bytes"], "B"),
                  "duration": "—" if r["seconds"] is None else duration_words(r["seconds"]),
                  "brokers": _short(r["brokers"])} for r in rows]
        body += (f"<details><summary>Every batch ({len(rows):,})</summary>"
                 + html_table(table, "table-schedule") + "</details>")
    else:
        body += '<p class="notice">No batch: the plan moves no replica.</p>'
    note = ("Each batch is one kafka-reassign-partitions.sh --execute, started once the "
            "previous one completed; the fullest brokers are relieved first. Durations assume "
            "the throttle is the bottleneck (--throttle limits each broker's replication).")
    return html_section("schedule", "Schedule", body, html.escape(note))


def _check_format(summary: Mapping[str, Any]) -> None:
    if not isinstance(summary, Mapping):
        raise ConfigError(f"{_WHERE}: expected an object, got {type(summary).__name__}")
    fmt, version = require_field(summary, "format", _WHERE), require_field(summary, "version", _WHERE)
    if fmt != FORMAT:
        raise ConfigError(f"{_WHERE}: field 'format' must be {FORMAT!r}, got {fmt!r}")
    if version != VERSION or isinstance(version, bool):
        raise ConfigError(f"{_WHERE}: field 'version' must be {VERSION}, got {version!r}")


def render_plan(summary: Mapping[str, Any]) -> str:
    """Render ``summary`` (the ``kpart plan --json`` dict, ``docs/plan-html.md``) as one
    self-contained HTML page, returned as a string (UTF-8 when written).

    Pure: no I/O, no network, no clock. Fast at scale: 225 brokers and hundreds of batches
    draw in well under a second. Raises :class:`~kpart.errors.ConfigError` naming the field
    (``goals[2]: missing field 'ok'``, ``brokers[3].after.disk_bytes: expected a number or
    null, got 'x'``) when one is missing or malformed.
    """
    from plotly.offline import get_plotlyjs

    _check_format(summary)
    threshold = summary.get("capacity_threshold")
    brokers = require_field(summary, "brokers", _WHERE)
    parse_brokers(brokers, "brokers", before_required=True)  # every field checked before
    moves, goals = _moves(summary), _goals(summary)           # any chart is drawn
    failures = failures_section(summary.get("failures"), "failures", missing=FAILURES_MISSING)
    schedule = _schedule(summary)
    sections = [
        moves,
        brokers_section(brokers, "brokers", before_required=True, capacity_threshold=threshold),
        goals, schedule, failures,
    ]
    nav = "".join(f'<a href="#{sid}">{label}</a>' for sid, label in (
        ("moves", "Moves"), ("broker-load", "Brokers"), ("goals", "Goals"),
        ("schedule", "Schedule"), ("failures", "Failures")))
    partitions = opt_num(summary["partitions"], "partitions")
    title = html.escape(f"kpart plan — {len(brokers):,} brokers"
                        + ("" if partitions is None else f", {partitions:,.0f} partitions"))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{title}</title>"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{PAGE_CSS}{CSS}</style>"
        f'<script type="text/javascript">{get_plotlyjs()}</script></head><body>'
        f"<header><h1>{title}</h1></header><nav>{nav}</nav>"
        f"<main>{''.join(sections)}</main></body></html>\n"
    )


def write_plan_html(summary: Mapping[str, Any], path: str | os.PathLike[str], *,
                    option: str = Param("path"),
                    inputs: Mapping[str, str | os.PathLike[str] | None] | None = None) -> Path:
    """Write :func:`render_plan` (``summary``) to ``path`` atomically; return the path.

    As :func:`kpart.report.html.write_report_html`: the page is rendered first (a malformed
    summary writes nothing), written to a temporary file in the same directory and renamed
    into place, so a failure leaves no partial ``plan.html``. ``inputs`` (``{option: path}``
    of the command's input files): ``path`` may be none of them (kpart never overwrites a
    file it reads). ``ConfigError`` naming ``option`` (the name the caller gives ``path``) and
    the path when it cannot be written.
    """
    page = render_plan(summary)
    target = Path(path)
    write_texts({target: page}, default_option=option, inputs=inputs)
    return target
