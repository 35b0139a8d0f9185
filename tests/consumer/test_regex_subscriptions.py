"""Regex subscriptions in KIP-848 groups (KAFKA-17593): resolution, subscription type by
version, and the assignments that follow (hand-checked cases)."""

from __future__ import annotations

import pytest

from kpart.consumer import server_assign
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.coordinator import _spec_arrays
from kpart.consumer.coordinator._uniform_heterogeneous import build_heterogeneous
from kpart.consumer.coordinator.server_range_assignor import range_target
from kpart.consumer.coordinator.server_spec import ServerGroupSpec
from kpart.consumer.coordinator.subscription_type import subscription_type, subscription_type_at
from kpart.consumer.coordinator.uniform_assignor import uniform_columns, uniform_target
from kpart.errors import ConfigError, KpartWarning

TOPICS = [{"name": "orders-1", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 3},
          {"name": "orders-2", "id": "AAAAAAAAAAAAAAAAAAAAAw", "partitions": 2},
          {"name": "payments", "id": "AAAAAAAAAAAAAAAAAAAABA", "partitions": 2}]
REGEX = {"subscribed_topic_regex": "orders-.*"}
NAMES = {"topics": ["orders-1", "orders-2"]}


def group(*subs: dict, topics: list[dict] = TOPICS) -> ServerGroupSpec:
    return ServerGroupSpec.from_json(
        {"topics": topics, "members": [{"id": f"m{i + 1}", **s} for i, s in enumerate(subs)]})


def test_same_regex_is_homogeneous_and_assigns_as_names() -> None:
    g = group(REGEX, REGEX)
    assert g.resolved_topics("orders-.*") == ("orders-1", "orders-2")  # full match only
    assert g.subscription_type == "HOMOGENEOUS"
    by_names = group(NAMES, NAMES)
    # 5 partitions over 2 members, topics walked orders-1 then orders-2: from 4.0.1 the last
    # member takes the extra partition, in 4.0.0 the first (KAFKA-18688).
    want = {"m1": {"orders-1": [0, 1]}, "m2": {"orders-1": [2], "orders-2": [0, 1]}}
    assert server_assign(g).as_dict() == server_assign(by_names).as_dict() == want
    assert server_assign(g, kafka_version="4.0.0").as_dict() == {
        "m1": {"orders-1": [0, 1, 2]}, "m2": {"orders-2": [0, 1]}}


@pytest.mark.parametrize("version", ["4.0.0", "4.3"])
def test_regex_and_names_with_the_same_topics_is_heterogeneous(version: str) -> None:
    g = group(REGEX, NAMES)
    assert g.subscribed_names(g.members[0]) == g.subscribed_names(g.members[1])
    assert g.subscription_type == g.subscription_type_at(version) == "HETEROGENEOUS"
    # the balancing builder, not the homogeneous one (which would give m1 orders-1 [0, 1])
    got = server_assign(g, kafka_version=version).as_dict()
    assert got == g.to_group_assignment(build_heterogeneous(g)).as_dict()
    assert got == {"m1": {"orders-1": [0, 2]}, "m2": {"orders-1": [1], "orders-2": [0, 1]}}
    # the names-only group of the same topics is homogeneous
    assert group(NAMES, NAMES).subscription_type == "HOMOGENEOUS"


def test_the_rule_of_pr_18020() -> None:
    r, n = ((), "orders-.*"), (("orders-1", "orders-2"), None)
    assert subscription_type([r, r]) == "HOMOGENEOUS"
    assert subscription_type([r, n]) == "HETEROGENEOUS"
    assert subscription_type([r, ((), "o.*")]) == "HETEROGENEOUS"  # two regexes
    both = (("orders-1",), "orders-.*")
    assert subscription_type([both, both]) == "HETEROGENEOUS"  # names too, even the same
    assert subscription_type([n, n]) == "HOMOGENEOUS"
    assert subscription_type([((), None), ((), None)]) == "HOMOGENEOUS"
    assert subscription_type([((), "x"), ((), "x")]) == "HOMOGENEOUS"  # resolving to nothing


