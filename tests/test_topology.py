"""The topology file: the default is realistic, loading validates and names the bad field."""

from __future__ import annotations

import tomllib

import pytest

from kpart.errors import ConfigError
from kpart.placement.spec import Broker
from kpart.topology import (
    DEFAULT_TOPOLOGY_TEXT,
    NULL_KEY_STRATEGIES,
    default_topology,
    load_topology,
    parse_topology,
    topology_from_dict,
)


def _doc() -> dict:
    return tomllib.loads(DEFAULT_TOPOLOGY_TEXT)


def test_default_topology_is_realistic():
    t = default_topology()
    assert t.topic.partitions == 12 and t.topic.replication_factor == 3
    assert len(t.brokers) == 6 and len(t.racks) == 3
    assert all(b.rack is not None for b in t.brokers)
    assert t.topic.key == "tailnum" and t.topic.key_serializer == "string"
    assert t.topic.partitioner == "java:default" and t.topic.null_key_strategy == "client"
    assert isinstance(t.topic.placement_seed, int) and isinstance(t.topic.null_key_seed, int)
    assert t.topic.batch_size == 16384
    assert len(t.groups) >= 2 and len({g.strategy for g in t.groups}) >= 2


def test_round_trip_through_toml(tmp_path):
    t = default_topology()
    assert parse_topology(t.to_toml()) == t
    path = tmp_path / "t.toml"
    path.write_text(t.to_toml())
    assert load_topology(path) == t


def test_optional_fields_have_defaults():
    t = parse_topology("""
        [cluster]
        brokers = [0, 1, 2]
        [topic]
        name = "orders"
        partitions = 3
        replication_factor = 2
        key = "user_id"
        [[groups]]
        name = "g"
        strategy = "roundrobin"
        members = ["c1", { id = "c2", instance_id = "i2" }]
    """)
    assert t.brokers == (Broker(0), Broker(1), Broker(2)) and t.racks == ()
    assert t.topic.key_serializer == "string" and t.topic.placement_seed is None
    assert t.topic.rack_aware is True
    assert t.topic.partitioner == "java:default" and t.topic.null_key_strategy == "client"
    assert t.topic.null_key_seed is None and t.topic.batch_size == 16384
    assert [m.id for m in t.groups[0].members] == ["c1", "c2"]
    assert t.groups[0].members[1].instance_id == "i2"


def test_with_topic_revalidates():
    t = default_topology()
    assert t.with_topic(key="dest").topic.key == "dest"
    # an error about a replaced field names the parameter (with_topic's), not the TOML path
    with pytest.raises(ConfigError, match=r"^partitions: expected a positive integer, got 0$") as e:
        t.with_topic(partitions=0)
    assert e.value.parameter == "partitions"
    with pytest.raises(ConfigError, match=r"^topic\.partitions: expected a positive integer"):
        topology_from_dict({**_doc(), "topic": {**_doc()["topic"], "partitions": 0}})


def _set(path: str, value):
    doc = _doc()
    node = doc
    parts = path.split(".")
    for p in parts[:-1]:
        node = node[int(p)] if p.isdigit() else node[p]
    last = parts[-1]
    if value is KeyError:
        del node[last]
    else:
        node[int(last) if last.isdigit() else last] = value
    return doc


