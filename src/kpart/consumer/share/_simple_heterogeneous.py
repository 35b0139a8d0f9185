"""``org.apache.kafka.coordinator.group.assignor.SimpleHeterogeneousAssignmentBuilder`` (KIP-932, Kafka 4.2+).

Members subscribe to different topics. Each subscribed topic is balanced on its own
(``TopicAssignmentPartialBuilder``) among the members subscribed to it: desired sharing
``ceil(S / T)`` (``S`` subscribed members, ``T`` assignable partitions of the topic), desired
counts per member, then the steps of the homogeneous builder on that topic's
``HashMap<Integer, Set<Integer>>`` of partitions. A member keeps the partitions of a topic
nobody subscribes to any more (the builder never visits that topic). Method names follow
Kafka's; iteration orders are Java's (:mod:`kpart._java.collections`).
"""

from __future__ import annotations

from kpart._java.collections import JavaHashMap, JavaHashSet
from kpart._java.topic_id_partition import assignor_helpers_capacity
from kpart._java.uuid import uuid_hash_code
from kpart.consumer.coordinator.server_spec import Target
from kpart.consumer.share._assignment_maps import (
    Assignment,
    Copied,
    MemberIterator,
    deep_copy,
    desired_counts,
    old_assignments,
)
from kpart.consumer.share.share_group_spec import ShareGroupSpec

__all__ = ["build_heterogeneous"]


class _Builder:
    def __init__(self, spec: ShareGroupSpec) -> None:
        members = spec.group.members_in_map_order()
        self.member_ids = [m.member_id for m in members]
        self.num_group_members = len(members)
        topic_ids: JavaHashSet[int] = JavaHashSet(hash_of=uuid_hash_code)
        self.subscribed_members_by_topic: dict[int, list[int]] = {}
        for i, m in enumerate(members):
            for tid in spec.group.subscribed_topic_ids(m, copied_names=True):
                topic_ids.add(tid)
                self.subscribed_members_by_topic.setdefault(tid, []).append(i)
        self.subscribed_topic_ids = list(topic_ids)
        self.target_partitions_by_topic = {
            tid: [p for p in range(spec.group.num_partitions(tid))
                  if spec.is_partition_assignable(tid, p)]
            for tid in self.subscribed_topic_ids
        }
        self.old: list[Assignment] = old_assignments(spec, self.member_ids)
        self.new: dict[int, Copied] = {}

    def copy_of(self, i: int) -> Copied:
        found = self.new.get(i)
        if found is None:
            found = self.new[i] = deep_copy(self.old[i])
        return found

    def build(self) -> Target:
        if not self.subscribed_topic_ids:
            return {}
        for tid in self.subscribed_topic_ids:
            _TopicAssignmentPartialBuilder(self, tid).build()
        out: Target = {}
        for i, member_id in enumerate(self.member_ids):
            a = self.new.get(i)
            out[member_id] = ([(t, list(ps)) for t, ps in a.items()] if a is not None
                              else list(self.old[i].items()))
        return out


class _TopicAssignmentPartialBuilder:
    def __init__(self, group: _Builder, topic_id: int) -> None:
        self.group = group
        self.topic_id = topic_id
        self.target_partitions = group.target_partitions_by_topic[topic_id]
        self.subscribed_members = group.subscribed_members_by_topic[topic_id]
        t, s = len(self.target_partitions), len(self.subscribed_members)
        self.final_by_partition: JavaHashMap[int, JavaHashSet[int]] = JavaHashMap(
            assignor_helpers_capacity(t))
        self.final_by_member: JavaHashMap[int, JavaHashSet[int]] = JavaHashMap(
            assignor_helpers_capacity(s))
        self.desired_sharing = 0 if t == 0 else (s + t - 1) // t
        self.desired_assignment_counts = [0] * group.num_group_members
        for k, c in enumerate(desired_counts(self.desired_sharing, t, s)):
            self.desired_assignment_counts[self.subscribed_members[k]] = c

    def build(self) -> None:
        self.revoke_unassignable_partitions()
        self.revoke_overfilled_members()
        self.revoke_overshared_partitions()
        # (the sets added here are never iterated, only their keys' order matters: plain sets)
        for p in self.target_partitions:
            self.final_by_partition.compute_if_absent(p, set)  # type: ignore[arg-type]
        self.assign_remaining_partitions()

    def revoke_unassignable_partitions(self) -> None:
        # (the topic is always subscribed here: Java's else-branch never runs)
        tid = self.topic_id
        for i, old in enumerate(self.group.old):
            parts = old.get(tid)
            if parts is not None:
                for p in parts:
                    self.final_by_partition.compute_if_absent(p, JavaHashSet).add(i)
                    self.final_by_member.compute_if_absent(i, JavaHashSet).add(p)

    def revoke_overfilled_members(self) -> None:
        for i, assigned in self.final_by_member.items():
            desired = self.desired_assignment_counts[i]
            if len(assigned) > desired:
                for p in list(assigned):
                    if len(assigned) <= desired:
                        break
                    by_partition = self.final_by_partition.get(p)
                    assert by_partition is not None
                    by_partition.remove(i)
                    assigned.remove(p)
                    parts = self.group.copy_of(i).get(self.topic_id)
                    assert parts is not None
                    parts.remove(p)

    def revoke_overshared_partitions(self) -> None:
        sharing = self.desired_sharing
        for p, assigned in self.final_by_partition.items():
            count = len(assigned)
            if count > sharing:
                for i in list(assigned):
                    parts = self.group.copy_of(i).get(self.topic_id)
                    if parts is not None and p in parts:
                        parts.remove(p)
                        count -= 1
                        assigned.remove(i)
                        final = self.final_by_member.get(i)
                        assert final is not None
                        final.remove(p)
                    if count <= sharing:
                        break

    def assign_remaining_partitions(self) -> None:
        counts = self.desired_assignment_counts
        added: dict[int, set[int]] = {}  # members' sets made here: only their sizes matter
        unfilled: set[int] = set()
        for i in self.subscribed_members:
            assigned = self.final_by_member.get(i)
            if (0 if assigned is None else len(assigned)) < counts[i]:
                unfilled.add(i)
        where = "SimpleHeterogeneousAssignmentBuilder.assignRemainingPartitions"
        it = MemberIterator(unfilled)
        assigned_this_round = False
        sharing = self.desired_sharing
        for p, members_assigned in self.final_by_partition.items():
            if len(members_assigned) < sharing:
                to_make = sharing - len(members_assigned)
                while to_make > 0:
                    if not it.has_next():
                        if not assigned_this_round:
                            break
                        it = MemberIterator(unfilled)
                        assigned_this_round = False
                    i = it.next(where)
                    if i not in members_assigned:
                        self.group.copy_of(i).compute_if_absent(self.topic_id, JavaHashSet).add(p)
                        final: JavaHashSet[int] | set[int] | None = self.final_by_member.get(i)
                        if final is None:
                            final = added.setdefault(i, set())
                        final.add(p)
                        to_make -= 1
                        assigned_this_round = True
                        if len(final) >= counts[i]:
                            it.remove()
            if not unfilled:
                break


def build_heterogeneous(spec: ShareGroupSpec) -> Target:
    """``new SimpleHeterogeneousAssignmentBuilder(groupSpec, describer).build()``: member id →
    ``[(topic id, [partitions])]`` (an empty dict: ``Map.of()``, every member gets nothing).
    Raises :class:`~kpart.errors.NoSuchElementError` where Kafka throws
    ``NoSuchElementException``."""
    return _Builder(spec).build()
