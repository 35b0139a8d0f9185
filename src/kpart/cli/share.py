"""``kpart share-assign``: a share group's (KIP-932) target assignment from the command line.

``kpart share-assign FILE [--format json|table|parquet|arrow] [--json] [--out F]
[--kafka-version V]`` reads a share group (``{"topics", "assignable"?, "members"}``, the
``input`` object of a ``single`` case of Kafka's vectors, or one sequence round: the step's
``topics`` and ``assignable`` with the round's ``members``; a whole golden case line is read
through its ``input``) and prints ``{"assignment": {member: {topic: [p, ...]}}}``, in the shape
of the vectors' ``expected``, or a table. A sequence (``{"steps": [group state, ...]}``, a
sequence case's ``input``) is simulated step after step as the coordinator runs it and printed
as ``{"rounds": [{"step", "assignment"} or {"step", "error"}]}``. The algorithm is :mod:`kpart.consumer.share`.
Kafka's own failure (``java.util.NoSuchElementException``) is an error naming it (exit 2);
a member subscribed to a topic the file does not list is a warning, as for consumer groups.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from kpart._files import check_writable, read_text, write_table, write_text
from kpart.cli._options import BINARY_FORMATS, output_format
from kpart.errors import ConfigError, KpartError
from kpart.versions import DEFAULT_KAFKA_VERSION, behaviour

_FORMATS = ("json", "table", *BINARY_FORMATS)


def _group_doc(file: Path) -> Any:
    try:
        doc = json.loads(read_text(file, "FILE", stdin=True))
    except json.JSONDecodeError as e:
        raise ConfigError(f"{file}: malformed JSON: {e}") from None
    if isinstance(doc, dict) and "members" not in doc and isinstance(doc.get("input"), dict):
        doc = doc["input"]
    return doc


def _sequence(file: Path, doc: dict[str, Any], kafka_version: str) -> dict[str, Any]:
    """``{"rounds": [{"step", "assignment"} | {"step", "error"}]}`` of a sequence document
    (``{"steps": [{"topics", "assignable"?, "members"}, ...]}``, a golden sequence's
    ``input``), simulated as the coordinator runs it
    (:func:`~kpart.consumer.share.simulate_share_group`)."""
    from kpart.consumer.share import ShareGroupSpec, simulate_share_group

    steps = doc.get("steps")
    if not isinstance(steps, list) or not steps:
        raise ConfigError(f"{file}: steps: expected a non-empty list of group states")
    specs = []
    for i, step in enumerate(steps):
        try:
            specs.append(ShareGroupSpec.from_json(step))
        except KpartError as e:
            raise ConfigError(f"{file}: steps[{i}]: {e}") from None
    rounds = []
    for r in simulate_share_group(specs, kafka_version):
        if r.assignment is None:
            assert r.error is not None
            rounds.append({"step": r.step, "error": {"class": r.error.java_class,
                                                     "message": str(r.error)}})
        else:
            rounds.append({"step": r.step, **r.assignment.to_json()})
    return {"rounds": rounds}


def share_assign_command(
    file: Annotated[Path, typer.Argument(
        help="Share group file, JSON: {topics, assignable, members} (docs/share-groups.md).")],
    fmt: Annotated[str | None, typer.Option(
        "--format", "-f", show_default=False,
        help="json, table, parquet or arrow (parquet and arrow: one row per member and "
             "partition, written to --out). Default: from --out's name, else json.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Same as --format json.")] = False,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write here (atomically).")
                   ] = None,
    kafka_version: Annotated[str, typer.Option("--kafka-version", help=(
        "The brokers' Kafka version (4.3, 4.1.0, 4.0.1, ...): share groups exist from 4.0; "
        "4.0.x gives every member every partition, 4.1.x hashes then round-robins, 4.2+ "
        "balances (see docs/share-groups.md)."))
    ] = DEFAULT_KAFKA_VERSION,
) -> None:
    """Compute a share group's target assignment (the group coordinator's SimpleAssignor)."""
    from kpart.consumer.share import ShareGroupSpec, assign_simple

    if as_json and fmt not in (None, "json"):
        raise ConfigError(f"--json and --format {fmt} disagree: give one of them.")
    fmt = output_format("json" if as_json else fmt, out, _FORMATS, "json")
    behaviour("share_simple", kafka_version)  # version errors before anything is read
    if out is not None:
        check_writable(out, "--out", inputs={"FILE": file})
    doc = _group_doc(file)
    if isinstance(doc, dict) and "steps" in doc and "members" not in doc:
        if fmt != "json":
            raise ConfigError(f"{file}: a sequence of group states is printed as JSON only "
                              f"(--format {fmt})")
        text = json.dumps(_sequence(file, doc, kafka_version), indent=2)
        if out is None:
            typer.echo(text)
        else:
            write_text(out, text + "\n", "--out")
        return
    try:
        spec = ShareGroupSpec.from_json(doc)
    except KpartError as e:
        raise ConfigError(f"{file}: {e}") from None
    result = assign_simple(spec, kafka_version=kafka_version)
    if fmt in BINARY_FORMATS:
        assert out is not None  # output_format refused a binary format without --out
        write_table(out, result.to_arrow(), fmt, inputs={"FILE": file})
        return
    if fmt == "json":
        text = json.dumps(result.to_json(), indent=2)
        if out is None:
            typer.echo(text)
        else:
            write_text(out, text + "\n", "--out")
        return
    _table(spec, result, file, out)


def _table(spec: Any, result: Any, file: Path, out: Path | None) -> None:
    import io

    from rich.console import Console
    from rich.table import Table

    holders: dict[tuple[str, int], int] = {}
    for _, owned in result.assignment:
        for t, ps in owned:
            for p in ps:
                holders[(t, p)] = holders.get((t, p), 0) + 1
    table = Table(title=f"simple (share group) assignment of {file.name}")
    for col in ("member", "rack", "partitions", "shared", "assignment"):
        table.add_column(col)
    racks = {m.member_id: m.rack for m in spec.members}
    for mid, owned in result.assignment:
        n = sum(len(ps) for _, ps in owned)
        shared = sum(1 for t, ps in owned for p in ps if holders[(t, p)] > 1)
        text = " ".join(f"{t}[{','.join(map(str, ps))}]" for t, ps in owned) or "-"
        table.add_row(mid, racks[mid] or "-", str(n), str(shared), text)
    if out is None:
        Console(width=200, soft_wrap=True, color_system=None).print(table)
        return
    console = Console(record=True, width=200, file=io.StringIO(), color_system=None)
    console.print(table)
    write_text(out, console.export_text(), "--out")


def register(app: typer.Typer) -> None:
    """Add ``share-assign`` to the ``kpart`` app."""
    app.command("share-assign")(share_assign_command)
