"""``kpart assign`` and ``kpart rebalance``: consumer-group assignment from the command line.

``kpart assign FILE --strategy range|roundrobin|sticky|cooperative-sticky [--format json|table]``
reads a group in the golden "member input" JSON (``{"topics", "partition_racks"?, "members"}``,
see ``tests/golden/FORMAT.md``) and prints ``{"assignment": {member: {topic: [p, ...]}}}`` or
a table. ``kpart rebalance SCENARIO --strategy S [--strategy T ...] [--json]`` runs a scenario
(JSON or TOML, see :mod:`kpart.consumer._scenario`) under each strategy and prints, per step,
the strategies side by side. The algorithms live in :mod:`kpart.consumer`.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Annotated, Any

import typer

from kpart._files import check_writable, read_text, write_text
from kpart.errors import ConfigError, KpartError

_STRATEGIES = "range, roundrobin, sticky, cooperative-sticky, uniform, server-range (KIP-848)"


def _read_json(path: Path) -> Any:
    try:
        return json.loads(read_text(path, "FILE", stdin=True))
    except json.JSONDecodeError as e:
        raise ConfigError(f"{path}: malformed JSON: {e}") from None


def load_group_file(path: Path) -> Any:
    """A :class:`~kpart.consumer.spec.GroupSpec` from a member-input JSON file (or a golden
    ``single`` case, whose ``input`` is used). Errors name the file and the field; an owned
    partition of a topic missing from ``topics`` is rejected (``unknown_owned="error"``)."""
    from kpart.consumer.spec import GroupSpec

    doc = _read_json(path)
    if isinstance(doc, dict) and "members" not in doc and isinstance(doc.get("input"), dict):
        doc = doc["input"]
    try:
        return GroupSpec.from_json(doc, unknown_owned="error")
    except KpartError as e:
        raise ConfigError(f"{path}: {e}") from None


def _emit(text: str, out: Path | None) -> None:
    if out is None:
        typer.echo(text)
    else:
        write_text(out, text + "\n", "--out")


def _compact(owned: Any) -> str:
    """``(("t0", (0, 1)), ("t1", (2,)))`` → ``'t0[0,1] t1[2]'`` (``'-'`` when empty)."""
    return " ".join(f"{t}[{','.join(map(str, ps))}]" for t, ps in owned) or "-"


def _print_tables(tables: list[Any]) -> None:
    from rich.console import Console

    console = Console(width=200, soft_wrap=True, color_system=None)
    for t in tables:
        console.print(t)


def assign_command(
    file: Annotated[Path, typer.Argument(help="Group file, JSON (docs/formats/group.md).")],
    strategy: Annotated[
        str, typer.Option("--strategy", "-s", help=f"One of: {_STRATEGIES}.")
    ] = "range",
    fmt: Annotated[str, typer.Option("--format", "-f", help="json or table.")] = "json",
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write here (atomically).")
    ] = None,
) -> None:
    """Assign a consumer group's partitions with a Kafka assignor."""
    from kpart.consumer import assign, get_strategy

    if fmt not in ("json", "table"):
        raise ConfigError(f"--format: unknown format {fmt!r}: expected json or table")
    get_strategy(strategy)
    if out is not None:
        check_writable(out, "--out", inputs={"FILE": file})
    group = load_group_file(file)
    from kpart.cli._progress import busy

    total = sum(t.num_partitions for t in group.topics)
    with busy(f"{strategy}: {total:,} partitions, {len(group.members):,} members"):
        result = assign(group, strategy)
    if fmt == "json":
        _emit(json.dumps(result.to_json(), indent=2), out)
        return
    from rich.table import Table

    members = {m.member_id: m for m in group.members}
    table = Table(title=f"{strategy} assignment of {file.name}")
    for col in ("member", "instance id", "rack", "partitions", "assignment"):
        table.add_column(col)
    for mid, owned in result.assignment:
        m = members[mid]
        n = sum(len(ps) for _, ps in owned)
        table.add_row(mid, m.group_instance_id or "-", m.rack or "-", str(n), _compact(owned))
    if out is not None:
        from rich.console import Console

        console = Console(record=True, width=200, file=io.StringIO(), color_system=None)
        console.print(table)
        write_text(out, console.export_text(), "--out")
    else:
        _print_tables([table])


