"""The 2.x ports of the classic sticky assignors (``kpart.consumer.classic.releases``), each
checked on the per-release golden vectors of its line (``tests/golden/<version>/
assign_{sticky,cooperative_sticky}.jsonl.gz``, Kafka's own classes; see FORMAT.md "Per-release
vectors"), every case, sticky and cooperative-sticky, compared exactly.

Line → module → vectors:

- 2.4.0 – 2.5.0: ``abstract_sticky_assignor_2_4`` → ``2.4.1``
- 2.5.1 – 2.8.0: ``abstract_sticky_assignor_2_5_1`` → ``2.8.0``
- 2.8.1 – 2.8.2: ``abstract_sticky_assignor_2_8_1`` → ``2.8.2``

plus small groups showing what each line changed, whose expected answers are those of Kafka's
classes of apache/kafka tags 2.4.1, 2.8.0 and 2.8.1 (run by ``tools/golden``'s ``ClassicDriver``).
"""

from __future__ import annotations

from types import ModuleType

import pytest

from golden_vectors import load_golden
from kpart.consumer.classic.releases import (
    abstract_sticky_assignor_2_4,
    abstract_sticky_assignor_2_5_1,
    abstract_sticky_assignor_2_8_1,
)
from kpart.consumer.spec import GroupSpec
from kpart.errors import KpartWarning

LINES: dict[str, ModuleType] = {
    "2.4.1": abstract_sticky_assignor_2_4,
    "2.8.0": abstract_sticky_assignor_2_5_1,
    "2.8.2": abstract_sticky_assignor_2_8_1,
}
FILES = ("assign_sticky", "assign_cooperative_sticky")
REQUIRED = tuple(LINES)


def _result(module: ModuleType, group: GroupSpec, cooperative: bool) -> dict:
    try:
        return module.assign(group, cooperative=cooperative).to_json()
    except ValueError as e:
        return {"error": {"class": getattr(e, "java_class", type(e).__name__), "message": str(e)}}


def _cases() -> list:
    out = []
    for version, module in LINES.items():
        for name in FILES:
            inputs = {c["id"]: c["input"] for c in load_golden(name)}
            for c in load_golden(f"{version}/{name}"):
                out.append(pytest.param(module, name == "assign_cooperative_sticky",
                                        inputs[c["id"]], c["expected"],
                                        id=f"{version}-{c['id']}"))
    return out


@pytest.mark.parametrize(("module", "cooperative", "doc", "expected"), _cases())
def test_release_vectors(module: ModuleType, cooperative: bool, doc: dict, expected: dict) -> None:
    assert _result(module, GroupSpec.from_json(doc), cooperative) == expected


def test_every_required_vector_file_is_checked() -> None:
    ids = {p.id.split("-", 1)[0] for p in _cases()}
    assert ids >= set(REQUIRED)
    for version in REQUIRED:
        for name in FILES:
            assert len(load_golden(f"{version}/{name}")) == 224


# -- what each line changed, on small groups (answers of Kafka's own classes) ----------------

def _group(assignor: str, topics: dict[str, int], members: list[tuple]) -> GroupSpec:
    """``members``: (id, topics, generation or None = no sticky user data, owned)."""
    docs = []
    for member_id, subscribed, generation, owned in members:
        d = {"id": member_id, "topics": subscribed, "generation": -1 if generation is None
             else generation, "owned": owned}
        if assignor == "sticky" and generation is None:
            d["has_user_data"] = False
        docs.append(d)
    return GroupSpec.from_json({"topics": topics, "members": docs})


# members iterate as a, b, c in the leader's HashMap ("a".hashCode() = 97, ...)
FORGOTTEN = _group("sticky", {"t0": 2, "t1": 2}, [
    ("a", ["t0", "t1"], 1, [["t1", [0, 1]]]),
    ("b", ["t0", "t1"], 1, [["t0", [0, 1]]]),
    ("c", ["t0"], None, [])])
TWICE = {"t": 4}
TWICE_MEMBERS = [("a", ["t"], 5, [["t", [0, 1]]]), ("b", ["t"], 5, [["t", [1, 2]]])]
EXISTING = _group("sticky", {"t0": 3, "t1": 3}, [
    ("a", ["t0", "t1"], 2, [["t0", [0, 1, 2]], ["t1", [0, 1]]]),
    ("b", ["t0", "t1"], 1, [["t0", [0]], ["t1", [2]]]),
    ("c", ["t0", "t1"], None, [])])


@pytest.mark.parametrize(("module", "expected"), [
    # 2.4: a keeps its two partitions
    (abstract_sticky_assignor_2_4, {"a": {"t1": [0, 1]}, "b": {"t0": [1]}, "c": {"t0": [0]}}),
    # 2.5.1+: the subscription check consumed a's and b's user data: the general path sees
    # three new members
    (abstract_sticky_assignor_2_5_1,
     {"a": {"t0": [1], "t1": [0]}, "b": {"t1": [1]}, "c": {"t0": [0]}}),
    (abstract_sticky_assignor_2_8_1,
     {"a": {"t0": [1], "t1": [0]}, "b": {"t1": [1]}, "c": {"t0": [0]}}),
])
def test_sticky_user_data_read_twice(module: ModuleType, expected: dict) -> None:
    assert module.assign(FORGOTTEN, cooperative=False).to_json()["assignment"] == expected


