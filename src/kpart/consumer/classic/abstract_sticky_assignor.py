"""``org.apache.kafka.clients.consumer.internals.AbstractStickyAssignor`` (KIP-54, KIP-341,
KIP-429, KIP-881): the algorithm shared by the sticky and cooperative-sticky assignors.

The leader reads each member's previous partitions and generation (``MemberData``, from the
sticky user data or from ``Subscription.ownedPartitions``), resolves claims of the same
partition (the highest generation wins; two claims in the same generation invalidate the
partition), then runs the constrained builder when every member subscribes to the same topics
and the general builder otherwise. Kafka's results partly depend on ``java.util.HashMap``
iteration order: members are visited in the order of the leader's subscription map, i.e. the
bucket order of their ids (:func:`kpart._java.hashing.hashmap_order`) over the insertion order
given by ``GroupSpec.members``.

Owned partitions of topics outside the metadata are dropped; owned partition numbers beyond a
topic's current count are not validated (as in Kafka, they can make a partition be handed out
twice, or end in ``AssignmentError("No more unfilled consumers to be assigned.")``).

>>> from kpart.consumer.spec import GroupSpec
>>> g = GroupSpec.from_json({"topics": {"t0": 2, "t1": 2}, "members": [
...     {"id": "C0", "topics": ["t0", "t1"], "generation": 1, "owned": [["t0", [0, 1]]]},
...     {"id": "C1", "topics": ["t0", "t1"], "generation": 1, "owned": [["t1", [0, 1]]]}]})
>>> r = assign_partitions(g, lambda m: MemberData(m.owned_partitions, m.generation))
>>> sorted(r.assignment["C0"]), r.all_subscriptions_equal
([('t0', 0), ('t0', 1)], True)
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType

from kpart._java.hashing import hashmap_order
from kpart.consumer.classic._constrained_builder import ConstrainedBuilder
from kpart.consumer.classic._general_builder import GeneralBuilder
from kpart.consumer.classic._member_info import partitions_per_topic
from kpart.consumer.classic._sticky_rack import RackInfo
from kpart.consumer.spec import GroupSpec, Member, OwnedPartitions
from kpart.errors import ConfigError
from kpart.versions import KafkaVersion, behaviour

__all__ = [
    "DEFAULT_GENERATION",
    "MemberData",
    "StickyResult",
    "all_subscriptions_equal",
    "assign_partitions",
    "release_line",
    "release_module",
    "simulated_line",
    "subscription_order",
]

DEFAULT_GENERATION = -1
TP = tuple[str, int]

#: ``classic_sticky`` lines this module runs itself (flags of the builders).
BUILDER_LINES = ("3.0.0", "3.4.1", "3.5.0", "3.5.2", "3.7.1")
#: ``classic_sticky`` lines ported as whole objects: ``kpart.consumer.classic.releases.<module>``,
#: each with ``assign(group, *, cooperative) -> GroupAssignment``.
_RELEASE_MODULES = {
    "2.4.0": "abstract_sticky_assignor_2_4",
    "2.5.1": "abstract_sticky_assignor_2_5_1",
    "2.8.1": "abstract_sticky_assignor_2_8_1",
}


def release_line(kafka_version: str | KafkaVersion | None) -> str:
    """The ``classic_sticky`` line of ``kafka_version`` (default 4.3: ``"3.7.1"``): the first
    release of the implementation line it belongs to. Raises
    :class:`~kpart.errors.ConfigError` naming the version when it is unknown, before 2.4.0,
    ambiguous (``3.5``), or in a line kpart does not model.

    >>> release_line("3.6.2"), release_line(None)
    ('3.5.2', '3.7.1')
    """
    line = behaviour("classic_sticky", kafka_version)
    if line not in BUILDER_LINES and not _ported(line):
        raise ConfigError.about(
            "kafka_version", "The classic sticky assignors of {param} {value!r} (the {line} "
            "line) are not modelled by kpart yet; kpart models them for 3.0.0 and later",
            value=str(kafka_version), line=line)
    return line


def simulated_line(kafka_version: str | KafkaVersion | None) -> str:
    """:func:`release_line` for the rebalance simulator, which needs each member's partitions in
    Kafka's list order (its next user data): the 2.x lines, ported without those lists, are a
    :class:`~kpart.errors.ConfigError` naming the version."""
    line = release_line(kafka_version)
    if line not in BUILDER_LINES:
        raise ConfigError.about(
            "kafka_version", "{param} {value!r}: kpart simulates sticky rebalances (the "
            "members' user data, round after round) for 3.0.0 and later; a single assignment "
            "(kpart assign) is modelled at this version", value=str(kafka_version))
    return line


def _module_path(line: str) -> str:
    return f"kpart.consumer.classic.releases.{_RELEASE_MODULES[line]}"


def _ported(line: str) -> bool:
    if line not in _RELEASE_MODULES:
        return False
    try:
        return importlib.util.find_spec(_module_path(line)) is not None
    except ModuleNotFoundError:  # no releases package at all
        return False


def release_module(line: str) -> ModuleType | None:
    """The whole-object port of ``classic_sticky`` line ``line`` (imported on first use), or
    ``None`` for the lines this module's builders run (:data:`BUILDER_LINES`)."""
    if line not in _RELEASE_MODULES:
        return None
    return importlib.import_module(_module_path(line))


