"""``org.apache.kafka.coordinator.group.assignor.RangeAssignor`` (KIP-848 server-side "range").

The group coordinator's range assignor gives every subscriber of a topic one contiguous range
of its partitions. Members are ordered by ``group.instance.id`` first (static members, in
``String.compareTo`` order), then by member id (dynamic members); walking that order, each
subscriber of a topic with ``n`` partitions and ``k`` subscribers takes the next
``n // k`` partitions, plus one while the ``n % k`` extra partitions last. When all members
subscribe to the same topics and those topics have equal partition counts, the assignment is
co-partitioned (same partition numbers from every topic). The current assignment has no
effect (Kafka trunk 2024-10-25), nor has the rack.

Subscribed names missing from the metadata are ignored (the coordinator resolves names through
its metadata image). Members without partitions appear with nothing. Groups of
``_spec_arrays.ARRAY_THRESHOLD`` partitions or more take the array form
(:func:`server_range_columns`, a columnar result); :func:`range_target` stays the reference.

>>> from kpart.consumer.coordinator.server_spec import ServerGroupSpec
>>> g = ServerGroupSpec.from_json({
...     "topics": [{"name": "t1", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 3},
...                {"name": "t2", "id": "AAAAAAAAAAAAAAAAAAAAAw", "partitions": 3}],
...     "members": [{"id": "M1", "topics": ["t1", "t2"]}, {"id": "M0", "topics": ["t1", "t2"]}]})
>>> assign_range(g).as_dict()
{'M1': {'t1': [2], 't2': [2]}, 'M0': {'t1': [0, 1], 't2': [0, 1]}}
"""

from __future__ import annotations

from kpart._java.collections import JavaHashMap
from kpart._java.hashing import presized_capacity
from kpart._java.strings import java_string_key
from kpart._java.uuid import uuid_hash_code
from kpart.consumer._columns import AssignmentColumns, no_gc
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.coordinator import _spec_arrays
from kpart.consumer.coordinator._server_range_arrays import range_columns
from kpart.consumer.coordinator.server_spec import ServerGroupSpec, ServerMember, Target
from kpart.versions import KafkaVersion, behaviour

__all__ = ["RangeAssignor", "assign_range", "range_target", "server_range_columns"]


class RangeAssignor:
    """Name holder mirroring Kafka's class: ``RangeAssignor.name == "range"``."""

    name = "range"

    @staticmethod
    def assign(spec: ServerGroupSpec,
               kafka_version: str | KafkaVersion | None = None) -> GroupAssignment:
        return assign_range(spec, kafka_version)


def _sort_members(members: tuple[ServerMember, ...]) -> list[ServerMember]:
    """Static members first by instance id, then dynamic members by member id."""

    def key(m: ServerMember) -> tuple[int, bytes]:
        if m.instance_id is not None:
            return (0, java_string_key(m.instance_id))
        return (1, java_string_key(m.member_id))

    return sorted(members, key=key)


def range_target(spec: ServerGroupSpec, java_order: bool = True,
                 kafka_version: str | KafkaVersion | None = None) -> Target:
    """The raw result: member id → ``[(topic id, [partitions])]`` (members sorted as Kafka
    sorts them, ranges ascending; with ``java_order``, each member's topics in the iteration
    order of the map Kafka returns, otherwise in subscription order). ``kafka_version``: the
    brokers' (default 4.3; the same from 4.0.0 to 4.3, rule ``server_range`` of
    :mod:`kpart.versions`, which raises :class:`~kpart.errors.ConfigError` for others)."""
    behaviour("server_range", kafka_version)
    if spec.has_regex:
        spec.subscription_type_at(kafka_version)
    ordered = _sort_members(spec.members)
    subscriptions = {m.member_id: spec.subscribed_topic_ids(m) for m in ordered}
    subscribers: dict[int, int] = {}
    for m in ordered:
        for tid in subscriptions[m.member_id]:
            subscribers[tid] = subscribers.get(tid, 0) + 1
    next_range: dict[int, int] = {}
    extra: dict[int, int] = {}
    target: Target = {}
    for m in ordered:
        out = target.setdefault(m.member_id, [])
        for tid in subscriptions[m.member_id]:
            n = spec.num_partitions(tid)
            k = subscribers[tid]
            quota = n // k
            left = extra.setdefault(tid, n % k)
            if left > 0:
                quota += 1
                extra[tid] = left - 1
            start = next_range.get(tid, 0)
            end = min(start + quota, n)
            next_range[tid] = end
            if start < end:
                out.append((tid, list(range(start, end))))
    # Each member's result is a HashMap<Uuid, Set<Integer>> presized from its topic count:
    # report its topics in that map's iteration order.
    if not java_order:
        return target
    homogeneous = spec.subscription_type == "HOMOGENEOUS"
    for m in ordered:
        parts = target[m.member_id]
        # homogeneous: sized from the resolved topics; heterogeneous: from TopicIds.size(),
        # which also counts subscribed names missing from the metadata.
        n = len(subscriptions[m.member_id]) if homogeneous else spec.subscription_size(m)
        result: JavaHashMap[int, list[int]] = JavaHashMap(
            presized_capacity(n), hash_of=uuid_hash_code
        )
        for tid, ps in parts:
            result.put(tid, ps)
        target[m.member_id] = result.items()
    return target


def server_range_columns(spec: ServerGroupSpec,
                         kafka_version: str | KafkaVersion | None = None) -> AssignmentColumns:
    """The array path: every partition's owner (members in ``spec.members`` order, topics in
    sorted order, see :class:`~kpart.consumer._columns.AssignmentColumns`), computed without
    a per-partition Python object. ``kafka_version``: as :func:`range_target`."""
    behaviour("server_range", kafka_version)
    if spec.has_regex:
        spec.subscription_type_at(kafka_version)
    with no_gc():  # no cycles are made; full collections over the input's objects would run
        return range_columns(_spec_arrays.spec_arrays(spec))


def assign_range(spec: ServerGroupSpec,
                 kafka_version: str | KafkaVersion | None = None) -> GroupAssignment:
    """Assign ``spec``'s partitions as the group coordinator's ``RangeAssignor`` does.

    Input: a :class:`~kpart.consumer.coordinator.server_spec.ServerGroupSpec`. Output: a
    :class:`~kpart.consumer.assignment.GroupAssignment` listing every member (members in
    ``spec.members`` order; topics by name). Groups of ``_spec_arrays.ARRAY_THRESHOLD``
    partitions or more take the array path (:func:`server_range_columns`, a columnar result),
    smaller ones the object path; both give the same assignment. ``kafka_version``: as
    :func:`range_target`. Pure; no errors beyond those of the spec and the version.
    """
    behaviour("server_range", kafka_version)
    if spec.has_regex:
        spec.subscription_type_at(kafka_version)
    if _spec_arrays.use_arrays(spec):
        return GroupAssignment.from_columns(server_range_columns(spec, kafka_version))
    return spec.to_group_assignment(range_target(spec, java_order=False))
