"""``org.apache.kafka.admin.AdminUtils#assignReplicasToBrokers``: ZooKeeper-era/CLI replica
placement (``kafka-topics.sh --create`` without ``--replica-assignment``), rack-unaware and
rack-aware (``getRackAlternatedBrokerList``), with Kafka's validations and messages.

The algorithm (Kafka's javadoc, restated):

* rack-unaware: partition ``p``'s first replica is ``brokers[(p + start_index) % n]``
  (round robin from a start index); replica ``j + 1`` sits ``1 + (shift + j) % (n - 1)``
  positions after the first, where ``shift`` starts at the replica shift and grows by one
  every time ``p`` wraps around the broker list (``p > 0 and p % n == 0``);
* rack-aware: the same walk over the *rack-alternated* broker list (racks sorted, one broker
  of each rack in turn, brokers of a rack in increasing id order) with a shift of
  ``shift * num_racks``, skipping a candidate whose rack already holds a replica while
  some rack holds none, and a broker that already holds one.

Without a fixed start index Kafka draws ``start_index`` then ``shift`` from its
``java.util.Random`` (``nextInt(n)`` twice); pass ``seed`` (or ``random``) to reproduce a
sequence, or neither for an unseeded draw like Kafka's.

Two ways in: :class:`AdminUtilsReplicaPlacer` is the placement in the shape of KRaft's
``ReplicaPlacer.place(PlacementSpec, ClusterDescriber)`` (a frozen
:class:`~kpart.placement.spec.TopicAssignment` back), and :func:`assign_replicas_to_brokers`
keeps ``assignReplicasToBrokers``' argument list (a dict back).

Java's 32-bit ``int`` arithmetic is not emulated: results match Kafka while
``start_partition_id + num_partitions + start index`` and ``shift * num_racks`` stay below
``2**31`` (Kafka itself fails with a negative array index beyond that).

>>> a = assign_replicas_to_brokers([Broker(i) for i in range(3)], 6, 3, fixed_start_index=2)
>>> [list(a[p]) for p in range(6)]   # seed 001, topic-test4
[[2, 0, 1], [0, 1, 2], [1, 2, 0], [2, 1, 0], [0, 2, 1], [1, 0, 2]]
>>> AdminUtilsReplicaPlacer().place(PlacementSpec(6, 3, fixed_start_index=2),
...                                 StaticCluster.of([0, 1, 2])).to_dict() == a
True
>>> racks = {0: "rack1", 1: "rack3", 2: "rack3", 3: "rack2", 4: "rack2", 5: "rack1"}
>>> rack_alternated_broker_list(racks)
[0, 3, 1, 5, 4, 2]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kpart._java.random import JavaRandom
from kpart._java.strings import java_string_key
from kpart.errors import (
    AdminOperationError,
    ConfigError,
    InvalidPartitionsError,
    InvalidReplicationFactorError,
)
from kpart.limits import check_placement
from kpart.placement.spec import (
    Broker,
    ClusterDescriber,
    PartitionAssignment,
    PlacementSpec,
    ReplicaAssignment,
    StaticCluster,
    TopicAssignment,
    _check_index,
)

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

__all__ = [
    "AdminUtilsReplicaPlacer",
    "assign_replicas_to_brokers",
    "assign_replicas_to_brokers_array",
    "rack_alternated_broker_list",
    "replica_index",
]

#: Above this many partitions :func:`assign_replicas_to_brokers` uses the numpy path.
_VECTOR_THRESHOLD = 4096


def rack_alternated_broker_list(broker_racks: Mapping[int, str]) -> list[int]:
    """``AdminUtils.getRackAlternatedBrokerList``: broker ids taken one rack at a time.

    ``broker_racks``: ``{broker id: rack}``. Racks are visited in ``String.compareTo`` order,
    each rack's brokers in increasing id order; a rack that ran out of brokers is skipped.

    >>> rack_alternated_broker_list({i: f"rack{i // 3 + 1}" for i in range(9)})
    [0, 3, 6, 1, 4, 7, 2, 5, 8]
    """
    by_rack: dict[str, list[int]] = {}
    for broker_id, rack in broker_racks.items():
        by_rack.setdefault(rack, []).append(broker_id)
    racks = sorted(by_rack, key=java_string_key)
    columns = [sorted(by_rack[r]) for r in racks]
    result: list[int] = []
    depth = 0
    while len(result) < len(broker_racks):
        for column in columns:
            if depth < len(column):
                result.append(column[depth])
        depth += 1
    return result


def replica_index(first_replica_index: int, second_replica_shift: int, replica: int,
                  n_brokers: int) -> int:
    """``AdminUtils.replicaIndex``: position of a follower, ``1 + (shift + replica) % (n - 1)``
    places after the first replica (``n_brokers`` ≥ 2).

    >>> replica_index(2, 2, 0, 3), replica_index(2, 2, 1, 3)
    (0, 1)
    """
    shift = 1 + (second_replica_shift + replica) % (n_brokers - 1)
    return (first_replica_index + shift) % n_brokers


@dataclass(frozen=True, slots=True)
class _Plan:
    """Everything the walk needs, after validation and the random draws."""

    broker_list: tuple[int, ...]  # brokerArray, or the rack-alternated list
    rack_of: tuple[int, ...] | None  # rack code per position of broker_list; None = unaware
    num_racks: int
    start_index: int
    replica_shift: int
    start_partition_id: int
    num_partitions: int
    replication_factor: int


def _check_counts(spec: PlacementSpec, num_brokers: int) -> None:
    """Kafka's first three validations, in Kafka's order, then kpart's bounds."""
    if spec.num_partitions <= 0:
        raise InvalidPartitionsError("Number of partitions must be larger than 0.")
    if spec.replication_factor <= 0:
        raise InvalidReplicationFactorError("Replication factor must be larger than 0.")
    if spec.replication_factor > num_brokers:
        raise InvalidReplicationFactorError(
            f"Replication factor: {spec.replication_factor} larger than available brokers: "
            f"{num_brokers}."
        )
    check_placement(spec.num_partitions, spec.replication_factor)  # kpart.limits


