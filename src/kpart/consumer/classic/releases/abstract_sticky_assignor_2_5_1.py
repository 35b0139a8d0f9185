"""``AbstractStickyAssignor`` of Kafka 2.5.1 – 2.8.0, with ``StickyAssignor`` /
``CooperativeStickyAssignor`` of those releases: a straight object port, Java's iteration
orders kept.

What changed from 2.4 (:mod:`.abstract_sticky_assignor_2_4`):

- KAFKA-9987 (PR #8668): when every member subscribes to the same topics, a new "constrained"
  algorithm: members keep their valid previous partitions up to ``ceil(P / N)`` (only members
  of the highest generation seen count; a member without generation counts while none has
  been seen), members below ``floor(P / N)`` are filled in member-id order from the partitions
  in (topic, partition) order, partitions are taken from full members when none are left, and
  the rest go one each to members at ``floor(P / N)``, in map order. Cooperative-sticky takes
  the partitions changing owner from this algorithm's own bookkeeping.
- KAFKA-10082 / KAFKA-10083 (PR #8777, #8786): fixes in that algorithm before its release
  (the port is of the released code).
- ``sortPartitions`` of the general path (different subscriptions): always by number of
  potential members, topic, partition (2.4's round robin for identical subscriptions is gone).
- A side effect of the new subscription check, not a documented change: it calls
  ``memberData`` for the members it scans (in map order, up to the first one whose topics
  differ), and ``StickyAssignor.memberData`` *consumes* the user data buffer. When the general
  path runs, it reads ``memberData`` again and those members have no user data left: for
  ``sticky`` they count as new members (no previous partitions, no generation).
  ``CooperativeStickyAssignor`` of these releases reads ``ownedPartitions``, unaffected.

Kafka throws ``IllegalStateException`` (kpart: :class:`~kpart.errors.AssignmentError`, same
message) when a member claims partitions beyond a topic's partition count in a way that leaves
the quotas unfillable. Two members claiming the same partition in the same generation both
keep it here (the partition is assigned twice), as in these releases; 2.8.1 fixed that.

Source: apache/kafka tag 2.5.1 / 2.8.0, ``clients/src/main/java/org/apache/kafka/clients/
consumer/internals/AbstractStickyAssignor.java`` (2.5.1 – 2.6.3 and 2.7.0 – 2.8.0 differ only in
comments and in where an unused ``PartitionMovements`` is created).

>>> from kpart.consumer.spec import GroupSpec, Member
>>> g = GroupSpec.from_json({"topics": {"t": 3}, "members": [
...     {"id": "a", "topics": ["t"], "generation": 2, "owned": [["t", [0, 1, 2]]]},
...     {"id": "b", "topics": ["t"], "generation": 1, "owned": [["t", [2]]]}]})
>>> assign(g, cooperative=False).as_dict()
{'a': {'t': [0, 1]}, 'b': {'t': [2]}}
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping

from kpart._java.strings import java_string_key
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.classic.releases.abstract_sticky_assignor_2_4 import (
    DEFAULT_GENERATION,
    GeneralAssign,
    LeaderInputs,
    MemberData,
    cooperative_member_data,
    run_assignor,
    sticky_member_data,
)
from kpart.consumer.spec import GroupSpec, Member
from kpart.errors import AssignmentError

__all__ = [
    "GeneralAssign251",
    "all_subscriptions_equal",
    "assign",
    "constrained_assign",
    "general_data",
    "sorted_topic_partitions",
    "sticky_reread",
]

TP = tuple[str, int]

UNDER_CAPACITY = "Some consumers are under capacity but all partitions have been assigned"
AT_MAX_CAPACITY = "Some partitions are unassigned but all consumers are at maximum capacity"


class GeneralAssign251(GeneralAssign):
    """``generalAssign`` of 2.5.1 – 2.8.x: 2.4's algorithm with the new ``sortPartitions``."""

    def sort_partitions(self) -> list[TP]:
        return self.by_potential_consumers()


