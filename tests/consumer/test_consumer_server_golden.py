"""KIP-848 server-side assignors against the golden vectors: ``UniformAssignor``
(``uniform_assignor.jsonl``) and the group-coordinator ``RangeAssignor`` (``server_range.jsonl``),
both from Kafka trunk of 2024-10-25, run with ``kafka_version="4.0.0"`` (the same assignors as
that release); and Kafka 4.3's ``UniformAssignor`` on the same inputs
(``4.3/uniform_assignor.jsonl``, after KAFKA-18688), run with ``kafka_version="4.3"``.

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

#: (assignor, brokers' Kafka version) → golden file
FILES = {
    ("uniform", "4.0.0"): "uniform_assignor",
    ("range", "4.0.0"): "server_range",
    ("uniform", "4.3"): "4.3/uniform_assignor",
}


def _cases(kind: str) -> list:
    return [
        pytest.param(assignor, version, c, id=f"{version}-{c['id']}")
        for (assignor, version), name in FILES.items()
        for c in load_golden(name)
        if c["kind"] == kind
    ]


def _check(spec: ServerGroupSpec, assignor: str, version: str, expected: dict) -> None:
    if "error" in expected:
        with pytest.raises(KpartError) as info:
            server_assign(spec, assignor, kafka_version=version)
        assert info.value.java_class == expected["error"]["class"]
        assert str(info.value) == expected["error"]["message"]
    else:
        got = server_assign(spec, assignor, kafka_version=version).to_json()
        assert got == {"assignment": expected["assignment"]}


def test_golden_file_shape():
    for name in FILES.values():
        cases = load_golden(name)
        assert sum(c["kind"] == "single" for c in cases) == 224
        assert sum(c["kind"] == "sequence" for c in cases) == 70
    new, old = load_golden("4.3/uniform_assignor"), load_golden("uniform_assignor")
    assert [c["id"] for c in new] == [c["id"] for c in old]
    assert [c["input"] for c in new if c["kind"] == "single"] == [
        c["input"] for c in old if c["kind"] == "single"]
    # KAFKA-18688 changed 52 of the 224 single cases and 103 of the 391 sequence rounds.
    assert sum(c["differs_from_1eb7644"] for c in new if c["kind"] == "single") == 52
    rounds = [r for c in new if c["kind"] == "sequence" for r in c["expected"]["rounds"]]
    assert (sum(r["differs_from_1eb7644"] for r in rounds), len(rounds)) == (103, 391)
    uniform = load_golden("uniform_assignor")
    assert any(not c["exact"] for c in uniform if c["kind"] == "single")
    assert any(not c["exact"] for c in uniform if c["kind"] == "sequence")
    assert (UniformAssignor.name, RangeAssignor.name) == ("uniform", "range")


@pytest.mark.parametrize(("assignor", "version", "case"), _cases("single"))
def test_single(assignor, version, case):
    spec = ServerGroupSpec.from_json(case["input"])
    assert spec.subscription_type == case["subscription_type"]
    _check(spec, assignor, version, case["expected"])


@pytest.mark.parametrize(("assignor", "version", "case"), _cases("sequence"))
def test_sequence_rounds_are_self_contained(assignor, version, case):
    steps = case["input"]["steps"]
    for r in case["expected"]["rounds"]:
        spec = ServerGroupSpec.from_json(
            {"topics": steps[r["step"]]["topics"], "members": r["members"]}
        )
        assert spec.subscription_type == r["subscription_type"], r["step"]
        _check(spec, assignor, version, r)


@pytest.mark.parametrize(("assignor", "version", "case"), _cases("sequence"))
def test_sequence_simulation_rebuilds_member_inputs_in_java_order(assignor, version, case):
    steps = [ServerGroupSpec.from_json(s) for s in case["input"]["steps"]]
    rounds = simulate_server_group(steps, assignor, kafka_version=version)
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


@pytest.mark.parametrize(("assignor", "version", "case"), _cases("sequence"))
def test_rebalance_simulator_runs_the_sequences_as_kip848_strategies(assignor, version, case):
    """``kpart rebalance -s uniform`` / ``-s server-range``: the scenario simulator (classic
    group specs, ``topic_ids`` from the scenario) reproduces every recorded round — the
    assignment, and each member's current assignment as the assignor saw it."""
    from kpart.consumer import get_strategy
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
    name = {"uniform": "uniform", "range": "server-range"}[assignor]
    sim = simulate(doc, get_strategy(name).at_version(version))
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
