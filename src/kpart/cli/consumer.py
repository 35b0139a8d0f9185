"""``kpart assign``, ``kpart server-assign`` and ``kpart rebalance``: consumer-group
assignment from the command line.

``kpart assign FILE --strategy range|roundrobin|sticky|cooperative-sticky [--format F]``
reads a group in the golden "member input" JSON (``{"topics", "partition_racks"?, "members"}``,
see ``tests/golden/FORMAT.md``) and prints ``{"assignment": {member: {topic: [p, ...]}}}`` or
a table; ``kpart server-assign`` does the same for a KIP-848 group file.
``kpart rebalance SCENARIO --strategy S [--strategy T ...] [--format F]`` runs a scenario
(JSON or TOML, see :mod:`kpart.consumer._scenario`) under each strategy and prints, per step,
the strategies side by side. The algorithms live in :mod:`kpart.consumer`.

``--format parquet|arrow`` (written to ``--out`` only) writes one row per partition:
:func:`assignment_table` (``assign``, ``server-assign``) and :func:`rebalance_table`
(``rebalance``), from the results' Arrow tables (no per-partition Python objects for the
array-backed results of large groups).
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from kpart._files import check_writable, read_text, write_table, write_text
from kpart.cli._options import BINARY_FORMATS, output_format
from kpart.errors import ConfigError, KpartError
from kpart.versions import DEFAULT_KAFKA_VERSION

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa

    from kpart.consumer._scenario import Scenario
    from kpart.consumer.assignment import GroupAssignment
    from kpart.consumer.rebalance import Simulation

_STRATEGIES = "range, roundrobin, sticky, cooperative-sticky, uniform, server-range (KIP-848)"
_ASSIGN_FORMATS = ("json", "table", *BINARY_FORMATS)
_REBALANCE_FORMATS = ("table", "json", *BINARY_FORMATS)
_FORMAT_HELP = ("json, table, parquet or arrow (parquet and arrow: one row per partition, "
                "written to --out; see docs/consumer-assignment.md). Default: from --out's "
                "name (.parquet, .arrow), else json.")


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


_VERSION_HELP = ("The Kafka version: the brokers' for the KIP-848 strategies (uniform, "
                 "server-range), the consumers' for the classic ones (range, roundrobin, "
                 "sticky, cooperative-sticky): 4.3, 2.8.2, ... (default: the newest release, "
                 "4.3; see docs/versions.md). A version without the assignor, or where kpart "
                 "does not model it, is an error.")
_DEFAULT_STRATEGY = ("Default: range, the first of the consumer's default "
                     "partition.assignment.strategy ([range] before 3.0.0, [range, "
                     "cooperative-sticky] from 3.0.0).")


def _strategies_at(names: list[str], kafka_version: str | None) -> list[Any]:
    """The strategies called ``names``, bound to ``kafka_version`` when it is given
    (:meth:`~kpart.consumer.Strategy.at_version`: a :class:`ConfigError` about
    ``--kafka-version`` for a version without the assignor or where kpart does not model it)."""
    from kpart.consumer import get_strategy

    strategies = [get_strategy(n) for n in names]
    if kafka_version is None:
        return strategies
    return [s.at_version(kafka_version) for s in strategies]


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


def assignment_table(result: GroupAssignment) -> pa.Table:
    """``result`` as one Arrow table, one row per partition: ``member`` (string), ``topic``
    (string), ``partition`` (int32) and ``revoked`` (bool).

    The rows with ``revoked`` false are :meth:`~kpart.consumer.assignment.GroupAssignment.to_arrow`
    (the assignment, members in group order, topics and partitions sorted); after them, the
    rows with ``revoked`` true are
    :meth:`~kpart.consumer.assignment.GroupAssignment.revoked_to_arrow`: under the cooperative
    protocol, the partitions a member still owns but must give up before a follow-up rebalance
    hands them out (no member is assigned them yet). Members with no partition have no row.

    >>> from kpart.consumer.assignment import GroupAssignment
    >>> a = GroupAssignment.from_pairs(["C0", "C1"], {"C0": [("t", 0)], "C1": [("t", 1)]},
    ...                                revoked={"C0": [("t", 2)]})
    >>> assignment_table(a).to_pylist()  # doctest: +NORMALIZE_WHITESPACE
    [{'member': 'C0', 'topic': 't', 'partition': 0, 'revoked': False},
     {'member': 'C1', 'topic': 't', 'partition': 1, 'revoked': False},
     {'member': 'C0', 'topic': 't', 'partition': 2, 'revoked': True}]
    """
    import pyarrow as pa

    from kpart._arrow import constant

    assigned = result.to_arrow()
    revoked = result.revoked_to_arrow()
    return pa.concat_tables([
        assigned.append_column("revoked", constant(False, pa.bool_(), assigned.num_rows)),
        revoked.append_column("revoked", constant(True, pa.bool_(), revoked.num_rows)),
    ])


#: ``member id -> (group.instance.id, client.rack)`` of the group's members, for the table.
_MemberInfo = Mapping[str, tuple[str | None, str | None]]


def _write_assignment(result: GroupAssignment, fmt: str, out: Path | None, title: str,
                      members: _MemberInfo, inputs: dict[str, Path]) -> None:
    """Print or write ``result`` as ``fmt`` (json, table, parquet, arrow)."""
    if fmt in BINARY_FORMATS:
        assert out is not None  # output_format refused a binary format without --out
        write_table(out, assignment_table(result), fmt, inputs=inputs)
        return
    if fmt == "json":
        _emit(json.dumps(result.to_json(), indent=2), out)
        return
    from rich.table import Table

    table = Table(title=title)
    for col in ("member", "instance id", "rack", "partitions", "assignment"):
        table.add_column(col)
    for mid, owned in result.assignment:
        instance, rack = members[mid]
        n = sum(len(ps) for _, ps in owned)
        table.add_row(mid, instance or "-", rack or "-", str(n), _compact(owned))
    _show([table], out)


def _show(tables: list[Any], out: Path | None) -> None:
    """Print rich ``tables``, or write them as text to ``out``."""
    if out is None:
        _print_tables(tables)
        return
    from rich.console import Console

    console = Console(record=True, width=200, file=io.StringIO(), color_system=None)
    for t in tables:
        console.print(t)
    write_text(out, console.export_text(), "--out")


def assign_command(
    file: Annotated[Path, typer.Argument(help="Group file, JSON (docs/formats/group.md).")],
    strategy: Annotated[
        str | None, typer.Option("--strategy", "-s", show_default=False,
                                 help=f"One of: {_STRATEGIES}. {_DEFAULT_STRATEGY}")
    ] = None,
    fmt: Annotated[str | None, typer.Option("--format", "-f", help=_FORMAT_HELP,
                                            show_default=False)] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write here (atomically).")
    ] = None,
    kafka_version: Annotated[str | None, typer.Option(
        "--kafka-version", help=_VERSION_HELP, show_default=False)] = None,
) -> None:
    """Assign a consumer group's partitions with a Kafka assignor."""
    from kpart.consumer import assign, default_strategy

    fmt = output_format(fmt, out, _ASSIGN_FORMATS, "json")
    strategy = strategy or default_strategy(kafka_version)
    (chosen,) = _strategies_at([strategy], kafka_version)
    if out is not None:
        check_writable(out, "--out", inputs={"FILE": file})
    group = load_group_file(file)
    from kpart.cli._progress import busy

    total = sum(t.num_partitions for t in group.topics)
    with busy(f"{strategy}: {total:,} partitions, {len(group.members):,} members"):
        result = assign(group, chosen)
    members = {m.member_id: (m.group_instance_id, m.rack) for m in group.members}
    _write_assignment(result, fmt, out, f"{strategy} assignment of {file.name}", members,
                      {"FILE": file})


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
            if scenario.times is not None:  # KIP-1263: when targets were computed
                r["targets_at_ms"] = _targets_at(sim, i)
            results[name] = r
        entry = {"step": i, "change": change.describe(), "results": results}
        if scenario.times is not None:
            entry["at_ms"] = scenario.times[i]
        steps.append(entry)
    return {"scenario": scenario.name, "strategies": list(sims), "steps": steps}


