"""The main job of ``kpart report`` for a cluster topology (``[[topics]]``, or a topic with a
timestamp column): every topic's records partitioned as its producer would, their load over
time, the partition count each topic needs, and the cluster's brokers, racks and consumer
groups loaded by all topics at once.

Steps: the topology resolved once (:func:`kpart.analysis.layout.resolve_cluster`: replicas topic
after topic by the topology's placer, or taken from an existing cluster; every group assigned
over all its topics, as Kafka's assignors do), one Spark job per topic's dataset
(:func:`kpart.spark.cluster_job.measure_topics`), then in Python the summary
(:func:`kpart.analysis.cluster_summary.build_cluster_summary`) and the cluster model that
``kpart plan --snapshot`` reads (:func:`kpart.analysis.cluster_summary.report_cluster_model`,
Cruise Control's load model).

Seedless topics draw their replica placement and null-key model at random, like Kafka; the draw
is pinned once (:func:`pin_cluster_seeds`) so the summary records the seeds that reproduce it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from kpart.analysis.cluster_loads import TopicMeasure
from kpart.producer.partition_count import PartitionLimits
from kpart.topology import Topology

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa
    from pyspark.sql import SparkSession

    from kpart.analysis.layout import ResolvedCluster
    from kpart.cluster.groups import ConsumerGroup
    from kpart.cluster.model import Capacity, ClusterModel
    from kpart.spark.inputs import InputSpec

__all__ = ["ClusterReport", "pin_cluster_seeds", "run_cluster_report"]

Steps = Callable[[str], None]


def _silent(step: str) -> None:
    """The default ``on_step``: library callers see no output."""


@dataclass(frozen=True, slots=True)
class ClusterReport:
    """What :func:`run_cluster_report` computed: the ``summary`` document (``summary.json``,
    ``"kind": "cluster"``), every topic's ``measures``, the per-window table written as
    ``windows.parquet`` (``None`` when no topic has timestamps), the ``model`` written as
    ``cluster.json`` (``None`` without brokers: the producer view) and its consumer ``groups``
    (written there too,
    :func:`kpart.analysis.cluster_model.report_groups`)."""

    summary: dict[str, Any]
    measures: tuple[TopicMeasure, ...]
    windows: pa.Table | None
    model: ClusterModel | None
    groups: tuple[ConsumerGroup, ...] = ()


def pin_cluster_seeds(topology: Topology, seed: int | None = None) -> Topology:
    """``topology`` with a ``placement_seed`` on every topic: its own, else ``seed + i`` for
    topic ``i``, else one drawn at random (a signed 63-bit integer) per topic.

    >>> from kpart.topology import demo_topology
    >>> t = demo_topology()
    >>> pinned = pin_cluster_seeds(replace(t, topics=tuple(
    ...     replace(x, placement_seed=None) for x in t.topics)), 7)
    >>> [x.placement_seed for x in pinned.topics]
    [7, 8]
    >>> pin_cluster_seeds(t) is t
    True
    """
    if all(t.placement_seed is not None for t in topology.topics):
        return topology
    import secrets

    topics = tuple(
        t if t.placement_seed is not None else replace(
            t, placement_seed=secrets.randbits(63) if seed is None else seed + i)
        for i, t in enumerate(topology.topics))
    return replace(topology, topics=topics)


def run_cluster_report(  # noqa: PLR0913 - the cluster report's inputs, by keyword
    spark: SparkSession | None,
    resolved: ResolvedCluster,
    specs: Mapping[str, InputSpec],
    *,
    window_ms: int | None,
    limits: PartitionLimits,
    capacity: Mapping[int, Capacity] | None = None,
    on_step: Steps = _silent,
    existing: ClusterModel | None = None,
    bad_records: str = "fail",
) -> ClusterReport:
    """Run the cluster report on ``specs`` (topic name → its checked input,
    :func:`kpart.spark.inputs.resolve_topic_input`) and return it (nothing written).

    ``window_ms``: the load-over-time window (``None``: no windows even for timed topics);
    ``limits``: what one partition may carry, for the partition count
    (:func:`kpart.producer.partition_count.default_limits`); ``capacity``: broker id → its
    capacity (the ``broker-load`` charts and peak bytes-in against network-in capacity).
    ``resolved``: the topology resolved once, before Spark starts
    (:func:`kpart.analysis.layout.resolve_cluster` of :func:`pin_cluster_seeds`' topology, with the
    existing cluster whose topics keep their replicas and leaders); ``existing``: that
    cluster, whose ISR and ``min.insync.replicas`` its topics keep in the model;
    ``bad_records``: JSON lines Spark cannot parse refused (``"fail"``) or left out and counted
    (``"count"``: each topic's ``malformed_records`` in the summary). Every timed topic's time
    range is read and its window grid checked before the topics' jobs
    (:func:`kpart.spark.cluster_job.measure_topics`). Errors:
    ``ConfigError`` naming the topic and field (a timestamp that does not parse, a window grid
    too large), and those of :func:`kpart.analysis.layout.resolve_cluster`.
    """
    from datetime import UTC, datetime

    from kpart.analysis.cluster_model import report_groups
    from kpart.analysis.cluster_summary import (
        build_cluster_summary,
        cluster_windows_table,
        placed_cluster,
        report_cluster_model,
    )
    from kpart.producer.partition_count import largest_groups
    from kpart.spark.cluster_job import measure_topics

    analysed_at = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    topology = resolved.topology
    groups = topology.groups
    readers = largest_groups((g.name, len(g.members), topology.group_topics(g)) for g in groups)
    measures = measure_topics(spark, resolved, specs, window_ms=window_ms, limits=limits,
                              bad_records=bad_records, on_step=on_step,
                              largest_groups=readers)
    on_step(("placing replicas" if topology.brokers else "placing null keys")
            + (f" and assigning {len(groups)} consumer group(s)"
                                  if groups else ""))
    placed = placed_cluster(resolved, measures)  # null keys placed once, windows on one grid
    summary = build_cluster_summary(resolved, placed, capacity=capacity,
                                    sources={name: spec.source for name, spec in specs.items()},
                                    analysed_at=analysed_at, existing=existing)
    for row, m in zip(summary["topics"], measures, strict=True):
        if "malformed_records" in m.source:  # bad_records="count": in no figure of the topic
            row["malformed_records"] = m.source["malformed_records"]
    model = (report_cluster_model(resolved, placed, capacity, existing)
             if topology.brokers else None)  # the producer view: no cluster.json
    return ClusterReport(summary, measures, cluster_windows_table(resolved, placed), model,
                         report_groups(resolved))
