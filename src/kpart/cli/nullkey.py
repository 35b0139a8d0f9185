"""``kpart simulate``: run null-key partitioning strategies (or custom partitioners) over a
generated or given record stream and compare records, bytes and batches per partition, mean
batch fill and unevenness. The algorithms live in :mod:`kpart.producer.simulate`.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import typer

from kpart._files import check_writable, read_text, write_text
from kpart.cli._options import OutputAlias, either
from kpart.errors import ConfigError

_STRATEGY_HELP = (
    "Strategy to run (repeatable or comma-separated): legacy, round-robin, round-robin-fixed, "
    "random, sticky, uniform-sticky, builtin. Default: all (unless --partitioner is given)."
)


def _pairs(values: list[str], what: str, cast: Any) -> dict[int, Any]:
    """Parse ``ID=VALUE`` options into ``{int(ID): cast(VALUE)}``; the error names the value."""
    out: dict[int, Any] = {}
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


def _record_from_row(row: dict[str, Any], where: str) -> Any:
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


def read_records(path: Path) -> tuple[Any, ...]:
    """Records from a CSV file (header ``timestamp_ms,size[,key][,region][,partition]``) or a
    JSON Lines file (``.jsonl``/``.ndjson``: one object per line with the same fields)."""
    text = read_text(path, "--input", stdin=True)
    from kpart.limits import check_records

    check_records(text.count("\n"), str(path))  # an upper bound of its records, before parsing
    if path.suffix.lower() in (".jsonl", ".ndjson", ".json"):
        rows = []
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


def _format(results: list[Any]) -> str:
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


def simulate_command(
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
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
    output: Path | None = typer.Option(None, "--out", "-o", help="Also write JSON here."),  # noqa: B008
    output_alias: OutputAlias = None,
) -> None:
    """Simulate null-key partitioning strategies side by side over a record stream."""
    from kpart.producer.cluster import Cluster
    from kpart.producer.custom import load_partitioner
    from kpart.producer.simulate import (
        STRATEGIES,
        LatencyModel,
        ProducerConfig,
        generate_records,
        simulate,
    )

    output = either(output, output_alias, "--out", required=False)
    names = [s.strip() for item in strategy for s in item.split(",") if s.strip()]
    for name in names:
        if name not in STRATEGIES:
            raise ConfigError(f"unknown strategy {name!r}; known: {', '.join(STRATEGIES)}")
    if not names and not partitioner:
        names = list(STRATEGIES)
    if partitions < 1:
        raise ConfigError(f"number of partitions must be at least 1, got {partitions}")
    if brokers < 1:
        raise ConfigError(f"number of brokers must be at least 1, got {brokers}")
    from kpart.limits import check_brokers, check_partitions, check_records

    check_partitions(partitions, "--partitions")
    check_brokers(brokers, "--brokers")
    check_records(records, "--records")
    down = set(_int_list(unavailable, "--unavailable"))
    bad = sorted(p for p in down if not 0 <= p < partitions)
    if bad:
        raise ConfigError(f"--unavailable partition {bad[0]} is not in [0, {partitions})")
    racks = {b: r for b, r in _pairs(rack, "--rack", str).items()}
    leaders = [None if p in down else p % brokers for p in range(partitions)]
    cluster = Cluster.of(topic, leaders, racks={**dict.fromkeys(range(brokers)), **racks})
    cfg = ProducerConfig(
        batch_size=batch_size,
        linger_ms=linger_ms,
        adaptive_partitioning=adaptive,
        availability_timeout_ms=availability_timeout_ms,
        ignore_keys=ignore_keys,
        max_in_flight=max_in_flight,
    )
    latency = LatencyModel.of(latency_ms, _pairs(broker_latency, "--broker-latency", float))
    configs: dict[str, str] = {}
    for item in config:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"invalid --config {item!r}: expected KEY=VALUE")
        configs[key.strip()] = value
    if output is not None:
        check_writable(output, "--out", inputs={"--input": input_path})
    if input_path is not None:
        stream = read_records(input_path)
    else:
        stream = generate_records(
            records, rate, size, size_jitter=size_jitter, poisson=poisson, seed=seed
        )
    runs: list[tuple[Any, str]] = [(n, n) for n in names]
    runs += [(load_partitioner(spec, configs), spec) for spec in partitioner]
    results = [simulate(stream, s, cluster, cfg, latency, seed=seed, name=n) for s, n in runs]
    payload = json.dumps([r.to_dict() for r in results], indent=2) + "\n"
    if output is not None:
        write_text(output, payload, "--out")
    typer.echo(payload if as_json else _format(results), nl=not as_json)


def register(app: typer.Typer) -> None:
    """Add ``kpart simulate`` to the ``kpart`` app."""
    app.command("simulate")(simulate_command)