def _targets_at(sim: Any, step: int) -> list[int]:
    """When the step's targets were computed (ms; KIP-848 with timed steps): ``[]`` when the
    step waited for KIP-1263's assignment interval, two entries when a waiting step's changes
    were assigned at the interval's end."""
    return [r.at_ms for r in sim.rounds
            if r.step == step and not r.deferred and r.at_ms is not None]


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


def rebalance_table(sims: Mapping[str, Simulation], scenario: Scenario) -> pa.Table:
    """The rebalance runs as one Arrow table: one row per partition of each step's assignment
    under each strategy, steps in order, the strategies of a step in ``sims`` order.

    Columns: ``strategy`` (string), ``step`` (int32, from 0), ``change`` (string, what the
    step did: ``"join C0, C1"``), then the rows of :func:`assignment_table` (``member``,
    ``topic``, ``partition``, ``revoked``: true for a partition revoked in the step's last
    round and not yet handed out, a cooperative step that has not settled), then the step's
    figures, the same on every row of a (strategy, step), as in ``--format json``:
    ``step_rounds`` (int32), ``step_moved``, ``step_revoked``, ``step_paused``,
    ``step_balance``, ``step_pending`` (int64, partitions), ``step_settled`` (bool),
    ``step_cycle`` (int32, null unless the rounds loop) and ``step_error`` (string, the Kafka
    exception and its message when the assignor failed, else null).

    A (strategy, step) whose assignment holds no partition (the assignor failed, or there is
    nothing to assign) still has one row, with ``member``, ``topic``, ``partition`` and
    ``revoked`` null. The schema's metadata holds ``kpart.strategies`` (a JSON list) and, when
    the scenario has one, ``kpart.scenario`` (its name).
    """
    import pyarrow as pa

    from kpart._arrow import constant

    empty = pa.table({"member": pa.nulls(1, pa.string()), "topic": pa.nulls(1, pa.string()),
                      "partition": pa.nulls(1, pa.int32()), "revoked": pa.nulls(1, pa.bool_())})
    i32, i64 = pa.int32(), pa.int64()
    pieces = []
    for i, change in enumerate(scenario.changes):
        for name, sim in sims.items():
            st = sim.steps[i]
            rows = assignment_table(st.assignment) if st.assignment is not None else empty
            if rows.num_rows == 0:
                rows = empty
            n = rows.num_rows
            error = None if st.error is None else f"{st.error.java_class}: {st.error}"
            columns = {"strategy": constant(name, pa.string(), n),
                       "step": constant(i, i32, n),
                       "change": constant(change.describe(), pa.string(), n)}
            columns.update({c: rows.column(c) for c in rows.column_names})
            columns.update({
                "step_rounds": constant(st.rounds, i32, n),
                "step_moved": constant(st.moved, i64, n),
                "step_revoked": constant(st.revoked, i64, n),
                "step_paused": constant(st.paused, i64, n),
                "step_balance": constant(st.balance, i64, n),
                "step_pending": constant(st.pending, i64, n),
                "step_settled": constant(st.settled, pa.bool_(), n),
                "step_cycle": constant(st.cycle, i32, n),
                "step_error": constant(error, pa.string(), n),
            })
            pieces.append(pa.table(columns))
    table = pa.concat_tables(pieces)
    meta = {"kpart.strategies": json.dumps(list(sims))}
    if scenario.name is not None:
        meta["kpart.scenario"] = scenario.name
    return table.replace_schema_metadata(meta)


