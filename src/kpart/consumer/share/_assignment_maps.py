"""What both ``Simple*AssignmentBuilder`` s share: Java's member numbering, the current
assignments as maps, ``AssignorHelpers.deepCopyAssignment`` (Java's iteration orders kept), and the member iterator of
``assignRemainingPartitions`` (a ``HashSet<Integer>`` iterator, removal through it)."""

from __future__ import annotations

from kpart._java.collections import JavaHashMap, JavaHashSet
from kpart._java.uuid import uuid_hash_code
from kpart.consumer.share.share_group_spec import ShareGroupSpec
from kpart.errors import NoSuchElementError

#: One member's assignment: topic id → partitions (a ``Map<Uuid, Set<Integer>>``; the order of
#: the old ones is the recorded Java iteration order).
Assignment = dict[int, list[int]]


def old_assignments(spec: ShareGroupSpec, member_ids: list[str]) -> list[Assignment]:
    """``oldGroupAssignment``: each member's current assignment, by member index."""
    by_id = {m.member_id: m for m in spec.members}
    return [{spec.topic_uuid(t): list(ps) for t, ps in by_id[m].assignment} for m in member_ids]


#: A member's new assignment as the builders hold it: ``HashMap<Uuid, Set<Integer>>`` in Java's
#: iteration order (the order the coordinator writes the target record in, which is the order
#: the next assignment reads it back in).
Copied = JavaHashMap[int, JavaHashSet[int]]


def deep_copy(old: Assignment) -> Copied:
    """``AssignorHelpers.deepCopyAssignment``: ``new HashMap<>(size)`` of ``new HashSet<>(ps)``
    per topic, filled in ``old``'s iteration order."""
    copy: Copied = JavaHashMap(len(old), hash_of=uuid_hash_code)
    for t, ps in old.items():
        copy.put(t, JavaHashSet.copy_of(ps))
    return copy


def desired_counts(desired_sharing: int, num_partitions: int, num_members: int) -> list[int]:
    """``desiredAssignmentCount`` of members 0 .. ``num_members - 1`` (Java's ``double``
    arithmetic: ``ceil(p * (i + 1)) - ceil(p * i)``, ``p = sharing * partitions / members``)."""
    import math

    precise = desired_sharing * num_partitions / float(num_members)
    return [math.ceil(precise * float(i + 1)) - math.ceil(precise * float(i))
            for i in range(num_members)]


class MemberIterator:
    """``unfilledMembers.iterator()`` over a ``HashSet<Integer>`` of member indices presized
    for every member (``AssignorHelpers.newHashSet(M)``: iteration is ascending), with
    ``remove()``; :meth:`next` on an exhausted iterator raises Kafka's
    ``NoSuchElementException``."""

    __slots__ = ("_items", "_pos", "_set")

    def __init__(self, members: set[int]) -> None:
        self._set = members
        self._items = sorted(members)
        self._pos = 0

    def has_next(self) -> bool:
        return self._pos < len(self._items)

    def next(self, where: str) -> int:
        if self._pos >= len(self._items):
            raise NoSuchElementError(
                f"java.util.NoSuchElementException in {where}: Kafka's share-group assignor "
                "takes a member from an emptied set of unfilled members (a genuine failure of "
                "Kafka's SimpleAssignor for this group; the coordinator reports an unexpected "
                "server error)")
        self._pos += 1
        return self._items[self._pos - 1]

    def remove(self) -> None:
        self._set.discard(self._items[self._pos - 1])
