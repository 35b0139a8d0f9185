"""The cluster report's Spark job (:mod:`kpart.spark.cluster_job`): loads equal to the
single-topic job's, windows equal to a direct count, the refusals of bad timestamps and
windows, and the partition count against a brute-force evaluation with kpart's own
partitioners."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from kpart.analysis.layout import ResolvedTopology, resolve_topology
from kpart.errors import ConfigError
from kpart.producer.clients import partition_for_key_by
from kpart.producer.partition_count import default_limits, partitions_of_hashes
from kpart.topology import Broker, TopicConfig, Topology

pytestmark = pytest.mark.spark

WINDOW = 60_000
T0 = 1_700_000_000_000 - 1_700_000_000_000 % WINDOW  # on the grid


def resolved(path: Path | None, *, partitions: int = 4, partitioner: str = "java:default",
             key_partitioner: str | None = None, timestamp: str | None = "ts",
             null_keys: str = "client", name: str = "clicks") -> ResolvedTopology:
    topic = TopicConfig(name, partitions, 1, "user", partitioner=partitioner,
                  null_key_strategy=null_keys, placement_seed=1,
                  data=None if path is None else str(path), timestamp=timestamp)
    return resolve_topology(Topology((Broker(0, None), Broker(1, None)), (topic,), ()),
                            key_partitioner)


def write_json(tmp_path: Path, rows: list[dict[str, Any]], name: str = "clicks.json") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def events(n: int = 600, keys: int = 40, seed: int = 3) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for i in range(n):
        user = None if i % 17 == 0 else f"u{int(rng.paretovariate(1.2)) % keys}"
        ts = None if i % 23 == 0 else T0 + rng.randrange(0, 10 * WINDOW)
        out.append({"user": user, "ts": ts, "v": i})
    return out


def measure(spark: Any, rt: ResolvedTopology, window_ms: int | None = WINDOW, **limits: Any):
    from kpart.spark.cluster_job import measure_topics
    from kpart.spark.inputs import resolve_topic_input

    spec = resolve_topic_input(rt.topic, 0)
    (m,) = measure_topics(spark, SimpleNamespace(topics=(rt,)), {rt.topic.name: spec},
                          window_ms=window_ms, limits=default_limits(**limits))
    return m


def test_loads_equal_the_single_topic_job_and_windows_a_direct_count(spark, tmp_path):
    from kpart.spark.inputs import load_input, resolve_topic_input
    from kpart.spark.key_loads import measure_loads

    rows = events()
    rt = resolved(write_json(tmp_path, rows))
    m = measure(spark, rt)
    spec = resolve_topic_input(rt.topic, 0)
    assert m.loads == measure_loads(load_input(spark, spec, tmp_path, "user"), rt.topic)
    w = m.windows
    assert w is not None and w.window_ms == WINDOW
    # the direct count: kpart's partitioner per record, bytes from the job's totals
    first = min(r["ts"] for r in rows if r["ts"] is not None) // WINDOW
    last = max(r["ts"] for r in rows if r["ts"] is not None) // WINDOW
    assert (w.start_ms, w.windows) == (first * WINDOW, last - first + 1)
    want = np.zeros((4, w.windows), dtype=np.int64)
    null = np.zeros(w.windows, dtype=np.int64)
    untimed = 0
    for r in rows:
        if r["ts"] is None:
            untimed += 1
        elif r["user"] is None:
            null[r["ts"] // WINDOW - first] += 1
        else:
            p = partition_for_key_by("java:default", r["user"].encode(), 4)
            want[p, r["ts"] // WINDOW - first] += 1
    assert w.records.tolist() == want.tolist()
    assert w.null_key_records.tolist() == null.tolist()
    assert w.untimed_records == untimed
    assert (w.records.sum() + w.null_key_records.sum() + w.untimed_records
            == sum(m.loads.partition_records) + m.loads.null_key_records)
    assert (w.bytes.sum() + w.null_key_bytes.sum() + w.untimed_bytes
            == sum(m.loads.partition_bytes) + m.loads.null_key_bytes)
    # default limits: this small topic fits in one partition, and keeps its 4 (Kafka cannot
    # reduce a topic's partition count)
    pc = m.partition_count
    assert pc is not None and pc.smallest_fitting == 1 and pc.current_ok
    assert (pc.recommended, pc.recommended_by) == (4, "current")


def brute_force(rows: list[dict[str, Any]], partitioner: str, m: int) -> tuple[float, float]:
    """Busiest (partition, window) records and bytes-proxy per second under ``m`` partitions:
    per-record partitions from kpart's scalar partitioner; null keys spread evenly."""
    loads: dict[tuple[int, int], int] = {}
    spread: dict[int, int] = {}
    for r in rows:
        if r["ts"] is None:
            continue
        w = r["ts"] // WINDOW
        if r["user"] is None:
            spread[w] = spread.get(w, 0) + 1
        else:
            p = partition_for_key_by(partitioner, r["user"].encode(), m)
            loads[(p, w)] = loads.get((p, w), 0) + 1
    windows = {w for _, w in loads} | set(spread)
    return max(max((loads.get((p, w), 0) for p in range(m)), default=0) + spread.get(w, 0) / m
               for w in windows) / (WINDOW / 1000), 0.0


