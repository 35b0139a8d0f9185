"""Null-key partitioning strategies as deterministic simulations of Kafka's producer
(``KafkaProducer.doSend`` + ``RecordAccumulator`` + ``Sender``) over a record stream.

``simulate(records, strategy, cluster, config, latency, seed)`` replays timestamped records
(sizes in bytes) through one producer writing one topic and reports, per partition, records,
bytes and batches, the mean batch fill (bytes / ``batch.size``) and how uneven the load is.
The same inputs and seed always give the same result.

Strategies (how the producer of that Kafka version sends a record without a partition):

============== =========================================== ======================================
name           Kafka class (versions)                      producer flow
============== =========================================== ======================================
legacy         DefaultPartitioner (0.8–2.3)                partition once
round-robin    RoundRobinPartitioner (2.4–3.9.0)           2.4+: a record that needs a new batch
round-robin-   RoundRobinPartitioner with KAFKA-17632      is partitioned again after
fixed          (3.9.2, 4.0+)                               ``onNewBatch`` (``abortOnNewBatch``)
random         seed 004's random partitioner (custom)      same as above
sticky         DefaultPartitioner + StickyPartitionCache   same as above
               (2.4–3.2, KIP-480)
uniform-sticky UniformStickyPartitioner (2.4+, KIP-480)    same as above
builtin        BuiltInPartitioner (3.3+, KIP-794)          no partitioner: the accumulator picks
============== =========================================== ======================================

A custom :class:`~kpart.producer.custom.Partitioner` (an object, or loaded by import path with
:func:`~kpart.producer.custom.load_partitioner`) runs in the 3.3+ flow for ``partitioner.class``
(``abortOnNewBatch`` = true, ``on_new_batch`` called if it has one); its partitions are checked
with :func:`~kpart.producer.custom.check_partition`.

Keyed records follow each strategy's key rule (``partitioner.ignore.keys`` for ``builtin``);
a record's explicit ``partition`` always wins. Randomness (Kafka's ``ThreadLocalRandom``) comes
from ``JavaRandom(seed)``. The batching model and its simplifications are described in
``kpart.producer._accumulator``.

>>> recs = generate_records(200, rate_per_sec=1000, size=100)
>>> cfg = ProducerConfig(batch_size=1000, linger_ms=50)
>>> r = simulate(recs, "round-robin", Cluster.round_robin("t", 4, 4), cfg, seed=1)
>>> r.records
(0, 100, 0, 100)
>>> r.total_batches, round(r.mean_batch_fill, 2)
(20, 1.0)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kpart.errors import ConfigError, Param
from kpart.limits import check_records
from kpart.producer._accumulator import ABORT, Accumulator
from kpart.producer._nullkey import IntSource, key_partition, make_random
from kpart.producer.builtin_partitioner import BuiltInPartitioner
from kpart.producer.cluster import Cluster
from kpart.producer.custom import Partitioner, check_partition
from kpart.producer.default_partitioner import DefaultPartitioner
from kpart.producer.legacy_default_partitioner import LegacyDefaultPartitioner
from kpart.producer.null_key_versions import DEFAULT_STRATEGY, check_rack_aware, resolve_strategy
from kpart.producer.random_partitioner import RandomPartitioner
from kpart.producer.round_robin_partitioner import RoundRobinPartitioner
from kpart.producer.uniform_sticky_partitioner import UniformStickyPartitioner
from kpart.versions import KafkaVersion, first_release_with

__all__ = [
    "STRATEGIES",
    "Cluster",
    "LatencyModel",
    "ProducerConfig",
    "Record",
    "SimulationResult",
    "generate_records",
    "simulate",
]


@dataclass(frozen=True, slots=True)
class Record:
    """One record: arrival time (ms), size in bytes (as counted toward ``batch.size``), and an
    optional serialized ``key``, ``value`` object and explicit ``partition``."""

    timestamp_ms: float
    size: int
    key: bytes | None = None
    value: Any = None
    partition: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.size, bool) or not isinstance(self.size, int) or self.size < 1:
            raise ConfigError(f"record size must be a positive int (bytes), got {self.size!r}")
        if not math.isfinite(self.timestamp_ms):
            raise ConfigError(f"record timestamp_ms must be finite, got {self.timestamp_ms!r}")


def _at_least(
    name: str, value: float, low: float, kind: type | tuple[type, ...] = (int, float)
) -> None:
    if isinstance(value, bool) or not isinstance(value, kind) or not value >= low:
        raise ConfigError(
            f"Invalid value {value!r} for configuration {name}: Value must be at least {low}"
        )


@dataclass(frozen=True, slots=True)
class ProducerConfig:
    """The producer settings the simulation uses (Kafka names; Kafka 3.x defaults, except
    ``linger.ms`` whose default became 5 in Kafka 4.0)."""

    batch_size: int = 16384  # batch.size
    linger_ms: float = 0  # linger.ms
    adaptive_partitioning: bool = True  # partitioner.adaptive.partitioning.enable
    availability_timeout_ms: float = 0  # partitioner.availability.timeout.ms
    ignore_keys: bool = False  # partitioner.ignore.keys
    max_in_flight: int = 5  # max.in.flight.requests.per.connection
    rack_aware: bool = False  # partitioner.rack.aware (KIP-1123, 4.4)
    client_rack: str | None = None  # client.rack

    def __post_init__(self) -> None:
        _at_least("batch.size", self.batch_size, 1, int)
        _at_least("linger.ms", self.linger_ms, 0)
        _at_least("partitioner.availability.timeout.ms", self.availability_timeout_ms, 0)
        _at_least("max.in.flight.requests.per.connection", self.max_in_flight, 1, int)


@dataclass(frozen=True, slots=True)
class LatencyModel:
    """Per-broker produce-request latency (ms from send to response): ``default_ms`` for every
    broker, overridden per broker id by ``per_broker`` (pairs ``(broker, ms)``).

    >>> LatencyModel.of(2, {3: 500}).per_broker
    ((3, 500),)
    """

    default_ms: float = 1.0
    per_broker: tuple[tuple[int, float], ...] = ()

    def __post_init__(self) -> None:
        _at_least("latency ms", self.default_ms, 0)
        for broker, ms in self.per_broker:
            _at_least(f"latency ms of broker {broker}", ms, 0)

    @classmethod
    def of(
        cls, default_ms: float = 1.0, per_broker: Mapping[int, float] | None = None
    ) -> LatencyModel:
        """Build from a mapping ``{broker_id: ms}``."""
        return cls(default_ms, tuple(sorted((per_broker or {}).items())))


def _cv(values: Sequence[int]) -> float:
    mean = statistics.fmean(values)
    return statistics.pstdev(values) / mean if mean else 0.0


def _max_over_mean(values: Sequence[int]) -> float:
    mean = statistics.fmean(values)
    return max(values) / mean if mean else 0.0


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """Per-partition outcome of one simulation (index = partition id).

    ``mean_batch_fill`` = total bytes / (batches × ``batch.size``); unevenness is max/mean and
    the coefficient of variation (population stdev / mean) of records and of bytes.
    ``mean_latency_ms`` = mean time from a record's arrival to its request's completion.
    """

    strategy: str
    batch_size: int
    records: tuple[int, ...]
    bytes: tuple[int, ...]
    batches: tuple[int, ...]
    requests: int
    mean_latency_ms: float
    partitions: tuple[int, ...] = field(repr=False)  # partition of each record, in order

    @property
    def total_records(self) -> int:
        return sum(self.records)

    @property
    def total_bytes(self) -> int:
        return sum(self.bytes)

    @property
    def total_batches(self) -> int:
        return sum(self.batches)

    @property
    def mean_batch_fill(self) -> float:
        return (
            self.total_bytes / (self.total_batches * self.batch_size) if self.total_batches else 0.0
        )

    @property
    def records_per_batch(self) -> float:
        return self.total_records / self.total_batches if self.total_batches else 0.0

    @property
    def records_max_over_mean(self) -> float:
        return _max_over_mean(self.records)

    @property
    def records_cv(self) -> float:
        return _cv(self.records)

    @property
    def bytes_max_over_mean(self) -> float:
        return _max_over_mean(self.bytes)

    @property
    def bytes_cv(self) -> float:
        return _cv(self.bytes)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (without the per-record partitions)."""
        return {
            "strategy": self.strategy,
            "records": list(self.records),
            "bytes": list(self.bytes),
            "batches": list(self.batches),
            "requests": self.requests,
            "mean_batch_fill": self.mean_batch_fill,
            "records_per_batch": self.records_per_batch,
            "records_max_over_mean": self.records_max_over_mean,
            "records_cv": self.records_cv,
            "bytes_max_over_mean": self.bytes_max_over_mean,
            "bytes_cv": self.bytes_cv,
            "mean_latency_ms": self.mean_latency_ms,
        }


