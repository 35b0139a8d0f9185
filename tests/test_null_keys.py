"""Null-key records placed by the topology's strategy (kpart.producer.null_keys) and the summary
totals that include them."""

from __future__ import annotations

import pytest

from kpart.analysis.summary import Loads, build_summary
from kpart.errors import ConfigError
from kpart.producer import null_keys
from kpart.producer.clients import partition_for_key_by
from kpart.producer.null_keys import (
    NULL_KEY_STRATEGIES,
    distribute_null_keys,
    resolve_null_key_strategy,
)
from kpart.producer.simulate import Cluster, ProducerConfig, Record, simulate
from kpart.topology import default_topology

N = 6
LEADERS = (0, 1, 2, 0, 1, 2)
PLACED = [s for s in NULL_KEY_STRATEGIES if s != "separate"]


@pytest.mark.parametrize(("partitioner", "expected"), [
    ("java:default", "builtin"),
    ("librdkafka:consistent_random", "client:random"),
    ("sarama:hash", "client:random"),
    ("kafkajs:default", "client:round-robin"),
    ("kafka-go:hash", "client:round-robin"),
    ("librdkafka:consistent", "client:hash-empty"),
])
def test_client_resolves_to_the_partitioners_own_rule(partitioner, expected):
    assert resolve_null_key_strategy("client", partitioner) == expected
    assert resolve_null_key_strategy("sticky", partitioner) == "sticky"


@pytest.mark.parametrize("strategy", NULL_KEY_STRATEGIES)
@pytest.mark.parametrize("count", [1, 37, 900])
def test_records_and_bytes_are_conserved(strategy, count):
    d = distribute_null_keys(count, count * 123 + 5, N, strategy=strategy, leaders=LEADERS,
                             batch_size=1000, seed=11)
    assert len(d.records) == len(d.bytes) == N
    assert all(r >= 0 for r in d.records) and all(b >= 0 for b in d.bytes)
    if strategy == "separate":
        assert d.records == d.bytes == (0,) * N and not d.included
    else:
        assert sum(d.records) == count and sum(d.bytes) == count * 123 + 5 and d.included
        assert all(b == 0 for r, b in zip(d.records, d.bytes, strict=True) if r == 0)


@pytest.mark.parametrize("strategy", PLACED)
def test_seeded_model_is_deterministic(strategy):
    a = distribute_null_keys(500, 50_000, N, strategy=strategy, partitioner="sarama:hash",
                             batch_size=2000, seed=3)
    assert a == distribute_null_keys(500, 50_000, N, strategy=strategy,
                                     partitioner="sarama:hash", batch_size=2000, seed=3)


@pytest.mark.parametrize(("strategy", "partitioner"), [
    ("round-robin-fixed", "java:default"),
    ("legacy", "java:default"),
    ("client", "kafkajs:default"),
    ("client", "kafka-go:hash"),
])
def test_round_robin_like_strategies_spread_evenly(strategy, partitioner):
    d = distribute_null_keys(1003, 100_300, N, strategy=strategy, partitioner=partitioner,
                             leaders=LEADERS, seed=5)
    assert max(d.records) - min(d.records) <= 1


def test_kafka_9965_round_robin_skips_partitions_back_to_back():
    # RoundRobinPartitioner 2.4-3.9.0: a record needing a new batch advances the counter twice
    d = distribute_null_keys(600, 60_000, N, strategy="round-robin", leaders=LEADERS, seed=1)
    fixed = distribute_null_keys(600, 60_000, N, strategy="round-robin-fixed",
                                 leaders=LEADERS, seed=1)
    assert max(d.records) > max(fixed.records) and min(d.records) < min(fixed.records)


def test_hash_empty_clients_send_every_null_key_where_the_empty_key_goes():
    for pid in ("librdkafka:consistent", "librdkafka:murmur2", "librdkafka:fnv1a"):
        d = distribute_null_keys(40, 400, 7, partitioner=pid)
        p = partition_for_key_by(pid, b"", 7)
        assert d.records[p] == 40 and d.method == "client-rule"


@pytest.mark.parametrize("strategy", ["builtin", "sticky", "uniform-sticky", "round-robin",
                                      "legacy", "random"])
