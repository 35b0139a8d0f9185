"""``kpart cluster``: the cluster model (``cluster.json`` v1) from the files an operator has.

``kpart cluster --current DESCRIBE [--sizes LOG_DIRS.json] [--capacity capacity.json]
[--loads rates.csv|REPORT_DIR ...] [--brokers ID[:RACK],...] [--out cluster.json]`` reads the
assignment, sizes, capacities and loads (:func:`kpart.cluster.from_files.cluster_from_files`),
writes ``cluster.json`` atomically and prints per broker its replicas, leaders, disk and
network in/out under Cruise Control's load model (:func:`kpart.cluster.broker_load`) and their
share of its capacity. ``--out`` replaces only a ``cluster.json`` kpart wrote (one starting with
``{"format": "kpart-cluster"``); bad input prints one line and exits with code 2, writing
nothing.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from kpart._files import check_writable, write_texts
from kpart.cli._cluster_inputs import (
    CapacityOption,
    LoadsOption,
    PartialOption,
    SizesOption,
    TopicOption,
    input_paths,
    model_from_files,
    read_capacity,
)
from kpart.cli._options import UnversionedKafkaVersion, check_kafka_version
from kpart.errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from kpart.cluster.load import BrokerLoad
    from kpart.cluster.model import ClusterModel

_MARKER = re.compile(rb'\s*\{\s*"format"\s*:\s*"kpart-cluster"')

_Current = Annotated[Path, typer.Option(
    "--current", help="--describe output of all topics, reassignment JSON or ZooKeeper topic "
    "node (with --topic); see docs/formats/current.md.", show_default=False)]
_Brokers = Annotated[str | None, typer.Option(
    "--brokers", help="Cluster brokers as ID[:RACK],... or A-B ranges (default: those in "
    "--current, no racks).", show_default=False)]
_Out = Annotated[Path | None, typer.Option(
    "--out", "-o", help="Write cluster.json here (left out: only print the summary).",
    show_default=False)]
_Json = Annotated[bool, typer.Option("--json", help="Print the per-broker summary as JSON.")]


def _check_out(out: Path, inputs: dict[str, Path | None]) -> None:
    """``--out`` may be written and replaces no file kpart did not write."""
    check_writable(out, "--out", inputs=dict(inputs))
    if out.exists():
        try:
            with out.open("rb") as f:
                head = f.read(256)
        except OSError:
            head = b""
        if not _MARKER.match(head):
            raise ConfigError(f"--out: {str(out)!r} exists and is not a cluster.json kpart "
                              "wrote: remove it or choose another --out")


def _share(used: float, capacity: float | None) -> str:
    if capacity is None:
        return "-"
    return f"{used / capacity:.0%}"


def _amount(value: float, unit: str) -> str:
    from kpart.report._format import human

    return human(value, unit)


def _rows(model: ClusterModel, load: BrokerLoad) -> list[dict[str, Any]]:
    rows = []
    for i, b in enumerate(model.brokers):
        cap = b.capacity
        rows.append({
            "broker": b.id, "rack": b.rack, "replicas": int(load.replicas[i]),
            "leaders": int(load.leaders[i]), "disk_bytes": float(load.disk_bytes[i]),
            "nw_in_bytes_per_s": float(load.network_in[i]),
            "nw_out_bytes_per_s": float(load.network_out[i]),
            "disk_capacity_bytes": None if cap is None else cap.disk_bytes,
            "nw_in_capacity_bytes_per_s": None if cap is None else cap.network_in,
            "nw_out_capacity_bytes_per_s": None if cap is None else cap.network_out,
            "unknown_loads": int(load.unknown[i]),
        })
    return rows


def _print(model: ClusterModel, rows: list[dict[str, Any]], out: Path | None) -> None:
    from rich.console import Console
    from rich.table import Table

    name = "cluster" if out is None else out.name
    table = Table(title=f"{name}: {len(model.brokers)} brokers, {len(model.topics)} topics, "
                        f"{model.num_partitions:,} partitions, "
                        f"{int(model.replication_factors().sum()):,} replicas")
    for col in ("broker", "rack", "replicas", "leaders", "disk", "disk use", "net in",
                "in use", "net out", "out use"):
        table.add_column(col, justify="right")
    for r in rows:
        disk, nin, nout = (float(r[k]) for k in ("disk_bytes", "nw_in_bytes_per_s",
                                                 "nw_out_bytes_per_s"))
        table.add_row(
            str(r["broker"]), str(r["rack"] or "-"), f"{r['replicas']:,}", f"{r['leaders']:,}",
            _amount(disk, "B"), _share(disk, r["disk_capacity_bytes"]),
            _amount(nin, "B/s"), _share(nin, r["nw_in_capacity_bytes_per_s"]),
            _amount(nout, "B/s"), _share(nout, r["nw_out_capacity_bytes_per_s"]),
        )
    console = Console(width=130)
    console.print(table)
    unknown = sum(int(r["unknown_loads"]) for r in rows)
    if unknown:
        console.print(f"{unknown:,} replicas have an unknown size or rate (counted as 0).")


def cluster_command(  # noqa: PLR0913
    current: _Current,
    out: _Out = None,
    sizes: SizesOption = None,
    capacity: CapacityOption = None,
    loads: LoadsOption = None,
    brokers: _Brokers = None,
    topic: TopicOption = None,
    as_json: _Json = False,
    partial: PartialOption = False,
    kafka_version: UnversionedKafkaVersion = None,
) -> None:
    """Write the cluster model (cluster.json) from a describe dump, sizes, capacities and loads."""
    from kpart.cli._progress import busy
    from kpart.cluster import broker_load, cluster_to_json

    check_kafka_version(kafka_version)

    inputs = input_paths(current=current, sizes=sizes, capacity=capacity, loads=loads)
    if out is not None:
        _check_out(out, inputs)
    config = read_capacity(capacity) if capacity is not None else None
    model = model_from_files(current, sizes=sizes, capacity=config, loads=loads,
                             brokers=brokers, topic=topic, partial=partial)
    if out is not None and model.offline is not None:
        from kpart._warnings import kpart_warn

        kpart_warn(f"--out: cluster.json does not record the {int((model.offline >= 0).sum())} "
                   "offline replicas of --current (its Offline: field): give the dump itself "
                   "to kpart outage as --current")
    if out is not None:
        with busy("writing cluster.json"):
            text = json.dumps(cluster_to_json(model), separators=(",", ":"),
                              allow_nan=False) + "\n"
            write_texts({out: text}, default_option="--out", inputs=inputs)
            del text
    rows = _rows(model, broker_load(model))
    if as_json:
        typer.echo(json.dumps({"brokers": [{k: (None if isinstance(v, float) and math.isnan(v)
                                                else v) for k, v in r.items()} for r in rows]},
                              indent=2))
        return
    _print(model, rows, out)


def register(app: typer.Typer) -> None:
    """Add ``kpart cluster`` to the ``kpart`` app."""
    app.command("cluster")(cluster_command)
