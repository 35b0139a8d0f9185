"""The producer simulation: KIP-480's batching claim, KAFKA-9965, KIP-794's adaptive
partitioning and availability timeout, batching rules, determinism and errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kpart.errors import ConfigError, InvalidPartitionError
from kpart.producer.cluster import Cluster
from kpart.producer.simulate import (
    STRATEGIES,
    LatencyModel,
    ProducerConfig,
    Record,
    SimulationResult,
    generate_records,
    simulate,
)

LOW_THROUGHPUT = generate_records(3000, rate_per_sec=1000, size=100)


# --- KIP-480: sticky -> fewer, fuller batches at low throughput -------------------------------


@pytest.mark.parametrize("sticky", ["sticky", "uniform-sticky", "builtin"])
@pytest.mark.parametrize("round_robin", ["legacy", "round-robin-fixed"])
def test_nullkey_kip480_sticky_makes_fewer_fuller_batches(sticky, round_robin):
    cluster = Cluster.round_robin("t", 16, 4)
    cfg = ProducerConfig(batch_size=16384, linger_ms=100)
    rr = simulate(LOW_THROUGHPUT, round_robin, cluster, cfg, LatencyModel(2.0), seed=1)
    st_ = simulate(LOW_THROUGHPUT, sticky, cluster, cfg, LatencyModel(2.0), seed=1)
    assert rr.total_records == st_.total_records == 3000
    assert st_.total_batches * 4 < rr.total_batches
    assert st_.mean_batch_fill > 4 * rr.mean_batch_fill
    assert st_.requests < rr.requests
    # round-robin spreads records perfectly; sticky is even only over time
    assert rr.records_cv < 0.01 and rr.records_max_over_mean < 1.01


def test_nullkey_kip480_sticky_batches_better_even_with_linger_zero():
    # KIP-480: "even when linger.ms is 0 ... improved batching": brokers busy with one
    # request in flight, records pile up; sticky piles them into one partition's batch.
    recs = generate_records(5000, rate_per_sec=10000, size=100)
    cluster = Cluster.round_robin("t", 16, 4)
    cfg = ProducerConfig(linger_ms=0, max_in_flight=1)
    rr = simulate(recs, "legacy", cluster, cfg, LatencyModel(5.0), seed=1)
    for sticky in ("sticky", "builtin"):
        st_ = simulate(recs, sticky, cluster, cfg, LatencyModel(5.0), seed=1)
        assert st_.total_batches * 3 < rr.total_batches
        assert st_.requests < rr.requests


def test_nullkey_linger_batches_hand_computed():
    # One partition, a 100-byte record per ms, linger 4 ms: the batch created at t sends at
    # t+4 (before the record arriving then), so every batch holds 4 records.
    recs = generate_records(100, 1000, 100)
    one = Cluster.of("t", [0])
    r = simulate(recs, "builtin", one, ProducerConfig(batch_size=10_000, linger_ms=4), seed=0)
    assert r.batches == (25,) and r.records == (100,) and r.bytes == (10_000,)
    assert r.mean_batch_fill == pytest.approx(10_000 / (25 * 10_000))
    # batch.size 1000 = 10 records: full batches go at once, linger never expires
    r = simulate(recs, "builtin", one, ProducerConfig(batch_size=1000, linger_ms=500), seed=0)
    assert r.batches == (10,) and r.mean_batch_fill == 1.0


def test_nullkey_record_that_does_not_fit_starts_a_new_batch():
    recs = [Record(0, 600), Record(0, 600), Record(0, 300), Record(0, 2000)]
    r = simulate(
        recs,
        "builtin",
        Cluster.of("t", [0]),
        ProducerConfig(batch_size=1000, linger_ms=1000),
        seed=0,
    )
    # [600] closes when 600 more does not fit; [600, 300]; [2000] (first record always fits)
    assert r.batches == (3,) and r.bytes == (3500,)


# --- KAFKA-9965 -------------------------------------------------------------------------------


def test_nullkey_kafka_9965_round_robin_sends_everything_to_one_of_two_partitions():
    recs = generate_records(1000, 100, 200)
    cluster = Cluster.round_robin("t", 2, 2)
    cfg = ProducerConfig(linger_ms=0)
    rr = simulate(recs, "round-robin", cluster, cfg, seed=0)
    assert rr.records == (0, 1000)
    assert rr.records_max_over_mean == 2.0 and rr.records_cv == 1.0
    fixed = simulate(recs, "round-robin-fixed", cluster, cfg, seed=0)
    legacy = simulate(recs, "legacy", cluster, cfg, seed=0)
    assert fixed.records == legacy.records == (500, 500)


def test_nullkey_kafka_9965_half_the_partitions_with_linger():
    # Even with linger.ms > 0 each partition's queue is empty when its turn comes, so the
    # record needs a new batch there and moves on: only odd partitions get data.
    cluster = Cluster.round_robin("t", 6, 3)
    rr = simulate(LOW_THROUGHPUT, "round-robin", cluster, ProducerConfig(linger_ms=20), seed=0)
    assert [p for p, n in enumerate(rr.records) if n] == [1, 3, 5]


# --- KIP-794: adaptive partitioning and availability timeout ---------------------------------


def _slow_share(r: SimulationResult, slow=(2, 5)) -> float:
    return sum(r.bytes[p] for p in slow) / r.total_bytes


SLOW_CLUSTER = Cluster.round_robin("t", 6, 3)  # broker 2 leads partitions 2 and 5
BUSY = generate_records(10000, rate_per_sec=2000, size=500)


def test_nullkey_adaptive_avoids_partitions_of_a_slow_leader():
    lat = LatencyModel.of(2.0, {2: 300})
    base = dict(batch_size=16384, linger_ms=5, max_in_flight=1)
    uniform = simulate(
        BUSY,
        "builtin",
        SLOW_CLUSTER,
        ProducerConfig(adaptive_partitioning=False, **base),
        lat,
        seed=3,
    )
    adaptive = simulate(BUSY, "builtin", SLOW_CLUSTER, ProducerConfig(**base), lat, seed=3)
    # Uniform sticky even *over*-feeds the slow broker (its full queues let it keep the
    # partition up to 2 x batch.size) - the motivation of KIP-794.
    assert _slow_share(uniform) > 1 / 3
    assert _slow_share(adaptive) < 0.2
    assert adaptive.mean_latency_ms < uniform.mean_latency_ms


def test_nullkey_availability_timeout_excludes_a_slow_leader():
    lat = LatencyModel.of(2.0, {2: 20_000})
    base = dict(batch_size=16384, linger_ms=5, max_in_flight=1)
    adaptive = simulate(BUSY, "builtin", SLOW_CLUSTER, ProducerConfig(**base), lat, seed=3)
    timeout = simulate(
        BUSY,
        "builtin",
        SLOW_CLUSTER,
        ProducerConfig(availability_timeout_ms=50, **base),
        lat,
        seed=3,
    )
    late = timeout.partitions[len(BUSY) // 2 :]
    assert not {2, 5} & set(late)  # excluded once the node stayed undrainable > 50 ms
    assert {2, 5} & set(adaptive.partitions[len(BUSY) // 2 :])  # weighting alone does not
    assert _slow_share(timeout) < _slow_share(adaptive)
    # the timeout needs adaptive partitioning: without it nothing is excluded
    off = simulate(
        BUSY,
        "builtin",
        SLOW_CLUSTER,
        ProducerConfig(adaptive_partitioning=False, availability_timeout_ms=50, **base),
        lat,
        seed=3,
    )
    assert {2, 5} & set(off.partitions[len(BUSY) // 2 :])


def test_nullkey_builtin_keys_and_ignore_keys():
    keys = [f"my_key_{i}".encode() for i in range(1, 5)]
    recs = [Record(i, 10, k) for i, k in enumerate(keys)]
    six = Cluster.round_robin("t", 6, 3)
    assert simulate(recs, "builtin", six, seed=0).partitions == (0, 4, 5, 2)
    ignored = simulate(recs, "builtin", six, ProducerConfig(ignore_keys=True), seed=0)
    assert len(set(ignored.partitions)) == 1  # sticky: all four in one small batch


# --- invariants, unavailable partitions, determinism -------------------------------------------


@pytest.mark.parametrize("strategy", [s for s in STRATEGIES if s != "random"])
def test_nullkey_unavailable_partitions_get_nothing(strategy):
    cluster = Cluster.of("t", [0, None, 1, 2, None, 0])
    r = simulate(LOW_THROUGHPUT, strategy, cluster, ProducerConfig(linger_ms=5), seed=2)
    assert r.records[1] == r.records[4] == 0
    assert r.total_records == 3000


@settings(max_examples=25, deadline=None)
@given(
    strategy=st.sampled_from(sorted(STRATEGIES)),
    sizes=st.lists(st.integers(1, 3000), min_size=1, max_size=60),
    gaps=st.lists(st.integers(0, 30), min_size=60, max_size=60),
    partitions=st.integers(1, 5),
    linger=st.integers(0, 40),
    seed=st.integers(0, 2**31),
)
def test_nullkey_simulation_conserves_records(strategy, sizes, gaps, partitions, linger, seed):
    t, recs = 0, []
    for size, gap in zip(sizes, gaps, strict=False):
        t += gap
        recs.append(Record(t, size))
    cluster = Cluster.round_robin("t", partitions, 2)
    cfg = ProducerConfig(batch_size=2048, linger_ms=linger, max_in_flight=2)
    r = simulate(recs, strategy, cluster, cfg, LatencyModel(3.0), seed=seed)
    assert r.total_records == len(recs) and r.total_bytes == sum(sizes)
    assert all(0 <= p < partitions for p in r.partitions)
    for p in range(partitions):
        assert r.records[p] == r.partitions.count(p)
        assert r.bytes[p] == sum(s for s, q in zip(sizes, r.partitions, strict=True) if q == p)
        assert (r.batches[p] > 0) == (r.records[p] > 0) and r.batches[p] <= r.records[p]
    assert r == simulate(recs, strategy, cluster, cfg, LatencyModel(3.0), seed=seed)


def test_nullkey_seed_changes_random_choices():
    cluster = Cluster.round_robin("t", 8, 2)
    runs = {
        simulate(LOW_THROUGHPUT, "builtin", cluster, ProducerConfig(linger_ms=5), seed=s).records
        for s in range(4)
    }
    assert len(runs) > 1


def test_nullkey_explicit_partition_wins_and_is_checked():
    cluster = Cluster.round_robin("t", 3, 1)
    recs = [Record(0, 10, partition=2), Record(1, 10, partition=2)]
    for strategy in STRATEGIES:
        assert simulate(recs, strategy, cluster, seed=0).records == (0, 0, 2)
    with pytest.raises(InvalidPartitionError, match=r"3 is not in the range \[0\.\.\.3\)"):
        simulate([Record(0, 10, partition=3)], "builtin", cluster, seed=0)


def test_nullkey_bad_inputs_name_the_value():
    cluster = Cluster.round_robin("t", 3, 1)
    with pytest.raises(ConfigError, match="'nope'"):
        simulate(LOW_THROUGHPUT, "nope", cluster)
    with pytest.raises(ConfigError, match="record 1 has timestamp_ms 5"):
        simulate([Record(10, 1), Record(5, 1)], "builtin", cluster)
    with pytest.raises(ConfigError, match="Invalid value -1 for configuration linger.ms"):
        ProducerConfig(linger_ms=-1)
    with pytest.raises(ConfigError, match="batch.size"):
        ProducerConfig(batch_size=0)
    with pytest.raises(ConfigError, match="got 0"):
        Record(0, 0)
    with pytest.raises(ConfigError, match="unknown topic 'x'"):
        simulate([], "builtin", cluster, topic="x")
    with pytest.raises(ConfigError, match="rate"):
        generate_records(10, 0, 100)


def test_nullkey_empty_stream_and_integer_settings():
    r = simulate([], "builtin", Cluster.round_robin("t", 3, 1), seed=0)
    assert r.records == (0, 0, 0) and r.total_batches == 0
    assert r.mean_batch_fill == 0.0 and r.records_cv == 0.0 and r.records_max_over_mean == 0.0
    with pytest.raises(ConfigError, match="Invalid value 1.5 for configuration batch.size"):
        ProducerConfig(batch_size=1.5)
    with pytest.raises(ConfigError, match="max.in.flight.requests.per.connection"):
        ProducerConfig(max_in_flight=0)


# --- kpart simulate: the command's options as frozen values ------------------------------------


def test_cli_simulate_equals_run_simulate_on_the_same_options(capsys):
    import dataclasses

    from kpart.cli import main
    from kpart.cli.nullkey import (
        ClusterOptions,
        ProducerOptions,
        SimulateOptions,
        StreamOptions,
        run_simulate,
    )

    assert main(["simulate", "--seed", "3", "-n", "300", "-s", "sticky,legacy", "-p", "4",
                 "--brokers", "2", "--unavailable", "1", "--linger-ms", "2",
                 "--broker-latency", "0=5", "--json"]) == 0
    from_cli = capsys.readouterr().out
    options = SimulateOptions(
        strategies=("sticky,legacy",), partitioners=(), configs=(),
        cluster=ClusterOptions("topic", 4, 2, "1", ()),
        stream=StreamOptions(None, 300, 1000.0, 100, 0.0, False, 3),
        producer=ProducerOptions(16384, 2.0, True, 0.0, False, 5, 1.0, ("0=5",)),
        as_json=True, output=None)
    run_simulate(options)
    assert capsys.readouterr().out == from_cli
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.as_json = False  # type: ignore[misc]
