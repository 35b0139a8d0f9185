"""Issue 25, producer side: the Java producer's null-key strategy by client version (rules
``null_key_partitioner``, ``sticky_partitioner_classes``, ``builtin_zero_batch_size``,
``key_partitioner``, ``partitioner_rack_aware`` of kpart.versions), KIP-1123's rack-aware
built-in partitioner, and ``kafka_version=`` on the functions that place null-key records."""

from __future__ import annotations

import pytest

from kpart.errors import ConfigError
from kpart.producer.builtin import partition_for_key
from kpart.producer.builtin_partitioner import BuiltInPartitioner, rack_load_stats
from kpart.producer.cluster import Cluster
from kpart.producer.legacy_default_partitioner import LegacyDefaultPartitioner
from kpart.producer.null_key_versions import (
    check_null_key_strategy,
    java_null_key_strategy,
    key_rule,
    null_key_batch_size,
)
from kpart.producer.null_keys import NullKeyRule, distribute_null_keys
from kpart.producer.simulate import ProducerConfig, Record, generate_records, simulate
from kpart.versions import RELEASES, UNRELEASED, KafkaVersion


@pytest.mark.parametrize(("version", "strategy"), [
    ("0.10.0.0", "legacy"), ("0.10.1.1", "legacy"), ("0.10.2.0", "legacy"), ("2.3.1", "legacy"),
    ("2.4.0", "sticky"), ("3.2.3", "sticky"), ("3.3.0", "builtin"), ("3.3", "builtin"),
    ("4.3", "builtin"), ("4.4", "builtin"), (None, "builtin"),
])
def test_the_java_default_null_key_strategy_follows_the_client_version(version, strategy):
    assert java_null_key_strategy(version) == strategy


def test_keyed_partitioning_is_the_same_murmur2_in_every_known_version():
    versions = [".".join(map(str, r)) for r in RELEASES + UNRELEASED]
    assert {key_rule(v) for v in versions} == {"murmur2"}
    # and the one key rule kpart has gives Kafka's answer (the golden vectors check it too)
    assert partition_for_key(b"TT0124", 15) == 10


def test_before_kafka_4402_one_counter_served_every_topic():
    t, u = Cluster.of("t", [1, 1, 1]), Cluster.of("u", [1, 1, 1])
    sends = [("t", t), ("u", u), ("t", t), ("u", u)]
    shared = LegacyDefaultPartitioner(start=0, kafka_version="0.10.1")
    per_topic = LegacyDefaultPartitioner(start=0, kafka_version="0.10.2.0")
    assert [shared.partition(n, None, None, None, None, c) for n, c in sends] == [0, 1, 2, 0]
    assert [per_topic.partition(n, None, None, None, None, c) for n, c in sends] == [0, 0, 1, 1]


def test_the_legacy_partitioner_does_not_exist_after_2_3():
    with pytest.raises(ConfigError, match=r"'2\.4\.0'.*0\.10\.0\.0 to 2\.3\.1"):
        LegacyDefaultPartitioner(kafka_version="2.4.0")


@pytest.mark.parametrize(("strategy", "version", "names"), [
    ("sticky", "4.0.0", "removed in 4.0.0"),
    ("uniform-sticky", "2.3.1", "2.4.0 to 3.9.2"),
    ("legacy", "3.0", "0.10.0.0 to 2.3.1"),
    ("builtin", "3.2.3", "3.3.0 to 4.4"),
    ("round-robin", "4.0.0", "2.4.0 to 3.9.1"),
    ("round-robin-fixed", "3.9.1", "3.9.2 to 4.3.1"),
    ("round-robin", "3.9", "ambiguous"),
])
def test_a_strategy_the_version_lacks_is_an_error_naming_it_and_the_range(strategy, version,
                                                                          names):
    with pytest.raises(ConfigError, match=rf"'{version}'") as e:
        check_null_key_strategy(strategy, version)
    assert names in str(e.value)


def test_strategies_the_version_has_are_accepted():
    assert check_null_key_strategy("sticky", "3.9.2") == "sticky"
    assert check_null_key_strategy("round-robin", "3.9.0") == "round-robin"
    assert check_null_key_strategy("random", "0.10.0.0") == "random"


def _back_to_back(n: int, size: int = 100) -> list[Record]:
    return [Record(0.0, size) for _ in range(n)]


