"""KIP-848 group-coordinator ``RangeAssignor`` against the golden vectors (``server_range``).

Every single case and every round of every sequence is compared exactly (full assignment
JSON, members with ``{}`` included). Sequences are also replayed by
:func:`~kpart.consumer.server_simulation.simulate_server_group`: the member inputs it rebuilds
(each member's previous target, read back into Java collections) must equal the recorded
ones, in Java iteration order.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from golden_vectors import case_ids, load_golden
from kpart.consumer.server_range_assignor import RangeAssignor, assign_range
from kpart.consumer.server_simulation import simulate_server_group
from kpart.consumer.server_spec import ServerGroupSpec, ServerMember, ServerTopic
from kpart.consumer.uniform_assignor import server_assign
from kpart.errors import KpartError

CASES = load_golden("server_range")
SINGLE = tuple(c for c in CASES if c["kind"] == "single")
SEQUENCE = tuple(c for c in CASES if c["kind"] == "sequence")


def _check(spec: ServerGroupSpec, expected: dict) -> None:
    if "error" in expected:
        with pytest.raises(KpartError) as info:
            assign_range(spec)
        assert info.value.java_class == expected["error"]["class"]
        assert str(info.value) == expected["error"]["message"]
    else:
        assert assign_range(spec).to_json() == {"assignment": expected["assignment"]}


def test_golden_file_shape():
    assert len(SINGLE) == 224 and len(SEQUENCE) == 70
    assert RangeAssignor.name == "range"


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
    rounds = simulate_server_group(steps, "range")
    expected = case["expected"]["rounds"]
    assert len(rounds) == len(expected)
    for got, want in zip(rounds, expected, strict=True):
        members = [
            {"id": m.member_id, "assignment": [[t, list(ps)] for t, ps in m.assignment]}
            for m in got.spec.members
        ]
        assert members == [
            {"id": m["id"], "assignment": m["assignment"]} for m in want["members"]
        ], want["step"]
        assert got.assignment.as_dict() == want["assignment"], want["step"]


_IDS = [f"AAAAAAAAAAAAAAAAAAAA{c}w" for c in "ABCDEFGH"]


@st.composite
def groups(draw):
    n_topics = draw(st.integers(1, 4))
    topics = tuple(ServerTopic(f"t{i}", _IDS[i], draw(st.integers(0, 10))) for i in range(n_topics))
    names = [t.name for t in topics]
    members = []
    for i in range(draw(st.integers(1, 6))):
        subs = draw(st.lists(st.sampled_from([*names, "missing"]), min_size=1, unique=True))
        instance = draw(st.sampled_from([None, f"i{i}"]))
        members.append(ServerMember(f"m{i}", tuple(sorted(subs)), instance_id=instance))
    return ServerGroupSpec(topics, tuple(members))


@settings(max_examples=80, deadline=None)
@given(groups())
def test_ranges_are_contiguous_balanced_and_in_member_order(spec):
    result = assign_range(spec).as_dict()
    static = sorted((m.instance_id, m.member_id) for m in spec.members if m.instance_id)
    dynamic = sorted(m.member_id for m in spec.members if not m.instance_id)
    order = [mid for _, mid in static] + dynamic
    for t in spec.topics:
        subscribers = [mid for mid in order if t.name in spec_member(spec, mid).topics]
        if not subscribers:
            assert all(t.name not in parts for parts in result.values())
            continue
        got = [result[mid].get(t.name, []) for mid in subscribers]
        # Walking members in Kafka's order, the ranges tile 0..n-1 with sizes q+1 then q.
        assert [p for ps in got for p in ps] == list(range(t.num_partitions))
        q, extra = divmod(t.num_partitions, len(subscribers))
        assert [len(ps) for ps in got] == [q + 1] * extra + [q] * (len(subscribers) - extra)


def spec_member(spec: ServerGroupSpec, member_id: str) -> ServerMember:
    return next(m for m in spec.members if m.member_id == member_id)


def test_server_assign_range():
    spec = ServerGroupSpec.from_json(SINGLE[0]["input"])
    assert server_assign(spec, "range") == assign_range(spec)


def test_javadoc_example_static_members_keep_their_ranges_after_a_rolling_bounce():
    """Kafka's RangeAssignor javadoc: two members, T1 and T2 with 3 partitions each; with
    instance ids I0/I1 the ranges follow the instance ids, whatever the new member ids."""
    topics = [
        {"name": "T1", "id": _IDS[0], "partitions": 3},
        {"name": "T2", "id": _IDS[1], "partitions": 3},
    ]
    before = ServerGroupSpec.from_json(
        {
            "topics": topics,
            "members": [
                {"id": "M0", "topics": ["T1", "T2"], "instance_id": "I0"},
                {"id": "M1", "topics": ["T1", "T2"], "instance_id": "I1"},
            ],
        }
    )
    after = ServerGroupSpec.from_json(
        {
            "topics": topics,
            "members": [
                {"id": "M3", "topics": ["T1", "T2"], "instance_id": "I0"},
                {"id": "M2", "topics": ["T1", "T2"], "instance_id": "I1"},
            ],
        }
    )
    assert assign_range(before).as_dict() == {
        "M0": {"T1": [0, 1], "T2": [0, 1]},
        "M1": {"T1": [2], "T2": [2]},
    }
    assert assign_range(after).as_dict() == {
        "M3": {"T1": [0, 1], "T2": [0, 1]},
        "M2": {"T1": [2], "T2": [2]},
    }
