"""``kpart streams-assign``: a Streams group's target assignment (KIP-1071), computed by Kafka's
group-coordinator ``StickyTaskAssignor`` (:mod:`kpart.consumer.streams`).

FILE (``-`` for stdin) is a Streams group as a golden case's ``input`` holds it (subtopologies,
``num_standby_replicas``, members with process ids and current tasks), a whole single case, or
one sequence round (a step's subtopologies with the round's members); see
docs/streams-groups.md. Output: a table, or with ``--json`` ``{"assignment": {member:
{"active": {...}, "standby": {...}}}}``, the shape of a golden case's ``expected``; ``--out``
writes it atomically instead. A current task that no longer exists is a warning (Kafka ignores
it); bad input is one error line, exit 2, nothing written.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Annotated, Any

import typer

from kpart._files import check_writable, read_text, write_text
from kpart._warnings import kpart_warn
from kpart.errors import ConfigError, KpartError
from kpart.versions import DEFAULT_KAFKA_VERSION, behaviour


def _group_doc(doc: Any, file: Path) -> Any:
    if isinstance(doc, dict) and "members" not in doc and isinstance(doc.get("input"), dict):
        return doc["input"]
    return doc


def _sequence(file: Path, doc: dict[str, Any], kafka_version: str) -> dict[str, Any]:
    """``{"rounds": [{"step", "assignment"} | {"step", "error"}]}`` of a sequence document
    (``{"steps": [group state, ...]}``, a golden sequence's ``input``), simulated as the
    coordinator runs it (:func:`~kpart.consumer.streams.simulate_streams_group`)."""
    from kpart.consumer.streams import simulate_streams_group

    steps = doc.get("steps")
    if not isinstance(steps, list) or not steps:
        raise ConfigError(f"{file}: steps: expected a non-empty list of group states")
    try:
        rounds = simulate_streams_group(steps, kafka_version)
    except ConfigError as e:
        raise ConfigError(f"{file}: {e}") from None
    out = []
    for r in rounds:
        if r.assignment is None:
            assert r.error is not None
            out.append({"step": r.step, "error": {"class": getattr(r.error, "java_class", None),
                                                   "message": str(r.error)}})
        else:
            out.append({"step": r.step, **r.assignment.to_json()})
    return {"rounds": out}


def _tasks_text(tasks: Any) -> str:
    return " ".join(f"{sub}:{','.join(map(str, parts))}" for sub, parts in tasks) or "-"


def streams_assign_command(
    file: Annotated[Path, typer.Argument(
        help="Streams group, JSON: subtopologies, standbys, members (docs/streams-groups.md).")],
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print {\"assignment\": ...} as JSON instead of a table.")] = False,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write here (atomically).")
    ] = None,
    kafka_version: Annotated[
        str, typer.Option("--kafka-version", help=(
            "The brokers' Kafka version (4.3, 4.2.0, ...): Streams groups' sticky assignor "
            "of that release (none before 4.1; 4.1 not modelled; see docs/versions.md)."))
    ] = DEFAULT_KAFKA_VERSION,
) -> None:
    """Compute a Streams group's target assignment (KIP-1071 sticky task assignor)."""
    from kpart.consumer.streams import StreamsGroupSpec, assign

    behaviour("streams_sticky_assignor", kafka_version)  # (version errors first)
    if out is not None:
        check_writable(out, "--out", inputs={"FILE": file})
    try:
        doc = json.loads(read_text(file, "FILE", stdin=True))
    except json.JSONDecodeError as e:
        raise ConfigError(f"{file}: malformed JSON: {e}") from None
    doc = _group_doc(doc, file)
    if isinstance(doc, dict) and "steps" in doc and "members" not in doc:
        if not as_json:
            raise ConfigError(f"{file}: a sequence of group states is printed as JSON only: "
                              "add --json")
        text = json.dumps(_sequence(file, doc, kafka_version), indent=2)
        if out is None:
            typer.echo(text)
        else:
            write_text(out, text + "\n", "--out")
        return
    try:
        spec = StreamsGroupSpec.from_json(doc)
    except KpartError as e:
        raise ConfigError(f"{file}: {e}") from None
    stale = spec.stale_tasks()
    if stale:
        mid, kind, sub, p = stale[0]
        count = spec.task_count(sub)
        where = (f"beyond the {count} tasks of subtopology {sub!r}" if count is not None
                 else f"of unknown subtopology {sub!r}")
        kpart_warn(f"{file}: {len(stale)} current task(s) no longer exist and are ignored, as "
                   f"Kafka does (first: {kind} task {sub}_{p} of member {mid!r}, {where})")
    result = assign(spec, kafka_version)
    if as_json:
        text = json.dumps(result.to_json(), indent=2)
    else:
        from rich.console import Console
        from rich.table import Table

        table = Table()
        for col in ("member", "process", "active", "standby"):
            table.add_column(col)
        process = {m.member_id: m.process_id for m in spec.members}
        for mid, a in result.members:
            table.add_row(mid, process[mid], _tasks_text(a.active), _tasks_text(a.standby))
        console = Console(record=True, width=200, file=io.StringIO(), color_system=None)
        console.print(table)
        text = console.export_text().rstrip("\n")
    if out is None:
        typer.echo(text)
    else:
        write_text(out, text + "\n", "--out")


def register(app: typer.Typer) -> None:
    """Add ``streams-assign`` to the ``kpart`` app."""
    app.command("streams-assign")(streams_assign_command)
