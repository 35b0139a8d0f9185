"""The cluster model of a cluster report: every partition's replicas, leader and measured loads.

The ``report`` loader of the cluster model (docs/report-cluster.md): what ``kpart report``
measures for a topology of several topics (:class:`~kpart.analysis.cluster_loads.TopicMeasure`, one per
topic) laid on its resolved topology (replicas placed topic after topic, the current leaders,
each group's assignment over all its topics) becomes a :class:`~kpart.cluster.model.
ClusterModel`, the value ``cluster.json`` holds (Cruise Control's ``ClusterModel``:
``com.linkedin.kafka.cruisecontrol.model.ClusterModel``, brokers with racks and capacities,
replicas with their load), so that ``kpart plan --snapshot kpart-report/cluster.json`` plans
a rebalance from measured loads.

Per partition: ``messages`` = its records, ``size_bytes`` = its bytes (the report's bytes,
:data:`kpart.analysis.summary.BYTES_DEFINITION`), ``bytes_in_per_s`` = its timed bytes / the
topic's span (:attr:`~kpart.analysis.cluster_loads.TopicWindows.span_s`), ``messages_in_per_s`` the
same for records, ``bytes_out_per_s`` = ``bytes_in_per_s`` × the number of consumer groups
reading the topic (each group reads every record once); ISR = replicas, ``min.insync.replicas``
unknown (both taken from the existing cluster for the topics it holds). A topic without
timestamps has unknown (``NaN``) rates.

Null-key records are placed as the single-topic report places them
(:func:`kpart.analysis.loads.place_loads`, the topic's null-key rule on its leaders); per window, the
null-key records of the window are split over the partitions in proportion to that placement
(largest remainder, ties to the lower partition), so every window's total is kept exactly.
Keyed records the client places at random (every record under ``librdkafka:random``, empty
keys under ``librdkafka:consistent_random``) are split evenly over the partitions per window
(largest remainder), the expectation of a uniform draw per record; the totals draw them once
(a seeded multinomial, :func:`kpart.spark.pipeline` step 3), so a partition's windows may sum
to a few records more or less than its total.
Records whose timestamp is null are in the totals (``messages``, ``size_bytes``) and in no
window, hence in no rate.

>>> import numpy as np
>>> null_windows(np.array([10, 3]), [1, 1, 1]).tolist()
[[4, 1], [3, 1], [3, 1]]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

from kpart.analysis.loads import PlacedLoads, place_loads
from kpart.cluster.model import (
    Capacity,
    ClusterBroker,
    ClusterModel,
    TopicInfo,
    padded_ids,
)
from kpart.errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from kpart.analysis.cluster_loads import TopicMeasure, TopicWindows
    from kpart.analysis.layout import ResolvedTopology
    from kpart.cluster.groups import ConsumerGroup
    from kpart.consumer.assignment import GroupAssignment
    from kpart.placement.spec import Broker
    from kpart.topology import ConsumerGroupConfig

__all__ = ["ClusterTopology", "PlacedCluster", "PlacedTopic", "ResolvedClusterLike",
           "cluster_model_of", "null_windows", "placed_cluster", "report_cluster_model",
           "report_groups"]


class ClusterTopology(Protocol):
    """What the report reads of a topology (:class:`kpart.topology.Topology`)."""

    @property
    def brokers(self) -> Sequence[Broker]: ...  # noqa: D102

    @property
    def groups(self) -> Sequence[ConsumerGroupConfig]: ...  # noqa: D102

    @property
    def racks(self) -> tuple[str, ...]: ...  # noqa: D102

    def group_topics(self, group: ConsumerGroupConfig) -> tuple[str, ...]: ...  # noqa: D102


class ResolvedClusterLike(Protocol):
    """What the report reads of a resolved cluster (:class:`kpart.analysis.layout.ResolvedCluster`):
    the topology, per topic its :class:`~kpart.analysis.layout.ResolvedTopology` (replicas placed
    cluster-wide) and current leaders (``-1`` = none), each group's assignment over all its
    topics."""

    @property
    def topology(self) -> ClusterTopology: ...  # noqa: D102

    @property
    def topics(self) -> Sequence[ResolvedTopology]: ...  # noqa: D102

    @property
    def leaders(self) -> Sequence[Sequence[int]]: ...  # noqa: D102

    @property
    def assignments(self) -> Sequence[tuple[str, GroupAssignment]]: ...  # noqa: D102


def null_windows(counts: np.ndarray, weights: Sequence[int]) -> np.ndarray:
    """int64 ``(P, W)``: each window's ``counts[w]`` split over ``P`` partitions in proportion to
    ``weights`` (largest remainder, ties to the lower partition: per window what
    :func:`kpart.producer.null_keys.apportion` gives); zeros when the weights sum to 0."""
    w = np.asarray(weights, dtype=np.int64)
    c = np.asarray(counts, dtype=np.int64)
    total = int(w.sum())
    if total == 0 or not c.size:
        return np.zeros((len(w), c.size), dtype=np.int64)
    exact = int(c.max(initial=0)) * int(w.max(initial=0)) < 2**62
    cc, ww = (c, w) if exact else (c.astype(object), w.astype(object))
    prod = ww[:, None] * cc[None, :]
    base, frac = prod // total, prod % total
    left = (cc - base.sum(axis=0)).astype(np.int64)
    order = np.argsort(-frac, axis=0, kind="stable")
    rank = np.empty(order.shape, dtype=np.int64)
    np.put_along_axis(rank, order, np.arange(len(w))[:, None].repeat(c.size, axis=1), axis=0)
    out: np.ndarray = (base.astype(np.int64) + (rank < left[None, :])).astype(np.int64)
    return out


@dataclass(frozen=True, eq=False)
class PlacedTopic:
    """One topic's measure with its null-key records placed: ``records``/``bytes`` (int64,
    ``(P,)``, totals), ``window_records``/``window_bytes`` (int64, ``(P, W)``, null-key records
    of each window included; ``None`` without windows), its ``replicas`` and ``leaders``."""

    measure: TopicMeasure
    resolved: ResolvedTopology
    placed: PlacedLoads
    replicas: tuple[tuple[int, ...], ...]
    leaders: tuple[int, ...]
    readers: int
    records: np.ndarray
    bytes: np.ndarray
    window_records: np.ndarray | None
    window_bytes: np.ndarray | None

    @property
    def name(self) -> str:
        """The topic's name."""
        return self.measure.topic

    @property
    def windows(self) -> TopicWindows | None:
        """The measured windows (``None`` without a timestamp, or with no timed record)."""
        w = self.measure.windows
        return w if w is not None and w.windows else None

    @property
    def span_s(self) -> float | None:
        """Seconds the windows cover (``None`` without windows)."""
        w = self.windows
        return None if w is None else w.span_s

    def rates(self) -> tuple[np.ndarray, np.ndarray]:
        """``(bytes_in_per_s, records_per_s)``, float64 ``(P,)``: the timed load / span;
        ``NaN`` without windows."""
        span = self.span_s
        if span is None or self.window_bytes is None or self.window_records is None:
            nan = np.full(len(self.records), math.nan)
            return nan, nan.copy()
        return self.window_bytes.sum(axis=1) / span, self.window_records.sum(axis=1) / span


