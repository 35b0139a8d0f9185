"""KIP-848 server-side assignors against the golden vectors: ``UniformAssignor``
(``uniform_assignor.jsonl``) and the group-coordinator ``RangeAssignor`` (``server_range.jsonl``).

Every single case and every round of every sequence is compared exactly (full assignment
JSON, members with ``{}`` included), ``"exact": false`` cases too: those depend on Java
``HashMap``/``HashSet`` iteration order, which kpart emulates (member map keyed by member id,
topic sets keyed by ``Uuid.hashCode``, copy-on-write target maps, ``computeIfAbsent`` head
insertion). No case is skipped or checked on properties only.

Sequences are checked twice: each round on its own (recorded members + the step's topics), and
by :func:`~kpart.consumer.coordinator.server_simulation.simulate_server_group`, which carries every
member's target from step to step; the member inputs it rebuilds must equal the recorded ones,
*including* the Java iteration order of topics and partitions.
"""

from __future__ import annotations

import pytest

from golden_vectors import load_golden
from kpart.consumer import server_assign
from kpart.consumer.coordinator.server_range_assignor import RangeAssignor
from kpart.consumer.coordinator.server_simulation import simulate_server_group
from kpart.consumer.coordinator.server_spec import ServerGroupSpec
from kpart.consumer.coordinator.uniform_assignor import UniformAssignor
from kpart.errors import KpartError

FILES = {"uniform": "uniform_assignor", "range": "server_range"}


def _cases(kind: str) -> list:
    return [
        pytest.param(assignor, c, id=c["id"])
        for assignor, name in FILES.items()
        for c in load_golden(name)
        if c["kind"] == kind
    ]


def _check(spec: ServerGroupSpec, assignor: str, expected: dict) -> None:
    if "error" in expected:
        with pytest.raises(KpartError) as info:
            server_assign(spec, assignor)
        assert info.value.java_class == expected["error"]["class"]
        assert str(info.value) == expected["error"]["message"]
    else:
        assert server_assign(spec, assignor).to_json() == {"assignment": expected["assignment"]}


def test_golden_file_shape():
    for name in FILES.values():
        cases = load_golden(name)
        assert sum(c["kind"] == "single" for c in cases) == 224
        assert sum(c["kind"] == "sequence" for c in cases) == 70
    uniform = load_golden("uniform_assignor")
    assert any(not c["exact"] for c in uniform if c["kind"] == "single")
    assert any(not c["exact"] for c in uniform if c["kind"] == "sequence")
    assert (UniformAssignor.name, RangeAssignor.name) == ("uniform", "range")


@pytest.mark.parametrize(("assignor", "case"), _cases("single"))
def test_single(assignor, case):
    spec = ServerGroupSpec.from_json(case["input"])
    assert spec.subscription_type == case["subscription_type"]
    _check(spec, assignor, case["expected"])


@pytest.mark.parametrize(("assignor", "case"), _cases("sequence"))
def test_sequence_rounds_are_self_contained(assignor, case):
    steps = case["input"]["steps"]
    for r in case["expected"]["rounds"]:
        spec = ServerGroupSpec.from_json(
            {"topics": steps[r["step"]]["topics"], "members": r["members"]}
        )
        assert spec.subscription_type == r["subscription_type"], r["step"]
        _check(spec, assignor, r)


@pytest.mark.parametrize(("assignor", "case"), _cases("sequence"))
def test_sequence_simulation_rebuilds_member_inputs_in_java_order(assignor, case):
    steps = [ServerGroupSpec.from_json(s) for s in case["input"]["steps"]]
    rounds = simulate_server_group(steps, assignor)
    expected = case["expected"]["rounds"]
    assert len(rounds) == len(expected)
    for got, want in zip(rounds, expected, strict=True):
        assert got.step == want["step"]
        members = [
            {"id": m.member_id, "assignment": [[t, list(ps)] for t, ps in m.assignment]}
            for m in got.spec.members
        ]
        assert members == [
            {"id": m["id"], "assignment": m["assignment"]} for m in want["members"]
        ], want["step"]
        assert got.assignment.as_dict() == want["assignment"], want["step"]


@pytest.mark.parametrize(("assignor", "case"), _cases("sequence"))
def test_rebalance_simulator_runs_the_sequences_as_kip848_strategies(assignor, case):
    """``kpart rebalance -s uniform`` / ``-s server-range``: the scenario simulator (classic
    group specs, ``topic_ids`` from the scenario) reproduces every recorded round — the
    assignment, and each member's current assignment as the assignor saw it."""
    from kpart.consumer.rebalance import simulate

    steps = case["input"]["steps"]
    doc = {
        "topic_ids": {t["name"]: t["id"] for s in steps for t in s["topics"]},
        "steps": [
            {"topics": {t["name"]: t["partitions"] for t in s["topics"]},
             "members": [{k: m[k] for k in ("id", "topics", "rack", "instance_id") if m.get(k)}
                         for m in s["members"]]}
            for s in steps
        ],
    }
    sim = simulate(doc, {"uniform": "uniform", "range": "server-range"}[assignor])
    expected = case["expected"]["rounds"]
    assert [r.step for r in sim.rounds] == [r["step"] for r in expected]
    for got, want in zip(sim.rounds, expected, strict=True):
        assert got.assignment is not None and got.error is None
        assert got.assignment.as_dict() == want["assignment"], want["step"]
        live = [[t, list(ps)] for m in want["members"] for t, ps in m["assignment"]
                if not t.startswith("id:")]
        assert [[t, list(ps)] for m in got.members for t, ps in m.owned_partitions] == live
    for report, want in zip(sim.steps, expected, strict=True):
        assert report.rounds == 1 and report.assignment.as_dict() == want["assignment"]
