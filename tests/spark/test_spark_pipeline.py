"""The report pipeline: loads match an independent per-record computation; aggregates agree."""

from __future__ import annotations

import json
from collections import Counter

import pyarrow.csv as pcsv
import pyarrow.parquet as pq
import pytest

from kpart.analysis.summary import build_summary
from kpart.producer.builtin import partition_for_key
from kpart.producer.null_keys import apportion, random_partition_counts
from kpart.producer.serializers import serialize_key
from kpart.report.output import TABLES, write_report
from kpart.spark.datasets import flights_table
from kpart.spark.inputs import resolve_input
from kpart.spark.key_loads import measure_loads
from kpart.spark.pipeline import run_report
from kpart.topology import NULL_KEY_STRATEGIES, default_topology

pytestmark = pytest.mark.spark

SAMPLE_ROWS = 20_000


@pytest.fixture(scope="module")
def flights_sample():
    return flights_table(SAMPLE_ROWS)


@pytest.fixture(scope="module")
def sample_csv(tmp_path_factory, flights_sample):
    path = tmp_path_factory.mktemp("data") / "flights_sample.csv"
    pcsv.write_csv(flights_sample, path)
    return path


@pytest.fixture(scope="module")
def sample_summary(spark, sample_csv):
    topology = default_topology()
    return run_report(spark, topology, resolve_input(sample_csv, None, "tailnum"))


def _json_len(row: dict) -> int:
    """Spark's to_json of a struct of string/int columns: compact, nulls left out, UTF-8."""
    doc = {k: v for k, v in row.items() if v is not None}
    return len(json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode())


def test_measure_loads_matches_a_per_record_computation(spark):
    rows = [
        {"id": i, "k": k, "v": v}
        for i, (k, v) in enumerate(
            [("a", 1), ("a", 2), ("café", 3), ("日本", None), (None, 5), ("", 6), ("N14228", 7),
             ("a", 8), (None, 9), ("zz", 10), ("café", 11), ("🙂", 12)]
        )
    ]
    df = spark.createDataFrame([(r["id"], r["k"], r["v"]) for r in rows], "id int, k string, v int")
    topic = default_topology().with_topic(key="k", partitions=5).topic
    loads = measure_loads(df, topic, top_k=3)
    records, byts, keys = [0] * 5, [0] * 5, [set() for _ in range(5)]
    null_records = null_bytes = 0
    for r in rows:
        size = _json_len(r) + (len(r["k"].encode()) if r["k"] is not None else 0)
        if r["k"] is None:
            null_records += 1
            null_bytes += size
            continue
        p = partition_for_key(r["k"].encode(), 5)
        records[p] += 1
        byts[p] += size
        keys[p].add(r["k"])
    assert loads.partition_records == tuple(records)
    assert loads.partition_bytes == tuple(byts)
    assert loads.partition_keys == tuple(len(s) for s in keys)
    assert (loads.null_key_records, loads.null_key_bytes) == (null_records, null_bytes)
    assert [(h.key, h.records) for h in loads.hot_keys] == [("a", 3), ("café", 2), ("", 1)]
    assert all(h.partition == partition_for_key(h.key.encode(), 5) for h in loads.hot_keys)


def test_flights_sample_partitions_match_the_scalar_partitioner(sample_summary, flights_sample):
    n = sample_summary["num_partitions"]
    tails = flights_sample.column("tailnum").to_pylist()
    counts = Counter(partition_for_key(t.encode(), n) for t in tails if t is not None)
    parts = sample_summary["partitions"]
    assert [p["keyed_records"] for p in parts] == [counts[p] for p in range(n)]
    assert sample_summary["null_key_records"] == tails.count(None) > 0
    assert sample_summary["null_key_distribution"]["strategy"] == "builtin"  # java:default
    assert sum(p["null_key_records"] for p in parts) == tails.count(None)
    assert [p["records"] for p in parts] == [
        counts[p["partition"]] + p["null_key_records"] for p in parts]
    assert sample_summary["records"] == SAMPLE_ROWS
    assert sample_summary["distinct_keys"] == len({t for t in tails if t is not None})
    top = Counter(t for t in tails if t is not None).most_common(1)[0]
    assert (sample_summary["hot_keys"][0]["key"], sample_summary["hot_keys"][0]["records"]) == top


