"""The loads of one topic's records, as ``kpart report`` measures them: every record's key (as
the key serializer takes it) and bytes grouped by key natively, each distinct key hashed once
(:func:`kpart.spark.with_partition`), then rolled up per partition into
:class:`~kpart.analysis.loads.Loads` (*aggregate before you hash*). The single-topic job
(:mod:`kpart.spark.pipeline`) runs :func:`measure_loads`; the cluster job
(:mod:`kpart.spark.cluster_job`) runs the same steps on its (key, window) aggregate:
:func:`record_columns` → :class:`KeyedRecords` → :func:`keys_with_partition` →
:func:`rollup_rows` → :func:`loads_from_rows`.

Units: records are counts; bytes = serialized key length + the record as a JSON object
(:data:`kpart.analysis.summary.BYTES_DEFINITION`). Keys a client places at random, not by their
hash (every key under ``librdkafka:random``, empty keys under ``librdkafka:consistent_random``),
are drawn again per record on the driver (:func:`loads_from_rows`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kpart.analysis.loads import HotKey, Loads
from kpart.errors import ConfigError
from kpart.producer.null_keys import apportion, random_partition_counts
from kpart.spark._keys import (
    KEY_COLUMN,
    check_key_column,
    key_column,
    record_bytes,
    serialized_as,
)
from kpart.spark.transforms import with_partition

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import Column, DataFrame, Row

    from kpart.topology import TopicConfig

__all__ = [
    "BAD_COLUMN",
    "HOT_KEYS",
    "INVALID_KEYS",
    "RAW_COLUMN",
    "KeyedRecords",
    "aggregate_by_key",
    "hot_key_value",
    "keys_with_partition",
    "loads_from_rows",
    "measure_loads",
    "partition_rows",
    "random_key_column",
    "record_columns",
    "rollup_rows",
    "warn_if_keyless",
]

#: Where :func:`measure_loads` announces its steps (``on_step``): nowhere by default.
Steps = Callable[[str], None]


def _silent(step: str) -> None:
    """The default ``on_step``: library callers see no output."""


#: Hot keys in a report's summary (the most frequent keys, :func:`measure_loads`' ``top_k``).
HOT_KEYS = 10
#: What :func:`measure_loads` does with keys the serializer cannot represent.
INVALID_KEYS = ("error", "count")
#: The column marking keys the serializer cannot represent (when it may refuse some).
BAD_COLUMN = "__kpart_bad_key"
#: The column holding such a key's value as text (the smallest is the error's example).
RAW_COLUMN = "__kpart_bad_value"


def hot_key_value(value: Any) -> str | int:
    """A hot key as ``summary.json`` shows it: text or an integer as Spark gives it, bytes as
    hex.

    >>> hot_key_value(b"\\x01\\xff"), hot_key_value("k"), hot_key_value(7)
    ('01ff', 'k', 7)
    """
    if isinstance(value, bytes | bytearray):
        return bytes(value).hex()
    key: str | int = value  # Spark gives a str (text keys) or an int (integral keys)
    return key


def random_key_column(partitioner: str, serializer: str) -> Column:
    """True for the non-null keys the client places at random, not by their hash."""
    from pyspark.sql import functions as F

    from kpart.producer.clients import PARTITIONERS

    spec = PARTITIONERS.get(partitioner)
    if spec is not None and spec.hash == "none":
        return F.lit(True)
    if spec is not None and spec.empty_key == "random" and serializer in ("string", "bytes"):
        return F.coalesce(F.octet_length(F.col(KEY_COLUMN)) == 0, F.lit(False))
    return F.lit(False)


def measure_loads(
    df: DataFrame,
    topic: TopicConfig,
    *,
    partitioner: str | None = None,
    top_k: int = 10,
    method: str = "auto",
    invalid_keys: str = "error",
    on_step: Steps = _silent,
) -> Loads:
    """Records, bytes and distinct keys per partition, null keys and the ``top_k`` hot keys of
    ``df`` for ``topic`` (its ``key`` column, ``key_serializer``, ``partitions``, and its
    ``partitioner`` unless overridden). Runs two small Spark jobs over one cached aggregate.

    ``ConfigError`` naming the column, the first bad value (smallest in sort order) and the
    records affected when the serializer cannot represent some keys (text that is not an
    integer or out of range under ``int``/``long``/``short``, not a canonical UUID under
    ``uuid``, not ``bytes.fromhex`` text under ``hex``; :mod:`kpart.spark._keys`): found by
    the first job, before the second. With
    ``invalid_keys="count"`` those records are counted apart instead
    (``Loads.invalid_key_records``, in no partition). ``on_step`` is told the next step
    (``"hashing 4,043 distinct keys"``) between the two jobs."""
    from pyspark.sql import functions as F

    from kpart.spark._keys import bad_key_error

    if invalid_keys not in INVALID_KEYS:
        raise ConfigError.about("invalid_keys", "{param}: expected one of {known}, got {value!r}",
                                known=", ".join(INVALID_KEYS), value=invalid_keys)
    keyed = aggregate_by_key(df, topic)  # the scan runs once, here
    try:
        counted = keyed.aggregated.select(F.count(KEY_COLUMN)).first()
        on_step(f"hashing {counted[0] if counted is not None else 0:,} distinct keys")
        rows, hot = partition_rows(keyed, topic.partitions, partitioner or topic.partitioner,
                                    method=method, top_k=top_k,
                                    refuse_invalid=invalid_keys == "error")
    finally:
        keyed.aggregated.unpersist()
    for r in rows:
        if r["bad_key"] and invalid_keys == "error":
            raise bad_key_error(topic.key, topic.key_serializer, r["records"], r[RAW_COLUMN])
    return loads_from_rows(rows, hot, topic)


@dataclass(frozen=True, slots=True)
class KeyedRecords:
    """Records grouped by their prepared key: ``aggregated`` (persisted) has ``KEY_COLUMN``,
    ``records``, ``bytes`` (and ``BAD_COLUMN``/``RAW_COLUMN`` when the serializer may refuse some keys);
    ``serialized``: how the prepared key is hashed (``hex`` keys as their bytes)."""

    aggregated: DataFrame
    serialized: str
    checks_bad: bool


def aggregate_by_key(df: DataFrame, topic: TopicConfig) -> KeyedRecords:
    """Step 1: per record, the key as the serializer takes it and the record's bytes, grouped by
    key natively (records, bytes). Values the serializer cannot represent are grouped apart in the
    same pass, with the smallest as example: never wrapped."""
    from pyspark.sql import functions as F

    columns, groups, checks_bad = record_columns(df, topic)
    checks = [F.min(RAW_COLUMN).alias(RAW_COLUMN)] if checks_bad else []
    aggregated = (
        df.select(*columns).groupBy(*groups)
        .agg(F.count(F.lit(1)).alias("records"), F.sum("bytes").alias("bytes"), *checks)
        .persist()
    )
    return KeyedRecords(aggregated, serialized_as(topic.key_serializer), checks_bad)


def record_columns(df: DataFrame, topic: TopicConfig) -> tuple[list[Column], list[str], bool]:
    """The per-record columns of step 1 (``KEY_COLUMN``, ``bytes``, and ``BAD_COLUMN``/``RAW_COLUMN`` when
    the serializer may refuse some keys), the columns to group by, and whether ``BAD_COLUMN`` is
    there (also the first columns of :mod:`kpart.spark.cluster_job`'s (key, window) pass)."""
    from pyspark.sql import functions as F

    from kpart.spark._keys import prepared_key

    serializer = topic.key_serializer
    dtype = check_key_column(df, topic.key, serializer)
    key, bad = prepared_key(key_column(topic.key), dtype, serializer)
    columns = [key.alias(KEY_COLUMN), record_bytes(df, key, serializer).alias("bytes")]
    groups = [KEY_COLUMN]
    if bad is not None:
        columns += [bad.alias(BAD_COLUMN), F.when(bad, key_column(topic.key).cast("string")).alias(RAW_COLUMN)]
        groups.append(BAD_COLUMN)
    return columns, groups, bad is not None


def partition_rows(keyed: KeyedRecords, n: int, partitioner: str, *, method: str,
                    top_k: int, refuse_invalid: bool) -> tuple[list[Row], list[Row]]:
    """Step 2: each distinct key's partition (:func:`with_partition`), rolled up per (null,
    invalid, empty, drawn-at-random key, partition) with keys, records and bytes; and the
    ``top_k`` keys by records (not looked for when ``refuse_invalid`` and some keys are
    invalid: the caller refuses them)."""
    per_key = keys_with_partition(keyed, n, partitioner, method=method).persist()
    try:
        return rollup_rows(per_key, keyed, partitioner, top_k=top_k,
                            refuse_invalid=refuse_invalid)
    finally:
        per_key.unpersist()


def keys_with_partition(keyed: KeyedRecords, n: int, partitioner: str, *,
                         method: str) -> DataFrame:
    """The distinct keys of ``keyed`` with their ``partition`` under ``n`` partitions."""
    return keyed.aggregated.transform(
        with_partition(KEY_COLUMN, n, keyed.serialized, partitioner=partitioner, method=method))


def rollup_rows(per_key: DataFrame, keyed: KeyedRecords, partitioner: str, *, top_k: int,
                 refuse_invalid: bool) -> tuple[list[Row], list[Row]]:
    """The two collects of step 2 over ``per_key`` (:func:`keys_with_partition`, persisted)."""
    from pyspark.sql import functions as F

    serialized = keyed.serialized
    checks = [F.min(RAW_COLUMN).alias(RAW_COLUMN)] if keyed.checks_bad else []
    empty_key = (F.coalesce(F.octet_length(F.col(KEY_COLUMN)) == 0, F.lit(False))
                 if serialized in ("string", "bytes") else F.lit(False))
    rows = (
        per_key.groupBy(F.col(KEY_COLUMN).isNull().alias("null_key"),
                        (F.col(BAD_COLUMN) if keyed.checks_bad else F.lit(False)).alias("bad_key"),
                        empty_key.alias("empty_key"),
                        random_key_column(partitioner, serialized).alias("random_key"),
                        "partition")
        .agg(F.count(F.lit(1)).alias("keys"), F.sum("records").alias("records"),
             F.sum("bytes").alias("bytes"), *checks)
        .collect()
    )
    hot = (
        per_key.where(F.col(KEY_COLUMN).isNotNull())
        .orderBy(F.desc("records"), F.asc(KEY_COLUMN))
        .limit(top_k)
        .collect()
    ) if top_k > 0 and not (refuse_invalid and any(r["bad_key"] for r in rows)) else []
    return rows, hot


def loads_from_rows(rows: Sequence[Row], hot: Sequence[Row], topic: TopicConfig) -> Loads:
    """Step 3, in Python: the per-partition loads. Invalid keys (counted apart) and null keys
    are in no partition; keys the client places at random are drawn again per record (a seeded
    multinomial, :func:`kpart.producer.null_keys.random_partition_counts`)."""
    n = topic.partitions
    records, byts, keys = [0] * n, [0] * n, [0] * n
    null_records = null_bytes = random_records = random_bytes = random_keys = 0
    for r in rows:
        if r["bad_key"]:  # counted apart (invalid_keys="count"): no partition
            continue
        if r["null_key"]:
            null_records += r["records"]
            null_bytes += r["bytes"]
        elif r["random_key"]:  # the partition drawn per distinct key is not used
            random_records += r["records"]
            random_bytes += r["bytes"]
            random_keys += r["keys"]
        else:
            p = r["partition"]
            records[p] += r["records"]
            byts[p] += r["bytes"]
            keys[p] += r["keys"]
    if random_records:
        drawn = random_partition_counts(random_records, n, topic.effective_null_key_seed)
        records = [a + b for a, b in zip(records, drawn, strict=True)]
        byts = [a + b for a, b in zip(byts, apportion(random_bytes, drawn), strict=True)]
        keys = [a + b for a, b in zip(keys, apportion(random_keys, drawn), strict=True)]
    return Loads(
        tuple(records), tuple(byts), tuple(keys), null_records, null_bytes,
        tuple(HotKey(hot_key_value(h[KEY_COLUMN]), h["records"], h["bytes"], h["partition"])
              for h in hot),
        empty_key_records=sum(r["records"] for r in rows if r["empty_key"]),
        invalid_key_records=sum(r["records"] for r in rows if r["bad_key"]),
    )


def warn_if_keyless(loads: Loads, key: str, where: str = "") -> bool:
    """Warn (one :class:`~kpart.errors.KpartWarning`) when the key column ``key`` is null in
    every record of ``loads`` (at least one record): the partitions' loads are then the
    null-key model's draws, not the keys'. ``where`` prefixes the message (a cluster's
    ``"topics[0] (clicks): "``). Returns whether it warned.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_if_keyless(Loads((0, 0), (0, 0), (0, 0), 5, 50, ()), "user_id")
    True
    >>> print(caught[0].message)
    key column 'user_id' is null in every record (5): the partitions' loads are the null-key model's draws, not the keys' (check the key column's name)
    """
    from kpart._warnings import kpart_warn

    keyed = sum(loads.partition_records) + loads.invalid_key_records
    if keyed or not loads.null_key_records:
        return False
    kpart_warn(f"{where}key column {key!r} is null in every record ({loads.null_key_records:,})"
               ": the partitions' loads are the null-key model's draws, not the keys' (check "
               "the key column's name)")
    return True