@dataclass(frozen=True, slots=True)
class MemberData:
    """A member's previous partitions grouped by topic (in decoded order) and generation
    (``None`` = absent)."""

    owned: OwnedPartitions
    generation: int | None

    @property
    def partitions(self) -> tuple[TP, ...]:
        """The previous partitions as ``(topic, partition)`` pairs, in order."""
        return tuple((t, p) for t, ps in self.owned for p in ps)


@dataclass(frozen=True, slots=True)
class StickyResult:
    """Raw result of :func:`assign_partitions`.

    ``assignment``: member → partitions (Java list order; a partition can appear twice after
    invalid "shrunk" claims, as in Kafka); ``partitions_transferring_ownership``: partition →
    new member for partitions some member must give up (constrained path only, else ``None``);
    ``member_order``: iteration order of Kafka's final assignment map.
    """

    assignment: Mapping[str, list[TP]]
    partitions_transferring_ownership: Mapping[TP, str] | None
    all_subscriptions_equal: bool
    max_generation: int
    member_order: tuple[str, ...]


def subscription_order(group: GroupSpec) -> list[Member]:
    """Members in the iteration order of the leader's ``HashMap<String, Subscription>``."""
    by_id = {m.member_id: m for m in group.members}
    return [by_id[i] for i in hashmap_order([m.member_id for m in group.members])]


def all_subscriptions_equal(
    all_topics: Mapping[str, int],
    members: list[Member],
    data: Mapping[str, MemberData],
    *,
    kafka_15106: bool = True,
    kafka_14639: bool = True,
) -> tuple[bool, dict[str, list[TP]], set[TP], int]:
    """``allSubscriptionsEqual``: (equal, member → valid owned partitions, partitions claimed
    twice in one generation, highest generation). ``members`` in subscription-map order.
    Before KAFKA-15106 (3.4.1 to 3.5.1) a claim of an older generation than the partition's
    current claimant still becomes the claimant that later claims are compared with. Before
    KAFKA-14639 (3.0.0 to 3.4.0) only the claims of the highest generation seen so far count:
    a member of a higher generation voids every earlier claim."""
    if not kafka_14639:
        return _highest_generation_claims(all_topics, members, data)
    equal = True
    subscribed: set[str] = set()
    owner_of: dict[TP, str] = {}
    owned_by: dict[str, list[TP]] = {}
    multi: set[TP] = set()
    max_generation = DEFAULT_GENERATION
    generation_of = {m.member_id: m.generation for m in members}
    for m in members:
        if not subscribed:
            subscribed.update(m.topics)
        elif equal and not (len(m.topics) == len(subscribed) and subscribed.issuperset(m.topics)):
            equal = False
        md = data[m.member_id]
        generation = DEFAULT_GENERATION if md.generation is None else md.generation
        max_generation = max(max_generation, generation)
        owned: list[TP] = []
        owned_by[m.member_id] = owned
        for tp in md.partitions:
            if tp[0] not in all_topics:
                continue
            other = owner_of.get(tp)
            if other is None:
                owned.append(tp)
                owner_of[tp] = m.member_id
                continue
            other_generation = generation_of[other]
            if generation == other_generation:
                multi.add(tp)
                _remove_first(owned_by[other], tp)
                owner_of[tp] = m.member_id
            elif generation > other_generation:
                owned.append(tp)
                _remove_first(owned_by[other], tp)
                owner_of[tp] = m.member_id
            elif not kafka_15106:
                owner_of[tp] = m.member_id
    return equal, owned_by, multi, max_generation


