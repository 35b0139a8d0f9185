"""A tiny stand-in of issue 14's ResolvedCluster (CONTRACT14 §1) and measures built by hand,
for the cluster summary's tests (no Spark): the topics resolved one by one with
``resolve_topology`` (AdminUtils with a seed), groups assigned over all their topics with
``kpart.consumer.assign``. Once ``kpart.analysis.layout.resolve_cluster`` exists (issue 14's topology),
:func:`cluster` returns the real thing for the same topology instead."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kpart.analysis import layout as _layout
from kpart.analysis.cluster_loads import TopicMeasure, TopicWindows
from kpart.analysis.layout import ResolvedTopology, resolve_topology
from kpart.analysis.loads import HotKey, Loads
from kpart.consumer import assign
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.spec import GroupSpec, Member, Topic
from kpart.placement.spec import Broker
from kpart.topology import ConsumerGroupConfig, GroupMemberConfig, TopicConfig, Topology


@dataclass(frozen=True)
class StandInTopology:
    brokers: tuple[Broker, ...]
    topics: tuple[TopicConfig, ...]
    groups: tuple[ConsumerGroupConfig, ...]
    subscriptions: dict[str, tuple[str, ...]] = field(default_factory=dict)
    placer: str = "admin-utils"

    @property
    def racks(self) -> tuple[str, ...]:
        return tuple(sorted({b.rack for b in self.brokers if b.rack is not None}))

    def group_topics(self, group: ConsumerGroupConfig) -> tuple[str, ...]:
        return self.subscriptions.get(group.name, tuple(t.name for t in self.topics))


@dataclass(frozen=True)
class StandInCluster:
    topology: StandInTopology
    topics: tuple[ResolvedTopology, ...]
    leaders: tuple[tuple[int, ...], ...]
    assignments: tuple[tuple[str, GroupAssignment], ...]

    def owners(self, group: str) -> dict[tuple[str, int], str]:
        ga = dict(self.assignments)[group]
        return {(t, p): m for m, owned in ga.assignment for t, ps in owned for p in ps}


BROKERS = tuple(Broker(i, f"r{i % 3}") for i in range(6))


def topic(name: str, partitions: int, rf: int = 3, seed: int = 7,
          null_key_strategy: str = "client") -> TopicConfig:
    return TopicConfig(name, partitions, rf, "k", placement_seed=seed, null_key_seed=seed,
                       null_key_strategy=null_key_strategy)


def group(name: str, members: int, strategy: str = "range") -> ConsumerGroupConfig:
    return ConsumerGroupConfig(name, strategy, tuple(
        GroupMemberConfig(f"{name}-{i}", f"r{i % 3}") for i in range(members)))


def _real(topics: Sequence[TopicConfig], groups: Sequence[ConsumerGroupConfig],
          subscriptions: dict[str, tuple[str, ...]],
          brokers: tuple[Broker, ...]) -> Any:
    """The real ResolvedCluster of the same topology, once issue 14's topology is merged."""
    from kpart.topology import topology_from_dict

    doc = {
        "cluster": {"brokers": [{"id": b.id, "rack": b.rack} for b in brokers]},
        "topics": [{"name": t.name, "partitions": t.partitions,
                    "replication_factor": t.replication_factor, "key": t.key,
                    "placement_seed": t.placement_seed, "null_key_seed": t.null_key_seed,
                    "null_key_strategy": t.null_key_strategy} for t in topics],
        "groups": [{"name": g.name, "strategy": g.strategy,
                    "members": [{"id": m.id, "rack": m.rack} for m in g.members],
                    **({"topics": list(subscriptions[g.name])}
                       if g.name in subscriptions else {})} for g in groups],
    }
    return _layout.resolve_cluster(topology_from_dict(doc))  # type: ignore[attr-defined]


def cluster(topics: Sequence[TopicConfig], groups: Sequence[ConsumerGroupConfig] = (),
            subscriptions: dict[str, tuple[str, ...]] | None = None,
            brokers: tuple[Broker, ...] = BROKERS) -> StandInCluster:
    """The resolved cluster: kpart.analysis.layout.resolve_cluster's when it exists, else the
    stand-in (each topic resolved alone, groups assigned over their topics)."""
    if hasattr(_layout, "resolve_cluster"):
        real: StandInCluster = _real(topics, groups, subscriptions or {}, brokers)
        return real
    topo = StandInTopology(brokers, tuple(topics), tuple(groups), subscriptions or {})
    resolved = tuple(resolve_topology(Topology(brokers, t, ())) for t in topics)
    leaders = tuple(r.layout.leaders for r in resolved)
    rack_of = {b.id: b.rack for b in brokers}
    specs = {r.topic.name: Topic(r.topic.name, r.topic.partitions,
                                 tuple(tuple(rack_of[b] for b in rs) for rs in r.layout.replicas))
             for r in resolved}
    assignments = []
    for g in groups:
        names = topo.group_topics(g)
        members = tuple(Member(m.id, names, m.rack, m.instance_id) for m in g.members)
        assignments.append((g.name, assign(GroupSpec(tuple(specs[n] for n in names), members),
                                           g.strategy)))
    return StandInCluster(topo, resolved, leaders, tuple(assignments))


def windows(records: np.ndarray, *, window_ms: int = 60_000, start: int = 0,
            size: int = 10, null_records: np.ndarray | None = None) -> TopicWindows:
    """Windows of ``records`` (``(P, W)``), each record ``size`` bytes; window 0 at
    ``start × window_ms``."""
    records = np.asarray(records, dtype=np.int64)
    nulls = (np.zeros(0, np.int64) if null_records is None
             else np.asarray(null_records, dtype=np.int64))
    return TopicWindows(window_ms, start * window_ms, records, records * size,
                        nulls, nulls * size)


def measure(name: str, w: TopicWindows | None, *, partitions: int | None = None,
            size: int = 10, null_records: int | None = None,
            hot: Sequence[HotKey] = ()) -> TopicMeasure:
    """The measure whose totals are those of ``w`` (or ``partitions`` × 5 records without
    windows)."""
    if w is None:
        assert partitions is not None
        recs = (5,) * partitions
        nulls = null_records or 0
    else:
        recs = tuple(int(x) for x in w.records.sum(axis=1))
        nulls = int(w.null_key_records.sum()) if null_records is None else null_records
    return TopicMeasure(name, Loads(recs, tuple(r * size for r in recs), (1,) * len(recs),
                                    nulls, nulls * size, tuple(hot)),
                        windows=w, source={"path": f"/data/{name}.csv", "format": "csv"})
