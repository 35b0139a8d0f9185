"""``org.apache.kafka.coordinator.group.assignor.SimpleHomogeneousAssignmentBuilder`` (KIP-932, Kafka 4.2+).

Every member subscribes to the same topics. Each target partition should be shared by
``desiredSharing = ceil(M / T)`` members (``T`` assignable partitions, ``M`` members) and
member ``i`` hold ``desiredAssignmentCount[i]`` partitions. Steps, as in Java: revoke
partitions of topics no longer subscribed, revoke from overfilled members, revoke over-shared
partitions, then walk the partitions (``HashMap<TopicIdPartition, Set<Integer>>`` order)
handing under-shared ones to unfilled members in ascending index order. Method names follow
Kafka's. Iteration orders are Java's (:mod:`kpart._java.collections`,
:mod:`kpart._java.topic_id_partition`).
"""

from __future__ import annotations

from kpart._java.collections import JavaHashMap, JavaHashSet
from kpart._java.topic_id_partition import assignor_helpers_capacity, topic_id_partition_hash
from kpart.consumer.coordinator.server_spec import Target
from kpart.consumer.share._assignment_maps import (
    Copied,
    MemberIterator,
    deep_copy,
    desired_counts,
    old_assignments,
)
from kpart.consumer.share.share_group_spec import ShareGroupSpec

__all__ = ["build_homogeneous"]

TopicIdPartition = tuple[int, int]


def _tip_set() -> JavaHashSet[TopicIdPartition]:
    return JavaHashSet(hash_of=topic_id_partition_hash)


class _Builder:
    def __init__(self, spec: ShareGroupSpec) -> None:
        members = spec.group.members_in_map_order()
        self.member_ids = [m.member_id for m in members]
        self.num_group_members = m = len(members)
        self.subscribed_names = members[0].topics
        self.subscribed_topic_ids = spec.group.subscribed_topic_ids(members[0], copied_names=True)
        self.subscribed = set(self.subscribed_topic_ids)
        self.target_partitions = [
            (tid, p) for tid in self.subscribed_topic_ids
            for p in range(spec.group.num_partitions(tid)) if spec.is_partition_assignable(tid, p)
        ]
        t = len(self.target_partitions)
        self.desired_sharing = 0 if t == 0 else (m + t - 1) // t
        self.desired_assignment_count = desired_counts(self.desired_sharing, t, m)
        self.old = old_assignments(spec, self.member_ids)
        self.new: dict[int, Copied] = {}
        self.final_by_partition: JavaHashMap[TopicIdPartition, JavaHashSet[int]] = JavaHashMap(
            assignor_helpers_capacity(t), hash_of=topic_id_partition_hash)
        self.final_by_member: dict[int, JavaHashSet[TopicIdPartition]] = {}
        self.unfilled: set[int] = set()
        self.overfilled: set[int] = set()

    def _copy(self, i: int) -> Copied:
        found = self.new.get(i)
        if found is None:
            found = self.new[i] = deep_copy(self.old[i])
        return found

    def build(self) -> Target:
        if not self.subscribed_names:  # TopicIds.isEmpty(): the names, resolved or not
            return {}
        self.revoke_unassignable_partitions()
        self.revoke_overfilled_members()
        self.revoke_overshared_partitions()
        for tp in self.target_partitions:
            self.final_by_partition.compute_if_absent(tp, JavaHashSet)
        self.assign_remaining_partitions()
        out: Target = {}
        for i, member_id in enumerate(self.member_ids):
            a = self.new.get(i)
            out[member_id] = ([(t, list(ps)) for t, ps in a.items()] if a is not None
                              else list(self.old[i].items()))
        return out

    def revoke_unassignable_partitions(self) -> None:
        for i in range(self.num_group_members):
            old = self.old[i]
            new: Copied | None = None
            count = 0
            desired = self.desired_assignment_count[i]
            for tid, parts in old.items():
                if tid in self.subscribed:
                    for p in parts:
                        tp = (tid, p)
                        count += 1
                        self.final_by_partition.compute_if_absent(tp, JavaHashSet).add(i)
                        self.final_by_member.setdefault(i, _tip_set()).add(tp)
                        if count >= desired and new is None:
                            new = deep_copy(old)
                else:
                    if new is None:
                        new = deep_copy(old)
                    new.remove(tid)
            if new is not None:
                self.new[i] = new
            if count < desired:
                self.unfilled.add(i)
            elif count > desired:
                self.overfilled.add(i)

    def revoke_overfilled_members(self) -> None:
        for i in sorted(self.overfilled):  # HashSet<Integer> presized for every member
            desired = self.desired_assignment_count[i]
            final = self.final_by_member[i]
            if len(final) > desired:
                for tp in list(final):
                    parts = self.new[i].get(tp[0])
                    assert parts is not None
                    parts.remove(tp[1])
                    by_partition = self.final_by_partition.get(tp)
                    assert by_partition is not None
                    by_partition.remove(i)
                    final.remove(tp)
                    if len(final) == desired:
                        break

    def revoke_overshared_partitions(self) -> None:
        sharing = self.desired_sharing
        for tp, assigned in self.final_by_partition.items():
            count = len(assigned)
            if count > sharing:
                for i in list(assigned):
                    parts = self._copy(i).get(tp[0])
                    if parts is not None and tp[1] in parts:
                        parts.remove(tp[1])
                        count -= 1
                        assigned.remove(i)
                        self.final_by_member[i].remove(tp)
                        self.unfilled.add(i)
                    if count <= sharing:
                        break

    def assign_remaining_partitions(self) -> None:
        if not self.unfilled:
            return
        where = "SimpleHomogeneousAssignmentBuilder.assignRemainingPartitions"
        it = MemberIterator(self.unfilled)
        assigned_this_round = False
        sharing = self.desired_sharing
        for tp, members_assigned in self.final_by_partition.items():
            if len(members_assigned) < sharing:
                to_make = sharing - len(members_assigned)
                while to_make > 0:
                    if not it.has_next():
                        if not assigned_this_round:
                            break
                        it = MemberIterator(self.unfilled)
                        assigned_this_round = False
                    i = it.next(where)
                    if i not in members_assigned:
                        self._copy(i).compute_if_absent(tp[0], JavaHashSet).add(tp[1])
                        # (a set made here is never iterated: a plain set will do)
                        final = self.final_by_member.setdefault(i, set())  # type: ignore[arg-type]
                        final.add(tp)
                        to_make -= 1
                        assigned_this_round = True
                        if len(final) >= self.desired_assignment_count[i]:
                            it.remove()
            if not self.unfilled:
                break


def build_homogeneous(spec: ShareGroupSpec) -> Target:
    """``new SimpleHomogeneousAssignmentBuilder(groupSpec, describer).build()``: member id →
    ``[(topic id, [partitions])]`` (an empty dict: ``Map.of()``, every member gets nothing).
    Raises :class:`~kpart.errors.NoSuchElementError` where Kafka throws
    ``NoSuchElementException``."""
    return _Builder(spec).build()