def _broker_list(brokers: Sequence[Broker]) -> tuple[tuple[int, ...], tuple[int, ...] | None, int]:
    """``(broker list, rack code per position or None, number of racks)``: the brokers as
    given (rack-unaware) or ``getRackAlternatedBrokerList`` (every broker has a rack).
    Errors: ``AdminOperationError`` (racks on some brokers only), ``ConfigError`` (a broker
    listed twice)."""
    racked = [b for b in brokers if b.rack is not None]
    if racked and len(racked) < len(brokers):
        raise AdminOperationError(
            "Not all brokers have rack information for replica rack aware assignment."
        )
    seen: set[int] = set()
    for b in brokers:
        if b.id in seen:
            raise ConfigError(f"Duplicate broker id {b.id} in the broker list.")
        seen.add(b.id)
    if not racked:
        return tuple(b.id for b in brokers), None, 0
    racks = {b.id: b.rack for b in racked if b.rack is not None}
    broker_list = tuple(rack_alternated_broker_list(racks))
    codes = {r: i for i, r in enumerate(dict.fromkeys(racks.values()))}
    return broker_list, tuple(codes[racks[b]] for b in broker_list), len(codes)


def _plan(spec: PlacementSpec, cluster: ClusterDescriber, random: JavaRandom | None) -> _Plan:
    """Validate (Kafka's checks, in Kafka's order) and draw the start index and the replica
    shift from ``random`` (``nextInt(n)`` twice) unless ``spec`` fixes them."""
    brokers = list(cluster.usable_brokers())
    _check_counts(spec, len(brokers))
    broker_list, rack_of, num_racks = _broker_list(brokers)
    n = len(broker_list)
    if spec.fixed_start_index is not None:
        start_index = shift = spec.fixed_start_index
    else:
        rnd = random if random is not None else JavaRandom()
        start_index = rnd.next_int(n)
        shift = rnd.next_int(n)
    return _Plan(broker_list, rack_of, num_racks, start_index, shift, spec.start_partition,
                 spec.num_partitions, spec.replication_factor)


#: What :func:`_placement_inputs` makes of the arguments: Kafka's ``PlacementSpec``, the
#: cluster and the ``Random`` to draw from.
_Inputs = tuple[PlacementSpec, ClusterDescriber, JavaRandom | None]