_Factory = Callable[[IntSource], Partitioner]

#: Built-in strategy names → (factory of a fresh partitioner, producer flow).
STRATEGIES: dict[str, tuple[_Factory | None, str]] = {
    "legacy": (lambda rng: LegacyDefaultPartitioner(rng), "legacy"),
    "round-robin": (lambda rng: RoundRobinPartitioner(
        kafka_version=first_release_with("round_robin_partitioner", "kafka-9965")), "kip480"),
    "round-robin-fixed": (lambda rng: RoundRobinPartitioner(
        kafka_version=first_release_with("round_robin_partitioner", "kafka-17632")), "kip480"),
    "random": (lambda rng: RandomPartitioner(rng), "kip480"),
    "sticky": (lambda rng: DefaultPartitioner(rng), "kip480"),
    "uniform-sticky": (lambda rng: UniformStickyPartitioner(rng), "kip480"),
    "builtin": (None, "builtin"),
}


def generate_records(
    count: int,
    rate_per_sec: float,
    size: int,
    *,
    size_jitter: float = 0.0,
    poisson: bool = False,
    start_ms: float = 0.0,
    seed: int | None = 0,
) -> tuple[Record, ...]:
    """``count`` null-key records arriving at ``rate_per_sec`` (evenly spaced, or Poisson
    arrivals), each ``size`` bytes ± ``size_jitter`` × ``size`` (uniform), timestamps rounded
    to whole ms. Deterministic for a given ``seed``.

    >>> [(r.timestamp_ms, r.size) for r in generate_records(3, 500, 10)]
    [(0, 10), (2, 10), (4, 10)]
    """
    _at_least("count", count, 0, int)
    check_records(count, Param("count"))
    if not rate_per_sec > 0:
        raise ConfigError(f"rate must be positive (records/s), got {rate_per_sec!r}")
    _at_least("size", size, 1, int)
    if not 0 <= size_jitter < 1:
        raise ConfigError(f"size jitter must be in [0, 1), got {size_jitter!r}")
    from kpart._java.random import JavaRandom

    rng = JavaRandom(seed)  # nextDouble too, not only the partitioners' IntSource
    spread = int(size * size_jitter)
    out = []
    t = float(start_ms)
    for i in range(count):
        if poisson:
            t += -math.log(1.0 - rng.next_double()) * 1000.0 / rate_per_sec
            ts = math.floor(t)
        else:
            ts = math.floor(start_ms + i * 1000.0 / rate_per_sec + 1e-9)
        s = size + (rng.next_int(2 * spread + 1) - spread if spread else 0)
        out.append(Record(ts, s))
    return tuple(out)


