"""A producer's view of cluster metadata, as ``org.apache.kafka.common.Cluster`` offers it to a
``Partitioner``: the partitions of a topic, the leader of each, the brokers and their racks,
and which partitions are *available* (have a leader).

Only the queries partitioners use are modelled. Partition lists keep the order they were given
in (Kafka keeps the metadata response's order, normally ascending partition ids); "available"
partitions are the subsequence whose leader is known, in the same order.

>>> c = ProducerCluster.of("orders", leaders=[1, 2, None, 1], racks={1: "north", 2: "south"})
>>> [p.partition for p in c.partitions_for_topic("orders")]
[0, 1, 2, 3]
>>> [p.partition for p in c.available_partitions_for_topic("orders")]
[0, 1, 3]
>>> c.node_by_id(2).rack
'south'
>>> c.leader_for("orders", 1).id
2
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from kpart.errors import ConfigError

__all__ = ["Cluster", "Node", "PartitionInfo", "ProducerCluster"]


@dataclass(frozen=True, slots=True)
class Node:
    """A broker (``org.apache.kafka.common.Node``): ``id``, ``host``, ``port`` and ``rack``."""

    id: int
    host: str = "localhost"
    port: int = 9092
    rack: str | None = None


@dataclass(frozen=True, slots=True)
class PartitionInfo:
    """``org.apache.kafka.common.PartitionInfo``: a partition and its leader (``None`` = no
    leader, i.e. the partition is unavailable)."""

    topic: str
    partition: int
    leader: Node | None


@dataclass(frozen=True, slots=True)
class ProducerCluster:
    """Cluster metadata as a producer's partitioner sees it (Kafka's
    ``org.apache.kafka.common.Cluster``): ``nodes`` and, per topic, its ``PartitionInfo``
    tuple. Not the cluster model of :mod:`kpart.cluster` (brokers, replicas, loads): hence the
    name; :data:`Cluster` is the same class under its Kafka name, kept for existing code.

    Errors (:class:`~kpart.errors.ConfigError`): duplicate node ids, a partition whose leader
    is not a known node, partition ids that are not ``0..n-1`` for some order.
    """

    nodes: tuple[Node, ...]
    topics: tuple[tuple[str, tuple[PartitionInfo, ...]], ...]
    _by_topic: dict[str, tuple[PartitionInfo, ...]] = field(
        init=False, repr=False, compare=False, hash=False
    )
    _available: dict[str, tuple[PartitionInfo, ...]] = field(
        init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        ids = [n.id for n in self.nodes]
        if len(set(ids)) != len(ids):
            raise ConfigError(f"duplicate broker id in {ids}")
        known = set(ids)
        for topic, parts in self.topics:
            numbers = sorted(p.partition for p in parts)
            if numbers != list(range(len(parts))):
                raise ConfigError(f"partitions of topic {topic!r} must be 0..n-1, got {numbers}")
            for p in parts:
                if p.leader is not None and p.leader.id not in known:
                    raise ConfigError(
                        f"leader {p.leader.id} of {topic}-{p.partition} is not a known broker"
                    )
        # lookup tables (Kafka's Cluster precomputes the same lists)
        object.__setattr__(self, "_by_topic", dict(self.topics))
        object.__setattr__(
            self,
            "_available",
            {t: tuple(p for p in parts if p.leader is not None) for t, parts in self.topics},
        )

    @classmethod
    def of(
        cls,
        topic: str,
        leaders: Sequence[int | None],
        racks: Mapping[int, str | None] | None = None,
        hosts: Mapping[int, str] | None = None,
    ) -> ProducerCluster:
        """One topic whose partition ``i`` is led by broker ``leaders[i]`` (``None``: no
        leader). Brokers are the leaders named plus any in ``racks``/``hosts``."""
        racks = dict(racks or {})
        hosts = dict(hosts or {})
        ids = sorted({b for b in leaders if b is not None} | set(racks) | set(hosts))
        nodes = {b: Node(b, hosts.get(b, f"broker-{b}"), 9092, racks.get(b)) for b in ids}
        parts = tuple(
            PartitionInfo(topic, i, None if b is None else nodes[b]) for i, b in enumerate(leaders)
        )
        return cls(tuple(nodes.values()), ((topic, parts),))

    @classmethod
    def round_robin(cls, topic: str, num_partitions: int, num_brokers: int) -> ProducerCluster:
        """``num_partitions`` partitions, partition ``i`` led by broker ``i % num_brokers``.

        >>> [p.leader.id for p in ProducerCluster.round_robin("t", 5, 2).partitions_for_topic("t")]
        [0, 1, 0, 1, 0]
        """
        if num_partitions < 1:
            raise ConfigError(f"number of partitions must be at least 1, got {num_partitions}")
        if num_brokers < 1:
            raise ConfigError(f"number of brokers must be at least 1, got {num_brokers}")
        return cls.of(topic, [i % num_brokers for i in range(num_partitions)])

    def partitions_for_topic(self, topic: str) -> tuple[PartitionInfo, ...]:
        """All partitions of ``topic`` (empty if the topic is unknown)."""
        return self._by_topic.get(topic, ())

    def available_partitions_for_topic(self, topic: str) -> tuple[PartitionInfo, ...]:
        """The partitions of ``topic`` that have a leader."""
        return self._available.get(topic, ())

    def partition_count_for_topic(self, topic: str) -> int | None:
        """Number of partitions of ``topic``, or ``None`` if the topic is unknown."""
        parts = self.partitions_for_topic(topic)
        return len(parts) if parts else None

    def leader_for(self, topic: str, partition: int) -> Node | None:
        """The leader of ``topic``-``partition`` (``None``: unknown partition or no leader)."""
        for p in self.partitions_for_topic(topic):
            if p.partition == partition:
                return p.leader
        return None

    def partitions_for_node(self, node_id: int) -> tuple[PartitionInfo, ...]:
        """Partitions (of every topic) whose leader is broker ``node_id``."""
        return tuple(
            p
            for _, parts in self.topics
            for p in parts
            if p.leader is not None and p.leader.id == node_id
        )

    def node_by_id(self, node_id: int) -> Node | None:
        """The broker with id ``node_id``, or ``None``."""
        for n in self.nodes:
            if n.id == node_id:
                return n
        return None


#: :class:`ProducerCluster` under Kafka's class name (``org.apache.kafka.common.Cluster``), as
#: kpart exported it before the cluster model of :mod:`kpart.cluster` existed. Same class.
Cluster = ProducerCluster
