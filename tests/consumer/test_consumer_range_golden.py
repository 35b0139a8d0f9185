"""Golden vectors of Kafka's ``RangeAssignor`` (``assign_range.jsonl``): every single case,
every recorded round of every sequence, and every sequence re-simulated end to end."""

from __future__ import annotations

import pytest
from consumer_sequence_check import check_sequence, round_group

from golden_vectors import case_ids, load_golden
from kpart.consumer import assign
from kpart.consumer.spec import GroupSpec

CASES = load_golden("assign_range")
SINGLES = tuple(c for c in CASES if c["kind"] == "single")
SEQUENCES = tuple(c for c in CASES if c["kind"] == "sequence")


def test_vector_file_is_complete() -> None:
    assert len(SINGLES) == 224 and len(SEQUENCES) == 70
    assert all(c["assignor"] == "range" and c["exact"] for c in CASES)


def _result(group: GroupSpec) -> dict:
    try:
        return assign(group, "range").to_json()
    except ValueError as e:  # kpart errors: compare with Kafka's class and message
        return {"error": {"class": getattr(e, "java_class", type(e).__name__), "message": str(e)}}


@pytest.mark.parametrize("case", SINGLES, ids=case_ids(SINGLES))
def test_single(case: dict) -> None:
    assert _result(GroupSpec.from_json(case["input"])) == case["expected"]


@pytest.mark.parametrize("case", SEQUENCES, ids=case_ids(SEQUENCES))
def test_sequence_rounds(case: dict) -> None:
    for rnd in case["expected"]["rounds"]:
        expected = {k: rnd[k] for k in ("assignment", "error") if k in rnd}
        assert _result(round_group(case, rnd)) == expected, (rnd["step"], rnd["round"])


@pytest.mark.parametrize("case", SEQUENCES, ids=case_ids(SEQUENCES))
def test_sequence_simulated(case: dict) -> None:
    assert check_sequence(case, "range") == []
