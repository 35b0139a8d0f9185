"""``kpart upgrade`` and ``kpart migrate``: what moves in a consumer group when its brokers'
Kafka version changes, or when it switches rebalance protocol (classic ↔ consumer, KIP-848).

``kpart upgrade FILE --from 4.0.0 --to 4.3 [--assignor A]`` computes the group's assignment as
both versions compute it: the group coordinator's (``uniform``, ``range``: the brokers' versions)
or, for a classic group file, a classic assignor's (``range``, ``roundrobin``, ``sticky``,
``cooperative-sticky``: the consumers' versions); ``kpart migrate FILE --to-protocol
consumer [--assignor range|roundrobin|sticky|cooperative-sticky] [--kafka-version V]`` computes
the classic assignor's answer and the KIP-848 target the converted group gets (Kafka's mapping:
``range`` → ``range``, the others → ``uniform``); ``--to-protocol classic`` the reverse. Both
print the two assignments side by side, the partitions that change owner (per member: lost and
gained) and each side's balance; ``--format json`` (or ``--json``) the same as JSON,
``--format parquet|arrow`` one row per partition (:meth:`AssignmentChange.to_arrow`, written to
``--out`` only); ``--out`` writes atomically. The comparison lives in :mod:`kpart.consumer.migration`.

FILE is a classic group file (docs/formats/group.md, ``topics`` an object) or a KIP-848 group
file (docs/formats/kip848-group.md, ``topics`` a list); either may be a test-vector case
``{"input": {...}}``.

The producer side: ``kpart upgrade --keys FILE|--dataset PATH --partitions N --from V1 --to V2
[--partitioner default|round-robin] [--limit N]`` compares where a producer's records go with
the Java client of both versions (:mod:`kpart.producer.upgrade`): ``--keys`` is a text file, one
key per line (UTF-8, as the StringSerializer sends it), an empty line a record without key;
``--dataset`` a Parquet file or directory with a ``key`` column (string or binary, null: no
key), rows in send order. It prints the records that change partition (count and the first
``--limit``), each side's null-key strategy and records per partition; ``--json``/``--out`` as
the group side (table or json only).
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from kpart._files import check_writable, read_text, write_table, write_text
from kpart.cli._options import BINARY_FORMATS, output_format
from kpart.errors import ConfigError, KpartError

if TYPE_CHECKING:  # pragma: no cover
    from kpart.consumer.migration import AssignmentChange
    from kpart.producer.upgrade import ProducerUpgrade

_FORMATS = ("table", "json", *BINARY_FORMATS)
_FILE_HELP = ("Group file, JSON: a classic group (docs/formats/group.md) or a KIP-848 group "
              "(docs/formats/kip848-group.md).")
_FORMAT_HELP = ("table, json, parquet or arrow (parquet and arrow: one row per partition, "
                "its owner on each side and whether it moves, written to --out). Default: "
                "table, or with --out JSON unless its name ends in .parquet or .arrow.")


def load_any_group(path: Path) -> tuple[Any, str | None]:
    """A :class:`~kpart.consumer.spec.GroupSpec` (``topics`` an object: a classic group) or a
    :class:`~kpart.consumer.coordinator.server_spec.ServerGroupSpec` (``topics`` a list: a
    KIP-848 group) from ``path``, and the group's assignor when the file names one: a test-vector
    case ``{"assignor": ..., "input": {...}}`` is read as its input, its ``assignor`` the
    group's. Errors name the file and the field."""
    from kpart.consumer.coordinator.server_spec import ServerGroupSpec
    from kpart.consumer.spec import GroupSpec

    try:
        doc = json.loads(read_text(path, "FILE", stdin=True))
    except json.JSONDecodeError as e:
        raise ConfigError(f"{path}: malformed JSON: {e}") from None
    named = None
    if isinstance(doc, dict) and "members" not in doc and isinstance(doc.get("input"), dict):
        named = doc.get("assignor")
        if named is not None and not isinstance(named, str):
            raise ConfigError(f"{path}: assignor: expected a name, got {named!r}")
        doc = doc["input"]
    try:
        if isinstance(doc, dict) and isinstance(doc.get("topics"), list):
            return ServerGroupSpec.from_json(doc), named
        return GroupSpec.from_json(doc, unknown_owned="error"), named
    except KpartError as e:
        raise ConfigError(f"{path}: {e}") from None