def test_version_rules() -> None:
    g = group(REGEX, REGEX)
    assert g.subscription_type_at("4.0.0") == "HOMOGENEOUS"
    for version in ("3.9.0", "3.7.1"):
        with pytest.raises(ConfigError, match=f"does not exist in kafka_version '{version}'"):
            g.subscription_type_at(version)
        with pytest.raises(ConfigError, match=f"kafka_version '{version}'"):
            server_assign(g, kafka_version=version)
    # names only: 3.7-3.9 counted names the same way (the rule is known there)
    assert subscription_type_at([(("t",), None)], "3.8.1") == "HOMOGENEOUS"
    named = group({"subscribed_topic_regex": "(?<k>orders)-.*"}, REGEX)
    with pytest.raises(ConfigError, match=r"RE2/J 1\.7 \(Kafka 4\.0\.x\) refuses"):
        server_assign(named, kafka_version="4.0.1")
    with pytest.raises(ConfigError, match=r"RE2/J 1\.7"):
        server_assign(named, "range", kafka_version="4.0.0")
    assert server_assign(named, kafka_version="4.1.0").as_dict()["m1"]


def test_empty_regex_is_none_and_names_plus_regex_iterate_as_a_union_set() -> None:
    assert group({"subscribed_topic_regex": "", **NAMES}).members[0].topic_regex is None
    g = group({"topics": ["payments", "gone"], **REGEX})
    m = g.members[0]
    # UnionSet: the larger set first (the regex's two topics vs the two names: a tie goes to
    # the regex), then the names it lacks; the size counts the name missing from the metadata.
    # Each a HashSet<String> of 16 buckets: orders-2 in bucket 8, orders-1 in 11 (String
    # hashCode, spread); payments 7, gone 15.
    assert g.subscription_size(m) == 4
    assert [g.topic_name(t) for t in g.subscribed_topic_ids(m)] == [
        "orders-2", "orders-1", "payments"]
    assert server_assign(g).as_dict() == {
        "m1": {"orders-1": [0, 1, 2], "orders-2": [0, 1], "payments": [0, 1]}}


def test_internal_topics_match_and_no_match_warns() -> None:
    topics = [*TOPICS, {"name": "__consumer_offsets", "id": "AAAAAAAAAAAAAAAAAAAABQ",
                        "partitions": 1}]
    g = group({"subscribed_topic_regex": "__.*"}, topics=topics)
    assert server_assign(g).as_dict() == {"m1": {"__consumer_offsets": [0]}}
    with pytest.warns(KpartWarning, match="matches none of the group's topics"):
        group({"subscribed_topic_regex": "Orders-.*"})


@pytest.mark.parametrize(("doc", "words"), [
    ({"subscribed_topic_regex": "orders-("}, "'orders-('"),
    ({"subscribed_topic_regex": "a\\C"}, "\\\\C"),
    ({"subscribed_topic_regex": 5}, "expected a string"),
])
def test_bad_regex_names_member_and_regex(doc: dict, words: str) -> None:
    with pytest.raises(ConfigError, match="members\\[1\\]") as e:
        group(REGEX, doc)
    assert words in str(e.value)


def test_range_assignor_sees_the_regex_topics() -> None:
    g = group(REGEX, REGEX)
    assert server_assign(g, "range").as_dict() == {
        "m1": {"orders-1": [0, 1], "orders-2": [0]}, "m2": {"orders-1": [2], "orders-2": [1]}}
    h = group(REGEX, {"topics": ["orders-1"]})
    target = range_target(h)
    assert {m: [(h.topic_name(t), ps) for t, ps in v] for m, v in target.items()} == {
        "m1": [("orders-1", [0, 1]), ("orders-2", [0, 1])], "m2": [("orders-1", [2])]}


@pytest.mark.parametrize("subs", [(REGEX, REGEX, REGEX), (REGEX, NAMES, REGEX),
                                  ({"subscribed_topic_regex": "orders-[12]"}, REGEX, NAMES)])
def test_array_path_agrees_with_the_object_path(subs: tuple[dict, ...]) -> None:
    topics = [{"name": f"orders-{i}", "id": f"AAAAAAAAAAAAAAAAAAAA{c}A", "partitions": 700}
              for i, c in zip((1, 2, 3), "BCD", strict=True)]
    g = group(*subs, topics=topics)
    assert _spec_arrays.use_arrays(g)
    cols = uniform_columns(g)
    assert cols is not None
    assert GroupAssignment.from_columns(cols).as_dict() == g.to_group_assignment(
        uniform_target(g)).as_dict()
