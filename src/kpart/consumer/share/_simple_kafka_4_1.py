"""``org.apache.kafka.coordinator.group.assignor.SimpleAssignor`` as Kafka 4.1 ships it (KIP-932; KAFKA-18757, KAFKA-18901).

Kafka 4.1's first full share-group algorithm, replaced in 4.2 by the builders of
:mod:`._simple_homogeneous` / :mod:`._simple_heterogeneous`. Homogeneous groups: each member
is hashed onto one target partition (``abs(memberId.hashCode() % T)``), the current
assignment is kept where a member has room (``ceil(T / M)``) and hashing did not place the
partition, and the partitions left go round robin to members with room (one over the count is
allowed). Heterogeneous groups: each member hashed onto one of its own partitions, the
partitions nobody hashed to and nobody held go round robin among each topic's subscribers,
then the current assignment is added back where the member still subscribes and hashing did
not place the partition. Method names follow Kafka's; iteration orders are Java's
(``HashMap<String, ...>`` of members, ``HashMap<TopicIdPartition, ...>`` of the current
assignment, ``LinkedHashSet`` s).
"""

from __future__ import annotations

from kpart._java.collections import JavaHashMap
from kpart._java.hashing import string_hash_code
from kpart._java.topic_id_partition import topic_id_partition_hash
from kpart.consumer.coordinator.server_spec import Target
from kpart.consumer.share.share_group_spec import ShareGroupSpec
from kpart.errors import PartitionAssignorError

__all__ = ["assign_kafka_4_1"]

TopicIdPartition = tuple[int, int]


def _target_partitions(spec: ShareGroupSpec, topic_ids: tuple[int, ...]) -> list[TopicIdPartition]:
    return [(tid, p) for tid in topic_ids for p in range(spec.group.num_partitions(tid))
            if spec.is_partition_assignable(tid, p)]


def _current_assignment(spec: ShareGroupSpec, member_ids: list[str]
                        ) -> JavaHashMap[TopicIdPartition, list[str]]:
    """``currentAssignment(groupSpec)``: a ``new HashMap<>()`` filled with ``computeIfAbsent``."""
    by_id = {m.member_id: m for m in spec.members}
    out: JavaHashMap[TopicIdPartition, list[str]] = JavaHashMap(hash_of=topic_id_partition_hash)
    for mid in member_ids:
        for topic, parts in by_id[mid].assignment:
            tid = spec.topic_uuid(topic)
            for p in parts:
                out.compute_if_absent((tid, p), list).append(mid)
    return out


def _member_hash_assignment(member_ids: list[str], partitions: list[TopicIdPartition],
                            assignment: dict[TopicIdPartition, list[str]]) -> None:
    if partitions:
        n = len(partitions)
        for mid in member_ids:
            # Math.abs(hashCode % n): Java's % keeps the sign, so this is abs(h) % n
            index = abs(string_hash_code(mid)) % n
            assignment.setdefault(partitions[index], []).append(mid)


def _round_robin_assignment(member_ids: list[str], partitions: list[TopicIdPartition],
                            assignment: dict[TopicIdPartition, list[str]]) -> None:
    for k, tp in enumerate(partitions):
        assignment.setdefault(tp, []).append(member_ids[k % len(member_ids)])


def _round_robin_assignment_with_count(member_ids: list[str], partitions: list[TopicIdPartition],
                                       final: dict[str, set[TopicIdPartition]],
                                       desired: int) -> None:
    copy = list(member_ids)  # LinkedHashSet: removal only through the iterator
    items, pos = list(copy), 0
    k = 0
    while k < len(partitions):
        if pos >= len(items):
            items, pos = list(copy), 0
            if not copy:
                raise PartitionAssignorError("Inconsistent number of member IDs")
        mid = items[pos]
        pos += 1
        owned = final.setdefault(mid, set())
        if len(owned) <= desired:
            owned.add(partitions[k])
            k += 1
        else:
            copy.remove(mid)