@pytest.mark.parametrize(("module", "cooperative", "expected"), [
    # 2.4: one claim wins (general path)
    (abstract_sticky_assignor_2_4, True, {"a": {"t": [0, 3]}, "b": {"t": [1, 2]}}),
    (abstract_sticky_assignor_2_4, False, {"a": {"t": [0, 1]}, "b": {"t": [2, 3]}}),
    # 2.5.1 - 2.8.0 (constrained path): both keep t-1, it is assigned twice
    (abstract_sticky_assignor_2_5_1, True, {"a": {"t": [0, 1, 3]}, "b": {"t": [1, 2]}}),
    (abstract_sticky_assignor_2_5_1, False, {"a": {"t": [0, 1, 3]}, "b": {"t": [1, 2]}}),
    # 2.8.1 (KAFKA-13081): t-1 is taken from both, handed out again, withheld (cooperative)
    (abstract_sticky_assignor_2_8_1, True, {"a": {"t": [0]}, "b": {"t": [2, 3]}}),
    (abstract_sticky_assignor_2_8_1, False, {"a": {"t": [0, 1]}, "b": {"t": [2, 3]}}),
])
def test_partition_claimed_twice_in_one_generation(
    module: ModuleType, cooperative: bool, expected: dict
) -> None:
    group = _group("cooperative-sticky" if cooperative else "sticky", TWICE, TWICE_MEMBERS)
    assert module.assign(group, cooperative=cooperative).to_json()["assignment"] == expected


@pytest.mark.parametrize(("module", "expected"), [
    # 2.4: general path, partitions reconsidered round robin over the members, most loaded first
    (abstract_sticky_assignor_2_4,
     {"a": {"t1": [0, 1]}, "b": {"t0": [0], "t1": [2]}, "c": {"t0": [1, 2]}}),
    # 2.5.1+ (KAFKA-9987): same subscriptions -> constrained path
    (abstract_sticky_assignor_2_5_1,
     {"a": {"t0": [0, 1]}, "b": {"t0": [2], "t1": [1]}, "c": {"t1": [0, 2]}}),
])
def test_existing_group_same_subscriptions(module: ModuleType, expected: dict) -> None:
    assert module.assign(EXISTING, cooperative=False).to_json()["assignment"] == expected


def test_cooperative_revoked_lists_what_a_member_gives_up() -> None:
    group = _group("cooperative-sticky", TWICE, TWICE_MEMBERS)
    result = abstract_sticky_assignor_2_8_1.assign(group, cooperative=True)
    assert dict(result.revoked) == {"a": (("t", (1,)),), "b": (("t", (1,)),)}
    assert abstract_sticky_assignor_2_8_1.assign(group, cooperative=False).revoked == ()


@pytest.mark.parametrize(("module", "expected"), [
    # 2.4: partitions beyond the count are dropped (general path)
    (abstract_sticky_assignor_2_4, {"assignment": {"a": {"t": [0, 2]}, "b": {"t": [1]}}}),
    # 2.5.1+: the constrained path keeps them and cannot place the real ones
    (abstract_sticky_assignor_2_5_1, {"error": {"class": "java.lang.IllegalStateException",
     "message": "Some partitions are unassigned but all consumers are at maximum capacity"}}),
    (abstract_sticky_assignor_2_8_1, {"error": {"class": "java.lang.IllegalStateException",
     "message": "Some partitions are unassigned but all consumers are at maximum capacity"}}),
])
@pytest.mark.parametrize("cooperative", [False, True])
def test_owned_partitions_beyond_the_count(
    module: ModuleType, expected: dict, cooperative: bool
) -> None:
    with pytest.warns(KpartWarning, match="beyond"):
        group = _group("cooperative-sticky" if cooperative else "sticky", {"t": 3}, [
            ("a", ["t"], 1, [["t", [5, 6]]]), ("b", ["t"], 1, [["t", [7, 8]]])])
    assert _result(module, group, cooperative) == expected


def test_kafka_2_4_null_pointer_exception() -> None:
    # X owned T-0 in generation 1 and now reads only U (nobody else does): the general path
    # sets X aside, then compares Y's count with X's (T-0's previous owner): Kafka 2.4 throws
    # a NullPointerException. In 2.5.1+ the subscription check consumed X's user data first.
    group = _group("sticky", {"T": 2, "U": 1}, [
        ("X", ["U"], 1, [["T", [0]]]), ("Y", ["T"], 2, [["T", [0, 1]]]), ("Z", ["T"], None, [])])
    assert _result(abstract_sticky_assignor_2_4, group, False) == {"error": {
        "class": "java.lang.NullPointerException",
        "message": 'Cannot invoke "java.util.List.size()" because the return value of '
                   '"java.util.Map.get(Object)" is null'}}
    expected = {"assignment": {"X": {"U": [0]}, "Y": {"T": [1]}, "Z": {"T": [0]}}}
    assert _result(abstract_sticky_assignor_2_5_1, group, False) == expected
    assert _result(abstract_sticky_assignor_2_8_1, group, False) == expected
