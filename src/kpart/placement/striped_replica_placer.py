"""``org.apache.kafka.metadata.placement.StripedReplicaPlacer`` (KIP-500/KIP-631): the KRaft
controller's replica placement, exact to the draw of its ``java.util.Random``.

How Kafka places (restated from its javadoc): brokers are grouped into racks (brokers without
``broker.rack`` form one rack, sorted first); each rack keeps a sorted list of unfenced and
one of fenced brokers, each with a random start offset. Partition after partition, the
first replica (the leader) comes from the next rack, in round robin from a random rack
offset, that still has an unfenced broker this *epoch*; the followers come from the
following racks in turn (unfenced brokers first, then fenced ones). The rack offset moves by
one per partition, which gives the characteristic "striped" pattern. Once as many partitions
as there are unfenced brokers have been placed, the rack list and every broker list are
reshuffled (``Collections.shuffle``) and a new epoch starts.

Every call of :meth:`StripedReplicaPlacer.place` builds a fresh rack list from the same
Random (as the controller does per topic), so consecutive placements on one placer are a
deterministic function of the seed, exactly as in Kafka. Racks are initialised and shuffled
in the iteration order of Kafka's ``HashMap<Optional<String>, Rack>``
(:func:`kpart._java.hashing.hashmap_order`).

>>> from kpart import JavaRandom
>>> from kpart.placement.spec import PlacementSpec, StaticCluster
>>> placer = StripedReplicaPlacer(JavaRandom(0))
>>> placer.place(PlacementSpec(2, 2), StaticCluster.of([0, 1, 2]))
TopicAssignment(assignments=((0, 1), (1, 2)), start_partition=0)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import overload

from kpart._java.hashing import hashmap_order
from kpart._java.random import JavaRandom, shuffle
from kpart._java.strings import java_string_key
from kpart.errors import ConfigError, InvalidPartitionsError, InvalidReplicationFactorError
from kpart.limits import check_placement
from kpart.placement.spec import (
    Broker,
    ClusterDescriber,
    PartitionAssignment,
    PlacementSpec,
    TopicAssignment,
)
from kpart.versions import KafkaVersion, behaviour

__all__ = ["StripedReplicaPlacer"]


class _BrokerList:
    """``StripedReplicaPlacer.BrokerList``: brokers iterated from an offset, once per epoch."""

    __slots__ = ("brokers", "epoch", "index", "offset")

    def __init__(self) -> None:
        self.brokers: list[int] = []
        self.index = 0
        self.offset = 0
        self.epoch = 0

    def initialize(self, random: JavaRandom) -> None:
        if self.brokers:
            self.brokers.sort()
            self.offset = random.next_int(len(self.brokers))

    def next(self, epoch: int) -> int:
        size = len(self.brokers)
        if size == 0:
            return -1
        if self.epoch != epoch:
            self.epoch = epoch
            self.index = 0
            self.offset = (self.offset + 1) % size
        if self.index >= size:
            return -1
        broker = self.brokers[(self.index + self.offset) % size]
        self.index += 1
        return broker


class _Rack:
    """``StripedReplicaPlacer.Rack``: its fenced and unfenced broker lists."""

    __slots__ = ("fenced", "unfenced")

    def __init__(self) -> None:
        self.fenced = _BrokerList()
        self.unfenced = _BrokerList()

    def initialize(self, random: JavaRandom) -> None:
        self.fenced.initialize(random)
        self.unfenced.initialize(random)

    def shuffle(self, random: JavaRandom) -> None:
        shuffle(self.fenced.brokers, random)
        shuffle(self.unfenced.brokers, random)

    def next(self, epoch: int) -> int:
        result = self.unfenced.next(epoch)
        return result if result >= 0 else self.fenced.next(epoch)


def _rack_sort_key(rack: str | None) -> tuple[int, bytes]:
    # OptionalStringComparator: empty first, then String.compareTo (UTF-16 code units).
    return (0, b"") if rack is None else (1, java_string_key(rack))


class _RackList:
    """``StripedReplicaPlacer.RackList``: the racks, the epoch and the rack offset."""

    __slots__ = ("epoch", "messages", "num_total", "num_unfenced", "offset", "rack_names",
                 "racks", "random", "racks_hash_order")

    def __init__(self, random: JavaRandom, brokers: Iterable[Broker],
                 messages: str = "cordoned") -> None:
        self.random = random
        self.messages = messages  # the striped_placer rule's behaviour (kpart.versions)
        self.racks: dict[str | None, _Rack] = {}
        names: list[str | None] = []
        self.num_total = self.num_unfenced = 0
        for broker in brokers:
            rack = self.racks.get(broker.rack)
            if rack is None:
                names.append(broker.rack)
                rack = self.racks[broker.rack] = _Rack()
            if broker.fenced:
                rack.fenced.brokers.append(broker.id)
            else:
                self.num_unfenced += 1
                rack.unfenced.brokers.append(broker.id)
            self.num_total += 1
        # Kafka iterates racks.values() of its HashMap: emulate that order.
        self.racks_hash_order = [self.racks[name] for name in hashmap_order(names)]
        for rack in self.racks_hash_order:
            rack.initialize(random)
        self.rack_names = sorted(names, key=_rack_sort_key)
        self.epoch = 0
        self.offset = random.next_int(len(names)) if names else 0

    def place(self, replication_factor: int) -> list[int]:
        _check_positive(replication_factor)
        _check_enough_brokers(replication_factor, self.num_total, self.messages)
        _check_unfenced(self.num_unfenced, self.messages)
        if self.epoch == self.num_unfenced and self.num_unfenced > 1:
            self._shuffle()
            self.epoch = 0
        if self.offset == len(self.rack_names):
            self.offset = 0
        epoch = self.epoch
        names = self.rack_names
        brokers: list[int] = []
        first_rack = self.offset
        while True:  # the leader: first rack (from the offset) with an unfenced broker left
            result = self.racks[names[first_rack]].unfenced.next(epoch)
            if result >= 0:
                brokers.append(result)
                break
            first_rack += 1
            if first_rack == len(names):
                first_rack = 0
        rack_index = self.offset
        for _ in range(1, replication_factor):
            result = -1
            while result < 0:
                if rack_index == first_rack:
                    first_rack = -1  # skip the leader's rack once
                else:
                    result = self.racks[names[rack_index]].next(epoch)
                rack_index += 1
                if rack_index == len(names):
                    rack_index = 0
            brokers.append(result)
        self.epoch += 1
        self.offset += 1
        return brokers

    def _shuffle(self) -> None:
        shuffle(self.rack_names, self.random)
        for rack in self.racks_hash_order:
            rack.shuffle(self.random)


def _check_positive(replication_factor: int) -> None:
    if replication_factor <= 0:
        raise InvalidReplicationFactorError(
            f"Invalid replication factor {replication_factor}: "
            "the replication factor must be positive."
        )


def _check_unfenced(num_unfenced: int, messages: str) -> None:
    if num_unfenced == 0:
        raise InvalidReplicationFactorError(
            "All brokers are currently fenced." if messages == "fenced" else
            "All brokers are currently fenced, or have all their log directories cordoned.")


def _check_enough_brokers(replication_factor: int, num_total: int, messages: str) -> None:
    if replication_factor > num_total:
        tail = "" if messages == "fenced" else (
            " or some brokers have all their log directories cordoned")
        raise InvalidReplicationFactorError(
            f"The target replication factor of {replication_factor} cannot be reached "
            f"because only {num_total} broker(s) are registered{tail}."
        )


class StripedReplicaPlacer:
    """``new StripedReplicaPlacer(random)``: one placer, one ``java.util.Random``, many
    placements (the controller keeps one for its lifetime); a
    :class:`~kpart.placement.spec.ReplicaPlacer`.

    ``random``: a :class:`~kpart.JavaRandom` (``JavaRandom(seed)`` to reproduce Kafka's
    choices; Kafka's controller uses an unseeded one). The placer draws from it on every
    :meth:`place` call, so the order of calls matters.

    ``kafka_version`` (default: the newest release, 4.3): the brokers' Kafka version, looked
    up in :mod:`kpart.versions` (rule ``striped_placer``). The placement is the same from
    3.0.0 (the KRaft controller's first release) to 4.3; from 4.3.0 (KIP-1066) its
    ``InvalidReplicationFactorException`` messages also name cordoned log directories.
    ``ConfigError`` naming the version before 3.0.0 (no KRaft, no striped placer).

    >>> StripedReplicaPlacer(JavaRandom(0), kafka_version="2.8")
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: The KRaft striped placer does not exist in kafka_version '2.8': the KRaft controller and its StripedReplicaPlacer start in 3.0.0; kpart supports it for 3.0.0 to 4.3.1
    """

    __slots__ = ("_messages", "_random")

    name = "striped"

    def __init__(self, random: JavaRandom,
                 kafka_version: str | KafkaVersion | None = None) -> None:
        if not isinstance(random, JavaRandom):
            raise TypeError(f"random must be a JavaRandom, got {random!r}")
        self._random = random
        self._messages = behaviour("striped_placer", kafka_version)

    @overload
    def place(self, spec: PlacementSpec, cluster: ClusterDescriber) -> TopicAssignment: ...

    @overload
    def place(self, *, brokers: Iterable[Broker], num_partitions: int, replication_factor: int,
              start_partition: int = 0) -> list[PartitionAssignment]: ...

    def place(
        self,
        spec: PlacementSpec | None = None,
        cluster: ClusterDescriber | None = None,
        *,
        brokers: Iterable[Broker] | None = None,
        num_partitions: int | None = None,
        replication_factor: int | None = None,
        start_partition: int = 0,
    ) -> TopicAssignment | list[PartitionAssignment]:
        """``StripedReplicaPlacer.place(PlacementSpec, ClusterDescriber)``: the replicas of
        ``spec.num_partitions`` new partitions, leader first, numbered from
        ``spec.start_partition``.

        ``cluster.usable_brokers()``: the brokers in the order the cluster lists them (Kafka's
        ``usableBrokers()`` iterator; the order decides the rack ``HashMap``'s bucket order
        only for colliding racks, and nothing else). As in Kafka, ``spec.start_partition``
        does not change the replicas: Kafka's placer loops ``numPartitions`` times and its
        caller (``ReplicationControlManager``) numbers the results from ``startPartition``,
        which :class:`~kpart.placement.spec.TopicAssignment` does here. The placer has no
        start index: a ``spec.fixed_start_index`` is refused.

        The keyword form ``place(brokers=..., num_partitions=..., replication_factor=...,
        start_partition=0)`` is the earlier kpart API, kept as a thin wrapper: it returns the
        replica lists only (``list(place(spec, StaticCluster(brokers)).assignments)``).

        Errors (``InvalidReplicationFactorError``, Kafka's messages and order, checked after
        the rack list drew its offsets): a replication factor ≤ 0, no unfenced broker, more
        replicas than registered brokers. ``InvalidPartitionsError`` for a negative
        ``num_partitions``; ``ConfigError`` for a duplicate broker id or a fixed start index.
        """
        if spec is None:
            if brokers is None or num_partitions is None or replication_factor is None:
                raise TypeError("place() takes (spec, cluster), or brokers=, num_partitions= "
                                "and replication_factor=")
            return list(self._place(brokers, num_partitions, replication_factor))
        if cluster is None or brokers is not None:
            raise TypeError("place(spec, cluster) takes a ClusterDescriber and no brokers=")
        if spec.fixed_start_index is not None:
            raise ConfigError.about(
                "fixed_start_index", "Invalid {param} {value}: the striped placer has no start "
                "index (it draws its offsets from its Random).", value=spec.fixed_start_index)
        rows = self._place(cluster.usable_brokers(), spec.num_partitions,
                           spec.replication_factor)
        return TopicAssignment(rows, spec.start_partition)

    def _place(self, brokers: Iterable[Broker], num_partitions: int,
               replication_factor: int) -> tuple[PartitionAssignment, ...]:
        usable = list(brokers)
        seen: set[int] = set()
        for b in usable:
            if not isinstance(b, Broker):
                raise ConfigError(f"Not a Broker: {b!r}")
            if b.id in seen:
                raise ConfigError(f"Duplicate broker id {b.id} in the broker list.")
            seen.add(b.id)
        if num_partitions < 0:
            raise InvalidPartitionsError(
                f"Number of partitions was set to an invalid non-positive value: "
                f"{num_partitions}."
            )
        rack_list = _RackList(self._random, usable, self._messages)
        _check_positive(replication_factor)
        _check_unfenced(rack_list.num_unfenced, self._messages)
        _check_enough_brokers(replication_factor, rack_list.num_total, self._messages)
        check_placement(num_partitions, replication_factor)  # kpart's bounds (kpart.limits)
        return tuple(tuple(rack_list.place(replication_factor)) for _ in range(num_partitions))
