"""``org.apache.kafka.clients.consumer.StickyAssignor`` (KIP-54; eager protocol): balanced, and
keeps as many previous assignments as balance allows.

Each member's previous assignment and generation come from its sticky user data
(``Member.owned_partitions`` / ``Member.generation``; ``has_user_data=False`` for a member that
sent none, e.g. a new consumer). The algorithm is
:mod:`kpart.consumer.classic.abstract_sticky_assignor`.

Seed 003, example 1 (three consumers, four topics × 2 partitions, C1 leaves). Kafka trunk keeps
every surviving owner's partitions and gives C0 [t0p0, t0p1, t1p1, t3p0], C2 [t1p0, t2p0, t2p1,
t3p1]; the seed (and StickyAssignor's own javadoc) shows an older Kafka's result, C0 [t0p0, t1p1,
t3p0, t2p0], C2 [t1p0, t2p1, t0p1, t3p1]. kpart reproduces trunk:

>>> from kpart.consumer.spec import GroupSpec
>>> every = ["t0", "t1", "t2", "t3"]
>>> g = GroupSpec.from_json({"topics": {t: 2 for t in every}, "members": [
...     {"id": "C0", "topics": every, "generation": 1,
...      "owned": [["t0", [0]], ["t1", [1]], ["t3", [0]]]},
...     {"id": "C2", "topics": every, "generation": 1, "owned": [["t1", [0]], ["t2", [1]]]}]})
>>> StickyAssignor().assign(g).as_dict()
{'C0': {'t0': [0, 1], 't1': [1], 't3': [0]}, 'C2': {'t1': [0], 't2': [0, 1], 't3': [1]}}
"""

from __future__ import annotations

from dataclasses import dataclass

from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.classic._constrained_arrays import try_array_form
from kpart.consumer.classic.abstract_sticky_assignor import (
    MemberData,
    assign_partitions,
    release_line,
    release_module,
    simulated_line,
)
from kpart.consumer.spec import GroupSpec, Member
from kpart.versions import KafkaVersion

__all__ = ["StickyAssignor", "assign_sticky", "assign_sticky_ordered", "sticky_member_data"]


def sticky_member_data(member: Member) -> MemberData:
    """``StickyAssignor.memberData``: the decoded user data (previous assignment, generation);
    nothing without user data."""
    if not member.has_user_data:
        return MemberData((), None)
    return MemberData(member.owned_partitions, member.generation)


def assign_sticky_ordered(
    group: GroupSpec, *, kafka_version: str | KafkaVersion | None = None,
) -> tuple[GroupAssignment, dict[str, list[tuple[str, int]]]]:
    """:func:`assign_sticky` plus each member's partitions in the order of Kafka's list (what the
    member stores as its next user data: the rebalance simulator needs it). The 2.x release
    lines, ported without those lists, are a :class:`~kpart.errors.ConfigError` here."""
    line = simulated_line(kafka_version)
    if line == "3.7.1":
        result, lists = _assign(group, ordered=True)
        assert lists is not None
        return result, lists
    return reference_assign(group, line=line)


def assign_sticky(
    group: GroupSpec, *, kafka_version: str | KafkaVersion | None = None
) -> GroupAssignment:
    """Sticky assignment of ``group`` (every member listed, ``()`` when it gets nothing).

    ``kafka_version``: the client's Kafka version (default 4.3), by the ``classic_sticky``
    rule of :mod:`kpart.versions` (3.0.0 to 3.4.0: before KAFKA-14639; 3.4.1: before KIP-881; 3.5.0 to 3.5.1: before KAFKA-15106;
    3.5.2 to 3.7.0: before KAFKA-16277 and KAFKA-15170).

    Raises :class:`~kpart.errors.AssignmentError` where Kafka throws ``IllegalStateException``;
    :class:`~kpart.errors.ConfigError` naming ``kafka_version`` when kpart does not model it.
    """
    line = release_line(kafka_version)
    if line == "3.7.1":
        return _assign(group, ordered=False)[0]
    module = release_module(line)
    if module is not None:
        result: GroupAssignment = module.assign(group, cooperative=False)
        return result
    return reference_assign(group, line=line)[0]


def _assign(
    group: GroupSpec, ordered: bool
) -> tuple[GroupAssignment, dict[str, list[tuple[str, int]]] | None]:
    fast = try_array_form(group, sticky_member_data, cooperative=False, ordered=ordered)
    if fast is not None:
        return fast.assignment, fast.lists
    return reference_assign(group)


def reference_assign(
    group: GroupSpec, *, line: str = "3.7.1"
) -> tuple[GroupAssignment, dict[str, list[tuple[str, int]]]]:
    """The object-based port (reference for the array form): assignment and Kafka lists;
    ``line``: as :func:`~kpart.consumer.classic.abstract_sticky_assignor.assign_partitions`."""
    result = assign_partitions(group, sticky_member_data, line=line)
    ids = [m.member_id for m in group.members]
    lists = {m: list(result.assignment.get(m, ())) for m in ids}
    return GroupAssignment.from_pairs(ids, lists), lists


@dataclass(frozen=True, slots=True)
class StickyAssignor:
    """The ``sticky`` assignor: ``StickyAssignor().assign(group) -> GroupAssignment``."""

    name: str = "sticky"

    def assign(self, group: GroupSpec) -> GroupAssignment:
        return assign_sticky(group)