def _placement_inputs(
    brokers: Sequence[Broker | int],
    num_partitions: int,
    replication_factor: int,
    fixed_start_index: int | None,
    start_partition_id: int | None,
    seed: int | None,
    rack_aware: bool,
    random: JavaRandom | None,
) -> _Inputs:
    """The arguments of :func:`assign_replicas_to_brokers` (and of
    :func:`assign_replicas_to_brokers_array`), written once: Kafka's ``PlacementSpec``, the
    cluster (``StaticCluster.of(brokers)``, without racks unless ``rack_aware``) and the
    ``Random`` to draw from (``None`` when ``fixed_start_index`` leaves nothing to draw).
    Errors: ``ConfigError`` for an index outside ``[0, 2**31 - 1]`` (named as the caller named
    it), both ``seed`` and ``random``, or a value that is not a broker."""
    if fixed_start_index is not None:  # the order PlacementSpec checks them in
        _check_index("fixed_start_index", fixed_start_index)
    if start_partition_id is not None:  # named as the caller named it
        _check_index("start_partition_id", start_partition_id)
    spec = PlacementSpec(num_partitions, replication_factor, start_partition_id or 0,
                         fixed_start_index)
    if seed is not None and random is not None:
        raise ConfigError("Give either seed or random, not both.")
    cluster = StaticCluster.of(brokers)
    if not rack_aware:  # RackAwareMode.Disabled: Kafka reads the brokers without their racks
        cluster = cluster.without_racks()
    if random is None and spec.fixed_start_index is None:
        random = JavaRandom(seed)
    return spec, cluster, random


def _walk(plan: _Plan) -> ReplicaAssignment:
    """The scalar reference: Kafka's loop, partition by partition."""
    ids = plan.broker_list
    n = len(ids)
    rack_of = plan.rack_of
    num_racks = plan.num_racks
    rf = plan.replication_factor
    shift = plan.replica_shift
    ret: ReplicaAssignment = {}
    current = plan.start_partition_id
    for _ in range(plan.num_partitions):
        if current > 0 and current % n == 0:
            shift += 1
        first = (current + plan.start_index) % n
        if rack_of is None:
            replicas = [ids[first]]
            for j in range(rf - 1):
                replicas.append(ids[(first + 1 + (shift + j) % (n - 1)) % n])
        else:
            positions = [first]
            racks_with = {rack_of[first]}
            k = 0
            for _j in range(rf - 1):
                while True:
                    pos = (first + 1 + (shift * num_racks + k) % (n - 1)) % n
                    k += 1
                    rack = rack_of[pos]
                    if (rack not in racks_with or len(racks_with) == num_racks) and (
                        pos not in positions or len(positions) == n
                    ):
                        positions.append(pos)
                        racks_with.add(rack)
                        break
            replicas = [ids[p] for p in positions]
        ret[current] = tuple(replicas)
        current += 1
    return ret


def _assignment(plan: _Plan) -> TopicAssignment:
    """The walk's result: the scalar walk, or the numpy one above :data:`_VECTOR_THRESHOLD`."""
    rows: tuple[PartitionAssignment, ...]
    if plan.num_partitions <= _VECTOR_THRESHOLD:
        rows = tuple(_walk(plan).values())
    else:
        from kpart.placement._admin_utils_numpy import walk_array

        rows = tuple(zip(*walk_array(plan).T.tolist(), strict=True))
    return TopicAssignment(rows, plan.start_partition_id)


class AdminUtilsReplicaPlacer:
    """``AdminUtils.assignReplicasToBrokers`` as a :class:`~kpart.placement.spec.ReplicaPlacer`:
    one placer, one ``java.util.Random`` (Kafka's ``AdminUtils`` keeps a static one), many
    placements.

    ``random``: a :class:`~kpart.JavaRandom` to reproduce Kafka's draws (``None``: an unseeded
    one, like Kafka's). The placer draws from it only when the spec has no
    ``fixed_start_index``. Racks: every usable broker's ``rack`` is used when all have one
    (give a cluster :meth:`~kpart.placement.spec.StaticCluster.without_racks` for
    ``--disable-rack-aware``); ``fenced`` is ignored (AdminUtils places on every broker it
    is given).

    >>> from kpart.placement.spec import StaticCluster
    >>> placer = AdminUtilsReplicaPlacer()
    >>> placer.place(PlacementSpec(3, 2, fixed_start_index=0), StaticCluster.of([0, 1, 2]))
    TopicAssignment(assignments=((0, 1), (1, 2), (2, 0)), start_partition=0)
    """

    __slots__ = ("_random",)

    name = "adminutils"

    def __init__(self, random: JavaRandom | None = None) -> None:
        if random is not None and not isinstance(random, JavaRandom):
            raise TypeError(f"random must be a JavaRandom, got {random!r}")
        self._random = random if random is not None else JavaRandom()

    def place(self, spec: PlacementSpec, cluster: ClusterDescriber) -> TopicAssignment:
        """Replicas of partitions ``spec.start_partition ..`` (``spec.num_partitions`` of
        them), leader first, as ``assignReplicasToBrokers(brokers, nPartitions,
        replicationFactor, fixedStartIndex, startPartitionId)`` returns them.

        Errors (Kafka's checks, in Kafka's order): ``InvalidPartitionsError`` when
        ``num_partitions <= 0``, ``InvalidReplicationFactorError`` when the replication factor
        is ≤ 0 or exceeds the number of brokers, ``AdminOperationError`` when only some
        brokers have a rack; ``ConfigError`` for a duplicate broker id.
        """
        return _assignment(_plan(spec, cluster, self._random))


