"""Cross-client key partitioning (Java ``BuiltInPartitioner.partitionForKey`` vs librdkafka,
Sarama, kafkajs, kafka-go): on which keys, and how many records, do two clients disagree?

Pure Arrow/numpy core of ``kpart compat`` (the Spark version is :mod:`kpart.spark.compat`).
Given key values (Arrow), optional record counts per key, a partition count and partitioner ids
(``kpart partitioners``), :func:`compare_partitioners` places every distinct key with every
partitioner (:func:`kpart.producer.kernels.partition_for_keys`) and counts, for each pair, the
keys and records that land on different partitions, with example keys.

Rules (documented choices):

* **Null keys** are not compared (Kafka's Java producer does not hash them; each client has its
  own null-key rule); they are counted in ``null_key_records``.
* A key a client places **at random** (an empty key under ``librdkafka:consistent_random`` or
  ``kafka-go:crc32``; every key under ``librdkafka:random``) is *undetermined* and counts as a
  disagreement with every other client: the two producers are not certain to agree.
* Duplicate key values are merged (their records summed); fractions are over distinct non-null
  keys and over their records.
* Example keys of a pair: the disagreeing keys with the most records, ties by serialized bytes.

Default partitioners (:data:`DEFAULT_PARTITIONERS`): one per distinct (hash, index rule) family,
named by the client whose *default* it is: ``java:default`` (murmur2; also kafkajs default,
librdkafka/Sarama/kafka-go murmur2, kafka-python), ``librdkafka:consistent_random`` (CRC-32,
librdkafka's default; also Sarama crc, kafka-go crc32), ``sarama:hash`` (FNV-1a ``abs``, Sarama's
default; also librdkafka fnv1a, kafka-go Hash), ``sarama:reference`` (FNV-1a ``& 0x7fffffff``;
also kafka-go ReferenceHash) and ``kafkajs:legacy`` (kafkajs 1.x float murmur2).

JSON section (:meth:`CompatReport.to_json`, written as ``"compat"`` in ``summary.json``)::

    {"num_partitions": int, "serializer": str, "reference": str,   # first partitioner
     "partitioners": [str, ...], "keys": int, "records": int, "null_key_records": int,
     "clients": [{"partitioner": str, "same_fraction": float,      # records agreeing with
                  "same_key_fraction": float, "max_over_mean": float, "cv": float,  # reference
                  "undetermined_keys": int, "records_per_partition": [int, ...]}],
     "matrix": {"key_fraction": [[float]], "record_fraction": [[float]],  # row/col order =
                "keys": [[int]], "records": [[int]]},                     # "partitioners"
     "pairs": [{"a": str, "b": str, "keys": int, "records": int, "key_fraction": float,
                "record_fraction": float, "examples": [key, ...]}]}     # str, int or hex bytes

>>> import pyarrow as pa
>>> r = compare_partitioners(pa.array(["100:48069", "TT0124"]), 12,
...                          ["java:default", "librdkafka:consistent", "kafkajs:legacy"])
>>> r.pair("java:default", "kafkajs:legacy").keys, r.pair("librdkafka:consistent",
...                                                        "kafkajs:legacy").examples
(2, ('TT0124',))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from kpart.errors import ConfigError
from kpart.limits import check_partitions
from kpart.producer._keys import (
    VALUE_SERIALIZERS,
    distinct_keys,
    key_partitions,
    serialized_keys,
    skew,
)
from kpart.producer.clients import (
    PARTITIONERS,
    check_num_partitions,
    get_partitioner,
)

__all__ = [
    "DEFAULT_PARTITIONERS",
    "VALUE_SERIALIZERS",
    "CompatReport",
    "CompatTally",
    "PairDisagreement",
    "compare_partitioners",
    "key_partitions",
    "parse_partitioners",
    "serialized_keys",
    "skew",
]

#: One partitioner per (hash, index) family, each the default of some client.
DEFAULT_PARTITIONERS = (
    "java:default",
    "librdkafka:consistent_random",
    "sarama:hash",
    "sarama:reference",
    "kafkajs:legacy",
)
#: Serializers of key *columns* (Kafka's String/ByteArray/UUID/Integer/Long/Short serializers).
def parse_partitioners(text: str | Sequence[str] | None) -> tuple[str, ...]:
    """Partitioner ids from ``"id1,id2"``, a sequence, ``None`` (the defaults) or ``"all"``.

    Raises ConfigError naming an unknown id or a repeated one.

    >>> parse_partitioners("java:default, sarama:hash")
    ('java:default', 'sarama:hash')
    """
    if text is None:
        return DEFAULT_PARTITIONERS
    items = [t.strip() for t in text.split(",")] if isinstance(text, str) else list(text)
    if items == ["all"]:
        return tuple(PARTITIONERS)
    ids: list[str] = []
    for item in items:
        get_partitioner(item)
        if item in ids:
            raise ConfigError(f"partitioner {item!r} is listed twice")
        ids.append(item)
    if not ids:
        raise ConfigError("no partitioner given")
    return tuple(ids)


def _label(value: Any) -> Any:
    return bytes(value).hex() if isinstance(value, bytes | bytearray) else value


#: One example key of a pair: ``(records, serialized key bytes, key value)``.
Example = tuple[int, bytes, Any]


@dataclass(slots=True)
class CompatTally:
    """Additive counts of one batch of *distinct* keys, mergeable across batches (the Spark layer
    tallies each Arrow batch on executors and merges on the driver with :meth:`merge`).

    Fields, for P partitioners and n partitions (all int64 arrays, zero at construction):

    * ``keys``, ``records``: distinct non-null keys and their records;
      ``null_key_records``: records of the null key;
    * ``pair_keys``, ``pair_records`` (P×P): keys and records on which partitioners ``i < j``
      disagree (upper triangle used);
    * ``loads`` (P×n): records per partition under each partitioner (keys it places at random
      left out); ``undetermined`` (P): keys each places at random;
    * ``examples``: ``(i, j) -> [(records, key bytes, key value)]``: the pair's disagreeing keys
      with the most records, ties by key bytes, best first, at most ``max_examples``.

    >>> a, b = CompatTally(("x", "y"), 3, 1), CompatTally(("x", "y"), 3, 1)
    >>> a.keys, a.pair_keys[0, 1], b.keys, b.pair_keys[0, 1] = 2, 1, 5, 2
    >>> a.add_example(0, 1, 7, b"k1", "k1"); b.add_example(0, 1, 9, b"k2", "k2")
    >>> m = a.merge(b)
    >>> m is a, m.keys, int(m.pair_keys[0, 1]), m.examples
    (True, 7, 3, {(0, 1): [(9, b'k2', 'k2')]})
    """

    partitioners: tuple[str, ...]
    num_partitions: int
    max_examples: int
    keys: int = 0
    records: int = 0
    null_key_records: int = 0
    pair_keys: NDArray[np.int64] = field(init=False)
    pair_records: NDArray[np.int64] = field(init=False)
    loads: NDArray[np.int64] = field(init=False)
    undetermined: NDArray[np.int64] = field(init=False)
    examples: dict[tuple[int, int], list[Example]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        p = len(self.partitioners)
        self.pair_keys = np.zeros((p, p), dtype=np.int64)
        self.pair_records = np.zeros((p, p), dtype=np.int64)
        self.loads = np.zeros((p, self.num_partitions), dtype=np.int64)
        self.undetermined = np.zeros(p, dtype=np.int64)

    def add_example(self, i: int, j: int, records: int, key: bytes, value: Any) -> None:
        """Offer an example key for the pair ``(i, j)``; only the best ``max_examples`` stay."""
        best = self.examples.setdefault((i, j), [])
        best.append((records, key, value))
        best.sort(key=lambda e: (-e[0], e[1]))
        del best[self.max_examples :]

    def merge(self, other: CompatTally) -> CompatTally:
        """Add ``other`` into this tally and return ``self``: the tally of two disjoint batches of
        distinct keys is the merge of their tallies (the examples keep the best of both).

        Raises ConfigError when ``other`` counts other partitioners, another partition count or
        keeps another number of examples.
        """
        mine = (self.partitioners, self.num_partitions, self.max_examples)
        theirs = (other.partitioners, other.num_partitions, other.max_examples)
        if mine != theirs:
            raise ConfigError(
                f"cannot merge a compat tally of (partitioners, num_partitions, max_examples) "
                f"{theirs} into one of {mine}"
            )
        self.keys += other.keys
        self.records += other.records
        self.null_key_records += other.null_key_records
        self.pair_keys += other.pair_keys
        self.pair_records += other.pair_records
        self.loads += other.loads
        self.undetermined += other.undetermined
        for (i, j), items in other.examples.items():
            for records, key, value in items:
                self.add_example(i, j, records, key, value)
        return self


def tally_batch(values: pa.Array, records: np.ndarray, num_partitions: int,
                partitioners: Sequence[str], serializer: str = "string",
                examples: int = 3) -> CompatTally:
    """The :class:`CompatTally` of ``values`` (distinct key values) with ``records`` each."""
    ids = tuple(partitioners)
    tally = CompatTally(ids, num_partitions, examples)
    keys = serialized_keys(values, serializer)
    records = np.asarray(records, dtype=np.int64)
    if keys.null_count:
        valid = keys.is_valid().to_numpy(zero_copy_only=False)
        tally.null_key_records = int(records[~valid].sum())
        keep = pa.array(valid)
        keys, values, records = keys.filter(keep), values.filter(keep), records[valid]
    tally.keys, tally.records = len(keys), int(records.sum())
    if not len(keys):
        return tally
    parts = [key_partitions(get_partitioner(pid), keys, num_partitions) for pid in ids]
    for i, p in enumerate(parts):
        det = p >= 0
        tally.undetermined[i] = int((~det).sum())
        tally.loads[i] = np.bincount(p[det], weights=records[det],
                                     minlength=num_partitions).astype(np.int64)
    order = None
    if examples > 0:
        kb = keys.cast(pa.large_binary())
        table = pa.table({"r": records, "k": kb})
        order = pc.sort_indices(table, [("r", "descending"), ("k", "ascending")]).to_numpy()
    for i in range(len(ids)):
        for j in range(i + 1, len(ids)):
            differ = (parts[i] != parts[j]) | (parts[i] < 0) | (parts[j] < 0)
            tally.pair_keys[i, j] = int(differ.sum())
            tally.pair_records[i, j] = int(records[differ].sum())
            if order is not None:
                for x in order[np.flatnonzero(differ[order])[:examples]]:
                    tally.add_example(i, j, int(records[x]), kb[x].as_py(),
                                      values[x].as_py())
    return tally


@dataclass(frozen=True, slots=True)
class PairDisagreement:
    """Keys and records on which clients ``a`` and ``b`` disagree, with example key values."""

    a: str
    b: str
    keys: int
    records: int
    key_fraction: float
    record_fraction: float
    examples: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class CompatReport:
    """The result of :func:`compare_partitioners` (see the module docstring for the JSON)."""

    num_partitions: int
    serializer: str
    partitioners: tuple[str, ...]
    keys: int
    records: int
    null_key_records: int
    pairs: tuple[PairDisagreement, ...]
    records_per_partition: tuple[tuple[int, ...], ...]
    undetermined_keys: tuple[int, ...]

    @classmethod
    def from_tally(cls, tally: CompatTally, serializer: str = "string") -> CompatReport:
        """Fractions and examples from merged counts."""
        ids = tally.partitioners
        pairs = []
        for i in range(len(ids)):
            for j in range(i + 1, len(ids)):
                k, r = int(tally.pair_keys[i, j]), int(tally.pair_records[i, j])
                pairs.append(PairDisagreement(
                    ids[i], ids[j], k, r, _frac(k, tally.keys), _frac(r, tally.records),
                    tuple(e[2] for e in tally.examples.get((i, j), ()))))
        return cls(tally.num_partitions, serializer, ids, tally.keys, tally.records,
                   tally.null_key_records, tuple(pairs),
                   tuple(tuple(int(x) for x in row) for row in tally.loads),
                   tuple(int(x) for x in tally.undetermined))

    def pair(self, a: str, b: str) -> PairDisagreement:
        """The disagreement of ``a`` and ``b`` (either order; ``a == b`` gives zeros)."""
        for p in self.pairs:
            if {p.a, p.b} == {a, b}:
                return p
        if a == b and a in self.partitioners:
            return PairDisagreement(a, b, 0, 0, 0.0, 0.0, ())
        raise ConfigError(f"partitioner pair ({a!r}, {b!r}) not in this report")

    def matrix(self, what: str = "key_fraction") -> list[list[Any]]:
        """Symmetric P×P matrix of ``keys``, ``records``, ``key_fraction`` or ``record_fraction``
        (diagonal 0), rows and columns in :attr:`partitioners` order."""
        return [[getattr(self.pair(a, b), what) for b in self.partitioners]
                for a in self.partitioners]

    def to_json(self) -> dict[str, Any]:
        """The ``"compat"`` section of ``summary.json`` (module docstring)."""
        ref = self.partitioners[0]
        clients = []
        for pid, loads, und in zip(self.partitioners, self.records_per_partition,
                                   self.undetermined_keys, strict=True):
            p = self.pair(ref, pid)
            clients.append({"partitioner": pid, "same_fraction": _frac(self.records - p.records,
                                                                       self.records),
                            "same_key_fraction": _frac(self.keys - p.keys, self.keys),
                            **skew(loads), "undetermined_keys": und,
                            "records_per_partition": list(loads)})
        return {
            "num_partitions": self.num_partitions, "serializer": self.serializer,
            "reference": ref, "partitioners": list(self.partitioners), "keys": self.keys,
            "records": self.records, "null_key_records": self.null_key_records,
            "clients": clients,
            "matrix": {w: self.matrix(w)
                       for w in ("key_fraction", "record_fraction", "keys", "records")},
            "pairs": [{"a": p.a, "b": p.b, "keys": p.keys, "records": p.records,
                       "key_fraction": p.key_fraction, "record_fraction": p.record_fraction,
                       "examples": [_label(e) for e in p.examples]} for p in self.pairs],
        }


def _frac(part: int, whole: int) -> float:
    return round(part / whole, 6) if whole else 0.0


def compare_partitioners(
    keys: pa.Array | Sequence[Any],
    num_partitions: int,
    partitioners: Sequence[str] | str | None = None,
    *,
    records: Sequence[int] | np.ndarray | None = None,
    serializer: str = "string",
    examples: int = 3,
) -> CompatReport:
    """How often each pair of client partitioners puts the same key on different partitions.

    Args:
        keys: key values (Arrow array or Python values): strings/binary for ``string``/``bytes``,
            strings for ``uuid``, integers for ``int``/``long``/``short``; null = no key.
        num_partitions: the topic's partition count (> 0).
        partitioners: ids (``kpart partitioners``), ``"id1,id2"``, ``"all"``; default
            :data:`DEFAULT_PARTITIONERS`. The first is the reference of the JSON ``clients``.
        records: records per key (default 1 each); repeated key values are summed.
        serializer: one of :data:`VALUE_SERIALIZERS` (Kafka's serializer of the key).
        examples: example keys per pair (``>= 0``).

    Returns: a :class:`CompatReport`. Raises ConfigError (unknown partitioner, serializer,
    bad counts) or InvalidPartitionsError (bad ``num_partitions``), naming the value.
    """
    n = check_partitions(check_num_partitions(num_partitions))  # kpart.limits
    ids = parse_partitioners(partitioners)
    if isinstance(examples, bool) or not isinstance(examples, int) or examples < 0:
        raise ConfigError(f"examples must be a non-negative integer, got {examples!r}")
    values, counts = distinct_keys(keys, records)
    tally = tally_batch(values, counts, n, ids, serializer, examples)
    return CompatReport.from_tally(tally, serializer)