def test_simulate_default_is_the_version_s_strategy():
    cluster = Cluster.round_robin("t", 4, 2)
    recs = _back_to_back(8)
    old = simulate(recs, "default", cluster, seed=3, kafka_version="2.3.1")
    assert old.strategy == "default (legacy)"
    assert old.records == (2, 2, 2, 2)  # round robin, one record per partition in turn
    sticky = simulate(recs, "default", cluster, ProducerConfig(batch_size=1000, linger_ms=100), seed=3,
                      kafka_version="2.8.2")
    assert sticky.strategy == "default (sticky)"
    assert sorted(sticky.records) == [0, 0, 0, 8]  # 800 bytes: one batch, one partition
    new = simulate(recs, "default", cluster, seed=3)
    assert new.strategy == "default (builtin)"


def test_simulate_with_a_version_refuses_a_strategy_it_lacks_and_without_keeps_working():
    cluster = Cluster.round_robin("t", 4, 2)
    recs = _back_to_back(4)
    assert simulate(recs, "legacy", cluster, seed=1).total_records == 4  # no version: no check
    with pytest.raises(ConfigError, match=r"kafka_version '4\.3'"):
        simulate(recs, "legacy", cluster, seed=1, kafka_version="4.3")
    with pytest.raises(ConfigError, match=r"Unknown kafka_version '5\.0'"):
        simulate(recs, "default", cluster, seed=1, kafka_version="5.0")


def test_kafka_14303_batch_size_zero():
    assert null_key_batch_size(0, "builtin", "3.3.2") == 1
    assert null_key_batch_size(0, "legacy", "1.0") == 1
    assert null_key_batch_size(16384, "builtin", "3.3.0") == 16384
    with pytest.raises(ConfigError, match=r"'3\.3\.1' never returns .*KAFKA-14303"):
        null_key_batch_size(0, "builtin", "3.3.1")
    with pytest.raises(ConfigError, match=r"'3\.3' is ambiguous"):
        null_key_batch_size(0, "builtin", "3.3")


# -- KIP-1123 -------------------------------------------------------------------------------

RACKS = {0: "a", 1: "b", 2: "c"}


def _racked(n: int = 6, *, down: tuple[int, ...] = ()) -> Cluster:
    return Cluster.of("t", [None if p in down else p % 3 for p in range(n)], racks=RACKS)


def test_rack_aware_draws_only_partitions_led_in_the_producer_rack():
    bip = BuiltInPartitioner("t", 100, seed=5, rack_aware=True, rack="b")
    cluster = _racked()
    assert {bip.next_partition(cluster) for _ in range(200)} == {1, 4}
    plain = BuiltInPartitioner("t", 100, seed=5)
    assert {plain.next_partition(cluster) for _ in range(200)} == set(range(6))


def test_rack_aware_falls_back_to_every_available_partition_when_none_is_in_the_rack():
    bip = BuiltInPartitioner("t", 100, seed=5, rack_aware=True, rack="b")
    cluster = _racked(down=(1, 4))
    assert {bip.next_partition(cluster) for _ in range(200)} == {0, 2, 3, 5}
    elsewhere = BuiltInPartitioner("t", 100, seed=5, rack_aware=True, rack="z")
    assert {elsewhere.next_partition(_racked()) for _ in range(200)} == set(range(6))


def test_rack_aware_load_stats_use_the_rack_s_own_table():
    # queue sizes of partitions 0..5, leaders' racks a b c a b c; in rack b: p1 (3), p4 (1)
    queues, ids, racks = [0, 3, 1, 5, 1, 2], list(range(6)), ["a", "b", "c"] * 2
    stats = rack_load_stats(queues, ids, racks, "b", 6)
    assert stats is not None
    assert stats.partition_ids == (1, 4)
    assert stats.cumulative_frequency_table == (1, 4)  # max 3 + 1: weights 1 and 3
    bip = BuiltInPartitioner("t", 100, seed=9, rack_aware=True, rack="b")
    bip.update_partition_load_stats(queues, ids, 6, racks)
    picks = [bip.next_partition(_racked()) for _ in range(400)]
    assert set(picks) == {1, 4} and picks.count(4) > 2 * picks.count(1)
    assert rack_load_stats(queues, ids, racks, "z", 6) is None
    # partitions excluded by the availability timeout (beyond length) are left out
    assert rack_load_stats(queues, ids, racks, "b", 4).partition_ids == (1,)


