"""The classic sticky assignors by Kafka release, 3.x lines (``classic_sticky`` in
:mod:`kpart.versions`): every case of the per-release golden vectors
(``tests/golden/<version>/assign_{sticky,cooperative_sticky}.jsonl.gz``, inputs by id from the
base files; see ``tests/golden/FORMAT.md``) through ``assign_sticky`` /
``assign_cooperative_sticky`` with ``kafka_version``, and today's 4.0.0 set unchanged."""

from __future__ import annotations

import warnings

import pytest

from golden_vectors import load_golden
from kpart.consumer.classic.cooperative_sticky_assignor import assign_cooperative_sticky
from kpart.consumer.classic.sticky_assignor import assign_sticky
from kpart.consumer.spec import GroupSpec
from kpart.errors import ConfigError

RELEASES = ("3.0.2", "3.4.1", "3.6.2", "4.0.0")
ASSIGNORS = {"sticky": assign_sticky, "cooperative_sticky": assign_cooperative_sticky}


def _cases() -> list:
    out = []
    for version in RELEASES:
        for name in ASSIGNORS:
            inputs = {c["id"]: c["input"] for c in load_golden(f"assign_{name}")}
            for c in load_golden(f"{version}/assign_{name}"):
                out.append(pytest.param(version, name, inputs[c["id"]], c["expected"],
                                        id=f"{version}-{c['id']}"))
    return out


@pytest.mark.parametrize(("version", "name", "group", "expected"), _cases())
def test_release_vectors(version: str, name: str, group: dict, expected: dict) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # inputs that own deleted topics warn, as they should
        spec = GroupSpec.from_json(group)
    try:
        got = ASSIGNORS[name](spec, kafka_version=version).to_json()
    except ValueError as e:  # kpart errors: compare with Kafka's class and message
        got = {"error": {"class": getattr(e, "java_class", type(e).__name__), "message": str(e)}}
    assert got == expected


def _ids(version: str, name: str) -> set[str]:
    return {c["id"] for c in load_golden(f"{version}/assign_{name}") if c["differs_from_4_0_0"]}


@pytest.mark.parametrize("name", list(ASSIGNORS))
def test_the_release_vectors_do_differ_from_today(name: str) -> None:
    # the release cases above are not today's answers renamed: Kafka changed these outputs
    assert len(_ids("3.6.2", name)) >= 28
    assert len(_ids("3.4.1", name)) >= 64
    assert len(_ids("3.0.2", name)) >= 81


@pytest.mark.parametrize("fn", list(ASSIGNORS.values()))
@pytest.mark.parametrize("version", ["2.3.1", "0.11.0.3"])
def test_before_2_4_0_is_an_error_naming_the_version(fn, version: str) -> None:
    spec = GroupSpec.from_json({"topics": {"t": 1}, "members": [{"id": "a", "topics": ["t"]}]})
    with pytest.raises(ConfigError, match=rf"does not exist in kafka_version '{version}'"):
        fn(spec, kafka_version=version)


def test_a_release_line_with_two_behaviours_is_ambiguous() -> None:
    spec = GroupSpec.from_json({"topics": {"t": 1}, "members": [{"id": "a", "topics": ["t"]}]})
    with pytest.raises(ConfigError, match=r"kafka_version '3\.5' is ambiguous"):
        assign_sticky(spec, kafka_version="3.5")


def test_the_versions_page_example() -> None:
    # docs/versions.md, "The classic sticky assignors by release": KAFKA-16277 keeps the
    # lowest partition numbers from 3.7.1; 3.6.2 keeps them in the reported order
    spec = GroupSpec.from_json({"topics": {"t": 4}, "members": [
        {"id": "a", "topics": ["t"], "generation": 1, "owned": [["t", [3, 2, 1, 0]]]},
        {"id": "b", "topics": ["t"]}]})
    assert assign_sticky(spec, kafka_version="3.6.2").as_dict() == {
        "a": {"t": [2, 3]}, "b": {"t": [0, 1]}}
    assert assign_sticky(spec).as_dict() == {"a": {"t": [0, 1]}, "b": {"t": [2, 3]}}
    old = assign_cooperative_sticky(spec, kafka_version="3.7.0")
    assert old.as_dict() == {"a": {"t": [2, 3]}, "b": {}}
    assert dict(old.revoked) == {"a": (("t", (0, 1)),)}


def _kafka_15106_group(g1: int, g2: int, g3: int) -> GroupSpec:
    # AbstractStickyAssignorTest.testSubscriptionNotEqualAndAssignSamePartitionWith3Generation
    # (added with KAFKA-15106 in 3.5.2): partition 2 of `topic` claimed in three generations
    return GroupSpec.from_json({"topics": {"topic": 6, "topic1": 1}, "members": [
        {"id": "consumer1", "topics": ["topic"], "generation": g1, "owned": [["topic", [0, 2]]]},
        {"id": "consumer2", "topics": ["topic"], "generation": g2,
         "owned": [["topic", [1, 2, 3]]]},
        {"id": "consumer3", "topics": ["topic"], "generation": g3,
         "owned": [["topic", [2, 4, 5]]]},
        {"id": "consumer4", "topics": ["topic1"], "generation": 2, "owned": [["topic1", [0]]]}]})


def _sound(result) -> bool:
    lists = [result.partitions_of(m) for m in result.member_ids]
    flat = [tp for one in lists for tp in one]
    return len(flat) == len(set(flat)) and all(1 <= len(one) <= 2 for one in lists)


GENERATIONS = [(1, 2, 3), (1, 3, 2), (2, 1, 3), (2, 3, 1), (3, 1, 2), (3, 2, 1)]


@pytest.mark.parametrize("version", ["3.5.2", "3.6.2", "3.7.1", "4.3"])
def test_kafka_15106_regression_test_holds_from_3_5_2(version: str) -> None:
    for gens in GENERATIONS:
        assert _sound(assign_sticky(_kafka_15106_group(*gens), kafka_version=version)), gens


def test_3_5_0_has_the_bug_kafka_15106_fixed() -> None:
    # 3.5.0 and 3.5.1 (no golden vectors: ported from source): the claim map takes the
    # older generation's claimant, so with these generations consumer2 is handed partition 3
    # while consumer1 keeps it too — the assertion Kafka's regression test makes fails
    failed = [g for g in GENERATIONS
              if not _sound(assign_sticky(_kafka_15106_group(*g), kafka_version="3.5.1"))]
    assert failed == [(2, 1, 3), (3, 1, 2)]


def test_a_line_without_its_port_is_an_error_naming_the_version(monkeypatch) -> None:
    # the 2.x lines are whole-object ports (kpart.consumer.classic.releases); a line whose port
    # is not there is one error naming the version, never another line's answer
    from kpart.consumer.classic import abstract_sticky_assignor as asa

    monkeypatch.setattr(asa, "_RELEASE_MODULES", {"2.8.1": "no_such_module"})
    spec = GroupSpec.from_json({"topics": {"t": 1}, "members": [{"id": "a", "topics": ["t"]}]})
    with pytest.raises(ConfigError, match=r"kafka_version '2\.8\.2' \(the 2\.8\.1 line\) are not "
                       r"modelled"):
        assign_cooperative_sticky(spec, kafka_version="2.8.2")
