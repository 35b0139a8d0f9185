"""``org.apache.kafka.coordinator.group.assignor.SimpleAssignor`` (KIP-932 share groups, ``"simple"``).

The group coordinator's share-group assignor (``group.share.assignors``, default ``simple``).
Unlike a consumer group's, several members may be assigned one partition: when there are
more members than assignable partitions each partition is shared by ``ceil(M / T)`` of them.
Balance comes before stickiness; only partitions whose share-group state is initialized
(:meth:`ShareGroupSpec.is_partition_assignable`) are newly assigned. It dispatches on the
subscription type:

- ``HOMOGENEOUS``: ``SimpleHomogeneousAssignmentBuilder`` (:mod:`._simple_homogeneous`);
- ``HETEROGENEOUS``: ``SimpleHeterogeneousAssignmentBuilder`` (:mod:`._simple_heterogeneous`).

The brokers' Kafka version is an input (rule ``share_simple`` of :mod:`kpart.versions`):
4.0.x gives every member every partition of its topics (KAFKA-16741); 4.1.x runs the first
full algorithm (KAFKA-18757, KAFKA-18901: :mod:`._simple_kafka_4_1`); 4.2 and later run the
final builders (KAFKA-19362, KAFKA-19363), reproduced exactly, Java iteration orders included
(Kafka 4.3's vectors; 4.0, 4.1 and 4.3 are also checked against Kafka's own classes on random
groups). Share groups do not exist before 4.0: a :class:`~kpart.errors.ConfigError` naming the
version.

Errors: :class:`~kpart.errors.NoSuchElementError` where Kafka 4.3 itself throws
``java.util.NoSuchElementException`` (``assignRemainingPartitions`` on some groups);
:class:`~kpart.errors.PartitionAssignorError` where Kafka 4.1 throws ``PartitionAssignorException``
("Inconsistent number of member IDs").

>>> g = ShareGroupSpec.from_json({
...     "topics": [{"name": "t", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 2}],
...     "assignable": {"t": [0, 1]},
...     "members": [{"id": m, "topics": ["t"]} for m in ("a", "b", "c", "d")]})
>>> assign_simple(g).as_dict()
{'a': {'t': [0]}, 'b': {'t': [0]}, 'c': {'t': [1]}, 'd': {'t': [1]}}
>>> assign_simple(g, kafka_version="4.0.1").as_dict()["a"]
{'t': [0, 1]}
"""

from __future__ import annotations

from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.coordinator.server_spec import Target
from kpart.consumer.share._simple_arrays import share_columns, use_arrays
from kpart.consumer.share._simple_heterogeneous import build_heterogeneous
from kpart.consumer.share._simple_homogeneous import build_homogeneous
from kpart.consumer.share._simple_kafka_4_1 import assign_kafka_4_1
from kpart.consumer.share.share_group_spec import ShareGroupSpec
from kpart.versions import KafkaVersion, behaviour

__all__ = ["SimpleAssignor", "assign_simple", "simple_target"]


class SimpleAssignor:
    """Name holder mirroring Kafka's class: ``SimpleAssignor.name == "simple"``."""

    name = "simple"

    @staticmethod
    def assign(spec: ShareGroupSpec,
               kafka_version: str | KafkaVersion | None = None) -> GroupAssignment:
        """``SimpleAssignor.assign(GroupSpec, SubscribedTopicDescriber)``; same as
        :func:`assign_simple`."""
        return assign_simple(spec, kafka_version=kafka_version)


def _every_partition(spec: ShareGroupSpec) -> Target:
    """Kafka 4.0's ``SimpleAssignor``: each member with a non-empty subscription gets every
    partition of its topics (those the metadata knows), initialized or not."""
    out: Target = {}
    g = spec.group
    members = g.members_in_map_order()
    homogeneous = spec.subscription_type == "HOMOGENEOUS"
    for m in members:
        source = members[0] if homogeneous else m
        if source.topics:
            out[m.member_id] = [(tid, list(range(g.num_partitions(tid))))
                                for tid in g.subscribed_topic_ids(source, copied_names=True)]
    return out


def simple_target(spec: ShareGroupSpec, kafka_version: str | KafkaVersion | None = None) -> Target:
    """The raw result: member id → ``[(topic id, [partitions])]``; a member left out gets
    nothing (Kafka's ``Assignment.EMPTY``). Errors as :func:`assign_simple`."""
    rule = behaviour("share_simple", kafka_version)
    if not spec.members:
        return {}
    if rule == "every-partition":
        return _every_partition(spec)
    if rule == "hash-round-robin":
        return assign_kafka_4_1(spec)
    if spec.subscription_type == "HOMOGENEOUS":
        return build_homogeneous(spec)
    return build_heterogeneous(spec)


def assign_simple(spec: ShareGroupSpec,
                  kafka_version: str | KafkaVersion | None = None) -> GroupAssignment:
    """The share group's target assignment as Kafka ``kafka_version``'s brokers compute it
    (default 4.3): every member of ``spec`` in ``spec.members`` order, its partitions by
    topic name (``"id:<uuid>"`` for a deleted topic it still holds), topics and partitions
    sorted; a partition may appear under several members. Errors:
    :class:`~kpart.errors.ConfigError` (a version without share groups),
    :class:`~kpart.errors.NoSuchElementError` / :class:`~kpart.errors.PartitionAssignorError`
    (Kafka itself fails)."""
    if behaviour("share_simple", kafka_version) == "balanced-sharing" and spec.members \
            and use_arrays(spec):
        columns = share_columns(spec)
        if columns is not None:
            return GroupAssignment.from_columns(columns)
    return spec.group.to_group_assignment(simple_target(spec, kafka_version))
