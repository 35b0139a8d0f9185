"""``kpart place``: replica placement from the command line (AdminUtils or the KRaft striped
placer), printed in the formats operators know (``--describe``, ``--replica-assignment``,
reassignment JSON, ZooKeeper node), or written as a table (``--format parquet|arrow``, one row
per partition: :meth:`~kpart.placement.spec.TopicAssignment.to_arrow`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from kpart._files import check_writable, write_table, write_text
from kpart.cli._flags import flag_for
from kpart.cli._options import BINARY_FORMATS, OutputAlias, either, output_format
from kpart.errors import ConfigError, KpartError

if TYPE_CHECKING:  # pragma: no cover
    from kpart.placement.spec import Broker, TopicAssignment

_PLACERS = ("adminutils", "striped")


def _id_list(value: str, option: str) -> list[int]:
    ids: list[int] = []
    for token in value.split(","):
        t = token.strip()
        if not t.isdigit() or not t.isascii():
            raise ConfigError(f"Invalid {option} value {t!r} in {value!r}: broker ids are "
                              "integers >= 0 separated by commas.")
        ids.append(int(t))
    return ids


def _brokers(brokers: str, racks: str | None, fenced: str | None) -> list[Broker]:
    from kpart.placement.spec import Broker

    ids = _id_list(brokers, "--brokers")
    from kpart.limits import check_brokers

    check_brokers(len(ids), "--brokers")
    dup = next((b for i, b in enumerate(ids) if b in ids[:i]), None)
    if dup is not None:
        raise ConfigError(f"Duplicate broker id {dup} in --brokers {brokers!r}.")
    rack_of: list[str | None] = [None] * len(ids)
    if racks is not None:
        names = [r.strip() for r in racks.split(",")]
        if len(names) != len(ids):
            raise ConfigError(f"--racks {racks!r} names {len(names)} rack(s) for {len(ids)} "
                              f"broker(s) in --brokers {brokers!r}; give one per broker "
                              "(empty for a broker without rack).")
        rack_of = [n or None for n in names]
    fenced_ids = set(_id_list(fenced, "--fenced")) if fenced else set()
    unknown = sorted(fenced_ids - set(ids))
    if unknown:
        raise ConfigError(f"--fenced names broker {unknown[0]}, which is not in --brokers "
                          f"{brokers!r}.")
    return [Broker(b, r, b in fenced_ids) for b, r in zip(ids, rack_of, strict=True)]


def _write(text: str, output: Path | None) -> None:
    if output is None:
        typer.echo(text, nl=False)
        return
    write_text(output, text, "--out")


def place(  # noqa: PLR0913
    brokers: Annotated[str, typer.Option(help="Broker ids in Kafka's order, e.g. 0,1,2.")],
    partitions: Annotated[int, typer.Option("--partitions", "-p", help="Number of partitions.")],
    replication_factor: Annotated[int, typer.Option("--replication-factor",
                                                    help="Replicas per partition.")],
    racks: Annotated[str | None, typer.Option(
        help="broker.rack of each broker, same order as --brokers (empty = no rack).")] = None,
    start_index: Annotated[int | None, typer.Option(
        "--start-index", help="AdminUtils fixed start index (and replica shift).")] = None,
    seed: Annotated[int | None, typer.Option(
        help="java.util.Random seed (Java long) for the random choices.",
        min=-(2**63), max=2**63 - 1)] = None,
    disable_rack_aware: Annotated[bool, typer.Option(
        "--disable-rack-aware", help="Ignore racks (kafka-topics.sh --disable-rack-aware).")
    ] = False,
    placer: Annotated[str, typer.Option(
        help="adminutils (ZooKeeper-era kafka-topics.sh) or striped (KRaft controller).")
    ] = "adminutils",
    topic: Annotated[str, typer.Option(help="Topic name shown in the output.")] = "topic",
    fenced: Annotated[str | None, typer.Option(
        help="Fenced brokers (striped placer: never leaders), e.g. 3,4.")] = None,
    cordoned: Annotated[str | None, typer.Option(
        help="Brokers whose log dirs are all cordoned (KIP-1066, Kafka 4.3+; striped placer): "
        "not usable for placement, e.g. 3,5.")] = None,
    kafka_version: Annotated[str | None, typer.Option(
        "--kafka-version", help="The brokers' Kafka version (striped placer: 3.0 and later; "
        "adminutils: up to 4.0 when given; --cordoned: 4.3 and later) [default: 4.3].",
        show_default=False)] = None,
    fmt: Annotated[str | None, typer.Option(
        "--format", show_default=False,
        help="describe (default), replica-assignment, json (reassignment), zk, or parquet or "
        "arrow (one row per partition, written to --out; docs/replica-placement.md). Left "
        "out: from --out's name (.parquet, .arrow), else describe.")
    ] = None,
    output: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Write here (atomically) instead of stdout.")] = None,
    output_alias: OutputAlias = None,
) -> None:
    """Place a topic's replicas exactly as Kafka would and print the assignment."""
    from kpart.placement.formats import FORMATS, format_assignment

    output = either(output, output_alias, "--out", required=False)
    fmt = output_format(fmt, output, (*FORMATS, *BINARY_FORMATS), "describe")
    if placer not in _PLACERS:
        raise ConfigError(f"Invalid --placer {placer!r}: expected adminutils or striped.")
    from kpart.placement.cordon import cordoned_brokers
    from kpart.versions import behaviour
    from kpart.versions import kafka_version as parse_version

    parse_version(kafka_version)
    if placer == "striped":
        behaviour("striped_placer", kafka_version)
    elif kafka_version is not None:  # AdminUtils is kpart place's default placer, any version
        behaviour("adminutils_placer", kafka_version)
    if placer == "adminutils" and cordoned:
        raise ConfigError(f"--cordoned {cordoned!r} applies to --placer striped only (the KRaft "
                          "controller skips cordoned brokers; AdminUtils has no cordoning).")
    cordoned_ids = cordoned_brokers(cordoned, kafka_version)
    if not topic:
        raise ConfigError("Invalid --topic '': a topic name must not be empty.")
    from kpart.limits import check_placement

    check_placement(partitions, replication_factor, partitions_what="--partitions",
                    rf_what="--replication-factor")
    members = _brokers(brokers, racks, fenced)
    if cordoned_ids:
        from kpart.placement.cordon import usable_brokers

        members = usable_brokers(members, cordoned_ids)
    if output is not None:
        check_writable(output, "--out")
    try:
        assignment = _place(members, placer, partitions, replication_factor, start_index, seed,
                            disable_rack_aware, fenced, kafka_version)
    except KpartError as e:  # Kafka's message (naming our flags), prefixed with the values
        raise type(e)(f"cannot place {partitions} partition(s) with replication factor "
                      f"{replication_factor} on brokers {brokers}: "
                      f"{e.naming(flag_for(e.parameter))}") from None
    if fmt in BINARY_FORMATS:
        assert output is not None  # output_format refused a binary format without --out
        write_table(output, assignment.to_arrow(topic), fmt)
        return
    _write(format_assignment(assignment.to_dict(), fmt, topic=topic), output)


