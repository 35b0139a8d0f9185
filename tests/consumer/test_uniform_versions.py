"""The KIP-848 uniform assignor by the brokers' Kafka version: KAFKA-18688 (PR #19677, in 4.0.1
and 4.1.0+) gives the extra partitions of a homogeneous group to the last members in iteration
order, and lets a member that already fills an extra slot keep it; up to 4.0.0 the first members
take them. The golden files of both versions are in ``test_consumer_server_golden.py``."""

from __future__ import annotations

import random

import pytest

from kpart._java.uuid import uuid_to_string
from kpart.consumer import get_strategy, server_assign, server_target
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.coordinator import _spec_arrays
from kpart.consumer.coordinator.server_simulation import simulate_server_group
from kpart.consumer.coordinator.server_spec import ServerGroupSpec
from kpart.consumer.coordinator.uniform_assignor import uniform_columns, uniform_target
from kpart.errors import ConfigError

T0 = "AAAAAAAAAAAAAAAAAAAAAg"


def _group(partitions: int, members: list[tuple[str, list[int]]]) -> ServerGroupSpec:
    return ServerGroupSpec.from_json({
        "topics": [{"name": "t", "id": T0, "partitions": partitions}],
        "members": [{"id": m, "topics": ["t"], "assignment": [["t", ps]] if ps else []}
                    for m, ps in members],
    })


def test_fresh_group_extra_partition_goes_to_the_last_member_from_4_0_1():
    g = _group(3, [("m1", []), ("m2", [])])
    assert [m.member_id for m in g.members_in_map_order()] == ["m1", "m2"]
    new = {"m1": {"t": [0]}, "m2": {"t": [1, 2]}}
    old = {"m1": {"t": [0, 1]}, "m2": {"t": [2]}}
    for v in ("4.0.1", "4.1", "4.2.1", "4.3", "4.3.1"):
        assert server_assign(g, kafka_version=v).as_dict() == new, v
    assert server_assign(g).as_dict() == new  # default: the newest release
    assert server_assign(g, kafka_version="4.0.0").as_dict() == old


def test_pr_19677_reassignment_stickiness_when_already_balanced():
    """``testReassignmentStickinessWhenAlreadyBalanced``: 5 partitions, A = {0, 3}, B = {1},
    C = {2, 4}. From 4.0.1 nothing moves; 4.0.0 moves partition 4 from C to B (A and B, the
    first members, get the extra slots)."""
    g = _group(5, [("A", [0, 3]), ("B", [1]), ("C", [2, 4])])
    assert server_assign(g, kafka_version="4.3").as_dict() == {
        "A": {"t": [0, 3]}, "B": {"t": [1]}, "C": {"t": [2, 4]}}
    assert server_assign(g, kafka_version="4.0.0").as_dict() == {
        "A": {"t": [0, 3]}, "B": {"t": [1, 4]}, "C": {"t": [2]}}


def test_the_last_members_must_take_the_extra_slots_nobody_fills():
    # 7 partitions over 3 members: one extra slot; nobody holds anything: the last member.
    g = _group(7, [("A", []), ("B", []), ("C", [])])
    assert server_assign(g, kafka_version="4.3").as_dict() == {
        "A": {"t": [0, 1]}, "B": {"t": [2, 3]}, "C": {"t": [4, 5, 6]}}
    # A fills an extra slot (3 partitions): it keeps it, and nobody else gets one.
    g = _group(7, [("A", [0, 1, 2]), ("B", [3]), ("C", [])])
    assert server_assign(g, kafka_version="4.3").as_dict() == {
        "A": {"t": [0, 1, 2]}, "B": {"t": [3, 4]}, "C": {"t": [5, 6]}}


def test_versions_without_a_known_uniform_assignor_are_errors():
    g = _group(3, [("m1", []), ("m2", [])])
    with pytest.raises(ConfigError, match=r"^The KIP-848 uniform assignor does not exist in "
                       r"kafka_version '3\.6': "):
        server_assign(g, kafka_version="3.6")
    with pytest.raises(ConfigError, match=r"^kafka_version '4\.0' is ambiguous"):
        server_assign(g, kafka_version="4.0")
    with pytest.raises(ConfigError, match=r"^The KIP-848 uniform assignor is not known to kpart"
                       r" for kafka_version '3\.8'"):
        uniform_target(g, kafka_version="3.8")
    with pytest.raises(ConfigError, match=r"^Invalid kafka_version '4\.x'"):
        server_target(g, "uniform", kafka_version="4.x")
    with pytest.raises(ConfigError, match=r"^The KIP-848 range assignor does not exist"):
        server_assign(g, "range", kafka_version="2.8.2")


def test_strategy_at_version_and_the_simulation():
    g = _group(3, [("m1", []), ("m2", [])])
    strategy = get_strategy("uniform").at_version("4.0.0")
    assert str(strategy.kafka_version) == "4.0.0"
    assert server_assign(g, strategy).as_dict() == {"m1": {"t": [0, 1]}, "m2": {"t": [2]}}
    rounds = simulate_server_group([g, g], "uniform", kafka_version="4.0.0")
    assert rounds[1].assignment.as_dict() == {"m1": {"t": [0, 1]}, "m2": {"t": [2]}}
    rounds = simulate_server_group([g, g], "uniform")
    assert rounds[1].assignment.as_dict() == {"m1": {"t": [0]}, "m2": {"t": [1, 2]}}


def _many_topics(n_topics: int, n_members: int, seed: int) -> ServerGroupSpec:
    rng = random.Random(seed)
    topics = [{"name": f"t{i}.{rng.randrange(10**6)}",
               "id": uuid_to_string(rng.getrandbits(128)), "partitions": rng.randrange(1, 9)}
              for i in range(n_topics)]
    names = [t["name"] for t in topics]
    members = []
    owned = {(t["name"], p) for t in topics for p in range(t["partitions"]) if rng.random() < 0.5}
    pool = sorted(owned)
    rng.shuffle(pool)
    for k in range(n_members):
        mine = pool[k::n_members]
        by_topic: dict[str, list[int]] = {}
        for t, p in mine:
            by_topic.setdefault(t, []).append(p)
        members.append({"id": f"member-{k}", "topics": names,
                        "assignment": [[t, ps] for t, ps in by_topic.items()]})
    return ServerGroupSpec.from_json({"topics": topics, "members": members})


@pytest.mark.parametrize("n_topics", [11, 12, 24, 48, 49, 96, 192])
@pytest.mark.parametrize("version", ["4.0.0", "4.3"])
def test_array_path_equals_the_object_path_by_version(monkeypatch, n_topics, version):
    """Both Kafka versions' homogeneous builders, including the member's subscribed-name set
    sized as ``new HashSet<>(list)`` (4.3) on groups of 12, 24, 48, ... topics."""
    for seed in range(4):
        spec = _many_topics(n_topics, 1 + seed * 3, seed)
        assert spec.subscription_type == "HOMOGENEOUS"
        want = spec.to_group_assignment(uniform_target(spec, kafka_version=version))
        monkeypatch.setattr(_spec_arrays, "ARRAY_THRESHOLD", 0)
        columns = uniform_columns(spec, version)
        assert columns is not None
        assert GroupAssignment.from_columns(columns) == want, (n_topics, seed)
        monkeypatch.undo()
