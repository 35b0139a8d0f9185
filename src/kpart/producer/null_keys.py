"""Where a topic's records without key go: the null-key strategies of Kafka's producers
(``RecordAccumulator``/``BuiltInPartitioner``, KIP-480, KIP-794, and each client's null-key rule)
applied to the *count and bytes* of a dataset's null-key records.

A record without key has nothing to hash: its partition depends on the producer's state (sticky
partition, counters, random draws, batches). The report therefore places the null-key records by
a **model**, computed on the driver from two numbers the Spark job measures (``records`` and
``bytes`` of the null-key records):

* the records are produced back-to-back by one producer (all at ``t = 0``: the producer is
  faster than the brokers, the regime the sticky strategies were designed for), each of the
  mean size ``bytes / records`` (the first ``bytes % records`` records one byte larger), to a
  topic whose partition ``p`` is led by ``leaders[p]`` (1 ms latency on every broker);
* up to :data:`EXACT_LIMIT` records: the deterministic simulation
  :func:`kpart.producer.simulate.simulate` of the strategy with ``batch.size`` and ``seed``;
* above it (a documented approximation): ``sticky``/``uniform-sticky`` → chunks of
  ``batch.size // size`` records (one full batch) whose partitions follow
  :class:`~kpart.producer.sticky_partition_cache.StickyPartitionCache`; ``builtin`` → chunks of
  whole batches until ``batch.size`` bytes are produced (at most ``2 × batch.size`` bytes, as
  ``BuiltInPartitioner`` switches) to uniformly drawn partitions (equal latencies: no adaptive
  weights); ``random`` → a multinomial draw; the round-robin
  family (``round-robin``, ``round-robin-fixed``, ``legacy``) → the simulation of the first
  :data:`EXACT_LIMIT` records scaled up (their pattern is periodic);
* ``client`` resolves to the chosen partitioner's own rule: ``java:default`` → ``builtin``
  (Kafka ≥ 3.3); every other client → its rule of :mod:`kpart.producer.clients` applied per
  record by :func:`kpart.producer.kernels.partition_for_keys` (``*_random``, Sarama, kafka-go,
  kafka-python: a random partition; kafkajs, ``kafka-go:hash``: round-robin counter; librdkafka
  ``consistent``/``murmur2``/``fnv1a``: the empty key's partition). librdkafka's
  ``sticky.partitioning.linger.ms`` stickiness is not modelled (per-record draws);
* ``separate``: the records are not placed (they stay out of the per-partition totals).

Bytes per partition follow the records (exactly, in the simulation; apportioned by records,
largest remainder first, otherwise). Randomness comes from ``seed`` (``None``: random).

>>> d = distribute_null_keys(12, 1200, 4, strategy="round-robin-fixed", seed=1)
>>> d.records, d.method
((3, 3, 3, 3), 'simulation')
>>> distribute_null_keys(10, 100, 4, strategy="client", partitioner="librdkafka:consistent").records
(10, 0, 0, 0)
>>> distribute_null_keys(5, 50, 2, strategy="separate").to_dict()["records"]
[0, 0]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kpart.errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from kpart.producer.clients import ClientPartitioner
    from kpart.versions import KafkaVersion

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "EXACT_LIMIT",
    "NULL_KEY_STRATEGIES",
    "NullKeyDistribution",
    "NullKeyRule",
    "apportion",
    "distribute_null_keys",
    "random_partition_counts",
    "resolve_null_key_strategy",
]

#: How records without a key are placed: ``client`` = the partitioner's own rule
#: (``java:default``: ``builtin``, KIP-794); a null-key strategy of :mod:`kpart.producer.simulate`;
#: or ``separate``: not placed, counted apart.
NULL_KEY_STRATEGIES = ("client", "builtin", "sticky", "uniform-sticky", "round-robin",
                       "round-robin-fixed", "legacy", "random", "separate")
#: Kafka's default ``batch.size`` (bytes), used by the sticky null-key strategies.
DEFAULT_BATCH_SIZE = 16384
#: Up to this many null-key records the exact simulation runs (~0.5 s); above, the closed forms.
EXACT_LIMIT = 20_000


@dataclass(frozen=True, slots=True)
class NullKeyDistribution:
    """Null-key records and bytes per partition (index = partition) under ``strategy`` (the
    resolved one: a simulated name, ``"client:<rule>"`` or ``"separate"``), computed by
    ``method``: ``"simulation"``, ``"approximation"``, ``"client-rule"`` or ``"separate"``."""

    strategy: str
    method: str
    records: tuple[int, ...]
    bytes: tuple[int, ...]

    @property
    def included(self) -> bool:
        """True when the records are placed on partitions (every strategy but ``separate``)."""
        return self.method != "separate"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"strategy", "method", "records": [...], "bytes": [...]}``."""
        return {"strategy": self.strategy, "method": self.method,
                "records": list(self.records), "bytes": list(self.bytes)}