def test_small_counts_are_the_documented_simulation(strategy):
    # the model: back-to-back records (t = 0) of the mean size, one byte more for the first
    # bytes % records of them, through kpart.producer.simulate with the same seed
    count, total = 300, 300 * 100 + 17
    d = distribute_null_keys(count, total, N, strategy=strategy, leaders=LEADERS,
                             batch_size=1000, seed=4)
    stream = [Record(0.0, 101 if i < 17 else 100) for i in range(count)]
    r = simulate(stream, strategy, Cluster.of("topic", list(LEADERS)),
                 ProducerConfig(batch_size=1000), seed=4)
    assert d.method == "simulation" and (d.records, d.bytes) == (r.records, r.bytes)


def test_large_counts_use_the_documented_approximation(monkeypatch):
    monkeypatch.setattr(null_keys, "EXACT_LIMIT", 300)
    for strategy in PLACED:
        d = distribute_null_keys(5000, 500_000, N, strategy=strategy, leaders=LEADERS,
                                 batch_size=1000, seed=9)
        assert sum(d.records) == 5000 and sum(d.bytes) == 500_000
        assert d.method == "approximation"  # client on java:default = builtin
    sticky = distribute_null_keys(5000, 500_000, N, strategy="sticky", batch_size=1000, seed=9)
    assert all(r % 10 == 0 for r in sticky.records)
    rr = distribute_null_keys(5000, 500_000, N, strategy="round-robin-fixed", seed=9)
    assert max(rr.records) - min(rr.records) <= 2


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"strategy": "drop"}, "null_key_strategy: unknown value 'drop'"),
    ({"partitioner": "java:nope"}, "unknown partitioner 'java:nope'"),
    ({"batch_size": 0}, "batch_size: expected a positive integer, got 0"),
    ({"leaders": (0, 1)}, "leaders: 2 given for 6 partitions"),
])
def test_bad_input_is_named(kwargs, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        distribute_null_keys(10, 100, N, **kwargs)


def _loads(n: int, null_records: int) -> Loads:
    return Loads(tuple(10 * (p + 1) for p in range(n)), tuple(1000 * (p + 1) for p in range(n)),
                 (2,) * n, null_records, null_records * 50, ())


@pytest.mark.parametrize("strategy", NULL_KEY_STRATEGIES)
def test_summary_totals_include_null_keys_unless_separate(strategy):
    t = default_topology().with_topic(null_key_strategy=strategy)
    loads = _loads(t.topic.partitions, 700)
    s = build_summary(t, loads)
    keyed = sum(loads.partition_records)
    placed = 0 if strategy == "separate" else 700
    assert s["records"] == keyed + 700 and s["null_key_records"] == 700
    assert s["null_key_strategy"] == strategy
    dist = s["null_key_distribution"]
    assert dist["included_in_totals"] is (strategy != "separate")
    assert sum(dist["records"]) == placed
    parts = s["partitions"]
    assert [p["null_key_records"] for p in parts] == dist["records"]
    assert all(p["records"] == p["keyed_records"] + p["null_key_records"] for p in parts)
    assert all(p["bytes"] == p["keyed_bytes"] + p["null_key_bytes"] for p in parts)
    assert sum(p["records"] for p in parts) == keyed + placed
    assert sum(b["leader_records"] for b in s["brokers"]) == keyed + placed
    assert sum(b["replica_records"] for b in s["brokers"]) == 3 * (keyed + placed)
    assert sum(r["leader_records"] for r in s["racks"]) == keyed + placed
    for g in s["groups"]:
        assert sum(m["records"] for m in g["members"]) == keyed + placed
    assert s["skew"]["partition_records"]["max"] == max(p["records"] for p in parts)


@pytest.mark.parametrize(("args", "needle"), [
    (["--partitioner", "sarama:nope"], "--partitioner: unknown value 'sarama:nope'"),
    (["--null-keys", "drop"], "--null-keys: unknown value 'drop'"),
])
def test_report_cli_rejects_bad_partitioner_and_null_key_strategy(capsys, tmp_path, args, needle):
    from kpart.cli import main

    out = tmp_path / "report"
    assert main(["report", *args, "--out", str(out)]) == 2  # checked before Spark starts
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0]
    assert not out.exists()
