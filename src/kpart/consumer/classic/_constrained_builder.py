"""``AbstractStickyAssignor.ConstrainedAssignmentBuilder``: the sticky assignors' path when
every member subscribes to the same topics (KIP-341 / KAFKA-9987, rack-aware per KIP-881).

Steps, as in Kafka: (1) every member keeps its owned partitions (rack-matching ones only when
rack-aware) up to ``minQuota``, or ``maxQuota`` while fewer than ``total % members`` members
got ``maxQuota``; (2) rack-aware round robin of the rest; (3) plain round robin.
``partitions_transferring_ownership`` records partitions handed to a new member that some
member had to give up (used by the cooperative assignor).

>>> b = ConstrainedBuilder({"t": 3}, _no_racks(), {"a": [("t", 0), ("t", 1), ("t", 2)], "b": []},
...                        set())
>>> b.build()
{'a': [('t', 0), ('t', 1)], 'b': [('t', 2)]}
>>> b.partitions_transferring_ownership
{('t', 2): 'b'}
"""

from __future__ import annotations

from collections.abc import Mapping

from kpart._java.strings import java_string_key
from kpart.consumer.classic._sticky_rack import RackInfo
from kpart.errors import AssignmentError

__all__ = ["ConstrainedBuilder"]

TP = tuple[str, int]


def _no_racks() -> RackInfo:
    return RackInfo({}, {}, {})


