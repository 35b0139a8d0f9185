"""``org.apache.kafka.clients.consumer.RoundRobinAssignor``.

All partitions of all subscribed topics, topics in ``String.compareTo`` order and partitions
in numeric order, are dealt one at a time to the members in ``MemberInfo`` order (static
members first by ``group.instance.id``, then dynamic members by member id), cycling; a member
not subscribed to the partition's topic is skipped. With equal subscriptions the counts differ
by at most one; with uneven subscriptions the result can be unbalanced.

Seed 003: two members on ``t0``, ``t1`` × 3 partitions; then three members with uneven
subscriptions (``t0``, ``t1``, ``t2`` with 1, 2, 3 partitions), and the same after ``C0`` left.

>>> from kpart.consumer.spec import GroupSpec
>>> g = GroupSpec.from_json({"topics": {"t0": 3, "t1": 3},
...                          "members": [{"id": "C0", "topics": ["t0", "t1"]},
...                                      {"id": "C1", "topics": ["t0", "t1"]}]})
>>> assign_round_robin(g).as_dict()
{'C0': {'t0': [0, 2], 't1': [1]}, 'C1': {'t0': [1], 't1': [0, 2]}}
>>> uneven = {"topics": {"t0": 1, "t1": 2, "t2": 3},
...           "members": [{"id": "C0", "topics": ["t0"]}, {"id": "C1", "topics": ["t0", "t1"]},
...                       {"id": "C2", "topics": ["t0", "t1", "t2"]}]}
>>> assign_round_robin(GroupSpec.from_json(uneven)).as_dict()
{'C0': {'t0': [0]}, 'C1': {'t1': [0]}, 'C2': {'t1': [1], 't2': [0, 1, 2]}}
>>> uneven["members"] = uneven["members"][1:]
>>> assign_round_robin(GroupSpec.from_json(uneven)).as_dict()
{'C1': {'t0': [0], 't1': [1]}, 'C2': {'t1': [0], 't2': [0, 1, 2]}}

Groups of at least :data:`~kpart.consumer.classic._round_robin_arrays.ARRAY_THRESHOLD`
partitions take the array path (:mod:`kpart.consumer.classic._round_robin_arrays`: the same
deal as a closed form per topic, a columnar result); ``_assign_round_robin_objects`` is the
reference it is tested against, and runs whatever the array path declines.
"""

from __future__ import annotations

from dataclasses import replace

from kpart._java.strings import java_sorted
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.classic._member_info import (
    canonical_assignment,
    partitions_per_topic,
    sort_members,
)
from kpart.consumer.classic._round_robin_arrays import try_round_robin_columns
from kpart.consumer.spec import GroupSpec
from kpart.versions import KafkaVersion, behaviour

__all__ = ["RoundRobinAssignor", "assign_round_robin"]


def assign_round_robin(group: GroupSpec, *,
                       kafka_version: str | KafkaVersion | None = None) -> GroupAssignment:
    """Assign ``group``'s partitions as Kafka's ``RoundRobinAssignor`` of client
    ``kafka_version`` does (default: the newest release, 4.3; rule ``classic_round_robin`` of
    :mod:`kpart.versions`).

    Input: the metadata and subscriptions in ``group`` (topics missing from the metadata or
    with no partitions are skipped; ``owned_partitions`` and generations are ignored).
    Output: every member of the group, with ``()`` when it gets nothing. Raises only
    :class:`~kpart.errors.ConfigError` for a ``kafka_version`` kpart does not model (0.10.0.x,
    unknown, unparseable). Large groups get a columnar result (the array path), others the
    object path. By version: from 2.4.0 (KIP-345, KAFKA-8356) static members are dealt first,
    by ``group.instance.id``; before, every consumer in member id order.

    >>> g = GroupSpec.from_json({"topics": {"t": 3}, "members": [
    ...     {"id": "a", "topics": ["t"]}, {"id": "b", "topics": ["t"], "instance_id": "i"}]})
    >>> assign_round_robin(g).as_dict(), assign_round_robin(g, kafka_version="2.3").as_dict()
    ({'a': {'t': [1]}, 'b': {'t': [0, 2]}}, {'a': {'t': [0, 2]}, 'b': {'t': [1]}})
    """
    if behaviour("classic_round_robin", kafka_version) == "member-id" and any(
        m.group_instance_id for m in group.members
    ):  # before KIP-345's ordering the assignor does not read group.instance.id
        group = group.with_members(replace(m, group_instance_id=None) for m in group.members)
    fast = try_round_robin_columns(group)
    return fast if fast is not None else _assign_round_robin_objects(group)


def _assign_round_robin_objects(group: GroupSpec) -> GroupAssignment:
    """:func:`assign_round_robin` on Python objects: the reference port of Kafka's class."""
    ppt = partitions_per_topic(group)
    order = sort_members(group.members)
    subscribed = [frozenset(m.topics) for m in order]
    out: dict[str, dict[str, list[int]]] = {m.member_id: {} for m in group.members}
    lists = [out[m.member_id] for m in order]
    n = len(order)
    i = 0
    topics = java_sorted(ppt)
    for topic in topics:
        if all(topic in s for s in subscribed):  # everyone subscribes: a plain stride
            for k in range(n):
                ps = range((k - i) % n, ppt[topic], n)
                if ps:
                    lists[k].setdefault(topic, []).extend(ps)
            i = (i + ppt[topic]) % n
            continue
        for p in range(ppt[topic]):
            while topic not in subscribed[i]:
                i = (i + 1) % n
            lists[i].setdefault(topic, []).append(p)
            i = (i + 1) % n
    # Partitions are appended in increasing order; topics in Java order, which is the
    # canonical (code point) order unless a name holds a supplementary character.
    return canonical_assignment(out, presorted=topics == sorted(topics))


class RoundRobinAssignor:
    """Kafka's ``RoundRobinAssignor`` as a value: ``RoundRobinAssignor().assign(group)``."""

    name = "roundrobin"
    protocol = "EAGER"

    def assign(self, group: GroupSpec, *,
               kafka_version: str | KafkaVersion | None = None) -> GroupAssignment:
        """See :func:`assign_round_robin`."""
        return assign_round_robin(group, kafka_version=kafka_version)
