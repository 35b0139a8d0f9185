"""``kpart partition`` (key -> partition, as any client computes it) and ``kpart partitioners``
(the client partitioner ids). Parsing and printing only; the algorithms live in
:mod:`kpart.producer`."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from kpart.cli._options import SERIALIZER_HELP, PartitionsAlias, either
from kpart.errors import ConfigError, InvalidPartitionsError


def _int_option(value: str, option: str, error: type[ConfigError] | type[InvalidPartitionsError]):
    try:
        return int(value.strip(), 10)
    except ValueError:
        raise error(f"{option} must be an integer, got {value!r}") from None


def _key_bytes(key: str, serializer: str) -> bytes:
    from kpart.producer.serializers import serialize_key

    if serializer in ("bytes", "raw", "ByteArraySerializer"):
        return os.fsencode(key)  # the argument's bytes as the OS passed them
    value = serialize_key(key, serializer)
    assert value is not None
    return value


def partition(
    keys: Annotated[list[str], typer.Argument(
        help="Keys, serialized with --serializer before hashing.", show_default=False)],
    partitions: Annotated[str | None, typer.Option(
        "--partitions", "-p", help="The topic's partition count (> 0; required).",
        show_default=False)
    ] = None,
    serializer: Annotated[str, typer.Option(help=SERIALIZER_HELP)] = "string",
    partitioner: Annotated[str, typer.Option(
        help="Client partitioner id (see `kpart partitioners`).")] = "java:default",
    seed: Annotated[str | None, typer.Option(
        help="Seed for partitioners that pick at random (e.g. librdkafka:random).")] = None,
    partitions_alias: PartitionsAlias = None,
) -> None:
    """Print the partition of each KEY: one line per key, KEY<TAB>PARTITION."""
    from kpart.producer.builtin import partition_for_key
    from kpart.producer.clients import check_num_partitions, get_partitioner, rng_from

    partitions = either(partitions, partitions_alias, "--partitions")
    n = check_num_partitions(_int_option(partitions, "--partitions", InvalidPartitionsError))
    get_partitioner(partitioner)
    rng = rng_from(None if seed is None else _int_option(seed, "--seed", ConfigError))
    lines = []
    for key in keys:  # everything is computed before anything is printed
        p = partition_for_key(_key_bytes(key, serializer), n, partitioner, seed=rng)
        lines.append(f"{key}\t{p}")
    typer.echo("\n".join(lines))


def partitioners() -> None:
    """List the client partitioner ids accepted by --partitioner, with a description."""
    from kpart.producer.clients import PARTITIONERS

    width = max(len(pid) for pid in PARTITIONERS)
    typer.echo("\n".join(f"{pid:<{width}}  {p.description}" for pid, p in PARTITIONERS.items()))


def register(app: typer.Typer) -> None:
    """Add ``partition`` and ``partitioners`` to the ``kpart`` app."""
    app.command("partition")(partition)
    app.command("partitioners")(partitioners)
