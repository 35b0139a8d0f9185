"""``AbstractStickyAssignor`` of Kafka 2.4.0 – 2.5.0 (KIP-429 split it out of ``StickyAssignor``),
with ``StickyAssignor`` / ``CooperativeStickyAssignor`` and ``AbstractPartitionAssignor`` of those
releases: a straight object port, Java's iteration orders kept.

One algorithm for every group (the "general" one): each member's previous partitions (sticky:
its user data, with its generation; cooperative-sticky: ``Subscription.ownedPartitions``, no
generation) are kept where still valid, the others are given, partition by partition, to the
least-loaded subscriber, then partitions move from members with 2+ more partitions than
another subscriber until balanced; the moves are kept only if the balance score improved. In
2.4 the reassignment order of an existing group whose members all subscribe to the same topics
is "round robin over the members, most loaded first" (``sortPartitions``, dropped in 2.5.1).
Cooperative-sticky then withholds every partition that changes owner (``adjustAssignment``).

Results depend on ``java.util.HashMap`` orders: members in the bucket order of their ids over
``GroupSpec.members`` (the leader's subscription map), partitions in ``TopicPartition`` hash
order (``prepopulateCurrentAssignments``, ``partition2AllPotentialConsumers``), the first
element of a ``HashSet<TopicPartition>`` (``PartitionMovements``): emulated with
:mod:`kpart._java.hashing` / :mod:`kpart._java.collections`.

Source: apache/kafka tag 2.4.1, ``clients/src/main/java/org/apache/kafka/clients/consumer/
internals/AbstractStickyAssignor.java`` (identical in 2.4.0 – 2.5.0). The building blocks here
(:class:`GeneralAssign`, :func:`leader_inputs`, :func:`group_result`) are reused by the later
2.x lines, whose general path differs only in ``sortPartitions``.

>>> from kpart.consumer.spec import GroupSpec
>>> g = GroupSpec.from_json({"topics": {"t": 4}, "members": [
...     {"id": "a", "topics": ["t"], "generation": 3, "owned": [["t", [0, 1, 2, 3]]]},
...     {"id": "b", "topics": ["t"]}]})
>>> r = assign(g, cooperative=True)
>>> r.as_dict(), dict(r.revoked)
({'a': {'t': [0, 1]}, 'b': {}}, {'a': (('t', (2, 3)),)})
>>> assign(g, cooperative=False).as_dict()
{'a': {'t': [0, 1]}, 'b': {'t': [2, 3]}}
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from kpart._java.collections import JavaHashMap
from kpart._java.hashing import hashmap_order
from kpart._java.strings import java_string_key
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.classic._partition_movements import PartitionMovements
from kpart.consumer.spec import GroupSpec, Member
from kpart.errors import AssignmentError

__all__ = [
    "DEFAULT_GENERATION",
    "GeneralAssign",
    "LeaderInputs",
    "MemberData",
    "NullPointerError",
    "assign",
    "cooperative_member_data",
    "group_result",
    "leader_inputs",
    "run_assignor",
    "sticky_member_data",
    "transferring_ownership",
]

DEFAULT_GENERATION = -1
TP = tuple[str, int]


@dataclass(frozen=True, slots=True)
class MemberData:
    """``AbstractStickyAssignor.MemberData``: previous partitions (in decoded order) and
    generation (``None`` = ``Optional.empty()``)."""

    partitions: tuple[TP, ...]
    generation: int | None


def sticky_member_data(member: Member) -> MemberData:
    """``StickyAssignor.memberData`` (2.4 – 2.8): the user data's previous assignment and
    generation; nothing, and no generation, for a member without user data."""
    if not member.has_user_data:
        return MemberData((), None)
    return MemberData(member.owned_pairs, member.generation)


def cooperative_member_data(member: Member) -> MemberData:
    """``CooperativeStickyAssignor.memberData`` (2.4 – 2.8.0): ``ownedPartitions``, never a
    generation."""
    return MemberData(member.owned_pairs, None)


@dataclass(frozen=True, slots=True)
class LeaderInputs:
    """What ``AbstractPartitionAssignor.assign(Cluster, GroupSubscription)`` hands the sticky
    algorithm: ``partitions_per_topic`` (topics some member subscribes to with ≥ 1 partition in
    the metadata, in the ``HashMap``'s order) and the members in the subscription map's order."""

    partitions_per_topic: dict[str, int]
    members: tuple[Member, ...]


def leader_inputs(group: GroupSpec) -> LeaderInputs:
    """The leader's ``partitionsPerTopic`` and subscription order for ``group``."""
    by_id = {m.member_id: m for m in group.members}
    members = tuple(by_id[i] for i in hashmap_order([m.member_id for m in group.members]))
    subscribed = hashmap_order([t for m in members for t in m.topics])  # HashSet<String>
    counts = {}
    for t in subscribed:
        n = group.num_partitions(t)
        if n is not None and n > 0:
            counts[t] = n
    return LeaderInputs({t: counts[t] for t in hashmap_order(list(counts))}, members)


def transferring_ownership(
    members: Sequence[Member], assignment: Mapping[str, list[TP]]
) -> dict[TP, str]:
    """Partitions newly assigned to a member while another member owned them (cooperative
    ``adjustAssignment`` 2.4 / ``computePartitionsTransferringOwnership`` 2.5.1+; the same
    result): partition → its new member. ``assignment`` in the final map's order."""
    owned = {m.member_id: m.owned_pairs for m in members}
    added: dict[TP, str] = {}
    revoked: set[TP] = set()
    for c, assigned in assignment.items():
        owned_set = set(owned[c])
        for tp in assigned:
            if tp not in owned_set:
                added[tp] = c
        assigned_set = set(assigned)
        revoked.update(tp for tp in owned[c] if tp not in assigned_set)
    return {tp: c for tp, c in added.items() if tp in revoked}


def group_result(
    group: GroupSpec,
    assignment: Mapping[str, list[TP]],
    moving: Mapping[TP, str] | None,
) -> GroupAssignment:
    """The leader's ``GroupAssignment`` for ``group``: ``assignment`` as the assignor returned
    it; ``moving`` (cooperative only, else ``None``): partitions withheld from their new member
    this round (``List.remove``: one occurrence). ``revoked``: per member, the owned partitions
    it does not keep (cooperative)."""
    lists = {c: list(tps) for c, tps in assignment.items()}
    revoked: dict[str, list[TP]] = {}
    if moving is not None:
        for tp, c in moving.items():
            mine = lists[c]
            if tp in mine:
                mine.remove(tp)
        for m in group.members:
            kept = set(lists.get(m.member_id, ()))
            gone = [tp for tp in dict.fromkeys(m.owned_pairs) if tp not in kept]
            if gone:
                revoked[m.member_id] = gone
    return GroupAssignment.from_pairs([m.member_id for m in group.members], lists, revoked)


class _SortedMembers:
    """``TreeSet<String>`` ordered by ``SubscriptionComparator(map)``: (size of the member's
    list in ``map`` now, member id in ``String.compareTo`` order). Like Java's, ``add`` and
    ``remove`` look an element up by its key at the time of the call."""

    __slots__ = ("_items", "_map")

    def __init__(self, lists: Mapping[str, list[TP]]) -> None:
        self._map = lists
        self._items: list[tuple[int, bytes, str]] = []

    def _key(self, c: str) -> tuple[int, bytes, str]:
        return (len(self._map[c]), java_string_key(c), c)

    def add(self, c: str) -> None:
        key = self._key(c)
        i = bisect_left(self._items, key)
        if i == len(self._items) or self._items[i] != key:
            insort(self._items, key)

    def remove(self, c: str) -> None:
        key = self._key(c)
        i = bisect_left(self._items, key)
        if i < len(self._items) and self._items[i] == key:
            del self._items[i]

    def first(self) -> str:
        return self._items[0][2]

    def last(self) -> str:
        return self._items[-1][2]

    def poll_last(self) -> str:
        return self._items.pop()[2]

    def __bool__(self) -> bool:
        return bool(self._items)

    def members(self) -> list[str]:
        """The elements in order (a snapshot)."""
        return [k[2] for k in self._items]

    def __iter__(self) -> Iterator[str]:
        """The elements in order, live: stop iterating after changing the set."""
        return (k[2] for k in self._items)


class NullPointerError(AssignmentError):
    """Kafka's general sticky path itself fails with ``java.lang.NullPointerException`` (a
    Kafka bug, 2.4 – 2.8): it looks up the partition count of a member it set aside as unable
    to change (e.g. the previous-generation owner of a partition, now subscribed only to topics
    nobody else reads). The message is Java 17's."""

    java_class = "java.lang.NullPointerException"


NPE_MESSAGE = ('Cannot invoke "java.util.List.size()" because the return value of '
               '"java.util.Map.get(Object)" is null')


def _null_size() -> NullPointerError:
    return NullPointerError(NPE_MESSAGE)


class GeneralAssign:
    """``AbstractStickyAssignor.assign`` (2.4) / ``generalAssign`` (2.5.1+) on one group:
    ``GeneralAssign(inputs, data).run()`` returns member → partitions (Java list order) in the
    final map's order. ``data``: each member's :class:`MemberData`. Subclasses replace
    :meth:`sort_partitions` (the only step that changed between 2.4 and 2.8)."""

    def __init__(self, inputs: LeaderInputs, data: Mapping[str, MemberData]) -> None:
        self.ppt = inputs.partitions_per_topic
        self.members = inputs.members
        self.data = data
        self.topics_of = {m.member_id: m.topics for m in inputs.members}
        self.movements = PartitionMovements()  # unchanged since 2.4
        self.current: dict[str, list[TP]] = {}
        self.prev: dict[TP, tuple[str, int]] = {}  # in the HashMap's key order
        self.p2c: dict[TP, list[str]] = {}  # partition2AllPotentialConsumers, HashMap order
        self.c2p: dict[str, list[TP]] = {}  # consumer2AllPotentialPartitions
        self.c2p_set: dict[str, set[TP]] = {}
        self.owner: dict[TP, str] = {}  # currentPartitionConsumer
        self.is_fresh = True

    # -- prepopulateCurrentAssignments ----------------------------------------------------
    def _prepopulate(self) -> None:
        by_partition: JavaHashMap[TP, dict[int, str]] = JavaHashMap()
        for m in self.members:
            md = self.data[m.member_id]
            generation = DEFAULT_GENERATION if md.generation is None else md.generation
            for tp in md.partitions:
                consumers = by_partition.get(tp)
                if consumers is not None:
                    if md.generation is not None and md.generation in consumers:
                        continue  # claimed twice in one generation: Kafka logs and skips it
                    consumers[generation] = m.member_id
                else:
                    by_partition.put(tp, {generation: m.member_id})
        current: JavaHashMap[str, list[TP]] = JavaHashMap()
        prev: dict[TP, tuple[str, int]] = {}
        for tp, consumers in by_partition.items():
            generations = sorted(consumers, reverse=True)
            current.compute_if_absent(consumers[generations[0]], list).append(tp)
            if len(generations) > 1:
                prev[tp] = (consumers[generations[1]], generations[1])
        self.current = dict(current.items())
        self.prev = {tp: prev[tp] for tp in hashmap_order(list(prev))}

    # -- sortPartitions --------------------------------------------------------------------
    def sort_partitions(self) -> list[TP]:
        """``sortPartitions`` of 2.4: on an existing group whose members can all take every
        partition, round robin over the members (most loaded first, partitions that had
        another owner before first); else by number of potential members, topic, partition."""
        if not self.is_fresh and self._subscriptions_identical():
            lists = {c: [tp for tp in tps if tp in self.p2c] for c, tps in self.current.items()}
            order = _SortedMembers(lists)
            for c in lists:
                order.add(c)
            had_other = {c: [tp for tp in self.prev if tp in set(tps)] for c, tps in lists.items()}
            out: list[TP] = []
            while order:
                c = order.poll_last()
                remaining = lists[c]
                queue = had_other[c]
                if queue:
                    tp = queue.pop(0)
                    remaining.remove(tp)
                    out.append(tp)
                    order.add(c)
                elif remaining:
                    out.append(remaining.pop(0))
                    order.add(c)
            seen = set(out)
            out.extend(tp for tp in self.p2c if tp not in seen)
            return out
        return self.by_potential_consumers()

    def by_potential_consumers(self) -> list[TP]:
        """Partitions by (number of potential members, topic, partition)
        (``PartitionComparator``)."""
        p2c = self.p2c
        return sorted(p2c, key=lambda tp: (len(p2c[tp]), java_string_key(tp[0]), tp[1]))

    def _subscriptions_identical(self) -> bool:
        """``areSubscriptionsIdentical``: every partition has the same potential members and
        every member the same potential partitions (as sets)."""
        def identical(lists: list[list[TP]] | list[list[str]]) -> bool:
            sets = [set(x) for x in lists]
            return all(a == b for a, b in zip(sets, sets[1:], strict=False))
        return identical(list(self.p2c.values())) and identical(list(self.c2p.values()))

    # -- assign ----------------------------------------------------------------------------
    def run(self) -> dict[str, list[TP]]:
        self._prepopulate()
        self.is_fresh = not self.current
        ppt = self.ppt
        p2c: dict[TP, list[str]] = {tp: [] for tp in hashmap_order(
            [(t, i) for t, n in ppt.items() for i in range(n)])}
        self.p2c = p2c
        for m in self.members:
            c = m.member_id
            mine: list[TP] = []
            self.c2p[c] = mine
            for t in m.topics:
                n = ppt.get(t)
                if n is None:
                    continue
                for i in range(n):
                    mine.append((t, i))
                    p2c[(t, i)].append(c)
            self.c2p_set[c] = set(mine)
            if c not in self.current:
                self.current[c] = []
        current = self.current
        owner = self.owner
        for c, tps in current.items():
            for tp in tps:
                owner[tp] = c
        sorted_partitions = self.sort_partitions()
        kept: set[TP] = set()
        revocation_required = False
        for c, tps in current.items():  # every member of ``current`` is subscribed
            topics = self.topics_of[c]
            still: list[TP] = []
            for tp in tps:
                if tp not in p2c:
                    owner.pop(tp, None)
                elif tp[0] not in topics:
                    revocation_required = True  # (its owner entry stays, as in Kafka)
                else:
                    still.append(tp)
                    kept.add(tp)
            tps[:] = still
        unassigned = [tp for tp in sorted_partitions if tp not in kept]
        order = _SortedMembers(current)
        for c in current:
            order.add(c)
        self.order = order
        self._balance(sorted_partitions, unassigned, revocation_required)
        return self.current

    # -- balance ---------------------------------------------------------------------------
    def _balance(
        self, sorted_partitions: list[TP], unassigned: list[TP], revocation_required: bool
    ) -> None:
        current, order, p2c = self.current, self.order, self.p2c
        initializing = not current[order.last()] if order else True
        for tp in unassigned:
            if not p2c[tp]:
                continue
            for c in order:
                if tp in self.c2p_set[c]:
                    order.remove(c)
                    current[c].append(tp)
                    self.owner[tp] = c
                    order.add(c)
                    break
        fixed_partitions = {tp for tp, cs in p2c.items() if len(cs) < 2}
        sorted_partitions = [tp for tp in sorted_partitions if tp not in fixed_partitions]
        unassigned = [tp for tp in unassigned if tp not in fixed_partitions]
        fixed: dict[str, list[TP]] = {}
        for c in self.c2p:
            if not self._can_participate(c):
                order.remove(c)
                fixed[c] = current.pop(c)
        pre_balance = {c: list(tps) for c, tps in current.items()}
        pre_owner = dict(self.owner)
        if not revocation_required:
            self._perform_reassignments(unassigned)
        performed = self._perform_reassignments(sorted_partitions)
        if not initializing and performed and _score(current) >= _score(pre_balance):
            current.clear()
            current.update(pre_balance)
            self.owner.clear()
            self.owner.update(pre_owner)
        for c, tps in fixed.items():
            current[c] = tps

    def _can_participate(self, c: str) -> bool:
        tps = self.current[c]
        if len(tps) < len(self.c2p[c]):
            return True
        return any(len(self.p2c[tp]) >= 2 for tp in tps)

    def _size(self, c: str | None) -> int:
        tps = self.current.get(c) if c is not None else None
        if tps is None:
            raise _null_size()  # a member set aside (fixed), or no member at all
        return len(tps)

    def _is_balanced(self) -> bool:
        current, order = self.current, self.order
        low = len(current[order.first()])
        high = len(current[order.last()])
        if low >= high - 1:
            return True
        owner = self.owner
        for c in order.members():
            n = len(current[c])
            potential = self.c2p[c]
            if n == len(potential):
                continue
            for tp in potential:
                other = owner.get(tp)
                if other != c and self._size(other) > n:
                    return False
        return True

    def _perform_reassignments(self, partitions: list[TP]) -> bool:
        performed = False
        while True:
            modified = False
            for tp in partitions:
                if self._is_balanced():
                    break
                consumer = self.owner.get(tp)
                size = self._size(consumer)
                previous = self.prev.get(tp)
                if previous is not None and size > self._size(previous[0]) + 1:
                    self._reassign(tp, previous[0])
                    performed = modified = True
                    continue
                for other in self.p2c[tp]:
                    if size > self._size(other) + 1:
                        self._reassign_to_first_candidate(tp)
                        performed = modified = True
                        break
            if not modified:
                return performed

    def _reassign_to_first_candidate(self, tp: TP) -> None:
        for c in self.order.members():
            if tp in self.c2p_set[c]:
                self._reassign(tp, c)
                return
        raise _null_size()  # reassignPartition(..., null): TreeSet.remove(null) dereferences it

    def _reassign(self, tp: TP, new: str) -> None:
        old = self.owner[tp]
        self._move(self.movements.get_the_actual_partition_to_be_moved(tp, old, new), new)

    def _move(self, tp: TP, new: str) -> None:
        old = self.owner[tp]
        order = self.order
        order.remove(old)
        order.remove(new)
        self.movements.move_partition(tp, old, new)
        self.current[old].remove(tp)
        self.current[new].append(tp)
        self.owner[tp] = new
        order.add(new)
        order.add(old)


def _score(assignment: Mapping[str, list[TP]]) -> int:
    """``getBalanceScore``: sum over member pairs of the difference of their sizes."""
    sizes = sorted(len(tps) for tps in assignment.values())
    total = 0
    running = 0
    for i, s in enumerate(sizes):
        total += s * i - running
        running += s
    return total


def run_assignor(
    group: GroupSpec,
    cooperative: bool,
    member_data: Callable[[Member], MemberData],
    algorithm: Callable[[LeaderInputs, dict[str, MemberData]], tuple[
        dict[str, list[TP]], Mapping[TP, str] | None]],
) -> GroupAssignment:
    """Shared driver: ``algorithm(inputs, data)`` returns the assignment and, when it knows
    them, the partitions transferring ownership (``None``: computed from the result)."""
    inputs = leader_inputs(group)
    if not inputs.members:
        return GroupAssignment.from_pairs([], {})
    data = {m.member_id: member_data(m) for m in inputs.members}
    assignment, moving = algorithm(inputs, data)
    if not cooperative:
        return group_result(group, assignment, None)
    if moving is None:
        moving = transferring_ownership(inputs.members, assignment)
    return group_result(group, assignment, moving)


def assign(group: GroupSpec, *, cooperative: bool) -> GroupAssignment:
    """``StickyAssignor`` (``cooperative=False``) or ``CooperativeStickyAssignor``
    (``cooperative=True``) of Kafka 2.4.0 – 2.5.0 on ``group``: every member listed (``()``
    when it gets nothing); cooperative: ``revoked`` = owned partitions given up."""

    def algorithm(
        inputs: LeaderInputs, data: dict[str, MemberData]
    ) -> tuple[dict[str, list[TP]], None]:
        return GeneralAssign(inputs, data).run(), None

    member_data = cooperative_member_data if cooperative else sticky_member_data
    return run_assignor(group, cooperative, member_data, algorithm)