def _place(members: list[Broker], placer: str, partitions: int, replication_factor: int,  # noqa: PLR0913
           start_index: int | None, seed: int | None, disable_rack_aware: bool,
           fenced: str | None, kafka_version: str | None) -> TopicAssignment:
    from kpart._java.random import JavaRandom
    from kpart.placement.admin_utils import AdminUtilsReplicaPlacer
    from kpart.placement.spec import PlacementSpec, ReplicaPlacer, StaticCluster
    from kpart.placement.striped_replica_placer import StripedReplicaPlacer

    chosen: ReplicaPlacer
    if placer == "adminutils":
        if fenced:
            raise ConfigError(f"--fenced {fenced!r} applies to --placer striped only "
                              "(AdminUtils places on the brokers it is given).")
        if start_index is not None and start_index < 0:
            raise ConfigError(f"Invalid --start-index {start_index}: must be >= 0.")
        chosen = AdminUtilsReplicaPlacer(JavaRandom(seed))
    else:
        if start_index is not None:
            raise ConfigError(f"--start-index {start_index} applies to --placer adminutils "
                              "only (the striped placer draws its offsets from --seed).")
        chosen = StripedReplicaPlacer(JavaRandom(seed), kafka_version)
    cluster = StaticCluster(tuple(members))
    if disable_rack_aware:
        cluster = cluster.without_racks()
    spec = PlacementSpec(partitions, replication_factor, fixed_start_index=start_index)
    return chosen.place(spec, cluster)


def register(app: typer.Typer) -> None:
    """Add ``kpart place`` to the ``kpart`` app."""
    app.command("place")(place)