def simulate(  # noqa: PLR0913 - keyword-only settings of one simulation
    records: Iterable[Record],
    strategy: str | Partitioner,
    cluster: Cluster,
    config: ProducerConfig | None = None,
    latency: LatencyModel | None = None,
    *,
    topic: str | None = None,
    seed: int | None = None,
    name: str | None = None,
    kafka_version: str | KafkaVersion | None = None,
) -> SimulationResult:
    """Replay ``records`` (non-decreasing timestamps) through one producer.

    ``strategy``: a name of :data:`STRATEGIES`, ``"default"`` (the Java producer's own
    null-key strategy for ``kafka_version``: ``legacy`` up to 2.3, ``sticky`` 2.4–3.2,
    ``builtin`` from 3.3) or a custom partitioner object (used as is, so pass a fresh one).
    ``kafka_version``: the client's (a string or :class:`~kpart.versions.KafkaVersion`);
    ``None`` means 4.3 for ``"default"`` and no check for a named strategy, which fixes its
    Kafka class; given, a named strategy the version lacks is an error
    (:mod:`kpart.producer.null_key_versions`). ``config.rack_aware`` (KIP-1123) needs
    ``kafka_version="4.4"`` and the built-in strategy. ``topic`` defaults to the cluster's only
    topic. ``seed`` seeds every random draw (``None``: random, like Kafka).

    Errors (:class:`~kpart.errors.ConfigError` / :class:`~kpart.errors.InvalidPartitionError`,
    naming the bad value): unknown strategy, unknown topic, decreasing timestamps, a
    partition out of range, a version kpart does not know or that lacks the strategy or
    setting.

    >>> recs = generate_records(4, rate_per_sec=1000, size=100)
    >>> simulate(recs, "default", Cluster.round_robin("t", 4, 2), seed=1,
    ...          kafka_version="2.3.1").strategy
    'default (legacy)'
    """
    config = config or ProducerConfig()
    latency = latency or LatencyModel()
    if isinstance(strategy, str):
        resolved = resolve_strategy(strategy, kafka_version)
        if strategy == DEFAULT_STRATEGY:
            name = name or f"{DEFAULT_STRATEGY} ({resolved})"
        strategy = resolved
    if config.rack_aware:
        check_rack_aware(True, config.client_rack, kafka_version)
        if strategy != "builtin":
            label = strategy if isinstance(strategy, str) else type(strategy).__name__
            raise ConfigError(f"partitioner.rack.aware applies to the built-in partitioner "
                              f"only (no partitioner.class); strategy {label!r} ignores it")
    if topic is None:
        if len(cluster.topics) != 1:
            raise ConfigError(f"cluster has topics {[t for t, _ in cluster.topics]}: pass topic=")
        topic = cluster.topics[0][0]
    num_partitions = cluster.partition_count_for_topic(topic)
    if num_partitions is None:
        raise ConfigError(f"unknown topic {topic!r}")
    rng = make_random(seed)
    if isinstance(strategy, str):
        if strategy not in STRATEGIES:
            raise ConfigError(f"unknown strategy {strategy!r}; known: {', '.join(STRATEGIES)}")
        factory, flow = STRATEGIES[strategy]
        partitioner = factory(rng) if factory is not None else None
        label = name or strategy
    else:
        partitioner, flow = strategy, "kip480"
        own_name: str = getattr(strategy, "name", type(strategy).__name__)
        label = name or own_name
    builtin = BuiltInPartitioner(
        topic, config.batch_size, rng, rack_aware=config.rack_aware, rack=config.client_rack,
    ) if flow == "builtin" else None
    acc = Accumulator(
        topic=topic,
        cluster=cluster,
        batch_size=config.batch_size,
        linger_ms=config.linger_ms,
        max_in_flight=config.max_in_flight,
        latency_ms=dict(latency.per_broker),
        default_latency_ms=latency.default_ms,
        adaptive=config.adaptive_partitioning,
        availability_timeout_ms=config.availability_timeout_ms,
        builtin=builtin,
    )
    chosen: list[int] = []
    previous = -math.inf
    for i, rec in enumerate(records):
        if rec.timestamp_ms < previous:
            raise ConfigError(
                f"record {i} has timestamp_ms {rec.timestamp_ms}, earlier than the previous "
                f"record's {previous}: records must be in time order"
            )
        previous = rec.timestamp_ms
        acc.run_until(rec.timestamp_ms)
        chosen.append(_send(acc, flow, partitioner, rec, topic, num_partitions, config))
    acc.run_until(math.inf)
    return SimulationResult(
        strategy=label,
        batch_size=config.batch_size,
        records=tuple(acc.records),
        bytes=tuple(acc.bytes),
        batches=tuple(acc.batches),
        requests=acc.requests,
        mean_latency_ms=acc.latency_sum / acc.sent_records if acc.sent_records else 0.0,
        partitions=tuple(chosen),
    )


