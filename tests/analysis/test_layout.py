"""A cluster of topics resolved once: replicas placed topic after topic (AdminUtils per topic,
or the KRaft controller's one striped placer), groups assigned over all their topics, an
existing cluster's replicas and leaders taken as they are."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kpart._java.random import JavaRandom
from kpart.analysis.layout import (
    Layout,
    ResolvedCluster,
    layout_for,
    replica_assignment,
    resolve_cluster,
    resolve_topology,
)
from kpart.cluster import ClusterBroker, ClusterModel, PartitionState
from kpart.consumer import assign
from kpart.consumer.spec import GroupSpec, Member, Topic
from kpart.errors import ConfigError
from kpart.placement.spec import PlacementSpec, StaticCluster
from kpart.placement.striped_replica_placer import StripedReplicaPlacer
from kpart.topology import (
    Topology,
    default_topology,
    demo_topology,
    parse_topology,
    topology_from_dict,
)

THREE = """
[cluster]
brokers = [{ id = 1, rack = "a" }, { id = 2, rack = "b" }, { id = 3, rack = "c" },
           { id = 4, rack = "a" }, { id = 5, rack = "b" }]

[[topics]]
name = "clicks"
key = "user"
partitions = 9
replication_factor = 3
placement_seed = 11

[[topics]]
name = "stock"
key = "sku"
partitions = 4
replication_factor = 2
placement_seed = 12
rack_aware = false

[[topics]]
name = "orders"
key = "order"
partitions = 7
replication_factor = 3
placement_seed = 13
partitioner = "librdkafka:consistent_random"

[[groups]]
name = "both"
strategy = "cooperative-sticky"
topics = ["clicks", "stock"]
members = [{ id = "m1", rack = "a" }, { id = "m2", rack = "b" }, { id = "m3" }]

