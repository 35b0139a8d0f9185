"""The array paths of the KIP-848 server-side assignors (``UniformAssignor`` homogeneous and
heterogeneous, the coordinator's ``RangeAssignor``) equal their object paths (the reference)
on random groups; the array forms of ``String.hashCode`` and of the member ``HashMap`` order
equal the object emulation; the cases where the array path declines. The golden vectors are
in ``test_server_arrays_golden.py``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kpart._java.arrays import hashmap_key_order, string_hash_codes
from kpart._java.hashing import string_hash_code
from kpart._java.uuid import uuid_to_string
from kpart.consumer import server_assign
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.coordinator.server_range_assignor import range_target, server_range_columns
from kpart.consumer.coordinator.server_spec import (
    ServerGroupSpec,
    ServerMember,
    ServerTopic,
    _set_order,
)
from kpart.consumer.coordinator.uniform_assignor import uniform_columns, uniform_target
from kpart.errors import KpartError

# -- random groups: array path == object path ---------------------------------------------

_UUIDS = [uuid_to_string((7 << 64) | (i * 0x9E3779B97F4A7C15 & ((1 << 64) - 1)))
          for i in range(1, 9)]
_MEMBER_IDS = st.text("aAbB0-é\U0001F600", min_size=1, max_size=4)


@st.composite
def server_groups(draw: st.DrawFn, homogeneous: bool | None = None,
                  size: tuple[int, int] = (1, 7)) -> ServerGroupSpec:
    """Random groups: equal or differing subscriptions (with names missing from the
    metadata), static members, racks, current assignments in any order (partitions of
    deleted topics too, beyond any count), some members owning nothing."""
    n_topics = draw(st.integers(1, 5))
    topics = tuple(ServerTopic(f"t{i}", _UUIDS[i], draw(st.integers(0, 9)))
                   for i in range(n_topics))
    names = [t.name for t in topics] + ["missing"]
    ids = draw(st.lists(_MEMBER_IDS, min_size=size[0], max_size=size[1], unique=True))
    common = tuple(draw(st.lists(st.sampled_from(names), min_size=1, unique=True)))
    homogeneous = draw(st.booleans()) if homogeneous is None else homogeneous
    free = {(t.name, p) for t in topics for p in range(t.num_partitions)}
    members = []
    for i, member_id in enumerate(ids):
        subs = common if homogeneous else tuple(
            draw(st.lists(st.sampled_from(names), max_size=4, unique=True)))
        mine = draw(st.lists(st.sampled_from(sorted(free)), unique=True)) if free else []
        free.difference_update(mine)
        owned: dict[str, list[int]] = {}
        for t, p in mine:
            owned.setdefault(t, []).append(p)
        if draw(st.booleans()):
            owned[f"id:{_UUIDS[7]}"] = draw(st.lists(st.integers(0, 20), max_size=3, unique=True))
        assignment = tuple((t, tuple(ps)) for t, ps in draw(st.permutations(list(owned.items()))))
        members.append(ServerMember(
            member_id, subs, instance_id=draw(st.sampled_from([None, f"i{i % 3}", f"j{i}"])),
            rack=draw(st.sampled_from([None, "r0", "r1"])), assignment=assignment))
    return ServerGroupSpec(topics, tuple(members))


def _object_uniform(spec: ServerGroupSpec) -> GroupAssignment | KpartError:
    try:
        return spec.to_group_assignment(uniform_target(spec))
    except KpartError as e:
        return e


def _check_uniform(spec: ServerGroupSpec) -> None:
    expected = _object_uniform(spec)
    fresh = ServerGroupSpec(spec.topics, spec.members)  # the array path memoizes on its own
    try:
        columns = uniform_columns(fresh)
    except KpartError as e:
        assert isinstance(expected, KpartError) and str(e) == str(expected)
        return
    assert columns is not None  # no duplicate owner, no "id:" naming a live topic
    assert fresh.subscription_type == spec.subscription_type
    assert not isinstance(expected, KpartError)
    got = GroupAssignment.from_columns(columns)
    assert got.assignment == expected.assignment
    assert got.to_arrow().equals(expected.to_arrow())


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(server_groups(homogeneous=True))
def test_uniform_homogeneous_arrays_equal_the_object_path(spec: ServerGroupSpec) -> None:
    _check_uniform(spec)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(server_groups(homogeneous=False))
def test_uniform_heterogeneous_arrays_equal_the_object_path(spec: ServerGroupSpec) -> None:
    _check_uniform(spec)


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(server_groups())
def test_server_range_arrays_equal_the_object_path(spec: ServerGroupSpec) -> None:
    expected = spec.to_group_assignment(range_target(spec, java_order=False))
    got = GroupAssignment.from_columns(server_range_columns(spec))
    assert got.assignment == expected.assignment


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(server_groups(size=(49, 64)))
def test_larger_groups_member_map_order_on_arrays(spec: ServerGroupSpec) -> None:
    """Past 48 members the member ``HashMap`` order comes from hash codes on arrays."""
    _check_uniform(spec)
    expected = spec.to_group_assignment(range_target(spec, java_order=False))
    assert GroupAssignment.from_columns(server_range_columns(spec)) == expected


def _spec(members: list[ServerMember], partitions: int = 3) -> ServerGroupSpec:
    return ServerGroupSpec((ServerTopic("t0", _UUIDS[0], partitions),
                            ServerTopic("t1", _UUIDS[1], partitions)), tuple(members))


def test_declines_where_the_arrays_cannot_hold_the_input() -> None:
    twice = _spec([ServerMember("a", ("t0",), assignment=(("t0", (0,)),)),
                   ServerMember("b", ("t0",), assignment=(("t0", (0,)),))])
    assert uniform_columns(twice) is None
    live_by_id = _spec([ServerMember("a", ("t0",), assignment=((f"id:{_UUIDS[0]}", (7,)),))])
    assert uniform_columns(live_by_id) is None
    assert uniform_columns(ServerGroupSpec((), ())) is None
    # server_assign still answers, through the object path (here with Kafka's own error)
    for spec in (twice, live_by_id):
        with pytest.raises(KpartError, match="Partitions were left unassigned"):
            server_assign(spec)


def test_large_groups_take_the_array_path_and_small_ones_the_object_path() -> None:
    big = _spec([ServerMember(f"m{i}", ("t0", "t1")) for i in range(10)], partitions=1000)
    small = _spec([ServerMember(f"m{i}", ("t0", "t1")) for i in range(10)])
    for assignor in ("uniform", "range"):
        assert server_assign(big, assignor).columns is not None
        assert server_assign(small, assignor).columns is None


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text("aZ09-_\x00\u00e9\u4e2d\uffff\U0001F600\U00010000", max_size=6), max_size=30))
def test_string_hash_codes_on_arrays(keys: list[str]) -> None:
    """BMP text, NUL characters, supplementary characters (two UTF-16 units): as Java."""
    assert string_hash_codes(keys).tolist() == [string_hash_code(k) & 0xFFFFFFFF for k in keys]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text("ab\x00Aa\u00e9BB\U0001F600", min_size=1, max_size=5), min_size=40,
                max_size=300, unique=True))
def test_hashmap_key_order_equals_the_object_emulation(keys: list[str]) -> None:
    order = hashmap_key_order(keys)
    assert [keys[i] for i in order.tolist()] == list(_set_order(tuple(keys)))
    assert isinstance(order, np.ndarray)
