"""The partition count a topic needs: the smallest count ``M`` whose busiest partition stays,
in every window, within what one partition may carry (issue 14, point 4), advised never below
the current count nor the largest consumer group's members (issue 24, point 5). Pure numpy; the Spark
job (:mod:`kpart.spark._partition_count`) evaluates the candidates natively and hands the
figures to :func:`search_partition_count`.

Reproduces the key → partition rule of ``org.apache.kafka.clients.producer.internals.
BuiltInPartitioner#partitionForKey`` (``Utils.toPositive(murmur2(key)) % M``) and of every other
client of :data:`kpart.producer.clients.PARTITIONERS` (index rules ``to-positive``,
``unsigned``, ``abs``), plus Spark's ``pmod(hash(key), M)`` baseline (``spark:hash``): under
``M`` partitions a key goes to ``index(hash(key), M)``, so one 32-bit hash per distinct key
evaluates every candidate count (:func:`partitions_of_hashes`).

**Limits** (:class:`PartitionLimits`, defaults in
docs/partition-count.md with their sources):

* :data:`DEFAULT_MAX_PARTITION_BYTES_PER_S` = 10 MB/s per partition: Confluent, "How to choose
  the number of topics/partitions in a Kafka cluster?" (Jun Rao, 2015: a single partition
  takes "10s of MB/sec" of produce); we take the low end;
* :data:`DEFAULT_CONSUMER_RECORDS_PER_S` = 10,000 records/s per consumer member: no vendor
  publishes one figure (Confluent's guidance is to measure your consumer,
  docs.confluent.io/cloud/current/client-apps/optimizing/throughput.html); kafka's own
  benchmark reads ~0.9M records/s with no processing (Kreps, "Benchmarking Apache Kafka", 2014),
  so 10,000 is a consumer spending ~0.1 ms of work per record — pass your measured rate;
* :data:`DEFAULT_MAX_PARTITIONS` = 4,000, "Kafka's practical limit" searched: KIP-578's
  recommendation of at most 4,000 partitions per broker (a single topic above it cannot even
  sit on one broker within the guideline).

**Rule.** With records ``r[p, w]`` and bytes ``b[p, w]`` of partition ``p`` in window ``w``
(length ``window_s``), ``M`` fits when ``max r / window_s <= consumer_records_per_s`` and
``max b / window_s <= max_partition_bytes_per_s``. Records whose key does not decide the
partition (null keys; keys the client places at random) count as spread evenly over the ``M``
partitions of their window — the long-run behaviour of the sticky/random/round-robin null-key
rules. The search starts at the lower bound (every partition at least the window's mean,
:func:`lower_bound`) and goes up to ``max_partitions``. One key whose own peak window is over a
limit makes every ``M`` fail: the result says so (``hot_key``) — the fix is the key.

**Advice** (:func:`advise_count`). Kafka cannot reduce a topic's partition count
(``kafka-topics.sh --alter --partitions`` refuses a smaller one: "The number of partitions for
a topic can only be increased"), and a group member without a partition idles, so the count
advised is the smallest fitting count that is at least the current count and at least the
members of the largest group reading the topic (:func:`count_floor`); the result names what
set it (``recommended_by``: ``load``, ``current``, ``consumers``). The load's own smallest
fitting count is kept as a fact (``smallest_fitting``), never advised below the floor.

>>> import numpy as np
>>> h = np.array([7, 8, 9, 10], dtype=np.int64)
>>> partitions_of_hashes(h, 3, "to-positive").tolist(), partitions_of_hashes(h, 3, "abs").tolist()
([1, 2, 0, 1], [1, 2, 0, 1])
>>> lower_bound(np.array([120, 30]), np.array([1200, 300]), 60.0,
...             PartitionLimits(1_000.0, 1.0, 4000))
2
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from kpart.errors import ConfigError, Param

__all__ = [
    "DEFAULT_CONSUMER_RECORDS_PER_S",
    "DEFAULT_MAX_PARTITIONS",
    "DEFAULT_MAX_PARTITION_BYTES_PER_S",
    "INDEX_RULES",
    "RECOMMENDED_BY",
    "ConsumerParallelism",
    "CountAdvice",
    "CountEvaluator",
    "CountQuestion",
    "CountRules",
    "HotKeyWindow",
    "PartitionCountResult",
    "PartitionLimits",
    "Peaks",
    "advise_count",
    "candidate_batches",
    "count_floor",
    "default_limits",
    "index_rule",
    "key_hashes",
    "keyless_partition_count",
    "largest_groups",
    "lower_bound",
    "partitions_of_hashes",
    "peaks_with_spread",
    "search_partition_count",
]

#: Bytes per second one partition may take (produce), default of ``--max-partition-bytes-per-s``.
DEFAULT_MAX_PARTITION_BYTES_PER_S = 10_000_000.0
#: Records per second one consumer member drains, default of ``--consumer-records-per-s``.
DEFAULT_CONSUMER_RECORDS_PER_S = 10_000.0
#: The largest partition count searched (KIP-578: <= 4,000 partitions per broker).
DEFAULT_MAX_PARTITIONS = 4_000
#: How a 32-bit hash becomes a partition: the clients' rules and Spark's ``pmod``.
INDEX_RULES = ("to-positive", "unsigned", "abs", "pmod")


@dataclass(frozen=True, slots=True)
class PartitionLimits:
    """What one partition may carry (the user's ``--max-partition-bytes-per-s`` and
    ``--consumer-records-per-s``; defaults and their sources in docs/partition-count.md), and
    the largest partition count searched (``max_partitions``)."""

    max_partition_bytes_per_s: float
    consumer_records_per_s: float
    max_partitions: int


@dataclass(frozen=True, slots=True)
class ConsumerParallelism:
    """The largest consumer group reading a topic: its name and its ``members`` (each member
    reads at least one partition only while the topic has at least ``members`` partitions)."""

    group: str
    members: int

    def to_json(self) -> dict[str, Any]:
        """``{"group", "members"}``."""
        return {"group": self.group, "members": self.members}


@dataclass(frozen=True, slots=True)
class CountRules:
    """What one topic's partition count answers to: the ``limits`` one partition may carry and
    the ``largest_group`` reading the topic (``None``: no group), whose members the advice never
    goes below (nor below the topic's current count)."""

    limits: PartitionLimits
    largest_group: ConsumerParallelism | None = None


#: What set the advised count (:attr:`PartitionCountResult.recommended_by`): the load (the
#: smallest count within the limits from the floor up), the current count (Kafka cannot reduce
#: a topic's partition count) or the largest consumer group's members.
RECOMMENDED_BY = ("load", "current", "consumers")


@dataclass(frozen=True, slots=True)
class PartitionCountResult:
    """The partition count advised for a topic, ``recommended``: the smallest count within
    the limits (the busiest partition's peak window under both) that is at least the current
    count (Kafka cannot reduce a topic's partition count) and at least the members of the
    largest group reading it (``largest_group``); ``recommended_by`` names what set it
    (:data:`RECOMMENDED_BY`). ``None`` when no count up to ``limits.max_partitions`` works
    (``hot_key`` then names the key whose peak window alone exceeds a limit, if any).

    ``smallest_fitting``: the smallest count within the limits, from 1 — a fact about the
    load, not advice (it may be below the current count). ``peak_bytes_per_s`` /
    ``peak_records_per_s``: the busiest partition's peak window at ``recommended`` (at
    ``current`` when nothing is recommended); ``skew``: records per partition at
    ``recommended`` (:func:`kpart._skew.skew_stats` JSON); ``moved_keys_share`` /
    ``moved_records_share``: of the keyed records, what changes partition going from
    ``current`` to ``recommended`` (``0.0`` when equal); ``current_ok``: the current count
    already stays within the limits."""

    limits: PartitionLimits
    current: int
    current_ok: bool
    recommended: int | None
    peak_bytes_per_s: float
    peak_records_per_s: float
    skew: dict[str, Any] | None = None
    moved_keys_share: float | None = None
    moved_records_share: float | None = None
    hot_key: dict[str, Any] | None = None
    reason: str = ""
    smallest_fitting: int | None = None
    recommended_by: str | None = None
    largest_group: ConsumerParallelism | None = None

    def to_json(self) -> dict[str, Any]:
        """The ``partition_count`` section of a topic in ``summary.json``."""
        return {
            "limits": {"max_partition_bytes_per_s": self.limits.max_partition_bytes_per_s,
                       "consumer_records_per_s": self.limits.consumer_records_per_s,
                       "max_partitions": self.limits.max_partitions},
            "current": self.current, "current_ok": self.current_ok,
            "recommended": self.recommended, "recommended_by": self.recommended_by,
            "smallest_fitting": self.smallest_fitting,
            "largest_group": (None if self.largest_group is None
                              else self.largest_group.to_json()),
            "peak_bytes_per_s": self.peak_bytes_per_s,
            "peak_records_per_s": self.peak_records_per_s,
            "skew": self.skew, "moved_keys_share": self.moved_keys_share,
            "moved_records_share": self.moved_records_share,
            "hot_key": self.hot_key, "reason": self.reason,
        }


def default_limits(max_partition_bytes_per_s: float | None = None,
                   consumer_records_per_s: float | None = None,
                   max_partitions: int | None = None) -> PartitionLimits:
    """:class:`PartitionLimits` with the documented defaults for what is not given, checked:
    ``ConfigError`` about the parameter (``max_partition_bytes_per_s: expected a positive
    number, got 0``) when a value is not positive (or ``max_partitions`` not an integer).

    >>> default_limits(consumer_records_per_s=500).consumer_records_per_s
    500.0
    >>> default_limits(max_partitions=0)
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: max_partitions: expected a positive integer, got 0
    """
    values = {"max_partition_bytes_per_s": (max_partition_bytes_per_s,
                                            DEFAULT_MAX_PARTITION_BYTES_PER_S),
              "consumer_records_per_s": (consumer_records_per_s, DEFAULT_CONSUMER_RECORDS_PER_S)}
    rates: dict[str, float] = {}
    for name, (value, default) in values.items():
        v = default if value is None else value
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) or v <= 0:
            raise ConfigError.naming_value(Param(name), "{param}: expected a positive number, "
                                           "got {value!r}", value=v)
        rates[name] = float(v)
    m = DEFAULT_MAX_PARTITIONS if max_partitions is None else max_partitions
    if isinstance(m, bool) or not isinstance(m, int) or m <= 0:
        raise ConfigError.naming_value(Param("max_partitions"), "{param}: expected a positive "
                                       "integer, got {value!r}", value=m)
    return PartitionLimits(rates["max_partition_bytes_per_s"], rates["consumer_records_per_s"], m)