def test_flights_sample_aggregates_are_consistent(sample_summary):
    s = sample_summary
    parts = s["partitions"]
    keyed = s["keyed_records"]
    total = keyed + s["null_key_records"]  # the default topology places null keys (builtin)
    assert total == s["records"]
    assert sum(p["records"] for p in parts) == total
    assert sum(p["keyed_records"] for p in parts) == keyed
    assert sum(p["bytes"] for p in parts) == s["bytes"]
    rf = s["replication_factor"]
    for b in s["brokers"]:
        assert b["leader_records"] == sum(p["records"] for p in parts if p["leader"] == b["broker"])
        assert b["replica_records"] == sum(
            p["records"] for p in parts if b["broker"] in p["replicas"])
    assert sum(b["leader_records"] for b in s["brokers"]) == total
    assert sum(b["replica_records"] for b in s["brokers"]) == rf * total
    assert sum(r["leader_records"] for r in s["racks"]) == total
    assert sum(r["replica_records"] for r in s["racks"]) == rf * total
    for p in parts:
        assert p["leader"] == p["replicas"][0] and len(set(p["replicas"])) == rf
    for g in s["groups"]:
        owned = sorted(q for m in g["members"] for q in m["partitions"])
        assert owned == list(range(s["num_partitions"]))
        assert sum(m["records"] for m in g["members"]) == total
        for m in g["members"]:
            assert m["records"] == sum(parts[q]["records"] for q in m["partitions"])
            assert all(parts[q]["consumers"][g["group"]] == m["member"] for q in m["partitions"])
    recs = [p["records"] for p in parts]
    mean = total / len(parts)
    assert s["skew"]["partition_records"]["max_over_mean"] == pytest.approx(max(recs) / mean, 1e-5)
    assert [h["records"] for h in s["hot_keys"]] == sorted(
        (h["records"] for h in s["hot_keys"]), reverse=True)


def test_report_directory_holds_summary_and_tables(sample_summary, tmp_path):
    out = write_report(sample_summary, tmp_path / "report")
    assert json.loads((out / "summary.json").read_text()) == sample_summary
    for name in TABLES:
        assert (out / f"{name}.parquet").is_file()
    partitions = pq.read_table(out / "partitions.parquet").to_pylist()
    assert [p["records"] for p in partitions] == [p["records"] for p in sample_summary["partitions"]]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temp dir left


def test_integer_keys_use_the_long_serializer(spark, sample_csv, flights_sample):
    topology = default_topology().with_topic(key="flight", key_serializer="long")
    s = run_report(spark, topology, resolve_input(sample_csv, None, "flight"))
    counts = Counter(partition_for_key(serialize_key(v, "long"), 12)
                     for v in flights_sample.column("flight").to_pylist())
    assert [p["keyed_records"] for p in s["partitions"]] == [counts[p] for p in range(12)]


def test_partitioner_is_swappable(spark, sample_csv, sample_summary):
    s = run_report(spark, default_topology(), resolve_input(sample_csv, None, "tailnum"),
                   partitioner="spark:hash")
    assert s["partitioner"] == "spark:hash"
    assert s["keyed_records"] == sample_summary["keyed_records"]
    assert s["partitions"] != sample_summary["partitions"]


@pytest.mark.parametrize("name", ["events.jsonl", "events.json.gz"])
def test_json_lines_input(spark, tmp_path, name):
    import gzip

    keys = ["a", "b", None, "日本", "a", "c", "a", "é"]
    lines = "".join(json.dumps({"k": k, "n": i}, ensure_ascii=False) + "\n"
                    for i, k in enumerate(keys))
    path = tmp_path / name
    if name.endswith(".gz"):
        path.write_bytes(gzip.compress(lines.encode()))
    else:
        path.write_text(lines, encoding="utf-8")
    spec = resolve_input(path, None, "k")
    assert spec.fmt == "json"
    s = run_report(spark, default_topology().with_topic(key="k", partitions=4), spec)
    counts = Counter(partition_for_key(k.encode(), 4) for k in keys if k is not None)
    assert [p["keyed_records"] for p in s["partitions"]] == [counts[p] for p in range(4)]
    assert s["null_key_records"] == 1 and s["hot_keys"][0]["key"] == "a"


# -- every client's partitioner and the null-key strategies, on one small dataset --------------

SMALL_KEYS = [f"user-{i % 37}" for i in range(240)] + ["日本", "café"] * 5
SMALL_NULLS = 60
SMALL_N = 6
NON_JAVA = ["librdkafka:consistent_random", "sarama:hash", "kafkajs:legacy"]


@pytest.fixture(scope="module")
def small_path(tmp_path_factory):
    import pyarrow as pa

    keys = SMALL_KEYS + [None] * SMALL_NULLS
    table = pa.table({"k": keys, "v": list(range(len(keys)))})
    path = tmp_path_factory.mktemp("small") / "small.parquet"
    pq.write_table(table, path)
    return path


@pytest.fixture(scope="module")
def small_df(spark, small_path):
    df = spark.read.parquet(str(small_path)).cache()
    df.count()
    yield df
    df.unpersist()


@pytest.fixture(scope="module")
def small_topology():
    return default_topology().with_topic(key="k", partitions=SMALL_N)


