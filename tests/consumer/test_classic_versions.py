"""The classic client assignors by the consumers' Kafka version (issue 25): rules
``classic_range``, ``classic_round_robin``, ``cooperative_sticky``, ``classic_sticky`` and
``default_assignment_strategy`` of :mod:`kpart.versions`, threaded through ``assign``,
``Strategy.at_version`` and the rebalance simulator, on the object and the array paths."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kpart.consumer import assign, default_strategy, get_strategy
from kpart.consumer.classic.range_assignor import assign_range
from kpart.consumer.classic.round_robin_assignor import assign_round_robin
from kpart.consumer.rebalance import simulate
from kpart.consumer.spec import GroupSpec
from kpart.errors import ConfigError
from kpart.versions import behaviour


def _group(topics: dict[str, int], members: list[dict], racks: dict | None = None) -> GroupSpec:
    doc: dict = {"topics": topics, "members": members}
    if racks:
        doc["partition_racks"] = racks
    return GroupSpec.from_json(doc)


def _without(group: GroupSpec, *, racks: bool = False, instance_ids: bool = False) -> GroupSpec:
    return group.with_members(
        replace(m, rack=None if racks else m.rack,
                group_instance_id=None if instance_ids else m.group_instance_id)
        for m in group.members)


STATIC = _group({"t": 3}, [{"id": "a", "topics": ["t"]},
                           {"id": "b", "topics": ["t"], "instance_id": "i"}])


@pytest.mark.parametrize(("version", "a_first"), [
    ("0.10.1.0", True), ("2.3.1", True), ("2.3", True), ("2.4.0", False), ("2.8.2", False),
    ("4.3", False), (None, False),
])
def test_static_members_come_first_from_2_4_0(version, a_first):
    for run in (assign_range, assign_round_robin):
        got = run(STATIC, kafka_version=version).as_dict()
        assert (0 in got["a"]["t"]) is a_first, (run.__name__, version, got)


def _rack_group(partitions: int) -> GroupSpec:
    """One topic whose partitions alternate between racks x and y; member c0 on y, c1 on x."""
    racks = {"t": [["x"] if p % 2 == 0 else ["y"] for p in range(partitions)]}
    return _group({"t": partitions}, [{"id": "c0", "topics": ["t"], "rack": "y"},
                                      {"id": "c1", "topics": ["t"], "rack": "x"}], racks)


@pytest.mark.parametrize("partitions", [8, 4096])  # the object path and the array path
def test_range_ignores_racks_before_kip881(partitions):
    g = _rack_group(partitions)
    half = partitions // 2
    plain = {"c0": {"t": list(range(half))}, "c1": {"t": list(range(half, partitions))}}
    for version in ("2.4.1", "3.0", "3.4.1"):
        assert assign_range(g, kafka_version=version).as_dict() == plain
    racked = {"c0": {"t": list(range(1, partitions, 2))}, "c1": {"t": list(range(0, partitions, 2))}}
    for version in ("3.5.0", "3.9.0", None):
        assert assign_range(g, kafka_version=version).as_dict() == racked


def _large_static_group() -> GroupSpec:
    """3 topics x 1,000 partitions, 40 members, every third one static with instance ids in the
    reverse order of the member ids, racks r0..r3 on members and replicas."""
    members = [{"id": f"m{i:02d}", "topics": ["t0", "t1", "t2"], "rack": f"r{i % 4}",
                **({"instance_id": f"i{99 - i:02d}"} if i % 3 == 0 else {})} for i in range(40)]
    racks = {f"t{k}": [[f"r{p % 4}", f"r{(p + 1) % 4}"] for p in range(1000)]
             for k in range(3)}
    return _group({"t0": 1000, "t1": 1000, "t2": 1000}, members, racks)


def test_the_array_path_follows_the_version_too():
    """3,000 partitions (the array path): each version's answer is the newest answer on the group
    as that version's client reads it (no racks before 3.5.0, no instance ids before 2.4.0)."""
    g = _large_static_group()
    newest = assign_range(g)
    assert assign_range(g, kafka_version="3.5.0") == newest
    assert assign_range(g, kafka_version="3.4.1") == assign_range(_without(g, racks=True))
    assert assign_range(g, kafka_version="3.4.1") != newest
    old = assign_range(g, kafka_version="2.3.1")
    assert old == assign_range(_without(g, racks=True, instance_ids=True))
    assert old != assign_range(g, kafka_version="2.4.0")
    rr_old = assign_round_robin(g, kafka_version="2.3.1")
    assert rr_old == assign_round_robin(_without(g, instance_ids=True))
    assert rr_old != assign_round_robin(g, kafka_version="2.4.0")
    assert assign_round_robin(g, kafka_version="2.4.0") == assign_round_robin(g)


def test_strategies_bound_to_a_version_run_at_it():
    rng = get_strategy("range").at_version("2.3")
    assert rng.kafka_version == "2.3"
    assert assign(STATIC, rng).as_dict() == {"a": {"t": [0, 1]}, "b": {"t": [2]}}
    assert assign(STATIC, "range").as_dict() == {"a": {"t": [2]}, "b": {"t": [0, 1]}}
    # the simulator runs the bound strategy (round 0 of step 0 is the assignor's answer)
    sim = simulate([STATIC], get_strategy("roundrobin").at_version("2.3"))
    assert sim.steps[0].assignment.as_dict() == {"a": {"t": [0, 2]}, "b": {"t": [1]}}
    # the sticky strategies take the version through their ordered variant too
    assert simulate([STATIC], get_strategy("sticky").at_version("4.0.0")).steps[0].assignment


@pytest.mark.parametrize(("strategy", "version", "says"), [
    ("cooperative-sticky", "2.3", "The cooperative-sticky assignor does not exist in "
     "kafka_version '2.3'"),
    ("cooperative-sticky", "0.10.2", "does not exist in kafka_version '0.10.2'"),
    ("sticky", "0.11.0.0", "kafka_version '0.11.0.0'"),
    ("range", "0.10.0.1", "The range assignor is not known to kpart for kafka_version "
     "'0.10.0.1': kpart supports it for 0.10.1.0 to 4.3.1"),
    ("roundrobin", "0.10.0", "The roundrobin assignor is not known to kpart"),
    ("range", "5.0", "Unknown kafka_version '5.0'"),
    ("roundrobin", "2.x", "Invalid kafka_version '2.x'"),
])
def test_a_version_without_the_assignor_is_one_error(strategy, version, says):
    with pytest.raises(ConfigError) as e:
        assign(STATIC, strategy, kafka_version=version)
    assert says in str(e.value) and "\n" not in str(e.value)


def test_the_default_strategy_by_client_version():
    assert behaviour("default_assignment_strategy", "2.8.2") == "range"
    assert behaviour("default_assignment_strategy", "3.0.0") == "range,cooperative-sticky"
    assert [default_strategy(v) for v in ("0.10.0.0", "2.8", "3.0.0", None)] == ["range"] * 4
    with pytest.raises(ConfigError, match="'4.9'"):
        default_strategy("4.9")
    # assign() without a strategy runs the default one, at the given client version
    assert assign(STATIC, kafka_version="2.3").as_dict() == {"a": {"t": [0, 1]}, "b": {"t": [2]}}
    assert assign(STATIC).as_dict() == {"a": {"t": [2]}, "b": {"t": [0, 1]}}