@pytest.mark.parametrize("partitioner", ["java:default", "sarama:hash"])
def test_partition_count_is_the_smallest_count_a_brute_force_finds(spark, tmp_path, partitioner):
    rows = events(n=900, keys=400, seed=5)
    rt = resolved(write_json(tmp_path, rows), partitioner=partitioner)
    limit = 0.5  # records/s: the busiest window holds ~100 records, 1.67/s over a minute
    m = measure(spark, rt, consumer_records_per_s=limit, max_partitions=64)
    pc = m.partition_count
    assert pc is not None
    fits = [k for k in range(1, 65) if brute_force(rows, partitioner, k)[0] <= limit]
    assert pc.smallest_fitting == (fits[0] if fits else None)
    advised = [k for k in fits if k >= 4]  # never below the current count
    assert pc.recommended == (advised[0] if advised else None)
    if pc.recommended is not None:
        assert pc.peak_records_per_s == pytest.approx(
            brute_force(rows, partitioner, pc.recommended)[0])
        moved = [r for r in rows if r["user"] is not None]
        share = sum(partition_for_key_by(partitioner, r["user"].encode(), 4)
                    != partition_for_key_by(partitioner, r["user"].encode(), pc.recommended)
                    for r in moved) / len(moved)
        assert pc.moved_records_share == pytest.approx(share, abs=1e-6)
        assert pc.skew is not None and pc.skew["max"] > 0
    assert pc.current_ok == (brute_force(rows, partitioner, 4)[0] <= limit)


def test_one_hot_key_over_the_limit_says_the_fix_is_the_key(spark, tmp_path):
    rows = [{"user": "hot", "ts": T0 + i, "v": i} for i in range(120)]
    rows += [{"user": f"u{i}", "ts": T0 + 5 * WINDOW + i, "v": i} for i in range(30)]
    rt = resolved(write_json(tmp_path, rows))
    pc = measure(spark, rt, consumer_records_per_s=1.0).partition_count
    assert pc is not None and pc.recommended is None
    assert pc.hot_key is not None and pc.hot_key["key"] == "hot"
    assert pc.hot_key["limit"] == "consumer_records_per_s"
    assert "the fix is the key" in pc.reason


def test_a_partitioner_ignoring_keys_spreads_the_rate(spark, tmp_path):
    rows = [{"user": f"u{i % 3}", "ts": T0 + (i % 240) * 500, "v": i} for i in range(480)]
    rt = resolved(write_json(tmp_path, rows), partitioner="librdkafka:random")
    m = measure(spark, rt, consumer_records_per_s=1.0)
    assert m.windows is not None and m.windows.records.sum() == 0  # all placed at random
    assert m.windows.random_key_records.sum() == 480 and m.windows.null_key_records.sum() == 0
    pc = m.partition_count
    assert pc is not None and pc.recommended == 4  # 240 records in a minute: 4/s
    assert "ignores keys" in pc.reason


