"""KIP-848 ``UniformAssignor``: properties on random groups, worked examples and bad input (the golden
vectors are checked in ``test_consumer_server_golden.py``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from golden_vectors import load_golden
from kpart.consumer import server_assign
from kpart.consumer.coordinator.server_spec import ServerGroupSpec, ServerMember, ServerTopic
from kpart.consumer.coordinator.uniform_assignor import assign_uniform
from kpart.errors import ConfigError

CASES = load_golden("uniform_assignor")
SINGLE = tuple(c for c in CASES if c["kind"] == "single")
SEQUENCE = tuple(c for c in CASES if c["kind"] == "sequence")


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