def _highest_generation_claims(
    all_topics: Mapping[str, int],
    members: list[Member],
    data: Mapping[str, MemberData],
) -> tuple[bool, dict[str, list[TP]], set[TP], int]:
    """``allSubscriptionsEqual`` of 3.0.0 to 3.4.0 (KAFKA-12984): only the highest
    generation's claims count."""
    equal = True
    subscribed: set[str] = set()
    owner_of: dict[TP, str] = {}
    owned_by: dict[str, list[TP]] = {}
    multi: set[TP] = set()
    highest: list[str] = []
    max_generation = DEFAULT_GENERATION
    for m in members:
        if not subscribed:
            subscribed.update(m.topics)
        elif equal and not (len(m.topics) == len(subscribed) and subscribed.issuperset(m.topics)):
            equal = False
        md = data[m.member_id]
        owned: list[TP] = []
        owned_by[m.member_id] = owned
        generation = md.generation
        if generation is None and max_generation != DEFAULT_GENERATION:
            continue
        if generation is not None and generation < max_generation:
            continue
        if generation is not None and generation > max_generation:
            owner_of.clear()
            multi.clear()
            for dropped in highest:
                owned_by[dropped].clear()
            highest.clear()
            max_generation = generation
        highest.append(m.member_id)
        for tp in md.partitions:
            if tp[0] not in all_topics:
                continue
            other = owner_of.get(tp)
            if other is None:
                owner_of[tp] = m.member_id
                owned.append(tp)
            else:
                _remove_first(owned_by[other], tp)
                multi.add(tp)
    return equal, owned_by, multi, max_generation


def _remove_first(items: list[TP], tp: TP) -> None:
    if tp in items:
        items.remove(tp)


def _prev_assignment(
    members: list[Member], data: Mapping[str, MemberData], max_generation: int
) -> dict[TP, tuple[str, int]]:
    """``prepopulateCurrentAssignments``: claims of generations below the highest one."""
    prev: dict[TP, tuple[str, int]] = {}
    for m in members:
        md = data[m.member_id]
        if md.generation is not None and md.generation < max_generation:
            generation = md.generation
        elif md.generation is None and max_generation > DEFAULT_GENERATION:
            generation = DEFAULT_GENERATION
        else:
            continue
        for tp in md.partitions:
            old = prev.get(tp)
            if old is None or generation > old[1]:
                prev[tp] = (m.member_id, generation)
    return prev


def assign_partitions(
    group: GroupSpec, member_data: Callable[[Member], MemberData], *, line: str = "3.7.1"
) -> StickyResult:
    """``AbstractStickyAssignor.assignPartitions`` for ``group``; ``member_data`` decodes a
    member's previous partitions and generation (assignor-specific). ``line``: the
    ``classic_sticky`` behaviour of :mod:`kpart.versions` this module implements, ``"3.7.1"``
    (3.7.1 and later), ``"3.5.2"`` (3.5.2 to 3.7.0: the constrained builder before
    KAFKA-16277 and KAFKA-15170), ``"3.5.0"`` (3.5.0 to 3.5.1: also before KAFKA-15106) or
    ``"3.4.1"`` (also before KIP-881: no rack view, not even the unassigned partitions'
    ordering by same-rack consumers) or ``"3.0.0"`` (3.0.0 to 3.4.0: also before KAFKA-14639,
    only the highest generation's claims count). Up to 3.3.2 the cooperative assignor read the
    generation from its user data (a user-data generation of -1 is present, not absent) and
    3.0.x kept the first claimant in its claim map; neither changes an output here, so
    3.0.0 to 3.4.0 are one line.

    Raises :class:`~kpart.errors.AssignmentError` where Kafka throws ``IllegalStateException``.
    """
    members = subscription_order(group)
    if not members:
        return StickyResult({}, {}, True, DEFAULT_GENERATION, ())
    ppt = partitions_per_topic(group)
    data = {m.member_id: member_data(m) for m in members}
    kafka_15106 = line not in ("3.0.0", "3.4.1", "3.5.0")
    equal, owned_by, multi, max_generation = all_subscriptions_equal(
        ppt, members, data, kafka_15106=kafka_15106, kafka_14639=line != "3.0.0"
    )
    if line in ("3.0.0", "3.4.1"):  # before KIP-881: no rack view at all
        rack_info = RackInfo({}, {}, {})
    else:
        rack_info = RackInfo.build(group, ppt, [m.member_id for m in members])
    if equal:
        fixed = line == "3.7.1"
        cb = ConstrainedBuilder(
            ppt, rack_info, owned_by, multi, kafka_16277=fixed, kafka_15170=fixed
        )
        assignment = cb.build()
        return StickyResult(
            assignment,
            cb.partitions_transferring_ownership,
            True,
            max_generation,
            tuple(owned_by),
        )
    prev = _prev_assignment(members, data, max_generation)
    gb = GeneralBuilder(
        ppt, rack_info, owned_by, {m.member_id: m.topics for m in members}, prev,
        kafka_15106=kafka_15106,
    )
    assignment = gb.build()
    return StickyResult(assignment, None, False, max_generation, tuple(gb.final_order))
