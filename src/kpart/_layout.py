"""A topology resolved once: its replicas placed by ``AdminUtils.assignReplicasToBrokers``, its
partitions assigned to every consumer group's members by the group's assignor, its producer's
partitioner and null-key rule.

Pure and deterministic once the topology has a ``placement_seed`` (without one, the replicas
are placed from a random start, like Kafka). :func:`layout_for` is what ``kpart report`` shows
per broker, rack and consumer; :func:`replica_assignment` alone places another partition count
(the what-if's leaders). :func:`resolve_topology` looks everything up once into a
:class:`ResolvedTopology` that the Spark job, the null-key model and the summary read.

>>> from kpart.topology import default_topology
>>> t = default_topology()
>>> layout = layout_for(t)
>>> layout.replicas[0], layout.leaders[:4]
((4, 2, 3), (4, 5, 0, 1))
>>> [(name, len(a.assignment)) for name, a in layout.assignments]
[('delay-analytics', 3), ('billing', 5)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kpart.consumer.assignment import GroupAssignment
from kpart.producer.null_keys import NullKeyRule
from kpart.topology import TopicConfig, Topology

if TYPE_CHECKING:  # pragma: no cover
    from kpart.producer.clients import ClientPartitioner

__all__ = ["Layout", "ResolvedTopology", "layout_for", "replica_assignment", "resolve_topology"]


@dataclass(frozen=True, slots=True)
class Layout:
    """Placement and assignment of a topology: ``replicas[p]``, the brokers holding partition
    ``p`` (preferred leader first), and each group's
    :class:`~kpart.consumer.assignment.GroupAssignment`, in topology order."""

    replicas: tuple[tuple[int, ...], ...]
    assignments: tuple[tuple[str, GroupAssignment], ...]

    @property
    def leaders(self) -> tuple[int, ...]:
        """``leaders[p]``: the preferred leader of partition ``p`` (its first replica)."""
        return tuple(r[0] for r in self.replicas)

    def owners(self, group: str) -> dict[int, str]:
        """Partition → the member of ``group`` it is assigned to (unassigned ones left out).
        Errors: ``KeyError`` for a group the topology does not have.

        >>> from kpart.topology import default_topology
        >>> owners = layout_for(default_topology()).owners("billing")
        >>> len(owners), owners[0], owners[6]
        (12, 'billing-1', 'billing-2')
        >>> layout_for(default_topology()).owners("nobody")
        Traceback (most recent call last):
        ...
        KeyError: 'nobody'
        """
        ga = dict(self.assignments)[group]
        return {p: m for m, owned in ga.assignment for _, ps in owned for p in ps}


def replica_assignment(topology: Topology,
                       num_partitions: int | None = None) -> tuple[tuple[int, ...], ...]:
    """The topic's replicas (``num_partitions``, default the topic's) placed on the topology's
    brokers as ``kafka-topics --create`` places them
    (:func:`kpart.placement.admin_utils.assign_replicas_to_brokers` with the topic's
    ``replication_factor``, ``placement_seed`` and ``rack_aware``): ``result[p]``, preferred
    leader first. Errors are those of ``AdminUtils`` (``InvalidReplicationFactorError``, ...).

    >>> from kpart.topology import default_topology
    >>> replica_assignment(default_topology(), 2)
    ((4, 2, 3), (5, 3, 4))
    """
    from kpart.placement.admin_utils import assign_replicas_to_brokers

    t = topology.topic
    n = t.partitions if num_partitions is None else num_partitions
    replicas = assign_replicas_to_brokers(topology.brokers, n, t.replication_factor,
                                          seed=t.placement_seed, rack_aware=t.rack_aware)
    return tuple(tuple(replicas[p]) for p in range(n))


def layout_for(topology: Topology) -> Layout:
    """Place the topic's replicas (:func:`replica_assignment`) and assign its partitions to every
    group's members in join order with the group's ``strategy`` (:func:`kpart.consumer.assign`;
    members and partitions carry their racks when the brokers have racks).

    Shapes: ``replicas`` has one tuple per partition of the topic (``replication_factor``
    broker ids, preferred leader first); ``assignments`` one ``(group name,
    GroupAssignment)`` per group, in topology order. Deterministic when the topic has a
    ``placement_seed``.

    Errors: those of :func:`replica_assignment` (``AdminUtils``':
    ``InvalidReplicationFactorError`` when the replication factor exceeds the brokers, ...),
    ``ConfigError`` for an unknown group ``strategy``, and whatever the group's assignor throws
    as Kafka's would (``PartitionAssignorError``).

    >>> from kpart.topology import default_topology
    >>> layout = layout_for(default_topology())
    >>> len(layout.replicas), layout.replicas[1], layout.leaders[1]
    (12, (5, 3, 4), 5)
    >>> [(name, ga.assignment[0]) for name, ga in layout.assignments][1]
    ('billing', ('billing-1', (('flights', (0, 5, 10)),)))
    """
    from kpart.consumer import assign
    from kpart.consumer.spec import GroupSpec, Member, Topic

    t = topology.topic
    replicas = replica_assignment(topology)
    rack_of = {b.id: b.rack for b in topology.brokers}
    replica_racks = None
    if topology.racks:
        replica_racks = tuple(tuple(rack_of[b] for b in r) for r in replicas)
    topic = Topic(t.name, t.partitions, replica_racks)
    assignments = []
    for g in topology.groups:
        members = tuple(Member(m.id, (t.name,), m.rack, m.instance_id) for m in g.members)
        assignments.append((g.name, assign(GroupSpec((topic,), members), g.strategy)))
    return Layout(replicas, tuple(assignments))


@dataclass(frozen=True, slots=True)
class ResolvedTopology:
    """A topology with everything the report derives from it looked up once:

    * ``topology``: the topology itself (its topic's ``partitioner`` is the producer's);
    * ``partitioner``: that producer's :class:`~kpart.producer.clients.ClientPartitioner`;
    * ``key_partitioner``: what hashes the keys, the partitioner's id or the ``"spark:hash"``
      baseline (:func:`kpart.spark.with_partition`);
    * ``serializer``: the key serializer (the topic's ``key_serializer``);
    * ``layout``: the replicas and group assignments (:func:`layout_for`);
    * ``null_keys``: the producer's :class:`~kpart.producer.null_keys.NullKeyRule` (the topic's
      ``null_key_strategy``, ``batch_size`` and null-key seed).
    """

    topology: Topology
    partitioner: ClientPartitioner
    key_partitioner: str
    serializer: str
    layout: Layout
    null_keys: NullKeyRule

    @property
    def topic(self) -> TopicConfig:
        """The topology's topic."""
        return self.topology.topic