def test_rack_aware_needs_a_rack_the_version_and_the_builtin_strategy():
    with pytest.raises(ConfigError, match="client.rack must be provided"):
        BuiltInPartitioner("t", 100, rack_aware=True, rack=" ")
    recs = generate_records(10, 1000, 100)
    cfg = ProducerConfig(rack_aware=True, client_rack="b")
    with pytest.raises(ConfigError, match=r"does not exist in kafka_version '4\.3'.*for 4\.4"):
        simulate(recs, "builtin", _racked(), cfg, seed=1)
    with pytest.raises(ConfigError, match="'random' ignores it"):
        simulate(recs, "random", _racked(), cfg, seed=1, kafka_version="4.4")
    with pytest.raises(ConfigError, match="client.rack must be provided"):
        simulate(recs, "builtin", _racked(), ProducerConfig(rack_aware=True), seed=1,
                 kafka_version="4.4")
    r = simulate(recs, "default", _racked(), cfg, seed=1, kafka_version="4.4")
    assert {p for p, n in enumerate(r.records) if n} <= {1, 4}


def test_rack_aware_simulation_with_adaptive_stats_keeps_to_the_rack():
    recs = generate_records(3000, 100_000, 500, seed=2)
    cfg = ProducerConfig(batch_size=2000, linger_ms=5, rack_aware=True, client_rack="a")
    r = simulate(recs, "builtin", _racked(), cfg, seed=4, kafka_version="4.4")
    assert r.records[0] + r.records[3] == 3000


# -- the null-key load model --------------------------------------------------------------

def test_distribute_null_keys_follows_the_client_version():
    assert distribute_null_keys(12, 1200, 4, seed=1, kafka_version="0.10.2.0").records == \
        (3, 3, 3, 3)
    assert NullKeyRule.of("client", kafka_version="3.0.2").strategy == "sticky"
    assert NullKeyRule.of("client").strategy == "builtin"  # 4.3's
    with pytest.raises(ConfigError, match=r"'3\.0'.*0\.10\.0\.0 to 2\.3\.1"):
        NullKeyRule.of("legacy", kafka_version="3.0")
    with pytest.raises(ConfigError, match="'librdkafka:consistent'"):
        NullKeyRule.of("client", "librdkafka:consistent", kafka_version="3.0")
    assert NullKeyRule.of("separate", kafka_version="0.10.0").strategy == "separate"


def test_a_version_line_is_a_known_version():
    assert KafkaVersion.parse("4.4").released is False


# -- the commands ----------------------------------------------------------------------------

def test_partition_takes_the_client_version_and_answers_the_same(capsys):
    from kpart.cli import main

    assert main(["partition", "TT0124", "-p", "15", "--kafka-version", "0.10.0.0"]) == 0
    assert capsys.readouterr().out == "TT0124\t10\n"
    assert main(["partition", "TT0124", "-p", "15", "--kafka-version", "0.9.0.1"]) == 2
    assert "Unknown --kafka-version '0.9.0.1'" in capsys.readouterr().err