def all_subscriptions_equal(
    inputs: LeaderInputs, data: Mapping[str, MemberData]
) -> tuple[dict[str, list[TP]] | None, int]:
    """``allSubscriptionsEqual`` (2.5.1 – 2.8.0): (member → previously owned partitions still
    valid (members of the highest generation only; partitions of topics in
    ``partitionsPerTopic``), in map order, or ``None`` when two members subscribe to different
    topics; how many members, in map order, had their ``memberData`` read)."""
    old_generation: set[str] = set()
    highest: set[str] = set()
    max_generation = DEFAULT_GENERATION
    subscribed: set[str] = set()
    owned_by: dict[str, list[TP]] = {}
    all_topics = inputs.partitions_per_topic
    for k, m in enumerate(inputs.members):
        if not subscribed:
            subscribed.update(m.topics)
        elif not (len(m.topics) == len(subscribed) and subscribed.issuperset(m.topics)):
            return None, k
        md = data[m.member_id]
        owned: list[TP] = []
        owned_by[m.member_id] = owned
        g = md.generation
        if (g is not None and g >= max_generation) or (g is None and max_generation == DEFAULT_GENERATION):
            if g is not None and g > max_generation:
                old_generation.update(highest)
                highest.clear()
                max_generation = g
            highest.add(m.member_id)
            owned.extend(tp for tp in md.partitions if tp[0] in all_topics)
    for c in old_generation:
        owned_by[c].clear()
    return owned_by, len(inputs.members)


def sorted_topic_partitions(partitions_per_topic: Mapping[str, int]) -> list[TP]:
    """``getTopicPartitions``: every partition, by topic (``String.compareTo``) then number."""
    return sorted(((t, i) for t, n in partitions_per_topic.items() for i in range(n)),
                  key=lambda tp: (java_string_key(tp[0]), tp[1]))


def constrained_assign(
    partitions_per_topic: Mapping[str, int],
    owned_by: Mapping[str, list[TP]],
    multiple_owners: frozenset[TP] = frozenset(),
) -> tuple[dict[str, list[TP]], dict[TP, str]]:
    """``constrainedAssign``: (member → partitions, partitions transferring ownership →
    their new member). ``owned_by`` in the map's order (its lists are consumed).
    ``multiple_owners`` (2.8.1+, empty before): partitions claimed by several members in the
    highest generation, taken out of every claim and always "transferring".

    Raises :class:`AssignmentError` with Kafka's ``IllegalStateException`` message."""
    return _Constrained(partitions_per_topic, owned_by, multiple_owners).run()