def resolve_topology(topology: Topology | ResolvedTopology,
                     key_partitioner: str | None = None) -> ResolvedTopology:
    """Resolve ``topology`` once (see :class:`ResolvedTopology`); ``key_partitioner`` (default:
    the topic's partitioner) hashes the keys instead, e.g. ``"spark:hash"``. A topology already
    resolved is returned as it is (nothing is computed twice) unless ``key_partitioner`` asks
    for another one. ``ConfigError`` for an unknown partitioner or null-key strategy;
    ``AdminUtils``' and the assignors' errors.

    >>> from kpart.topology import default_topology
    >>> r = resolve_topology(default_topology())
    >>> r.partitioner.id, r.key_partitioner, r.serializer, r.null_keys.strategy
    ('java:default', 'java:default', 'string', 'builtin')
    >>> r.layout.leaders == layout_for(default_topology()).leaders
    True
    >>> resolve_topology(r) is r
    True
    """
    if isinstance(topology, ResolvedTopology):
        if key_partitioner in (None, topology.key_partitioner):
            return topology
        topology = topology.topology
    t = topology.topic
    rule = NullKeyRule.of(t.null_key_strategy, t.partitioner, batch_size=t.batch_size,
                          seed=t.effective_null_key_seed)
    return ResolvedTopology(topology, rule.partitioner, key_partitioner or t.partitioner,
                            t.key_serializer, layout_for(topology), rule)
