"""``kpart simulate``: run null-key partitioning strategies (or custom partitioners) over a
generated or given record stream and compare records, bytes and batches per partition, mean
batch fill and unevenness. The algorithms live in :mod:`kpart.producer.simulate`.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import typer

from kpart._files import check_writable, read_text, write_text
from kpart.cli._options import OutputAlias, either
from kpart.errors import ConfigError

if TYPE_CHECKING:
    from kpart.producer.cluster import Cluster
    from kpart.producer.custom import Partitioner
    from kpart.producer.simulate import LatencyModel, ProducerConfig, Record, SimulationResult

T = TypeVar("T")

_STRATEGY_HELP = (
    "Strategy to run (repeatable or comma-separated): legacy, round-robin, round-robin-fixed, "
    "random, sticky, uniform-sticky, builtin, or default (the Java producer's own for "
    "--kafka-version). Default: all (unless --partitioner is given); with --kafka-version, "
    "default."
)


def _pairs(values: Sequence[str], what: str, cast: Callable[[str], T]) -> dict[int, T]:
    """Parse ``ID=VALUE`` options into ``{int(ID): cast(VALUE)}``; the error names the value."""
    out: dict[int, T] = {}
    for item in values:
        for part in item.split(","):
            if not part.strip():
                continue
            broker, sep, value = part.partition("=")
            try:
                if not sep:
                    raise ValueError
                out[int(broker)] = cast(value.strip())
            except ValueError:
                raise ConfigError(f"invalid {what} {part!r}: expected ID=VALUE") from None
    return out


def _int_list(value: str | None, what: str) -> list[int]:
    if not value:
        return []
    try:
        return [int(v) for v in value.split(",") if v.strip()]
    except ValueError:
        raise ConfigError(f"invalid {what} {value!r}: expected comma-separated integers") from None


def _record_from_row(row: dict[str, Any], where: str) -> Record:
    from kpart.producer.simulate import Record

    try:
        ts = float(row["timestamp_ms"])
        size = int(row["size"])
    except KeyError as e:
        raise ConfigError(f"{where}: missing column {e.args[0]!r}") from None
    except (TypeError, ValueError):
        raise ConfigError(
            f"{where}: timestamp_ms {row.get('timestamp_ms')!r} / size {row.get('size')!r} "
            "must be numbers"
        ) from None
    key = row.get("key")
    key_bytes = None if key in (None, "") else str(key).encode("utf-8")
    region = row.get("region")
    value = {"region": region} if region not in (None, "") else None
    part = row.get("partition")
    try:
        partition = None if part in (None, "") else int(part)
    except (TypeError, ValueError):
        raise ConfigError(f"{where}: partition {part!r} is not an integer") from None
    return Record(ts, size, key_bytes, value, partition)


def read_records(path: Path) -> tuple[Record, ...]:
    """Records from a CSV file (header ``timestamp_ms,size[,key][,region][,partition]``) or a
    JSON Lines file (``.jsonl``/``.ndjson``: one object per line with the same fields)."""
    text = read_text(path, "--input", stdin=True)
    from kpart.limits import check_records

    check_records(text.count("\n"), str(path))  # an upper bound of its records, before parsing
    if path.suffix.lower() in (".jsonl", ".ndjson", ".json"):
        rows: list[tuple[Any, str]] = []
        for n, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    rows.append((json.loads(line), f"{path}:{n}"))
                except json.JSONDecodeError as e:
                    raise ConfigError(f"{path}:{n}: invalid JSON ({e.msg})") from None
    else:
        reader = csv.DictReader(text.splitlines())
        rows = [(r, f"{path}:{n}") for n, r in enumerate(reader, 2)]
    for row, where in rows:
        if not isinstance(row, dict):
            raise ConfigError(f"{where}: expected an object, got {row!r}")
    return tuple(_record_from_row(r, w) for r, w in rows)


def _format(results: Sequence[SimulationResult]) -> str:
    head = (
        f"{'strategy':<22}{'records':>9}{'batches':>9}{'rec/batch':>10}{'fill':>8}"
        f"{'max/mean':>10}{'cv':>8}{'latency ms':>12}"
    )
    lines = [head, "-" * len(head)]
    for r in results:
        lines.append(
            f"{r.strategy:<22}{r.total_records:>9}{r.total_batches:>9}"
            f"{r.records_per_batch:>10.1f}{r.mean_batch_fill:>8.3f}"
            f"{r.records_max_over_mean:>10.2f}{r.records_cv:>8.3f}{r.mean_latency_ms:>12.1f}"
        )
    lines.append("")
    lines.append("per partition: records / bytes / batches")
    width = max(24, *(len(r.strategy) + 2 for r in results))
    lines.append(f"{'partition':>9}  " + "".join(f"{r.strategy:>{width}}" for r in results))
    for p in range(len(results[0].records)):
        cells = "".join(
            f"{f'{r.records[p]} / {r.bytes[p]} / {r.batches[p]}':>{width}}" for r in results
        )
        lines.append(f"{p:>9}  {cells}")
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class ClusterOptions:
    """``--topic``, ``--partitions``, ``--brokers``, ``--unavailable``, ``--rack``: one topic whose
    partition ``i`` is led by broker ``i % brokers`` (none for an unavailable partition)."""

    topic: str
    partitions: int
    brokers: int
    unavailable: str | None
    racks: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StreamOptions:
    """``--input`` (a records file) or the generated stream: ``--records``, ``--rate``,
    ``--size``, ``--size-jitter``, ``--poisson``; ``--seed`` also seeds the strategies."""

    input_path: Path | None
    records: int
    rate: float
    size: int
    size_jitter: float
    poisson: bool
    seed: int | None


@dataclass(frozen=True, slots=True)
class ProducerOptions:
    """The producer settings (Kafka's ``batch.size``, ``linger.ms``, ...) and the brokers'
    request latency (``--latency-ms``, ``--broker-latency BROKER=MS``)."""

    batch_size: int
    linger_ms: float
    adaptive: bool
    availability_timeout_ms: float
    ignore_keys: bool
    max_in_flight: int
    latency_ms: float
    broker_latency: tuple[str, ...]
    rack_aware: bool = False
    client_rack: str | None = None


@dataclass(frozen=True, slots=True)
class SimulateOptions:
    """Every option of ``kpart simulate``, as given (parsed and checked by :func:`run_simulate`):
    the strategies and custom partitioners (``--strategy``, ``--partitioner``, ``--config``),
    the cluster, the record stream, the producer, and the output (``--json``, ``--out``)."""

    strategies: tuple[str, ...]
    partitioners: tuple[str, ...]
    configs: tuple[str, ...]
    cluster: ClusterOptions
    stream: StreamOptions
    producer: ProducerOptions
    as_json: bool
    output: Path | None
    kafka_version: str | None = None


def simulate_command(  # noqa: PLR0913
    strategy: list[str] = typer.Option([], "--strategy", "-s", help=_STRATEGY_HELP),  # noqa: B008
    partitioner: list[str] = typer.Option(  # noqa: B008
        [], "--partitioner", help="Custom partitioner by import path, module:Class (repeatable)."
    ),
    config: list[str] = typer.Option(  # noqa: B008
        [], "--config", "-c", help="KEY=VALUE passed to custom partitioners' configure()."
    ),
    input_path: Path | None = typer.Option(  # noqa: B008
        None, "--input", "-i", help="Records file: CSV or JSON Lines (timestamp_ms,size,...)."
    ),
    records: int = typer.Option(10000, "--records", "-n", help="Generated records."),
    rate: float = typer.Option(1000.0, "--rate", help="Generated records per second."),
    size: int = typer.Option(100, "--size", help="Generated record size (bytes)."),
    size_jitter: float = typer.Option(0.0, "--size-jitter", help="Size spread, fraction."),
    poisson: bool = typer.Option(False, "--poisson", help="Poisson arrivals."),
    topic: str = typer.Option("topic", "--topic", help="Topic name."),
    partitions: int = typer.Option(6, "--partitions", "-p", help="Number of partitions."),
    brokers: int = typer.Option(3, "--brokers", help="Brokers; partition i led by i % brokers."),
    unavailable: str | None = typer.Option(
        None, "--unavailable", help="Comma-separated partitions with no leader."
    ),
    rack: list[str] = typer.Option([], "--rack", help="BROKER=RACK (repeatable)."),  # noqa: B008
    batch_size: int = typer.Option(16384, "--batch-size", help="batch.size (bytes)."),
    linger_ms: float = typer.Option(0.0, "--linger-ms", help="linger.ms."),
    adaptive: bool = typer.Option(
        True, "--adaptive/--no-adaptive", help="partitioner.adaptive.partitioning.enable."
    ),
    availability_timeout_ms: float = typer.Option(
        0.0, "--availability-timeout-ms", help="partitioner.availability.timeout.ms."
    ),
    ignore_keys: bool = typer.Option(False, "--ignore-keys", help="partitioner.ignore.keys."),
    max_in_flight: int = typer.Option(
        5, "--max-in-flight", help="max.in.flight.requests.per.connection."
    ),
    latency_ms: float = typer.Option(1.0, "--latency-ms", help="Request latency of brokers."),
    broker_latency: list[str] = typer.Option(  # noqa: B008
        [], "--broker-latency", help="BROKER=MS latency override (repeatable)."
    ),
    seed: int | None = typer.Option(None, "--seed", help="Seed (default: random like Kafka)."),
    kafka_version: str | None = typer.Option(
        None, "--kafka-version", show_default=False,
        help="The Java client's Kafka version: --strategy default becomes its own null-key "
        "strategy, and a strategy it lacks is an error (see docs/versions.md). Default: no "
        "check; default is 4.3's builtin."),
    rack_aware: bool = typer.Option(
        False, "--rack-aware", help="partitioner.rack.aware=true (KIP-1123: --kafka-version "
        "4.4 and --client-rack)."),
    client_rack: str | None = typer.Option(
        None, "--client-rack", help="client.rack: the producer's rack (with --rack-aware)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
    output: Path | None = typer.Option(None, "--out", "-o", help="Also write JSON here."),  # noqa: B008
    output_alias: OutputAlias = None,
) -> None:
    """Simulate null-key partitioning strategies side by side over a record stream."""
    run_simulate(SimulateOptions(
        strategies=tuple(strategy),
        partitioners=tuple(partitioner),
        configs=tuple(config),
        cluster=ClusterOptions(topic, partitions, brokers, unavailable, tuple(rack)),
        stream=StreamOptions(input_path, records, rate, size, size_jitter, poisson, seed),
        producer=ProducerOptions(batch_size, linger_ms, adaptive, availability_timeout_ms,
                                 ignore_keys, max_in_flight, latency_ms, tuple(broker_latency),
                                 rack_aware, client_rack),
        as_json=as_json,
        output=either(output, output_alias, "--out", required=False),
        kafka_version=kafka_version,
    ))


def _strategy_names(strategies: Sequence[str], partitioners: Sequence[str],
                    kafka_version: str | None = None) -> list[str]:
    """The ``--strategy`` names (comma-separated or repeated); when neither a strategy nor a
    ``--partitioner`` is given, all of them, or ``default`` with ``--kafka-version``. With
    ``--kafka-version`` each must exist in that version (the error names it)."""
    from kpart.producer.null_key_versions import DEFAULT_STRATEGY, resolve_strategy
    from kpart.producer.simulate import STRATEGIES

    known = [*STRATEGIES, DEFAULT_STRATEGY]
    names = [s.strip() for item in strategies for s in item.split(",") if s.strip()]
    for name in names:
        if name not in known:
            raise ConfigError(f"unknown strategy {name!r}; known: {', '.join(known)}")
    if not names and not partitioners:
        names = [DEFAULT_STRATEGY] if kafka_version is not None else list(STRATEGIES)
    if kafka_version is not None:
        for name in names:
            resolve_strategy(name, kafka_version)
    return names


def _check_sizes(options: ClusterOptions, records: int) -> None:
    """Partition, broker and record counts: positive, and within kpart's limits."""
    from kpart.limits import check_brokers, check_partitions, check_records

    if options.partitions < 1:
        raise ConfigError(f"number of partitions must be at least 1, got {options.partitions}")
    if options.brokers < 1:
        raise ConfigError(f"number of brokers must be at least 1, got {options.brokers}")
    check_partitions(options.partitions, "--partitions")
    check_brokers(options.brokers, "--brokers")
    check_records(records, "--records")


def _cluster(options: ClusterOptions) -> Cluster:
    """The topic's cluster: partition ``i`` led by broker ``i % brokers`` unless unavailable."""
    from kpart.producer.cluster import Cluster

    partitions, brokers = options.partitions, options.brokers
    down = set(_int_list(options.unavailable, "--unavailable"))
    bad = sorted(p for p in down if not 0 <= p < partitions)
    if bad:
        raise ConfigError(f"--unavailable partition {bad[0]} is not in [0, {partitions})")
    racks = _pairs(options.racks, "--rack", str)
    leaders = [None if p in down else p % brokers for p in range(partitions)]
    return Cluster.of(options.topic, leaders, racks={**dict.fromkeys(range(brokers)), **racks})


def _producer(options: ProducerOptions, names: Sequence[str] = (),
              kafka_version: str | None = None) -> tuple[ProducerConfig, LatencyModel]:
    """Kafka's producer settings (checked with Kafka's messages) and the latency model. With
    ``--kafka-version``, ``--batch-size 0`` is Kafka's "no batching" (one-record batches) or,
    for the built-in partitioner of 3.3.0/3.3.1, an error (KAFKA-14303); ``--rack-aware``
    needs a version with KIP-1123 and ``--client-rack``."""
    from kpart.producer.null_key_versions import (
        check_rack_aware,
        null_key_batch_size,
        resolve_strategy,
    )
    from kpart.producer.simulate import LatencyModel, ProducerConfig

    batch_size = options.batch_size
    if kafka_version is not None:
        for name in names:
            batch_size = null_key_batch_size(options.batch_size,
                                             resolve_strategy(name, kafka_version), kafka_version)
    if options.rack_aware or options.client_rack is not None:
        check_rack_aware(options.rack_aware, options.client_rack, kafka_version)
    config = ProducerConfig(
        batch_size=batch_size,
        linger_ms=options.linger_ms,
        adaptive_partitioning=options.adaptive,
        availability_timeout_ms=options.availability_timeout_ms,
        ignore_keys=options.ignore_keys,
        max_in_flight=options.max_in_flight,
        rack_aware=options.rack_aware,
        client_rack=options.client_rack,
    )
    per_broker = _pairs(options.broker_latency, "--broker-latency", float)
    return config, LatencyModel.of(options.latency_ms, per_broker)


def _partitioner_configs(items: Sequence[str]) -> dict[str, str]:
    """``--config KEY=VALUE`` items, for custom partitioners' ``configure()``."""
    configs: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"invalid --config {item!r}: expected KEY=VALUE")
        configs[key.strip()] = value
    return configs


