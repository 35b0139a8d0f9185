"""Range and RoundRobin beyond the vectors: seed 003's examples, Kafka's member ordering
(static members, UTF-16 string order), the KIP-881 rack rules, and the dispatch registry."""

from __future__ import annotations

import pytest

from kpart.consumer import ASSIGNORS, CONSUMER, COOPERATIVE, EAGER, assign, get_strategy
from kpart.consumer.spec import GroupSpec
from kpart.errors import ConfigError


def group(topics: dict, members: list, racks: dict | None = None) -> GroupSpec:
    doc = {"topics": topics, "members": members}
    if racks:
        doc["partition_racks"] = racks
    return GroupSpec.from_json(doc)


TWO_BY_THREE = group(
    {"t0": 3, "t1": 3},
    [{"id": "C0", "topics": ["t0", "t1"]}, {"id": "C1", "topics": ["t0", "t1"]}],
)
UNEVEN = [
    {"id": "C0", "topics": ["t0"]},
    {"id": "C1", "topics": ["t0", "t1"]},
    {"id": "C2", "topics": ["t0", "t1", "t2"]},
]


def test_seed_range_two_consumers() -> None:
    # Seed 003: C0: t0p0, t0p1, t1p0, t1p1; C1: t0p2, t1p2.
    assert assign(TWO_BY_THREE, "range").as_dict() == {
        "C0": {"t0": [0, 1], "t1": [0, 1]},
        "C1": {"t0": [2], "t1": [2]},
    }


def test_seed_roundrobin_two_consumers() -> None:
    # Seed 003: C0: t0p0, t0p2, t1p1; C1: t0p1, t1p0, t1p2.
    assert assign(TWO_BY_THREE, "roundrobin").as_dict() == {
        "C0": {"t0": [0, 2], "t1": [1]},
        "C1": {"t0": [1], "t1": [0, 2]},
    }


def test_seed_roundrobin_uneven_then_c0_leaves() -> None:
    topics = {"t0": 1, "t1": 2, "t2": 3}
    assert assign(group(topics, UNEVEN), "roundrobin").as_dict() == {
        "C0": {"t0": [0]},
        "C1": {"t1": [0]},
        "C2": {"t1": [1], "t2": [0, 1, 2]},
    }
    assert assign(group(topics, UNEVEN[1:]), "roundrobin").as_dict() == {
        "C1": {"t0": [0], "t1": [1]},
        "C2": {"t1": [0], "t2": [0, 1, 2]},
    }


@pytest.mark.parametrize("strategy", ["range", "roundrobin"])
def test_static_members_sort_first_by_instance_id(strategy: str) -> None:
    # "z" is static (instance "i0") so it precedes the dynamic "a": it gets partition 0.
    g = group(
        {"t": 2}, [{"id": "a", "topics": ["t"]}, {"id": "z", "topics": ["t"], "instance_id": "i0"}]
    )
    assert assign(g, strategy).as_dict() == {"a": {"t": [1]}, "z": {"t": [0]}}
    # Two static members: ordered by instance id, not member id.
    g = group(
        {"t": 2},
        [
            {"id": "a", "topics": ["t"], "instance_id": "i9"},
            {"id": "z", "topics": ["t"], "instance_id": "i1"},
        ],
    )
    assert assign(g, strategy).as_dict() == {"a": {"t": [1]}, "z": {"t": [0]}}


@pytest.mark.parametrize("strategy", ["range", "roundrobin"])
def test_member_ids_sort_by_utf16_code_units(strategy: str) -> None:
    # Java: "a\U0001F600" (surrogate 0xD83D) < "a\uFFFD"; Python's code point order says the
    # opposite. Kafka gives partition 0 to the emoji id.
    emoji, repl = "a\U0001f600", "a\ufffd"
    g = group({"t": 2}, [{"id": repl, "topics": ["t"]}, {"id": emoji, "topics": ["t"]}])
    assert assign(g, strategy).as_dict() == {repl: {"t": [1]}, emoji: {"t": [0]}}


def test_roundrobin_topics_sort_by_utf16_code_units() -> None:
    # One member, two topics of one partition each, a second member: the first topic in Java
    # order goes to C0, the next to C1.
    emoji, repl = "t\U0001f600", "t\ufffd"
    g = group(
        {repl: 1, emoji: 1},
        [{"id": "C0", "topics": [emoji, repl]}, {"id": "C1", "topics": [emoji, repl]}],
    )
    assert assign(g, "roundrobin").as_dict() == {"C0": {emoji: [0]}, "C1": {repl: [0]}}


def test_range_rack_aware_co_partitioned_topics() -> None:
    # Partition 0 of both topics lives on rack "a", partition 1 on rack "b". C0 is on rack b,
    # C1 on rack a: rack matching gives each member the partitions of its own rack, the same
    # partition number in both topics (co-partitioning). Without racks C0 would get p0.
    racks = {"t0": [["a"], ["b"]], "t1": [["a"], ["b"]]}
    members = [
        {"id": "C0", "topics": ["t0", "t1"], "rack": "b"},
        {"id": "C1", "topics": ["t0", "t1"], "rack": "a"},
    ]
    assert assign(group({"t0": 2, "t1": 2}, members, racks)).as_dict() == {
        "C0": {"t0": [1], "t1": [1]},
        "C1": {"t0": [0], "t1": [0]},
    }
    no_racks = [{k: v for k, v in m.items() if k != "rack"} for m in members]
    assert assign(group({"t0": 2, "t1": 2}, no_racks, racks)).as_dict()["C0"] == {
        "t0": [0],
        "t1": [0],
    }


def test_range_rack_aware_single_topic_then_plain_ranges() -> None:
    # p0 is on rack "b", p1..p3 on rack "a"; C0 is on "a", C1 on "b". Rack matching first:
    # C0 takes its quota (2) from its rack (p1, p2), C1 takes p0; the plain range pass then
    # fills C1's quota with the leftover p3 (locality is best effort, balance is kept).
    racks = {"t": [["b"], ["a"], ["a"], ["a"]]}
    members = [
        {"id": "C0", "topics": ["t"], "rack": "a"},
        {"id": "C1", "topics": ["t"], "rack": "b"},
    ]
    assert assign(group({"t": 4}, members, racks)).as_dict() == {
        "C0": {"t": [1, 2]},
        "C1": {"t": [0, 3]},
    }
    # When every partition has replicas on every rack, rack awareness is off: plain ranges.
    full = {"t": [["a", "b"]] * 4}
    assert assign(group({"t": 4}, members, full)).as_dict() == {
        "C0": {"t": [0, 1]},
        "C1": {"t": [2, 3]},
    }


def test_topics_missing_or_empty_are_skipped() -> None:
    g = group(
        {"t": 0, "u": 1},
        [{"id": "C0", "topics": ["missing", "t", "u"]}, {"id": "C1", "topics": []}],
    )
    for strategy in ("range", "roundrobin"):
        assert assign(g, strategy).to_json() == {"assignment": {"C0": {"u": [0]}, "C1": {}}}


def test_registry() -> None:
    assert get_strategy("range").protocol == EAGER
    assert {"range", "roundrobin"} <= set(ASSIGNORS)
    assert all(s.protocol in (EAGER, COOPERATIVE, CONSUMER) for s in ASSIGNORS.values())
    assert {n for n, s in ASSIGNORS.items() if s.protocol == CONSUMER} == {"uniform", "server-range"}
    with pytest.raises(ConfigError, match="'bogus'"):
        assign(TWO_BY_THREE, "bogus")
