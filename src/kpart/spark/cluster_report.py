"""The main job of ``kpart report`` for a cluster topology (``[[topics]]``, or a topic with a
timestamp column): every topic's records partitioned as its producer would, their load over
time and the partition count each topic needs (:func:`measure_cluster`, measures only).

Steps: the topology resolved once (:func:`kpart.analysis.layout.resolve_cluster`: replicas topic
after topic by the topology's placer, or taken from an existing cluster; every group assigned
over all its topics, as Kafka's assignors do), one Spark job per topic's dataset
(:func:`kpart.spark.cluster_job.measure_topics`); then, in Python and outside this package, the
report of those measures (:func:`kpart.analysis.cluster_report.cluster_report`: the summary,
the per-window table and the cluster model that ``kpart plan --snapshot`` reads, Cruise
Control's load model), composed by the command line.

Seedless topics draw their replica placement and null-key model at random, like Kafka; the draw
is pinned once (:func:`kpart.analysis.report_topology.pin_cluster_seeds`) so the summary records the seeds that reproduce it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from kpart.analysis.cluster_loads import TopicMeasure
from kpart.producer.partition_count import PartitionLimits

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import SparkSession

    from kpart.analysis.layout import ResolvedCluster
    from kpart.spark.inputs import InputSpec

__all__ = ["measure_cluster"]

Steps = Callable[[str], None]


def _silent(step: str) -> None:
    """The default ``on_step``: library callers see no output."""


def measure_cluster(  # noqa: PLR0913 - the cluster report's inputs, by keyword
    spark: SparkSession | None,
    resolved: ResolvedCluster,
    specs: Mapping[str, InputSpec],
    *,
    window_ms: int | None,
    limits: PartitionLimits,
    on_step: Steps = _silent,
    bad_records: str = "fail",
) -> tuple[TopicMeasure, ...]:
    """Run the cluster report's job on ``specs`` (topic name → its checked input,
    :func:`kpart.spark.inputs.resolve_topic_input`) and return what it measured, one
    :class:`~kpart.analysis.cluster_loads.TopicMeasure` per topic in the topology's order
    (measures only: the report is :func:`kpart.analysis.cluster_report.cluster_report` of them).

    ``window_ms``: the load-over-time window (``None``: no windows even for timed topics);
    ``limits``: what one partition may carry, for the partition count
    (:func:`kpart.producer.partition_count.default_limits`), whose advice never goes below the
    members of the largest group reading the topic. ``resolved``: the topology resolved once,
    before Spark starts (:func:`kpart.analysis.layout.resolve_cluster` of
    :func:`kpart.analysis.report_topology.pin_cluster_seeds`' topology); ``bad_records``: JSON lines Spark cannot parse refused
    (``"fail"``) or left out and counted (``"count"``: each measure's
    ``source["malformed_records"]``). Every timed topic's time range is read and its window grid
    checked before the topics' jobs (:func:`kpart.spark.cluster_job.measure_topics`). Errors:
    ``ConfigError`` naming the topic and field (a timestamp that does not parse, a window grid
    too large).
    """
    from kpart.producer.partition_count import largest_groups
    from kpart.spark.cluster_job import measure_topics

    topology = resolved.topology
    readers = largest_groups((g.name, len(g.members), topology.group_topics(g))
                             for g in topology.groups)
    return tuple(measure_topics(spark, resolved, specs, window_ms=window_ms, limits=limits,
                                bad_records=bad_records, on_step=on_step,
                                largest_groups=readers))
