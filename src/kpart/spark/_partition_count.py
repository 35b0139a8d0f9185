"""The partition count a topic needs, evaluated natively in Spark (issue 14, point 4): the
Spark half of :mod:`kpart.producer.partition_count` (which holds the rule, the defaults and the
search).

One 32-bit hash per distinct key (:func:`with_key_hash`: the JVM's murmur2 —
``StaticInvoke``/``reflect`` of Commons Codec's ``MurmurHash2.hash32`` — or column arithmetic
for fixed-width keys, Spark's ``hash`` for the ``spark:hash`` baseline, else the compiled Arrow
kernels through ``mapInArrow``), then every candidate count ``M`` of a batch at once: the
(key, window) rows are exploded over the batch and the partition is column arithmetic on the
hash (:func:`index_column`, the client's rule: ``toPositive(h) % M`` for Java's
``BuiltInPartitioner``), rolled up per (M, partition, window) natively; only one row per count
comes back to the driver. Nothing per key is collected.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from kpart.analysis.cluster_loads import TopicWindows
from kpart.producer.partition_count import (
    CountQuestion,
    CountRules,
    HotKeyWindow,
    PartitionCountResult,
    PartitionLimits,
    Peaks,
    index_rule,
    keyless_partition_count,
    peaks_with_spread,
    search_partition_count,
)
from kpart.spark._keys import KEY_COLUMN

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import Column, DataFrame

__all__ = ["HASH_COLUMN", "WINDOW_COLUMN", "index_column", "measure_partition_count",
           "with_key_hash"]

#: The distinct key's unsigned 32-bit hash (``bigint``) added by :func:`with_key_hash`.
HASH_COLUMN = "__kpart_hash"
#: The window index ``floor(ms / window_ms)`` of the (key, window) rows.
WINDOW_COLUMN = "__kpart_window"
_U32 = 0xFFFFFFFF


def with_key_hash(per_key: DataFrame, serialized: str, partitioner: str) -> DataFrame:
    """``per_key`` (distinct keys in ``KEY_COLUMN``, prepared as :mod:`kpart.spark._keys` does
    for the serializer ``serialized``) with :data:`HASH_COLUMN`: the key's 32-bit hash under
    ``partitioner`` as an unsigned ``bigint`` (``spark:hash``: the bits of Spark's ``hash``);
    null for a null key."""
    from pyspark.sql import functions as F

    from kpart.producer.clients import get_partitioner
    from kpart.spark._fixed_width import FIXED_WIDTHS, murmur2_fixed_width
    from kpart.spark.transforms import _jvm_hash

    key = F.col(KEY_COLUMN)
    if partitioner == "spark:hash":
        hashed: Column | None = F.hash(key).cast("bigint").bitwiseAND(F.lit(_U32))
    elif get_partitioner(partitioner).hash != "murmur2":
        hashed = None
    elif serialized in FIXED_WIDTHS:
        hashed = murmur2_fixed_width(key, FIXED_WIDTHS[serialized])
    else:
        signed = _jvm_hash(per_key, KEY_COLUMN, serialized, "auto")
        hashed = None if signed is None else signed.cast("bigint").bitwiseAND(F.lit(_U32))
    if hashed is not None:
        return per_key.withColumn(HASH_COLUMN, F.when(key.isNotNull(), hashed))
    return _arrow_hashes(per_key, serialized, get_partitioner(partitioner).hash)


def _arrow_hashes(per_key: DataFrame, serialized: str, hash_name: str) -> DataFrame:
    """:func:`with_key_hash` through ``mapInArrow`` (:func:`kpart.producer.partition_count.
    key_hashes` on each batch of distinct keys)."""
    from pyspark.sql.types import LongType, StructField, StructType

    from kpart.spark.transforms import map_in_arrow

    schema = StructType([*per_key.schema.fields, StructField(HASH_COLUMN, LongType(), True)])

    def hash_batches(batches: Any) -> Any:  # on executors: plain values only
        import pyarrow as pa

        from kpart.producer._keys import serialized_keys
        from kpart.producer.partition_count import key_hashes

        for batch in batches:
            values = batch.column(batch.schema.get_field_index(KEY_COLUMN))
            h = key_hashes(serialized_keys(values, serialized), hash_name)
            yield pa.RecordBatch.from_arrays(
                [*batch.columns, pa.array(h, mask=h < 0, type=pa.int64())],
                names=[*batch.schema.names, HASH_COLUMN])

    return map_in_arrow(per_key, hash_batches, schema)


def index_column(hashed: Column, m: Column | int, rule: str) -> Column:
    """The partition (``bigint``) under ``m`` partitions of the unsigned 32-bit ``hashed``, by
    the client's ``rule`` (:data:`kpart.producer.partition_count.INDEX_RULES`; the reference is
    :func:`kpart.producer.partition_count.partitions_of_hashes`). ``m`` 1 gives partition 0."""
    from pyspark.sql import functions as F

    mm = F.lit(m) if isinstance(m, int) else m
    if rule == "to-positive":
        return hashed.bitwiseAND(F.lit(0x7FFFFFFF)) % mm
    if rule == "unsigned":
        return hashed % mm
    signed = F.when(hashed >= F.lit(1 << 31), hashed - F.lit(1 << 32)).otherwise(hashed)
    if rule == "abs":
        return F.abs(signed % mm)
    if rule == "pmod":
        return F.pmod(signed, mm)
    raise ValueError(f"unknown index rule {rule!r}")


@dataclass(slots=True)
class _Search:
    """The Spark evaluations :func:`search_partition_count` calls back
    (:class:`~kpart.producer.partition_count.CountEvaluator`), over one topic's (key, window)
    rows ``kw`` (persisted: ``KEY_COLUMN``, :data:`WINDOW_COLUMN`, ``records``, ``bytes``) and
    distinct keys ``per_key`` (persisted, with ``partition``); ``placed``: the column telling
    the rows whose key decides the partition; ``spread_*``: per window from ``start``, the
    records spread evenly; ``hot_windows``: the windows whose total can exceed a limit;
    ``totals_*``: the topic's totals per window. The key
    hashes are computed once, on first use (a topic whose every window is under the limits
    needs none)."""

    kw: DataFrame
    per_key: DataFrame
    placed: Column
    serialized: str
    partitioner: str
    rule: str
    spread_r: np.ndarray
    spread_b: np.ndarray
    hot_windows: list[int]
    start: int
    totals_r: np.ndarray
    totals_b: np.ndarray
    _hashed: DataFrame | None = None
    _hot_rows: DataFrame | None = None
    _cached: list[DataFrame] = field(default_factory=list)

    def hashed_keys(self) -> DataFrame:
        """Distinct placed keys with ``partition``, ``records`` and :data:`HASH_COLUMN`."""
        if self._hashed is None:
            keys = self.per_key.where(self.placed).select(KEY_COLUMN, "partition", "records")
            self._hashed = with_key_hash(keys, self.serialized, self.partitioner).persist()
            self._cached.append(self._hashed)
        return self._hashed

    def rows(self, windows: list[int] | None) -> DataFrame:
        """(hash, window, records, bytes) of the placed keys, in ``windows`` (all: ``None``);
        the rows of the hot windows are persisted on first use (every batch reads them)."""
        from pyspark.sql import functions as F

        if windows is not None and windows is self.hot_windows and self._hot_rows is not None:
            return self._hot_rows
        kw = self.kw.where(self.placed)
        if windows is not None:
            spark = self.kw.sparkSession
            wanted = spark.createDataFrame([(w,) for w in windows], f"{WINDOW_COLUMN} bigint")
            kw = kw.join(F.broadcast(wanted), on=WINDOW_COLUMN, how="left_semi")
        hashes = self.hashed_keys().select(KEY_COLUMN, HASH_COLUMN)
        rows = kw.join(hashes, on=KEY_COLUMN, how="inner").select(
            HASH_COLUMN, WINDOW_COLUMN, "records", "bytes")
        if windows is not None and windows is self.hot_windows:
            self._hot_rows = rows.persist()
            self._cached.append(rows)
        return rows

    def _evaluate(self, counts: tuple[int, ...], windows: list[int] | None) -> dict[int, Peaks]:
        from pyspark.sql import functions as F

        m = F.explode(F.array(*[F.lit(c) for c in counts])).alias("m")
        rows = (
            self.rows(windows).select(m, "*")
            .withColumn("p", index_column(F.col(HASH_COLUMN), F.col("m"), self.rule))
            .groupBy("m", "p", WINDOW_COLUMN)
            .agg(F.sum("records").alias("r"), F.sum("bytes").alias("b"))
            .groupBy("m", WINDOW_COLUMN).agg(F.max("r").alias("r"), F.max("b").alias("b"))
        )
        if self.spread_r.any() or self.spread_b.any():
            spark = self.kw.sparkSession
            first = self.start
            spread = spark.createDataFrame(
                [(first + i, int(r), int(b)) for i, (r, b) in
                 enumerate(zip(self.spread_r, self.spread_b, strict=True)) if r or b],
                f"{WINDOW_COLUMN} bigint, sr bigint, sb bigint")
            rows = rows.join(F.broadcast(spread), on=WINDOW_COLUMN, how="left")
            r = F.col("r") + F.coalesce(F.col("sr"), F.lit(0)) / F.col("m")
            b = F.col("b") + F.coalesce(F.col("sb"), F.lit(0)) / F.col("m")
        else:
            r, b = F.col("r").cast("double"), F.col("b").cast("double")
        got = {int(row["m"]): Peaks(float(row["r"]), float(row["b"])) for row in
               rows.groupBy("m").agg(F.max(r).alias("r"), F.max(b).alias("b")).collect()}
        sr, sb = float(self.spread_r.max(initial=0)), float(self.spread_b.max(initial=0))
        return {c: Peaks(max(got.get(c, Peaks(0.0, 0.0)).records, sr / c),
                         max(got.get(c, Peaks(0.0, 0.0)).bytes, sb / c)) for c in counts}

    def peaks(self, counts: tuple[int, ...]) -> dict[int, Peaks]:
        """Peaks of each count of ``counts`` over the windows that can exceed a limit."""
        if not self.hot_windows:
            return {c: Peaks(0.0, 0.0) for c in counts}
        return self._evaluate(counts, self.hot_windows)

    def exact_peaks(self, m: int) -> Peaks:
        """Peaks of ``m`` over every window."""
        if m == 1:  # one partition: the busiest window's totals
            return Peaks(float(self.totals_r.max(initial=0)), float(self.totals_b.max(initial=0)))
        return self._evaluate((m,), None)[m]

    def target(self, m: int) -> Column:
        from pyspark.sql import functions as F

        return F.lit(0).cast("bigint") if m == 1 else index_column(
            F.col(HASH_COLUMN), m, self.rule)

    def keys(self, m: int) -> DataFrame:
        return (self.per_key.where(self.placed).select("partition", "records") if m == 1
                else self.hashed_keys())

    def moved(self, m: int) -> tuple[float, float]:
        """Shares of placed keys and of their records whose partition changes to ``m``."""
        from pyspark.sql import functions as F

        moves = self.target(m) != F.col("partition")
        row = self.keys(m).agg(
            F.count(F.lit(1)).alias("keys"), F.sum("records").alias("records"),
            F.sum(F.when(moves, 1).otherwise(0)).alias("mk"),
            F.sum(F.when(moves, F.col("records")).otherwise(0)).alias("mr")).first()
        if row is None or not row["keys"]:
            return 0.0, 0.0
        return (round(row["mk"] / row["keys"], 6),
                round(row["mr"] / row["records"], 6) if row["records"] else 0.0)

    def skew_at(self, m: int) -> dict[str, Any]:
        """:func:`kpart._skew.skew_stats` of placed records per partition under ``m``."""
        from pyspark.sql import functions as F

        from kpart._skew import skew_stats

        per = np.zeros(m, dtype=np.int64)
        for row in self.keys(m).groupBy(self.target(m).alias("p")).agg(
                F.sum("records").alias("r")).collect():
            per[int(row["p"])] = int(row["r"])
        return dict(skew_stats(per))

    def hottest(self, window_ms: int, limits: PartitionLimits) -> HotKeyWindow | None:
        """The (key, window) with the largest load relative to the limits."""
        from pyspark.sql import functions as F

        from kpart.spark.key_loads import hot_key_value

        window_s = window_ms / 1000
        weight = F.greatest(F.col("records") / F.lit(limits.consumer_records_per_s * window_s),
                            F.col("bytes") / F.lit(limits.max_partition_bytes_per_s * window_s))
        row = (self.kw.where(self.placed & F.col(WINDOW_COLUMN).isNotNull())
               .orderBy(weight.desc(), F.asc(KEY_COLUMN)).limit(1).first())
        if row is None:
            return None
        return HotKeyWindow(hot_key_value(row[KEY_COLUMN]), int(row["records"]),
                            int(row["bytes"]), int(row[WINDOW_COLUMN]) * window_ms)

    def close(self) -> None:
        for df in self._cached:
            df.unpersist()


def measure_partition_count(
    kw: DataFrame, per_key: DataFrame, placed: Column, windows: TopicWindows,
    spread: tuple[np.ndarray, np.ndarray], *, serialized: str, partitioner: str,
    rules: CountRules,
) -> PartitionCountResult:
    """The :class:`PartitionCountResult` of one timed topic from its persisted (key, window)
    rows ``kw``, its distinct keys ``per_key`` (with their ``partition`` at the current count,
    ``windows.partitions``), the
    column ``placed`` (rows whose key decides the partition: not null, not drawn at random),
    its measured ``windows`` at ``current`` (:class:`TopicWindows`) and the records and bytes
    per window spread evenly over the partitions (``spread``: random keys, and null keys
    unless the topic sends them elsewhere). ``rules``: the limits one partition may carry and the
    largest consumer group reading the topic; the count advised is never below its members, nor
    below the current count (:func:`kpart.producer.partition_count.advise_count`)."""
    limits, largest_group = rules.limits, rules.largest_group
    window_s, current = windows.window_s, windows.partitions
    spread_r, spread_b = spread
    totals_r = windows.records.sum(axis=0) + spread_r
    totals_b = windows.bytes.sum(axis=0) + spread_b
    rule = index_rule(partitioner)
    if rule is None:
        return keyless_partition_count(current=current, limits=limits, window_s=window_s,
                                       window_records=totals_r, window_bytes=totals_b,
                                       partitioner=partitioner, largest_group=largest_group)
    hot = (totals_r > limits.consumer_records_per_s * window_s) | (
        totals_b > limits.max_partition_bytes_per_s * window_s)
    start = windows.start_ms // windows.window_ms
    search = _Search(kw, per_key, placed, serialized, partitioner, rule, spread_r, spread_b,
                     [start + int(i) for i in np.flatnonzero(hot)], start, totals_r, totals_b)
    current_peaks = peaks_with_spread(windows.records.max(axis=0, initial=0),
                                      windows.bytes.max(axis=0, initial=0), spread_r, spread_b,
                                      current)
    question = CountQuestion(current, limits, window_s, totals_r, totals_b, current_peaks,
                             largest_group=largest_group)
    try:
        if hot.any():
            question = replace(question, hot=search.hottest(windows.window_ms, limits))
        return search_partition_count(question, search)
    finally:
        search.close()
