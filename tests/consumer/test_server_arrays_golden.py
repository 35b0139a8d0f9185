"""The array paths of the KIP-848 server-side assignors (``UniformAssignor`` homogeneous and
heterogeneous, the coordinator's ``RangeAssignor``) on the golden vectors: every single case
and every round of every sequence (``exact: false`` ones too), with the array path forced on
(``_spec_arrays.ARRAY_THRESHOLD = 0``), compared exactly (members with ``{}`` included): the
trunk 2024-10-25 files with ``kafka_version="4.0.0"``, Kafka 4.3's uniform file with ``"4.3"``.
The random groups are in ``test_server_arrays.py``."""

from __future__ import annotations

import pytest

from golden_vectors import load_golden
from kpart.consumer import server_assign
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.coordinator import _spec_arrays
from kpart.consumer.coordinator.server_range_assignor import server_range_columns
from kpart.consumer.coordinator.server_spec import ServerGroupSpec
from kpart.consumer.coordinator.uniform_assignor import uniform_columns

#: (assignor, brokers' Kafka version) → golden file
FILES = {
    ("uniform", "4.0.0"): "uniform_assignor",
    ("range", "4.0.0"): "server_range",
    ("uniform", "4.3"): "4.3/uniform_assignor",
}


def _rounds(name: str) -> list:
    out = []
    for c in load_golden(name):
        if c["kind"] == "single":
            out.append(pytest.param(c["input"], c["expected"], id=c["id"]))
            continue
        steps = c["input"]["steps"]
        for r in c["expected"]["rounds"]:
            doc = {"topics": steps[r["step"]]["topics"], "members": r["members"]}
            out.append(pytest.param(doc, r, id=f"{c['id']}-step{r['step']}"))
    return out


@pytest.fixture
def arrays_always(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_spec_arrays, "ARRAY_THRESHOLD", 0)


@pytest.mark.usefixtures("arrays_always")
@pytest.mark.parametrize(("assignor", "version"), sorted(FILES))
def test_golden_vectors_through_the_array_paths(assignor: str, version: str) -> None:
    columns_of = {"uniform": uniform_columns, "range": server_range_columns}[assignor]
    rounds = _rounds(FILES[assignor, version])
    assert len(rounds) > 224  # the single cases and the sequences' rounds
    for param in rounds:
        doc, expected = param.values
        spec = ServerGroupSpec.from_json(doc)
        assert "error" not in expected  # (no golden case of these assignors fails)
        columns = columns_of(spec, version)
        assert columns is not None, param.id  # no golden case makes the array path decline
        got = GroupAssignment.from_columns(columns)
        assert got.to_json() == {"assignment": expected["assignment"]}, param.id
        assert server_assign(spec, assignor, kafka_version=version).columns is not None
