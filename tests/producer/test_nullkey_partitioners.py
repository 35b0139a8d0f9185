"""Unit tests of the null-key partitioner classes, against Kafka's documented behaviour."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kpart.errors import ConfigError
from kpart.producer.builtin_partitioner import (
    BuiltInPartitioner,
    PartitionLoadStats,
    partition_load_stats,
)
from kpart.producer.cluster import Cluster
from kpart.producer.default_partitioner import DefaultPartitioner
from kpart.producer.legacy_default_partitioner import LegacyDefaultPartitioner
from kpart.producer.random_partitioner import RandomPartitioner
from kpart.producer.round_robin_partitioner import RoundRobinPartitioner
from kpart.producer.sticky_partition_cache import StickyPartitionCache
from kpart.producer.uniform_sticky_partitioner import UniformStickyPartitioner


class Fixed:
    """A fake random source returning the given ints in turn (Java nextInt() values)."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def next_int(self, bound: int | None = None) -> int:
        v = self.values.pop(0)
        return v if bound is None else v % bound


def send(p, cluster, topic="t", key=None):
    return p.partition(topic, None, key, None, None, cluster)


# --- legacy DefaultPartitioner (0.9-2.3) -----------------------------------------------------


def test_nullkey_legacy_round_robin_skips_unavailable_partitions():
    c = Cluster.of("t", [0, None, 1, None, 2])  # available: 0, 2, 4
    p = LegacyDefaultPartitioner(start=0)
    assert [send(p, c) for _ in range(7)] == [0, 2, 4, 0, 2, 4, 0]


def test_nullkey_legacy_counter_wraps_like_a_java_int():
    # 2147483647 % 3 == 1; the counter then wraps to -2**31, whose toPositive is 0.
    c = Cluster.of("t", [0, 0, 0])
    p = LegacyDefaultPartitioner(start=2**31 - 1)
    assert [send(p, c) for _ in range(4)] == [1, 0, 1, 2]


def test_nullkey_legacy_no_available_partition_uses_all_partitions():
    c = Cluster.of("t", [None, None, None, None], racks={0: None})
    p = LegacyDefaultPartitioner(start=-1)  # toPositive(-1) = 2**31 - 1; % 4 = 3
    assert [send(p, c) for _ in range(3)] == [3, 0, 1]


def test_nullkey_legacy_random_start_is_seeded_and_counts_per_topic():
    c = Cluster(
        Cluster.of("a", [0] * 5).nodes,
        (
            ("a", Cluster.of("a", [0] * 5).partitions_for_topic("a")),
            ("b", Cluster.of("b", [0] * 5).partitions_for_topic("b")),
        ),
    )
    runs = []
    for _ in range(2):
        p = LegacyDefaultPartitioner(seed=99)
        runs.append([send(p, c, "a") for _ in range(6)] + [send(p, c, "b") for _ in range(3)])
    assert runs[0] == runs[1]
    a = runs[0][:6]
    assert all((y - x) % 5 == 1 for x, y in zip(a, a[1:], strict=False))


def test_nullkey_legacy_keyed_records_hash_with_murmur2():
    c = Cluster.of("t", [0] * 6)
    p = LegacyDefaultPartitioner(start=0)
    keys = [f"my_key_{i}".encode() for i in range(1, 5)]
    assert [send(p, c, key=k) for k in keys] == [0, 4, 5, 2]  # DESIGN.md vectors


# --- RoundRobinPartitioner (KAFKA-9965) ------------------------------------------------------


def _new_batch_every_time(p, c, n):
    out = []
    for _ in range(n):
        first = send(p, c)
        p.on_new_batch("t", c, first)
        out.append(send(p, c))
    return out


def test_nullkey_round_robin_starts_at_zero_and_ignores_keys():
    c = Cluster.of("t", [0, 0, 0])
    p = RoundRobinPartitioner()
    assert [send(p, c, key=b"k") for _ in range(4)] == [0, 1, 2, 0]