@pytest.mark.parametrize(("null_keys", "smallest"), [("client", 2), ("separate", 1)])
def test_null_keys_spread_unless_sent_elsewhere(spark, tmp_path, null_keys, smallest):
    rows = [{"user": None, "ts": T0 + i, "v": i} for i in range(90)]
    rows += [{"user": f"u{i}", "ts": T0 + WINDOW + i, "v": i} for i in range(30)]
    m = measure(spark, resolved(write_json(tmp_path, rows), null_keys=null_keys),
                consumer_records_per_s=1.0)
    assert m.windows is not None and m.windows.null_key_records.tolist() == [90, 0]
    pc = m.partition_count
    assert pc is not None and pc.smallest_fitting == smallest and pc.recommended == 4


def test_text_timestamps_parse_or_fail_naming_topic_column_and_value(spark, tmp_path):
    good = tmp_path / "good.csv"
    good.write_text("user,ts\nu1,2024-05-01T10:00:00Z\nu2,2024-05-01 10:03:00\n"
                    "u3,2024-05-01T12:00:30+02:00\nu4,\n")
    w = measure(spark, resolved(good)).windows
    assert w is not None and w.start_ms == 1_714_557_600_000 and w.windows == 4
    assert w.records.sum() == 3 and w.untimed_records == 1  # absent field: null
    rows = "".join(f"u{i},2024-05-01T10:{i % 60:02d}:00Z\n" for i in range(150))
    bad = tmp_path / "bad.csv"
    bad.write_text("user,ts\n" + rows + "u9,01/05/2024\n")  # past the first values checked
    with pytest.raises(ConfigError, match=r"^topics\[0\] \(clicks\)\.timestamp: column 'ts': "
                       r"'01/05/2024' is not ISO 8601"):
        measure(spark, resolved(bad))


def test_windows_longer_than_the_span_or_too_many_are_refused(spark, tmp_path):
    rows = [{"user": "a", "ts": T0, "v": 1}, {"user": "b", "ts": T0 + 90_000, "v": 2}]
    rt = resolved(write_json(tmp_path, rows))
    with pytest.raises(ConfigError, match=r"^--window: 1h is longer than the span of topic "
                       "'clicks' \\(1m 30s"):
        measure(spark, rt, window_ms=3_600_000)
    with pytest.raises(ConfigError, match=r"^--window: 1ms makes 90,001 windows .* × 4 "
                       r"partitions"):
        from kpart.spark import _windows

        old = _windows.MAX_WINDOW_CELLS
        _windows.MAX_WINDOW_CELLS = 100_000
        try:
            measure(spark, rt, window_ms=1)
        finally:
            _windows.MAX_WINDOW_CELLS = old


def test_untimed_topics_have_loads_only(spark, tmp_path):
    rt = resolved(write_json(tmp_path, events(100)), timestamp=None)
    m = measure(spark, rt)
    assert m.windows is None and m.partition_count is None
    assert sum(m.loads.partition_records) + m.loads.null_key_records == 100


def test_java_default_native_hash_index_equals_partition_for_key(spark):
    from pyspark.sql import functions as F

    from kpart.producer.builtin import partition_for_key
    from kpart.spark._keys import KEY_COLUMN
    from kpart.spark._partition_count import HASH_COLUMN, index_column, with_key_hash

    rng = random.Random(11)
    keys = ["".join(rng.choice("abcé中0123456789") for _ in range(rng.randrange(0, 20)))
            for _ in range(300)]
    df = spark.createDataFrame([(k,) for k in keys], f"{KEY_COLUMN} string")
    counts = (1, 2, 3, 7, 12, 100, 4000)
    hashed = with_key_hash(df, "string", "java:default")
    cols = [index_column(F.col(HASH_COLUMN), m, "to-positive").alias(f"m{m}") for m in counts]
    got = {r[KEY_COLUMN]: r for r in hashed.select(KEY_COLUMN, HASH_COLUMN, *cols).collect()}
    for k in keys:
        for m in counts:
            assert got[k][f"m{m}"] == partition_for_key(k.encode(), m), (k, m)
    # the pure reference agrees on the same hashes
    h = np.array([got[k][HASH_COLUMN] for k in keys], dtype=np.int64)
    assert partitions_of_hashes(h, 12, "to-positive").tolist() == [
        partition_for_key(k.encode(), 12) for k in keys]


