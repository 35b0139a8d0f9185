"""KIP-848 ``UniformAssignor`` against the golden vectors (``uniform_assignor.jsonl``).

Every single case and every round of every sequence is compared exactly (full assignment
JSON, members with ``{}`` included), ``"exact": false`` cases too: those depend on Java
``HashMap``/``HashSet`` iteration order, which kpart emulates (member map keyed by member id,
topic sets keyed by ``Uuid.hashCode``, copy-on-write target maps, ``computeIfAbsent``
head insertion). No case is skipped or checked on properties only.

Sequences are checked twice: each round on its own (recorded members + the step's topics),
and by :func:`~kpart.consumer.server_simulation.simulate_server_group`, which carries every
member's target from step to step; the member inputs it rebuilds must equal the recorded
ones, *including* the Java iteration order of topics and partitions.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from golden_vectors import case_ids, load_golden
from kpart.consumer.server_simulation import simulate_server_group
from kpart.consumer.server_spec import ServerGroupSpec, ServerMember, ServerTopic
from kpart.consumer.uniform_assignor import assign_uniform, server_assign
from kpart.errors import ConfigError, KpartError

CASES = load_golden("uniform_assignor")
SINGLE = tuple(c for c in CASES if c["kind"] == "single")
SEQUENCE = tuple(c for c in CASES if c["kind"] == "sequence")


def _check(spec: ServerGroupSpec, expected: dict) -> None:
    if "error" in expected:
        with pytest.raises(KpartError) as info:
            assign_uniform(spec)
        assert info.value.java_class == expected["error"]["class"]
        assert str(info.value) == expected["error"]["message"]
    else:
        assert assign_uniform(spec).to_json() == {"assignment": expected["assignment"]}


def test_golden_file_shape():
    assert len(SINGLE) == 224 and len(SEQUENCE) == 70
    assert any(not c["exact"] for c in SINGLE) and any(not c["exact"] for c in SEQUENCE)


@pytest.mark.parametrize("case", SINGLE, ids=case_ids(SINGLE))
def test_single(case):
    spec = ServerGroupSpec.from_json(case["input"])
    assert spec.subscription_type == case["subscription_type"]
    _check(spec, case["expected"])


@pytest.mark.parametrize("case", SEQUENCE, ids=case_ids(SEQUENCE))
def test_sequence_rounds_are_self_contained(case):
    steps = case["input"]["steps"]
    for r in case["expected"]["rounds"]:
        spec = ServerGroupSpec.from_json(
            {"topics": steps[r["step"]]["topics"], "members": r["members"]}
        )
        assert spec.subscription_type == r["subscription_type"], r["step"]
        _check(spec, r)


@pytest.mark.parametrize("case", SEQUENCE, ids=case_ids(SEQUENCE))
def test_sequence_simulation_rebuilds_member_inputs_in_java_order(case):
    steps = [ServerGroupSpec.from_json(s) for s in case["input"]["steps"]]
    rounds = simulate_server_group(steps, "uniform")
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


# -- properties on random groups ----------------------------------------------------------

_IDS = [f"AAAAAAAAAAAAAAAAAAAA{c}w" for c in "ABCDEFGHIJKLMNOP"]


@st.composite
def groups(draw, homogeneous: bool):
    n_topics = draw(st.integers(1, 5))
    topics = tuple(ServerTopic(f"t{i}", _IDS[i], draw(st.integers(0, 12))) for i in range(n_topics))
    names = [t.name for t in topics]
    n_members = draw(st.integers(1, 6))
    common = tuple(draw(st.lists(st.sampled_from(names), min_size=1, unique=True)))
    members = []
    owned: set[tuple[str, int]] = set()
    for i in range(n_members):
        subs = (
            common
            if homogeneous
            else tuple(draw(st.lists(st.sampled_from(names), min_size=1, unique=True)))
        )
        assignment = []
        for t in topics:
            free = [p for p in range(t.num_partitions) if (t.name, p) not in owned]
            mine = draw(st.lists(st.sampled_from(free), unique=True)) if free else []
            owned.update((t.name, p) for p in mine)
            if mine:
                assignment.append((t.name, tuple(mine)))
        members.append(ServerMember(f"m{i}", tuple(sorted(subs)), assignment=tuple(assignment)))
    return ServerGroupSpec(topics, tuple(members))


def _valid(spec: ServerGroupSpec, result: dict[str, dict[str, list[int]]]) -> None:
    seen: dict[tuple[str, int], str] = {}
    subs = {m.member_id: set(m.topics) for m in spec.members}
    for member, parts in result.items():
        for topic, ps in parts.items():
            assert topic in subs[member]
            for p in ps:
                assert (topic, p) not in seen
                seen[(topic, p)] = member
    wanted = {
        (t.name, p)
        for t in spec.topics
        if any(t.name in s for s in subs.values())
        for p in range(t.num_partitions)
    }
    assert set(seen) == wanted


@settings(max_examples=60, deadline=None)
@given(groups(homogeneous=True))
def test_homogeneous_is_valid_balanced_and_sticky(spec):
    result = assign_uniform(spec).as_dict()
    _valid(spec, result)
    sizes = [sum(map(len, parts.values())) for parts in result.values()]
    assert max(sizes) - min(sizes) <= 1
    # Stickiness: a member keeps min(its current subscribed partitions, its quota).
    total = sum(sizes)
    quota_hi = -(-total // len(sizes))
    for m in spec.members:
        current = {(t, p) for t, ps in m.assignment if t in m.topics for p in ps}
        kept = {(t, p) for t, ps in result[m.member_id].items() for p in ps} & current
        assert len(kept) >= min(len(current), total // len(sizes))
        assert len(kept) <= quota_hi


@settings(max_examples=60, deadline=None)
@given(groups(homogeneous=False))
def test_heterogeneous_is_valid(spec):
    _valid(spec, assign_uniform(spec).as_dict())


def test_server_assign_dispatch_and_unknown_name():
    spec = ServerGroupSpec.from_json(SINGLE[0]["input"])
    assert server_assign(spec) == assign_uniform(spec)
    with pytest.raises(ConfigError, match="'sticky'"):
        server_assign(spec, "sticky")


@pytest.mark.parametrize(
    ("doc", "needle"),
    [
        ({"topics": [{"name": "t", "id": "nope", "partitions": 1}], "members": []}, "'nope'"),
        (
            {
                "topics": [{"name": "t", "id": _IDS[0], "partitions": 2}],
                "members": [{"id": "a", "topics": ["t"], "assignment": [["t", [5]]]}],
            },
            "partition 5",
        ),
        (
            {
                "topics": [{"name": "t", "id": _IDS[0], "partitions": 2}],
                "members": [{"id": "a", "topics": ["t"]}, {"id": "a", "topics": ["t"]}],
            },
            "'a'",
        ),
        ({"topics": [{"name": "t", "id": _IDS[0], "partitions": -1}], "members": []}, "-1"),
    ],
)
def test_bad_input_names_the_bad_value(doc, needle):
    with pytest.raises(ConfigError, match=needle):
        ServerGroupSpec.from_json(doc)
