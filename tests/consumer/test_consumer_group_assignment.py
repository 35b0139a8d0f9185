"""``GroupAssignment``: eager and deferred results are the same value (equality, hash, pickle,
repr), deferred tuples are built once and only when asked for, and the object is immutable."""

from __future__ import annotations

import pickle

import pytest

from kpart.consumer.assignment import GroupAssignment

EAGER = GroupAssignment.from_pairs(
    ["C1", "C0"], {"C0": [("t1", 0), ("t0", 2), ("t0", 1)]}, {"C1": [("t0", 1)]}
)


def _deferred(calls: list[int]) -> GroupAssignment:
    def build() -> tuple[tuple, tuple]:
        calls.append(1)
        return EAGER.assignment, EAGER.revoked

    return GroupAssignment.deferred(["C1", "C0"], [0, 3], build)


def test_from_pairs_sorts_topics_and_partitions() -> None:
    assert EAGER.assignment == (("C1", ()), ("C0", (("t0", (1, 2)), ("t1", (0,)))))
    assert EAGER.revoked == (("C1", (("t0", (1,)),)),)
    assert EAGER.member_ids == ("C1", "C0")
    assert EAGER.partition_counts() == {"C1": 0, "C0": 3}
    assert EAGER.partitions_of("C0") == (("t0", 1), ("t0", 2), ("t1", 0))
    with pytest.raises(KeyError, match="C9"):
        EAGER.partitions_of("C9")


def test_deferred_builds_once_and_only_on_demand() -> None:
    calls: list[int] = []
    lazy = _deferred(calls)
    assert lazy.member_ids == ("C1", "C0")
    assert lazy.partition_counts() == {"C1": 0, "C0": 3}
    assert calls == []
    assert lazy.revoked == EAGER.revoked
    assert lazy.as_dict() == EAGER.as_dict() and lazy.to_json() == EAGER.to_json()
    assert calls == [1]


def test_deferred_equals_eager_as_a_value() -> None:
    lazy = _deferred([])
    assert lazy == EAGER and hash(lazy) == hash(EAGER) and repr(lazy) == repr(EAGER)
    assert lazy != GroupAssignment(EAGER.assignment)  # revoked differs
    copy = pickle.loads(pickle.dumps(_deferred([])))
    assert copy == EAGER and copy._deferred is None


def test_immutable() -> None:
    with pytest.raises(AttributeError):
        EAGER.assignment = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        EAGER.extra = 1  # type: ignore[attr-defined]
