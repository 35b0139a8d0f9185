"""Resource pools (seed 002's isolation scheme) and the pool file."""

from __future__ import annotations

import pytest

from kpart.errors import ConfigError
from kpart.placement.admin_utils import assign_replicas_to_brokers
from kpart.placement.planner import place_in_pools
from kpart.placement.pools import parse_pools
from kpart.placement.reassign import count_replica_moves, generate_assignment
from kpart.placement.spec import Broker

SEED_POOLS = """{
  "pools": {"pool1": [1, 2, 3], "pool2": [4, 5, 6], "pool3": [7, 8, 9]},
  "topics": {"t1": "pool1", "t2": "pool1", "t3": "pool1",
             "t4": "pool2", "t5": "pool2", "t6": "pool2",
             "t7": "pool3", "t8": "pool3", "t9": "pool3"}
}"""
POOL_OF = {f"t{i}": {1: {1, 2, 3}, 2: {4, 5, 6}, 3: {7, 8, 9}}[(i + 2) // 3] for i in range(1, 10)}


def seed_cluster():
    """Seed 002: 9 brokers (broker-1..broker-9), topics t1..t9 of 9 partitions, RF 1, created
    with kafka-topics.sh (AdminUtils over all nine brokers) before the reassignment."""
    brokers = [Broker(i) for i in range(1, 10)]
    current = {
        f"t{i}": dict(assign_replicas_to_brokers(brokers, 9, 1, fixed_start_index=i % 9))
        for i in range(1, 10)
    }
    return brokers, current


def test_seed_002_pools_minimal_movement():
    brokers, current = seed_cluster()
    spec = parse_pools(SEED_POOLS)
    plan = place_in_pools(current, brokers, spec)
    outside = sum(
        1 for t, ps in current.items() for reps in ps.values() for b in reps if b not in POOL_OF[t]
    )
    assert outside == 54  # each topic has 1 partition per broker: 6 of 9 outside its pool
    assert plan.replica_moves == outside
    for t, parts in plan.target.items():
        for reps in parts.values():
            assert set(reps) <= POOL_OF[t]
        # each topic spread evenly inside its pool: 3 partitions per broker
        per = [sum(b in reps for reps in parts.values()) for b in sorted(POOL_OF[t])]
        assert per == [3, 3, 3], t
    counts = dict(plan.replicas_per_broker())
    assert all(counts[b] == 9 for b in range(1, 10))  # 3 topics x 9 partitions / 3 brokers


def test_seed_002_pools_with_kafka_generate():
    brokers, current = seed_cluster()
    spec = parse_pools(SEED_POOLS)
    plan = place_in_pools(current, brokers, spec, strategy="generate", seed=1,
                          kafka_version="4.0")
    expected = generate_assignment(current, brokers, seed=1, pools=spec, kafka_version="4.0")
    for t, parts in expected.items():
        assert dict(plan.target[t]) == parts
        for reps in parts.values():
            assert set(reps) <= POOL_OF[t]
    assert plan.replica_moves == count_replica_moves(current, expected) >= 54
    assert {b: n for b, n in plan.replicas_per_broker()} == {b: 9 for b in range(1, 10)}


def test_rack_aware_inside_a_pool():
    racks = {1: "a", 2: "a", 3: "b", 4: "b", 5: "c", 6: "c"}
    brokers = [Broker(b, r) for b, r in racks.items()]
    spec = parse_pools('{"pools": {"p": {"brokers": [1, 2, 3, 4], "topics": ["x"]}, '
                       '"q": [5, 6]}}')
    current = {"x": {p: (5, 6) for p in range(4)}}
    plan = place_in_pools(current, brokers, spec)
    for reps in plan.target["x"].values():
        assert set(reps) <= {1, 2, 3, 4}
        assert {racks[b] for b in reps} == {"a", "b"}


def test_unpooled_topics_use_the_default_pool():
    spec = parse_pools('{"pools": {"p1": [1, 2]}, "topics": {"a": "p1"}}')
    assert spec.allowed("a", range(1, 6)) == {1, 2}
    assert spec.allowed("zzz", range(1, 6)) == {3, 4, 5}
    assert spec.pool_of("zzz") is None


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ('{"pools": {"p1": []}}', "Pool 'p1' has no brokers"),
        ('{"pools": {"p1": {"brokers": [], "topics": ["a"]}}}', "Pool 'p1' has no brokers"),
        ('{"pools": {"p1": [1], "p2": [2]}, "topics": {"a": "p1", "a": "p2"}}',
         "Topic 'a' is in two pools: 'p1' and 'p2'"),
        ('{"pools": {"p1": {"brokers": [1], "topics": ["a"]}, "p2": {"brokers": [2], '
         '"topics": ["a"]}}}', "Topic 'a' is in two pools: 'p1' and 'p2'"),
        ('{"pools": {"p1": {"brokers": [1], "topics": ["a"]}, "p2": [2]}, '
         '"topics": {"a": "p2"}}', "Topic 'a' is in two pools: 'p1' and 'p2'"),
        ('{"pools": {"p1": [1, 2], "p2": [2, 3]}}', "Broker 2 is in two pools: 'p1' and 'p2'"),
        ('{"pools": {"p1": [1]}, "topics": {"a": "nope"}}', "Unknown pool 'nope' for topic 'a'"),
        ('{"pools": {"p1": [1, "x"]}}', "Invalid broker id 'x' in pool 'p1'"),
        ('{"pools": {"p1": [1]', "Malformed pool file JSON"),
        ('{"pools": {}}', "non-empty 'pools'"),
        ('{"pools": {"p1": {"brokers": [1], "topic": ["a"]}}}', "Unknown key 'topic'"),
    ],
)
def test_bad_pool_files_name_the_value(text, match):
    with pytest.raises(ConfigError, match=match):
        parse_pools(text)


def test_pool_with_unknown_broker_is_rejected_by_the_planner():
    spec = parse_pools('{"pools": {"p1": [1, 99]}, "topics": {"a": "p1"}}')
    with pytest.raises(ConfigError, match="Unknown broker id 99 in pool 'p1'"):
        place_in_pools({"a": {0: (1,)}}, [Broker(1), Broker(2)], spec)
