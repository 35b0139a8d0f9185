"""``kpart report`` on a cluster topology (``[[topics]]``, or a topic with a timestamp column):
the options only it reads, their checks before Spark starts, and the run
(:func:`kpart.spark.cluster_report.measure_cluster`, then
:func:`kpart.analysis.cluster_report.cluster_report` of its measures) with its outputs.

The report directory holds ``summary.json`` (``"kind": "cluster"``, docs/report-cluster.md),
the Parquet tables, ``windows.parquet`` (records and bytes per partition per window, when a
topic has timestamps), ``cluster.json`` (what ``kpart plan --snapshot`` reads) and
``report.html``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from kpart.errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from kpart.analysis.layout import ResolvedCluster
    from kpart.cluster.model import Capacity, ClusterModel
    from kpart.producer.partition_count import PartitionLimits
    from kpart.spark.inputs import InputSpec
    from kpart.topology import Topology

__all__ = ["CheckedCluster", "ClusterOptions", "check_cluster_report", "refuse_mixed",
           "report_cluster"]

#: The window of the load over time when neither ``--window`` nor the topology gives one.
DEFAULT_WINDOW = "1m"

WindowOption = Annotated[str | None, typer.Option(
    "--window", help="Load over time: the window of the per-window rates, e.g. 30s, 1m, 1h "
    "(topics with a timestamp column) [default: the topology's window, else 1m].",
    show_default=False)]
MaxPartitionBytesOption = Annotated[float | None, typer.Option(
    "--max-partition-bytes-per-s", help="Partition count: the bytes/s one partition may take "
    "at its peak window (docs/partition-count.md for the default and its source).",
    show_default=False)]
ConsumerRecordsOption = Annotated[float | None, typer.Option(
    "--consumer-records-per-s", help="Partition count: the records/s one consumer drains "
    "(docs/partition-count.md for the default and its source).", show_default=False)]
TimestampUnitOption = Annotated[str | None, typer.Option(
    "--timestamp-unit", help="Unit of integer timestamps (epoch s, ms, us or ns; sets every "
    "timed topic's timestamp_unit) [default: the topology's, else ms]. Never guessed: values "
    "before 1971 or after 2200 in the unit are refused.", show_default=False)]
BadRecordsOption = Annotated[str, typer.Option(
    "--bad-records", help="JSON lines that do not parse: 'fail' names the first one, 'count' "
    "leaves them out and counts them (malformed_records in summary.json).")]


def check_bad_records_option(bad_records: str) -> None:
    """``--bad-records``: one of :data:`kpart.spark.datasets.BAD_RECORDS`, checked before
    anything is read (``kpart report``, ``kpart compat``, ``kpart whatif``)."""
    from kpart.errors import ConfigError
    from kpart.spark.datasets import BAD_RECORDS

    if bad_records not in BAD_RECORDS:
        raise ConfigError(f"--bad-records: expected one of {', '.join(BAD_RECORDS)}, "
                          f"got {bad_records!r}")


CurrentOption = Annotated[Path | None, typer.Option(
    "--current", help="Cluster topology: topics that already exist keep their replicas and "
    "leaders from this kafka-topics.sh --describe dump or reassignment JSON "
    "(docs/formats/current.md).",
    show_default=False)]


@dataclass(frozen=True, slots=True)
class ClusterOptions:
    """The cluster report's own options, as given: ``--window``, the partition-count limits,
    ``--capacity``, ``--current`` and ``--snapshot``."""

    window: str | None = None
    max_partition_bytes_per_s: float | None = None
    consumer_records_per_s: float | None = None
    capacity: Path | None = None
    current: Path | None = None
    snapshot: Path | None = None
    timestamp_unit: str | None = None
    #: ``--partial`` (a ``--current`` dump that is not the whole cluster); ``None`` when not given
    partial: bool | None = None

    def given(self) -> list[str]:
        """The options given on the command line (for "only with a cluster topology")."""
        return ["--" + f.name.replace("_", "-") for f in fields(self)
                if getattr(self, f.name) is not None]


@dataclass(frozen=True, slots=True)
class CheckedCluster:
    """What :func:`check_cluster_report` checked: the topology (datasets set, seeds pinned)
    ``resolved`` once with the existing cluster, each topic's input (``specs``),
    ``window_ms``, the partition-count ``limits``, ``capacity`` per broker, the ``inputs``
    no output may replace and the ``existing`` cluster (``--current``/``--snapshot``)."""

    resolved: ResolvedCluster
    specs: dict[str, InputSpec]
    window_ms: int | None
    limits: PartitionLimits
    capacity: dict[int, Capacity] | None
    inputs: list[Path]
    existing: ClusterModel | None = None


def check_cluster_report(topo: Topology, data: Path | None, topology_path: Path | None,
                         options: ClusterOptions) -> CheckedCluster:
    """Every check of a cluster report before Spark starts, in the order a user reads the
    command line: the dataset argument (one topic only), each topic's input (path, format, key
    and timestamp columns, :func:`kpart.spark.inputs.resolve_topic_input`), ``--window``, the
    limits, ``--capacity``, ``--current``/``--snapshot``. One ``ConfigError`` naming the
    option or the topic and field."""
    from kpart.analysis.layout import resolve_cluster
    from kpart.analysis.report_topology import pin_cluster_seeds
    from kpart.producer.partition_count import default_limits
    from kpart.spark.inputs import resolve_topic_input
    from kpart.topology import parse_window

    if data is not None:
        if len(topo.topics) > 1:
            raise ConfigError(f"data: the topology has {len(topo.topics)} topics; give each its "
                              "dataset in the topology (data = \"...\" in [[topics]])")
        topo = topo.with_topic(data=str(data))
    topo = _with_timestamp_unit(topo, options.timestamp_unit)
    specs = {t.name: resolve_topic_input(t, i) for i, t in enumerate(topo.topics)}
    timed = any(t.timestamp is not None for t in topo.topics)
    if options.window is not None:
        window_ms: int | None = parse_window(options.window, "--window")
    else:
        window_ms = parse_window(topo.window or DEFAULT_WINDOW, "window")
    if not timed:
        if options.window is not None:
            raise ConfigError(f"--window: no topic has a timestamp column (set timestamp = "
                              f"\"...\" on a topic), got {options.window!r}")
        window_ms = None
    limits = _limits(default_limits, options)
    capacity, existing, read = _cluster_files(topo, options)
    topo = pin_cluster_seeds(topo)  # placed once: the check here and the run place alike
    resolved = resolve_cluster(topo, existing=existing)  # a disagreeing cluster: no Spark
    inputs = [Path(s.source["path"]) for s in specs.values() if s.source.get("path")]
    inputs += [p for p in (topology_path, *read) if p is not None]
    return CheckedCluster(resolved, specs, window_ms, limits, capacity, inputs, existing)


def _with_timestamp_unit(topo: Topology, unit: str | None) -> Topology:
    """``--timestamp-unit`` set on every topic with a timestamp column (none: refused)."""
    from dataclasses import replace

    from kpart.spark._windows import check_timestamp_unit

    if unit is None:
        return topo
    check_timestamp_unit(unit, "--timestamp-unit")
    if not any(t.timestamp is not None for t in topo.topics):
        raise ConfigError(f"--timestamp-unit: no topic has a timestamp column (set timestamp = "
                          f"\"...\" on a topic), got {unit!r}")
    return replace(topo, topics=tuple(replace(t, timestamp_unit=unit) if t.timestamp else t
                                      for t in topo.topics))


def _limits(default_limits: Callable[..., PartitionLimits],
            options: ClusterOptions) -> PartitionLimits:
    try:
        return default_limits(options.max_partition_bytes_per_s, options.consumer_records_per_s)
    except ConfigError as e:
        text = str(e)
        for name, flag in (("max_partition_bytes_per_s", "--max-partition-bytes-per-s"),
                           ("consumer_records_per_s", "--consumer-records-per-s")):
            if text.startswith(name):
                raise ConfigError(flag + text[len(name):]) from None
        raise


def _cluster_files(topo: Topology, options: ClusterOptions
                   ) -> tuple[dict[int, Capacity] | None, ClusterModel | None, list[Path]]:
    """``--capacity`` (every topology broker's capacity), the existing cluster of
    ``--current`` or ``--snapshot`` (not both) and the files read."""
    from kpart.cli._cluster_inputs import model_from_files, read_capacity, read_snapshot
    from kpart.cluster.capacity import capacities_for

    read: list[Path] = []
    capacity = None
    for flag, path in (("--capacity", options.capacity), ("--current", options.current),
                       ("--snapshot", options.snapshot)):
        if path is not None and not topo.brokers:  # the producer view: nothing placed
            raise ConfigError(f"{flag} {str(path)!r}: the report has no brokers (the producer "
                              "view): give them with --brokers, or a --topology with [cluster]")
    if options.capacity is not None:
        with _naming("--capacity", options.capacity):
            config = read_capacity(options.capacity)
            capacity = capacities_for(config, [b.id for b in topo.brokers])
        read.append(options.capacity)
    if options.current is not None and options.snapshot is not None:
        raise ConfigError("--current and --snapshot: give the existing cluster once")
    existing = None
    if options.current is not None:
        with _naming("--current", options.current):
            existing = model_from_files(options.current, partial=bool(options.partial))
        read.append(options.current)
    elif options.snapshot is not None:
        existing = read_snapshot(options.snapshot)
        read.append(options.snapshot)
    return capacity, existing, read


@contextmanager
def _naming(flag: str, path: Path) -> Iterator[None]:
    """Errors reading ``path`` (given as ``flag``) start with the flag and the file, as every
    error of the command line names what to fix (``--current 'd.txt': No partitions ...``)."""
    try:
        yield
    except ConfigError as e:
        text = str(e)
        if text.startswith(flag):
            raise
        raise ConfigError(f"{flag} {str(path)!r}: {text}") from None


def refuse_mixed(topo: Topology, single: dict[str, Any], cluster: ClusterOptions) -> None:
    """One line when the command line mixes the two kinds of report: a single-topic option
    (``--partitions``, ``--whatif``, ...) with a cluster topology, or a cluster option
    (``--window``, ``--capacity``, ...) with a single-topic one."""
    if topo.is_cluster:
        given = [flag for flag, value in single.items() if value is not None]
        if given:
            what = (f"{len(topo.topics)} topics" if len(topo.topics) > 1
                    else "a topic with a timestamp column")
            raise ConfigError(f"{given[0]}: applies to a single-topic report; this topology is "
                              f"a cluster ({what}): set it per topic in the topology")
        return
    extra = cluster.given()
    if extra:
        raise ConfigError(f"{extra[0]}: applies to a cluster report: a topology with "
                          "[[topics]], or a topic with a timestamp column")


def report_cluster(  # noqa: PLR0913 - the report's inputs and options, by keyword
    topo: Topology, data: Path | None, topology_path: Path | None, run: Any,
    options: ClusterOptions, *, fmt: str | None = None, show_topology: bool = False,
    bad_records: str = "fail", compare_version: str | None = None,
) -> None:
    """``kpart report`` on a cluster topology: ``--show-topology``, else every check before
    Spark starts, the job, the report directory and the terminal summary; ``compare_version``:
    the section "what changes at Kafka V" (:mod:`kpart.analysis.version_change`), computed before Spark
    starts on the topology as resolved."""
    import time

    from kpart.cli._spark_options import require_spark
    from kpart.report.output import check_report_out

    if show_topology:
        from kpart._files import read_text
        from kpart.topology import DEMO_TOPOLOGY_TEXT

        text = (DEMO_TOPOLOGY_TEXT if topology_path is None
                else read_text(topology_path, "--topology"))
        typer.echo(text, nl=not text.endswith("\n"))
        return
    require_spark("report")
    if fmt is not None and data is None:
        raise ConfigError("--format: names the format of the dataset argument; set format = "
                          "\"...\" per topic in the topology")
    if fmt is not None:
        topo = topo.with_topic(format=fmt)
    checked = check_cluster_report(topo, data, topology_path, options)
    extra: dict[str, Any] = {}
    if compare_version is not None:
        from kpart.analysis.version_change import version_change

        extra["version_change"] = version_change(
            checked.resolved.topology, checked.resolved.topics, compare_version)
    check_report_out(run.out, checked.inputs, force=run.force)
    started = time.perf_counter()
    report = _run_and_write(checked, run, bad_records, extra)
    if not run.quiet:
        from kpart.report.terminal import print_summary

        print_summary(report)
        if "version_change" in report:
            from kpart.report._version_change import version_change_lines

            typer.echo("\n".join(version_change_lines(report["version_change"])))
        typer.echo(f"wrote {run.out}/ in {time.perf_counter() - started:.1f} s")


def _run_and_write(checked: CheckedCluster, run: Any, bad_records: str = "fail",
                   extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """Start Spark (unless a session is active), run the cluster report, stop the session
    kpart started and write the report directory atomically, with the ``extra`` sections
    computed before Spark (``version_change``) in its summary; kpart's steps on stderr."""
    from datetime import UTC, datetime

    from kpart.analysis.cluster_report import cluster_report
    from kpart.cli._phases import phases
    from kpart.cli._spark_options import report_session
    from kpart.report.html import write_report_html
    from kpart.report.output import write_report
    from kpart.spark.cluster_report import measure_cluster

    analysed_at = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    with phases(quiet=run.quiet) as steps:
        with report_session(run, steps) as spark:
            measures = measure_cluster(
                spark, checked.resolved, checked.specs, window_ms=checked.window_ms,
                limits=checked.limits, on_step=steps.step, bad_records=bad_records)
            report = cluster_report(
                checked.resolved, measures, capacity=checked.capacity,
                sources={name: spec.source for name, spec in checked.specs.items()},
                analysed_at=analysed_at, existing=checked.existing, on_step=steps.step)
        from kpart.analysis.version_change import VersionChange

        summary = {**report.summary, **{  # version_change: its producers on the records read
            k: v.for_summary(checked.resolved.topology, report.summary)
            if isinstance(v, VersionChange) else v for k, v in (extra or {}).items()}}
        steps.step(f"writing {run.out}/")
        write_report(summary, run.out,
                     extra=[lambda s, d: write_report_html(s, Path(d) / "report.html",
                                                           option="--out")],
                     force=run.force, inputs=checked.inputs, windows=report.windows,
                     cluster=report.model, groups=report.groups)
    return summary