def resolve_null_key_strategy(strategy: str,
                              partitioner: str | ClientPartitioner = "java:default") -> str:
    """The strategy actually applied: ``client`` becomes the partitioner's own rule (``builtin``
    for ``java:default``, else ``"client:<rule>"`` with the rule of
    :class:`~kpart.producer.clients.ClientPartitioner`); other names are returned as is.
    ``ConfigError`` for a name not in :data:`NULL_KEY_STRATEGIES` or an unknown partitioner.

    >>> resolve_null_key_strategy("client"), resolve_null_key_strategy("client", "sarama:hash")
    ('builtin', 'client:random')
    """
    if strategy not in NULL_KEY_STRATEGIES:
        raise ConfigError(f"null_key_strategy: unknown value {strategy!r} "
                          f"(expected one of {', '.join(NULL_KEY_STRATEGIES)})")
    if strategy != "client":
        return strategy
    from kpart.producer.clients import get_partitioner

    rule = get_partitioner(partitioner).null_key
    return "builtin" if rule == "unkeyed" else f"client:{rule}"


def _check_count(name: str, value: object, minimum: int, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ConfigError(f"{name}: expected {what}, got {value!r}")


@dataclass(frozen=True, slots=True)
class NullKeyRule:
    """A producer's rule for records without key, resolved once: the ``configured`` name (one of
    :data:`NULL_KEY_STRATEGIES`), the ``strategy`` applied (:func:`resolve_null_key_strategy`),
    the producer's ``partitioner`` (its :class:`~kpart.producer.clients.ClientPartitioner`),
    ``batch_size`` (``batch.size``, bytes) and the ``seed`` of every random draw (``None``:
    random). Build it with :meth:`of`; :meth:`place` applies it to a count of records.

    >>> rule = NullKeyRule.of("client", "librdkafka:consistent")
    >>> rule.strategy, rule.place(10, 100, (0, 1, 2, 3)).records
    ('client:hash-empty', (10, 0, 0, 0))
    """

    configured: str
    strategy: str
    partitioner: ClientPartitioner
    batch_size: int = DEFAULT_BATCH_SIZE
    seed: int | None = None

    @classmethod
    def of(cls, strategy: str = "client", partitioner: str | ClientPartitioner = "java:default",
           *, batch_size: int = DEFAULT_BATCH_SIZE, seed: int | None = None,
           kafka_version: str | KafkaVersion | None = None) -> NullKeyRule:
        """Resolve ``strategy`` for ``partitioner`` (an id of
        :data:`kpart.producer.clients.PARTITIONERS` or its spec). ``kafka_version``: the Java
        client's (``None``: ``client`` is 4.3's ``builtin`` and a named strategy is not
        checked); given, ``client`` for ``java:default`` becomes that version's strategy
        (:func:`kpart.producer.null_key_versions.java_null_key_strategy`) and a named
        strategy must exist in it. ``ConfigError`` naming a bad value.

        >>> NullKeyRule.of("client", kafka_version="2.8.2").strategy
        'sticky'
        """
        from kpart.producer.clients import get_partitioner

        if strategy not in NULL_KEY_STRATEGIES:
            resolve_null_key_strategy(strategy)  # the error naming the unknown strategy
        spec = get_partitioner(partitioner)  # the one look-up of the partitioner
        resolved = resolve_null_key_strategy(strategy, spec)
        _check_count("batch_size", batch_size, 1, "a positive integer")
        if kafka_version is not None:
            resolved = _at_version(strategy, resolved, spec, kafka_version)
        return cls(strategy, resolved, spec, batch_size, seed)

    @property
    def included(self) -> bool:
        """True when the records are placed on partitions (every strategy but ``separate``)."""
        return self.strategy != "separate"

    def place(self, records: int, bytes_: int, leaders: Sequence[int]) -> NullKeyDistribution:
        """Place ``records`` null-key records of ``bytes_`` bytes in total on the partitions led
        by ``leaders`` (``leaders[p]``: the broker leading partition ``p``; one per partition).
        The model is described in the module docstring."""
        for name, v in (("records", records), ("bytes", bytes_)):
            _check_count(f"null-key {name}", v, 0, "an integer >= 0")
        leaders = tuple(leaders)
        n, strategy = len(leaders), self.strategy
        zeros = (0,) * n
        if strategy == "separate":
            return NullKeyDistribution(strategy, "separate", zeros, zeros)
        if records == 0:
            return NullKeyDistribution(strategy, "simulation", zeros, zeros)
        if strategy.startswith("client:"):
            counts = _client_rule(records, self.partitioner, n, self.seed)
            return NullKeyDistribution(strategy, "client-rule", counts, apportion(bytes_, counts))
        if records <= EXACT_LIMIT:
            recs, byts = _simulate(records, bytes_, strategy, leaders, self.batch_size, self.seed)
            if bytes_ < records:  # records of 0 bytes were simulated as 1-byte records
                byts = apportion(bytes_, recs)
            return NullKeyDistribution(strategy, "simulation", tuple(recs), tuple(byts))
        counts = _approximate(records, bytes_, strategy, leaders, self.batch_size, self.seed)
        return NullKeyDistribution(strategy, "approximation", counts, apportion(bytes_, counts))


def _at_version(strategy: str, resolved: str, spec: ClientPartitioner,
                kafka_version: str | KafkaVersion) -> str:
    """``resolved`` for the Java client of ``kafka_version`` (see :meth:`NullKeyRule.of`)."""
    from kpart.producer.null_key_versions import (
        check_null_key_strategy,
        java_null_key_strategy,
        kafka_version_of,
        key_rule_of,
    )

    version = kafka_version_of(kafka_version)
    if strategy == "separate":
        return resolved
    if strategy == "client":
        key_rule_of(spec.id, version)  # another client's own rule: not a Java client version
        return java_null_key_strategy(version)
    return check_null_key_strategy(resolved, version)


def apportion(total: int, weights: Sequence[int]) -> tuple[int, ...]:
    """``total`` split in proportion to ``weights`` (largest remainder, ties to lower index).

    >>> apportion(10, [1, 1, 1])
    (4, 3, 3)
    """
    w = sum(weights)
    if w == 0:
        return tuple(0 for _ in weights)
    base = [total * x // w for x in weights]
    order = sorted(range(len(weights)), key=lambda i: (-(total * weights[i] % w), i))
    for i in order[: total - sum(base)]:
        base[i] += 1
    return tuple(base)


def random_partition_counts(records: int, num_partitions: int,
                            seed: int | None) -> tuple[int, ...]:
    """``records`` records each sent to a uniformly random partition, as counts per partition
    (a seeded multinomial draw; ``seed`` ``None``: random). Used for ``random`` above
    :data:`EXACT_LIMIT` and by the pipeline for keys a client places at random.

    >>> sum(random_partition_counts(1000, 4, seed=1))
    1000
    """
    import numpy as np

    gen = np.random.default_rng(seed)
    return tuple(int(x) for x in gen.multinomial(records, [1.0 / num_partitions] * num_partitions))


def _simulate(records: int, bytes_: int, strategy: str, leaders: Sequence[int],
              batch_size: int, seed: int | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    from kpart.producer.simulate import Cluster, ProducerConfig, Record, simulate

    size, extra = divmod(bytes_, records)
    stream = [Record(0.0, max(1, size + (i < extra))) for i in range(records)]
    r = simulate(stream, strategy, Cluster.of("topic", list(leaders)),
                 ProducerConfig(batch_size=batch_size), seed=seed)
    return r.records, r.bytes


def _chunks(records: int, chunk: int, n: int, draw: Any) -> list[int]:
    counts = [0] * n
    for start in range(0, records, chunk):
        counts[draw()] += min(chunk, records - start)
    return counts


def _approximate(records: int, bytes_: int, strategy: str, leaders: Sequence[int],
                 batch_size: int, seed: int | None) -> tuple[int, ...]:
    from kpart.producer._nullkey import make_random, to_positive

    n = len(leaders)
    size = max(1, bytes_ // records)
    rng = make_random(seed)
    if strategy in ("sticky", "uniform-sticky"):
        from kpart.producer.cluster import Cluster
        from kpart.producer.sticky_partition_cache import StickyPartitionCache

        cluster, cache = Cluster.of("topic", list(leaders)), StickyPartitionCache(rng)
        current = [-1]

        def sticky_draw() -> int:
            current[0] = cache.next_partition("topic", cluster, current[0])
            return current[0]

        return tuple(_chunks(records, max(1, batch_size // size), n, sticky_draw))
    if strategy == "builtin":  # switch once batch.size bytes are produced and the last batch
        per_batch = max(1, batch_size // size)  # is full, but never past 2 * batch.size bytes
        full = per_batch * math.ceil(batch_size / (per_batch * size))
        chunk = max(1, min(full, math.ceil(2 * batch_size / size)))
        return tuple(_chunks(records, chunk, n, lambda: to_positive(rng.next_int()) % n))
    if strategy == "random":
        return random_partition_counts(records, n, seed)
    # round-robin family: periodic, so the simulated shares of EXACT_LIMIT records scale up
    sample = _simulate(EXACT_LIMIT, EXACT_LIMIT * size, strategy, leaders, batch_size, seed)[0]
    return apportion(records, sample)


def _client_rule(records: int, spec: ClientPartitioner, n: int,
                 seed: int | None) -> tuple[int, ...]:
    import numpy as np
    import pyarrow as pa

    from kpart.producer.clients import initial_counter
    from kpart.producer.kernels import partition_for_keys

    rng = np.random.default_rng(seed)
    counter = None if spec.round_robin is None else initial_counter(spec.round_robin, rng)
    counts = np.zeros(n, dtype=np.int64)
    step = 1 << 22  # bounded memory; the generator and the counter carry over between chunks
    for start in range(0, records, step):
        m = min(step, records - start)
        parts = partition_for_keys(pa.nulls(m, pa.binary()), n, spec.id, seed=rng,
                                   counter=counter).to_numpy(zero_copy_only=False)
        counts += np.bincount(parts, minlength=n)
        if counter is not None:
            counter += m
    return tuple(int(x) for x in counts)


def distribute_null_keys(  # noqa: PLR0913 - keyword-only settings of one placement
    records: int,
    bytes_: int,
    num_partitions: int,
    *,
    strategy: str = "client",
    partitioner: str | ClientPartitioner = "java:default",
    leaders: Sequence[int] | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    seed: int | None = None,
    kafka_version: str | KafkaVersion | None = None,
) -> NullKeyDistribution:
    """Place ``records`` null-key records of ``bytes_`` bytes in total on ``num_partitions``
    partitions by ``strategy`` (one of :data:`NULL_KEY_STRATEGIES`) for ``partitioner``'s
    producer; ``leaders[p]``: the broker leading partition ``p`` (default ``p``),
    ``batch_size``: ``batch.size`` in bytes, ``seed``: seeds every random draw. The model is
    described in the module docstring; :meth:`NullKeyRule.place` with the rule resolved once.
    ``kafka_version``: the Java client's, as :meth:`NullKeyRule.of` takes it (``client`` then
    means that version's strategy: ``legacy`` up to 2.3, ``sticky`` 2.4–3.2, ``builtin`` from
    3.3; default ``None``: 4.3's ``builtin``, named strategies unchecked). ``ConfigError``
    naming a bad value.

    >>> distribute_null_keys(8, 800, 4, seed=1, kafka_version="2.3.1").strategy
    'legacy'

    >>> d = distribute_null_keys(100, 10_000, 3, strategy="random", seed=7)
    >>> sum(d.records), sum(d.bytes), len(d.records)
    (100, 10000, 3)
    """
    resolve_null_key_strategy(strategy, partitioner)
    _check_count("num_partitions", num_partitions, 1, "a positive integer")
    for name, v in (("records", records), ("bytes", bytes_)):
        _check_count(f"null-key {name}", v, 0, "an integer >= 0")
    rule = NullKeyRule.of(strategy, partitioner, batch_size=batch_size, seed=seed,
                          kafka_version=kafka_version)
    leaders = tuple(range(num_partitions)) if leaders is None else tuple(leaders)
    if len(leaders) != num_partitions:
        raise ConfigError(f"leaders: {len(leaders)} given for {num_partitions} partitions")
    return rule.place(records, bytes_, leaders)