def index_rule(partitioner: str) -> str | None:
    """The index rule of ``partitioner`` (a :data:`kpart.producer.clients.PARTITIONERS` id or
    ``"spark:hash"``), ``None`` when it ignores keys (``librdkafka:random``).

    >>> index_rule("java:default"), index_rule("sarama:hash"), index_rule("spark:hash")
    ('to-positive', 'abs', 'pmod')
    >>> index_rule("librdkafka:random") is None
    True
    """
    if partitioner == "spark:hash":
        return "pmod"
    from kpart.producer.clients import get_partitioner

    spec = get_partitioner(partitioner)
    return None if spec.hash == "none" else spec.index


def partitions_of_hashes(hashes: np.ndarray, m: int, rule: str) -> np.ndarray:
    """int64 partition under ``m`` partitions of each unsigned 32-bit hash in ``hashes``
    (int64 in ``[0, 2**32)``; Spark's ``hash`` given as its unsigned bits) by ``rule``:
    ``to-positive`` ``(h & 0x7fffffff) % m``; ``unsigned`` ``h % m``; ``abs``
    ``abs(int32(h) % m)``; ``pmod`` ``pmod(int32(h), m)``. The reference of the Spark
    expression :func:`kpart.spark._partition_count.index_column`."""
    h = np.asarray(hashes, dtype=np.int64)
    if rule == "to-positive":
        return (h & 0x7FFFFFFF) % m
    if rule == "unsigned":
        return h % m
    signed = np.where(h >= 1 << 31, h - (1 << 32), h)
    if rule == "abs":
        return np.abs(np.fmod(signed, m))
    if rule == "pmod":
        return np.mod(signed, m)
    raise ValueError(f"unknown index rule {rule!r} (known: {', '.join(INDEX_RULES)})")