def _rebalance_format(fmt: str | None, as_json: bool, out: Path | None) -> str:
    """``--format`` of ``kpart rebalance``: ``--json`` is ``--format json``; without either,
    a table on the terminal and JSON in ``--out`` (unless its name says .parquet/.arrow)."""
    if as_json:
        if fmt not in (None, "json"):
            raise ConfigError(f"--json means --format json; it cannot be combined with "
                              f"--format {fmt}")
        fmt = "json"
    return output_format(fmt, out, _REBALANCE_FORMATS, "table" if out is None else "json")


def rebalance_command(
    scenario_file: Annotated[Path, typer.Argument(help="Scenario file, JSON or TOML (docs/formats/scenario.md).")],
    strategy: Annotated[
        list[str] | None, typer.Option(
            "--strategy", "-s",
            help=f"Repeatable: {_STRATEGIES}. Default: the scenario's strategies, else range "
            "(the first of the consumer's default partition.assignment.strategy).")
    ] = None,
    fmt: Annotated[str | None, typer.Option(
        "--format", "-f", show_default=False,
        help="table, json, parquet or arrow (parquet and arrow: one row per partition and "
        "step, written to --out; see docs/consumer-assignment.md). Default: table, or with "
        "--out JSON unless its name ends in .parquet or .arrow.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Same as --format json.")] = False,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write here (atomically).")] = None,
    kafka_version: Annotated[str | None, typer.Option(
        "--kafka-version", help=_VERSION_HELP, show_default=False)] = None,
    assignment_interval_ms: Annotated[int | None, typer.Option(
        "--assignment-interval-ms", min=0, show_default=False,
        help="KIP-848 groups: group.consumer.assignment.interval.ms (KIP-1263, Kafka 4.3+; "
        "default: the scenario's assignment_interval_ms, else the brokers' default, 1000 from "
        "4.3). Batches the changes of steps with at_ms times less than this apart.")] = None,
) -> None:
    """Simulate a consumer group's rebalances, strategies side by side."""
    from kpart.consumer._scenario import load_scenario
    from kpart.consumer.rebalance import compare

    fmt = _rebalance_format(fmt, as_json, out)
    if out is not None:
        check_writable(out, "--out", inputs={"SCENARIO_FILE": scenario_file})
    scenario = load_scenario(scenario_file, option="SCENARIO_FILE")  # errors name the file, the step and the field
    from kpart.consumer import default_strategy

    names = list(dict.fromkeys(strategy or scenario.strategies
                               or (default_strategy(kafka_version),)))
    chosen = _strategies_at(names, kafka_version)
    from kpart.cli._progress import task_progress

    with task_progress(len(names) * len(scenario.groups), "rebalance steps") as advance:
        sims = compare(scenario, chosen, on_step=advance,
                       assignment_interval_ms=assignment_interval_ms)
    if fmt in BINARY_FORMATS:
        assert out is not None
        write_table(out, rebalance_table(sims, scenario), fmt,
                    inputs={"SCENARIO_FILE": scenario_file})
        return
    if fmt == "json":
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
        if scenario.times is not None:
            table.add_row("target at ms", *(
                ", ".join(map(str, _targets_at(sims[n], i))) or "waits (KIP-1263)"
                for n in names))
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
    _show(tables, out)