BAD = [
    ("topic.partitions", -3, "topic.partitions: expected a positive integer, got -3"),
    ("topic.partitions", "12", "topic.partitions: expected a positive integer, got '12'"),
    ("topic.replication_factor", 7, "topic.replication_factor: 7 is larger than the number of brokers (6)"),
    ("topic.replication_factor", True, "topic.replication_factor: expected a positive integer, got True"),
    ("topic.name", "bad name!", "topic.name: 'bad name!' is not a legal Kafka topic name"),
    ("topic.key", KeyError, "topic.key: expected a non-empty string, got None"),
    ("topic.key_serializer", "float", "topic.key_serializer: unknown value 'float'"),
    ("topic.partitioner", "java:nope", "topic.partitioner: unknown value 'java:nope'"),
    ("topic.null_key_strategy", "drop", "topic.null_key_strategy: unknown value 'drop'"),
    ("topic.null_key_strategy", "Sticky", "topic.null_key_strategy: unknown value 'Sticky'"),
    ("topic.null_key_strategy", 3, "topic.null_key_strategy: expected a non-empty string, got 3"),
    ("topic.partitioner", "sarama:Hash", "topic.partitioner: unknown value 'sarama:Hash'"),
    ("topic.partitioner", "spark:hash", "topic.partitioner: unknown value 'spark:hash'"),
    ("topic.null_key_seed", 2**63, "topic.null_key_seed: expected a 64-bit integer, got 9223"),
    ("topic.null_key_seed", "7", "topic.null_key_seed: expected a 64-bit integer, got '7'"),
    ("topic.batch_size", 0, "topic.batch_size: expected a positive integer, got 0"),
    ("topic.batch_size", 1.5, "topic.batch_size: expected a positive integer, got 1.5"),
    ("topic.placement_seed", 2**63, "topic.placement_seed: expected a 64-bit integer"),
    ("topic.rack_aware", "yes", "topic.rack_aware: expected true or false, got 'yes'"),
    ("topic.partitions_count", 3, "topic.partitions_count: unknown field"),
    ("cluster.brokers", [], "cluster.brokers: expected a non-empty list of brokers"),
    ("cluster.brokers.2.id", 0, "cluster.brokers[2].id: broker id 0 is listed twice"),
    ("cluster.brokers.1.id", -1, "cluster.brokers[1].id: expected an integer >= 0, got -1"),
    ("cluster.brokers.3", {"id": 3}, "cluster.brokers[3].rack: missing while other brokers have one"),
    ("groups.0.strategy", "sticky-ish", "groups[0].strategy: unknown value 'sticky-ish'"),
    ("groups.1.members", [], "groups[1].members: expected a non-empty list"),
    ("groups.1.members.1.id", "billing-1", "groups[1].members[1].id: member 'billing-1' is listed twice"),
    ("groups.1.name", "delay-analytics", "groups[1].name: group 'delay-analytics' is listed twice"),
    ("groups.0.members.0.rack", 3, "groups[0].members[0].rack: expected a non-empty string, got 3"),
    ("groups", "analytics", "groups: expected [[groups]] tables, got 'analytics'"),
    ("topic", KeyError, "topic: missing section"),
]


@pytest.mark.parametrize(("path", "value", "message"), BAD, ids=[f"{p}={v!r}" for p, v, _ in BAD])
def test_bad_field_is_named(path, value, message):
    with pytest.raises(ConfigError) as e:
        topology_from_dict(_set(path, value))
    assert str(e.value).startswith(message)


def test_load_errors_name_the_file(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(DEFAULT_TOPOLOGY_TEXT.replace("partitions = 12", "partitions = 0"))
    with pytest.raises(ConfigError, match=r"bad\.toml: topic\.partitions: .* got 0"):
        load_topology(path)
    path.write_text("[topic\n")
    with pytest.raises(ConfigError, match="invalid TOML"):
        load_topology(path)
    with pytest.raises(ConfigError, match="missing.toml"):
        load_topology(tmp_path / "missing.toml")


@pytest.mark.parametrize("strategy", NULL_KEY_STRATEGIES)
@pytest.mark.parametrize("partitioner", ["librdkafka:consistent_random", "sarama:hash",
                                         "kafkajs:default", "java:default"])
def test_every_partitioner_and_null_key_strategy_loads(partitioner, strategy):
    t = default_topology().with_topic(partitioner=partitioner, null_key_strategy=strategy,
                                      null_key_seed=-5, batch_size=1000)
    assert (t.topic.partitioner, t.topic.null_key_strategy) == (partitioner, strategy)
    assert parse_topology(t.to_toml()) == t


def test_null_key_seed_defaults_to_placement_seed():
    t = default_topology()
    assert t.topic.effective_null_key_seed == t.topic.null_key_seed
    doc = _set("topic.null_key_seed", KeyError)
    t2 = topology_from_dict(doc)
    assert t2.topic.null_key_seed is None
    assert t2.topic.effective_null_key_seed == t2.topic.placement_seed


def test_a_topology_without_groups_is_valid():
    """No ``[[groups]]``: the producer and broker view only (kpart report on one's own data)."""
    doc = _doc()
    del doc["groups"]
    t = topology_from_dict(doc)
    assert t.groups == () and t.topic == default_topology().topic
    assert parse_topology(t.to_toml()) == t
    assert topology_from_dict({**doc, "groups": []}) == t