def test_simulate_command_runs_the_version_s_own_strategy(capsys):
    import json

    from kpart.cli import main

    argv = ["simulate", "-n", "8", "-p", "4", "--seed", "1", "--json"]
    assert main([*argv, "--kafka-version", "2.3"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["strategy"] == "default (legacy)" and row["records"] == [2, 2, 2, 2]
    assert main([*argv, "--kafka-version", "4.0.0", "-s", "uniform-sticky"]) == 2
    assert "'4.0.0'" in capsys.readouterr().err
    assert main([*argv, "--kafka-version", "3.3.0", "--batch-size", "0"]) == 2
    assert "KAFKA-14303" in capsys.readouterr().err
    assert main([*argv, "--kafka-version", "3.3.2", "--batch-size", "0"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["batches"] == row["records"]  # batch.size 0: one record per batch
    assert sum(row["records"]) == 8


#: KIP-1123 vectors from Kafka's own class: ``BuiltInPartitioner`` of confluentinc/kafka branch
#: 4.4 (commit fc18c47efd, Apache commits only), compiled with javac 17 against stubs of
#: ``Utils.toPositive`` and ``LogContext`` and the real ``Cluster``/``PartitionInfo``/``Node``; a
#: driver of ours overrides ``randomPartition()`` with ``toPositive(new Random(seed).nextInt())``
#: (kpart's ``JavaRandom(seed)``), builds ``rackAware=true`` with the producer's rack, optionally
#: calls ``updatePartitionLoadStats(queueSizes, ids, leaderRacks, length)`` and then peeks the
#: sticky partition and appends ``stickyBatchSize`` bytes, ``draws`` times. Arguments: seed,
#: client.rack, brokers' racks (``-``: none), leaders per partition (``-1``: none), queue sizes of
#: the partitions with a leader (``-``: no load stats), length, draws.
KIP_1123_JAVA = [
    ('7 b a,b,c 0,1,2,0,1,2 - 6 20', "4,1,1,4,4,4,4,1,4,4,1,4,4,4,4,1,1,4,1,1"),
    ('7 z a,b,c 0,1,2,0,1,2 - 6 20', "1,2,4,3,3,3,1,2,5,5,0,5,1,3,1,0,0,5,4,0"),
    ('11 b a,b,c 0,-1,2,0,-1,2 - 4 20', "2,0,5,5,3,3,0,5,5,5,2,2,3,3,0,0,2,5,2,2"),
    ('3 b a,b,c 0,1,2,0,1,2 0,3,1,5,1,2 6 30', "1,1,4,4,1,1,4,1,4,4,4,1,4,4,4,1,1,4,1,4,4,1,4,4,4,4,4,4,4,4"),
    ('3 a a,b,c 0,1,2,0,1,2 0,3,1,5,1,2 4 30', "0,0,3,3,0,0,0,0,0,0,0,0,0,0,0,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0"),
    ('5 c a,b,- 0,1,2,0,1,2 2,2,2,2,2,1 6 30', "3,1,1,5,2,5,2,2,3,3,3,5,0,2,4,5,4,5,2,2,3,5,3,4,0,0,0,4,4,0"),
    ('5 c a,b,c 0,1,2,0,1,2 2,2,2,2,2,2 6 30', "5,2,2,2,5,2,2,5,2,2,5,5,5,5,5,2,2,2,5,2,2,2,5,2,5,5,2,2,2,2"),
    ('9 c a,b,c 0,1,2,0,1,2 2,2,2,2,2,2 5 30', "2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2"),
]


@pytest.mark.parametrize(("args", "java"), KIP_1123_JAVA)
def test_rack_aware_draws_are_kafka_4_4_s(args, java):
    seed, rack, brokers, leaders, queues, length, draws = args.split()
    racks = [None if r == "-" else r for r in brokers.split(",")]
    owners = [None if int(x) < 0 else int(x) for x in leaders.split(",")]
    cluster = Cluster.of("t", owners, racks=dict(enumerate(racks)))
    bip = BuiltInPartitioner("t", 100, seed=int(seed), rack_aware=True, rack=rack)
    if queues != "-":
        ids = [p for p, b in enumerate(owners) if b is not None]
        bip.update_partition_load_stats([int(q) for q in queues.split(",")], ids, int(length),
                                        [racks[owners[p]] for p in ids])
    got = []
    for _ in range(int(draws)):
        info = bip.peek_current_partition_info(cluster)
        got.append(info.partition)
        bip.update_partition_info(info, 100, cluster)
    assert ",".join(map(str, got)) == java


def test_the_partitioner_classes_check_a_client_version_given_to_them():
    from kpart.producer.default_partitioner import DefaultPartitioner
    from kpart.producer.uniform_sticky_partitioner import UniformStickyPartitioner

    DefaultPartitioner(seed=1, kafka_version="3.9.2")
    with pytest.raises(ConfigError, match=r"'4\.0\.0'"):
        UniformStickyPartitioner(seed=1, kafka_version="4.0.0")
    with pytest.raises(ConfigError, match=r"'2\.3\.1'"):
        DefaultPartitioner(seed=1, kafka_version="2.3.1")
    BuiltInPartitioner("t", 10, seed=1, kafka_version="3.3.0")
    with pytest.raises(ConfigError, match=r"'3\.2\.3'"):
        BuiltInPartitioner("t", 10, seed=1, kafka_version="3.2.3")
    with pytest.raises(ConfigError, match=r"'4\.3'.*for 4\.4"):
        BuiltInPartitioner("t", 10, seed=1, rack_aware=True, rack="a", kafka_version="4.3")
    BuiltInPartitioner("t", 10, seed=1, rack_aware=True, rack="a", kafka_version="4.4")
