"""A topology resolved once: its replicas placed by ``AdminUtils.assignReplicasToBrokers`` (or,
with ``placer = "kraft"``, by the KRaft controller's ``StripedReplicaPlacer``), its partitions
assigned to every consumer group's members by the group's assignor (Kafka's
``ConsumerPartitionAssignor``), its producer's partitioner and null-key rule; each as the
topology's Kafka versions compute it (:meth:`kpart.topology.Topology.version_kwargs`: the
brokers' for placement and the KIP-848 assignors, the clients' for the classic ones).

Pure and deterministic once the topology has a ``placement_seed`` (without one, the replicas
are placed from a random start, like Kafka). :func:`layout_for` is what ``kpart report`` shows
per broker, rack and consumer; :func:`replica_assignment` alone places another partition count
(the what-if's leaders). :func:`resolve_topology` looks everything up once into a
:class:`ResolvedTopology` that the Spark job, the null-key model and the summary read.
:func:`resolve_cluster` does it for a topology of several topics sharing the brokers: replicas
placed topic after topic as the cluster would have placed them (or taken from the cluster as it
is), each group assigned over all the topics it subscribes to (:class:`ResolvedCluster`).

>>> from kpart.topology import default_topology
>>> t = default_topology()
>>> layout = layout_for(t)
>>> layout.replicas[0], layout.leaders[:4]
((4, 2, 3), (4, 5, 0, 1))
>>> [(name, len(a.assignment)) for name, a in layout.assignments]
[('delay-analytics', 3), ('billing', 5)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kpart.consumer.assignment import GroupAssignment
from kpart.errors import ConfigError
from kpart.producer.null_keys import NullKeyRule
from kpart.topology import ConsumerGroupConfig, TopicConfig, Topology

if TYPE_CHECKING:  # pragma: no cover
    from kpart._java.random import JavaRandom
    from kpart.cluster.model import ClusterModel
    from kpart.consumer.spec import GroupSpec, Topic
    from kpart.producer.clients import ClientPartitioner

__all__ = [
    "Layout",
    "ResolvedCluster",
    "ResolvedTopology",
    "group_specs",
    "layout_for",
    "replica_assignment",
    "resolve_cluster",
    "resolve_topology",
]


@dataclass(frozen=True, slots=True)
class Layout:
    """Placement and assignment of a topology: ``replicas[p]``, the brokers holding partition
    ``p`` (preferred leader first), and each group's
    :class:`~kpart.consumer.assignment.GroupAssignment`, in topology order."""

    replicas: tuple[tuple[int, ...], ...]
    assignments: tuple[tuple[str, GroupAssignment], ...]

    @property
    def leaders(self) -> tuple[int, ...]:
        """``leaders[p]``: the preferred leader of partition ``p`` (its first replica). A
        topology without brokers (the producer view: no replicas) gives ``p`` itself, each
        partition its own leader, as the null-key model assumes when no leaders are known
        (:func:`kpart.producer.null_keys.null_key_distribution`).

        >>> Layout(((), ()), ()).leaders
        (0, 1)
        """
        return tuple(r[0] if r else p for p, r in enumerate(self.replicas))

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
    brokers as the topology's ``placer`` places a new topic: ``admin-utils``, as
    ``kafka-topics --create`` does (:func:`kpart.placement.admin_utils.assign_replicas_to_brokers`
    with the topic's ``replication_factor``, ``placement_seed`` and ``rack_aware``), or
    ``kraft``, as the KRaft controller does (a fresh
    :class:`~kpart.placement.striped_replica_placer.StripedReplicaPlacer` on
    ``JavaRandom(placement_seed)``): ``result[p]``, preferred leader first; ``()`` for every
    partition of a topology without brokers (the producer view). Errors are the placer's
    (``InvalidReplicationFactorError``, ...).

    >>> from kpart.topology import default_topology
    >>> replica_assignment(default_topology(), 2)
    ((4, 2, 3), (5, 3, 4))
    """
    from kpart.placement.admin_utils import assign_replicas_to_brokers

    t = topology.topic
    n = t.partitions if num_partitions is None else num_partitions
    if not topology.brokers or t.replication_factor is None:  # the producer view: no placement
        return tuple(() for _ in range(n))
    if topology.placer == "kraft":
        from kpart._java.random import JavaRandom

        return _striped(topology, t, n, JavaRandom(t.placement_seed))
    replicas = assign_replicas_to_brokers(topology.brokers, n, t.replication_factor,
                                          seed=t.placement_seed, rack_aware=t.rack_aware)
    return tuple(tuple(replicas[p]) for p in range(n))