_LO, _HI = 65_536, 65_537  # coprime, product > 2**32


def key_hashes(keys: pa.Array, hash_name: str) -> np.ndarray:
    """The unsigned 32-bit hash (int64; ``-1`` for a null key) of each serialized key of
    ``keys`` (binary or string Arrow array) under the client hash ``hash_name``
    (``murmur2``, ``crc32``, ``fnv1a``, ``kafkajs-legacy-murmur2``), from the compiled kernels
    of :mod:`kpart.producer._client_kernels`: their ``uint32(h) % n`` rule at ``n = 65536``
    and ``65537`` gives ``h`` exactly (Chinese remainder theorem).

    >>> from kpart.producer.clients import get_partitioner, key_hash
    >>> key_hashes(pa.array([b"my_key_1", None]), "murmur2").tolist()[0] == key_hash(
    ...     get_partitioner("java:default"), b"my_key_1")
    True
    """
    from kpart.producer._client_kernels import KERNELS, MODE_UNSIGNED
    from kpart.producer.kernels import _binary_view

    keys = _binary_view(keys)
    n = len(keys)
    out = np.full(n, -1, dtype=np.int64)
    if n == 0:
        return out
    _, offsets_buf, data_buf = keys.buffers()
    window = slice(keys.offset, keys.offset + n + 1)
    offsets: NDArray[np.int32] | NDArray[np.int64] = (
        np.frombuffer(offsets_buf, dtype=np.int64)[window]
        if pa.types.is_large_binary(keys.type)
        else np.frombuffer(offsets_buf, dtype=np.int32)[window])
    data = (np.frombuffer(data_buf, dtype=np.uint8) if data_buf is not None and data_buf.size
            else np.zeros(1, dtype=np.uint8))
    kernel = KERNELS[hash_name][0]
    lo, hi = np.empty(n, dtype=np.int32), np.empty(n, dtype=np.int32)
    kernel(data, offsets, _LO, MODE_UNSIGNED, lo)
    kernel(data, offsets, _HI, MODE_UNSIGNED, hi)
    a, b = lo.astype(np.int64), hi.astype(np.int64)
    h = a + _LO * np.mod(a - b, _HI)
    valid = keys.is_valid().to_numpy(zero_copy_only=False)
    out[valid] = h[valid]
    return out


