"""``org.apache.kafka.coordinator.group.assignor.UniformHomogeneousAssignmentBuilder`` (KIP-848).

The uniform assignor's builder for a group whose members all subscribe to the same topics.
Balance first, then stickiness:

1. The subscribed topics are walked in ``HashSet<Uuid>`` iteration order; their partitions
   that nobody currently owns form the initial *unassigned* list (partition order).
2. Quota: ``total // members`` each, and ``total % members`` members get one more: up to
   Kafka 4.0.0 the first ones in member order; from 4.0.1 (KAFKA-18688, PR #19677) the members
   whose current partitions already fill the extra slot, then the last members in order (a
   member offered the slot gives it up in step 3 unless it fills it or too few members remain).
3. Walking members in order, each keeps its current partitions (topics in its assignment's
   map order, partitions in set order) up to its quota; partitions over the quota are
   appended to the unassigned list; topics no longer subscribed are dropped. Members below
   quota are remembered with their remaining quota.
4. The unassigned list is dealt out in order to the members below quota, in member order,
   each taking its remaining quota.

Members are walked in ``GroupSpec.memberIds()`` order
(:meth:`~kpart.consumer.coordinator.server_spec.ServerGroupSpec.members_in_map_order`) and their
``assignment`` lists are in Java iteration order, so the result is exact. Each member's result
is a :class:`~kpart.consumer.coordinator._target_maps.TargetMap` (the input map, or a deep copy when
altered) so its Java iteration order is known too.
"""

from __future__ import annotations

from kpart._java.collections import JavaHashSet
from kpart._java.hashing import hashset_copy_capacity
from kpart._java.uuid import uuid_hash_code
from kpart.consumer.coordinator._target_maps import TargetMap
from kpart.consumer.coordinator.server_spec import ServerGroupSpec, ServerMember
from kpart.errors import PartitionAssignorError

#: member id → [(topic id, [partition, ...]), ...] in Java iteration order.
Assignment = dict[str, list[tuple[int, list[int]]]]


def current_assignment(spec: ServerGroupSpec) -> Assignment:
    """Every member's current assignment as ``[(topic id, [partitions])]`` in given order."""
    return {
        m.member_id: [(spec.topic_uuid(t), list(ps)) for t, ps in m.assignment]
        for m in spec.members_in_map_order()
    }


def subscribed_topic_ids(spec: ServerGroupSpec, first: ServerMember,
                          copied_names: bool = False) -> list[int]:
    """``new HashSet<>(subscribedTopicIds())`` in iteration order: sized from the view's
    ``size()``, which counts every subscribed name, even one missing from the metadata
    (``copied_names``: see :meth:`ServerGroupSpec.subscribed_topic_ids`)."""
    topic_set: JavaHashSet[int] = JavaHashSet(
        hashset_copy_capacity(spec.subscription_size(first)), hash_of=uuid_hash_code
    )
    for tid in spec.subscribed_topic_ids(first, copied_names):
        topic_set.add(tid)
    return list(topic_set)


def _unassigned_partitions(
    spec: ServerGroupSpec, subscribed: list[int], old: Assignment
) -> tuple[list[tuple[int, int]], int]:
    """The subscribed partitions no member currently owns (``isPartitionAssigned``), in
    topic then partition order, and the total partition count."""
    assigned: set[tuple[int, int]] = {
        (tid, p) for parts in old.values() for tid, ps in parts for p in ps
    }
    unassigned: list[tuple[int, int]] = []
    total = 0
    for tid in subscribed:
        n = spec.num_partitions(tid)
        if n == -1:  # pragma: no cover - ids come from the metadata
            raise PartitionAssignorError(
                f"Members are subscribed to topic {tid} which doesn't exist in the topic metadata."
            )
        unassigned.extend((tid, p) for p in range(n) if (tid, p) not in assigned)
        total += n
    return unassigned, total


def _maybe_revoke_partitions(
    members: tuple[ServerMember, ...],
    old: Assignment,
    subscribed: set[int],
    total: int,
    unassigned: list[tuple[int, int]],
    extra_to_last: bool = False,
) -> tuple[dict[str, TargetMap], list[tuple[str, int]]]:
    """``maybeRevokePartitions``: each member keeps its current partitions up to its quota;
    the rest join ``unassigned``. Returns the targets and the members below quota with their
    remaining quota.

    Who gets the ``total % members`` extra partitions: up to Kafka 4.0.0 the first members in
    order (``extra_to_last=False``); from 4.0.1 (KAFKA-18688) a member offered the extra slot
    keeps it only if its current partitions fill it, or if it is one of the last members that
    must take the remaining extra slots."""
    min_quota, extra = divmod(total, len(members))
    target: dict[str, TargetMap] = {}
    unfilled: list[tuple[str, int]] = []
    count = len(members)
    for index, m in enumerate(members):
        quota = min_quota
        has_extra = False
        if extra > 0:
            quota += 1
            has_extra = True
            if not extra_to_last:
                extra -= 1
        current = TargetMap(old[m.member_id])
        for tid, ps in old[m.member_id]:
            if tid not in subscribed:
                current.remove_topic(tid)
            elif len(ps) <= quota:
                quota -= len(ps)
            else:
                for p in ps[quota:]:
                    current.remove(tid, p)
                    unassigned.append((tid, p))
                quota = 0
        if extra_to_last:
            if quota > 0 and has_extra and count - index > extra:
                # Give the extra slot up for a later member, unless this member is one of
                # the last `extra` members, which must take the remaining extra slots.
                quota -= 1
                has_extra = False
            if has_extra:
                extra -= 1
        if quota > 0:
            unfilled.append((m.member_id, quota))
        target[m.member_id] = current
    return target, unfilled


def _assign_remaining_partitions(
    target: dict[str, TargetMap],
    unfilled: list[tuple[str, int]],
    unassigned: list[tuple[int, int]],
) -> None:
    """``assignRemainingPartitions``: the unassigned list dealt out in order to the members
    below quota. Raises :class:`PartitionAssignorError` when partitions are left over."""
    index = 0
    for member_id, remaining in unfilled:
        current = target[member_id]
        current.touch()  # an immutable map is deep-copied even if nothing is left to add
        for _ in range(remaining):
            if index >= len(unassigned):
                break
            tid, p = unassigned[index]
            index += 1
            current.add(tid, p)
    if index < len(unassigned):
        raise PartitionAssignorError("Partitions were left unassigned")


def build_homogeneous(spec: ServerGroupSpec, extra_to_last: bool = False,
                      copied_names: bool = False) -> Assignment:
    """Run the homogeneous builder; returns member → [(topic id, partitions)] in the Java
    iteration order of the map Kafka returns for the member. ``extra_to_last``: Kafka 4.0.1
    and later (KAFKA-18688, rule ``uniform_homogeneous`` of :mod:`kpart.versions`); the
    default is Kafka 4.0.0's builder. ``copied_names``: how the members' subscribed-name sets
    were built (rule ``subscription_names_set``). Raises :class:`~kpart.errors.PartitionAssignorError` as
    Kafka does."""
    members = spec.members_in_map_order()
    old = current_assignment(spec)
    if not members:
        return {}
    subscribed = subscribed_topic_ids(spec, members[0], copied_names)
    if not subscribed:
        return {m.member_id: [] for m in members}
    unassigned, total = _unassigned_partitions(spec, subscribed, old)
    target, unfilled = _maybe_revoke_partitions(
        members, old, set(subscribed), total, unassigned, extra_to_last
    )
    _assign_remaining_partitions(target, unfilled, unassigned)
    return {member_id: current.parts() for member_id, current in target.items()}