class ConstrainedBuilder:
    """One run of the constrained path. ``consumer_to_owned``: member → still-valid owned
    partitions, in the leader's subscription-map order; ``multi_owned``: partitions claimed by
    several members of the same generation (owned by nobody).

    Kafka 3.5.0 to 3.7.0 (``kafka_16277=False, kafka_15170=False``): a member keeps its owned
    partitions in their decoded order (not sorted by partition); any partition revoked for
    being over quota counts as changing owner when handed out again, even to the same member,
    while rack-mismatched ones do not; and the rack-aware round robin neither counts the
    members it fills to ``maxQuota`` nor stops offering the members at ``minQuota``."""

    def __init__(
        self,
        partitions_per_topic: Mapping[str, int],
        rack_info: RackInfo,
        consumer_to_owned: Mapping[str, list[TP]],
        multi_owned: set[TP],
        *,
        kafka_16277: bool = True,
        kafka_15170: bool = True,
    ) -> None:
        self.kafka_16277 = kafka_16277
        self.kafka_15170 = kafka_15170
        self.partitions_per_topic = partitions_per_topic
        self.rack_info = rack_info
        self.current_assignment = consumer_to_owned
        self.multi_owned = multi_owned
        total = sum(partitions_per_topic.values())
        n = len(consumer_to_owned)
        self.min_quota = total // n
        self.max_quota = -(-total // n)
        self.expected_over_min = total % n
        self.current_over_min = 0
        self.assignment: dict[str, list[TP]] = {c: [] for c in consumer_to_owned}
        self.assigned_partitions: list[TP] = []
        #: owned partitions not kept by their owner (rack mismatch or over quota) → owner
        self.maybe_revoked: dict[TP, str] = {}
        self.under_min: list[str] = []
        self.exactly_min: list[str] = []
        self.partitions_transferring_ownership: dict[TP, str] = {}

    def build(self) -> dict[str, list[TP]]:
        """The assignment (member → partitions); raises :class:`AssignmentError` where Kafka
        throws ``IllegalStateException``."""
        self.assign_owned_partitions()
        unassigned = self.get_unassigned_partitions(self.assigned_partitions)
        self.under_min.sort(key=java_string_key)
        self.exactly_min.sort(key=java_string_key)
        unassigned = self.rack_info.sort_partitions_by_rack_consumers(unassigned)
        unassigned = self.assign_rack_aware_round_robin(unassigned)
        self.assign_round_robin(unassigned)
        self.verify_unfilled_members()
        return self.assignment

    def assign_owned_partitions(self) -> None:
        rack = self.rack_info
        lo, hi = self.min_quota, self.max_quota
        for consumer, owned_all in self.current_assignment.items():
            owned = []
            for tp in owned_all:
                if rack.racks_mismatch(consumer, tp):
                    if self.kafka_15170:
                        self.maybe_revoked[tp] = consumer
                else:
                    owned.append(tp)
            if self.kafka_16277:
                owned.sort(key=lambda tp: (tp[1], java_string_key(tp[0])))
            for tp in self.multi_owned:
                if tp in owned:
                    owned.remove(tp)
            mine = self.assignment[consumer]
            if len(owned) < lo:
                mine.extend(owned)
                self.assigned_partitions.extend(owned)
                self.under_min.append(consumer)
            elif len(owned) >= hi and self.current_over_min < self.expected_over_min:
                self.current_over_min += 1
                if self.current_over_min == self.expected_over_min:
                    self.exactly_min.clear()
                mine.extend(owned[:hi])
                self.assigned_partitions.extend(owned[:hi])
                for tp in owned[hi:]:
                    self.maybe_revoked[tp] = consumer
            else:
                mine.extend(owned[:lo])
                self.assigned_partitions.extend(owned[:lo])
                for tp in owned[lo:]:
                    self.maybe_revoked[tp] = consumer
                if self.current_over_min < self.expected_over_min:
                    self.exactly_min.append(consumer)

    def assign_rack_aware_round_robin(self, unassigned: list[TP]) -> list[TP]:
        """Rack-matching round robin; returns the partitions it could not place."""
        rack = self.rack_info
        if not rack.consumer_racks:
            return unassigned
        under, exact = self.under_min, self.exactly_min
        next_index = 0
        remaining: list[TP] = []
        for tp in unassigned:
            consumer = None
            index = rack.next_rack_consumer(tp, under, next_index)
            if index >= 0:
                consumer = under[index]
                count = len(self.assignment[consumer]) + 1
                if count >= self.min_quota:
                    under.remove(consumer)
                    if count < self.max_quota and (
                        self.current_over_min < self.expected_over_min or not self.kafka_15170
                    ):
                        exact.append(consumer)
                else:
                    index += 1
                next_index = index % len(under) if under else 0
            elif exact:
                first = rack.next_rack_consumer(tp, exact, 0)
                if first >= 0:
                    consumer = exact[first]
                    if len(self.assignment[consumer]) + 1 == self.max_quota:
                        del exact[first]
                        if self.kafka_15170:
                            self.current_over_min += 1
                            if self.current_over_min == self.expected_over_min:
                                exact.clear()
            if consumer is None:
                remaining.append(tp)
            else:
                self.assign_new_partition(tp, consumer)
        return remaining

    def assign_round_robin(self, unassigned: list[TP]) -> None:
        under, exact = self.under_min, self.exactly_min
        pos = 0  # java.util.LinkedList iterator over `under`: next index / last returned
        last = -1
        for tp in unassigned:
            if pos < len(under):
                consumer = under[pos]
                last, pos = pos, pos + 1
            elif not under and not exact:
                raise AssignmentError("No more unfilled consumers to be assigned.")
            elif not under:
                consumer = exact.pop(0)
            else:
                consumer = under[0]
                last, pos = 0, 1
            count = self.assign_new_partition(tp, consumer)
            if count == self.min_quota:
                if last < 0:
                    raise AssignmentError("Iterator.remove() without a current element.")
                del under[last]
                pos, last = last, -1
                exact.append(consumer)
            elif count == self.max_quota:
                self.current_over_min += 1

    def assign_new_partition(self, tp: TP, consumer: str) -> int:
        mine = self.assignment[consumer]
        mine.append(tp)
        previous = self.maybe_revoked.get(tp)
        if (previous is not None and (previous != consumer or not self.kafka_15170)) or (
            tp in self.multi_owned
        ):
            self.partitions_transferring_ownership[tp] = consumer
        return len(mine)

    def verify_unfilled_members(self) -> None:
        if not self.under_min:
            return
        if self.current_over_min != self.expected_over_min:
            raise AssignmentError(
                "We haven't reached the expected number of members with more than the minQuota "
                "partitions, but no more partitions to be assigned"
            )
        for member in self.under_min:
            if len(self.assignment[member]) != self.min_quota:
                raise AssignmentError(
                    f"Consumer: [{member}] doesn't reach minQuota partitions, and no more "
                    "partitions to be assigned"
                )

    def get_unassigned_partitions(self, assigned: list[TP]) -> list[TP]:
        """All partitions (topics sorted) minus ``assigned``, by Kafka's two-pointer walk
        (an owned partition number beyond a topic's count stalls the walk, as in Kafka)."""
        ppt = self.partitions_per_topic
        topics = sorted(ppt, key=java_string_key)
        if not assigned:
            return [(t, p) for t in topics for p in range(ppt[t])]
        assigned.sort(key=lambda tp: (java_string_key(tp[0]), tp[1]))
        it = iter(assigned)
        nxt = next(it)
        direct = False
        out: list[TP] = []
        for t in topics:
            for p in range(ppt[t]):
                if direct or nxt[0] != t or nxt[1] != p:
                    out.append((t, p))
                else:
                    try:
                        nxt = next(it)
                    except StopIteration:
                        direct = True
        return out
