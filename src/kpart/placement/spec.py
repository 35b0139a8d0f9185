"""Value types of replica placement, shaped like Kafka's ``org.apache.kafka.metadata.placement``:
``ReplicaPlacer.place(PlacementSpec, ClusterDescriber) -> TopicAssignment``.

* :class:`Broker` mirrors ``org.apache.kafka.admin.BrokerMetadata`` (id + optional rack) and
  KRaft's ``UsableBroker`` (id, rack, fenced);
* :class:`PlacementSpec` is ``PlacementSpec`` (what to place: start partition, partition count,
  replicas) plus AdminUtils' ``fixedStartIndex``;
* :class:`ClusterDescriber` is ``ClusterDescriber`` (``usableBrokers()``), and
  :class:`StaticCluster` a fixed, in-memory one;
* :class:`TopicAssignment` is ``TopicAssignment`` (one replica list per placed partition, the
  preferred leader first), numbered from the spec's start partition;
* :class:`ReplicaPlacer` is the interface both placers implement
  (:class:`~kpart.placement.admin_utils.AdminUtilsReplicaPlacer`,
  :class:`~kpart.placement.striped_replica_placer.StripedReplicaPlacer`).

A topic assignment as a mapping is ``{partition: (broker, ...)}`` (:data:`ReplicaAssignment`,
``kafka-topics.sh --describe``'s view).

>>> Broker(1, "rack-a")
Broker(id=1, rack='rack-a', fenced=False)
>>> a = TopicAssignment(((0, 1), (1, 2)), start_partition=4)
>>> a.to_dict(), a == TopicAssignment(((0, 1), (1, 2)), 4)
({4: (0, 1), 5: (1, 2)}, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from kpart.errors import ConfigError
from kpart.limits import check_broker_id

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa

__all__ = [
    "Broker",
    "ClusterDescriber",
    "PartitionAssignment",
    "PlacementSpec",
    "ReplicaAssignment",
    "ReplicaPlacer",
    "StaticCluster",
    "TopicAssignment",
]

#: ``{partition id: (broker id, ...)}``, preferred leader first.
ReplicaAssignment = dict[int, tuple[int, ...]]

#: Kafka's ``PartitionAssignment``: one partition's replica ids, the preferred leader first.
PartitionAssignment = tuple[int, ...]

_INT_MAX = 2**31 - 1


@dataclass(frozen=True, slots=True)
class Broker:
    """A broker: ``id`` (int ≥ 0), ``rack`` (``broker.rack``, ``None`` when unset) and
    ``fenced`` (KRaft: a fenced broker never becomes a leader). Errors: ``ConfigError``."""

    id: int
    rack: str | None = None
    fenced: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.id, int) or isinstance(self.id, bool) or self.id < 0:
            raise ConfigError(f"Invalid broker id {self.id!r}: must be an integer >= 0.")
        check_broker_id(self.id, "broker id")
        if self.rack is not None and (not isinstance(self.rack, str) or not self.rack):
            raise ConfigError(f"Invalid rack {self.rack!r} for broker {self.id}.")


def _check_index(name: str, value: int) -> None:
    """``ConfigError`` about parameter ``name`` unless ``value`` is an int in ``[0, 2**31 - 1]``
    (a Java ``int`` index); used by :class:`PlacementSpec` and AdminUtils' argument list."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= _INT_MAX:
        raise ConfigError.about(
            name, "Invalid {param} {value!r}: must be an integer in [0, {limit}].",
            value=value, limit=_INT_MAX)


@dataclass(frozen=True, slots=True)
class PlacementSpec:
    """What to place (Kafka's ``PlacementSpec``): ``num_partitions`` partitions of
    ``replication_factor`` replicas each (Kafka's ``numReplicas``), the first of them numbered
    ``start_partition`` (0 when creating a topic, the current partition count when adding
    partitions).

    ``fixed_start_index`` is AdminUtils' ``fixedStartIndex`` (the start index *and* the replica
    shift; ``None`` = Kafka's ``-1``: draw both at random); the KRaft placer has no such notion
    and refuses it.

    The counts are checked by the placer that reads them, with that placer's Kafka message
    (the two differ). Errors here: ``ConfigError`` when ``start_partition`` or
    ``fixed_start_index`` is not an integer in ``[0, 2**31 - 1]``.

    >>> PlacementSpec(6, 3, fixed_start_index=2)
    PlacementSpec(num_partitions=6, replication_factor=3, start_partition=0, fixed_start_index=2)
    >>> PlacementSpec(1, 1, start_partition=-1)
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: Invalid start_partition -1: must be an integer in [0, 2147483647].
    """

    num_partitions: int
    replication_factor: int
    start_partition: int = 0
    fixed_start_index: int | None = None

    def __post_init__(self) -> None:
        if self.fixed_start_index is not None:
            _check_index("fixed_start_index", self.fixed_start_index)
        _check_index("start_partition", self.start_partition)