def server_assign_command(
    file: Annotated[
        Path, typer.Argument(help="KIP-848 group file, JSON (docs/formats/kip848-group.md).")
    ],
    assignor: Annotated[
        str, typer.Option("--assignor", "-a", help="uniform or range (server-side).")
    ] = "uniform",
    fmt: Annotated[str | None, typer.Option("--format", "-f", help=_FORMAT_HELP,
                                            show_default=False)] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write here (atomically).")
    ] = None,
    kafka_version: Annotated[
        str, typer.Option("--kafka-version", help=(
            "The brokers' Kafka version (4.3, 4.0.0, ...): the group coordinator's assignor "
            "of that release (uniform changed in 4.0.1, KAFKA-18688; see docs/versions.md)."))
    ] = DEFAULT_KAFKA_VERSION,
) -> None:
    """Compute a KIP-848 target assignment (group coordinator's Uniform or Range assignor)."""
    from kpart.consumer import server_assign, server_strategy
    from kpart.consumer.coordinator.server_spec import ServerGroupSpec

    fmt = output_format(fmt, out, _ASSIGN_FORMATS, "json")
    strategy = server_strategy(assignor).at_version(kafka_version)
    if out is not None:
        check_writable(out, "--out", inputs={"FILE": file})
    doc = _read_json(file)
    if isinstance(doc, dict) and "members" not in doc and isinstance(doc.get("input"), dict):
        doc = doc["input"]
    try:
        spec = ServerGroupSpec.from_json(doc)
    except KpartError as e:
        raise ConfigError(f"{file}: {e}") from None
    result = server_assign(spec, strategy)  # (version errors come before anything is written)
    members = {m.member_id: (m.instance_id, m.rack) for m in spec.members}
    _write_assignment(result, fmt, out, f"{assignor} (KIP-848) assignment of {file.name}",
                      members, {"FILE": file})


def register(app: typer.Typer) -> None:
    """Add ``assign``, ``server-assign`` and ``rebalance`` to the ``kpart`` app."""
    app.command("assign")(assign_command)
    app.command("server-assign")(server_assign_command)
    app.command("rebalance")(rebalance_command)