def lower_bound(window_records: np.ndarray, window_bytes: np.ndarray, window_s: float,
                limits: PartitionLimits) -> int:
    """The smallest ``M`` whose *mean* partition stays within both limits in every window
    (``window_records``/``window_bytes``: a topic's totals per window, shape ``(W,)``): no
    count below it can work, the busiest partition carrying at least the mean."""
    peak_r = float(np.max(window_records, initial=0)) / window_s
    peak_b = float(np.max(window_bytes, initial=0)) / window_s
    return max(1, math.ceil(peak_r / limits.consumer_records_per_s - 1e-12),
               math.ceil(peak_b / limits.max_partition_bytes_per_s - 1e-12))


def candidate_batches(first: int, last: int, size: int = 8) -> Iterator[tuple[int, ...]]:
    """Candidate counts ``first..last`` in batches evaluated one Spark job each: ``size``
    counts, then doubling up to 64 (a count far above the lower bound is rarely needed).

    >>> [len(b) for b in candidate_batches(1, 100)]
    [8, 16, 32, 44]
    """
    m = first
    while m <= last:
        batch = tuple(range(m, min(last, m + size - 1) + 1))
        yield batch
        m += len(batch)
        size = min(size * 2, 64)


@dataclass(frozen=True, slots=True)
class Peaks:
    """The busiest partition's records and bytes in its busiest window under ``M``, as
    counts in one window (divide by ``window_s`` for rates); each metric its own maximum."""

    records: float
    bytes: float


@dataclass(frozen=True, slots=True)
class HotKeyWindow:
    """The key with the largest (key, window) load relative to the limits: ``key`` (str, int
    or hex), its ``records`` and ``bytes`` in the window starting at ``window_start_ms``."""

    key: str | int
    records: int
    bytes: int
    window_start_ms: int