@pytest.mark.parametrize("partitioner", ["sarama:hash", "librdkafka:consistent", "spark:hash",
                                         "kafkajs:legacy"])
def test_other_hashes_index_as_their_partitioner(spark, partitioner):
    from pyspark.sql import functions as F

    from kpart.producer.partition_count import index_rule
    from kpart.spark._keys import KEY_COLUMN
    from kpart.spark._partition_count import HASH_COLUMN, index_column, with_key_hash
    from kpart.spark.transforms import with_partition

    keys = [f"key-{i}" for i in range(200)] + [""]
    df = spark.createDataFrame([(k,) for k in keys], f"{KEY_COLUMN} string")
    rule = index_rule(partitioner)
    assert rule is not None
    for m in (5, 12):
        want = {r[KEY_COLUMN]: r["partition"] for r in df.transform(
            with_partition(KEY_COLUMN, m, partitioner=partitioner)).collect()}
        got = with_key_hash(df, "string", partitioner).select(
            KEY_COLUMN, index_column(F.col(HASH_COLUMN), m, rule).alias("p")).collect()
        for r in got:
            if r[KEY_COLUMN] != "" or partitioner != "librdkafka:consistent":
                assert r["p"] == want[r[KEY_COLUMN]], (r[KEY_COLUMN], m)


@pytest.mark.parametrize("partitioner", ["java:default", "sarama:hash"])
def test_integer_keys_hash_as_their_serializer(spark, partitioner):
    from pyspark.sql import functions as F

    from kpart.producer.partition_count import index_rule
    from kpart.spark._keys import KEY_COLUMN
    from kpart.spark._partition_count import HASH_COLUMN, index_column, with_key_hash
    from kpart.spark.transforms import with_partition

    keys = [0, 1, -1, 48069, 2**63 - 1, -(2**63), None]
    df = spark.createDataFrame([(k,) for k in keys], f"{KEY_COLUMN} bigint")
    rule = index_rule(partitioner)
    assert rule is not None
    want = {r[KEY_COLUMN]: r["partition"] for r in df.transform(
        with_partition(KEY_COLUMN, 12, "long", partitioner=partitioner)).collect()}
    got = with_key_hash(df, "long", partitioner).select(
        KEY_COLUMN, HASH_COLUMN, index_column(F.col(HASH_COLUMN), 12, rule).alias("p")).collect()
    for r in got:
        if r[KEY_COLUMN] is None:
            assert r[HASH_COLUMN] is None
        else:
            assert r["p"] == want[r[KEY_COLUMN]], r[KEY_COLUMN]


def test_timestamps_all_null_or_all_equal_are_one_error(spark, tmp_path):
    rows = [{"user": f"u{i}", "ts": None, "v": i} for i in range(5)]
    with pytest.raises(ConfigError, match=r"^topics\[0\] \(clicks\)\.timestamp: column 'ts' is "
                       r"null in every record: no load over time"):
        measure(spark, resolved(write_json(tmp_path, rows)))
    rows = [{"user": f"u{i}", "ts": T0, "v": i} for i in range(5)]
    with pytest.raises(ConfigError, match=r"^--window: 1m is longer than the span of topic "
                       r"'clicks' \(0s, "):
        measure(spark, resolved(write_json(tmp_path, rows, "same.json")))
