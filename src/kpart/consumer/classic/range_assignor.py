"""``org.apache.kafka.clients.consumer.RangeAssignor`` (with KIP-881 rack awareness).

Per topic, partitions in numeric order are cut into contiguous ranges, one per subscribed
member, members in ``MemberInfo`` order (static members first by ``group.instance.id``, then
dynamic members by member id, ``String.compareTo`` order); the first ``P % C`` members get one
extra partition.

Rack awareness (KIP-881) is used when some member has a ``client.rack`` that some replica rack
shares and not every partition of some topic has replicas on all of that topic's replica racks.
Then, before the plain ranges, partitions are matched to members on the same rack, keeping the
per-topic quotas (``P // C``, at most ``P % C`` members with one more):

* topics with the *same subscribers and the same partition count* are co-partitioned: partition
  ``p`` of all of them goes to the first remaining member whose rack holds a replica of ``p`` in
  every such topic and which still has quota in all of them;
* any other topic that needs rack awareness gives each member, in order, the unassigned
  partitions with a replica on its rack, up to its quota.

A member without a rack matches every partition. What is left is handed out as plain ranges.

Groups of at least :data:`~kpart.consumer.classic._range_arrays.ARRAY_THRESHOLD` partitions
take the array path (:mod:`kpart.consumer.classic._range_arrays`: the same decisions on
partition indices, a columnar result); ``_assign_range_objects`` is the reference it is
tested against, and runs whatever the array path declines.

Seed 003 / Kafka's Javadoc example: two members, ``t0`` and ``t1`` with 3 partitions each.

>>> from kpart.consumer.spec import GroupSpec
>>> g = GroupSpec.from_json({"topics": {"t0": 3, "t1": 3},
...                          "members": [{"id": "C0", "topics": ["t0", "t1"]},
...                                      {"id": "C1", "topics": ["t0", "t1"]}]})
>>> assign_range(g).as_dict()
{'C0': {'t0': [0, 1], 't1': [0, 1]}, 'C1': {'t0': [2], 't1': [2]}}
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from itertools import islice

from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.classic._member_info import (
    canonical_assignment,
    partitions_per_topic,
    sort_members,
)
from kpart.consumer.classic._range_arrays import try_range_columns
from kpart.consumer.spec import GroupSpec, TopicDescriber
from kpart.versions import KafkaVersion, behaviour

__all__ = ["RangeAssignor", "assign_range"]


class _TopicAssignmentState:
    """Quota bookkeeping of one topic (Kafka's ``RangeAssignor.TopicAssignmentState``)."""

    __slots__ = (
        "consumer_racks",
        "consumers",
        "needs_rack_aware_assignment",
        "num_assigned",
        "num_partitions",
        "num_partitions_per_consumer",
        "partition_racks",
        "remaining_consumers_with_extra_partition",
        "topic",
        "unassigned",
    )

    def __init__(
        self,
        topic: str,
        num_partitions: int,
        consumers: list[str],
        racks: dict[str, str],
        describer: TopicDescriber,
    ) -> None:
        self.topic = topic
        self.consumers = consumers
        self.consumer_racks = racks  # member id -> rack, for members with a non-empty rack
        self.num_partitions = num_partitions
        self.unassigned: dict[int, None] = dict.fromkeys(range(num_partitions))
        self.num_assigned: dict[str, int] = {}  # absent = 0
        n = len(consumers)
        self.num_partitions_per_consumer = num_partitions // n if n else 0
        self.remaining_consumers_with_extra_partition = num_partitions % n if n else 0
        all_consumer_racks = {racks[c] for c in consumers if c in racks} if racks else set()
        self.partition_racks: dict[int, frozenset[str]] = {}
        all_partition_racks: set[str] = set()
        if all_consumer_racks:
            for p in range(num_partitions):
                rs = describer.racks_for_partition(topic, p)
                self.partition_racks[p] = rs
                all_partition_racks |= rs
        self.needs_rack_aware_assignment = _use_rack_aware_assignment(
            all_consumer_racks, all_partition_racks, self.partition_racks
        )

    def racks_match(self, consumer: str, partition: int) -> bool:
        rack = self.consumer_racks.get(consumer)
        if rack is None:
            return True
        replica_racks = self.partition_racks.get(partition)
        return replica_racks is not None and rack in replica_racks

    def max_assignable(self, consumer: str) -> int:
        extra = 1 if self.remaining_consumers_with_extra_partition > 0 else 0
        assigned = self.num_assigned.get(consumer, 0)
        return max(0, self.num_partitions_per_consumer + extra - assigned)

    def on_assigned(self, consumer: str, partitions: list[int]) -> None:
        n = self.num_assigned[consumer] = self.num_assigned.get(consumer, 0) + len(partitions)
        if n > self.num_partitions_per_consumer:
            self.remaining_consumers_with_extra_partition -= 1
        for p in partitions:
            del self.unassigned[p]


def _use_rack_aware_assignment(
    consumer_racks: set[str], partition_racks: set[str], racks_per_partition: dict[int, frozenset[str]]
) -> bool:
    """``AbstractPartitionAssignor.useRackAwareAssignment`` (``preferRackAwareLogic`` off)."""
    if not consumer_racks or consumer_racks.isdisjoint(partition_racks):
        return False
    return not all(rs == partition_racks for rs in racks_per_partition.values())


_Out = dict[str, dict[str, list[int]]]


def _assign(consumer: str, partitions: list[int], state: _TopicAssignmentState, out: _Out) -> None:
    out[consumer].setdefault(state.topic, []).extend(partitions)
    state.on_assigned(consumer, partitions)


def _assign_ranges(state: _TopicAssignmentState, out: _Out, rack_matching: bool) -> None:
    if not rack_matching and len(state.unassigned) == state.num_partitions:
        # Untouched topic: the plain contiguous ranges, computed directly (with fewer
        # partitions than members only the first ``extra`` members get one).
        per = state.num_partitions_per_consumer
        extra = state.remaining_consumers_with_extra_partition
        consumers = state.consumers if per else state.consumers[:extra]
        start, topic = 0, state.topic
        for i, consumer in enumerate(consumers):
            end = start + per + (1 if i < extra else 0)
            out[consumer][topic] = list(range(start, end))
            start = end
        if consumers:
            state.unassigned.clear()
        return
    for consumer in state.consumers:
        if not state.unassigned:
            break
        limit = state.max_assignable(consumer)
        candidates: Iterator[int]
        if rack_matching:
            candidates = (p for p in state.unassigned if state.racks_match(consumer, p))
        else:
            candidates = iter(state.unassigned)
        partitions = list(islice(candidates, limit))
        if partitions:
            _assign(consumer, partitions, state, out)


def _assign_co_partitioned_with_rack_matching(
    consumers: list[str],
    num_partitions: int,
    states: list[_TopicAssignmentState],
    out: _Out,
) -> None:
    remaining = list(consumers)
    for p in range(num_partitions):
        match = next(
            (
                c
                for c in remaining
                if all(t.racks_match(c, p) and t.max_assignable(c) > 0 for t in states)
            ),
            None,
        )
        if match is None:
            continue
        for t in states:
            _assign(match, [p], t, out)
        if not any(t.max_assignable(match) > 0 for t in states):
            remaining.remove(match)
            if not remaining:
                break


def _assign_with_rack_matching(states: list[_TopicAssignmentState], out: _Out) -> None:
    # Kafka groups topics by (subscribers with their racks), then by partition count
    # (the size of the partition→racks map, 0 when no subscriber has a rack). Groups touch
    # disjoint topics, so the order in which they are visited does not change the result.
    groups: dict[tuple[tuple[str, ...], int], list[_TopicAssignmentState]] = {}
    for t in states:
        groups.setdefault((tuple(t.consumers), len(t.partition_racks)), []).append(t)
    for (consumers, num_partitions), co_partitioned in groups.items():
        if len(co_partitioned) > 1:
            _assign_co_partitioned_with_rack_matching(
                list(consumers), num_partitions, co_partitioned, out
            )
        elif co_partitioned[0].needs_rack_aware_assignment:
            _assign_ranges(co_partitioned[0], out, rack_matching=True)


def assign_range(group: GroupSpec, *,
                 kafka_version: str | KafkaVersion | None = None) -> GroupAssignment:
    """Assign ``group``'s partitions as Kafka's ``RangeAssignor`` of client ``kafka_version``
    does (default: the newest release, 4.3; rule ``classic_range`` of :mod:`kpart.versions`).

    Input: the metadata and subscriptions in ``group`` (topics missing from the metadata or
    with no partitions are skipped; ``owned_partitions`` and generations are ignored).
    Output: every member of the group, with ``()`` when it gets nothing. Raises only
    :class:`~kpart.errors.ConfigError` for a ``kafka_version`` kpart does not model (0.10.0.x,
    unknown, unparseable). Large groups get a columnar result (the array path), others the
    object path. By version: from 3.5.0 (KIP-881) consumers' ``client.rack`` and the replicas'
    racks count; 2.4.0 to 3.4.1 order static members first but ignore racks; before 2.4.0 the
    consumers are ordered by member id alone (``group.instance.id`` is ignored).

    >>> g = GroupSpec.from_json({"topics": {"t": 3}, "members": [
    ...     {"id": "a", "topics": ["t"]}, {"id": "b", "topics": ["t"], "instance_id": "i"}]})
    >>> assign_range(g).as_dict(), assign_range(g, kafka_version="2.3").as_dict()
    ({'a': {'t': [2]}, 'b': {'t': [0, 1]}}, {'a': {'t': [0, 1]}, 'b': {'t': [2]}})
    """
    group = _as_client_sees(group, behaviour("classic_range", kafka_version))
    fast = try_range_columns(group)
    return fast if fast is not None else _assign_range_objects(group)


def _as_client_sees(group: GroupSpec, rule: str) -> GroupSpec:
    """``group`` with what client behaviour ``rule`` does not read removed: members' racks
    before KIP-881 (``static-first``), and their group instance ids too before KIP-345's
    ordering (``member-id``). The output lists the same members."""
    if rule == "rack-aware":
        return group
    keep_ids = rule == "static-first"
    if not any(m.rack or (m.group_instance_id and not keep_ids) for m in group.members):
        return group
    return group.with_members(
        replace(m, rack=None, group_instance_id=m.group_instance_id if keep_ids else None)
        for m in group.members)


def _assign_range_objects(group: GroupSpec) -> GroupAssignment:
    """:func:`assign_range` on Python objects: the reference port of Kafka's class."""
    ppt = partitions_per_topic(group)
    racks = {m.member_id: m.rack for m in group.members if m.rack}
    subscribers: dict[str, list[str]] = {t: [] for t in ppt}
    for m in sort_members(group.members):
        for t in dict.fromkeys(m.topics):
            if t in subscribers:
                subscribers[t].append(m.member_id)
    states = [_TopicAssignmentState(t, ppt[t], subscribers[t], racks, group) for t in sorted(ppt)]
    out: _Out = {m.member_id: {} for m in group.members}
    rack_aware = any(t.needs_rack_aware_assignment for t in states)
    if rack_aware:
        _assign_with_rack_matching(states, out)
    for state in states:  # sorted by topic: without rack matching the output is sorted
        _assign_ranges(state, out, rack_matching=False)
    return canonical_assignment(out, presorted=not rack_aware)


class RangeAssignor:
    """Kafka's ``RangeAssignor`` as a value: ``RangeAssignor().assign(group)``."""

    name = "range"
    protocol = "EAGER"

    def assign(self, group: GroupSpec, *,
               kafka_version: str | KafkaVersion | None = None) -> GroupAssignment:
        """See :func:`assign_range`."""
        return assign_range(group, kafka_version=kafka_version)
