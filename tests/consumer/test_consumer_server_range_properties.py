"""KIP-848 group-coordinator ``RangeAssignor``: properties on random groups, worked examples and bad input (the golden
vectors are checked in ``test_consumer_server_golden.py``)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from golden_vectors import load_golden
from kpart.consumer import server_assign
from kpart.consumer.coordinator.server_range_assignor import assign_range
from kpart.consumer.coordinator.server_spec import ServerGroupSpec, ServerMember, ServerTopic

CASES = load_golden("server_range")
SINGLE = tuple(c for c in CASES if c["kind"] == "single")
SEQUENCE = tuple(c for c in CASES if c["kind"] == "sequence")


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