def peaks_with_spread(keyed_records: np.ndarray, keyed_bytes: np.ndarray,
                      spread_records: np.ndarray, spread_bytes: np.ndarray, m: int) -> Peaks:
    """:class:`Peaks` under ``m`` from, per window, the busiest partition's keyed records and
    bytes (``keyed_*``, each its own maximum over partitions) and the records spread evenly
    (``spread_*``: null keys, random keys), all shape ``(W,)``."""
    r = np.asarray(keyed_records, dtype=np.float64) + np.asarray(spread_records) / m
    b = np.asarray(keyed_bytes, dtype=np.float64) + np.asarray(spread_bytes) / m
    return Peaks(float(np.max(r, initial=0.0)), float(np.max(b, initial=0.0)))


def _fits(p: Peaks, window_s: float, limits: PartitionLimits) -> bool:
    return (p.records / window_s <= limits.consumer_records_per_s
            and p.bytes / window_s <= limits.max_partition_bytes_per_s)


def _figure(x: float) -> str:
    """``x`` for a sentence: whole with thousands separators from 100 up, else three
    significant digits (``0.8``, ``12.5``, ``10,000``)."""
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3g}"


def _iso(ms: int) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(ms / 1000, UTC).isoformat().replace("+00:00", "Z")


def _hot_key_json(hot: HotKeyWindow, window_s: float, limits: PartitionLimits) -> dict[str, Any]:
    r, b = hot.records / window_s, hot.bytes / window_s
    over = ("consumer_records_per_s" if r > limits.consumer_records_per_s
            else "max_partition_bytes_per_s")
    return {"key": hot.key, "window_start": _iso(hot.window_start_ms), "records_per_s": r,
            "bytes_per_s": b, "limit": over}


@dataclass(frozen=True, slots=True)
class CountQuestion:
    """What :func:`search_partition_count` knows of a topic without evaluating a count:
    ``current`` partitions, the ``limits``, ``window_s``, the topic's totals per window
    (``window_records``/``window_bytes``, keyed and spread, shape ``(W,)``), the peaks at the
    current count (``current_peaks``), the heaviest (key, window) (``hot``; ``None`` when no
    window can exceed a limit) and the largest consumer group reading the topic
    (``largest_group``; ``None``: no group), whose members the advice never goes below."""

    current: int
    limits: PartitionLimits
    window_s: float
    window_records: np.ndarray
    window_bytes: np.ndarray
    current_peaks: Peaks
    hot: HotKeyWindow | None = None
    largest_group: ConsumerParallelism | None = None


class CountEvaluator(Protocol):
    """Answers :func:`search_partition_count`'s queries about candidate counts (the Spark job's
    :class:`kpart.spark._partition_count` evaluator; tests pass a numpy one)."""

    def peaks(self, counts: tuple[int, ...]) -> Mapping[int, Peaks]:
        """The peaks of each count, over the windows that can exceed a limit (enough to tell
        which counts fit)."""
        ...

    def exact_peaks(self, m: int) -> Peaks:
        """The peaks of ``m`` over every window (the figures reported)."""
        ...

    def moved(self, m: int) -> tuple[float, float]:
        """Shares of the keys and of their records whose partition changes from the current
        count to ``m`` (keys deciding their partition only)."""
        ...

    def skew_at(self, m: int) -> dict[str, Any]:
        """:func:`kpart._skew.skew_stats` of the keyed records per partition under ``m``."""
        ...


@dataclass(frozen=True, slots=True)
class CountAdvice:
    """The partition count advised (:func:`advise_count`): ``count``, what set it (``by``:
    ``"load"``, ``"current"`` or ``"consumers"``, :data:`RECOMMENDED_BY`),
    the ``reason`` in words, and the load's own ``smallest_fitting`` count (a fact)."""

    count: int
    by: str
    reason: str
    smallest_fitting: int


def count_floor(current: int, largest_group: ConsumerParallelism | None) -> tuple[int, str]:
    """The count the advice never goes below and what sets it: the ``current`` count (Kafka
    cannot reduce a topic's partition count: ``"current"``), or the members of the largest
    group reading the topic when it has more (a member without a partition idles:
    ``"consumers"``).

    >>> count_floor(12, ConsumerParallelism("billing", 3)), count_floor(2, None)
    ((12, 'current'), (2, 'current'))
    >>> count_floor(2, ConsumerParallelism("billing", 5))
    (5, 'consumers')
    """
    if largest_group is not None and largest_group.members > current:
        return largest_group.members, "consumers"
    return current, "current"


