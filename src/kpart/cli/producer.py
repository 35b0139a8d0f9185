"""``kpart partition`` (key -> partition, as any client computes it) and ``kpart partitioners``
(the client partitioner ids). Parsing and printing only; the algorithms live in
:mod:`kpart.producer`."""

from __future__ import annotations

from typing import Annotated

import typer

from kpart.cli._options import SERIALIZER_HELP, PartitionsAlias, either
from kpart.errors import ConfigError, InvalidPartitionsError


def _int_option(
    value: str, option: str, error: type[ConfigError] | type[InvalidPartitionsError]
) -> int:
    try:
        return int(value.strip(), 10)
    except ValueError:
        raise error(f"{option} must be an integer, got {value!r}") from None


def _key_bytes(key: str, serializer: str) -> bytes:
    from kpart.cli._argv_keys import raw_key, string_key
    from kpart.producer.serializers import _canonical, serialize_key

    name = _canonical(serializer)
    if name == "bytes":
        return raw_key(key)  # the argument's bytes as the OS passed them
    if name == "string":  # never hash '?' for a byte that is not UTF-8
        key = string_key(key, "KEY")
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
    kafka_version: Annotated[str | None, typer.Option(
        "--kafka-version", show_default=False,
        help="The Java client's Kafka version (java:default only). The key rule is "
        "toPositive(murmur2(key)) % n in every version kpart knows (rule key_partitioner), "
        "so the answer does not change; the version is checked. Default: 4.3.")] = None,
    partitions_alias: PartitionsAlias = None,
) -> None:
    """Print the partition of each KEY: one line per key, KEY<TAB>PARTITION."""
    from kpart.producer.builtin import partition_for_key
    from kpart.producer.clients import check_num_partitions, get_partitioner, rng_from
    from kpart.producer.null_key_versions import key_rule_of

    partitions = either(partitions, partitions_alias, "--partitions")
    n = check_num_partitions(_int_option(partitions, "--partitions", InvalidPartitionsError))
    key_rule_of(get_partitioner(partitioner).id, kafka_version)
    rng = rng_from(None if seed is None else _int_option(seed, "--seed", ConfigError))
    lines = []
    for key in keys:  # everything is computed before anything is printed
        p = partition_for_key(_key_bytes(key, serializer), n, partitioner, seed=rng)
        lines.append(f"{key}\t{p}")
    text = "\n".join(lines)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a --serializer bytes key that is not UTF-8: echo its bytes
        from kpart.cli._argv_keys import raw_key

        typer.echo(b"\n".join(raw_key(line) for line in lines))
        return
    typer.echo(text)


def partitioners(
    kafka_version: Annotated[str | None, typer.Option(
        "--kafka-version", show_default=False,
        help="Describe the Java producer of this Kafka version: its strategy for records "
        "without a key (rule null_key_partitioner; legacy round robin, KIP-480 sticky, KIP-794 "
        "built-in). Default: every version, in one line.")] = None,
) -> None:
    """List the client partitioner ids accepted by --partitioner, with a description."""
    from kpart.producer.clients import PARTITIONERS

    described = {pid: p.description for pid, p in PARTITIONERS.items()}
    if kafka_version is not None:
        from kpart.producer.null_key_versions import java_null_key_strategy, kafka_version_of

        v = kafka_version_of(kafka_version)
        described["java:default"] = (f"Java producer {v}: murmur2; null key -> "
                                     f"{java_null_key_strategy(v)} (kpart simulate's name)")
    width = max(len(pid) for pid in described)
    typer.echo("\n".join(f"{pid:<{width}}  {d}" for pid, d in described.items()))


def register(app: typer.Typer) -> None:
    """Add ``partition`` and ``partitioners`` to the ``kpart`` app."""
    app.command("partition")(partition)
    app.command("partitioners")(partitioners)