class ClusterDescriber(Protocol):
    """What a placer may ask about the cluster: KRaft's
    ``org.apache.kafka.metadata.placement.ClusterDescriber``.

    It answers one query, :meth:`usable_brokers`: the brokers replicas may go to, with their
    rack and fenced state (Kafka's interface also has ``defaultNumPartitions``,
    ``defaultReplicationFactor`` and ``isDirectoryOnline``, which no kpart placer asks). A
    structural protocol: any object with that method is a describer; :class:`StaticCluster`
    is the in-memory one, and a test may pass a tiny fake of its own:

    >>> class TwoBrokers:
    ...     def usable_brokers(self):
    ...         return iter((Broker(0, "a"), Broker(1, "b", fenced=True)))
    >>> from kpart import JavaRandom
    >>> from kpart.placement.striped_replica_placer import StripedReplicaPlacer
    >>> StripedReplicaPlacer(JavaRandom(0)).place(PlacementSpec(1, 2), TwoBrokers()).replicas(0)
    (0, 1)
    """

    def usable_brokers(self) -> Iterator[Broker]:
        """The brokers replicas may be placed on (Kafka's ``usableBrokers()``: ``UsableBroker``
        values, here :class:`Broker`), in the order the cluster lists them."""
        ...


@dataclass(frozen=True, slots=True)
class StaticCluster:
    """A fixed cluster description: ``brokers`` in the order the cluster lists them (the order
    matters to rack-unaware AdminUtils). Errors: ``ConfigError`` for a value that is not a
    :class:`Broker` (use :meth:`of` for bare ids).

    >>> StaticCluster.of([0, Broker(1, "r")]).without_racks()
    StaticCluster(brokers=(Broker(id=0, rack=None, fenced=False), \
Broker(id=1, rack=None, fenced=False)))
    """

    brokers: tuple[Broker, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "brokers", tuple(self.brokers))  # a tuple stays itself
        for b in self.brokers:
            if not isinstance(b, Broker):
                raise ConfigError(f"Not a Broker: {b!r}")

    @classmethod
    def of(cls, brokers: Iterable[Broker | int]) -> StaticCluster:
        """The cluster of ``brokers``, a bare id standing for a broker without rack."""
        return cls(tuple(b if isinstance(b, Broker) else Broker(b) for b in brokers))

    def usable_brokers(self) -> Iterator[Broker]:
        """``brokers``, in order (:meth:`ClusterDescriber.usable_brokers`; fenced ones
        included: the placer decides what fencing means).

        >>> [b.id for b in StaticCluster.of([2, 0, 1]).usable_brokers()]
        [2, 0, 1]
        """
        return iter(self.brokers)

    def without_racks(self) -> StaticCluster:
        """The same brokers without ``broker.rack`` (Kafka's ``RackAwareMode.Disabled``,
        ``--disable-rack-aware``: the brokers are read without their racks)."""
        return StaticCluster(tuple(Broker(b.id, None, b.fenced) for b in self.brokers))


