"""kpart.cluster.snapshot against librdkafka's mock cluster (tests/_tools/mock_kafka.py): 6 brokers
in 3 racks, topics with known replicas and leaders, keyed records, a 3-member consumer group.

The mock answers DescribeCluster, Metadata (describe_topics) and ListOffsets; it has no
DescribeConfigs, ListGroups, DescribeGroups or ConsumerGroupDescribe handler. The group tests
therefore pass an Admin that forwards every call to the real AdminClient except the two group
calls, which it answers with confluent_kafka's own ConsumerGroupDescription values built from the
live consumers (their member ids and assignments, as the coordinator holds them).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from concurrent.futures import Future
from typing import Any

import pytest

pytest.importorskip("confluent_kafka")

from confluent_kafka import ConsumerGroupState, Node  # noqa: E402
from confluent_kafka.admin import (  # type: ignore[attr-defined]  # noqa: E402
    ConsumerGroupDescription,
    ConsumerGroupListing,
    ListConsumerGroupsResult,
    MemberAssignment,
    MemberDescription,
)

from _tools import mock_kafka as mk  # noqa: E402
from kpart.cluster.cluster_json import (  # noqa: E402
    cluster_from_json,
    cluster_to_json,
    groups_from_json,
)
from kpart.cluster.groups import group_spec_json  # noqa: E402
from kpart.cluster.snapshot import (  # noqa: E402
    Snapshot,
    admin_config,
    connect,
    parse_command_config,
    take_snapshot,
)
from kpart.errors import AdminOperationError, ConfigError  # noqa: E402

KEYS = {"orders": 300, "events": 120}


class Live:
    """The running standard cluster, what was produced and the formed group."""

    def __init__(self, mc: mk.MockCluster, produced: dict[str, dict[int, int]],
                 consumers: list[Any]) -> None:
        self.mc, self.produced, self.consumers = mc, produced, consumers


@pytest.fixture(scope="module")
def live() -> Iterator[Live]:
    with mk.standard_cluster() as mc:
        produced = {t: mk.produce_keyed(mc.bootstrap_servers, t,
                                        [b"%s-key-%d" % (t.encode(), i) for i in range(n)])
                    for t, n in KEYS.items()}
        consumers = mk.form_group(mc.bootstrap_servers, "billing", ["orders", "events"], 3)
        try:
            yield Live(mc, produced, consumers)
        finally:
            for c in consumers:
                c.close()


def _done(value: Any) -> Future[Any]:
    f: Future[Any] = Future()
    f.set_result(value)
    return f


class GroupAwareAdmin:
    """The real AdminClient, with the group calls the mock refuses answered from the live
    consumers of group ``billing``."""

    def __init__(self, admin: Any, consumers: list[Any]) -> None:
        self.admin, self.consumers = admin, consumers

    def __getattr__(self, name: str) -> Any:
        return getattr(self.admin, name)

    def list_consumer_groups(self, **kwargs: Any) -> Future[Any]:
        return _done(ListConsumerGroupsResult(
            valid=[ConsumerGroupListing("billing", False, ConsumerGroupState.STABLE)]))

    def describe_consumer_groups(self, group_ids: Any, **kwargs: Any) -> dict[str, Future[Any]]:
        members = [MemberDescription(c.memberid(), f"client-{i}", "/127.0.0.1",
                                     MemberAssignment(c.assignment()), f"inst-{i}")
                   for i, c in enumerate(self.consumers)]
        desc = ConsumerGroupDescription("billing", False, members, "range",
                                        ConsumerGroupState.STABLE, Node(1, "127.0.0.1", 9092))
        return {"billing": _done(desc)}


@pytest.fixture(scope="module")
def snap(live: Live) -> Snapshot:
    admin = connect(admin_config(live.mc.bootstrap_servers))
    both: Any = GroupAwareAdmin(admin, live.consumers)  # an Admin through __getattr__
    return take_snapshot(both, timeout=10,
                         bootstrap=live.mc.bootstrap_servers)


def test_brokers_racks_and_controller(snap: Snapshot) -> None:
    assert [(b.id, b.rack) for b in snap.model.brokers] == [
        (b, mk.rack_of(b)) for b in range(1, mk.NUM_BROKERS + 1)]
    assert snap.controller == 1


def test_every_replica_list_leader_and_isr(snap: Snapshot) -> None:
    m = snap.model
    assert sorted(t.name for t in m.topics) == sorted(mk.TOPICS)
    seen = set()
    for row in range(m.num_partitions):
        p = m.partition_state(row)
        expected = mk.mock_replicas(p.partition, mk.TOPICS[p.topic][1], mk.NUM_BROKERS)
        assert list(p.replicas) == expected, (p.topic, p.partition)
        assert p.leader == mk.leader_of(p.topic, p.partition)
        assert list(p.isr) == expected
        seen.add((p.topic, p.partition))
    assert seen == {(t, i) for t, (n, _) in mk.TOPICS.items() for i in range(n)}


def test_messages_per_partition_are_what_was_produced(snap: Snapshot, live: Live) -> None:
    m = snap.model
    for row in range(m.num_partitions):
        p = m.partition_state(row)
        assert p.messages == live.produced.get(p.topic, {}).get(p.partition, 0), p
        assert p.size_bytes is None and p.bytes_in_per_s is None
    assert sum(x or 0 for x in (m.partition_state(r).messages
                                for r in range(m.num_partitions))) == sum(KEYS.values())


def test_unreadable_configs_are_null_with_one_warning(snap: Snapshot) -> None:
    assert all(t.min_insync_replicas is None for t in snap.model.topics)
    lines = [w for w in snap.warnings if "min.insync.replicas" in w]
    assert len(lines) == 1 and "describe_configs" in lines[0]
    assert len(snap.warnings) == 1  # nothing else went wrong


def test_group_members_and_assignments(snap: Snapshot, live: Live) -> None:
    assert snap.groups is not None and [g.group_id for g in snap.groups] == ["billing"]
    g = snap.groups[0]
    assert (g.state, g.assignor, g.simple, g.coordinator) == ("STABLE", "range", False, 1)
    assert [m.group_instance_id for m in g.members] == ["inst-0", "inst-1", "inst-2"]
    assert [m.client_id for m in g.members] == ["client-0", "client-1", "client-2"]
    for m, c in zip(g.members, live.consumers, strict=True):
        assert m.member_id == c.memberid()
        held = sorted((tp.topic, tp.partition) for tp in c.assignment())
        assert sorted((t, p) for t, ps in m.assignment for p in ps) == held
    every = sorted((t, p) for m in g.members for t, ps in m.assignment for p in ps)
    assert every == sorted((t, i) for t in ("orders", "events") for i in range(mk.TOPICS[t][0]))


def test_cluster_json_round_trip_keeps_everything(snap: Snapshot) -> None:
    doc = cluster_to_json(snap.model, snap.groups)
    again = cluster_from_json(doc)
    assert cluster_to_json(again, groups_from_json(doc)) == doc


def test_what_if_a_member_leaves(snap: Snapshot) -> None:
    from kpart.consumer import assign
    from kpart.consumer.spec import GroupSpec

    assert snap.groups is not None
    g = snap.groups[0]
    counts = {t.name: mk.TOPICS[t.name][0] for t in snap.model.topics}
    doc = group_spec_json(g, counts, leave=["inst-1"])
    spec = GroupSpec.from_json(doc, unknown_owned="error")
    assert [m.group_instance_id for m in spec.members] == ["inst-0", "inst-2"]
    for strategy in ("range", "cooperative-sticky"):
        result = dict(assign(spec, strategy).assignment)
        got = sorted((t, p) for owned in result.values() for t, ps in owned for p in ps)
        assert got == sorted((t, i) for t in ("orders", "events")
                             for i in range(mk.TOPICS[t][0]))
    kept = dict(assign(spec, "cooperative-sticky").assignment)
    for m in g.members:  # the sticky assignor keeps what the remaining members held
        if m.group_instance_id != "inst-1":
            mine = {(t, p) for t, ps in kept[m.member_id] for p in ps}
            assert {(t, p) for t, ps in m.assignment for p in ps} <= mine
    with pytest.raises(ConfigError, match="no member 'nobody'"):
        group_spec_json(g, counts, leave=["nobody"])


def test_the_mock_refuses_group_listing_one_warning(live: Live) -> None:
    admin = connect(admin_config(live.mc.bootstrap_servers))
    snap = take_snapshot(admin, timeout=10, bootstrap=live.mc.bootstrap_servers)
    assert snap.groups is None
    assert [w for w in snap.warnings if "groups" in w][0].startswith(
        'consumer groups not recorded ("groups": null)')
    assert snap.model.num_partitions == sum(n for n, _ in mk.TOPICS.values())


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_unreachable_bootstrap_is_one_error_within_the_timeout() -> None:
    bootstrap = f"127.0.0.1:{_closed_port()}"
    start = time.monotonic()
    with pytest.raises(AdminOperationError, match=f"--bootstrap-server {bootstrap}"):
        take_snapshot(connect(admin_config(bootstrap)), timeout=1.0, bootstrap=bootstrap)
    assert time.monotonic() - start < 1.0 + 2.0


def test_command_config_parsing() -> None:
    props = parse_command_config("# a comment\n! another\n\nsecurity.protocol = SASL_SSL\n"
                                 "sasl.mechanism: SCRAM-SHA-512\nsasl.jaas.config=org.apache."
                                 "kafka.common.security.scram.ScramLoginModule required \\\n"
                                 '  username="alice" password="s3=cret";\n', "cfg")
    assert props["security.protocol"] == (4, "SASL_SSL")
    conf = admin_config("h:9092", props, "cfg")
    assert {k: v for k, (_, v) in conf.items()} == {
        "security.protocol": "SASL_SSL", "sasl.mechanism": "SCRAM-SHA-512",
        "sasl.username": "alice", "sasl.password": "s3=cret", "bootstrap.servers": "h:9092"}


@pytest.mark.parametrize(("text", "message"), [
    ("security.protocol=SSL\njust-a-word\n", "cfg line 2: expected key=value"),
    ("a=1\na=2\n", "cfg line 2: a is already set on line 1"),
    ("\nssl.truststore.location=/x.jks\n", "cfg line 2: ssl.truststore.location is a Java"),
    ("sasl.jaas.config=com.sun.security.auth.module.Krb5LoginModule required;\n",
     "cfg line 1: sasl.jaas.config"),
])
def test_bad_command_config_names_the_line(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        admin_config("h:1", parse_command_config(text, "cfg"), "cfg")


def test_librdkafka_rejects_an_unknown_key_on_its_line() -> None:
    conf = admin_config("h:1", parse_command_config("client.id=x\nno.such.setting=1\n", "cfg"),
                        "cfg")
    with pytest.raises(ConfigError, match="cfg line 2: .*no.such.setting"):
        connect(conf, "cfg")
