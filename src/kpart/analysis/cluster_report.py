"""A cluster report computed from what its Spark job measured: the job
(:func:`kpart.spark.cluster_report.measure_cluster`) returns one
:class:`~kpart.analysis.cluster_loads.TopicMeasure` per topic (measures only);
:func:`cluster_report` places them once on the resolved topology
(:func:`~kpart.analysis.cluster_model.placed_cluster`) and gives every output the report
directory holds: the ``summary.json`` document
(:func:`~kpart.analysis.cluster_summary.build_cluster_summary`), the per-window table
(``windows.parquet``), the cluster model (``cluster.json``, Cruise Control's load model) and its
consumer groups.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa

    from kpart.analysis.cluster_loads import TopicMeasure
    from kpart.analysis.layout import ResolvedCluster
    from kpart.cluster.groups import ConsumerGroup
    from kpart.cluster.model import Capacity, ClusterModel
    from kpart.topology import Topology

__all__ = ["ClusterReport", "cluster_report", "placing_step"]


def _silent(step: str) -> None:
    """The default ``on_step``: library callers see no output."""


@dataclass(frozen=True, slots=True)
class ClusterReport:
    """What :func:`cluster_report` computed: the ``summary`` document (``summary.json``,
    ``"kind": "cluster"``), every topic's ``measures``, the per-window table written as
    ``windows.parquet`` (``None`` when no topic has timestamps), the ``model`` written as
    ``cluster.json`` (``None`` without brokers: the producer view) and its consumer ``groups``
    (written there too, :func:`kpart.analysis.cluster_model.report_groups`)."""

    summary: dict[str, Any]
    measures: tuple[TopicMeasure, ...]
    windows: pa.Table | None
    model: ClusterModel | None
    groups: tuple[ConsumerGroup, ...] = ()


def placing_step(topology: Topology) -> str:
    """The step :func:`cluster_report` announces.

    >>> from kpart.topology import demo_topology
    >>> placing_step(demo_topology())
    'placing replicas and assigning 2 consumer group(s)'
    """
    groups = topology.groups
    return (("placing replicas" if topology.brokers else "placing null keys")
            + (f" and assigning {len(groups)} consumer group(s)" if groups else ""))


def cluster_report(  # noqa: PLR0913 - the cluster report's inputs, by keyword
    resolved: ResolvedCluster,
    measures: Sequence[TopicMeasure],
    *,
    capacity: Mapping[int, Capacity] | None = None,
    sources: Mapping[str, Mapping[str, Any]] | None = None,
    analysed_at: str | None = None,
    existing: ClusterModel | None = None,
    on_step: Callable[[str], None] = _silent,
) -> ClusterReport:
    """The cluster report of ``measures`` (one per topic, in the topology's order) on
    ``resolved`` (the topology resolved once, :func:`kpart.analysis.layout.resolve_cluster`).

    ``capacity``: broker id → its capacity; ``sources``: topic → ``{"path", "format"}``;
    ``analysed_at``: the run's UTC time (ISO 8601); ``existing``: the cluster the existing topics
    were taken from (their ISR and ``min.insync.replicas`` stay in the model). A measure whose
    ``source`` counted malformed records (``bad_records="count"``) gives its topic's row a
    ``malformed_records`` (in no figure of the topic). ``on_step`` is told :func:`placing_step`.
    Errors: those of :func:`~kpart.analysis.cluster_model.placed_cluster` (``ConfigError``)."""
    from kpart.analysis.cluster_model import placed_cluster, report_cluster_model, report_groups
    from kpart.analysis.cluster_summary import build_cluster_summary, cluster_windows_table

    topology = resolved.topology
    on_step(placing_step(topology))
    placed = placed_cluster(resolved, measures)  # null keys placed once, windows on one grid
    summary = build_cluster_summary(resolved, placed, capacity=capacity, sources=sources,
                                    analysed_at=analysed_at, existing=existing)
    for row, m in zip(summary["topics"], measures, strict=True):
        if "malformed_records" in m.source:  # bad_records="count": in no figure of the topic
            row["malformed_records"] = m.source["malformed_records"]
    model = (report_cluster_model(resolved, placed, capacity, existing)
             if topology.brokers else None)  # the producer view: no cluster.json
    return ClusterReport(summary, tuple(measures), cluster_windows_table(resolved, placed),
                         model, report_groups(resolved))