def _format(fmt: str | None, as_json: bool, out: Path | None) -> str:
    if as_json:
        if fmt not in (None, "json"):
            raise ConfigError(f"--json means --format json; it cannot be combined with "
                              f"--format {fmt}")
        fmt = "json"
    return output_format(fmt, out, _FORMATS, "table" if out is None else "json")


def _compact(parts: Any) -> str:
    """``(("t", 0), ("t", 1), ("u", 2))`` → ``'t[0,1] u[2]'`` (``'-'`` when empty)."""
    by_topic: dict[str, list[int]] = {}
    for t, p in parts:
        by_topic.setdefault(t, []).append(p)
    return " ".join(f"{t}[{','.join(map(str, ps))}]" for t, ps in by_topic.items()) or "-"


def _owned(assignment: Any, member: str) -> str:
    try:
        return _compact(assignment.partitions_of(member))
    except KeyError:
        return "-"


def _balance(b: Any) -> str:
    return f"{b.min_partitions}-{b.max_partitions} partitions per member ({b.members} members)"


def render_change(change: AssignmentChange, title: str) -> str:
    """``change`` as text: a table (member, both assignments, lost, gained) and two lines
    (moved partitions; both sides' balance)."""
    from rich.console import Console
    from rich.table import Table

    before, after = change.labels
    table = Table()
    for col in ("member", before, after, "lost", "gained"):
        table.add_column(col)
    for m in change.members:
        table.add_row(m.member_id, f"{m.before}: {_owned(change.before, m.member_id)}",
                      f"{m.after}: {_owned(change.after, m.member_id)}",
                      _compact(m.lost), _compact(m.gained))
    console = Console(record=True, width=200, file=io.StringIO(), color_system=None)
    console.print(table)
    noun = "partition changes" if change.moved == 1 else "partitions change"
    lines = [title, console.export_text().rstrip("\n"),
             f"moved: {change.moved} {noun} owner",
             f"balance: {before}: {_balance(change.before_balance)}; "
             f"{after}: {_balance(change.after_balance)}"]
    return "\n".join(lines)


def _emit(change: AssignmentChange, fmt: str, out: Path | None, title: str,
          file: Path) -> None:
    if fmt in BINARY_FORMATS:
        assert out is not None  # output_format refused a binary format without --out
        write_table(out, change.to_arrow(), fmt, inputs={"FILE": file})
        return
    text = (json.dumps(change.to_json(), indent=2) if fmt == "json"
            else render_change(change, title))
    if out is None:
        typer.echo(text)
    else:
        write_text(out, text + "\n", "--out")


def upgrade_command(  # noqa: PLR0913 - a typer command: one parameter per option
    from_version: Annotated[str, typer.Option(
        "--from", "--from-version", help="The Kafka version now (4.0.0, 4.3, ...; the "
        "brokers' for the KIP-848 assignors, the consumers' for the classic ones; see "
        "docs/versions.md).")],
    to_version: Annotated[str, typer.Option(
        "--to", "--to-version", help="The Kafka version after the upgrade (or downgrade).")],
    file: Annotated[Path | None, typer.Argument(
        help=_FILE_HELP + " Not with --keys/--dataset.", show_default=False)] = None,
    assignor: Annotated[str | None, typer.Option(
        "--assignor", "-a", show_default=False,
        help="uniform or range (KIP-848), or with a classic group file range, roundrobin, "
        "sticky or cooperative-sticky (classic). Default: the file's assignor (a test-vector "
        "case names it), else uniform.")] = None,
    fmt: Annotated[str | None, typer.Option("--format", "-f", help=_FORMAT_HELP,
                                            show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Same as --format json.")] = False,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write here (atomically).")] = None,
    keys: Annotated[Path | None, typer.Option(
        "--keys", show_default=False, help="Producer side: a text file of record keys, one per "
        "line in send order (an empty line: no key; see docs/versions.md).")] = None,
    dataset: Annotated[Path | None, typer.Option(
        "--dataset", show_default=False, help="Producer side: a Parquet file or directory with "
        "a 'key' column (null: no key), rows in send order.")] = None,
    partitions: Annotated[int | None, typer.Option(
        "--partitions", "-p", show_default=False,
        help="Producer side: the topic's partition count (required with --keys/--dataset).")
    ] = None,
    partitioner: Annotated[str, typer.Option(
        "--partitioner", help="Producer side: default (no partitioner.class) or round-robin "
        "(RoundRobinPartitioner).")] = "default",
    limit: Annotated[int, typer.Option(
        "--limit", help="Producer side: list at most this many moved records.")] = 20,
) -> None:
    """What moves in a consumer group (FILE) or for a producer's records (--keys/--dataset)
    between two Kafka versions."""
    from kpart.consumer.migration import upgrade_change

    if keys is not None or dataset is not None:
        if file is not None or assignor is not None:
            raise ConfigError(f"{'FILE' if file is not None else '--assignor'} is for a "
                              "consumer group; --keys/--dataset compare a producer's records")
        producer_upgrade_command(ProducerUpgradeOptions(
            keys, dataset, partitions, partitioner, limit, from_version, to_version, fmt,
            as_json, out))
        return
    if file is None:
        raise ConfigError("kpart upgrade needs a group FILE, or --keys/--dataset for a "
                          "producer's records")
    fmt = _format(fmt, as_json, out)
    if out is not None:
        check_writable(out, "--out", inputs={"FILE": file})
    group, named = load_any_group(file)
    assignor = assignor or named or "uniform"
    change = upgrade_change(group, assignor, from_version, to_version)
    _emit(change, fmt, out, f"{assignor} assignment of {file.name}: Kafka {change.labels[0]} "
          f"→ {change.labels[1]}", file)