def _stream(options: StreamOptions) -> tuple[Record, ...]:
    """The records: read from ``--input``, or generated."""
    from kpart.producer.simulate import generate_records

    if options.input_path is not None:
        return read_records(options.input_path)
    return generate_records(
        options.records, options.rate, options.size, size_jitter=options.size_jitter,
        poisson=options.poisson, seed=options.seed,
    )


def run_simulate(options: SimulateOptions) -> None:
    """Check every option (errors name the flag), run each strategy and custom partitioner over
    the same stream and print the table (or JSON); ``--out`` also gets the JSON."""
    from kpart.producer.custom import load_partitioner
    from kpart.producer.simulate import simulate

    version = options.kafka_version
    names = _strategy_names(options.strategies, options.partitioners, version)
    _check_sizes(options.cluster, options.stream.records)
    cluster = _cluster(options.cluster)
    config, latency = _producer(options.producer, names, version)
    configs = _partitioner_configs(options.configs)
    output = options.output
    if output is not None:
        check_writable(output, "--out", inputs={"--input": options.stream.input_path})
    stream = _stream(options.stream)
    runs: list[tuple[str | Partitioner, str]] = [(n, n) for n in names]
    runs += [(load_partitioner(spec, configs), spec) for spec in options.partitioners]
    seed = options.stream.seed
    results = [simulate(stream, s, cluster, config, latency, seed=seed,
                        name=None if s == "default" else n, kafka_version=version)
               for s, n in runs]
    payload = json.dumps([r.to_dict() for r in results], indent=2) + "\n"
    if output is not None:
        write_text(output, payload, "--out")
    typer.echo(payload if options.as_json else _format(results), nl=not options.as_json)


def register(app: typer.Typer) -> None:
    """Add ``kpart simulate`` to the ``kpart`` app."""
    app.command("simulate")(simulate_command)
