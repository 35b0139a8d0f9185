"""``GroupAssignment.to_arrow()``: one row per assigned partition (member, topic, partition), in
the assignment's order, equal to the tuple view for every assignor, on small and array-form
(columnar) results."""

from __future__ import annotations

import pyarrow as pa
import pytest

from kpart.consumer import assign
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.spec import GroupSpec


def _rows(a: GroupAssignment) -> list[tuple[str, str, int]]:
    return [(m, t, p) for m, owned in a.assignment for t, ps in owned for p in ps]


def _group(topics: int, partitions: int, members: int, *, equal: bool = False) -> GroupSpec:
    names = [f"t{i}" for i in range(topics)]
    return GroupSpec.from_json({
        "topics": {t: partitions + i % 3 for i, t in enumerate(names)},
        "members": [{"id": f"C{j:03d}", "topics": names if equal else names[j % 2:]}
                    for j in range(members)],
    })


@pytest.mark.parametrize("strategy", ["range", "roundrobin", "sticky", "cooperative-sticky",
                                      "uniform", "server-range"])
@pytest.mark.parametrize(("topics", "partitions", "members"), [(1, 1, 3), (3, 7, 4),
                                                               (4, 700, 9)])
def test_to_arrow_equals_the_tuple_view(strategy, topics, partitions, members) -> None:
    a = assign(_group(topics, partitions, members), strategy)
    table = a.to_arrow()
    assert table.schema == pa.schema([("member", pa.string()), ("topic", pa.string()),
                                      ("partition", pa.int32())])
    assert list(zip(*(table.column(c).to_pylist() for c in table.column_names),
                    strict=True)) == _rows(a)
    assert table.num_rows == sum(a.partition_counts().values())


def test_a_columnar_array_form_result_converts_without_changing() -> None:
    group = _group(2, 1500, 7, equal=True)  # the sticky assignors' array form, columnar
    a = assign(group, "sticky")
    assert a.columns is not None, "expected the array form's columnar result"
    table = a.to_arrow()
    assert a._assignment is None, "to_arrow built the tuples"
    assert list(zip(*(table.column(c).to_pylist() for c in table.column_names),
                    strict=True)) == _rows(a)


def test_members_without_partitions_have_no_row_and_empty_is_typed() -> None:
    a = GroupAssignment.from_pairs(["C0", "C1"], {})
    table = a.to_arrow()
    assert table.num_rows == 0 and table.column("partition").type == pa.int32()
    assert a.member_ids == ("C0", "C1")
