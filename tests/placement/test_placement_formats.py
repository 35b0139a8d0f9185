"""Formats: kafka-topics.sh --describe (written as Kafka prints it, parsed from old and new
output including seed 001's), reassignment JSON, the format dispatcher."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kpart.errors import ConfigError, KpartWarning
from kpart.placement.formats import (
    DescribedPartition,
    format_assignment,
    format_describe,
    format_reassignment_json,
    parse_describe,
    parse_describe_partitions,
)

# Seed 001, as printed by Kafka 1.0 (copied with spaces in place of tabs).
SEED_TOPIC_TEST4 = """\
[root@node3 kafka_2.12-1.0.0]# bin/kafka-topics.sh --describe --zookeeper 192.168.0.2:2181/kafka100 --topic topic-test4
Topic:topic-test4   PartitionCount:6    ReplicationFactor:3 Configs:
    Topic: topic-test4  Partition: 0    Leader: 2   Replicas: 2,0,1 Isr: 2,0,1
    Topic: topic-test4  Partition: 1    Leader: 0   Replicas: 0,1,2 Isr: 0,1,2
    Topic: topic-test4  Partition: 2    Leader: 1   Replicas: 1,2,0 Isr: 1,2,0
    Topic: topic-test4  Partition: 3    Leader: 2   Replicas: 2,1,0 Isr: 2,1,0
    Topic: topic-test4  Partition: 4    Leader: 0   Replicas: 0,2,1 Isr: 0,2,1
    Topic: topic-test4  Partition: 5    Leader: 1   Replicas: 1,0,2 Isr: 1,0,2
"""

SEED_TWO_TOPICS = """\
Topic:topic-test1   PartitionCount:4    ReplicationFactor:2 Configs:
    Topic: topic-test1  Partition: 0    Leader: 0   Replicas: 0,1   Isr: 0,1
    Topic: topic-test1  Partition: 1    Leader: 1   Replicas: 1,0   Isr: 1,0
Topic:topic-test7   PartitionCount:4    ReplicationFactor:2 Configs:
    Topic: topic-test7  Partition: 0    Leader: 0   Replicas: 0,1   Isr: 0,1
    Topic: topic-test7  Partition: 1    Leader: 1   Replicas: 1 Isr: 1
