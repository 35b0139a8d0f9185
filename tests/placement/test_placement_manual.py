"""Manual placement: --replica-assignment parsing (TopicCommand), the controller's checks
(ReplicationControlManager), the ZooKeeper topic node (seed 001) and adding partitions
(AdminZkClient.createNewPartitionsAssignment)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kpart import Broker, assign_replicas_to_brokers
from kpart.errors import (
    AdminOperationError,
    ConfigError,
    InvalidPartitionsError,
    InvalidReplicaAssignmentError,
)
from kpart.placement.manual import (
    add_partitions,
    format_replica_assignment,
    parse_replica_assignment,
    read_zk_topic_node,
    validate_replica_assignment,
    write_zk_topic_node,
)

# --- --replica-assignment --------------------------------------------------------------------


def test_seed_002_three_partitions_three_replicas() -> None:
    got = parse_replica_assignment("0:1:2,3:4:5,6:7:8")
    assert got == {0: (0, 1, 2), 1: (3, 4, 5), 2: (6, 7, 8)}


def test_seed_topic_create_same() -> None:
    assert parse_replica_assignment("2:0,0:1,1:2,2:1") == {0: (2, 0), 1: (0, 1), 2: (1, 2),
                                                           3: (2, 1)}


def test_java_split_drops_trailing_empty_entries_and_trims() -> None:
    assert parse_replica_assignment(" 1 : 2 ,2:1,") == {0: (1, 2), 1: (2, 1)}


@pytest.mark.parametrize(
    ("text", "message", "java_class"),
    [
        ("0:0,0:1,1:2,2:1", "Partition replica lists may not contain duplicate entries: 0",
         "org.apache.kafka.tools.AdminCommandFailedException"),
        ("1:1", "Partition replica lists may not contain duplicate entries: 1",
         "org.apache.kafka.tools.AdminCommandFailedException"),
        ("3:1:3:1", "Partition replica lists may not contain duplicate entries: 1,3",
         "org.apache.kafka.tools.AdminCommandFailedException"),
        ("1,2:3", "Partition 1 has different replication factor: [2, 3]",
         "org.apache.kafka.server.common.AdminOperationException"),
        ("0:1,x:1", 'For input string: "x"', "java.lang.NumberFormatException"),
        ("0:1,,1:0", 'For input string: ""', "java.lang.NumberFormatException"),
        ("0:1_0", 'For input string: "1_0"', "java.lang.NumberFormatException"),
        ("0:2147483648", 'For input string: "2147483648"', "java.lang.NumberFormatException"),
    ],
)
def test_replica_assignment_errors(text: str, message: str, java_class: str) -> None:
    with pytest.raises(InvalidReplicaAssignmentError) as info:
        parse_replica_assignment(text)
    assert str(info.value).startswith(message)
    assert info.value.java_class == java_class


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5).flatmap(lambda rf: st.lists(
    st.lists(st.integers(0, 50), min_size=rf, max_size=rf, unique=True), min_size=1,
    max_size=8)))
def test_format_then_parse_round_trips(rows: list[list[int]]) -> None:
    assignment = {i: tuple(r) for i, r in enumerate(rows)}
    assert parse_replica_assignment(format_replica_assignment(assignment)) == assignment


def test_format_requires_consecutive_partitions() -> None:
    with pytest.raises(InvalidReplicaAssignmentError, match=r"\[0, 2\]"):
        format_replica_assignment({0: (1,), 2: (1,)})


# --- controller checks ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("assignment", "brokers", "message"),
    [
        ({0: [1, 2], 1: []}, None,
         "The manual partition assignment includes an empty replica list."),
        ({0: [1, 7]}, [1, 2, 3],
         "The manual partition assignment includes broker 7, but no such broker is registered."),
        ({0: [3, 1, 3]}, [1, 2, 3],
         "The manual partition assignment includes the broker 3 more than once."),
        ({0: [1, 2], 1: [2]}, [1, 2, 3],
         "The manual partition assignment includes a partition with 1 replica(s), but this is "
         "not consistent with previous partitions, which have 2 replica(s)."),
        ({0: [1], 2: [2]}, None, "partitions should be a consecutive 0-based integer sequence"),
    ],
)
def test_controller_checks(assignment: dict, brokers: list | None, message: str) -> None:
    with pytest.raises(InvalidReplicaAssignmentError) as info:
        validate_replica_assignment(assignment, brokers=brokers)
    assert str(info.value) == message
    assert info.value.java_class.endswith("InvalidReplicaAssignmentException")


def test_unknown_broker_reported_before_duplicate_in_sorted_order() -> None:
    # Kafka walks the sorted ids: 2 (duplicate) comes before 9 (unknown).
    with pytest.raises(InvalidReplicaAssignmentError, match="broker 2 more than once"):
        validate_replica_assignment({0: [9, 2, 2]}, brokers=[Broker(2)])


# --- ZooKeeper topic node (seed 001) -----------------------------------------------------------


def test_seed_topic_test6_node() -> None:
    node = read_zk_topic_node('{"version":1,"partitions":{"2":[0,1],"1":[1,0],"3":[1,0],'
                              '"0":[0,1]}}')
    assert node.partitions == {0: (0, 1), 1: (1, 0), 2: (0, 1), 3: (1, 0)}
    assert node.warnings == ()
    assert write_zk_topic_node(node.partitions) == (
        '{"version":1,"partitions":{"0":[0,1],"1":[1,0],"2":[0,1],"3":[1,0]}}')


def test_seed_topic_test7_is_a_warning_not_an_error() -> None:
    node = read_zk_topic_node('{"version":1,"partitions":{"2":[0,1],"1":[1],"3":[1,0],'
                              '"0":[0,1]}}')
    assert node.partitions[1] == (1,)
    assert len(node.warnings) == 1 and "partition 1 has 1 replica(s)" in node.warnings[0]


def test_zk_node_other_irregularities_warn() -> None:
    node = read_zk_topic_node({"version": 2, "partitions": {"0": [1, 1], "2": []},
                               "adding_replicas": {}, "removing_replicas": {}})
    text = " | ".join(node.warnings)
    assert "not 0..1" in text and "partition 2 has no replicas" in text
    assert "lists a broker twice" in text


@pytest.mark.parametrize(
    ("doc", "needle"),
    [("{not json", "malformed JSON"), ('{"version":1}', '"partitions"'),
     ('{"partitions":{"a":[1]}}', "'a'"), ('{"partitions":{"0":["1"]}}', "['1']"),
     ('{"partitions":{"0":[-1]}}', "[-1]"), ('[1,2]', "[1, 2]")],
)
def test_zk_node_errors_name_the_value(doc: str, needle: str) -> None:
    with pytest.raises(ConfigError) as info:
        read_zk_topic_node(doc)
    assert needle in str(info.value)


def test_zk_node_round_trip_json() -> None:
    a = {0: (3, 1), 1: (1, 2)}
    assert json.loads(write_zk_topic_node(a)) == {"version": 1,
                                                 "partitions": {"0": [3, 1], "1": [1, 2]}}
    assert read_zk_topic_node(write_zk_topic_node(a)).partitions == a


# --- adding partitions ------------------------------------------------------------------------


def test_add_partitions_continues_topic_test4() -> None:
    brokers = [Broker(0), Broker(1), Broker(2)]
    whole = assign_replicas_to_brokers(brokers, 6, 3, fixed_start_index=2)
    first_two = {p: whole[p] for p in (0, 1)}
    assert add_partitions(first_two, brokers, 6) == {p: whole[p] for p in range(2, 6)}


@settings(max_examples=80, deadline=None)
@given(n=st.integers(1, 9), rf=st.integers(1, 4), start=st.integers(0, 8),
       have=st.integers(1, 20), more=st.integers(1, 20), gap=st.integers(1, 3))
def test_add_partitions_equals_creating_at_once(n: int, rf: int, start: int, have: int,
                                                more: int, gap: int) -> None:
    # Kafka restarts the replica shift at the start index, so the continuation matches a
    # single creation as long as the existing partitions did not wrap the broker list.
    rf = min(rf, n)
    start %= n
    have = min(have, n)
    brokers = [Broker(i * gap) for i in range(n)]  # sorted by id, as Kafka lists them
    whole = assign_replicas_to_brokers(brokers, have + more, rf, fixed_start_index=start)
    existing = {p: whole[p] for p in range(have)}
    assert add_partitions(existing, brokers, have + more) == {
        p: whole[p] for p in range(have, have + more)}


def test_add_partitions_leader_gone_uses_next_higher_broker() -> None:
    # Partition 0's leader (3) left the cluster: Kafka starts at the first id >= 3, i.e. 4.
    got = add_partitions({0: (3, 0)}, [Broker(0), Broker(1), Broker(4)], 2)
    assert got == assign_replicas_to_brokers([0, 1, 4], 1, 2, fixed_start_index=2,
                                             start_partition_id=1)


def test_add_partitions_errors() -> None:
    with pytest.raises(InvalidPartitionsError) as info:
        add_partitions({0: (0,), 1: (1,)}, [0, 1], 2, topic="t1")
    assert str(info.value) == ("The number of partitions for a topic can only be increased. "
                               "Topic t1 currently has 2 partitions, 2 would not be an increase.")
    with pytest.raises(AdminOperationError, match="partition id 0 is missing"):
        add_partitions({1: (0,)}, [0, 1], 3, topic="t1")


def test_add_partitions_with_manual_assignment() -> None:
    got = add_partitions({0: (0, 1)}, [0, 1, 2], 3, replica_assignment={1: [2, 0], 2: [1, 2]})
    assert got == {1: (2, 0), 2: (1, 2)}
    with pytest.raises(InvalidReplicaAssignmentError, match="broker 5, but no such broker"):
        add_partitions({0: (0, 1)}, [0, 1, 2], 2, replica_assignment={1: [5, 0]})
    with pytest.raises(InvalidReplicaAssignmentError, match="which have 2 replica"):
        add_partitions({0: (0, 1)}, [0, 1, 2], 2, replica_assignment={1: [2]})
