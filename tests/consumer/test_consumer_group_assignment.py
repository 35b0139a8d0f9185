"""``GroupAssignment``: eager and columnar results are the same value (equality, hash, pickle,
repr), a columnar result builds its tuples only when asked for, and the object is
immutable."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from kpart.consumer._columns import AssignmentColumns
from kpart.consumer.assignment import GroupAssignment
from kpart.errors import ConfigError

EAGER = GroupAssignment.from_pairs(
    ["C1", "C0"], {"C0": [("t1", 0), ("t0", 2), ("t0", 1)]}, {"C1": [("t0", 1)]}
)


def _columnar() -> GroupAssignment:
    # t0 has 3 partitions, t1 one: indices t0-0, t0-1, t0-2, t1-0; C1 is position 0.
    cols = AssignmentColumns(["C1", "C0"], ["t0", "t1"], [3, 1], np.array([-1, 1, 1, 1]))
    revoked = AssignmentColumns(["C1", "C0"], ["t0", "t1"], [3, 1], np.array([-1, 0, -1, -1]))
    return GroupAssignment.from_columns(cols, revoked)


def test_from_pairs_sorts_topics_and_partitions() -> None:
    assert EAGER.assignment == (("C1", ()), ("C0", (("t0", (1, 2)), ("t1", (0,)))))
    assert EAGER.revoked == (("C1", (("t0", (1,)),)),)
    assert EAGER.member_ids == ("C1", "C0")
    assert EAGER.partition_counts() == {"C1": 0, "C0": 3}
    assert EAGER.partitions_of("C0") == (("t0", 1), ("t0", 2), ("t1", 0))
    with pytest.raises(KeyError, match="C9"):
        EAGER.partitions_of("C9")


def test_columnar_builds_tuples_only_on_demand() -> None:
    lazy = _columnar()
    assert lazy.member_ids == ("C1", "C0")
    assert lazy.partition_counts() == {"C1": 0, "C0": 3}
    assert lazy.to_arrow().equals(EAGER.to_arrow())
    assert lazy.revoked_to_arrow().equals(EAGER.revoked_to_arrow())
    assert lazy._assignment is None and lazy._revoked is None
    assert lazy.revoked == EAGER.revoked
    assert lazy.as_dict() == EAGER.as_dict() and lazy.to_json() == EAGER.to_json()


def test_columnar_equals_eager_as_a_value() -> None:
    lazy = _columnar()
    assert lazy == EAGER and hash(lazy) == hash(EAGER) and repr(lazy) == repr(EAGER)
    assert lazy == _columnar() and _columnar()._assignment is None  # compared on the arrays
    assert lazy != GroupAssignment(EAGER.assignment)  # revoked differs
    no_revoked = GroupAssignment.from_columns(_columnar().columns)  # type: ignore[arg-type]
    assert no_revoked != lazy and no_revoked == GroupAssignment(EAGER.assignment)
    copy = pickle.loads(pickle.dumps(_columnar()))
    assert copy == EAGER and copy.columns is None


def test_columns_refuse_shapes_that_disagree() -> None:
    with pytest.raises(ConfigError, match="2 topics, 2 counts summing to 4, 3 owners"):
        AssignmentColumns(["C0"], ["t0", "t1"], [3, 1], np.array([0, 0, 0]))
    cols = AssignmentColumns(["C0"], ["t0"], [1], np.array([0]))
    assert not cols.owner.flags.writeable


def test_immutable() -> None:
    with pytest.raises(AttributeError):
        EAGER.assignment = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        EAGER.extra = 1  # type: ignore[attr-defined]