def _striped(topology: Topology, topic: TopicConfig, num_partitions: int,
             random: JavaRandom) -> tuple[tuple[int, ...], ...]:
    """``num_partitions`` partitions of ``topic`` placed by ``StripedReplicaPlacer(random)`` on
    the topology's brokers (without their racks when the topic is not ``rack_aware``)."""
    from kpart.placement.spec import PlacementSpec, StaticCluster
    from kpart.placement.striped_replica_placer import StripedReplicaPlacer

    if topic.replication_factor is None:  # the producer view: no placement
        return tuple(() for _ in range(num_partitions))
    cluster = StaticCluster(topology.brokers)
    if not topic.rack_aware:
        cluster = cluster.without_racks()
    placed = StripedReplicaPlacer(random, **topology.version_kwargs()).place(
        PlacementSpec(num_partitions, topic.replication_factor), cluster)
    return tuple(tuple(r) for r in placed.assignments)


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
        assignments.append((g.name, assign(GroupSpec((topic,), members), g.strategy,
                                           **topology.version_kwargs(g))))
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
    return _resolved(topology, key_partitioner, layout_for(topology))


def _resolved(topology: Topology, key_partitioner: str | None,
              layout: Layout) -> ResolvedTopology:
    t = topology.topic
    rule = NullKeyRule.of(t.null_key_strategy, t.partitioner, batch_size=t.batch_size,
                          seed=t.effective_null_key_seed, **topology.version_kwargs(t))
    return ResolvedTopology(topology, rule.partitioner, key_partitioner or t.partitioner,
                            t.key_serializer, layout, rule)


# -- a cluster of topics --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ResolvedCluster:
    """A topology of one or more topics resolved once (:func:`resolve_cluster`):

    * ``topology``: the topology itself;
    * ``topics``: per topic, in topology order, what :func:`resolve_topology` gives for
      ``topology.for_topic(name)``, but with the replicas placed cluster-wide
      (``layout.replicas``: topic after topic, or the existing cluster's) and no group
      (``layout.assignments == ()``: groups span topics, see ``assignments``);
    * ``leaders[i][p]``: the current leader of partition ``p`` of topic ``i`` (the preferred
      one, ``replicas[0]``, unless taken from an existing cluster, where ``-1`` = no leader);
    * ``assignments``: one ``(group name, GroupAssignment)`` per group, topology order, each
      assigned over ALL the topics its members subscribe to (one ``GroupSpec`` with several
      ``Topic`` entries, as Kafka's assignors see them).
    """

    topology: Topology
    topics: tuple[ResolvedTopology, ...]
    leaders: tuple[tuple[int, ...], ...]
    assignments: tuple[tuple[str, GroupAssignment], ...]

    def owners(self, group: str) -> dict[tuple[str, int], str]:
        """``(topic, partition)`` → the member of ``group`` it is assigned to (unassigned ones
        left out). ``KeyError`` for a group the topology does not have.

        >>> from kpart.topology import demo_topology
        >>> owners = resolve_cluster(demo_topology()).owners("ops")
        >>> len(owners), sorted({t for t, _ in owners})
        (15, ['flights', 'weather'])
        """
        ga = dict(self.assignments)[group]
        return {(t, p): m for m, owned in ga.assignment for t, ps in owned for p in ps}

    def topic_index(self, name: str) -> int:
        """Position of topic ``name`` in :attr:`topics` (``KeyError`` if unknown)."""
        for i, r in enumerate(self.topics):
            if r.topic.name == name:
                return i
        raise KeyError(name)


def resolve_cluster(topology: Topology, *, key_partitioner: str | None = None,
                    existing: ClusterModel | None = None) -> ResolvedCluster:
    """Resolve every topic of ``topology`` and its groups (see :class:`ResolvedCluster`).

    Replicas are placed topic after topic, in topology order, by the topology's ``placer``:
    ``admin-utils``, each topic as :func:`replica_assignment` places it alone (``AdminUtils``
    draws from ``JavaRandom(placement_seed)`` per ``kafka-topics --create``); ``kraft``, one
    :class:`~kpart.placement.striped_replica_placer.StripedReplicaPlacer` on one
    ``JavaRandom`` seeded by the FIRST topic's ``placement_seed`` (``None``: random), as the
    controller keeps one placer for all the topics it creates (the first topic is then placed
    as :func:`replica_assignment` places it; the next ones continue the same draws).

    ``existing``: the cluster as it is (a :class:`~kpart.cluster.model.ClusterModel` from a
    ``--describe`` dump or ``cluster.json``): a topic it holds takes its replicas, leaders and
    partition count from it, and is not placed (nor does it draw from the KRaft placer's
    Random); its replication factor is the snapshot's, partition by partition.

    Groups: each member subscribes to its group's topics
    (:meth:`~kpart.topology.Topology.group_topics`); the group is assigned over all of them at
    once by :func:`kpart.consumer.assign` with the group's strategy, partitions carrying their
    replicas' racks when the brokers have racks.

    Errors: ``ConfigError`` naming the topic when ``existing`` has a topic with another
    partition count than the topology, a partition missing, or a replica on a broker the
    topology does not list; the placers' and assignors' errors.

    >>> from kpart.topology import demo_topology
    >>> c = resolve_cluster(demo_topology())
    >>> [(r.topic.name, len(r.layout.replicas)) for r in c.topics], c.leaders[1]
    ([('flights', 12), ('weather', 3)], (0, 1, 2))
    >>> [(g, len(a.assignment)) for g, a in c.assignments]
    [('ops', 3), ('delay-analytics', 3)]
    """
    current = _existing(topology, existing) if existing is not None else {}
    random = None
    if topology.placer == "kraft":
        from kpart._java.random import JavaRandom

        random = JavaRandom(topology.topic.placement_seed)
    resolved: list[ResolvedTopology] = []
    leaders: list[tuple[int, ...]] = []
    for t in topology.topics:
        single = topology.for_topic(t.name)
        if t.name in current:
            replicas, led = current[t.name]
        else:
            replicas = (replica_assignment(single) if random is None
                        else _striped(topology, t, t.partitions, random))
            led = tuple(r[0] if r else -1 for r in replicas)  # -1: no brokers, no leader
        resolved.append(_resolved(single, key_partitioner, Layout(replicas, ())))
        leaders.append(led)
    return ResolvedCluster(topology, tuple(resolved), tuple(leaders),
                           _assign_groups(topology, resolved))


