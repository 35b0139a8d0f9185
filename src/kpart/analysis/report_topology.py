"""The topology a report runs on, settled before any Spark work: its seeds pinned (a seedless
topology places replicas and draws null-key partitions at random, like Kafka; pinning the draw
once makes every part of the report read the same draw, and ``summary.json`` records the seeds
that reproduce it) and, for one topic, resolved once with the partitioner asked for
(:func:`resolve_report_topology`). The command line calls these before Spark starts; the Spark
jobs and :mod:`kpart.analysis` read what they return.
"""

from __future__ import annotations

import secrets
from dataclasses import replace

from kpart.analysis.layout import ResolvedTopology, resolve_topology
from kpart.producer.clients import PARTITIONERS
from kpart.topology import Topology

__all__ = ["pin_cluster_seeds", "pin_placement_seed", "resolve_report_topology"]


def resolve_report_topology(topology: Topology,
                            partitioner: str | None = None) -> ResolvedTopology:
    """``topology`` as the report reads it (:func:`kpart.spark.pipeline.measure_report`),
    resolved once (:func:`kpart.analysis.layout.resolve_topology`): ``partitioner``, a client
    id, replaces the topic's (keys and the ``client`` null-key rule), another id (``"spark:hash"``) hashes the keys only;
    the placement seed is pinned (:func:`pin_placement_seed`), so the report and its what-if
    share one draw. ``ConfigError`` for an unknown partitioner or null-key strategy.

    >>> from kpart.topology import default_topology
    >>> r = resolve_report_topology(default_topology(), "sarama:hash")
    >>> r.partitioner.id, r.key_partitioner, r.null_keys.strategy
    ('sarama:hash', 'sarama:hash', 'client:random')
    >>> resolve_report_topology(default_topology(), "spark:hash").partitioner.id
    'java:default'
    """
    if partitioner in PARTITIONERS:
        topology = topology.with_topic(partitioner=partitioner)
        partitioner = None
    return resolve_topology(pin_placement_seed(topology), partitioner)


def pin_placement_seed(topology: Topology, seed: int | None = None) -> Topology:
    """``topology`` with a ``placement_seed``: its own, else ``seed``, else one drawn at
    random (a signed 63-bit integer). A seedless topology places replicas and draws null-key
    partitions at random, like Kafka; pinning the draw once makes the report's loads and the
    what-if's "now" the same draws, and the seed recorded in ``summary.json``
    (``placement_seed``, ``null_key_distribution.seed`` unless ``null_key_seed`` is set)
    reproduces the run.

    >>> from kpart.topology import topology_from_dict
    >>> t = topology_from_dict({"cluster": {"brokers": [{"id": 1}]},
    ...                         "topic": {"name": "t", "partitions": 2,
    ...                                   "replication_factor": 1, "key": "k"}})
    >>> pin_placement_seed(t, 5).topic.placement_seed
    5
    >>> pin_placement_seed(pin_placement_seed(t, 5), 6).topic.placement_seed
    5
    """
    if topology.topic.placement_seed is not None:
        return topology
    if seed is None:
        seed = secrets.randbits(63)
    return topology.with_topic(placement_seed=seed)


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
    topics = tuple(
        t if t.placement_seed is not None else replace(
            t, placement_seed=secrets.randbits(63) if seed is None else seed + i)
        for i, t in enumerate(topology.topics))
    return replace(topology, topics=topics)