@pytest.mark.parametrize("n", [2, 4, 6])
def test_nullkey_round_robin_kafka_9965_skips_even_partitions(n):
    c = Cluster.of("t", [0] * n)
    got = _new_batch_every_time(RoundRobinPartitioner(kafka_version="3.9.0"), c, 5 * n)
    assert set(got) == set(range(1, n, 2))
    for fixed_version in ("3.9.2", "4.0.0", "4.3", None):
        fixed = _new_batch_every_time(RoundRobinPartitioner(kafka_version=fixed_version), c,
                                      5 * n)
        assert Counter(fixed) == dict.fromkeys(range(n), 5)


def test_nullkey_round_robin_odd_partition_count_still_covers_all():
    c = Cluster.of("t", [0] * 3)
    got = _new_batch_every_time(RoundRobinPartitioner(kafka_version="2.4"), c, 9)
    assert got == [1, 0, 2, 1, 0, 2, 1, 0, 2]


# --- StickyPartitionCache / DefaultPartitioner / UniformStickyPartitioner --------------------


def test_nullkey_sticky_cache_switches_to_a_different_available_partition():
    c = Cluster.of("t", [0, None, 0, 0])
    cache = StickyPartitionCache(seed=7)
    current = cache.partition("t", c)
    seen = set()
    for _ in range(200):
        new = cache.next_partition("t", c, current)
        assert new != current and new in (0, 2, 3)
        seen.add(new)
        current = new
    assert seen == {0, 2, 3}


def test_nullkey_sticky_cache_redraws_until_different():
    # available = [0, 1, 2]; first draw 4 -> partition 1; then 7 -> 1 again (redraw), 5 -> 2.
    c = Cluster.of("t", [0, 0, 0])
    cache = StickyPartitionCache(Fixed(4, 7, 5))
    assert cache.partition("t", c) == 1
    assert cache.next_partition("t", c, 1) == 2


def test_nullkey_sticky_cache_single_and_no_available_partition():
    assert StickyPartitionCache(Fixed()).partition("t", Cluster.of("t", [None, 0])) == 1
    no_leader = Cluster.of("t", [None, None, None], racks={0: None})
    assert StickyPartitionCache(Fixed(-2)).partition("t", no_leader) == (2**31 - 2) % 3


def test_nullkey_default_partitioner_hashes_keys_and_sticks_null_keys():
    c = Cluster.of("t", [0] * 6)
    d = DefaultPartitioner(seed=3)
    sticky = send(d, c)
    assert [send(d, c) for _ in range(5)] == [sticky] * 5
    assert send(d, c, key=b"my_key_2") == 4
    d.on_new_batch("t", c, 4 if sticky != 4 else 5)  # not the sticky one: no switch
    assert send(d, c) == sticky
    d.on_new_batch("t", c, sticky)
    assert send(d, c) != sticky


def test_nullkey_uniform_sticky_ignores_keys():
    c = Cluster.of("t", [0] * 6)
    u = UniformStickyPartitioner(seed=3)
    first = send(u, c, key=b"my_key_2")
    assert {send(u, c, key=f"k{i}".encode()) for i in range(20)} == {first}


def test_nullkey_random_partitioner_uses_all_partitions():
    c = Cluster.of("t", [0, None, 0, 0])
    r = RandomPartitioner(seed=5)
    assert set(send(r, c) for _ in range(400)) == {0, 1, 2, 3}


# --- BuiltInPartitioner (KIP-794) ------------------------------------------------------------


def test_nullkey_load_stats_follow_kafkas_worked_example():
    # Kafka's comment: queue sizes 0 3 1 -> inverted 4 1 3 -> CFT 4 5 8; draws 0-3 -> p0,
    # 4 -> p1, 5-7 -> p2.
    stats = partition_load_stats([0, 3, 1], [10, 11, 12])
    assert stats == PartitionLoadStats((4, 5, 8), (10, 11, 12))
    assert [stats.pick(r) for r in range(9)] == [10, 10, 10, 10, 11, 12, 12, 12, 10]


