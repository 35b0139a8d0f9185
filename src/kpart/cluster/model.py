"""The whole cluster as one frozen value: brokers, replicas, leaders, ISR and per-partition load.

What Kafka's ``Admin.describeCluster`` / ``describeTopics`` / ``describeConfigs`` and
``kafka-log-dirs.sh`` tell an operator, and what Cruise Control's ``ClusterModel`` holds
(``com.linkedin.kafka.cruisecontrol.model.ClusterModel``: brokers with racks and capacities,
replicas with their load), as arrays for scale (2.8M replicas in a few hundred MB):

- ``brokers``: :class:`ClusterBroker` values sorted by id (rack, :class:`Capacity`);
- ``topics``: :class:`TopicInfo` values (name, ``min.insync.replicas``);
- one row per partition, sorted by topic (in ``topics`` order) then partition number:
  ``topic`` (int32 index into ``topics``), ``partition`` (int32), ``replicas`` (int32,
  shape ``(P, R)``, broker ids in replica order — the preferred leader first — padded with
  ``-1``), ``leader`` (int32 broker id, ``-1`` = no leader), ``isr`` (int32, shape
  ``(P, I)``, padded with ``-1``) and the loads ``size_bytes``, ``bytes_in_per_s``,
  ``bytes_out_per_s``, ``messages`` (a count of records) and ``messages_in_per_s`` (records/s
  produced, Kafka's ``MessagesInPerSec``) (float64, ``NaN`` = unknown);
- ``offline`` (optional): int32, shape ``(P, O)``, padded with ``-1``: each partition's
  replicas the source marks offline (the describe dump's ``Offline:`` field, Kafka's
  ``offlineReplicas``; a broker absent from the cluster): dead for that partition, whatever
  happens to the others. ``None`` when the source marks none.

Errors: :class:`~kpart.errors.ConfigError` naming the partition or broker (a replica on a broker
the cluster does not list, a partition listed twice, a leader outside its replicas, a negative
load, a broker listed twice, a capacity of zero).

>>> m = ClusterModel.from_partitions(
...     [ClusterBroker(1, "a"), ClusterBroker(2, "b")],
...     [PartitionState("t", 0, (1, 2), leader=1, isr=(1, 2), size_bytes=100.0),
...      PartitionState("t", 1, (2, 1), leader=2, isr=(2,))])
>>> m.num_partitions, m.replication_factors().tolist(), m.partition_state(1).isr
(2, [2, 2], (2,))
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import chain

import numpy as np

from kpart.errors import ConfigError

__all__ = ["LOADS", "Capacity", "ClusterBroker", "ClusterModel", "PartitionState", "TopicInfo",
           "padded_ids"]

#: The per-partition load fields, in ``cluster.json`` order (float64 arrays, ``NaN`` unknown).
LOADS = ("messages", "size_bytes", "bytes_in_per_s", "bytes_out_per_s", "messages_in_per_s")


def _check_amount(value: float | None, what: str) -> None:
    if value is not None and (not isinstance(value, int | float) or isinstance(value, bool)
                              or math.isnan(value) or value < 0):
        raise ConfigError(f"Invalid {what} {value!r}: must be a number >= 0.")


@dataclass(frozen=True, slots=True)
class Capacity:
    """A broker's capacity, as Cruise Control's ``BrokerCapacityInfo``: ``disk_bytes``
    (bytes), ``network_in`` / ``network_out`` (bytes/s), ``cpu`` (percent of one broker, 100 =
    all its cores); ``None`` = unknown. Each known one is > 0."""

    disk_bytes: float | None = None
    network_in: float | None = None
    network_out: float | None = None
    cpu: float | None = None

    def __post_init__(self) -> None:
        for name in ("disk_bytes", "network_in", "network_out", "cpu"):
            value = getattr(self, name)
            _check_amount(value, f"capacity {name}")
            if value == 0:
                raise ConfigError(f"Invalid capacity {name} 0: must be > 0.")


@dataclass(frozen=True, slots=True)
class ClusterBroker:
    """A broker: ``id`` (``broker.id``/``node.id`` ≥ 0), ``rack`` (``broker.rack``, ``None``
    when unset) and its :class:`Capacity` (``None`` = unknown)."""

    id: int
    rack: str | None = None
    capacity: Capacity | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.id, int) or isinstance(self.id, bool) or self.id < 0:
            raise ConfigError(f"Invalid broker id {self.id!r}: must be an integer >= 0.")
        if self.rack is not None and (not isinstance(self.rack, str) or not self.rack):
            raise ConfigError(f"Invalid rack {self.rack!r} of broker {self.id}: must be a "
                              "non-empty string or null.")


@dataclass(frozen=True, slots=True)
class TopicInfo:
    """A topic: ``name``, its ``min.insync.replicas`` (``None`` = unknown) and ``configs``:
    its configuration overrides as a describe dump's ``Configs:`` field printed them
    (``"k=v,..."``; ``None`` = not known)."""

    name: str
    min_insync_replicas: int | None = None
    #: text kept for writing back (``kpart plan --describe-out``), not part of the value
    configs: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ConfigError(f"Invalid topic name {self.name!r}: must be a non-empty string.")
        m = self.min_insync_replicas
        if m is not None and (not isinstance(m, int) or isinstance(m, bool) or m < 1):
            raise ConfigError(f"Invalid min.insync.replicas {m!r} of topic {self.name!r}: must "
                              "be an integer >= 1.")


@dataclass(frozen=True, slots=True)
class PartitionState:
    """One partition as a row (the object form of one row of :class:`ClusterModel`):
    ``replicas`` in replica order, ``leader`` (``None`` = no leader), ``isr``, and its loads
    (``None`` = unknown): ``messages``, ``size_bytes`` (bytes on disk, per replica),
    ``bytes_in_per_s`` (produced), ``bytes_out_per_s`` (consumed), ``messages_in_per_s``
    (records/s produced); KIP-966's ``elr`` and ``last_known_elr`` (Kafka's order)."""

    topic: str
    partition: int
    replicas: tuple[int, ...]
    leader: int | None = None
    isr: tuple[int, ...] = ()
    messages: float | None = None
    size_bytes: float | None = None
    bytes_in_per_s: float | None = None
    bytes_out_per_s: float | None = None
    messages_in_per_s: float | None = None
    elr: tuple[int, ...] = ()
    last_known_elr: tuple[int, ...] = ()


def padded_ids(rows: Sequence[Sequence[int]]) -> np.ndarray:
    """Ragged broker-id lists (replicas, ISR) → int32 matrix of shape ``(len(rows), W)``
    padded with ``-1``, ``W`` the longest list (at least 1), without a per-row numpy call.
    Raises :class:`ConfigError` for an id above Kafka's int32, and for a list longer than the
    number of distinct ids in all lists (it repeats a broker) before allocating ``rows × W``
    (one runaway list must not size the whole matrix).

    >>> padded_ids([(1, 2), (3,)]).tolist()
    [[1, 2], [3, -1]]
    """
    lens = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    total = int(lens.sum())
    flat = np.fromiter(chain.from_iterable(rows), dtype=np.int64, count=total)
    if total and (flat.max() > 2**31 - 1 or flat.min() < 0):
        bad = int(flat.max()) if flat.max() > 2**31 - 1 else int(flat.min())
        raise ConfigError(f"Invalid broker id {bad}: must be from 0 to 2147483647.")
    width = int(lens.max(initial=0)) or 1
    if width > 1 and width > len(np.unique(flat)):
        row = int(np.argmax(lens))
        raise ConfigError(f"A list of {width} broker ids {tuple(rows[row])!r:.60} repeats a "
                          f"broker: all the lists together name {len(np.unique(flat))} brokers.")
    out = np.full((len(rows), width), -1, dtype=np.int32)
    starts = np.cumsum(lens) - lens
    out[np.repeat(np.arange(len(rows)), lens), np.arange(total) - np.repeat(starts, lens)] = flat
    return out


def _frozen(a: np.ndarray, dtype: type) -> np.ndarray:
    out: np.ndarray = np.array(a, dtype=dtype)
    out.flags.writeable = False
    return out


@dataclass(frozen=True, eq=False)
class ClusterModel:
    """The cluster (see the module docstring for the fields and their shapes). Build it with
    :meth:`from_partitions` (rows) or directly from arrays (loaders at scale); both validate.
    Arrays are read-only."""

    brokers: tuple[ClusterBroker, ...]
    topics: tuple[TopicInfo, ...]
    topic: np.ndarray
    partition: np.ndarray
    replicas: np.ndarray
    leader: np.ndarray
    isr: np.ndarray
    messages: np.ndarray
    size_bytes: np.ndarray
    bytes_in_per_s: np.ndarray
    bytes_out_per_s: np.ndarray
    #: records/s produced (``NaN`` = unknown); left out: unknown for every partition
    messages_in_per_s: np.ndarray | None = None
    #: replicas offline for their partition (see the module docstring); ``None``: none
    offline: np.ndarray | None = None
    #: KIP-966 eligible leader replicas and LastKnownElr, int32 ``(P, E)`` padded with -1
    #: (a describe dump's ``Elr:``/``LastKnownElr:``); ``None``: none recorded
    elr: np.ndarray | None = None
    last_known_elr: np.ndarray | None = None
    _broker_index: dict[int, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        brokers = tuple(sorted(self.brokers, key=lambda b: b.id))
        index: dict[int, int] = {}
        for i, b in enumerate(brokers):
            if b.id in index:
                raise ConfigError(f"Broker {b.id} is listed twice.")
            index[b.id] = i
        names: set[str] = set()
        for t in self.topics:
            if t.name in names:
                raise ConfigError(f"Topic {t.name!r} is listed twice.")
            names.add(t.name)
        object.__setattr__(self, "brokers", brokers)
        object.__setattr__(self, "_broker_index", index)
        n = len(self.topic)
        if self.messages_in_per_s is None:
            object.__setattr__(self, "messages_in_per_s", np.full(n, np.nan))
        for name, dtype in (("topic", np.int32), ("partition", np.int32), ("replicas", np.int32),
                            ("leader", np.int32), ("isr", np.int32), *((x, np.float64)
                                                                        for x in LOADS)):
            value = _frozen(getattr(self, name), dtype)
            if len(value) != n:
                raise ConfigError(f"Cluster arrays disagree: {name} has {len(value)} rows, "
                                  f"topic has {n}.")
            object.__setattr__(self, name, value)
        if self.offline is not None:
            value = _frozen(self.offline, np.int32)
            if value.ndim != 2 or len(value) != n:
                raise ConfigError(f"Cluster arrays disagree: offline has shape {value.shape}, "
                                  f"topic has {n} rows.")
            object.__setattr__(self, "offline", value if (value >= 0).any() else None)
        for name in ("elr", "last_known_elr"):
            arr = getattr(self, name)
            if arr is None:
                continue
            value = _frozen(arr, np.int32)
            if value.ndim != 2 or len(value) != n:
                raise ConfigError(f"Cluster arrays disagree: {name} has shape {value.shape}, "
                                  f"topic has {n} rows.")
            object.__setattr__(self, name, value if (value >= 0).any() else None)
        self._validate()

    def partition_name(self, row: int) -> str:
        """``<topic>-<partition>`` of model row ``row`` (as Kafka's tools name a partition;
        the messages of errors use it)."""
        return f"{self.topics[int(self.topic[row])].name}-{int(self.partition[row])}"

    def _validate(self) -> None:
        n = len(self.topic)
        if n and (self.topic.min() < 0 or self.topic.max() >= len(self.topics)):
            raise ConfigError("Cluster arrays: topic index out of range.")
        bad = np.flatnonzero(self.partition < 0)
        if len(bad):
            raise ConfigError(f"Invalid partition {int(self.partition[bad[0]])} of topic "
                              f"{self.topics[int(self.topic[bad[0]])].name!r}.")
        key = self.topic.astype(np.int64) << 32 | self.partition.astype(np.int64)
        if n > 1 and not (np.diff(key) > 0).all():
            dup = np.flatnonzero(np.diff(key) <= 0)[0]
            if key[dup] == key[dup + 1]:
                raise ConfigError(f"Partition {self.partition_name(int(dup))} is listed twice.")
            raise ConfigError("Cluster rows must be sorted by topic, then partition.")
        ids = np.array([b.id for b in self.brokers], dtype=np.int64)
        checked = [("replica", self.replicas), ("ISR member", self.isr)]
        if self.offline is not None:
            checked.append(("offline replica", self.offline))
        for what, arr in checked:
            flat = arr.reshape(len(arr), arr.shape[1] if arr.ndim > 1 else 1)
            unknown = (flat >= 0) & ~np.isin(flat, ids)
            if unknown.any():
                row, col = np.argwhere(unknown)[0]
                raise ConfigError(f"Partition {self.partition_name(int(row))} has {what} "
                                  f"{int(flat[row, col])} on a broker the cluster does not list.")
        if n and (self.replicas[:, 0] < 0).any():
            row = int(np.flatnonzero(self.replicas[:, 0] < 0)[0])
            raise ConfigError(f"Partition {self.partition_name(row)} has no replicas.")
        led = self.leader >= 0
        outside = led & ~(self.replicas == self.leader[:, None]).any(axis=1)
        if outside.any():
            row = int(np.flatnonzero(outside)[0])
            raise ConfigError(f"Partition {self.partition_name(row)}: leader {int(self.leader[row])} is "
                              "not one of its replicas.")
        for name in LOADS:
            values = getattr(self, name)
            negative = values < 0
            if negative.any():
                row = int(np.flatnonzero(negative)[0])
                raise ConfigError(f"Partition {self.partition_name(row)}: invalid {name} "
                                  f"{float(values[row])!r}: must be >= 0.")

    # -- building -------------------------------------------------------------------------
    @classmethod
    def from_partitions(
        cls,
        brokers: Iterable[ClusterBroker],
        partitions: Iterable[PartitionState],
        topics: Iterable[TopicInfo] = (),
    ) -> ClusterModel:
        """The model of ``partitions`` (any order; sorted here by topic in first-seen order
        — ``topics`` first when given —, then partition). Topics only named by a partition get
        a :class:`TopicInfo` with unknown configs."""
        infos = {t.name: t for t in topics}
        rows = list(partitions)
        for p in rows:
            infos.setdefault(p.topic, TopicInfo(p.topic))
        order = {name: i for i, name in enumerate(infos)}
        rows.sort(key=lambda p: (order[p.topic], p.partition))

        def loads(name: str) -> np.ndarray:
            return np.array([math.nan if getattr(p, name) is None else getattr(p, name)
                             for p in rows], dtype=np.float64)

        return cls(
            tuple(brokers), tuple(infos.values()),
            topic=np.array([order[p.topic] for p in rows], dtype=np.int32),
            partition=np.array([p.partition for p in rows], dtype=np.int32),
            replicas=padded_ids([p.replicas for p in rows]),
            leader=np.array([-1 if p.leader is None else p.leader for p in rows], np.int32),
            isr=padded_ids([p.isr for p in rows]),
            **{name: loads(name) for name in LOADS},
            elr=padded_ids([p.elr for p in rows]) if any(p.elr for p in rows) else None,
            last_known_elr=(padded_ids([p.last_known_elr for p in rows])
                            if any(p.last_known_elr for p in rows) else None),
        )

    # -- reading --------------------------------------------------------------------------
    @property
    def num_partitions(self) -> int:
        """Number of partitions (rows)."""
        return len(self.topic)

    def broker_index(self, broker_id: int) -> int:
        """Position of ``broker_id`` in :attr:`brokers`; :class:`ConfigError` if unknown."""
        found = self._broker_index.get(broker_id)
        if found is None:
            raise ConfigError(f"Unknown broker {broker_id}: the cluster has brokers "
                              f"{[b.id for b in self.brokers]!r:.80}.")
        return found

    def offline_mask(self, ids: np.ndarray) -> np.ndarray:
        """bool, the shape of ``ids`` (``(P, k)`` broker ids row by row, e.g. :attr:`replicas`
        or :attr:`isr`): ``True`` where the id is one of its row's :attr:`offline` replicas."""
        out = np.zeros(ids.shape, dtype=bool)
        if self.offline is None:
            return out
        for j in range(self.offline.shape[1]):
            col = self.offline[:, j][:, None]
            out |= (ids == col) & (col >= 0)
        return out

    def offline_brokers(self) -> tuple[int, ...]:
        """Ids of the brokers down before anything happens: every replica they hold is
        offline (:attr:`offline`) and they lead nothing. ``()`` when no replica is offline.

        >>> from dataclasses import replace
        >>> m = ClusterModel.from_partitions([ClusterBroker(1), ClusterBroker(6)],
        ...     [PartitionState("t", 0, (6, 1), isr=(6,))])
        >>> replace(m, offline=np.array([[6]])).offline_brokers()
        (6,)
        """
        if self.offline is None:
            return ()
        pos = self.broker_positions(self.replicas)
        held = pos >= 0
        b = len(self.brokers)
        hosted = np.bincount(pos[held], minlength=b)
        off = np.bincount(pos[held & self.offline_mask(self.replicas)], minlength=b)
        led = np.bincount(self.broker_positions(self.leader[self.leader >= 0]), minlength=b)
        return tuple(self.brokers[i].id for i in np.flatnonzero((hosted > 0) & (off == hosted)
                                                                 & (led == 0)))

    def replication_factors(self) -> np.ndarray:
        """int32, shape ``(P,)``: each partition's number of replicas."""
        return (self.replicas >= 0).sum(axis=1).astype(np.int32)  # type: ignore[no-any-return]

    def broker_positions(self, ids: np.ndarray) -> np.ndarray:
        """Broker ids (any shape, ``-1`` padding kept) → positions in :attr:`brokers`."""
        sorted_ids = np.array([b.id for b in self.brokers], dtype=np.int64)
        pos = np.searchsorted(sorted_ids, np.maximum(ids, 0))
        return np.where(ids >= 0, pos, -1).astype(np.int32)

    def partition_state(self, row: int) -> PartitionState:
        """Row ``row`` as a :class:`PartitionState`."""

        def ids(a: np.ndarray) -> tuple[int, ...]:
            return tuple(int(x) for x in a if x >= 0)

        def load(name: str) -> float | None:
            v = float(getattr(self, name)[row])
            return None if math.isnan(v) else v

        leader = int(self.leader[row])
        return PartitionState(
            self.topics[int(self.topic[row])].name, int(self.partition[row]),
            ids(self.replicas[row]), None if leader < 0 else leader, ids(self.isr[row]),
            **{name: load(name) for name in LOADS},
            elr=() if self.elr is None else ids(self.elr[row]),
            last_known_elr=() if self.last_known_elr is None else ids(self.last_known_elr[row]),
        )
