"""kpart.cluster.snapshot on a tiny in-memory Admin: the paths librdkafka's mock cluster cannot
take (DescribeConfigs answered, an offline broker, a partition without leader, offsets failing
for some partitions, groups listed by the cluster)."""

from __future__ import annotations

from concurrent.futures import Future
from types import SimpleNamespace as NS
from typing import Any

import pytest

pytest.importorskip("confluent_kafka")

from confluent_kafka import (  # noqa: E402
    ConsumerGroupState,
    ConsumerGroupType,
    KafkaError,
    KafkaException,
    Node,
    TopicPartition,
)

from kpart.cluster.snapshot import take_snapshot  # noqa: E402
from kpart.errors import AdminOperationError  # noqa: E402


def _done(value: Any) -> Future[Any]:
    f: Future[Any] = Future()
    f.set_result(value)
    return f


def _failed(code: int) -> Future[Any]:
    f: Future[Any] = Future()
    f.set_exception(KafkaException(KafkaError(code)))
    return f


class FakeAdmin:
    """Brokers 1-3 live (rack a, b, None), broker 4 holds a replica but is offline; topic "t"
    with 3 partitions (partition 2 has no leader), min.insync.replicas 2; offsets:
    earliest 10, latest 10 + 5 * p, except partition 1 whose latest offset fails."""

    def __init__(self, topic_error: int | None = None) -> None:
        self.topic_error = topic_error

    def describe_cluster(self, **kw: Any) -> Future[Any]:
        nodes = [Node(1, "h1", 9092, "a"), Node(2, "h2", 9092, "b"), Node(3, "h3", 9092)]
        return _done(NS(nodes=nodes, controller=nodes[1]))

    def list_topics(self, **kw: Any) -> Any:
        parts = {0: NS(id=0, leader=1, replicas=[1, 2, 4], isrs=[1, 2], error=None),
                 2: NS(id=2, leader=-1, replicas=[3, 1, 2], isrs=[], error=None),
                 1: NS(id=1, leader=2, replicas=[2, 3, 1], isrs=[2, 3, 1], error=None)}
        error = None if self.topic_error is None else KafkaError(self.topic_error)
        return NS(topics={"t": NS(topic="t", partitions=parts, error=error)})

    def describe_configs(self, resources: Any, **kw: Any) -> dict[Any, Future[Any]]:
        return {r: _done({"min.insync.replicas": NS(value="2")}) for r in resources}

    def list_offsets(self, requests: dict[Any, Any], **kw: Any) -> dict[Any, Future[Any]]:
        out: dict[Any, Future[Any]] = {}
        for tp, spec in requests.items():
            latest = "Latest" in type(spec).__name__
            if latest and tp.partition == 1:
                out[tp] = _failed(KafkaError.NOT_LEADER_FOR_PARTITION)
            else:
                out[tp] = _done(NS(offset=10 + (5 * tp.partition if latest else 0)))
        return out

    def list_consumer_groups(self, **kw: Any) -> Future[Any]:
        return _done(NS(valid=[NS(group_id="g")], errors=[]))

    def describe_consumer_groups(self, ids: Any, **kw: Any) -> dict[str, Future[Any]]:
        m = NS(member_id="m1", client_id="c", host="/h", group_instance_id=None, rack="a",
               assignment=NS(topic_partitions=[TopicPartition("t", 2), TopicPartition("t", 0)]))
        return {"g": _done(NS(group_id="g", members=[m], partition_assignor="uniform",
                              state=ConsumerGroupState.STABLE, type=ConsumerGroupType.CONSUMER,
                              is_simple_consumer_group=False, coordinator=Node(3, "h3", 1)))}


def test_the_paths_the_mock_cannot_take() -> None:
    admin: Any = FakeAdmin()
    snap = take_snapshot(admin, timeout=5)
    m = snap.model
    assert [(b.id, b.rack) for b in m.brokers] == [(1, "a"), (2, "b"), (3, None), (4, None)]
    assert snap.controller == 2
    assert m.topics[0].min_insync_replicas == 2
    states = [m.partition_state(r) for r in range(m.num_partitions)]
    assert [(p.partition, p.replicas, p.leader, p.isr) for p in states] == [
        (0, (1, 2, 4), 1, (1, 2)), (1, (2, 3, 1), 2, (2, 3, 1)), (2, (3, 1, 2), None, ())]
    assert [p.messages for p in states] == [0.0, None, 10.0]
    assert len(snap.warnings) == 2
    assert snap.warnings[0].startswith("broker(s) 4 hold replicas but are not live")
    assert snap.warnings[1].startswith("messages of 1 partition(s) recorded as null")
    assert snap.groups is not None
    g = snap.groups[0]
    assert (g.type, g.state, g.assignor, g.coordinator) == ("consumer", "STABLE", "uniform", 3)
    assert g.members[0].rack == "a" and g.members[0].assignment == (("t", (0, 2)),)


def test_a_topic_the_cluster_cannot_describe_is_an_error() -> None:
    admin: Any = FakeAdmin(topic_error=KafkaError.TOPIC_AUTHORIZATION_FAILED)
    with pytest.raises(AdminOperationError, match="Cannot describe topic 't': .*uthoriz"):
        take_snapshot(admin, timeout=5)


def test_command_config_keeps_trailing_blanks_and_reads_odd_backslash_runs() -> None:
    """As java.util.Properties: a value's trailing blanks are its own (a password may end in
    one); a line ending in an odd run of backslashes continues, an even run does not."""
    from kpart.cluster.snapshot import parse_command_config

    got = parse_command_config("sasl.password=pw \na=x\\\\\nb=1\nc=y\\\\\\\n  z\n")
    assert got["sasl.password"] == (1, "pw ")
    assert got["b"] == (3, "1") and got["a"][1].startswith("x")
    assert got["c"] == (4, "y\\\\z")
