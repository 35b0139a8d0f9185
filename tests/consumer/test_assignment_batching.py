"""KIP-1263's target assignment batching in the KIP-848 simulator (Kafka 4.3,
``GroupMetadataManager.canComputeNextTargetAssignment``): with timed steps, a change less than
``group.consumer.assignment.interval.ms`` after the previous target waits; the waiting changes
get one target once the interval has elapsed."""

from __future__ import annotations

import pytest

from kpart.consumer import get_strategy
from kpart.consumer.rebalance import simulate
from kpart.errors import ConfigError


def _joins(times: list[int], interval: int | None = None, members: str = "ABC") -> dict:
    steps = [{"at_ms": t, "join": [{"id": m, "topics": ["t"]}]}
             for t, m in zip(times, members, strict=True)]
    doc: dict = {"topics": {"t": 6}, "steps": steps}
    if interval is not None:
        doc["assignment_interval_ms"] = interval
    return doc


def _targets(doc: dict, version: str = "4.3") -> list[tuple[int, int, int | None, bool]]:
    sim = simulate(doc, get_strategy("uniform").at_version(version))
    return [(r.step, r.round, r.at_ms, r.deferred) for r in sim.rounds]


def test_three_joins_200_ms_apart_get_two_targets_at_4_3_and_three_before() -> None:
    doc = _joins([0, 200, 400])
    # the first join: no target before it, computed at once; the next two wait for 1,000 ms
    assert _targets(doc) == [(0, 0, 0, False), (1, 0, 200, True), (2, 0, 400, True),
                             (2, 1, 1000, False)]
    sim = simulate(doc, "uniform")
    assert sim.rounds[1].assignment.as_dict() == {"A": {"t": [0, 1, 2, 3, 4, 5]}, "B": {}}
    assert sim.steps[2].assignment.as_dict() == {
        "A": {"t": [0, 1]}, "B": {"t": [2, 3]}, "C": {"t": [4, 5]}}
    assert _targets(doc, "4.2.0") == [(0, 0, 0, False), (1, 0, 200, False), (2, 0, 400, False)]


def test_a_step_due_at_or_after_the_interval_computes_the_waiting_changes_itself() -> None:
    assert _targets(_joins([0, 500, 1000])) == [(0, 0, 0, False), (1, 0, 500, True),
                                                (2, 0, 1000, False)]
    # later than due: the waiting change was assigned when the interval ended
    assert _targets(_joins([0, 500, 3000])) == [(0, 0, 0, False), (1, 0, 500, True),
                                                (1, 1, 1000, False), (2, 0, 3000, False)]


def test_the_interval_follows_the_scenario_and_the_command_line() -> None:
    assert _targets(_joins([0, 200, 400], interval=0)) == [
        (0, 0, 0, False), (1, 0, 200, False), (2, 0, 400, False)]
    assert _targets(_joins([0, 200, 400], interval=150)) == [
        (0, 0, 0, False), (1, 0, 200, False), (2, 0, 400, False)]
    sim = simulate(_joins([0, 200, 400]), "uniform", assignment_interval_ms=300)
    assert [(r.step, r.round, r.at_ms, r.deferred) for r in sim.rounds] == [
        (0, 0, 0, False), (1, 0, 200, True), (1, 1, 300, False), (2, 0, 400, True),
        (2, 1, 600, False)]


def test_untimed_steps_are_never_batched() -> None:
    doc = _joins([0, 200, 400])
    for step in doc["steps"]:
        del step["at_ms"]
    assert [r.deferred for r in simulate(doc, "uniform").rounds] == [False] * 3


def test_a_positive_interval_needs_kip_1263() -> None:
    with pytest.raises(ConfigError, match=r"^scenario\.assignment_interval_ms 100: .*4\.3\.0"):
        simulate(_joins([0, 1, 2], interval=100), get_strategy("uniform").at_version("4.2.0"))
    with pytest.raises(ConfigError, match="steps\\[1\\].at_ms"):
        simulate({"topics": {"t": 1}, "steps": [
            {"at_ms": 5, "join": [{"id": "A", "topics": ["t"]}]},
            {"at_ms": 4, "leave": ["A"]}]}, "uniform")
