"""Coordinators: which partition of which internal topic a key maps to, and so which broker —
that partition's leader — coordinates it (Kafka's ``FindCoordinator``).

A coordinator key is a frozen value naming its internal topic; :meth:`partition_for` is the
Java formula, ported exactly (each class names the Kafka class it follows):

============================  ==========================  ========================================
key                           internal topic              partition (``n`` partitions, default 50)
============================  ==========================  ========================================
:class:`GroupKey`             ``__consumer_offsets``      ``Utils.abs(groupId.hashCode()) % n``
:class:`TransactionKey`       ``__transaction_state``     ``Utils.abs(transactionalId.hashCode()) % n``
:class:`SharePartitionKey`    ``__share_group_state``     ``Utils.abs("group:topicId:p".hashCode()) % n``
:class:`RemoteLogMetadataKey` ``__remote_log_metadata``   ``toPositive(murmur2(Objects.hash(lsb, msb, p))) % n``
============================  ==========================  ========================================

``Utils.abs`` maps ``Integer.MIN_VALUE`` to 0 and any other negative to its absolute value
(:func:`kpart._java.ints.utils_abs`): a group id whose ``hashCode()`` is ``Integer.MIN_VALUE``
(``"polygenelubricants"``) is coordinated by partition 0. Share groups (KIP-932) are groups:
their coordinator is the group's, by :class:`GroupKey`; :class:`SharePartitionKey` locates the
state of one share partition.

The partition count Kafka uses (``BrokerMetadataPublisher``) is the internal topic's when it
exists, else the broker config (``offsets.topic.num.partitions``,
``transaction.state.log.num.partitions``, ``share.coordinator.state.topic.num.partitions``,
``remote.log.metadata.topic.num.partitions``; all default to 50): :func:`find_coordinator` does
the same with a :class:`~kpart.cluster.model.ClusterModel` (a snapshot records the internal
topics), and gives the partition's leader (``None`` when the cluster has no leader for it or no
cluster is given).

Each formula is a versioned rule (:mod:`kpart.versions`: transactions from 0.11.0.0, tiered
storage from 3.6.0, share groups from 4.0.0). Errors: :class:`~kpart.errors.ConfigError` naming
the value (an empty group or transactional id, a bad or zero topic id, a partition outside
``[0, 2**31)``, a version without the feature); :class:`~kpart.errors.InvalidPartitionsError`
for a partition count below 1.

>>> GroupKey("polygenelubricants").partition_for(50)
0
>>> c = find_coordinator(GroupKey("orders"))
>>> c.topic, c.partition, c.num_partitions, c.leader
('__consumer_offsets', 31, 50, None)
>>> SharePartitionKey("g", "AAAAAAAAAAAAAAAAAAAAAg", 0).coordinator_key
'g:AAAAAAAAAAAAAAAAAAAAAg:0'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

import numpy as np

from kpart._java.hashing import string_hash_code
from kpart._java.ints import utils_abs
from kpart._java.murmur2 import murmur2, to_positive
from kpart._java.objects import int_value, long_value, objects_hash
from kpart._java.uuid import uuid_from_string, uuid_to_string
from kpart.cluster.model import ClusterModel
from kpart.errors import ConfigError, InvalidPartitionsError
from kpart.versions import KafkaVersion, behaviour

__all__ = [
    "DEFAULT_PARTITIONS",
    "GROUP_METADATA_TOPIC",
    "REMOTE_LOG_METADATA_TOPIC",
    "SHARE_GROUP_STATE_TOPIC",
    "TRANSACTION_STATE_TOPIC",
    "Coordinator",
    "CoordinatorChange",
    "CoordinatorKey",
    "GroupKey",
    "RemoteLogMetadataKey",
    "SharePartitionKey",
    "TransactionKey",
    "coordinator_changes",
    "coordinator_rows",
    "find_coordinator",
    "internal_topic_partitions",
]

GROUP_METADATA_TOPIC = "__consumer_offsets"
TRANSACTION_STATE_TOPIC = "__transaction_state"
SHARE_GROUP_STATE_TOPIC = "__share_group_state"
REMOTE_LOG_METADATA_TOPIC = "__remote_log_metadata"
#: The default partition count of every internal topic here (the four ``*.num.partitions``).
DEFAULT_PARTITIONS = 50

_INT_MAX = (1 << 31) - 1
_ZERO_UUID = "AAAAAAAAAAAAAAAAAAAAAA"
_MASK64 = (1 << 64) - 1


def _check_count(num_partitions: object, config: str) -> int:
    if (not isinstance(num_partitions, int) or isinstance(num_partitions, bool)
            or not 1 <= num_partitions <= _INT_MAX):
        raise InvalidPartitionsError.about(
            "num_partitions", "Invalid {param} {value!r} ({config}): must be an integer from "
            "1 to 2147483647", value=num_partitions, config=config)
    return num_partitions


def _check_id(value: object, what: str) -> None:
    if not isinstance(value, str) or not value:
        raise ConfigError(f"Invalid {what} {value!r}: must be a non-empty string.")


def _topic_id(value: object) -> str:
    """The canonical ``Uuid.toString()`` of topic id ``value`` (``Uuid.fromString`` ignores a
    last character's unused bits, ``toString`` writes them as zeros)."""
    canonical = uuid_to_string(uuid_from_string(value))  # type: ignore[arg-type]
    if canonical == _ZERO_UUID:
        raise ConfigError(f"Invalid topic id {value!r}: the zero Uuid (Uuid.ZERO_UUID) is "
                          "never a topic's id.")
    return canonical


def _check_partition(value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= _INT_MAX:
        raise ConfigError.about("partition", "Invalid {param} {value!r}: must be an integer "
                                "from 0 to 2147483647.", value=value)


class CoordinatorKey(Protocol):
    """What :func:`find_coordinator` takes: a key naming its internal topic, the broker
    config setting that topic's partition count, its versioned rule, and Kafka's formula."""

    topic: ClassVar[str]
    config: ClassVar[str]
    rule: ClassVar[str]

    @property
    def key(self) -> str: ...

    def partition_for(self, num_partitions: int = DEFAULT_PARTITIONS,
                      kafka_version: str | KafkaVersion | None = None) -> int: ...


@dataclass(frozen=True, slots=True)
class GroupKey:
    """A consumer, classic, share or Streams group's id → its ``__consumer_offsets`` partition:
    ``Utils.abs(groupId.hashCode()) % n`` (``GroupCoordinatorService.partitionFor``; the
    Scala ``GroupMetadataManager.partitionFor`` before 4.0, the same formula).

    >>> GroupKey("polygenelubricants").partition_for(7), GroupKey("a").partition_for(50)
    (0, 47)
    """

    group_id: str
    topic: ClassVar[str] = GROUP_METADATA_TOPIC
    config: ClassVar[str] = "offsets.topic.num.partitions"
    rule: ClassVar[str] = "group_coordinator"

    def __post_init__(self) -> None:
        _check_id(self.group_id, "group id")

    @property
    def key(self) -> str:
        return self.group_id

    def partition_for(self, num_partitions: int = DEFAULT_PARTITIONS,
                      kafka_version: str | KafkaVersion | None = None) -> int:
        """The partition of ``__consumer_offsets`` (of ``num_partitions``) coordinating it."""
        behaviour(self.rule, kafka_version)
        n = _check_count(num_partitions, self.config)
        return utils_abs(string_hash_code(self.group_id)) % n


@dataclass(frozen=True, slots=True)
class TransactionKey:
    """A producer's ``transactional.id`` → its ``__transaction_state`` partition:
    ``Utils.abs(transactionalId.hashCode()) % n`` (``TransactionStateManager.partitionFor``).

    >>> TransactionKey("tx-1").partition_for()
    20
    """

    transactional_id: str
    topic: ClassVar[str] = TRANSACTION_STATE_TOPIC
    config: ClassVar[str] = "transaction.state.log.num.partitions"
    rule: ClassVar[str] = "transaction_coordinator"

    def __post_init__(self) -> None:
        _check_id(self.transactional_id, "transactional id")

    @property
    def key(self) -> str:
        return self.transactional_id

    def partition_for(self, num_partitions: int = DEFAULT_PARTITIONS,
                      kafka_version: str | KafkaVersion | None = None) -> int:
        """The partition of ``__transaction_state`` (of ``num_partitions``) coordinating it."""
        behaviour(self.rule, kafka_version)
        n = _check_count(num_partitions, self.config)
        return utils_abs(string_hash_code(self.transactional_id)) % n


@dataclass(frozen=True, slots=True)
class SharePartitionKey:
    """A share partition (share group id, topic id, partition) → the ``__share_group_state``
    partition holding its state: ``Utils.abs(asCoordinatorKey().hashCode()) % n``, the key
    being ``String.format("%s:%s:%d", groupId, topicId, partition)``
    (``org.apache.kafka.server.share.SharePartitionKey``,
    ``ShareCoordinatorService.partitionFor``). ``topic_id`` is a base64 ``Uuid`` (kept in its
    canonical ``toString()`` form). ``%d`` is written with ASCII digits, as on a JVM whose
    default locale uses them (a locale with other digits would change Kafka's key).

    >>> k = SharePartitionKey("g", "TiSarLlxTTgvi602tDaz1Q", 3)
    >>> k.coordinator_key, k.partition_for()
    ('g:TiSarLlxTTgvi602tDaz1Q:3', 2)
    """

    group_id: str
    topic_id: str
    partition: int
    topic: ClassVar[str] = SHARE_GROUP_STATE_TOPIC
    config: ClassVar[str] = "share.coordinator.state.topic.num.partitions"
    rule: ClassVar[str] = "share_coordinator"

    def __post_init__(self) -> None:
        _check_id(self.group_id, "share group id")
        object.__setattr__(self, "topic_id", _topic_id(self.topic_id))
        _check_partition(self.partition)

    @property
    def coordinator_key(self) -> str:
        """``SharePartitionKey.asCoordinatorKey()``: ``group:topicId:partition``."""
        return f"{self.group_id}:{self.topic_id}:{self.partition}"

    @property
    def key(self) -> str:
        return self.coordinator_key

    def partition_for(self, num_partitions: int = DEFAULT_PARTITIONS,
                      kafka_version: str | KafkaVersion | None = None) -> int:
        """The partition of ``__share_group_state`` (of ``num_partitions``) holding it."""
        behaviour(self.rule, kafka_version)
        n = _check_count(num_partitions, self.config)
        return utils_abs(string_hash_code(self.coordinator_key)) % n


@dataclass(frozen=True, slots=True)
class RemoteLogMetadataKey:
    """A topic partition (topic id, partition) → the ``__remote_log_metadata`` partition of its
    tiered-storage metadata (``RemoteLogMetadataTopicPartitioner.metadataPartition``):
    ``h = Objects.hash(topicId.getLeastSignificantBits(), topicId.getMostSignificantBits(),
    partition)`` (two ``Long`` and an ``Integer``), its 4 big-endian bytes hashed with
    ``Utils.murmur2``, then ``Utils.toPositive(...) % n`` (``& 0x7fffffff``, not ``abs``).

    >>> RemoteLogMetadataKey("TiSarLlxTTgvi602tDaz1Q", 0).partition_for()
    30
    """

    topic_id: str
    partition: int
    topic: ClassVar[str] = REMOTE_LOG_METADATA_TOPIC
    config: ClassVar[str] = "remote.log.metadata.topic.num.partitions"
    rule: ClassVar[str] = "remote_log_metadata_partitioner"

    def __post_init__(self) -> None:
        object.__setattr__(self, "topic_id", _topic_id(self.topic_id))
        _check_partition(self.partition)

    @property
    def key(self) -> str:
        return f"{self.topic_id}:{self.partition}"

    def partition_for(self, num_partitions: int = DEFAULT_PARTITIONS,
                      kafka_version: str | KafkaVersion | None = None) -> int:
        """The partition of ``__remote_log_metadata`` (of ``num_partitions``) holding it."""
        behaviour(self.rule, kafka_version)
        n = _check_count(num_partitions, self.config)
        uuid = uuid_from_string(self.topic_id)
        h = objects_hash(long_value(uuid & _MASK64), long_value(uuid >> 64),
                         int_value(self.partition))
        return to_positive(murmur2((h & 0xFFFFFFFF).to_bytes(4, "big"))) % n


@dataclass(frozen=True, slots=True)
class Coordinator:
    """Where a key is coordinated: ``topic`` (the internal topic), ``partition``,
    ``num_partitions`` (the count used: the topic's in the cluster, else the configured one),
    ``leader`` (the partition's leader broker id, ``None`` when unknown or offline) and
    ``key`` (the string hashed, or ``topicId:partition`` for tiered-storage metadata)."""

    key: str
    topic: str
    partition: int
    num_partitions: int
    leader: int | None


def internal_topic_partitions(cluster: ClusterModel | None, topic: str) -> int | None:
    """The partition count of ``topic`` in ``cluster`` (its highest partition number + 1),
    ``None`` when the cluster does not record the topic (or no cluster is given)."""
    if cluster is None:
        return None
    index = next((i for i, t in enumerate(cluster.topics) if t.name == topic), None)
    if index is None:
        return None
    rows = np.flatnonzero(cluster.topic == index)
    if len(rows) == 0:
        return None
    return int(cluster.partition[rows].max()) + 1


def _leader(cluster: ClusterModel, topic: str, partition: int) -> int | None:
    index = next(i for i, t in enumerate(cluster.topics) if t.name == topic)
    rows = np.flatnonzero((cluster.topic == index) & (cluster.partition == partition))
    if len(rows) == 0:
        return None
    leader = int(cluster.leader[rows[0]])
    return None if leader < 0 else leader


def find_coordinator(key: CoordinatorKey, *, cluster: ClusterModel | None = None,
                     num_partitions: int | None = None,
                     kafka_version: str | KafkaVersion | None = None) -> Coordinator:
    """Where ``key`` is coordinated (Kafka's ``FindCoordinator``, computed offline).

    The partition count is, as Kafka takes it, the internal topic's in ``cluster`` when the
    cluster records the topic, else ``num_partitions`` (the broker config; default 50). A
    ``num_partitions`` the cluster's topic contradicts is ignored, as Kafka ignores the config
    once the topic exists (the caller may warn: compare :attr:`Coordinator.num_partitions`).
    ``leader``: that partition's leader in ``cluster`` (``None`` without a cluster, when the
    cluster has no such topic or partition, or no leader for it).

    >>> from kpart.cluster.model import ClusterBroker, PartitionState
    >>> m = ClusterModel.from_partitions(
    ...     [ClusterBroker(1), ClusterBroker(2)],
    ...     [PartitionState("__consumer_offsets", p, (1 + p % 2,), leader=1 + p % 2)
    ...      for p in range(3)])
    >>> find_coordinator(GroupKey("orders"), cluster=m)
    Coordinator(key='orders', topic='__consumer_offsets', partition=0, num_partitions=3, leader=1)
    """
    recorded = internal_topic_partitions(cluster, key.topic)
    if num_partitions is not None:
        _check_count(num_partitions, key.config)
    n = recorded if recorded is not None else (
        DEFAULT_PARTITIONS if num_partitions is None else num_partitions)
    partition = key.partition_for(n, kafka_version)
    leader = None if cluster is None or recorded is None else _leader(cluster, key.topic,
                                                                       partition)
    return Coordinator(key.key, key.topic, partition, n, leader)


@dataclass(frozen=True, slots=True)
class CoordinatorChange:
    """A coordinator that a leader change affects: ``coordinator`` as it was, and ``leader``
    after (``None``: its partition has no leader — the key has no coordinator,
    ``COORDINATOR_NOT_AVAILABLE``). ``status`` is ``"moved"`` or ``"unavailable"``."""

    coordinator: Coordinator
    leader: int | None

    @property
    def status(self) -> str:
        return "unavailable" if self.leader is None else "moved"


def coordinator_changes(coordinators: Sequence[Coordinator], cluster: ClusterModel,
                        leader_after: np.ndarray) -> list[CoordinatorChange]:
    """The coordinators (found on ``cluster`` by :func:`find_coordinator`) whose partition's
    leader differs in ``leader_after`` (int array, one broker id per row of ``cluster``,
    ``-1`` = no leader; e.g. :meth:`kpart.cluster.broker_outage.OutageResult.leader_after`), in the
    given order. A coordinator whose topic the cluster does not record is left out.

    >>> from kpart.cluster.model import ClusterBroker, PartitionState
    >>> m = ClusterModel.from_partitions(
    ...     [ClusterBroker(1), ClusterBroker(2)],
    ...     [PartitionState("__consumer_offsets", p, (1, 2), leader=1, isr=(1, 2))
    ...      for p in range(2)])
    >>> found = [find_coordinator(GroupKey(g), cluster=m) for g in ("a", "b")]
    >>> [(c.coordinator.key, c.leader, c.status)
    ...  for c in coordinator_changes(found, m, np.array([-1, 2]))]
    [('a', 2, 'moved'), ('b', None, 'unavailable')]
    """
    if len(leader_after) != cluster.num_partitions:
        raise ValueError(f"leader_after has {len(leader_after)} rows, the cluster "
                         f"{cluster.num_partitions}")
    rows = coordinator_rows(coordinators, cluster)
    out: list[CoordinatorChange] = []
    for c, row in zip(coordinators, rows.tolist(), strict=True):
        if row < 0:
            continue
        after = int(leader_after[row])
        leader = None if after < 0 else after
        if leader != c.leader:
            out.append(CoordinatorChange(c, leader))
    return out


def coordinator_rows(coordinators: Sequence[Coordinator], cluster: ClusterModel) -> np.ndarray:
    """The row of ``cluster`` holding each coordinator's partition (int64 array, one per
    coordinator, in order; ``-1`` when the cluster does not record that topic or partition).
    One pass over the cluster per internal topic, whatever the number of coordinators.

    >>> from kpart.cluster.model import ClusterBroker, PartitionState
    >>> m = ClusterModel.from_partitions(
    ...     [ClusterBroker(1)], [PartitionState("__consumer_offsets", p, (1,)) for p in (0, 2)])
    >>> coordinator_rows([Coordinator("a", "__consumer_offsets", p, 3, None)
    ...                   for p in (2, 1)], m).tolist()
    [1, -1]
    """
    names = {t.name: i for i, t in enumerate(cluster.topics)}
    by_topic: dict[str, dict[int, int]] = {}
    out = np.full(len(coordinators), -1, dtype=np.int64)
    for k, c in enumerate(coordinators):
        if c.topic not in by_topic:
            index = names.get(c.topic)
            rows = (np.flatnonzero(cluster.topic == index) if index is not None
                    else np.zeros(0, dtype=np.int64))
            by_topic[c.topic] = dict(zip(cluster.partition[rows].tolist(), rows.tolist(),
                                         strict=True))
        out[k] = by_topic[c.topic].get(c.partition, -1)
    return out