@dataclass(frozen=True, eq=False)
class PlacedCluster:
    """Every topic placed (:class:`PlacedTopic`, topology order) and the common grid of their
    windows: ``window_ms`` and ``start_ms`` (``None`` when no topic has windows) and
    ``grid_windows`` (``G``) windows from ``start_ms``."""

    resolved: ResolvedClusterLike
    topics: tuple[PlacedTopic, ...]
    window_ms: int | None
    start_ms: int | None
    grid_windows: int

    def offset(self, i: int) -> int:
        """Where topic ``i``'s first window falls on the common grid."""
        w = self.topics[i].windows
        if w is None or self.start_ms is None or self.window_ms is None:
            return 0
        return (w.start_ms - self.start_ms) // self.window_ms


def _place(resolved: ResolvedClusterLike, i: int, measure: TopicMeasure,
           readers: int) -> PlacedTopic:
    rt = resolved.topics[i]
    name = rt.topic.name
    if measure.topic != name:
        raise ConfigError(f"measures[{i}]: topic {measure.topic!r}, the topology's topic {i} "
                          f"is {name!r} (measures must follow the topology's order)")
    placed = place_loads(rt, measure.loads)
    win_r = win_b = None
    w = measure.windows
    if w is not None and w.windows:
        if w.partitions != rt.topic.partitions:
            raise ConfigError(f"measures[{i}] ({name}).windows: {w.partitions} partitions, the "
                              f"topic has {rt.topic.partitions}")
        nulls = placed.null_keys
        win_r = w.records.astype(np.int64)
        win_b = w.bytes.astype(np.int64)
        if nulls.included:
            win_r = win_r + null_windows(w.null_key_records, nulls.records)
            win_b = win_b + null_windows(w.null_key_bytes, nulls.bytes)
        if w.random_key_records.any() or w.random_key_bytes.any():  # drawn per record: even
            even = [1] * w.partitions
            win_r = win_r + null_windows(w.random_key_records, even)
            win_b = win_b + null_windows(w.random_key_bytes, even)
    return PlacedTopic(measure, rt, placed, tuple(rt.layout.replicas),
                       tuple(int(x) for x in resolved.leaders[i]), readers,
                       np.array(placed.records, dtype=np.int64),
                       np.array(placed.bytes, dtype=np.int64), win_r, win_b)


