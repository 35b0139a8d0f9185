"""One Spark job for every topic of a cluster topology (issue 14, points 2 to 4): per topic its
loads (as ``kpart report`` measures one topic, :func:`kpart.spark.key_loads.measure_loads`),
its load over time and the partition count it needs, as :class:`kpart.analysis.cluster_loads.
TopicMeasure` values.

Per topic (:func:`measure_topic`), one scan of its dataset:

1. per record, the key as the serializer takes it, the record's bytes
   (:func:`kpart.spark._keys.record_bytes`) and, when the topic has a ``timestamp`` column and
   a window is asked for, the window index ``floor(ms / window_ms)``
   (:mod:`kpart.spark._windows`; a text timestamp that is not ISO 8601 fails the job naming
   the topic, the column and the value);
2. aggregated natively per (key, window) (persisted), then per key;
3. each *distinct* key's partition under the topic's partitioner
   (:func:`kpart.spark.with_partition`), rolled up per partition with the hot keys exactly as
   the single-topic job does (:mod:`kpart.spark.pipeline`'s steps, shared): the same
   :class:`~kpart.analysis.loads.Loads`;
4. the distinct keys' partitions joined back to the (key, window) rows (``how="left"``) and
   rolled up per (partition, window) into a dense ``(P, W)`` :class:`TopicWindows` (``W``: the
   windows from the first to the last timestamp; grids over :data:`kpart.spark._windows.
   MAX_WINDOWS` windows or :data:`~kpart.spark._windows.MAX_WINDOW_CELLS` cells, and windows
   longer than the data's span, are refused before anything is allocated);
5. the partition count (:mod:`kpart.spark._partition_count`).

Only per-partition and per-window figures and the top keys reach the driver, never per-key
data. Records without key, and those a client places at random (empty keys under
``librdkafka:consistent_random``, every record under ``librdkafka:random``), are the windows'
``null_key_*`` (placed by the summary with the topic's null-key rule); records without
timestamp are ``untimed_*``.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from kpart.analysis.cluster_loads import TopicMeasure, TopicWindows
from kpart.analysis.loads import Loads
from kpart.errors import ConfigError
from kpart.producer.partition_count import ConsumerParallelism, CountRules, PartitionLimits
from kpart.spark._keys import KEY_COLUMN, key_column, serialized_as
from kpart.spark._partition_count import WINDOW_COLUMN, measure_partition_count
from kpart.spark._windows import (
    check_timestamp_type,
    check_window_grid,
    timestamp_errors_as_config_errors,
    timestamp_ms_column,
    timestamp_range,
)
from kpart.spark.inputs import InputSpec, load_input
from kpart.spark.key_loads import HOT_KEYS

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import Column, DataFrame, SparkSession

    from kpart.analysis.layout import ResolvedTopology

__all__ = ["ClusterTopics", "measure_topic", "measure_topics"]

Steps = Callable[[str], None]
_TS = "__kpart_ts_ms"


def _silent(step: str) -> None:
    """The default ``on_step``: library callers see no output."""


class ClusterTopics(Protocol):
    """What :func:`measure_topics` reads of a :class:`kpart.analysis.layout.ResolvedCluster`: its
    per-topic resolutions, in topology order."""

    @property
    def topics(self) -> Sequence[ResolvedTopology]:
        """One :class:`~kpart.analysis.layout.ResolvedTopology` per topic."""
        ...


def measure_topics(  # noqa: PLR0913 - the job's keyword options, one per setting
    spark: SparkSession | None,
    resolved: ClusterTopics,
    specs: Mapping[str, InputSpec],
    *,
    window_ms: int | None,
    limits: PartitionLimits,
    top_k: int = HOT_KEYS,
    bad_records: str = "fail",
    on_step: Steps = _silent,
    largest_groups: Mapping[str, ConsumerParallelism] | None = None,
) -> tuple[TopicMeasure, ...]:
    """Measure every topic of ``resolved`` (a :class:`kpart.analysis.layout.ResolvedCluster`; only its
    ``topics``, the per-topic :class:`~kpart.analysis.layout.ResolvedTopology`, are read) on its input
    ``specs[topic name]`` (:func:`kpart.spark.inputs.resolve_topic_input`), in topology order.

    ``window_ms``: the window of the load over time (> 0; ``None``: no windows, hence no
    partition count); topics without ``timestamp`` have neither. ``limits``: what one
    partition may carry (:func:`kpart.producer.partition_count.default_limits`); ``top_k``
    hot keys per topic; ``bad_records``: JSON lines Spark cannot parse refused (``"fail"``) or
    left out and counted (``"count"``: :attr:`TopicMeasure.source`'s ``malformed_records``),
    :func:`kpart.spark.datasets.split_malformed`; ``on_step`` is told each step
    (``"flights: reading flights.parquet"``); ``largest_groups``: topic name → the largest
    consumer group reading it (:func:`kpart.producer.partition_count.largest_groups`), whose
    members the advised partition count never goes below (nor below the topic's current count).
    ``spark`` may be ``None`` when no input has records.

    Before any topic's job, every timed topic's time range is read (one aggregation over its
    timestamp column, :func:`kpart.spark._windows.timestamp_range`) and the window grid checked
    against it (:func:`kpart.spark._windows.check_window_grid`), so a grid too large, a window
    longer than a topic's span or integer timestamps in another unit are refused before the
    work. A key column null in every record is one warning per topic.

    Errors: ``ConfigError`` before any Spark job for a missing spec or a window that is not a
    positive integer; before the jobs, naming the topic: malformed JSON records, a text
    timestamp that is not ISO 8601, an integer timestamp outside 1971–2200 in its unit, a
    window longer than the topic's span or making too many windows (about ``window``, the
    command line's ``--window``); from the jobs: a key the serializer cannot represent.
    """
    from kpart.spark.datasets import check_bad_records

    topics = tuple(resolved.topics)
    if window_ms is not None and (isinstance(window_ms, bool) or not isinstance(window_ms, int)
                                  or window_ms <= 0):
        raise ConfigError.about("window", "{param}: expected a positive number of "
                                "milliseconds, got {value!r}", value=window_ms)
    check_bad_records(bad_records)
    for i, rt in enumerate(topics):
        if rt.topic.name not in specs:
            raise ConfigError(f"topics[{i}] ({rt.topic.name}): no input resolved for it")
    with tempfile.TemporaryDirectory(prefix="kpart-input-") as workdir:  # the staged flights
        read = [_read_topic(spark, rt, specs[rt.topic.name], i, Path(workdir, str(i)),
                            bad_records, on_step) for i, rt in enumerate(topics)]
        spans = {rt.topic.name: _check_grid(df, rt, f"topics[{i}] ({rt.topic.name})",
                                            window_ms, on_step)
                 for i, (rt, (df, _)) in enumerate(zip(topics, read, strict=True))
                 if df is not None and window_ms is not None and rt.topic.timestamp is not None}
        if spans and window_ms is not None:
            _check_common_grid(resolved, spans, window_ms)
        return tuple(
            _measured(df, rt, _counted(specs[rt.topic.name], malformed, bad_records), index=i,
                      window_ms=window_ms,
                      rules=CountRules(limits, (largest_groups or {}).get(rt.topic.name)),
                      top_k=top_k, on_step=on_step)
            for i, (rt, (df, malformed)) in enumerate(zip(topics, read, strict=True)))


def _counted(spec: InputSpec, malformed: int, bad_records: str) -> InputSpec:
    """``spec`` whose ``source`` records the malformed records left out (``"count"`` only)."""
    if bad_records != "count":
        return spec
    return replace(spec, source={**spec.source, "malformed_records": malformed})


def _read_topic(spark: SparkSession | None, resolved: ResolvedTopology, spec: InputSpec,
                index: int, workdir: Path, bad_records: str,
                on_step: Steps) -> tuple[DataFrame | None, int]:
    """Topic ``index``'s input as a DataFrame without malformed records, and their count
    (``None``: no records, no Spark job); the flights data staged under ``workdir``."""
    from kpart.spark.datasets import split_malformed

    topic = resolved.topic
    if spec.records == 0:
        return None, 0
    if spark is None:
        raise ValueError("measure_topics: the input has records, a SparkSession is needed")
    on_step(f"{topic.name}: reading "
            f"{spec.path.name if spec.path is not None else 'the flights data'}")
    workdir.mkdir(parents=True, exist_ok=True)
    df = load_input(spark, spec, workdir, topic.key)
    try:
        return split_malformed(df, spec.fmt, bad_records)
    except ConfigError as e:
        raise ConfigError(e.naming(f"topics[{index}] ({topic.name}).data",
                                   {m: f"--{m.replace('_', '-')}" for m in e.mentions})) from None


def _timestamp_kind(df: DataFrame, column: str, where: str) -> str:
    """The :func:`~kpart.spark._windows.timestamp_kind` of ``df``'s timestamp ``column``."""
    from kpart.spark._keys import schema_key_type

    try:
        dtype = schema_key_type(df.schema, column)
    except ConfigError as e:
        raise ConfigError(e.naming(f"{where}.timestamp")) from None
    return check_timestamp_type(f"{where}.timestamp", column, dtype)


def _check_grid(df: DataFrame, resolved: ResolvedTopology, where: str, window_ms: int,
                on_step: Steps = _silent) -> tuple[int, int]:
    """The first and last epoch milliseconds of a timed topic, read first
    (:func:`~kpart.spark._windows.timestamp_range`), and its window grid checked against them
    (:func:`~kpart.spark._windows.check_window_grid`)."""
    topic = resolved.topic
    column = topic.timestamp
    assert column is not None
    on_step(f"{topic.name}: time range")
    unit = getattr(topic, "timestamp_unit", None) or "ms"
    kind = _timestamp_kind(df, column, where)
    ends = timestamp_range(df, column, kind, where=f"{where}.timestamp", unit=unit)
    if ends is None:
        raise _all_null(where, column)
    try:
        check_window_grid(topic.name, window_ms, *ends, topic.partitions)
    except ConfigError as e:
        raise ConfigError(e.naming("--window")) from None
    return ends


def _check_common_grid(resolved: ClusterTopics, spans: dict[str, tuple[int, int]],
                       window_ms: int) -> None:
    """The common grid of the timed topics (:func:`~kpart.spark._windows.check_common_grid`),
    its series counted as the summary counts them: brokers, group members, heat-map rows (at
    most 200). Skipped when ``resolved`` has no topology (a bare list of topics)."""
    from kpart.spark._windows import check_common_grid

    topology = getattr(resolved, "topology", None)
    if topology is None:
        return
    partitions = sum(rt.topic.partitions for rt in resolved.topics if rt.topic.name in spans)
    rows = (len(topology.brokers) + sum(len(g.members) for g in topology.groups)
            + min(200, partitions))
    check_common_grid(spans, window_ms, rows)


def _all_null(where: str, column: str) -> ConfigError:
    return ConfigError.naming_value(
        f"{where}.timestamp", "{param}: column {column!r} is null in every record: no load "
        "over time (leave timestamp out of this topic, or fill the column)", column=column)


def measure_topic(  # noqa: PLR0913 - measure_topics' keywords, for one topic
    spark: SparkSession | None,
    resolved: ResolvedTopology,
    spec: InputSpec,
    *,
    index: int = 0,
    window_ms: int | None,
    rules: CountRules,
    top_k: int = HOT_KEYS,
    bad_records: str = "fail",
    on_step: Steps = _silent,
) -> TopicMeasure:
    """One topic of :func:`measure_topics` (``index``: its place in the topology, for the
    errors; ``rules``: the limits one partition may carry and the largest consumer group
    reading the topic, for its partition count)."""
    with tempfile.TemporaryDirectory(prefix="kpart-input-") as workdir:  # the staged flights
        df, malformed = _read_topic(spark, resolved, spec, index, Path(workdir), bad_records,
                                    on_step)
        if df is not None and window_ms is not None and resolved.topic.timestamp is not None:
            _check_grid(df, resolved, f"topics[{index}] ({resolved.topic.name})", window_ms,
                        on_step)
        return _measured(df, resolved, _counted(spec, malformed, bad_records), index=index,
                         window_ms=window_ms, rules=rules, top_k=top_k, on_step=on_step)


def _measured(df: DataFrame | None, resolved: ResolvedTopology, spec: InputSpec, *,
              index: int, window_ms: int | None, rules: CountRules, top_k: int,
              on_step: Steps) -> TopicMeasure:
    """The measure of one topic read as ``df`` (``None``: no records)."""
    from kpart.spark.key_loads import warn_if_keyless

    topic = resolved.topic
    if df is None:
        n = topic.partitions
        loads = Loads((0,) * n, (0,) * n, (0,) * n, 0, 0, ())
        return TopicMeasure(topic.name, loads, source=spec.source)
    where = f"topics[{index}] ({topic.name})"
    measure = _measure(df, resolved, spec, where, window_ms=window_ms, rules=rules,
                       top_k=top_k, on_step=on_step)
    warn_if_keyless(measure.loads, topic.key, f"{where}: ")
    return measure


def _measure(df: DataFrame, resolved: ResolvedTopology, spec: InputSpec, where: str, *,
             window_ms: int | None, rules: CountRules, top_k: int,
             on_step: Steps) -> TopicMeasure:
    """:func:`measure_topic` of an input with records, read as ``df``."""
    topic = resolved.topic
    column = getattr(topic, "timestamp", None)
    if column is None or window_ms is None:
        from kpart.spark.key_loads import measure_loads

        try:
            loads = measure_loads(df, topic, partitioner=resolved.key_partitioner, top_k=top_k,
                                  on_step=lambda s: on_step(f"{topic.name}: {s}"))
        except ConfigError as e:
            raise _about_topic(e, where) from None
        return TopicMeasure(topic.name, loads, source=spec.source)
    with timestamp_errors_as_config_errors(f"{where}.timestamp", column):
        return _measure_timed(df, resolved, spec, where=where, window_ms=window_ms,
                              rules=rules, top_k=top_k, on_step=on_step)


def _about_topic(e: ConfigError, where: str) -> ConfigError:
    """``e`` (about a library parameter such as ``key``) naming the topic's field instead."""
    field = {"serializer": "key_serializer"}.get(e.parameter or "", e.parameter)
    return ConfigError(e.naming(f"{where}.{field}")) if field else e


def _timestamp_ms(df: DataFrame, column: str, where: str, unit: str) -> Column:
    """The timestamp column of ``df`` as epoch milliseconds (its type checked; integers in
    ``unit``)."""
    kind = _timestamp_kind(df, column, where)
    return timestamp_ms_column(key_column(column), kind, where=f"{where}.timestamp",
                               column=column, unit=unit)


def _measure_timed(df: DataFrame, resolved: ResolvedTopology, spec: InputSpec, *, where: str,
                   window_ms: int, rules: CountRules, top_k: int,
                   on_step: Steps) -> TopicMeasure:
    """:func:`measure_topic` of a topic with a timestamp column and a window."""
    from pyspark.sql import functions as F

    from kpart.spark.key_loads import RAW_COLUMN, record_columns

    topic = resolved.topic
    column = getattr(topic, "timestamp", None)  # TopicConfig.timestamp (issue 14's contract)
    assert column is not None
    columns, groups, checks_bad = record_columns(df, topic)
    unit = getattr(topic, "timestamp_unit", None) or "ms"
    stamped = df.select(*columns, _timestamp_ms(df, column, where, unit).alias(_TS))
    window = F.expr(f"({_TS} - pmod({_TS}, {window_ms})) div {window_ms}")
    names = [c for c in stamped.columns if c != _TS]
    checks = [F.min(RAW_COLUMN).alias(RAW_COLUMN)] if checks_bad else []
    kw = (stamped.select(*names, window.alias(WINDOW_COLUMN))
          .groupBy(*groups, WINDOW_COLUMN)
          .agg(F.count(F.lit(1)).alias("records"), F.sum("bytes").alias("bytes"), *checks)
          .persist())
    cached: list[DataFrame] = [kw]
    try:
        keyed = _keyed(kw, groups, checks_bad, serialized_as(topic.key_serializer))
        cached.append(keyed.aggregated)
        first = keyed.aggregated.agg(F.count(KEY_COLUMN).alias("keys"),
                                     F.min("lo").alias("lo"), F.max("hi").alias("hi")).first()
        if first is None or first["lo"] is None:
            raise _all_null(where, column)
        lo, hi = int(first["lo"]), int(first["hi"])
        if hi - lo <= 1:  # the span may be shorter than a window: its exact ends
            ends = stamped.agg(F.min(_TS).alias("a"), F.max(_TS).alias("b")).first()
            assert ends is not None
            first_ms, last_ms = int(ends["a"]), int(ends["b"])
        else:
            first_ms, last_ms = lo * window_ms, (hi + 1) * window_ms - 1
        try:
            count = check_window_grid(topic.name, window_ms, first_ms, last_ms, topic.partitions)
        except ConfigError as e:
            raise ConfigError(e.naming("--window")) from None
        loads, per_key = _loads(keyed, resolved, where, top_k, int(first["keys"]), on_step)
        cached.append(per_key)
        on_step(f"{topic.name}: load over {count:,} windows")
        placed = _placed(resolved.key_partitioner, keyed.serialized)
        windows = _windows(kw, per_key, placed, window_ms=window_ms, lo=lo, count=count,
                           partitions=topic.partitions)
        spread = (windows.random_key_records, windows.random_key_bytes)
        if resolved.null_keys.included:  # not under "separate": null keys are elsewhere
            spread = (spread[0] + windows.null_key_records, spread[1] + windows.null_key_bytes)
        on_step(f"{topic.name}: partition count")
        result = measure_partition_count(
            kw, per_key, placed, windows, spread,
            serialized=keyed.serialized, partitioner=resolved.key_partitioner, rules=rules)
    finally:
        for d in reversed(cached):
            d.unpersist()
    return TopicMeasure(topic.name, loads, windows, result, spec.source)


def _keyed(kw: DataFrame, groups: list[str], checks_bad: bool, serialized: str) -> Any:
    """The per-key aggregate of the (key, window) rows, as pipeline's step 1 gives it, with each
    key's first and last window (``lo``, ``hi``)."""
    from pyspark.sql import functions as F

    from kpart.spark.key_loads import RAW_COLUMN, KeyedRecords

    checks = [F.min(RAW_COLUMN).alias(RAW_COLUMN)] if checks_bad else []
    aggregated = (kw.groupBy(*groups)
                  .agg(F.sum("records").alias("records"), F.sum("bytes").alias("bytes"), *checks,
                       F.min(WINDOW_COLUMN).alias("lo"), F.max(WINDOW_COLUMN).alias("hi"))
                  .persist())
    return KeyedRecords(aggregated, serialized, checks_bad)


def _loads(keyed: Any, resolved: ResolvedTopology, where: str, top_k: int, distinct: int,
           on_step: Steps) -> tuple[Loads, DataFrame]:
    """Pipeline's step 2 and 3 on ``keyed``: the topic's loads, and its distinct keys with their
    partition (persisted: the caller unpersists)."""

    from kpart.spark._keys import bad_key_error
    from kpart.spark.key_loads import RAW_COLUMN, keys_with_partition, loads_from_rows, rollup_rows

    topic = resolved.topic
    on_step(f"{topic.name}: hashing {distinct:,} distinct keys")
    per_key = keys_with_partition(keyed, topic.partitions, resolved.key_partitioner,
                                   method="auto").persist()
    try:
        rows, hot = rollup_rows(per_key, keyed, resolved.key_partitioner, top_k=top_k,
                                 refuse_invalid=True)
        for r in rows:
            if r["bad_key"]:
                raise _about_topic(bad_key_error(topic.key, topic.key_serializer, r["records"],
                                                 r[RAW_COLUMN]), where)
    except BaseException:
        per_key.unpersist()
        raise
    return loads_from_rows(rows, hot, topic), per_key


def _placed(partitioner: str, serialized: str) -> Column:
    """True for the rows whose key decides the partition (not null, not drawn at random)."""
    from pyspark.sql import functions as F

    from kpart.spark.key_loads import random_key_column

    return F.col(KEY_COLUMN).isNotNull() & ~random_key_column(partitioner, serialized)


def _windows(kw: DataFrame, per_key: DataFrame, placed: Column, *, window_ms: int, lo: int,
             count: int, partitions: int) -> TopicWindows:
    """Step 4: the (key, window) rows joined to their key's partition, rolled up per
    (partition, window): the dense ``(P, W)`` grid of the keys deciding their partition, and
    per window the null keys (``p = -2``) and the keys placed at random (``p = -1``)."""
    from pyspark.sql import functions as F

    part = per_key.select(KEY_COLUMN, "partition")
    rolled = (
        kw.join(part, on=KEY_COLUMN, how="left")
        .groupBy(F.when(placed, F.col("partition"))
                 .when(F.col(KEY_COLUMN).isNull(), F.lit(-2)).otherwise(F.lit(-1)).alias("p"),
                 WINDOW_COLUMN)
        .agg(F.sum("records").alias("r"), F.sum("bytes").alias("b"))
    )
    table = _to_arrow(rolled)
    wcol = table.column(WINDOW_COLUMN)
    timed = wcol.is_valid().to_numpy(zero_copy_only=False)
    p = table.column("p").to_numpy(zero_copy_only=False).astype(np.int64)
    w = wcol.fill_null(lo).to_numpy(zero_copy_only=False).astype(np.int64) - lo
    r = table.column("r").to_numpy(zero_copy_only=False).astype(np.int64)
    b = table.column("b").to_numpy(zero_copy_only=False).astype(np.int64)
    untimed_r, untimed_b = int(r[~timed].sum()), int(b[~timed].sum())
    p, w, r, b = p[timed], w[timed], r[timed], b[timed]
    records = np.zeros((partitions, count), dtype=np.int64)
    byts = np.zeros((partitions, count), dtype=np.int64)
    keyed = p >= 0
    np.add.at(records, (p[keyed], w[keyed]), r[keyed])
    np.add.at(byts, (p[keyed], w[keyed]), b[keyed])
    spread = np.zeros((4, count), dtype=np.int64)  # null records, bytes; random records, bytes
    for k, code in enumerate((-2, -1)):  # null keys, keys placed at random
        rows = p == code
        np.add.at(spread[2 * k], w[rows], r[rows])
        np.add.at(spread[2 * k + 1], w[rows], b[rows])
    null_r, null_b, rand_r, rand_b = spread
    return TopicWindows(window_ms, lo * window_ms, records, byts, null_r, null_b,
                        untimed_r, untimed_b, rand_r, rand_b)


def _to_arrow(df: DataFrame) -> Any:
    """``df`` collected as an Arrow table (``toArrow``; rows through Python as a fallback)."""
    import pyarrow as pa

    to_arrow = getattr(df, "toArrow", None)
    if to_arrow is not None:
        return to_arrow()
    rows = df.collect()  # pragma: no cover - pyspark < 4
    return pa.table({c: [row[c] for row in rows] for c in df.columns})