def _homogeneous(spec: ShareGroupSpec, member_ids: list[str]) -> Target:
    first = next(m for m in spec.members if m.member_id == member_ids[0])
    if not first.topics:
        return {}
    topic_ids = spec.group.subscribed_topic_ids(first, copied_names=True)
    subscribed = set(topic_ids)
    targets = _target_partitions(spec, topic_ids)
    current = _current_assignment(spec, member_ids)
    desired = (len(targets) + len(member_ids) - 1) // len(member_ids)
    new: dict[TopicIdPartition, list[str]] = {}
    _member_hash_assignment(member_ids, targets, new)
    final: dict[str, set[TopicIdPartition]] = {}
    by_partition: dict[TopicIdPartition, set[str]] = {}
    for tp, mids in new.items():
        for mid in mids:
            final.setdefault(mid, set()).add(tp)
            by_partition.setdefault(tp, set()).add(mid)
    for tp, mids in current.items():
        if tp[0] in subscribed:
            for mid in mids:
                owned = final.setdefault(mid, set())
                if len(owned) < desired and tp not in new:
                    owned.add(tp)
                    by_partition.setdefault(tp, set()).add(mid)
    unassigned = [tp for tp in targets if tp not in by_partition]
    _round_robin_assignment_with_count(member_ids, unassigned, final, desired)
    return _group_assignment(final)


def _heterogeneous(spec: ShareGroupSpec, member_ids: list[str]) -> Target:
    by_id = {m.member_id: m for m in spec.members}
    subscriptions: JavaHashMap[str, list[TopicIdPartition]] = JavaHashMap()
    for mid in member_ids:
        m = by_id[mid]
        if m.topics:
            subscriptions.put(mid, _target_partitions(
                spec, spec.group.subscribed_topic_ids(m, copied_names=True)))
    entries = subscriptions.items()
    current = _current_assignment(spec, member_ids)
    targets = list(dict.fromkeys(tp for _, parts in entries for tp in parts))
    subscribers: dict[int, list[str]] = {}  # LinkedHashSet per topic
    for mid, parts in entries:
        for tp in parts:
            members = subscribers.setdefault(tp[0], [])
            if mid not in members:
                members.append(mid)
    new: dict[TopicIdPartition, list[str]] = {}
    for mid, parts in entries:
        _member_hash_assignment([mid], parts, new)
    unassigned: dict[int, list[TopicIdPartition]] = {}
    for tp in targets:
        if tp not in new and tp not in current:
            unassigned.setdefault(tp[0], []).append(tp)
    for tid, parts in unassigned.items():
        _round_robin_assignment(subscribers[tid], parts, new)
    final: dict[str, set[TopicIdPartition]] = {}
    for tp, mids in new.items():
        for mid in mids:
            final.setdefault(mid, set()).add(tp)
    for tp, mids in current.items():
        for mid in mids:
            if mid in subscribers.get(tp[0], ()) and tp not in new:
                final.setdefault(mid, set()).add(tp)
    return _group_assignment(final)


def _group_assignment(final: dict[str, set[TopicIdPartition]]) -> Target:
    out: Target = {}
    for mid, tps in final.items():
        by_topic: dict[int, list[int]] = {}
        for tid, p in sorted(tps):
            by_topic.setdefault(tid, []).append(p)
        out[mid] = list(by_topic.items())
    return out


def assign_kafka_4_1(spec: ShareGroupSpec) -> Target:
    """Kafka 4.1's ``SimpleAssignor.assign``: member id → ``[(topic id, [partitions])]``
    (content only: the order is not Kafka's). Raises
    :class:`~kpart.errors.PartitionAssignorError` where Kafka throws
    ``PartitionAssignorException``."""
    member_ids = [m.member_id for m in spec.group.members_in_map_order()]
    if not member_ids:
        return {}
    if spec.subscription_type == "HOMOGENEOUS":
        return _homogeneous(spec, member_ids)
    return _heterogeneous(spec, member_ids)
