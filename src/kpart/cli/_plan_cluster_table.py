"""The terminal summary of a load-aware ``kpart plan``, printed from the summary dict
(:func:`kpart.cluster.plan_summary.plan_summary`): per goal its violations before → after
and the floor no plan can go below (hard/soft; ✓/✗ with ``--verify``), per broker replicas,
leaders, disk and network in/out before → after with their share of capacity, max/mean lines,
the moves and (with ``--failures``) the worst failures."""

from __future__ import annotations

from typing import Any

__all__ = ["print_summary"]

_ARROW = " → "


def _unit(values: list[float | None]) -> tuple[str, float]:
    from kpart.report._format import unit_for

    return unit_for(values)


def _num(v: float | None, scale: float) -> str:
    from kpart.report._format import in_unit

    return in_unit(v, scale)


def _share(v: float | None, cap: float | None) -> str:
    return "-" if v is None or cap is None else f"{v / cap:.0%}"


_RESOURCES = (("disk_bytes", "disk", "B"), ("nw_in_bytes_per_s", "net in", "B/s"),
              ("nw_out_bytes_per_s", "net out", "B/s"))


def _goals_table(summary: dict[str, Any], verified: bool) -> Any:
    from rich.table import Table

    table = Table(title="goals in priority order: violations before → after, floor")
    for col in ("goal", "kind", "before", "after", "floor", *(("ok",) if verified else ())):
        table.add_column(col, justify="left" if col == "goal" else "right")
    for g in summary["goals"]:
        floor = g.get("floor")
        row = [g["goal"], "hard" if g["hard"] else "soft",
               "-" if g["before"] is None else f"{g['before']:,}",
               "-" if g["after"] is None else f"{g['after']:,}",
               "-" if floor is None else f"{floor:,}"]
        if verified:
            row.append("✓" if g["ok"] else "✗")
        table.add_row(*row)
    return table


def _brokers_table(summary: dict[str, Any]) -> Any:
    from rich.table import Table

    brokers = summary["brokers"]
    table = Table(title=f"{len(brokers)} brokers, before → after (+ added, - removed)")
    table.add_column("broker", justify="right")
    table.add_column("rack", justify="right")
    scales = {}
    for key, name, unit in _RESOURCES:
        prefix, scales[key] = _unit([b[s][key] for b in brokers for s in ("before", "after")])
        table.add_column(f"{name} {prefix}{unit}", justify="right")
        table.add_column(f"{name} use", justify="right")
    table.add_column("replicas", justify="right")
    table.add_column("leaders", justify="right")
    for b in brokers:
        mark = "+" if b["added"] else "-" if b["removed"] else ""
        cells = [f"{mark}{b['broker']}", b["rack"] or "-"]
        for key, _, _ in _RESOURCES:
            cap = b["capacity"][key]
            cells.append(_num(b["before"][key], scales[key]) + _ARROW
                         + _num(b["after"][key], scales[key]))
            cells.append(_share(b["before"][key], cap) + _ARROW + _share(b["after"][key], cap))
        for key in ("replicas", "leaders"):
            cells.append(f"{b['before'][key]:,}{_ARROW}{b['after'][key]:,}")
        table.add_row(*cells)
    return table


def _ratio(values: list[float | None]) -> str:
    known = [v for v in values if v is not None]
    if not known:
        return "-"
    mean = sum(known) / len(known)
    return f"{max(known) / mean:.3f}" if mean else "-"


def _measure(brokers: list[dict[str, Any]], side: str, key: str) -> tuple[list[float | None], bool]:
    """Per broker of ``side`` (``"before"``/``"after"``) what the goals measure of ``key``:
    a resource's utilization (load / capacity, as Cruise Control's distribution goals compare
    brokers) when every broker's capacity is known, else its load; a count as it is."""
    caps = [b["capacity"].get(key) for b in brokers] if key in _CAPACITY_KEYS else []
    if caps and all(c for c in caps):
        return [None if b[side][key] is None else b[side][key] / c
                for b, c in zip(brokers, caps, strict=True)], True
    return [b[side][key] for b in brokers], False


_CAPACITY_KEYS = frozenset(k for k, _, _ in _RESOURCES)


