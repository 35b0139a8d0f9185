"""``AbstractStickyAssignor`` of Kafka 2.8.1 – 2.8.2, with ``StickyAssignor`` /
``CooperativeStickyAssignor`` of those releases: a straight object port, Java's iteration
orders kept.

What changed from 2.5.1 – 2.8.0 (:mod:`.abstract_sticky_assignor_2_5_1`), all from KAFKA-13081
(PR #11068, the 2.8 backport of fixes 1 and 2 of KAFKA-12984):

- ``CooperativeStickyAssignor`` sends its generation in its user data (``[int32 generation]``,
  ``-1`` before its first assignment) and the leader reads it: cooperative members now have a
  generation, so only the members of the highest generation keep their owned partitions.
- When every member subscribes to the same topics, a partition claimed by two members of the
  highest generation is taken out of both claims (and of any later one), handed out as a free
  partition, and counts as transferring ownership (cooperative: withheld this round). Members
  of a generation superseded during the scan lose their claims at once.

The general path (different subscriptions) is 2.5.1's, including its second ``memberData``
read of the members the subscription check scanned, which now also affects cooperative-sticky:
its buffer is consumed, reading the generation fails and those members get generation ``-1``
(their owned partitions still count). ``MINOR #11218`` (2.8.2) only renamed constants.

Source: apache/kafka tags 2.8.1 / 2.8.2, ``clients/src/main/java/org/apache/kafka/clients/
consumer/internals/AbstractStickyAssignor.java`` and ``CooperativeStickyAssignor.java``.

>>> from kpart.consumer.spec import GroupSpec
>>> g = GroupSpec.from_json({"topics": {"t": 4}, "members": [
...     {"id": "a", "topics": ["t"], "generation": 5, "owned": [["t", [0, 1]]]},
...     {"id": "b", "topics": ["t"], "generation": 5, "owned": [["t", [1, 2]]]}]})
>>> r = assign(g, cooperative=True)    # t-1 claimed twice: nobody keeps it this round
>>> r.as_dict(), dict(r.revoked)
({'a': {'t': [0]}, 'b': {'t': [2, 3]}}, {'a': (('t', (1,)),), 'b': (('t', (1,)),)})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.classic.releases.abstract_sticky_assignor_2_4 import (
    DEFAULT_GENERATION,
    LeaderInputs,
    MemberData,
    run_assignor,
    sticky_member_data,
)
from kpart.consumer.classic.releases.abstract_sticky_assignor_2_5_1 import (
    GeneralAssign251,
    constrained_assign,
    general_data,
    sticky_reread,
)
from kpart.consumer.spec import GroupSpec, Member

__all__ = ["all_subscriptions_equal", "assign", "cooperative_member_data", "cooperative_reread"]

TP = tuple[str, int]


def cooperative_member_data(member: Member) -> MemberData:
    """``CooperativeStickyAssignor.memberData`` (2.8.1 – 2.8.x): ``ownedPartitions`` and the
    generation of its user data, which a 2.8.1+ client always sends (``-1`` included)."""
    return MemberData(member.owned_pairs, member.generation)


def all_subscriptions_equal(
    inputs: LeaderInputs, data: Mapping[str, MemberData]
) -> tuple[tuple[dict[str, list[TP]], frozenset[TP]] | None, int]:
    """``allSubscriptionsEqual`` (2.8.1): ((member → previously owned partitions still valid,
    in map order; partitions claimed by several members of the highest generation, removed
    from all but their first claim here), or ``None`` when two members subscribe to different
    topics; how many members, in map order, had their ``memberData`` read)."""
    highest: set[str] = set()
    max_generation = DEFAULT_GENERATION
    subscribed: set[str] = set()
    owned_by: dict[str, list[TP]] = {}
    first_owner: dict[TP, str] = {}
    multiple: set[TP] = set()
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
                first_owner.clear()
                multiple.clear()
                for c in highest:
                    owned_by[c].clear()
                highest.clear()
                max_generation = g
            highest.add(m.member_id)
            for tp in md.partitions:
                if tp[0] not in all_topics:
                    continue
                other = first_owner.get(tp)
                if other is None:
                    first_owner[tp] = m.member_id
                    owned.append(tp)
                else:
                    claims = owned_by[other]
                    if tp in claims:
                        claims.remove(tp)
                    multiple.add(tp)
    return (owned_by, frozenset(multiple)), len(inputs.members)


def cooperative_reread(member: Member) -> MemberData:
    """``CooperativeStickyAssignor.memberData`` read a second time: the first read consumed the
    user data buffer, reading the generation fails, and the member gets ``-1``."""
    return MemberData(member.owned_pairs, DEFAULT_GENERATION)


def _algorithm(
    inputs: LeaderInputs, data: dict[str, MemberData], reread: Callable[[Member], MemberData]
) -> tuple[dict[str, list[TP]], dict[TP, str] | None]:
    equal, read = all_subscriptions_equal(inputs, data)
    if equal is not None:
        owned_by, multiple = equal
        return constrained_assign(inputs.partitions_per_topic, owned_by, multiple)
    return GeneralAssign251(inputs, general_data(inputs, data, read, reread)).run(), None


def assign(group: GroupSpec, *, cooperative: bool) -> GroupAssignment:
    """``StickyAssignor`` (``cooperative=False``) or ``CooperativeStickyAssignor``
    (``cooperative=True``) of Kafka 2.8.1 – 2.8.2 on ``group``: every member listed (``()``
    when it gets nothing); cooperative: ``revoked`` = owned partitions given up.

    Raises :class:`~kpart.errors.AssignmentError` where Kafka throws
    ``IllegalStateException``."""
    reread = cooperative_reread if cooperative else sticky_reread
    member_data = cooperative_member_data if cooperative else sticky_member_data
    return run_assignor(group, cooperative, member_data,
                        lambda inputs, data: _algorithm(inputs, data, reread))