def _results_json(sims: dict[str, Any], scenario: Any) -> dict[str, Any]:
    steps = []
    for i, change in enumerate(scenario.changes):
        results = {}
        for name, sim in sims.items():
            st = sim.steps[i]
            r: dict[str, Any] = {
                "rounds": st.rounds,
                "moved": st.moved,
                "revoked": st.revoked,
                "paused": st.paused,
                "balance": st.balance,
                "settled": st.settled,
                "pending": st.pending,
                "cycle": st.cycle,
                "assignment": None if st.assignment is None else st.assignment.as_dict(),
            }
            if st.error is not None:
                r["error"] = {"class": st.error.java_class, "message": str(st.error)}
            results[name] = r
        steps.append({"step": i, "change": change.describe(), "results": results})
    return {"scenario": scenario.name, "strategies": list(sims), "steps": steps}


def _settled_cell(report: Any) -> str:
    """``yes``, or why the step's group has not settled (cooperative rounds still revoking);
    the row is shown only when some strategy has not settled."""
    if report.settled:
        return "yes"
    noun = "partition" if report.pending == 1 else "partitions"
    text = f"NO after {report.rounds} rounds: {report.pending} {noun} unowned"
    if report.cycle is not None:
        text += f"; loops every {report.cycle} rounds"
    return text


def rebalance_command(
    scenario_file: Annotated[Path, typer.Argument(help="Scenario file, JSON or TOML (docs/formats/scenario.md).")],
    strategy: Annotated[
        list[str] | None, typer.Option("--strategy", "-s", help=f"Repeatable: {_STRATEGIES}.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")] = False,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write the JSON here.")] = None,
) -> None:
    """Simulate a consumer group's rebalances, strategies side by side."""
    from kpart.consumer import get_strategy
    from kpart.consumer._scenario import load_scenario
    from kpart.consumer.rebalance import compare

    if out is not None:
        check_writable(out, "--out", inputs={"SCENARIO_FILE": scenario_file})
    scenario = load_scenario(scenario_file, option="SCENARIO_FILE")  # errors name the file, the step and the field
    names = list(dict.fromkeys(strategy or scenario.strategies or ("range",)))
    for name in names:
        get_strategy(name)
    from kpart.cli._progress import task_progress

    with task_progress(len(names) * len(scenario.groups), "rebalance steps") as advance:
        sims = compare(scenario, names, on_step=advance)
    if as_json or out is not None:
        _emit(json.dumps(_results_json(sims, scenario), indent=2), out)
        return
    from rich.table import Table

    tables = []
    for i, change in enumerate(scenario.changes):
        table = Table(title=f"step {i}: {change.describe()}")
        table.add_column("")
        for name in names:
            table.add_column(name)
        reports = [sims[n].steps[i] for n in names]
        for field in ("rounds", "moved", "revoked", "paused", "balance"):
            table.add_row(field, *(str(getattr(r, field)) for r in reports))
        if not all(r.settled for r in reports):
            table.add_row("settled", *(_settled_cell(r) for r in reports))
        for m in scenario.groups[i].members:
            cells = []
            for r in reports:
                if r.assignment is None:
                    cells.append(f"error: {r.error}")
                else:
                    cells.append(_compact(dict(r.assignment.assignment)[m.member_id]))
            table.add_row(m.member_id, *cells)
        tables.append(table)
    _print_tables(tables)


def server_assign_command(
    file: Annotated[
        Path, typer.Argument(help="KIP-848 group file, JSON (docs/formats/kip848-group.md).")
    ],
    assignor: Annotated[
        str, typer.Option("--assignor", "-a", help="uniform or range (server-side).")
    ] = "uniform",
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write here (atomically).")
    ] = None,
) -> None:
    """Compute a KIP-848 target assignment (group coordinator's Uniform or Range assignor)."""
    from kpart.consumer import server_assign
    from kpart.consumer.coordinator.server_spec import ServerGroupSpec

    if out is not None:
        check_writable(out, "--out", inputs={"FILE": file})
    doc = _read_json(file)
    if isinstance(doc, dict) and "members" not in doc and isinstance(doc.get("input"), dict):
        doc = doc["input"]
    try:
        spec = ServerGroupSpec.from_json(doc)
    except KpartError as e:
        raise ConfigError(f"{file}: {e}") from None
    _emit(json.dumps(server_assign(spec, assignor).to_json(), indent=2), out)


def register(app: typer.Typer) -> None:
    """Add ``assign``, ``server-assign`` and ``rebalance`` to the ``kpart`` app."""
    app.command("assign")(assign_command)
    app.command("server-assign")(server_assign_command)
    app.command("rebalance")(rebalance_command)
