"""The cluster model from the command line's files: one reader for ``kpart cluster``,
``kpart outage`` and ``kpart plan`` (load-aware mode).

- :func:`model_from_files`: ``--current`` (a ``kafka-topics.sh --describe`` dump, a
  reassignment JSON or a ZooKeeper topic node with ``--topic``), ``--sizes`` (a
  ``kafka-log-dirs.sh`` JSON), ``--capacity`` (Cruise Control's ``capacity.json``), ``--loads``
  (rates CSVs or ``kpart report`` outputs) and ``--brokers`` (``ID[:RACK],...``), through
  :func:`kpart.cluster.from_files.cluster_from_files`;
- :func:`read_snapshot`: a ``cluster.json`` given as ``--snapshot``
  (:func:`kpart.cluster.cluster_from_json`);
- :func:`input_paths`: the ``{option: path}`` of these inputs, which no output may overwrite.

Errors: :class:`~kpart.errors.ConfigError`, one line naming the option and the first bad
line, field, broker or partition.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from kpart._files import read_text
from kpart.errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from kpart.cluster.capacity import CapacityConfig
    from kpart.cluster.model import ClusterModel
    from kpart.cluster.rates import PartitionLoads
    from kpart.placement.spec import Broker

__all__ = ["CapacityOption", "LoadsOption", "PartialOption", "SizesOption", "SnapshotOption",
           "TopicOption",
           "input_paths", "model_from_files",
           "parse_broker_spec",
           "read_capacity", "read_loads", "read_snapshot", "with_capacity"]

CapacityOption = Annotated[Path | None, typer.Option(
    "--capacity", help="Broker capacities: Cruise Control's capacity.json (DISK in MB, NW_IN/"
    "NW_OUT in KB/s, brokerId -1 the default); see docs/cluster.md.", show_default=False)]
LoadsOption = Annotated[list[Path] | None, typer.Option(
    "--loads", help="Per-partition loads: a CSV topic,partition,bytes_in_per_s,bytes_out_per_s,"
    "messages_in_per_s, or a kpart report directory (records, bytes); repeatable.",
    show_default=False)]
SizesOption = Annotated[Path | None, typer.Option(
    "--sizes", help="Partition sizes: kafka-log-dirs.sh JSON (docs/formats/sizes.md).",
    show_default=False)]
TopicOption = Annotated[str | None, typer.Option(
    "--topic", help="Topic name of a ZooKeeper topic node given as --current (the node has "
    "none).", show_default=False)]
PartialOption = Annotated[bool, typer.Option(
    "--partial", help="Read a --describe dump that is not the whole cluster (a "
    "--under-replicated-partitions or --unavailable-partitions dump, or topics with fewer "
    "partition lines than their PartitionCount); refused without it.")]
SnapshotOption = Annotated[Path | None, typer.Option(
    "--snapshot", help="cluster.json of the cluster (docs/outage.md).", show_default=False)]


def parse_broker_spec(text: str | None, what: str) -> list[Broker]:
    """``"0:r1,1:r1,2-5"`` → ``[Broker(0, 'r1'), Broker(1, 'r1'), Broker(2), ...]``."""
    from kpart.placement.spec import Broker

    if text is None:
        return []
    out: list[Broker] = []
    for item in (s.strip() for s in text.split(",")):
        if not item:
            continue
        ident, _, rack = item.partition(":")
        lo, dash, hi = ident.partition("-")
        try:
            ids = range(int(lo), int(hi) + 1) if dash else [int(ident)]
            if dash and int(hi) < int(lo):
                raise ValueError
        except ValueError:
            raise ConfigError(f"Invalid broker {item!r} in {what}: expected ID[:RACK]") from None
        from kpart.limits import check_brokers

        check_brokers(len(out) + len(ids), what)  # before a range like 0-2000000000 expands
        for b in ids:
            out.append(Broker(b, rack or None))
    return out


def input_paths(*, current: Path | None = None, sizes: Path | None = None,
                capacity: Path | None = None, loads: Sequence[Path] | None = None,
                snapshot: Path | None = None) -> dict[str, Path | None]:
    """``{option: path}`` of the cluster's input files (``--loads #1``, ``#2``, ... for the
    repeated option): what :func:`kpart._files.check_writable` must never overwrite."""
    inputs: dict[str, Path | None] = {"--current": current, "--sizes": sizes,
                                      "--capacity": capacity, "--snapshot": snapshot}
    for i, path in enumerate(loads or []):  # a report directory: the file read is in it
        inputs[f"--loads #{i + 1}"] = path / "summary.json" if path.is_dir() else path
    return inputs


def read_loads(path: Path) -> PartitionLoads:
    """A kpart report (its directory, or a ``.json`` file: its ``summary.json``), else a rates
    CSV: chosen by what the path is, never by guessing from the content."""
    return loads_parser(path)()


def loads_parser(path: Path) -> Callable[[], PartitionLoads]:
    """:func:`read_loads` in two steps: the file is read now (an unreadable one is refused
    here), its parser returned to be called later (beside the dump, in
    :func:`~kpart.cluster.from_files.cluster_from_files`' worker thread)."""
    from kpart.cluster.rates import parse_rates_csv, parse_report_loads

    if path.is_dir():
        text, parse = read_text(path / "summary.json", "--loads"), parse_report_loads
    elif path.suffix.lower() == ".json":
        text, parse = read_text(path, "--loads"), parse_report_loads
    else:
        text, parse = read_text(path, "--loads"), parse_rates_csv
    return lambda: parse(text)


def read_capacity(path: Path) -> CapacityConfig:
    """The ``capacity.json`` given as ``--capacity`` (:func:`kpart.cluster.capacity.
    parse_capacity_json`)."""
    from kpart.cluster.capacity import parse_capacity_json

    return parse_capacity_json(read_text(path, "--capacity"))


def model_from_files(  # noqa: PLR0913
    current: Path,
    *,
    sizes: Path | None = None,
    capacity: CapacityConfig | None = None,
    loads: Sequence[Path] | None = None,
    brokers: str | None = None,
    topic: str | None = None,
    partial: bool = False,
) -> ClusterModel:
    """The model of the files (see the module docstring; ``capacity`` as
    :func:`read_capacity` read it; ``partial``: ``--partial``, a dump that is not the whole
    cluster), read in the order ``--current``, ``--sizes``, ``--loads``, ``--brokers``; a
    spinner on a terminal while the model is built."""
    from kpart.cli._progress import busy
    from kpart.cluster.from_files import cluster_from_files

    current_text = read_text(current, "--current", stdin=True)
    sizes_text = read_text(sizes, "--sizes") if sizes is not None else None
    tables = [loads_parser(p) for p in loads or []]  # read now, parsed beside the dump
    cluster = parse_broker_spec(brokers, "--brokers") or None
    with busy("loading the cluster"):
        model = cluster_from_files(current_text, topic=topic, sizes=sizes_text, capacity=capacity,
                                   loads=tables, brokers=cluster, partial=partial)
        del current_text, sizes_text
    return model


def read_snapshot(path: Path) -> ClusterModel:
    """The model of a ``cluster.json`` (``--snapshot``)."""
    from kpart.cluster import cluster_from_json

    text = read_text(path, "--snapshot")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(f"--snapshot: not JSON ({e.msg} at line {e.lineno})") from None
    return cluster_from_json(doc)


def with_capacity(model: ClusterModel, capacity: CapacityConfig) -> ClusterModel:
    """``model`` with every broker's capacity from ``capacity`` (each broker its own entry,
    else the default); a snapshot often has none. Errors as
    :func:`kpart.cluster.capacity.capacities_for` (a broker without a capacity; entries for
    brokers the cluster lacks are unused)."""
    from dataclasses import replace

    from kpart.cluster.capacity import capacities_for

    caps = capacities_for(capacity, [b.id for b in model.brokers])
    return replace(model, brokers=tuple(replace(b, capacity=caps[b.id])
                                        for b in model.brokers))