def test_nullkey_load_stats_none_cases_and_exclusion():
    assert partition_load_stats([5], [0]) is None  # fewer than 2 partitions
    assert partition_load_stats([1, 1, 1], [0, 1, 2]) is None  # all equal
    assert partition_load_stats([1, 1, 1], [0, 1, 2], 0) is None  # none left
    # all equal but one excluded (length 2 < 3): adaptive stays on, over the first two only
    assert partition_load_stats([1, 1, 1], [0, 2, 1], 2) == PartitionLoadStats((1, 2), (0, 2))
    with pytest.raises(ConfigError, match=r"\[1, 2\]"):
        partition_load_stats([1, 2], [0])


def test_nullkey_builtin_switch_rules():
    c = Cluster.of("t", [0, 0, 0])
    bip = BuiltInPartitioner("t", 100, Fixed(0, 1, 2, 0))
    info = bip.peek_current_partition_info(c)
    assert info.partition == 0
    bip.update_partition_info(info, 150, c, enable_switch=False)  # >= size but not allowed
    assert bip.peek_current_partition_info(c) is info
    bip.update_partition_info(info, 50, c, enable_switch=False)  # 200 >= 2 x size: forced
    nxt = bip.peek_current_partition_info(c)
    assert nxt is not info and nxt.partition == 1
    bip.update_partition_info(nxt, 100, c)
    assert bip.peek_current_partition_info(c).partition == 2


def test_nullkey_builtin_weighted_choice_uses_load_stats():
    c = Cluster.of("t", [0, 0, 0])
    bip = BuiltInPartitioner("t", 1, Fixed(*range(8)))
    bip.update_partition_load_stats([0, 3, 1], [0, 1, 2], 3)
    assert Counter(bip.next_partition(c) for _ in range(8)) == {0: 4, 1: 1, 2: 3}
    bip.update_partition_load_stats(None, [0, 1, 2], 3)
    assert bip.load_stats is None


def test_nullkey_builtin_rejects_non_positive_sticky_batch_size():
    with pytest.raises(ConfigError, match="stickyBatchSize must be >= 1 but got 0"):
        BuiltInPartitioner("t", 0)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 20), min_size=2, max_size=8), st.data())
def test_nullkey_load_stats_weights_are_inverse_queue_sizes(queues, data):
    length = data.draw(st.integers(1, len(queues)))
    ids = list(range(100, 100 + len(queues)))
    stats = partition_load_stats(queues, ids, length)
    used = queues[:length]
    if length == len(queues) and len(set(used)) == 1:
        assert stats is None
        return
    top = max(used) + 1
    counts = Counter(stats.pick(r) for r in range(stats.cumulative_frequency_table[-1]))
    assert counts == {ids[i]: top - q for i, q in enumerate(used)}


def test_nullkey_ready_pass_reproduces_kafkas_queue_size_slots():
    # RecordAccumulator.partitionReady: a partition excluded by the availability timeout
    # gives its slot to the next partition; an *empty* next partition does not overwrite the
    # slot's queue size, so it inherits the excluded partition's size.
    from kpart.producer._accumulator import Accumulator, _Batch

    cluster = Cluster.of("t", [0, 0, 1, 0])
    bip = BuiltInPartitioner("t", 100, Fixed())
    acc = Accumulator("t", cluster, 100, 1000, 1, {}, 1.0, True, 10, bip)
    acc.deques = {0: [_Batch(0, 0, 10, 1)], 1: [_Batch(1, 0, 10, 1)] * 2,
                  2: [_Batch(2, 0, 10, 1)] * 5, 3: []}  # fmt: skip
    acc.node_stats = {1: [500.0, 0.0]}  # broker 1 ready but undrainable for 500 ms > 10
    acc._ready(now=1.0)
    # slots: p0 -> 1, p1 -> 2, p2 (excluded) -> 5 then p3 takes slot 2 keeping 5
    assert bip.load_stats == PartitionLoadStats((5, 9, 10), (0, 1, 3))
