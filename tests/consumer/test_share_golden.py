"""Kafka 4.3's share-group ``SimpleAssignor`` (KIP-932) against its golden vectors
(``tests/golden/4.3/share_assignor.jsonl.gz``, format in ``tests/golden/4.3/FORMAT.md``):
every single case and every sequence round, ``exact: false`` ones included, matched exactly;
the four cases where Kafka throws ``java.util.NoSuchElementException`` raise
:class:`~kpart.errors.NoSuchElementError` naming it. Sequences are also simulated as the
coordinator runs them: each round's current assignments are the previous round's result.
"""

from __future__ import annotations

import warnings

import pytest

from golden_vectors import case_ids, load_golden
from kpart.consumer.share import ShareGroupSpec, _simple_arrays, assign_simple, simple_target
from kpart.errors import ConfigError, NoSuchElementError

CASES = load_golden("4.3/share_assignor")
SINGLE = [c for c in CASES if c["kind"] == "single"]
SEQUENCES = [c for c in CASES if c["kind"] == "sequence"]
ROUNDS = [(c, r) for c in SEQUENCES for r in c["expected"]["rounds"]]


def _spec(doc: dict) -> ShareGroupSpec:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # members subscribed to topics absent from metadata
        return ShareGroupSpec.from_json(doc)


def _check(doc: dict, expected: dict, subscription_type: str) -> None:
    spec = _spec(doc)
    assert spec.subscription_type == subscription_type
    if "error" in expected:
        java = expected["error"]["class"]
        with pytest.raises(NoSuchElementError, match=rf"^{java}") as caught:
            assign_simple(spec, kafka_version="4.3")
        assert caught.value.java_class == java
    else:
        assert assign_simple(spec, kafka_version="4.3").to_json() == {
            "assignment": expected["assignment"]}


def test_the_vectors_are_all_there() -> None:
    assert (len(SINGLE), len(SEQUENCES), len(ROUNDS)) == (40, 12, 81)
    errors = [c["expected"]["error"]["class"] for c in SINGLE if "error" in c["expected"]]
    # (the shared FORMAT.md says 3; the file holds 4 single cases, no failing round)
    assert errors == ["java.util.NoSuchElementException"] * 4
    assert sum(not c["exact"] for c in SINGLE) > 25  # hash-order cases are most of them