@pytest.mark.parametrize("partitioner", NON_JAVA)
def test_any_clients_partitioner_is_honoured(small_df, small_topology, partitioner):
    from kpart import partition_for_key

    topic = small_topology.with_topic(partitioner=partitioner).topic
    loads = measure_loads(small_df, topic, top_k=0)
    counts = Counter(partition_for_key(k.encode(), SMALL_N, partitioner=partitioner)
                     for k in SMALL_KEYS)
    assert loads.partition_records == tuple(counts[p] for p in range(SMALL_N))
    assert loads.null_key_records == SMALL_NULLS
    java = Counter(partition_for_key(k.encode(), SMALL_N) for k in SMALL_KEYS)
    assert counts != java  # the test can tell the partitioners apart


def test_keys_placed_at_random_are_drawn_per_record(small_df, small_topology):
    # librdkafka:random ignores the key: each record goes to a random partition, so records of
    # one key spread (not one draw per distinct key); the draw is seeded by the topology
    topic = small_topology.with_topic(partitioner="librdkafka:random", null_key_seed=11).topic
    loads = measure_loads(small_df, topic, top_k=0)
    assert loads.partition_records == random_partition_counts(len(SMALL_KEYS), SMALL_N, 11)
    assert sum(loads.partition_bytes) == sum(
        measure_loads(small_df, small_topology.topic, top_k=0).partition_bytes)
    assert sum(loads.partition_keys) == len(set(SMALL_KEYS))
    assert loads.partition_keys == apportion(len(set(SMALL_KEYS)), loads.partition_records)


@pytest.fixture(scope="module")
def small_loads(small_df, small_topology):
    return measure_loads(small_df, small_topology.topic, top_k=0)


@pytest.mark.parametrize("strategy", NULL_KEY_STRATEGIES)
def test_null_keys_are_in_the_totals_under_every_strategy(small_topology, small_loads, strategy):
    t = small_topology.with_topic(null_key_strategy=strategy)
    s = build_summary(t, small_loads)
    parts = s["partitions"]
    placed = 0 if strategy == "separate" else SMALL_NULLS
    assert s["null_key_records"] == SMALL_NULLS and s["records"] == len(SMALL_KEYS) + SMALL_NULLS
    assert s["null_key_distribution"]["configured"] == strategy
    assert sum(p["null_key_records"] for p in parts) == placed
    assert sum(p["records"] for p in parts) == len(SMALL_KEYS) + placed
    assert sum(p["bytes"] for p in parts) == sum(small_loads.partition_bytes) + (
        small_loads.null_key_bytes if placed else 0)
    assert sum(b["leader_records"] for b in s["brokers"]) == len(SMALL_KEYS) + placed
    for g in s["groups"]:
        assert sum(m["records"] for m in g["members"]) == len(SMALL_KEYS) + placed


@pytest.mark.parametrize(("strategy", "partitioner"), [
    ("round-robin-fixed", "java:default"), ("legacy", "java:default"),
    ("client", "kafkajs:default"), ("client", "kafka-go:hash"),
])
def test_round_robin_like_strategies_spread_null_keys_evenly(
        small_topology, small_loads, strategy, partitioner):
    t = small_topology.with_topic(null_key_strategy=strategy, partitioner=partitioner)
    nulls = [p["null_key_records"] for p in build_summary(t, small_loads)["partitions"]]
    assert nulls == [SMALL_NULLS // SMALL_N] * SMALL_N


def test_run_report_places_null_keys_by_the_clients_rule(spark, small_path, small_topology):
    from kpart import partition_for_key

    spec = resolve_input(small_path, None, "k")
    t = small_topology.with_topic(partitioner="sarama:hash", null_key_strategy="client",
                                  null_key_seed=3)
    s = run_report(spark, t, spec)
    counts = Counter(partition_for_key(k.encode(), SMALL_N, partitioner="sarama:hash")
                     for k in SMALL_KEYS)
    parts = s["partitions"]
    assert s["partitioner"] == "sarama:hash"
    assert [p["keyed_records"] for p in parts] == [counts[p] for p in range(SMALL_N)]
    assert s["null_key_distribution"]["strategy"] == "client:random"
    assert sum(p["null_key_records"] for p in parts) == SMALL_NULLS
    assert [p["records"] for p in parts] == [
        counts[p["partition"]] + p["null_key_records"] for p in parts]
    apart = run_report(spark, t.with_topic(null_key_strategy="separate"), spec)
    assert [p["records"] for p in apart["partitions"]] == [counts[p] for p in range(SMALL_N)]
    assert apart["null_key_records"] == SMALL_NULLS
    assert apart["records"] == s["records"] == len(SMALL_KEYS) + SMALL_NULLS