def largest_groups(groups: Iterable[tuple[str, int, Iterable[str]]]
                   ) -> dict[str, ConsumerParallelism]:
    """Topic → the largest group reading it, from ``(group, members, topics it reads)`` in
    topology order (the first one of a tie).

    >>> largest_groups([("delay-analytics", 3, ["flights", "weather"]),
    ...                 ("billing", 5, ["flights"])])["flights"]
    ConsumerParallelism(group='billing', members=5)
    """
    out: dict[str, ConsumerParallelism] = {}
    for name, members, topics in groups:
        for t in topics:
            if t not in out or members > out[t].members:
                out[t] = ConsumerParallelism(name, members)
    return out


def advise_count(first_fitting: Callable[[int], int | None], current: int,
                 largest_group: ConsumerParallelism | None = None) -> CountAdvice | None:
    """The partition count to advise, never a shrink: the smallest count within the limits
    that is at least :func:`count_floor` (the current count, and the members of the largest
    group reading the topic). ``first_fitting(m)``: the smallest count ``>= m`` within the
    limits (``None``: none up to the largest count searched). ``None`` when no count fits.

    ``by`` is ``"load"`` when the load sets the count (the smallest fitting count is at or
    above the floor, or the floor itself exceeds the limits and the count is the next one
    that fits), else what set the floor. The load's smallest fitting count is kept as a fact
    (``smallest_fitting``), never advised below the floor.

    >>> fits_from_4 = lambda m: max(m, 4)          # every count from 4 up fits
    >>> advise_count(fits_from_4, 12, ConsumerParallelism("billing", 3))
    CountAdvice(count=12, by='current', reason="keep: Kafka cannot reduce a topic's partition count", smallest_fitting=4)
    >>> advise_count(fits_from_4, 2, ConsumerParallelism("billing", 5)).reason
    '5 members in group billing'
    >>> advise_count(fits_from_4, 2).reason
    'the load: 4 is the smallest count within the limits'
    """
    smallest = first_fitting(1)
    if smallest is None:
        return None
    floor, floor_by = count_floor(current, largest_group)
    count = smallest if smallest >= floor else first_fitting(floor)
    if count is None:
        return None
    if count == smallest:
        return CountAdvice(count, "load", f"the load: {count} is the smallest count within the "
                           "limits", smallest)
    if count > floor:
        return CountAdvice(count, "load", f"the load: {floor} partitions exceed the limits, "
                           f"{count} is the smallest count from {floor} within them", smallest)
    if floor_by == "current":
        return CountAdvice(count, "current", "keep: Kafka cannot reduce a topic's partition "
                           "count", smallest)
    assert largest_group is not None
    return CountAdvice(count, "consumers", f"{largest_group.members} members in group "
                       f"{largest_group.group}", smallest)