def _assign_groups(topology: Topology, resolved: list[ResolvedTopology]
                   ) -> tuple[tuple[str, GroupAssignment], ...]:
    """Each group assigned over all its topics (one GroupSpec with several Topic entries)."""
    from kpart.consumer import assign

    return tuple((g.name, assign(spec, g.strategy, **topology.version_kwargs(g)))
                 for g, spec in group_specs(topology, resolved))


def group_specs(topology: Topology, resolved: Sequence[ResolvedTopology]
                ) -> tuple[tuple[ConsumerGroupConfig, GroupSpec], ...]:
    """Each group of ``topology`` (topology order) and the
    :class:`~kpart.consumer.spec.GroupSpec` its assignor sees: its members in join order, each
    subscribed to the group's topics (:meth:`~kpart.topology.Topology.group_topics`), the
    topics' partitions as ``resolved`` places them (one :class:`ResolvedTopology` per topic of
    ``topology``, in order), carrying their replicas' racks when the brokers have racks.

    >>> from kpart.topology import demo_topology
    >>> c = resolve_cluster(demo_topology())
    >>> [(g.name, [t.name for t in s.topics]) for g, s in group_specs(c.topology, c.topics)]
    [('ops', ['flights', 'weather']), ('delay-analytics', ['flights'])]
    """
    from kpart.consumer.spec import GroupSpec, Member

    if not topology.groups:
        return ()
    rack_of = {b.id: b.rack for b in topology.brokers} if topology.racks else None
    specs = {r.topic.name: _topic_spec(r, rack_of) for r in resolved}
    out = []
    for g in topology.groups:
        names = topology.group_topics(g)
        members = tuple(Member(m.id, names, m.rack, m.instance_id) for m in g.members)
        out.append((g, GroupSpec(tuple(specs[n] for n in names), members)))
    return tuple(out)


def _topic_spec(r: ResolvedTopology, rack_of: dict[int, str | None] | None) -> Topic:
    from kpart.consumer.spec import Topic

    replicas = r.layout.replicas
    racks = None if rack_of is None else tuple(tuple(rack_of[b] for b in rs) for rs in replicas)
    return Topic(r.topic.name, len(replicas), racks)


def _existing(topology: Topology, model: ClusterModel
              ) -> dict[str, tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]]:
    """Topic name → (replicas, leaders) of the topology's topics that ``model`` holds."""
    import numpy as np

    index = {t.name: i for i, t in enumerate(model.topics)}
    known = np.array(sorted(b.id for b in topology.brokers), dtype=np.int64)
    out = {}
    for i, t in enumerate(topology.topics):
        if t.name not in index:
            continue
        where = f"topic ({t.name})" if topology.form == "topic" else f"topics[{i}] ({t.name})"
        rows = np.flatnonzero(model.topic == index[t.name])
        parts = model.partition[rows]
        if len(rows) != t.partitions:
            raise ConfigError(f"{where}.partitions: {t.partitions} in the topology, "
                              f"{len(rows)} in the existing cluster (make them agree)")
        if len(rows) and int(parts[-1]) != len(rows) - 1:
            missing = int(np.setdiff1d(np.arange(len(rows)), parts)[0])
            raise ConfigError(f"{where}: partition {missing} is missing from the existing "
                              f"cluster (it lists partitions up to {int(parts[-1])})")
        replicas = model.replicas[rows]
        outside = (replicas >= 0) & ~np.isin(replicas, known)
        if outside.any():
            row, col = np.argwhere(outside)[0]
            raise ConfigError(
                f"{where}: partition {int(parts[row])} has a replica on broker "
                f"{int(replicas[row, col])}, which the topology's cluster.brokers does not list "
                f"({', '.join(str(b) for b in known.tolist())})")
        out[t.name] = (tuple(tuple(int(b) for b in r if b >= 0) for r in replicas.tolist()),
                       tuple(int(x) for x in model.leader[rows].tolist()))
    return out
