"""``AbstractPartitionAssignor.MemberInfo`` ordering and the metadata view shared by the
classic (eager) assignors.

Kafka sorts the members of a group with ``MemberInfo.compareTo``: static members (with a
``group.instance.id``) first, ordered by instance id; then dynamic members ordered by member
id; both with ``String.compareTo`` (UTF-16 order, see :mod:`kpart._java.strings`).

>>> from kpart.consumer.spec import Member
>>> ms = [Member("b", ()), Member("z", (), group_instance_id="i2"),
...       Member("a", ()), Member("y", (), group_instance_id="i1")]
>>> [m.member_id for m in sort_members(ms)]
['y', 'z', 'a', 'b']
"""

from __future__ import annotations

from collections.abc import Iterable

from kpart._java.strings import java_string_key
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.spec import GroupSpec, Member

__all__ = ["canonical_assignment", "member_info_key", "partitions_per_topic", "sort_members"]


def member_info_key(member: Member) -> tuple[int, bytes]:
    """Sort key reproducing ``MemberInfo.compareTo`` (static members first)."""
    if member.group_instance_id is not None:
        return (0, java_string_key(member.group_instance_id))
    return (1, java_string_key(member.member_id))


def sort_members(members: Iterable[Member]) -> list[Member]:
    """Members in ``MemberInfo`` order (stable for ties, like ``Collections.sort``)."""
    return sorted(members, key=member_info_key)


def partitions_per_topic(group: GroupSpec) -> dict[str, int]:
    """``AbstractPartitionAssignor.assign``: partition count of every subscribed topic present
    in the metadata with at least one partition (others are skipped, as Kafka does), in
    first-subscribed order. Members with the same topic tuple are read once: large groups
    mostly share one subscription."""
    out: dict[str, int] = {}
    for topics in dict.fromkeys(m.topics for m in group.members):
        for t in topics:
            if t not in out:
                n = group.num_partitions(t)
                if n:
                    out[t] = n
    return out


def canonical_assignment(
    out: dict[str, dict[str, list[int]]], *, presorted: bool = False
) -> GroupAssignment:
    """A :class:`GroupAssignment` from ``member → {topic: [partitions]}`` (members in the given
    order; topics and partitions sorted, as :meth:`GroupAssignment.from_pairs` does).
    ``presorted``: the caller guarantees topics were inserted in sorted order and partition
    lists are sorted (skips the sorting)."""
    if presorted:
        return GroupAssignment(
            tuple(
                (m, tuple((t, tuple(ps)) for t, ps in by_topic.items() if ps))
                for m, by_topic in out.items()
            )
        )
    return GroupAssignment(
        tuple(
            (m, tuple((t, tuple(sorted(ps))) for t, ps in sorted(by_topic.items()) if ps))
            for m, by_topic in out.items()
        )
    )