@pytest.fixture(params=["objects", "arrays"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every case through the object builders and through the array path (which takes every
    group of these vectors: none lists a topic or a partition twice)."""
    monkeypatch.setattr(_simple_arrays, "ARRAY_THRESHOLD",
                        0 if request.param == "arrays" else 10**12)
    return str(request.param)


@pytest.mark.parametrize("case", SINGLE, ids=case_ids(tuple(SINGLE)))
def test_single_case(case: dict, path: str) -> None:
    _check(case["input"], case["expected"], case["subscription_type"])


@pytest.mark.parametrize("case,rnd", ROUNDS,
                         ids=[f"{c['id']}-round{r['step']}" for c, r in ROUNDS])
def test_sequence_round(case: dict, rnd: dict, path: str) -> None:
    step = case["input"]["steps"][rnd["step"]]
    doc = {"topics": step["topics"], "assignable": step["assignable"], "members": rnd["members"]}
    _check(doc, rnd, rnd["subscription_type"])


def _content(spec: ShareGroupSpec, members: list[dict]) -> dict[str, set[tuple[int, int]]]:
    return {m["id"]: {(spec.topic_uuid(t), p) for t, ps in m.get("assignment", []) for p in ps}
            for m in members}


@pytest.mark.parametrize("case", SEQUENCES, ids=case_ids(tuple(SEQUENCES)))
def test_sequence_follows_the_coordinator(case: dict) -> None:
    """Each round starts from the previous round's result (members that left are gone, new
    members start empty, a failed round changes nothing), as the vectors' simulation rule
    says; the rounds' recorded current assignments are checked against kpart's own results."""
    steps = case["input"]["steps"]
    rounds = case["expected"]["rounds"]
    assert [r["step"] for r in rounds] == list(range(len(steps)))
    current: dict[str, set[tuple[int, int]]] = {}
    for step, rnd in zip(steps, rounds, strict=True):
        assert [m["id"] for m in rnd["members"]] == [m["id"] for m in step["members"]]
        doc = {"topics": step["topics"], "assignable": step["assignable"],
               "members": rnd["members"]}
        spec = _spec(doc)
        assert _content(spec, rnd["members"]) == {
            m["id"]: current.get(m["id"], set()) for m in step["members"]}
        try:
            target = simple_target(spec, kafka_version="4.3")
        except NoSuchElementError:
            assert "error" in rnd
            continue
        assert "error" not in rnd
        current = {m["id"]: {(t, p) for t, ps in target.get(m["id"], ()) for p in ps}
                   for m in step["members"]}
        assert spec.group.to_group_assignment(target).to_json() == {
            "assignment": rnd["assignment"]}


def test_kafka_4_0_gives_every_member_every_partition_of_its_topics() -> None:
    case = next(c for c in SINGLE if c["subscription_type"] == "HETEROGENEOUS"
                and "error" not in c["expected"] and len(c["input"]["members"]) > 3)
    spec = _spec(case["input"])
    got = assign_simple(spec, kafka_version="4.0.1").as_dict()
    sizes = {t.name: t.num_partitions for t in spec.topics}
    for m in spec.members:
        assert got[m.member_id] == {t: list(range(sizes[t])) for t in sorted(m.topics)
                                    if t in sizes}
    assert got != assign_simple(spec, kafka_version="4.3").as_dict()


@pytest.mark.parametrize("version,message", [
    ("4.4", r"^The share-group simple assignor is not known to kpart for kafka_version '4\.4'"),
    ("3.9.1", r"^The share-group simple assignor does not exist in kafka_version '3\.9\.1': "
              r"share groups start with KIP-932's early access in 4\.0\.0"),
])
def test_versions_without_a_known_share_assignor_are_errors(version: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        assign_simple(_spec(SINGLE[0]["input"]), kafka_version=version)


def test_kafka_4_1_hashes_member_ids_onto_partitions() -> None:
    """Kafka 4.1 (KAFKA-18757, KAFKA-18901): "a" and "d" hash to the same partition
    (``97 % 3 == 100 % 3 == 1``), so partition 1 is shared although there are more partitions
    than members; the rest go round robin (members in map order, ``ceil(3 / 2)`` each, one
    over allowed). Kafka 4.2's builders share nothing here."""
    spec = ShareGroupSpec.from_json({
        "topics": [{"name": "t", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 3}],
        "members": [{"id": "a", "topics": ["t"]}, {"id": "d", "topics": ["t"]}]})
    assert assign_simple(spec, kafka_version="4.1").as_dict() == {
        "a": {"t": [0, 1]}, "d": {"t": [1, 2]}}
    shared = assign_simple(spec, kafka_version="4.2.0").as_dict()
    assert sorted(p for ps in shared.values() for p in ps["t"]) == [0, 1, 2]


@pytest.mark.parametrize("case", SEQUENCES, ids=case_ids(tuple(SEQUENCES)))
def test_the_simulator_reproduces_every_round(case: dict) -> None:
    """:func:`kpart.consumer.share.simulate_share_group` from the steps alone (no recorded
    current assignments) gives every round's result and the members' current assignments in
    the order the vectors record them."""
    from kpart.consumer.share import simulate_share_group

    rounds = simulate_share_group([_spec(s) for s in case["input"]["steps"]], "4.3")
    for got, rnd in zip(rounds, case["expected"]["rounds"], strict=True):
        if "error" in rnd:
            assert got.error is not None and got.error.java_class == rnd["error"]["class"]
        else:
            assert got.assignment is not None
            assert got.assignment.to_json() == {"assignment": rnd["assignment"]}
        recorded = [[(t, list(ps)) for t, ps in m.get("assignment", [])] for m in rnd["members"]]
        assert [[(t, list(ps)) for t, ps in m.assignment]
                for m in got.spec.members] == recorded
