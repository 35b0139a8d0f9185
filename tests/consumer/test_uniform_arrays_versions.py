"""The uniform assignor's array path equals its object path (the reference) on random groups,
at both homogeneous rules (Kafka 4.0.0: extra partitions to the first members; 4.3, after
KAFKA-18688: to the last ones, held extra slots kept), and on groups subscribing to more than
48 topics, where the array path orders the subscribed topics on arrays (``String.hashCode``
buckets of the names, then ``Uuid.hashCode`` buckets of the ids) instead of the object
emulation. ``test_server_arrays.py`` covers small groups at the default version."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kpart._java.uuid import uuid_to_string
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.coordinator.server_spec import ServerGroupSpec, ServerMember, ServerTopic
from kpart.consumer.coordinator.uniform_assignor import uniform_columns, uniform_target
from kpart.errors import KpartError

VERSIONS = ("4.0.0", "4.3")


@st.composite
def many_topic_groups(draw: st.DrawFn, homogeneous: bool) -> ServerGroupSpec:
    """49 to 72 topics (random names and ids, 0 to 3 partitions), 1 to 12 members subscribing
    to all of them (homogeneous, with a name missing from the metadata at times) or to random
    subsets; current assignments of random partitions, topics in any order."""
    n_topics = draw(st.integers(49, 72))
    suffix = draw(st.text("abxyz._-09", max_size=3))
    uuids = draw(st.lists(st.integers(1, (1 << 128) - 1), min_size=n_topics,
                          max_size=n_topics, unique=True))
    topics = tuple(ServerTopic(f"t{i}{suffix}", uuid_to_string(u), draw(st.integers(0, 3)))
                   for i, u in enumerate(uuids))
    names = [t.name for t in topics]
    common = tuple(draw(st.permutations(names)))
    if draw(st.booleans()):
        common += ("missing",)
    ids = draw(st.lists(st.text("mM0-é", min_size=1, max_size=4), min_size=1, max_size=12,
                        unique=True))
    free = sorted((t.name, p) for t in topics for p in range(t.num_partitions))
    members = []
    for member_id in ids:
        subs = common if homogeneous else tuple(
            draw(st.lists(st.sampled_from(names), min_size=1, max_size=60, unique=True)))
        mine = draw(st.lists(st.sampled_from(free), unique=True, max_size=30)) if free else []
        free = [tp for tp in free if tp not in set(mine)]
        owned: dict[str, list[int]] = {}
        for t, p in mine:
            owned.setdefault(t, []).append(p)
        assignment = tuple((t, tuple(ps)) for t, ps in draw(st.permutations(list(owned.items()))))
        members.append(ServerMember(member_id, subs, assignment=assignment))
    return ServerGroupSpec(topics, tuple(members))


def _check(spec: ServerGroupSpec, version: str) -> None:
    try:
        expected: GroupAssignment | KpartError = spec.to_group_assignment(
            uniform_target(spec, kafka_version=version))
    except KpartError as e:
        expected = e
    fresh = ServerGroupSpec(spec.topics, spec.members)  # nothing memoized by the object path
    try:
        columns = uniform_columns(fresh, kafka_version=version)
    except KpartError as e:
        assert isinstance(expected, KpartError) and str(e) == str(expected)
        return
    assert columns is not None
    assert not isinstance(expected, KpartError)
    got = GroupAssignment.from_columns(columns)
    assert got.assignment == expected.assignment
    assert got.to_arrow().equals(expected.to_arrow())


@pytest.mark.parametrize("version", VERSIONS)
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(spec=many_topic_groups(homogeneous=True))
def test_homogeneous_many_topics_arrays_equal_the_object_path(spec: ServerGroupSpec,
                                                              version: str) -> None:
    assert spec.subscription_type == "HOMOGENEOUS"
    _check(spec, version)


@pytest.mark.parametrize("version", VERSIONS)
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(spec=many_topic_groups(homogeneous=False))
def test_heterogeneous_many_topics_arrays_equal_the_object_path(spec: ServerGroupSpec,
                                                                version: str) -> None:
    _check(spec, version)