class _Constrained:
    """The steps of ``constrainedAssign``, on Java's collections: ``unassigned`` a ``TreeSet``
    (an insertion-ordered dict of the sorted partitions), the capacity queues ``LinkedList`` s."""

    def __init__(
        self,
        partitions_per_topic: Mapping[str, int],
        owned_by: Mapping[str, list[TP]],
        multiple_owners: frozenset[TP],
    ) -> None:
        all_partitions = sorted_topic_partitions(partitions_per_topic)
        self.unassigned = dict.fromkeys(all_partitions)
        self.owned_by = owned_by
        self.multiple = multiple_owners
        self.revoked_all: set[TP] = set()
        self.unfilled: list[str] = []
        self.max_capacity: deque[str] = deque()
        self.min_capacity: deque[str] = deque()
        self.transferring: dict[TP, str] = {}
        n = len(owned_by)
        self.min_quota = len(all_partitions) // n
        self.max_quota = -(-len(all_partitions) // n)
        self.assignment: dict[str, list[TP]] = {c: [] for c in owned_by}

    def run(self) -> tuple[dict[str, list[TP]], dict[TP, str]]:
        self._keep_owned()
        self.unfilled.sort(key=java_string_key)
        pending = deque(self.unassigned)  # the TreeSet's iterator, created once
        self._fill(pending)
        self._steal()
        for tp in pending:  # one each to members at minQuota
            if not self.min_capacity:
                raise AssignmentError(AT_MAX_CAPACITY)
            c = self.min_capacity.popleft()
            self.assignment[c].append(tp)
            if tp in self.revoked_all or tp in self.multiple:
                self.transferring[tp] = c
        return self.assignment, self.transferring

    def _keep_owned(self) -> None:
        """Each member keeps its owned partitions up to maxQuota (the rest are revoked)."""
        for c, owned in self.owned_by.items():
            mine = self.assignment[c]
            for tp in self.multiple:
                if tp in owned:
                    owned.remove(tp)
            for i, tp in enumerate(owned):
                if i < self.max_quota:
                    mine.append(tp)
                    self.unassigned.pop(tp, None)
                else:
                    self.revoked_all.add(tp)
            if len(owned) < self.min_quota:
                self.unfilled.append(c)
            else:
                if len(mine) == self.min_quota:
                    self.min_capacity.append(c)
                if len(mine) == self.max_quota:
                    self.max_capacity.append(c)

    def _fill(self, pending: deque[TP]) -> None:
        """Round robin over the unfilled members (id order) up to minQuota."""
        while self.unfilled and pending:
            still: list[str] = []
            for k, c in enumerate(self.unfilled):
                if not pending:
                    still.extend(self.unfilled[k:])
                    break
                mine = self.assignment[c]
                tp = pending.popleft()
                mine.append(tp)
                if tp in self.revoked_all or tp in self.multiple:
                    self.transferring[tp] = c
                if len(mine) == self.min_quota:
                    self.min_capacity.append(c)
                else:
                    still.append(c)
            self.unfilled = still

    def _steal(self) -> None:
        """Members still under minQuota take the first partition of members at maxQuota."""
        for c in self.unfilled:
            mine = self.assignment[c]
            remaining = self.min_quota - len(mine)
            while remaining > 0:
                if not self.max_capacity:
                    raise AssignmentError(UNDER_CAPACITY)
                swapped = self.assignment[self.max_capacity.popleft()].pop(0)
                mine.append(swapped)
                remaining -= 1
                self.transferring[swapped] = c
            self.min_capacity.append(c)


def sticky_reread(member: Member) -> MemberData:
    """``StickyAssignor.memberData`` read a second time: the first read consumed the user data
    buffer (``hasRemaining()`` is false), so no previous partitions and no generation."""
    return MemberData((), None)


def general_data(
    inputs: LeaderInputs,
    data: Mapping[str, MemberData],
    read: int,
    reread: Callable[[Member], MemberData],
) -> dict[str, MemberData]:
    """What ``generalAssign``'s own ``memberData`` calls return: ``reread`` for the first
    ``read`` members in map order (``allSubscriptionsEqual`` read them already), ``data`` for
    the others."""
    return {m.member_id: reread(m) if k < read else data[m.member_id]
            for k, m in enumerate(inputs.members)}


def _algorithm(
    inputs: LeaderInputs, data: dict[str, MemberData], reread: Callable[[Member], MemberData]
) -> tuple[dict[str, list[TP]], dict[TP, str] | None]:
    owned_by, read = all_subscriptions_equal(inputs, data)
    if owned_by is not None:
        return constrained_assign(inputs.partitions_per_topic, owned_by)
    return GeneralAssign251(inputs, general_data(inputs, data, read, reread)).run(), None


def assign(group: GroupSpec, *, cooperative: bool) -> GroupAssignment:
    """``StickyAssignor`` (``cooperative=False``) or ``CooperativeStickyAssignor``
    (``cooperative=True``) of Kafka 2.5.1 – 2.8.0 on ``group``: every member listed (``()``
    when it gets nothing); cooperative: ``revoked`` = owned partitions given up.

    Raises :class:`AssignmentError` where Kafka throws ``IllegalStateException``."""
    # cooperative_member_data reads no buffer: a second read gives the same
    reread = cooperative_member_data if cooperative else sticky_reread
    member_data = cooperative_member_data if cooperative else sticky_member_data
    return run_assignor(group, cooperative, member_data,
                        lambda inputs, data: _algorithm(inputs, data, reread))
