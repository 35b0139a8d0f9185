"""Golden vectors of Kafka's ``RangeAssignor`` and ``RoundRobinAssignor`` (``assign_range.jsonl``,
``assign_roundrobin.jsonl``): every single case, every recorded round of every sequence, and
every sequence re-simulated end to end."""

from __future__ import annotations

import pytest
from consumer_sequence_check import check_sequence, round_group

from golden_vectors import load_golden
from kpart.consumer import assign
from kpart.consumer.spec import GroupSpec

STRATEGIES = {"range": "assign_range", "roundrobin": "assign_roundrobin"}


def _cases(kind: str) -> list:
    return [
        pytest.param(strategy, c, id=c["id"])
        for strategy, name in STRATEGIES.items()
        for c in load_golden(name)
        if c["kind"] == kind
    ]


@pytest.mark.parametrize(("strategy", "name"), STRATEGIES.items())
def test_vector_file_is_complete(strategy: str, name: str) -> None:
    cases = load_golden(name)
    assert sum(c["kind"] == "single" for c in cases) == 224
    assert sum(c["kind"] == "sequence" for c in cases) == 70
    assert all(c["assignor"] == strategy and c["exact"] for c in cases)


def _result(group: GroupSpec, strategy: str) -> dict:
    try:
        return assign(group, strategy).to_json()
    except ValueError as e:  # kpart errors: compare with Kafka's class and message
        return {"error": {"class": getattr(e, "java_class", type(e).__name__), "message": str(e)}}


@pytest.mark.parametrize(("strategy", "case"), _cases("single"))
def test_single(strategy: str, case: dict) -> None:
    assert _result(GroupSpec.from_json(case["input"]), strategy) == case["expected"]


@pytest.mark.parametrize(("strategy", "case"), _cases("sequence"))
def test_sequence_rounds(strategy: str, case: dict) -> None:
    for rnd in case["expected"]["rounds"]:
        expected = {k: rnd[k] for k in ("assignment", "error") if k in rnd}
        assert _result(round_group(case, rnd), strategy) == expected, (rnd["step"], rnd["round"])


@pytest.mark.parametrize(("strategy", "case"), _cases("sequence"))
def test_sequence_simulated(strategy: str, case: dict) -> None:
    assert check_sequence(case, strategy) == []
