"""Kafka 4.3's Streams ``StickyTaskAssignor`` (KIP-1071) against its golden vectors
(``tests/golden/4.3/streams_assignor.jsonl.gz``), run with ``kafka_version="4.3"``.

Every single case and every round of every sequence is compared exactly (each member's active
and standby tasks), ``"exact": false`` cases too: they depend on Java ``HashMap`` orders (member
ids, process ids, a process's members) and on ``PriorityQueue`` tie-breaking, which kpart
emulates. No case is skipped.

Sequences are checked twice: each round on its own (the round's recorded members with the
step's subtopologies), and by carrying every member's target assignment from round to round
with the simulation rule of ``tests/golden/4.3/FORMAT.md`` (leavers drop out, new members start
empty, a static member rejoining under a new id inherits its predecessor's target): the member
inputs rebuilt that way must equal the recorded ones.
"""

from __future__ import annotations

from typing import Any

import pytest

from golden_vectors import load_golden
from kpart.consumer.streams import StreamsGroupSpec, assign

CASES = load_golden("4.3/streams_assignor")
SINGLES = [c for c in CASES if c["kind"] == "single"]
SEQUENCES = [c for c in CASES if c["kind"] == "sequence"]


def _assign(doc: dict[str, Any]) -> dict[str, Any]:
    return assign(StreamsGroupSpec.from_json(doc), "4.3").to_json()


def _round_doc(case: dict[str, Any], rnd: dict[str, Any]) -> dict[str, Any]:
    step = case["input"]["steps"][rnd["step"]]
    return {"subtopologies": step["subtopologies"],
            "num_standby_replicas": step["num_standby_replicas"], "members": rnd["members"]}


def test_the_file_holds_every_kind_of_case() -> None:
    assert len(SINGLES) == 40 and len(SEQUENCES) == 12
    assert {c["prior_assignment"] for c in SINGLES} == {"none", "random", "stale", "overlap"}
    assert any(not c["exact"] for c in SINGLES)  # hash-order cases are in


@pytest.mark.parametrize("case", SINGLES, ids=[c["id"] for c in SINGLES])
def test_single_case(case: dict[str, Any]) -> None:
    assert _assign(case["input"]) == case["expected"]


@pytest.mark.parametrize("case", SEQUENCES, ids=[c["id"] for c in SEQUENCES])
def test_sequence_rounds(case: dict[str, Any]) -> None:
    for rnd in case["expected"]["rounds"]:
        assert "error" not in rnd
        got = _assign(_round_doc(case, rnd))
        assert got == {"assignment": rnd["assignment"]}, f"step {rnd['step']}"


@pytest.mark.parametrize("case", SEQUENCES, ids=[c["id"] for c in SEQUENCES])
def test_sequence_simulated(case: dict[str, Any]) -> None:
    """Carry targets from step to step (FORMAT.md's rule) and compare inputs and outputs."""
    targets: dict[str, dict[str, Any]] = {}
    instance_of: dict[str, str | None] = {}
    rounds = {r["step"]: r for r in case["expected"]["rounds"]}
    for i, step in enumerate(case["input"]["steps"]):
        present = {m["id"] for m in step["members"]}
        by_instance = {instance_of[mid]: mid for mid in targets
                       if instance_of[mid] is not None and mid not in present}
        members = []
        for m in step["members"]:
            prev = targets.get(m["id"])
            if prev is None and m["instance_id"] is not None:
                gone = by_instance.get(m["instance_id"])
                prev = targets.get(gone) if gone is not None else None
            prev = prev or {"active": {}, "standby": {}}
            members.append({**m, "active": prev["active"], "standby": prev["standby"]})
        rnd = rounds[i]
        assert members == rnd["members"], f"step {i}: rebuilt inputs differ"
        doc = {"subtopologies": step["subtopologies"],
               "num_standby_replicas": step["num_standby_replicas"], "members": members}
        got = _assign(doc)["assignment"]
        assert got == rnd["assignment"], f"step {i}"
        targets = {mid: got[mid] for mid in present}
        instance_of = {m["id"]: m["instance_id"] for m in step["members"]}


@pytest.mark.parametrize("case", SEQUENCES, ids=[c["id"] for c in SEQUENCES])
def test_the_simulator_reproduces_every_round(case: dict[str, Any]) -> None:
    """:func:`kpart.consumer.streams.simulate_streams_group` from the steps alone: every
    round's inputs (members' current tasks) and result."""
    from kpart.consumer.streams import simulate_streams_group

    rounds = simulate_streams_group(case["input"]["steps"], "4.3")
    for got, rnd in zip(rounds, case["expected"]["rounds"], strict=True):
        assert got.assignment is not None
        assert got.assignment.to_json() == {"assignment": rnd["assignment"]}
        assert got.spec == StreamsGroupSpec.from_json(_round_doc(case, rnd))
