"""Reassignment plans as values and kafka-reassign-partitions.sh's JSON formats."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kpart._java.random import JavaRandom
from kpart.errors import ConfigError, InvalidReplicaAssignmentError
from kpart.placement.admin_utils import assign_replicas_to_brokers
from kpart.placement.formats import format_describe
from kpart.placement.reassign import (
    Move,
    apply_moves,
    count_replica_moves,
    describe_text,
    diff,
    generate_assignment,
    parse_reassignment_json,
    parse_topics_to_move_json,
    read_current,
    reassignment_json,
    rollback_json,
    topics_to_move_json,
    validate_assignment,
)
from kpart.placement.spec import Broker


def test_move_figures():
    m = Move("foo", 3, (1, 2, 3), (4, 2, 1))
    assert m.adding == (4,)
    assert m.removing == (3,)
    assert m.replica_moves == 1
    assert m.leader_change
    assert m.brokers == {3, 4}
    reorder = Move("foo", 0, (1, 2), (2, 1))
    assert reorder.replica_moves == 0 and reorder.leader_change and reorder.brokers == set()


def test_plan_and_rollback_json_match_kafkas_format():
    cur = {"b": {0: (1, 2)}, "a": {1: (2, 3), 0: (3, 1)}}
    tgt = {"b": {0: (1, 2)}, "a": {1: (4, 3), 0: (1, 3)}}
    moves = diff(cur, tgt)
    assert [(m.topic, m.partition) for m in moves] == [("a", 0), ("a", 1)]
    plan = json.loads(reassignment_json(moves))
    assert plan == {
        "version": 1,
        "partitions": [
            {"topic": "a", "partition": 0, "replicas": [1, 3], "log_dirs": ["any", "any"]},
            {"topic": "a", "partition": 1, "replicas": [4, 3], "log_dirs": ["any", "any"]},
        ],
    }
    assert list(plan) == ["version", "partitions"]
    assert list(plan["partitions"][0]) == ["topic", "partition", "replicas", "log_dirs"]
    assert " " not in reassignment_json(moves)  # compact, as Json.encodeAsString
    back = parse_reassignment_json(rollback_json(moves))
    assert back == {"a": {0: (3, 1), 1: (2, 3)}}


def test_json_sorts_topics_like_string_compareto():
    # U+1F600 is a surrogate pair in Java (0xD83D...) and sorts before U+FFFD
    moves = [Move("a\ufffd", 0, (1,), (2,)), Move("a\U0001F600", 0, (1,), (2,))]
    topics = [p["topic"] for p in json.loads(reassignment_json(moves))["partitions"]]
    assert topics == ["a\U0001F600", "a\ufffd"]


def test_topics_to_move_json():
    text = topics_to_move_json(["foo", "bar", "foo"])
    assert text == '{"topics":[{"topic":"bar"},{"topic":"foo"}],"version":1}'
    assert parse_topics_to_move_json(text) == ["bar", "foo"]
    with pytest.raises(ConfigError, match=r"duplicate entries: \[foo\]"):
        parse_topics_to_move_json('{"topics":[{"topic":"foo"},{"topic":"foo"}],"version":1}')


@pytest.mark.parametrize(
    ("text", "error", "match"),
    [
        ('{"version":1,"partitions":[]}', InvalidReplicaAssignmentError,
         "Partition reassignment list cannot be empty"),
        ('{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[]}]}',
         InvalidReplicaAssignmentError, "Partition replica list cannot be empty"),
        ('{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[1,2,1]}]}',
         InvalidReplicaAssignmentError,
         "Partition replica lists may not contain duplicate entries: t-0 contains multiple "
         "entries for 1"),
        ('{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[1]},'
         '{"topic":"t","partition":0,"replicas":[2]}]}', InvalidReplicaAssignmentError,
         "Partition reassignment contains duplicate topic partitions: t-0"),
        ('{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[1,2],'
         '"log_dirs":["any"]}]}', InvalidReplicaAssignmentError,
         r"Size of replicas list \[1, 2\] is different from size of log dirs list \['any'\] "
         "for partition t-0"),
        ('{"version":2,"partitions":[]}', ConfigError, "Not supported version field value 2"),
        ('{"version":1,"partitions":[{"topic":"t","replicas":[1]}]}', ConfigError,
         "Missing field 'partition' in partitions\\[0\\]"),
        ('{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[1,"x"]}]}',
         ConfigError, "Invalid broker id 'x' in the replicas of t-0"),
        ('{"version":1,"partitions":[', ConfigError, "Malformed reassignment JSON"),
        ("[1, 2]", ConfigError, "expected an object"),
    ],
)
def test_bad_reassignment_json(text, error, match):
    with pytest.raises(error, match=match):
        parse_reassignment_json(text)


def test_validate_assignment_errors_name_the_value():
    with pytest.raises(InvalidReplicaAssignmentError, match="Uneven replication factor in topic t"):
        validate_assignment({"t": {0: (1, 2), 1: (3,)}})
    with pytest.raises(InvalidReplicaAssignmentError, match="Unknown broker id 7 .* t-1"):
        validate_assignment({"t": {0: (1, 2), 1: (7, 2)}}, brokers=[1, 2, 3])


def test_read_current_accepts_describe_output_and_json():
    a = {0: (2, 0, 1), 1: (0, 1, 2), 2: (1, 2, 0)}
    text = format_describe(a, "topic-test4") + format_describe({0: (0, 1)}, "x")
    from_describe = read_current(text)
    assert from_describe == {"topic-test4": a, "x": {0: (0, 1)}}
    assert read_current(reassignment_json(from_describe)) == from_describe
    assert read_current(describe_text(from_describe)) == from_describe
    with pytest.raises(InvalidReplicaAssignmentError, match="Uneven replication factor"):
        read_current(format_describe({0: (0, 1), 1: (1,)}, "topic-test7"))
    with pytest.raises(ConfigError, match="No partitions found"):
        read_current("nothing here\n")


assignments = st.dictionaries(
    st.sampled_from(["a", "b", "c"]),
    st.integers(1, 3).flatmap(
        lambda rf: st.dictionaries(
            st.integers(0, 6), st.permutations(range(6)).map(lambda p: tuple(p[:rf])),
            min_size=1, max_size=5,
        )
    ),
    min_size=1,
)


@settings(max_examples=60, deadline=None)
@given(assignments, st.randoms(use_true_random=False))
def test_diff_then_apply_is_the_target(current, rnd):
    target = {
        t: {p: tuple(rnd.sample(range(8), len(r))) if rnd.random() < 0.5 else r
            for p, r in ps.items()}
        for t, ps in current.items()
    }
    moves = diff(current, target)
    assert apply_moves(current, moves) == target
    assert sum(m.replica_moves for m in moves) == count_replica_moves(current, target)
    assert all(m.from_replicas != m.to_replicas for m in moves)
    assert parse_reassignment_json(reassignment_json(target)) == target


def test_diff_rejects_unknown_partitions_and_rf_changes():
    with pytest.raises(InvalidReplicaAssignmentError, match="Unknown partition t-5"):
        diff({"t": {0: (1,)}}, {"t": {5: (1,)}})
    with pytest.raises(InvalidReplicaAssignmentError, match="changes replication factor 1 -> 2"):
        diff({"t": {0: (1,)}}, {"t": {0: (1, 2)}})


def test_generate_is_adminutils_per_topic_with_one_random():
    brokers = [Broker(i, f"r{i % 2}") for i in range(6)]
    current = {"b": {p: (0, 1) for p in range(4)}, "a": {p: (0, 1, 2) for p in range(5)}}
    out = generate_assignment(current, brokers, seed=42, kafka_version="4.0")
    rnd = JavaRandom(42)
    expect_a = assign_replicas_to_brokers(brokers, 5, 3, random=rnd)
    expect_b = assign_replicas_to_brokers(brokers, 4, 2, random=rnd)
    assert out == {"a": dict(expect_a), "b": dict(expect_b)}
    plain = generate_assignment(current, brokers, seed=42, rack_aware=False,
                                kafka_version="4.0")
    rnd = JavaRandom(42)
    assert plain["a"] == dict(assign_replicas_to_brokers(brokers, 5, 3, random=rnd,
                                                         rack_aware=False))