def _max_mean_lines(summary: dict[str, Any]) -> list[str]:
    brokers = summary["brokers"]
    before = [b for b in brokers if not b["added"]]
    after = [b for b in brokers if not b["removed"]]
    lines = []
    for key, name in (("replicas", "replicas"), ("leaders", "leaders"),
                      *((k, n) for k, n, _ in _RESOURCES)):
        was, used_before = _measure(before, "before", key)
        now, used_after = _measure(after, "after", key)
        what = (" (utilization: load / capacity)" if used_before and used_after
                else " (load: capacity unknown)" if key in _CAPACITY_KEYS else "")
        lines.append(f"  {name:9s} {_ratio(was)}{_ARROW}{_ratio(now)}{what}")
    return ["max/mean per broker, as the goals measure it (before: the brokers before the "
            "change; after: those left):", *lines]


def _bytes(v: float) -> str:
    """As the plan page's cards say it (:func:`kpart.report._format.human`)."""
    from kpart.report._format import human

    return human(v, "B")


def _moves_line(summary: dict[str, Any]) -> str:
    mv = summary["moves"]
    line = (f"moves: {mv['partitions']:,} partitions, {mv['replica_moves']:,} replica moves, "
            f"{mv['leader_changes']:,} leader changes, {_bytes(mv['bytes_moved'])} moved")
    bound = mv["lower_bound_bytes"]
    if bound:
        line += f" ({mv['bytes_moved'] / bound:.2f}x the {_bytes(bound)} to reach the mean)"
    return line


def _duration(seconds: float) -> str:
    """``1 h 02 min``, ``3 d 07 h``, ``45 s``."""
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    if s < 48 * 3600:
        return f"{s // 3600} h {s % 3600 // 60:02d} min"
    return f"{s // 86400} d {s % 86400 // 3600:02d} h"


def schedule_lines(summary: dict[str, Any], batch_files: str | None) -> list[str]:
    """The schedule in words: batches (and their files), the throttle to pass and the
    estimated durations; no line without a schedule."""
    sched = summary["schedule"]
    if sched is None:
        return []
    batches = sched["batches"]
    k = sched["max_moves_per_broker"]
    line = (f"schedule: {len(batches):,} batch{'es' if len(batches) != 1 else ''}"
            + (f", at most {k} move{'s' if k != 1 else ''} per broker each" if k is not None
               else ""))
    if batch_files:
        line += f" ({batch_files})"
    lines = [line]
    rate = sched["throttle_bytes_per_s"]
    if rate is not None:
        longest = max((b["seconds"] for b in batches), default=0.0)
        lines.append(f"  at {rate:,} bytes/s (kafka-reassign-partitions.sh --execute --throttle "
                     f"{rate}): about {_duration(sched['total_seconds'])} in all, longest batch "
                     f"{_duration(longest)}")
    return lines


def _failures_table(summary: dict[str, Any]) -> Any:
    from rich.table import Table

    rows = summary["failures"]
    shown = rows[:10]
    table = Table(title=f"failures of the target, worst first ({len(shown)} of {len(rows)})")
    for col in ("down", "offline", "under min ISR", "max leaders (x mean)",
                "max bytes-in MiB/s (x mean)"):
        table.add_column(col, justify="right")
    for r in shown:
        label = f"rack {r['rack']}" if r["rack"] is not None else ",".join(map(str, r["down"]))
        ml, al = r["max_leaders"], r["mean_leaders"]
        mb, ab = r["max_bytes_in_per_s"], r["mean_bytes_in_per_s"]
        table.add_row(label, f"{r['offline_partitions']:,}", f"{r['under_min_isr']:,}",
                      f"{ml:,} ({ml / al if al else 0:.2f})",
                      "-" if mb is None else f"{_num(mb, 2**20)} ({mb / ab if ab else 0:.2f})")
    return table


def print_summary(summary: dict[str, Any], *, verified: bool,
                  batch_files: str | None = None) -> None:
    """Print the tables and lines of the module docstring (rich, 140 columns)."""
    from rich.console import Console

    console = Console(width=140)
    console.print(f"kpart plan (load-aware): {summary['partitions']:,} partitions, "
                  f"{summary['replicas']:,} replicas")
    console.print(_goals_table(summary, verified))
    if summary["errors"]:
        console.print(f"invalid replica sets: {summary['errors'][0]}")
    console.print(_brokers_table(summary))
    for line in _max_mean_lines(summary):
        console.print(line)
    console.print(_moves_line(summary))
    for line in schedule_lines(summary, batch_files):
        console.print(line, highlight=False)
    if summary["failures"] is not None:
        console.print(_failures_table(summary))
    if verified:
        console.print("verified: every hard goal holds, no soft goal got worse")