def assign_replicas_to_brokers(
    brokers: Sequence[Broker | int],
    num_partitions: int,
    replication_factor: int,
    *,
    fixed_start_index: int | None = None,
    start_partition_id: int | None = None,
    seed: int | None = None,
    rack_aware: bool = True,
    random: JavaRandom | None = None,
) -> ReplicaAssignment:
    """Place ``num_partitions`` partitions of ``replication_factor`` replicas on ``brokers``
    exactly as ``AdminUtils.assignReplicasToBrokers`` does: Kafka's argument list, a thin
    wrapper of ``AdminUtilsReplicaPlacer(random).place(PlacementSpec(num_partitions,
    replication_factor, start_partition_id, fixed_start_index), StaticCluster.of(brokers))``
    returning the assignment as a (new, mutable) dict.

    ``brokers``: :class:`Broker` values (or bare ids) in the order Kafka lists them (the
    order matters for rack-unaware placement). Rack-aware placement is used when every broker
    has a rack; ``rack_aware=False`` ignores racks (``--disable-rack-aware``).
    ``fixed_start_index``: Kafka's ``fixedStartIndex`` (start index *and* replica shift);
    ``None`` draws both from ``random`` / ``JavaRandom(seed)`` / an unseeded generator.
    ``start_partition_id``: id of the first partition placed (``None`` = 0; adding partitions).

    Returns ``{partition id: (broker id, ...)}``, preferred leader first, for partition ids
    ``start_partition_id .. start_partition_id + num_partitions - 1``.

    Errors (Kafka's checks, in Kafka's order): ``InvalidPartitionsError`` when
    ``num_partitions <= 0``, ``InvalidReplicationFactorError`` when ``replication_factor <= 0``
    or exceeds the number of brokers, ``AdminOperationError`` when only some brokers have a
    rack; ``ConfigError`` for a duplicate broker id, a negative index, or both ``seed`` and
    ``random``.

    >>> a = assign_replicas_to_brokers([Broker(i) for i in range(5)], 10, 3, fixed_start_index=0)
    >>> a[0], a[4], a[5], a[9]   # Kafka's javadoc table
    ((0, 1, 2), (4, 0, 1), (0, 2, 3), (4, 1, 2))
    >>> racks = ["rack1", "rack3", "rack3", "rack2", "rack2", "rack1"]
    >>> b = assign_replicas_to_brokers([Broker(i, r) for i, r in enumerate(racks)], 7, 3,
    ...                                fixed_start_index=0)
    >>> b[0], b[6]
    ((0, 3, 1), (0, 4, 2))
    """
    plan = _plan(*_placement_inputs(brokers, num_partitions, replication_factor,
                                     fixed_start_index, start_partition_id, seed, rack_aware,
                                     random))
    return _assignment(plan).to_dict()


def assign_replicas_to_brokers_array(
    brokers: Sequence[Broker | int],
    num_partitions: int,
    replication_factor: int,
    *,
    fixed_start_index: int | None = None,
    start_partition_id: int | None = None,
    seed: int | None = None,
    rack_aware: bool = True,
    random: JavaRandom | None = None,
) -> np.ndarray:
    """:func:`assign_replicas_to_brokers` as a numpy ``int64`` array of shape
    ``(num_partitions, replication_factor)``: row ``i`` holds the replicas of partition
    ``start_partition_id + i`` (vectorised; same arguments, draws and errors).

    >>> assign_replicas_to_brokers_array([0, 1, 2], 2, 2, fixed_start_index=0).tolist()
    [[0, 1], [1, 2]]
    """
    from kpart.placement._admin_utils_numpy import walk_array

    return walk_array(_plan(*_placement_inputs(brokers, num_partitions, replication_factor,
                                               fixed_start_index, start_partition_id, seed,
                                               rack_aware, random)))