# -- the producer side (kpart.producer.upgrade) -------------------------------------------

@dataclass(frozen=True, slots=True)
class ProducerUpgradeOptions:
    """``kpart upgrade``'s producer options, as given."""

    keys: Path | None
    dataset: Path | None
    partitions: int | None
    partitioner: str
    limit: int
    from_version: str
    to_version: str
    fmt: str | None
    as_json: bool
    out: Path | None


def read_keys_file(path: Path) -> list[bytes | None]:
    """``--keys``: one key per line, UTF-8 (an empty line: a record without key)."""
    from kpart.limits import check_records

    text = read_text(path, "--keys", stdin=True)
    lines = text.splitlines()
    check_records(len(lines), "--keys")
    return [line.encode("utf-8") if line else None for line in lines]


def read_key_dataset(path: Path) -> list[bytes | None]:
    """``--dataset``: the ``key`` column of a Parquet file or directory, rows in order."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from kpart.limits import check_records

    if not path.exists():
        raise ConfigError(f"--dataset {str(path)!r}: no such file or directory")
    try:
        table = pq.read_table(path, columns=["key"])
    except (OSError, pa.ArrowException, KeyError, ValueError) as e:
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise ConfigError(f"--dataset {str(path)!r}: not a Parquet dataset with a 'key' "
                          f"column ({first})") from None
    column = table.column("key")
    if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)
            or pa.types.is_binary(column.type) or pa.types.is_large_binary(column.type)):
        raise ConfigError(f"--dataset {str(path)!r}: column 'key' is {column.type}, expected "
                          "string or binary")
    check_records(len(column), "--dataset")
    return [None if v is None else (v.encode("utf-8") if isinstance(v, str) else v)
            for v in column.to_pylist()]


def _counts(values: tuple[float, ...], exact: bool) -> str:
    return " ".join(f"{v:g}" if exact else f"{v:.2f}" for v in values)


def render_producer_upgrade(u: ProducerUpgrade, source: str) -> str:
    """``u`` as text: the header, both strategies, the moved records (up to the limit) and the
    records per partition on each side."""
    from kpart.producer.upgrade import key_text

    a, b = u.versions
    name = "RoundRobinPartitioner" if u.partitioner == "round-robin" else "default partitioner"
    before, after = u.strategy_texts
    lines = [f"{name}, {u.records} records on {u.num_partitions} partitions ({source}): "
             f"Kafka {a} → {b}"]
    if not u.per_record:
        lines.append(f"keyed records: {u.keyed_records}, murmur2 on both sides: none moves")
    lines.append(f"records without a key: {u.null_key_records}; {a}: {before}; {b}: {after}")
    lines.append(f"note: {u.note}")
    of = f"{u.records} records" if u.per_record else f"{u.keyed_records} keyed records"
    lines.append(f"moved: {u.moved} of {of} change partition")
    if u.moves:
        width = max(6, *(len(str(key_text(m.key))) for m in u.moves))
        lines.append(f"{'record':>8}  {'key':<{width}}  {a:>7}  {b:>7}")
        for m in u.moves:
            key = "(none)" if m.key is None else key_text(m.key)
            lines.append(f"{m.index:>8}  {key:<{width}}  {m.before:>7}  {m.after:>7}")
        if len(u.moves) < u.moved:
            lines.append(f"listed: the first {len(u.moves)} of {u.moved} (--limit)")
    what = "records per partition" if u.per_record else "expected records per partition"
    lines.append(f"{what}: {a}: {_counts(u.expected_before, u.per_record)}; "
                 f"{b}: {_counts(u.expected_after, u.per_record)}")
    return "\n".join(lines)


def producer_upgrade_command(o: ProducerUpgradeOptions) -> None:
    """Check the options, read the keys, compare, print or write."""
    from kpart.producer.upgrade import producer_upgrade

    if o.keys is not None and o.dataset is not None:
        raise ConfigError("--keys and --dataset: give one of them")
    if o.partitions is None:
        raise ConfigError("--partitions is required with --keys/--dataset (the topic's "
                          "partition count)")
    fmt = _format(o.fmt, o.as_json, o.out)
    if fmt not in ("table", "json"):
        raise ConfigError(f"--format {fmt}: the producer side of kpart upgrade writes table "
                          "or json")
    source = o.keys if o.keys is not None else o.dataset
    assert source is not None
    if o.out is not None:
        check_writable(o.out, "--out", inputs={"--keys": o.keys, "--dataset": o.dataset})
    # every option is checked before the keys are read
    producer_upgrade([], o.partitions, o.from_version, o.to_version,
                     partitioner=o.partitioner, limit=o.limit)
    keys = read_keys_file(o.keys) if o.keys is not None else read_key_dataset(source)
    u = producer_upgrade(keys, o.partitions, o.from_version, o.to_version,
                         partitioner=o.partitioner, limit=o.limit)
    text = (json.dumps(u.to_json(), indent=2) if fmt == "json"
            else render_producer_upgrade(u, source.name))
    if o.out is None:
        typer.echo(text)
    else:
        write_text(o.out, text + "\n", "--out")


def migrate_command(  # noqa: PLR0913 - a typer command: one parameter per option
    file: Annotated[Path, typer.Argument(help=_FILE_HELP)],
    to_protocol: Annotated[str, typer.Option(
        "--to-protocol", help="consumer (a classic group moves to KIP-848) or classic (back).")],
    assignor: Annotated[str | None, typer.Option(
        "--assignor", "-a", show_default=False,
        help="The group's assignor now: with --to-protocol consumer a classic one (range, "
        "roundrobin, sticky, cooperative-sticky), with classic a KIP-848 one (uniform, range). "
        "Default: the file's assignor (a test-vector case names it), else range (the first of "
        "Kafka's default partition.assignment.strategy), or uniform for classic.")] = None,
    to_assignor: Annotated[str | None, typer.Option(
        "--to-assignor", show_default=False,
        help="The assignor after the switch (default: Kafka's mapping, range -> range, the "
        "others -> uniform; back: range -> range, uniform -> cooperative-sticky).")] = None,
    kafka_version: Annotated[str | None, typer.Option(
        "--kafka-version", show_default=False,
        help="The brokers' Kafka version for the KIP-848 side (default: the newest release, "
        "4.3; see docs/versions.md).")] = None,
    offline: Annotated[bool, typer.Option(
        "--offline", help="The group is emptied and restarted with the new protocol: the new "
        "side starts from no assignment (default: online, the members keep theirs).")] = False,
    fmt: Annotated[str | None, typer.Option("--format", "-f", help=_FORMAT_HELP,
                                            show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Same as --format json.")] = False,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write here (atomically).")] = None,
) -> None:
    """What moves in a consumer group when it switches rebalance protocol (classic <-> consumer)."""
    from kpart.consumer import default_strategy
    from kpart.consumer.migration import PROTOCOLS, protocol_change

    if to_protocol not in PROTOCOLS:
        raise ConfigError(f"--to-protocol {to_protocol!r}: expected consumer or classic (the "
                          "values of group.protocol)")
    fmt = _format(fmt, as_json, out)
    if out is not None:
        check_writable(out, "--out", inputs={"FILE": file})
    group, named = load_any_group(file)
    # (the consumers' version is not an input of migrate: their default is the newest's)
    chosen = assignor or named or (default_strategy() if to_protocol == "consumer"
                                   else "uniform")
    change = protocol_change(group, chosen, to_protocol, kafka_version=kafka_version,
                             to_assignor=to_assignor, online=not offline)
    _emit(change, fmt, out, f"{file.name}: {change.labels[0]} → {change.labels[1]} "
          f"(group.protocol={to_protocol}{', offline' if offline else ''})", file)


def register(app: typer.Typer) -> None:
    """Add ``upgrade`` and ``migrate`` to the ``kpart`` app."""
    app.command("upgrade")(upgrade_command)
    app.command("migrate")(migrate_command)