@dataclass(frozen=True, slots=True)
class TopicAssignment:
    """The result of a placement (Kafka's ``TopicAssignment``): ``assignments[i]`` holds the
    replicas of partition ``start_partition + i``, preferred leader first (Kafka's list of
    ``PartitionAssignment``; its callers number them from ``PlacementSpec.startPartition``).
    Shape: ``len(assignments)`` partitions, each a tuple of ``replication_factor`` broker ids.
    A value: equal (and hashing alike) when the replicas and the numbering are.

    >>> a = TopicAssignment(((1, 2), (2, 0)), start_partition=3)
    >>> list(a.partitions), a.replicas(4)
    ([3, 4], (2, 0))
    >>> b = TopicAssignment([(1, 2), (2, 0)], 3)   # a list is stored as a tuple
    >>> a == b, hash(a) == hash(b)
    (True, True)
    """

    assignments: tuple[PartitionAssignment, ...]
    start_partition: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "assignments", tuple(self.assignments))  # a tuple stays itself

    @property
    def partitions(self) -> range:
        """The partition ids placed, in order."""
        return range(self.start_partition, self.start_partition + len(self.assignments))

    def replicas(self, partition: int) -> PartitionAssignment:
        """Replicas of ``partition`` (Kafka's ``PartitionAssignment.replicas()``), preferred
        leader first. Errors: ``KeyError`` for a partition not placed here.

        >>> a = TopicAssignment(((0, 1), (1, 2)), start_partition=4)
        >>> a.replicas(5)
        (1, 2)
        >>> a.replicas(0)
        Traceback (most recent call last):
        ...
        KeyError: 0
        """
        i = partition - self.start_partition
        if not 0 <= i < len(self.assignments):
            raise KeyError(partition)
        return self.assignments[i]

    def to_dict(self) -> ReplicaAssignment:
        """``{partition: (broker, ...)}`` (:data:`ReplicaAssignment`, a new, mutable dict),
        partitions in increasing order.

        >>> TopicAssignment(((0, 1), (1, 2)), start_partition=4).to_dict()
        {4: (0, 1), 5: (1, 2)}
        """
        return dict(zip(self.partitions, self.assignments, strict=True))

    def to_arrow(self, topic: str) -> pa.Table:
        """The placement as an Arrow table, one row per partition in increasing order:
        ``topic`` (string, ``topic`` on every row: a :class:`TopicAssignment` does not know its
        topic's name), ``partition`` (int32, from :attr:`start_partition`) and ``replicas``
        (list<int32>, the broker ids, preferred leader first).

        Shape: ``len(assignments)`` rows. The replica lists are read in one pass into flat
        int32 arrays (no per-partition Python work): about 0.3 s for a million partitions of
        three replicas.

        >>> a = TopicAssignment(((0, 1), (1, 2)), start_partition=4)
        >>> a.to_arrow("orders").to_pylist()  # doctest: +NORMALIZE_WHITESPACE
        [{'topic': 'orders', 'partition': 4, 'replicas': [0, 1]},
         {'topic': 'orders', 'partition': 5, 'replicas': [1, 2]}]
        """
        import numpy as np
        import pyarrow as pa

        from kpart._arrow import constant, int32_array, int32_lists

        n = len(self.assignments)
        first = self.start_partition
        return pa.table({
            "topic": constant(topic, pa.string(), n),
            "partition": int32_array(np.arange(first, first + n, dtype=np.int32)),
            "replicas": int32_lists(self.assignments),
        })


class ReplicaPlacer(Protocol):
    """KRaft's ``org.apache.kafka.metadata.placement.ReplicaPlacer``:
    ``place(PlacementSpec, ClusterDescriber) -> TopicAssignment`` places the partitions
    ``spec`` asks for on the brokers ``cluster`` describes. A pure function of its inputs (and
    of the placer's own random generator); ``name`` is the placer's kpart name
    (``kpart place --placer``).

    Implementations: :class:`~kpart.placement.admin_utils.AdminUtilsReplicaPlacer`
    (``"adminutils"``) and :class:`~kpart.placement.striped_replica_placer.StripedReplicaPlacer`
    (``"striped"``).

    >>> from kpart.placement.admin_utils import AdminUtilsReplicaPlacer
    >>> placer: ReplicaPlacer = AdminUtilsReplicaPlacer()
    >>> placer.place(PlacementSpec(2, 2, fixed_start_index=0), StaticCluster.of([0, 1, 2]))
    TopicAssignment(assignments=((0, 1), (1, 2)), start_partition=0)
    """

    name: str

    def place(self, spec: PlacementSpec, cluster: ClusterDescriber) -> TopicAssignment:
        """The replicas of each partition of ``spec``. Errors: Kafka's
        ``InvalidReplicationFactorError`` (and the placer's other checks)."""
        ...