[[groups]]
name = "all"
strategy = "range"
members = ["r1", "r2"]
"""


@pytest.fixture(scope="module")
def three() -> Topology:
    return parse_topology(THREE)


def _kraft(t: Topology) -> Topology:
    return dataclasses.replace(t, placer="kraft")


def test_admin_utils_places_each_topic_as_alone(three):
    c = resolve_cluster(three)
    assert [r.topic.name for r in c.topics] == ["clicks", "stock", "orders"]
    for r in c.topics:
        single = three.for_topic(r.topic.name)
        assert r.layout.replicas == replica_assignment(single)
        assert r.layout.assignments == ()
        expected = resolve_topology(single)
        assert r == dataclasses.replace(expected, layout=Layout(expected.layout.replicas, ()))
    assert c.leaders == tuple(tuple(rs[0] for rs in r.layout.replicas) for r in c.topics)


def test_key_partitioner_applies_to_every_topic(three):
    c = resolve_cluster(three, key_partitioner="spark:hash")
    assert {r.key_partitioner for r in c.topics} == {"spark:hash"}
    assert [r.partitioner.id for r in c.topics] == ["java:default", "java:default",
                                                    "librdkafka:consistent_random"]
    single = three.for_topic("orders")
    assert c.topics[2] == dataclasses.replace(
        resolve_topology(single, "spark:hash"),
        layout=Layout(replica_assignment(single), ()))


def test_a_single_topic_topology_resolves_to_one_topic():
    t = default_topology()
    c = resolve_cluster(t)
    (r,) = c.topics
    layout = layout_for(t)
    assert r.topology == t.for_topic("flights") and r.layout.replicas == layout.replicas
    assert c.leaders == (layout.leaders,)
    # its groups read the one topic: the same assignments as the single-topic layout
    assert c.assignments == layout.assignments
    assert c.owners("billing") == {("flights", p): m
                                   for p, m in layout.owners("billing").items()}


def _spec(c: ResolvedCluster, names: tuple[str, ...], members: tuple[Member, ...]) -> GroupSpec:
    rack_of = {b.id: b.rack for b in c.topology.brokers}
    topics = []
    for n in names:
        reps = c.topics[c.topic_index(n)].layout.replicas
        topics.append(Topic(n, len(reps), tuple(tuple(rack_of[b] for b in rs) for rs in reps)))
    return GroupSpec(tuple(topics), members)


def test_a_group_is_assigned_over_all_its_topics_at_once(three):
    c = resolve_cluster(three)
    names = ("clicks", "stock")
    members = (Member("m1", names, "a"), Member("m2", names, "b"), Member("m3", names))
    assert dict(c.assignments)["both"] == assign(_spec(c, names, members), "cooperative-sticky")
    owners = c.owners("both")
    assert sorted(owners) == [("clicks", p) for p in range(9)] + [("stock", p) for p in range(4)]
    # one group over both topics balances the 13 partitions (5/4/4), which one group per
    # topic would not guarantee
    counts = sorted(list(owners.values()).count(m) for m in ("m1", "m2", "m3"))
    assert counts == [4, 4, 5]
    # a group without topics reads every topic, range per topic
    every = ("clicks", "stock", "orders")
    members = (Member("r1", every), Member("r2", every))
    assert dict(c.assignments)["all"] == assign(_spec(c, every, members), "range")
    assert len(c.owners("all")) == 9 + 4 + 7
    with pytest.raises(KeyError):
        c.owners("nobody")


def test_topic_index(three):
    c = resolve_cluster(three)
    assert [c.topic_index(n) for n in ("orders", "clicks")] == [2, 0]
    with pytest.raises(KeyError):
        c.topic_index("rain")


def test_kraft_is_one_striped_placer_across_topics(three):
    t = _kraft(three)
    c = resolve_cluster(t)
    assert c == resolve_cluster(t)  # deterministic with a seed
    # the controller's placer: one Random (the first topic's seed), topic after topic
    placer = StripedReplicaPlacer(JavaRandom(11))
    cluster = StaticCluster(t.brokers)
    expected = [placer.place(PlacementSpec(9, 3), cluster).assignments,
                placer.place(PlacementSpec(4, 2), cluster.without_racks()).assignments,
                placer.place(PlacementSpec(7, 3), cluster).assignments]
    assert [r.layout.replicas for r in c.topics] == expected
    # the first topic is placed as it would be alone; the next ones continue the draws
    assert c.topics[0].layout.replicas == replica_assignment(t.for_topic("clicks"))
    assert c.topics[2].layout.replicas != replica_assignment(t.for_topic("orders"))
    assert c.topics[0].layout.replicas != resolve_cluster(three).topics[0].layout.replicas


def _check_valid(c: ResolvedCluster) -> None:
    t = c.topology
    rack_of = {b.id: b.rack for b in t.brokers}
    racks = len(t.racks) or 1
    for r, leaders in zip(c.topics, c.leaders, strict=True):
        assert len(r.layout.replicas) == r.topic.partitions
        for rs, leader in zip(r.layout.replicas, leaders, strict=True):
            assert len(rs) == r.topic.replication_factor == len(set(rs))
            assert set(rs) <= set(rack_of) and leader == rs[0]
            if t.racks and r.topic.rack_aware:  # replicas spread over the racks
                assert len({rack_of[b] for b in rs}) == min(len(rs), racks)


def test_kraft_placement_is_valid(three):
    c = resolve_cluster(_kraft(three))
    _check_valid(c)
    # striped: leaders of the 9 clicks partitions spread over the 5 brokers (at most 2 each)
    leaders = [rs[0] for rs in c.topics[0].layout.replicas]
    assert max(leaders.count(b) for b in set(leaders)) <= 2 and len(set(leaders)) == 5


@st.composite
def clusters(draw) -> Topology:
    n = draw(st.integers(1, 7))
    racked = draw(st.booleans())
    brokers = [{"id": i, **({"rack": "abc"[i % 3]} if racked else {})} for i in range(n)]
    count = draw(st.integers(1, 4))
    topics = [{"name": f"t{i}", "key": "k", "partitions": draw(st.integers(1, 12)),
               "replication_factor": draw(st.integers(1, n)),
               "placement_seed": draw(st.integers(0, 99)), "rack_aware": draw(st.booleans())}
              for i in range(count)]
    groups = [{"name": f"g{g}",
               "strategy": draw(st.sampled_from(["range", "roundrobin", "cooperative-sticky"])),
               "topics": [f"t{x}" for x in draw(st.lists(st.integers(0, count - 1), min_size=1,
                                                         unique=True))],
               "members": [f"m{j}" for j in range(draw(st.integers(1, 4)))]}
              for g in range(draw(st.integers(0, 2)))]
    return topology_from_dict({"placer": draw(st.sampled_from(["admin-utils", "kraft"])),
                               "cluster": {"brokers": brokers}, "topics": topics,
                               "groups": groups})


@given(clusters())
def test_every_resolution_is_valid(t):
    c = resolve_cluster(t)
    _check_valid(c)
    for g in t.groups:  # every subscribed partition owned by exactly one member
        owners = c.owners(g.name)
        assert sorted(owners) == sorted((n, p) for n in t.group_topics(g)
                                        for p in range(t.for_topic(n).topic.partitions))


# -- an existing cluster ----------------------------------------------------------------------------


def _model(rows: list[PartitionState], brokers=range(6)) -> ClusterModel:
    return ClusterModel.from_partitions([ClusterBroker(b) for b in brokers], rows)


def _flights_now(n: int = 12) -> list[PartitionState]:
    """flights as it is: replicas (p % 6, (p + 1) % 6, (p + 2) % 6), leader the second replica,
    partition 5 offline."""
    return [PartitionState("flights", p, (p % 6, (p + 1) % 6, (p + 2) % 6),
                           None if p == 5 else (p + 1) % 6) for p in range(n)]


def test_existing_topics_keep_their_replicas_and_leaders():
    t = demo_topology()
    other = PartitionState("unrelated", 0, (0,), 0)
    c = resolve_cluster(t, existing=_model([*_flights_now(), other]))
    flights = c.topics[0]
    assert flights.layout.replicas == tuple((p % 6, (p + 1) % 6, (p + 2) % 6) for p in range(12))
    assert c.leaders[0] == tuple(-1 if p == 5 else (p + 1) % 6 for p in range(12))
    alone = resolve_cluster(t)
    assert c.topics[1] == alone.topics[1] and c.leaders[1] == alone.leaders[1]  # placed
    ops = dict(c.assignments)["ops"]
    assert ops == assign(_spec(c, ("flights", "weather"),
                               tuple(Member(m.id, ("flights", "weather"), m.rack)
                                     for m in t.groups[0].members)), "cooperative-sticky")


def test_existing_topics_draw_nothing_from_the_kraft_placer():
    t = _kraft(demo_topology())
    c = resolve_cluster(t, existing=_model(_flights_now()))
    # weather is the first topic the controller places: the first draws of its Random
    expected = StripedReplicaPlacer(JavaRandom(t.topic.placement_seed)).place(
        PlacementSpec(3, 3), StaticCluster(t.brokers)).assignments
    assert c.topics[1].layout.replicas == expected


def test_existing_replication_factor_is_taken_as_it_is():
    rows = [PartitionState("weather", p, (p, (p + 1) % 6), p) for p in range(3)]
    c = resolve_cluster(demo_topology(), existing=_model(rows))
    assert c.topics[1].layout.replicas == ((0, 1), (1, 2), (2, 3))


def test_existing_partition_count_must_agree():
    with pytest.raises(ConfigError) as e:
        resolve_cluster(demo_topology(), existing=_model(_flights_now(16)))
    assert str(e.value) == ("topics[0] (flights).partitions: 12 in the topology, 16 in the "
                            "existing cluster (make them agree)")
    rows = [PartitionState("flights", 0, (0,))]
    with pytest.raises(ConfigError, match=r"^topic \(flights\)\.partitions: 12 in the topology, "
                                          r"1 in"):
        resolve_cluster(default_topology(), existing=_model(rows))


def test_existing_partitions_must_be_numbered_from_zero():
    rows = [PartitionState("weather", p, (0, 1, 2)) for p in (0, 1, 3)]
    with pytest.raises(ConfigError, match=r"^topics\[1\] \(weather\): partition 2 is missing "
                                          r"from the existing cluster"):
        resolve_cluster(demo_topology(), existing=_model(rows))


def test_existing_replicas_must_be_on_the_topologys_brokers():
    rows = [PartitionState("weather", p, (0, 1, 9 if p == 2 else 2)) for p in range(3)]
    with pytest.raises(ConfigError, match=r"^topics\[1\] \(weather\): partition 2 has a replica "
                                          r"on broker 9, which the topology's cluster\.brokers "
                                          r"does not list \(0, 1, 2, 3, 4, 5\)$"):
        resolve_cluster(demo_topology(), existing=_model(rows, brokers=(*range(6), 9)))


def test_the_demo_resolves():
    c = resolve_cluster(demo_topology())
    _check_valid(c)
    assert [len(r.layout.replicas) for r in c.topics] == [12, 3]
    assert c.topics[0].layout.replicas == layout_for(default_topology()).replicas  # same seed
    assert len(c.owners("ops")) == 15
    assert {t for t, _ in c.owners("delay-analytics")} == {"flights"}
    assert c.topics[1].null_keys.seed == 20241026  # weather: its placement seed


def test_existing_from_a_describe_dump():
    """The shipped ``--describe`` example (orders 3×3, clicks 2×2 on brokers 1-4), loaded by
    kpart.cluster's own loader; a third topic the dump lacks is placed."""
    from pathlib import Path

    from kpart.cluster.from_files import cluster_from_files

    dump = (Path(__file__).resolve().parents[2] / "docs" / "examples"
            / "cluster.describe.txt").read_text(encoding="utf-8")
    t = topology_from_dict({
        "cluster": {"brokers": [1, 2, 3, 4]},
        "topics": [{"name": "clicks", "key": "u", "partitions": 2, "replication_factor": 2},
                   {"name": "stock", "key": "s", "partitions": 4, "replication_factor": 2,
                    "placement_seed": 3},
                   {"name": "orders", "key": "o", "partitions": 3, "replication_factor": 3}],
        "groups": [{"name": "g", "strategy": "range", "members": ["a", "b"]}]})
    c = resolve_cluster(t, existing=cluster_from_files(dump))
    assert c.topics[0].layout.replicas == ((4, 1), (1, 2)) and c.leaders[0] == (4, 1)
    assert c.topics[2].layout.replicas == ((1, 2, 3), (2, 3, 4), (3, 4, 1))
    assert c.leaders[2] == (1, 2, 3)
    assert c.topics[1].layout.replicas == replica_assignment(t.for_topic("stock"))
    assert len(c.owners("g")) == 2 + 4 + 3