def placed_cluster(resolved: ResolvedClusterLike,
                   measures: Sequence[TopicMeasure] | PlacedCluster) -> PlacedCluster:
    """Place every topic's null-key records (see the module docstring) and line the windows
    up on one grid. ``measures``: one per topic, in the topology's order (an already placed
    cluster is returned as it is). Errors: ``ConfigError`` when a measure names another topic
    or has another partition count, or when two topics' windows have different lengths."""
    if isinstance(measures, PlacedCluster):
        return measures
    if len(measures) != len(resolved.topics):
        raise ConfigError(f"measures: {len(measures)} topics measured, the topology has "
                          f"{len(resolved.topics)}")
    topo = resolved.topology
    subscribed = [topo.group_topics(g) for g in topo.groups]
    topics = tuple(_place(resolved, i, m, sum(m.topic in s for s in subscribed))
                   for i, m in enumerate(measures))
    timed = [t.windows for t in topics if t.windows is not None]
    if not timed:
        return PlacedCluster(resolved, topics, None, None, 0)
    window_ms = timed[0].window_ms
    for t in topics:
        if t.windows is not None and t.windows.window_ms != window_ms:
            raise ConfigError(f"measures ({t.name}).windows: {t.windows.window_ms} ms windows, "
                              f"the first timed topic has {window_ms} ms")
    start = min(w.start_ms for w in timed)
    end = max(w.start_ms + w.windows * window_ms for w in timed)
    _check_grid(topics, window_ms, rows=len(topo.brokers) + sum(  # 200: the
        len(g.members) for g in topo.groups) + min(200, sum(  # heat map's HEATMAP_ROWS
            len(t.records) for t in topics if t.windows is not None)))
    return PlacedCluster(resolved, topics, window_ms, start, (end - start) // window_ms)


def _check_grid(topics: Sequence[PlacedTopic], window_ms: int, *, rows: int) -> None:
    """The common grid of the timed ``topics``' windows checked
    (:func:`kpart.analysis.cluster_loads.check_grid`: ``ConfigError`` about ``window`` naming the
    earliest and the latest topic)."""
    from kpart.analysis.cluster_loads import check_grid

    check_grid({t.name: t.windows.start_ms for t in topics if t.windows is not None},
               {t.name: t.windows.start_ms + t.windows.windows * window_ms
                for t in topics if t.windows is not None}, window_ms, rows)


def _brokers(resolved: ResolvedClusterLike,
             capacity: Mapping[int, Capacity] | None) -> tuple[ClusterBroker, ...]:
    caps = capacity or {}
    return tuple(ClusterBroker(b.id, b.rack, caps.get(b.id)) for b in resolved.topology.brokers)


def _existing_state(topics: Sequence[PlacedTopic], existing: ClusterModel | None
                    ) -> tuple[list[tuple[int, ...]], list[TopicInfo]]:
    """Per partition its ISR and per topic its :class:`TopicInfo`: ``existing``'s (ISR and
    ``min.insync.replicas``) for the topics it holds with the same replicas, else ISR = the
    replicas and ``min.insync.replicas`` unknown."""
    rows: dict[tuple[str, int], int] = {}
    infos: dict[str, TopicInfo] = {}
    if existing is not None:
        names = [t.name for t in existing.topics]
        rows = {(names[int(ti)], int(p)): k for k, (ti, p) in
                enumerate(zip(existing.topic, existing.partition, strict=True))}
        infos = {t.name: t for t in existing.topics}
    isr: list[tuple[int, ...]] = []
    for t in topics:
        for p, replicas in enumerate(t.replicas):
            row = rows.get((t.name, p))
            ids = None if row is None or existing is None else (
                tuple(int(x) for x in existing.replicas[row] if x >= 0),
                tuple(int(x) for x in existing.isr[row] if x >= 0))
            isr.append(ids[1] if ids is not None and ids[0] == tuple(replicas)
                       else tuple(replicas))
    return isr, [infos.get(t.name, TopicInfo(t.name)) for t in topics]


def cluster_model_of(placed: PlacedCluster, capacity: Mapping[int, Capacity] | None = None,
                     existing: ClusterModel | None = None) -> ClusterModel:
    """The :class:`ClusterModel` of an already placed cluster (see
    :func:`report_cluster_model`)."""
    topics = placed.topics
    sizes = [len(t.replicas) for t in topics]
    replicas = padded_ids([r for t in topics for r in t.replicas])
    isr, infos = _existing_state(topics, existing)
    rates = [t.rates() for t in topics]
    bytes_in = np.concatenate([r[0] for r in rates]) if topics else np.zeros(0)
    readers = np.repeat(np.array([t.readers for t in topics], dtype=np.float64), sizes)
    loads = {
        "messages": np.concatenate([t.records for t in topics]).astype(np.float64),
        "size_bytes": np.concatenate([t.bytes for t in topics]).astype(np.float64),
        "bytes_in_per_s": bytes_in,
        "bytes_out_per_s": bytes_in * readers,
        "messages_in_per_s": np.concatenate([r[1] for r in rates]) if topics else np.zeros(0),
    }
    return ClusterModel(
        _brokers(placed.resolved, capacity), tuple(infos),
        topic=np.repeat(np.arange(len(topics), dtype=np.int32), sizes),
        partition=np.concatenate([np.arange(n, dtype=np.int32) for n in sizes]
                                 or [np.zeros(0, np.int32)]),
        replicas=replicas,
        leader=np.array([x for t in topics for x in t.leaders], dtype=np.int32),
        isr=padded_ids(isr) if isr else replicas,
        **loads,
    )


def report_cluster_model(resolved: ResolvedClusterLike,
                         measures: Sequence[TopicMeasure] | PlacedCluster,
                         capacity: Mapping[int, Capacity] | None = None,
                         existing: ClusterModel | None = None) -> ClusterModel:
    """The cluster a report measured (see the module docstring for each load): brokers as the
    topology lists them with ``capacity[id]`` (``None``: unknown), one row per partition of
    every topic (topology order), its replicas (ISR = replicas unless ``existing`` says), its
    current leader and its
    loads. ``measures``: one :class:`~kpart.analysis.cluster_loads.TopicMeasure` per topic, topology
    order (or :func:`placed_cluster`'s result, to place once for the summary too). Errors:
    those of :func:`placed_cluster`; the model's own checks (``ConfigError``). ``existing``:
    the cluster the topology's existing topics were taken from (``--current``/``--snapshot``):
    their partitions keep its ISR and their ``min.insync.replicas``.

    ``cluster_to_json(report_cluster_model(...))`` is the report's ``cluster.json``."""
    return cluster_model_of(placed_cluster(resolved, measures), capacity, existing)


def report_groups(resolved: ResolvedClusterLike) -> tuple[ConsumerGroup, ...]:
    """The consumer groups of the topology as ``cluster.json``'s ``groups`` section holds a
    snapshot's (Kafka's ``ConsumerGroupDescription``, :class:`kpart.cluster.groups.
    ConsumerGroup`), so ``kpart snapshot-group kpart-report/cluster.json GROUP`` turns one into
    the group file of ``kpart assign`` what-ifs as it does for a live cluster's.

    Per group, topology order: ``group_id`` its name, ``type`` ``"consumer"`` for a KIP-848
    assignor (``uniform``, ``server-range``) else ``"classic"``, ``state`` ``"STABLE"``,
    ``assignor`` Kafka's name of the strategy (``partition.assignment.strategy`` /
    ``group.remote.assignor``: ``server-range`` is ``range``), ``coordinator`` unknown; per
    member, in join order: ``member_id`` its id, ``group_instance_id``, ``rack`` and its
    ``assignment`` as the report assigned it (topics in topology order, partitions sorted).

    >>> from kpart.analysis.layout import resolve_cluster
    >>> from kpart.topology import demo_topology
    >>> ops = report_groups(resolve_cluster(demo_topology()))[0]
    >>> ops.group_id, ops.type, ops.assignor, [t for t, _ in ops.members[0].assignment]
    ('ops', 'classic', 'cooperative-sticky', ['flights', 'weather'])
    """
    from kpart.cluster.groups import ConsumerGroup, GroupMember
    from kpart.consumer import CONSUMER, get_strategy

    topo = resolved.topology
    order = {rt.topic.name: i for i, rt in enumerate(resolved.topics)}
    groups = []
    for (name, ga), cfg in zip(resolved.assignments, topo.groups, strict=True):
        owned = dict(ga.assignment)
        strategy = get_strategy(cfg.strategy)
        members = tuple(
            GroupMember(m.id, group_instance_id=m.instance_id, rack=m.rack,
                        assignment=tuple(sorted(((t, tuple(sorted(ps)))
                                                 for t, ps in owned.get(m.id, ()) if ps),
                                                key=lambda tp: order.get(tp[0], len(order)))))
            for m in cfg.members)
        groups.append(ConsumerGroup(
            name, type="consumer" if strategy.protocol == CONSUMER else "classic",
            state="STABLE", assignor=strategy.config_name, members=members))
    return tuple(groups)
