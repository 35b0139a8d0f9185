"""``org.apache.kafka.clients.consumer.CooperativeStickyAssignor`` (KIP-429; cooperative
protocol): the sticky algorithm, minus the partitions that change owner.

Members report ``Subscription.ownedPartitions`` and their generation. A partition that must
move from one member to another is not given to its new owner in this round: the old owner
revokes it (``GroupAssignment.revoked``) and the follow-up rebalance hands it out. So no
partition ever moves directly between two members in one round.

>>> from kpart.consumer.spec import GroupSpec
>>> g = GroupSpec.from_json({"topics": {"t": 4}, "members": [
...     {"id": "a", "topics": ["t"], "generation": 3, "owned": [["t", [0, 1, 2, 3]]]},
...     {"id": "b", "topics": ["t"]}]})
>>> r = CooperativeStickyAssignor().assign(g)
>>> r.as_dict(), dict(r.revoked)
({'a': {'t': [0, 1]}, 'b': {}}, {'a': (('t', (2, 3)),)})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.classic._constrained_arrays import try_array_form
from kpart.consumer.classic.abstract_sticky_assignor import (
    DEFAULT_GENERATION,
    MemberData,
    assign_partitions,
    release_line,
    release_module,
    simulated_line,
)
from kpart.consumer.spec import GroupSpec, Member
from kpart.versions import KafkaVersion, behaviour

__all__ = [
    "CooperativeStickyAssignor",
    "assign_cooperative_sticky",
    "assign_cooperative_sticky_ordered",
    "cooperative_member_data",
]

TP = tuple[str, int]


def cooperative_member_data(member: Member) -> MemberData:
    """``CooperativeStickyAssignor.memberData``: owned partitions and generation (``-1`` =
    absent)."""
    generation = None if member.generation == DEFAULT_GENERATION else member.generation
    return MemberData(member.owned_partitions, generation)


def _transferring(
    group: GroupSpec, assignment: Mapping[str, list[TP]], order: tuple[str, ...]
) -> dict[TP, str]:
    """``computePartitionsTransferringOwnership`` (general path): partitions newly assigned to
    a member that another member owned."""
    owned = {m.member_id: m.owned_pairs for m in group.members}
    added: dict[TP, str] = {}
    revoked: set[TP] = set()
    for c in order:
        mine = assignment[c]
        owned_set = set(owned[c])
        for tp in mine:
            if tp not in owned_set:
                added[tp] = c
        mine_set = set(mine)
        revoked.update(tp for tp in owned[c] if tp not in mine_set)
    return {tp: c for tp, c in added.items() if tp in revoked}


def assign_cooperative_sticky(
    group: GroupSpec, *, kafka_version: str | KafkaVersion | None = None
) -> GroupAssignment:
    """Cooperative-sticky assignment of ``group``; ``revoked`` lists, per member, the owned
    partitions it must give up (they are handed out in the follow-up rebalance).

    ``kafka_version``: the client's Kafka version (default 4.3), by the ``classic_sticky``
    rule of :mod:`kpart.versions` (3.0.0 to 3.4.0: before KAFKA-14639; 3.4.1: before KIP-881; 3.5.0 to 3.5.1: before KAFKA-15106;
    3.5.2 to 3.7.0: before KAFKA-16277 and KAFKA-15170).

    Raises :class:`~kpart.errors.AssignmentError` where Kafka throws ``IllegalStateException``;
    :class:`~kpart.errors.ConfigError` naming ``kafka_version`` when kpart does not model it.
    """
    behaviour("cooperative_sticky", kafka_version)
    line = release_line(kafka_version)
    if line == "3.7.1":
        return _assign(group, ordered=False)[0]
    module = release_module(line)
    if module is not None:
        result: GroupAssignment = module.assign(group, cooperative=True)
        return result
    return reference_assign(group, line=line)[0]


def assign_cooperative_sticky_ordered(
    group: GroupSpec, *, kafka_version: str | KafkaVersion | None = None,
) -> tuple[GroupAssignment, dict[str, list[TP]]]:
    """:func:`assign_cooperative_sticky` plus each member's partitions in the order of Kafka's list (what the
    member stores as its next user data: the rebalance simulator needs it). The 2.x release
    lines, ported without those lists, are a :class:`~kpart.errors.ConfigError` here."""
    behaviour("cooperative_sticky", kafka_version)
    line = simulated_line(kafka_version)
    if line == "3.7.1":
        result, lists = _assign(group, ordered=True)
        assert lists is not None
        return result, lists
    return reference_assign(group, line=line)


def _assign(group: GroupSpec, ordered: bool) -> tuple[GroupAssignment, dict[str, list[TP]] | None]:
    fast = try_array_form(group, cooperative_member_data, cooperative=True, ordered=ordered)
    if fast is not None:
        return fast.assignment, fast.lists
    return reference_assign(group)


def reference_assign(
    group: GroupSpec, *, line: str = "3.7.1"
) -> tuple[GroupAssignment, dict[str, list[TP]]]:
    """The object-based port (reference for the array form): assignment and Kafka lists;
    ``line``: as :func:`~kpart.consumer.classic.abstract_sticky_assignor.assign_partitions`."""
    result = assign_partitions(group, cooperative_member_data, line=line)
    assignment = result.assignment
    moving = result.partitions_transferring_ownership
    if moving is None:
        moving = _transferring(group, assignment, result.member_order)
    for tp, c in moving.items():
        mine = assignment[c]
        if tp in mine:
            mine.remove(tp)
    revoked: dict[str, list[TP]] = {}
    for m in group.members:
        kept = set(assignment.get(m.member_id, ()))
        gone = [tp for tp in dict.fromkeys(m.owned_pairs) if tp not in kept]
        if gone:
            revoked[m.member_id] = gone
    ids = [m.member_id for m in group.members]
    lists = {m: list(assignment.get(m, ())) for m in ids}
    return GroupAssignment.from_pairs(ids, lists, revoked), lists


@dataclass(frozen=True, slots=True)
class CooperativeStickyAssignor:
    """The ``cooperative-sticky`` assignor: ``.assign(group) -> GroupAssignment``."""

    name: str = "cooperative-sticky"

    def assign(self, group: GroupSpec) -> GroupAssignment:
        return assign_cooperative_sticky(group)