"""

# Kafka 3.7+ (KRaft, DescribeTopicPartitions): TopicId, configs, Elr fields, a reassignment.
MODERN = (
    "Topic: orders\tTopicId: 4FZ3a0bJQOWiV0fTnrRfZQ\tPartitionCount: 2\tReplicationFactor: 3"
    "\tConfigs: min.insync.replicas=2,cleanup.policy=compact\n"
    "\tTopic: orders\tPartition: 0\tLeader: 1\tReplicas: 1,2,3\tIsr: 1,2\tElr: \tLastKnownElr: \n"
    "\tTopic: orders\tPartition: 1\tLeader: none\tReplicas: 2,3,4\tIsr: \tAdding Replicas: 4"
    "\tRemoving Replicas: 1\tElr: 3\tLastKnownElr: N/A\n"
)


def test_parse_seed_topic_test4() -> None:
    assert parse_describe(SEED_TOPIC_TEST4) == {"topic-test4": {
        0: (2, 0, 1), 1: (0, 1, 2), 2: (1, 2, 0), 3: (2, 1, 0), 4: (0, 2, 1), 5: (1, 0, 2)}}


def test_parse_seed_two_topics_with_irregular_partition() -> None:
    # the seed's excerpt keeps 2 of each topic's 4 partition lines: refused as a partial dump,
    # parsed with partial=True, and said so
    with pytest.raises(ConfigError, match="PartitionCount 4 but 2 partition lines"):
        parse_describe(SEED_TWO_TOPICS)
    with pytest.warns(KpartWarning, match="PartitionCount 4 but 2 partition lines") as caught:
        assert parse_describe(SEED_TWO_TOPICS, partial=True) == {
            "topic-test1": {0: (0, 1), 1: (1, 0)}, "topic-test7": {0: (0, 1), 1: (1,)}}
    assert len(caught) == 2


def test_parse_modern_output_with_elr_and_reassignment() -> None:
    parts = parse_describe_partitions(MODERN)
    assert parts == [
        DescribedPartition("orders", 0, 1, (1, 2, 3), (1, 2)),
        DescribedPartition("orders", 1, None, (2, 3, 4), (), adding=(4,), removing=(1,),
                           elr=(3,)),
    ]


def test_format_matches_kafka_print_description() -> None:
    text = format_describe({1: (0, 1), 0: (1, 0)}, "t", topic_id="4FZ3a0bJQOWiV0fTnrRfZQ",
                           configs="retention.ms=1000", elr=True)
    assert text.splitlines() == [
        "Topic: t\tTopicId: 4FZ3a0bJQOWiV0fTnrRfZQ\tPartitionCount: 2\tReplicationFactor: 2"
        "\tConfigs: retention.ms=1000",
        "\tTopic: t\tPartition: 0\tLeader: 1\tReplicas: 1,0\tIsr: 1,0\tElr: N/A"
        "\tLastKnownElr: N/A",
        "\tTopic: t\tPartition: 1\tLeader: 0\tReplicas: 0,1\tIsr: 0,1\tElr: N/A"
        "\tLastKnownElr: N/A",
    ]


def test_header_replication_factor_is_first_partitions() -> None:
    text = format_describe({0: (0, 1), 1: (1,)}, "topic-test7")
    assert "\tPartitionCount: 2\tReplicationFactor: 2\t" in text.splitlines()[0]


_topics = st.from_regex(r"[a-zA-Z0-9._-]{1,20}", fullmatch=True)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(
    _topics,
    st.lists(st.lists(st.integers(0, 2000), min_size=1, max_size=5, unique=True), min_size=1,
             max_size=6),
    min_size=1, max_size=3),
    st.booleans(), st.sampled_from(["", "\n", "Created topic x.\n"]))
def test_describe_round_trip(topics: dict, elr: bool, noise: str) -> None:
    expected = {t: {p: tuple(r) for p, r in enumerate(rows)} for t, rows in topics.items()}
    text = noise + "".join(format_describe(a, t, elr=elr) for t, a in expected.items())
    assert parse_describe(text) == expected
    # Leading spaces instead of tabs, runs of spaces between fields.
    assert parse_describe(text.replace("\t", "    ")) == expected


@pytest.mark.parametrize(
    ("text", "needle"),
    [("\tTopic: t\tPartition: 0\tLeader: 1\tReplicas: 1,x\tIsr: 1", "'1,x'"),
     ("\tTopic: t\tPartition: 0\tLeader: 1\tIsr: 1", "line 1"),
     ("\tTopic: t\tPartition: zero\tLeader: 1\tReplicas: 1\tIsr: 1", "'zero'"),
     ("\tTopic: t\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\n"
      "\tTopic: t\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1", "t-0 listed twice"),
     ("\tTopic: t\tPartition: 0\tLeader: ?\tReplicas: 1\tIsr: 1", "'?'")],
)
def test_parse_errors_name_the_value(text: str, needle: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_describe(text)
    assert needle in str(info.value)


def test_reassignment_json() -> None:
    doc = json.loads(format_reassignment_json({"foo": {1: (1, 2, 3), 0: (3, 2, 1)}}))
    assert doc == {"version": 1, "partitions": [
        {"topic": "foo", "partition": 0, "replicas": [3, 2, 1], "log_dirs": ["any"] * 3},
        {"topic": "foo", "partition": 1, "replicas": [1, 2, 3], "log_dirs": ["any"] * 3}]}


def test_format_assignment_dispatch() -> None:
    a = {0: (0, 1), 1: (1, 0)}
    assert format_assignment(a, "replica-assignment") == "0:1,1:0\n"
    assert format_assignment(a, "zk") == '{"version":1,"partitions":{"0":[0,1],"1":[1,0]}}\n'
    assert parse_describe(format_assignment(a, "describe", topic="x")) == {"x": a}
    assert json.loads(format_assignment(a, "json", topic="x"))["partitions"][1]["replicas"] == [
        1, 0]
    with pytest.raises(ConfigError, match="'yaml'"):
        format_assignment(a, "yaml")