def search_partition_count(q: CountQuestion, evaluate: CountEvaluator) -> PartitionCountResult:
    """The :class:`PartitionCountResult` of one topic (see the module docstring): the hot-key
    verdict when ``q.hot`` alone exceeds a limit (nothing is searched), else the load's
    smallest fitting count, searched from :func:`lower_bound` up to ``limits.max_partitions``
    in the batches of :func:`candidate_batches`, and the count advised (:func:`advise_count`:
    never below the current count nor the largest group's members), with its exact peaks,
    skew and moved shares."""
    limits, window_s, current = q.limits, q.window_s, q.current
    current_ok = _fits(q.current_peaks, window_s, limits)

    def none(reason: str, hot_key: dict[str, Any] | None = None,
             smallest: int | None = None) -> PartitionCountResult:
        return PartitionCountResult(limits, current, current_ok, None,
                                    q.current_peaks.bytes / window_s,
                                    q.current_peaks.records / window_s, hot_key=hot_key,
                                    reason=reason, smallest_fitting=smallest,
                                    largest_group=q.largest_group)

    hot = q.hot
    if hot is not None and not _fits(Peaks(hot.records, hot.bytes), window_s, limits):
        j = _hot_key_json(hot, window_s, limits)
        rate = j["records_per_s"] if j["limit"] == "consumer_records_per_s" else j["bytes_per_s"]
        unit = "records/s" if j["limit"] == "consumer_records_per_s" else "bytes/s"
        return none(f"key {hot.key!r} alone carries {_figure(rate)} {unit} in the window "
                    f"starting {j['window_start']}, over {j['limit']} = "
                    f"{_figure(getattr(limits, j['limit']))}: no partition count helps, the fix "
                    "is the key", j)
    first = lower_bound(q.window_records, q.window_bytes, window_s, limits)
    if first > limits.max_partitions:
        return none(f"the busiest window alone needs {first:,} partitions at the mean rate, "
                    f"over max_partitions = {limits.max_partitions:,}")
    known: dict[int, bool] = {}  # count -> fits, each count evaluated once

    def first_fitting(m: int) -> int | None:
        start = max(m, first)
        for batch in candidate_batches(start, max(limits.max_partitions, start)):
            unknown = tuple(c for c in batch if c not in known)
            if unknown:
                results = evaluate.peaks(unknown)
                known.update((c, _fits(results[c], window_s, limits)) for c in unknown)
            found = next((c for c in batch if known[c]), None)
            if found is not None:
                return found
        return None

    advice = advise_count(first_fitting, current, q.largest_group)
    if advice is None:
        smallest = first_fitting(1)
        if smallest is None:
            return none(f"no partition count from {first} to {limits.max_partitions} keeps the "
                        "busiest partition within the limits")
        floor = count_floor(current, q.largest_group)[0]
        return none(f"no partition count from {floor} to {max(limits.max_partitions, floor)} "
                    "keeps the busiest partition within the limits (the smallest count within "
                    f"them is {smallest}, below {floor})", smallest=smallest)
    found = advice.count
    p = q.current_peaks if found == current else evaluate.exact_peaks(found)
    keys_share, records_share = (0.0, 0.0) if found == current else evaluate.moved(found)
    verdict = ("the current count already fits" if current_ok
               else f"{current} partitions exceed the limits")
    return PartitionCountResult(
        limits, current, current_ok, found, p.bytes / window_s, p.records / window_s,
        skew=evaluate.skew_at(found), moved_keys_share=keys_share,
        moved_records_share=records_share,
        reason=f"{found} partitions ({advice.reason}); the smallest count within the limits is "
               f"{advice.smallest_fitting} (searched from {first}); {verdict}",
        smallest_fitting=advice.smallest_fitting, recommended_by=advice.by,
        largest_group=q.largest_group)


def keyless_partition_count(*, current: int, limits: PartitionLimits, window_s: float,
                            window_records: np.ndarray, window_bytes: np.ndarray,
                            partitioner: str,
                            largest_group: ConsumerParallelism | None = None
                            ) -> PartitionCountResult:
    """The partition count for a partitioner that ignores keys (``librdkafka:random``): every
    record is spread evenly, so the lower bound (:func:`lower_bound`) is the load's smallest
    fitting count (``None`` above ``max_partitions``) and any larger count fits too; the count
    advised is never below the current count nor the largest group's members
    (:func:`advise_count`). No key moves."""
    first = lower_bound(window_records, window_bytes, window_s, limits)
    zeros = np.zeros_like(np.asarray(window_records, dtype=np.float64))

    def at(m: int) -> Peaks:
        return peaks_with_spread(zeros, zeros, window_records, window_bytes, m)

    now = at(current)
    ok = _fits(now, window_s, limits)
    if first > limits.max_partitions:
        return PartitionCountResult(limits, current, ok, None, now.bytes / window_s,
                                    now.records / window_s,
                                    reason=f"{partitioner} ignores keys: the records spread "
                                    f"evenly need {first} partitions, over {limits.max_partitions}",
                                    largest_group=largest_group)
    advice = advise_count(lambda m: max(m, first), current, largest_group)
    assert advice is not None
    p = at(advice.count)
    return PartitionCountResult(
        limits, current, ok, advice.count, p.bytes / window_s, p.records / window_s, skew=None,
        moved_keys_share=0.0, moved_records_share=0.0,
        reason=f"{advice.count} partitions ({advice.reason}); {partitioner} ignores keys: "
               f"records spread evenly, so the rate over the limits alone sets the smallest "
               f"count within them, {first}",
        smallest_fitting=first, recommended_by=advice.by, largest_group=largest_group)
