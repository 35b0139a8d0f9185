"""Partition-count what-if for ``BuiltInPartitioner.partitionForKey`` (and every other client's
key partitioner, ``partition = hash % n``): which keys move when a topic goes from N to M
partitions (``kafka-topics.sh --alter --partitions M``), and how even the load is after.

Pure Arrow/numpy core of ``kpart whatif`` (the Spark version is :mod:`kpart.spark.whatif`).
Kafka never moves existing records, but a key whose partition changes from N to M has records
on two partitions from then on: its ordering guarantee breaks during the change. For one
partitioner, :func:`partition_count_whatif` computes exactly, over distinct keys with their
records (and bytes, if given):

* the fraction of keys, of records and of bytes whose partition changes N → M;
* records (and keys, bytes) per partition for N and for each M, with skew (max/mean and
  CV = population std / mean, as in ``kpart._skew.skew_stats``);
* the best M: lowest records max/mean, then lowest CV, then smallest M, among the current count
  N, the targets and an optional search range (e.g. 13..48) — never worse than N.

Records whose partition the key does not decide (null keys, unless the client hashes them as
empty; empty keys under a random empty-key rule) are left out of the loads and counted in
``unkeyed_records``. ``librdkafka:random`` (every key random) is refused.

JSON section (:meth:`WhatIfReport.to_json`, written as ``"whatif"`` in ``summary.json``)::

    {"partitioner": str, "num_partitions": N, "keys": int, "records": int, "bytes": int|null,
     "unkeyed_records": int, "unkeyed_bytes": int|null, "best": M, "targets": [M, ...],
     "scenarios": [{"num_partitions": M, "max_over_mean": float, "cv": float,   # N first,
                    "moved_fraction": float,          # records, then each target in order
                    "moved_key_fraction": float, "moved_bytes_fraction": float|null,
                    "bytes_max_over_mean": float|null}],
     "loads": [{"num_partitions": M, "records": [int]*M, "keys": [int]*M,
                "bytes": [int]*M | null}],                             # same order
     "search": {"from": int, "to": int, "ranking": [scenario, ...]} | null}  # best first

>>> import pyarrow as pa
>>> r = partition_count_whatif(pa.array(["my_key_1", "my_key_2", "my_key_3"]), 6, [4])
>>> r.scenario(6).records, r.scenario(4).moved_keys
((1, 0, 0, 0, 1, 1), 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from kpart.errors import ConfigError
from kpart.limits import (
    MAX_PARTITIONS_PER_TOPIC,
    MAX_WHATIF_SEARCH,
    check_partitions,
    check_whatif,
)
from kpart.producer._keys import distinct_keys, key_partitions, serialized_keys, skew
from kpart.producer.clients import check_num_partitions, get_partitioner

__all__ = [
    "LOAD_ROWS",
    "MAX_PARTITIONS",
    "MAX_SEARCH",
    "WhatIfReport",
    "WhatIfScenario",
    "WhatIfTally",
    "partition_count_whatif",
    "tally_batch",
    "whatif_counts",
]

#: Largest number of partition counts one search range may hold.
MAX_SEARCH = MAX_WHATIF_SEARCH
#: Largest partition count evaluated (per-partition loads are kept for every count).
MAX_PARTITIONS = MAX_PARTITIONS_PER_TOPIC


#: The rows of :attr:`WhatIfTally.loads`, in order.
LOAD_ROWS = ("keys", "records", "bytes", "moved_keys", "moved_records", "moved_bytes")


@dataclass(slots=True)
class WhatIfTally:
    """Additive counts per partition count ``m``, mergeable across batches (the Spark layer
    tallies each Arrow batch of distinct keys on executors and merges on the driver with
    :meth:`merge`).

    ``loads[m]`` is a 6×m int64 array whose rows are :data:`LOAD_ROWS`: keys, records, bytes,
    moved keys, moved records, moved bytes per partition under ``m`` partitions (moved = the
    key's partition under ``m`` differs from under ``num_partitions``; counted at the
    destination). ``unkeyed_*``: keys, records and bytes whose partition the key does not decide.
    Bytes are zero when ``has_bytes`` is false.

    >>> a, b = (WhatIfTally("java:default", 2, (2, 3), False) for _ in "ab")
    >>> a.loads[3][1] += [1, 0, 2]; b.loads[3][1] += [0, 4, 0]; b.unkeyed_records = 5
    >>> m = a.merge(b)
    >>> m is a, m.loads[3][1].tolist(), m.unkeyed_records
    (True, [1, 4, 2], 5)
    """

    partitioner: str
    num_partitions: int
    counts: tuple[int, ...]
    has_bytes: bool
    unkeyed_keys: int = 0
    unkeyed_records: int = 0
    unkeyed_bytes: int = 0
    loads: dict[int, NDArray[np.int64]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for m in self.counts:
            self.loads.setdefault(m, np.zeros((len(LOAD_ROWS), m), dtype=np.int64))

    def merge(self, other: WhatIfTally) -> WhatIfTally:
        """Add ``other`` into this tally and return ``self``: the tally of two disjoint batches of
        distinct keys is the merge of their tallies.

        Raises ConfigError when ``other`` is of another partitioner, current count, set of counts
        or bytes setting.
        """
        mine = (self.partitioner, self.num_partitions, self.counts, self.has_bytes)
        theirs = (other.partitioner, other.num_partitions, other.counts, other.has_bytes)
        if mine != theirs:
            raise ConfigError(
                f"cannot merge a what-if tally of (partitioner, num_partitions, counts, "
                f"has_bytes) {theirs} into one of {mine}"
            )
        self.unkeyed_keys += other.unkeyed_keys
        self.unkeyed_records += other.unkeyed_records
        self.unkeyed_bytes += other.unkeyed_bytes
        for m in self.counts:
            self.loads[m] += other.loads[m]
        return self


def _sum_by(parts: np.ndarray, weights: np.ndarray | None, m: int) -> np.ndarray:
    if weights is None:
        return np.bincount(parts, minlength=m).astype(np.int64)
    return np.rint(np.bincount(parts, weights=weights, minlength=m)).astype(np.int64)


def tally_batch(values: pa.Array, records: np.ndarray, bytes_: np.ndarray | None,
                partitioner: str, num_partitions: int, counts: Sequence[int],
                serializer: str = "string") -> WhatIfTally:
    """The :class:`WhatIfTally` of ``values`` (distinct key values) with their records/bytes;
    ``counts`` are the partition counts to evaluate (``num_partitions`` among them)."""
    spec = get_partitioner(partitioner)
    counts = tuple(dict.fromkeys([num_partitions, *counts]))
    tally = WhatIfTally(spec.id, num_partitions, counts, bytes_ is not None)
    keys = serialized_keys(values, serializer)
    records = np.asarray(records, dtype=np.int64)
    byts = None if bytes_ is None else np.asarray(bytes_, dtype=np.int64)
    base = key_partitions(spec, keys, num_partitions)
    det = base >= 0
    tally.unkeyed_keys = int((~det).sum())
    tally.unkeyed_records = int(records[~det].sum())
    tally.unkeyed_bytes = 0 if byts is None else int(byts[~det].sum())
    sub = keys.filter(pa.array(det)) if not det.all() else keys
    base, records = base[det], records[det]
    byts = None if byts is None else byts[det]
    for m in counts:
        part = base if m == num_partitions else key_partitions(spec, sub, m)
        moved = part != base
        arr = tally.loads[m]
        arr[0] = _sum_by(part, None, m)
        arr[1] = _sum_by(part, records, m)
        arr[3] = _sum_by(part[moved], None, m)
        arr[4] = _sum_by(part[moved], records[moved], m)
        if byts is not None:
            arr[2] = _sum_by(part, byts, m)
            arr[5] = _sum_by(part[moved], byts[moved], m)
    return tally


@dataclass(frozen=True, slots=True)
class WhatIfScenario:
    """Loads with ``num_partitions`` partitions and what moved relative to the current count.
    ``bytes``/``moved_bytes`` are ``None`` when no sizes were given."""

    num_partitions: int
    keys: tuple[int, ...]
    records: tuple[int, ...]
    bytes: tuple[int, ...] | None
    moved_keys: int
    moved_records: int
    moved_bytes: int | None

    @property
    def skew(self) -> dict[str, float]:
        """``{"max_over_mean", "cv"}`` of records per partition."""
        return skew(self.records)

    def rank_key(self) -> tuple[float, float, int]:
        """Sort key of the best count: records max/mean, then CV, then the count."""
        s = self.skew
        return (s["max_over_mean"], s["cv"], self.num_partitions)

    def to_json(self, total: WhatIfReport) -> dict[str, Any]:
        """One ``scenarios[]`` row (flat figures; the loads go to ``loads[]``)."""
        bskew = skew(self.bytes)["max_over_mean"] if self.bytes is not None else None
        return {"num_partitions": self.num_partitions, **self.skew,
                "moved_fraction": _frac(self.moved_records, total.records),
                "moved_key_fraction": _frac(self.moved_keys, total.keys),
                "moved_bytes_fraction": None if self.moved_bytes is None else _frac(
                    self.moved_bytes, total.bytes or 0),
                "bytes_max_over_mean": bskew}


def _frac(part: int, whole: int) -> float:
    return round(part / whole, 6) if whole else 0.0


@dataclass(frozen=True, slots=True)
class WhatIfReport:
    """The result of :func:`partition_count_whatif` (JSON shape in the module docstring).
    ``scenarios``: the current count first, then each target; ``searched``: the search range's
    scenarios, best first; ``best``: the best count among the current count, the targets and the
    search range (so never worse than the current count)."""

    partitioner: str
    num_partitions: int
    keys: int
    records: int
    bytes: int | None
    unkeyed_keys: int
    unkeyed_records: int
    targets: tuple[int, ...]
    scenarios: tuple[WhatIfScenario, ...]
    search: tuple[int, int] | None
    searched: tuple[WhatIfScenario, ...]
    best: int
    unkeyed_bytes: int | None = None

    @classmethod
    def from_tally(cls, tally: WhatIfTally, targets: Sequence[int],
                   search: tuple[int, int] | None = None) -> WhatIfReport:
        """Figures from merged counts (``targets`` and ``search`` as given to the tally)."""
        def scenario(m: int) -> WhatIfScenario:
            a = tally.loads[m]
            row = [tuple(int(x) for x in r) for r in a[:3]]
            return WhatIfScenario(m, row[0], row[1], row[2] if tally.has_bytes else None,
                                  int(a[3].sum()), int(a[4].sum()),
                                  int(a[5].sum()) if tally.has_bytes else None)

        n = tally.num_partitions
        order = tuple(dict.fromkeys([n, *targets]))
        scenarios = tuple(scenario(m) for m in order)
        searched: tuple[WhatIfScenario, ...] = ()
        if search is not None:
            searched = tuple(sorted((scenario(m) for m in range(search[0], search[1] + 1)),
                                    key=WhatIfScenario.rank_key))
        current = scenarios[0]
        # the current count is a candidate: "best" is never worse than "now"
        pool = [current, *(s for s in scenarios if s.num_partitions in targets), *searched]
        best = min(pool, key=WhatIfScenario.rank_key).num_partitions
        return cls(tally.partitioner, n, sum(current.keys), sum(current.records),
                   sum(current.bytes) if current.bytes is not None else None,
                   tally.unkeyed_keys, tally.unkeyed_records, tuple(targets), scenarios,
                   search, searched, best,
                   tally.unkeyed_bytes if tally.has_bytes else None)

    def scenario(self, m: int) -> WhatIfScenario:
        """The scenario of partition count ``m`` (current, target or searched)."""
        for s in (*self.scenarios, *self.searched):
            if s.num_partitions == m:
                return s
        raise ConfigError(f"partition count {m} was not evaluated")

    def to_json(self) -> dict[str, Any]:
        """The ``"whatif"`` section of ``summary.json``."""
        return {
            "partitioner": self.partitioner, "num_partitions": self.num_partitions,
            "keys": self.keys, "records": self.records, "bytes": self.bytes,
            "unkeyed_records": self.unkeyed_records,
            "unkeyed_bytes": self.unkeyed_bytes,
            "best": self.best,
            "targets": list(self.targets),
            "scenarios": [s.to_json(self) for s in self.scenarios],
            "loads": [{"num_partitions": s.num_partitions, "records": list(s.records),
                       "keys": list(s.keys),
                       "bytes": None if s.bytes is None else list(s.bytes)}
                      for s in self.scenarios],
            "search": None if self.search is None else {
                "from": self.search[0], "to": self.search[1],
                "ranking": [s.to_json(self) for s in self.searched]},
        }


def _count(m: Any) -> int:
    count = check_num_partitions(m)
    check_partitions(count, "partition count")
    return count


def whatif_counts(num_partitions: int, targets: Sequence[int],
                  search: tuple[int, int] | None = None) -> tuple[int, ...]:
    """Every partition count to evaluate (current, targets, search range), validated.

    Raises InvalidPartitionsError naming a bad count, ConfigError for a bad search range.

    >>> whatif_counts(12, [16, 24], (13, 15))
    (12, 16, 24, 13, 14, 15)
    """
    counts = [_count(num_partitions)]
    counts += [_count(m) for m in targets]
    if search is not None:
        lo, hi = (_count(x) for x in search)
        if lo > hi:
            raise ConfigError(f"search range {lo}-{hi}: the start is above the end")
        if hi - lo + 1 > MAX_SEARCH:
            raise ConfigError(f"search range {lo}-{hi} holds more than {MAX_SEARCH} counts")
        counts += range(lo, hi + 1)
    counts = list(dict.fromkeys(counts))
    check_whatif(counts)
    return tuple(counts)


def partition_count_whatif(
    keys: pa.Array | Sequence[Any],
    num_partitions: int,
    to: Sequence[int],
    partitioner: str = "java:default",
    *,
    records: Sequence[int] | np.ndarray | None = None,
    bytes_: Sequence[int] | np.ndarray | None = None,
    search: tuple[int, int] | None = None,
    serializer: str = "string",
) -> WhatIfReport:
    """What changes when the topic goes from ``num_partitions`` to each count in ``to``.

    Args:
        keys: key values (Arrow array or Python values; see
            :func:`kpart.producer.compat.compare_partitioners` for types); null = no key.
        num_partitions: the current partition count N (> 0).
        to: target counts M (> 0 each; M < N is allowed for comparison, Kafka cannot shrink).
        partitioner: a client partitioner id (``kpart partitioners``), not ``librdkafka:random``.
        records, bytes_: records and bytes per key (default: 1 record, no bytes); repeated key
            values are summed.
        search: inclusive range ``(lo, hi)`` of further counts to rank.
        serializer: Kafka's key serializer (``string``, ``bytes``, ``uuid``, ``int``, ...).

    Returns: a :class:`WhatIfReport`. Raises InvalidPartitionsError/ConfigError naming the value.
    """
    spec = get_partitioner(partitioner)
    if spec.hash == "none":
        raise ConfigError(f"partitioner {spec.id!r} ignores keys: no partition-count what-if")
    targets = tuple(check_num_partitions(m) for m in to)
    counts = whatif_counts(num_partitions, targets, search)
    values, recs = distinct_keys(keys, records)
    byts = None
    if bytes_ is not None:
        _, byts = distinct_keys(keys, bytes_)
    tally = tally_batch(values, recs, byts, spec.id, num_partitions, counts, serializer)
    return WhatIfReport.from_tally(tally, targets, search)