def _send(
    acc: Accumulator,
    flow: str,
    partitioner: Partitioner | None,
    rec: Record,
    topic: str,
    num_partitions: int,
    config: ProducerConfig,
) -> int:
    """``KafkaProducer.doSend`` for one record; returns the partition it was appended to."""
    now = rec.timestamp_ms
    if rec.partition is not None:
        check_partition(rec.partition, topic, num_partitions)
    if partitioner is None:  # 3.3+ without partitioner.class
        if rec.partition is not None:
            return acc.append(rec.partition, rec.size, now, False)
        if rec.key is not None and not config.ignore_keys:
            return acc.append(key_partition(rec.key, num_partitions), rec.size, now, False)
        return acc.append_builtin(rec.size, now)

    def partition() -> int:
        if rec.partition is not None:
            return rec.partition
        value_bytes = rec.value if isinstance(rec.value, bytes) else None
        p = partitioner.partition(topic, rec.key, rec.key, rec.value, value_bytes, acc.cluster)
        return check_partition(p, topic, num_partitions)

    p = partition()
    if flow == "legacy":
        return acc.append(p, rec.size, now, False)
    if acc.append(p, rec.size, now, True) != ABORT:
        return p
    on_new_batch = getattr(partitioner, "on_new_batch", None)
    if callable(on_new_batch):
        on_new_batch(topic, acc.cluster, p)
    return acc.append(partition(), rec.size, now, False)
