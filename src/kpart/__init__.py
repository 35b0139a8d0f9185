"""kpart — Kafka's partitioning decisions, computed exactly as Kafka computes them.

Three pure cores, usable alone:

* producer partitioning (key → partition): :func:`murmur2`, :func:`partition_for_key`,
  :func:`partition_for_keys`;
* consumer-group assignment (partition → member): :func:`assign`, :class:`GroupSpec`;
* replica placement (replica → broker): :func:`assign_replicas_to_brokers`, :class:`Broker`;
* the whole cluster: :class:`ClusterModel` (:func:`cluster_from_files`), Cruise Control's goals
  (:func:`plan_cluster`, :func:`verify`), failures (:func:`outage`), coordinators
  (:func:`find_coordinator`);
* Kafka 4.x's groups: share groups (:class:`ShareGroupSpec`, :func:`assign_simple`) and Streams
  groups (:class:`StreamsGroupSpec`, ``kpart.streams.assign``); every versioned decision takes
  ``kafka_version=`` (:class:`KafkaVersion`, :mod:`kpart.versions`).

``kpart.spark`` applies them to DataFrames (with the extra ``kpart[spark]``). Names are
resolved lazily, so ``import kpart`` imports neither numba, pyarrow nor pyspark.

The names of :data:`__all__` report ``kpart`` as their module once resolved, as httpx does:
``help()`` and reprs show the name users import, not the module that defines it, and pickle
finds them as ``kpart.<name>``. Two kinds keep their module: the errors, whose home is the
public module :mod:`kpart.errors` (tracebacks name ``kpart.errors.ConfigError``), and an alias
(a function exported under another name than its own: pickle looks it up by its own name).

>>> import kpart
>>> kpart.partition_for_key(b"my_key_1", 6)
0
>>> kpart.JavaRandom
<class 'kpart.JavaRandom'>
"""

from __future__ import annotations

import contextlib
import importlib
from typing import Any

_EXPORTS: dict[str, str] = {
    # producer
    "murmur2": "kpart.producer.builtin",
    "partition_for_key": "kpart.producer.builtin",
    "partition_for_keys": "kpart.producer.kernels",
    "serialize_key": "kpart.producer.serializers",
    "partition_for_record": "kpart.producer.builtin",
    "simulate": "kpart.producer.simulate",
    "generate_records": "kpart.producer.simulate",
    "ProducerConfig": "kpart.producer.simulate",
    "LatencyModel": "kpart.producer.simulate",
    "SimulationResult": "kpart.producer.simulate",
    "Cluster": "kpart.producer.cluster",  # the old name of ProducerCluster (an alias)
    "ProducerCluster": "kpart.producer.cluster",
    "Partitioner": "kpart.producer.custom",
    "load_partitioner": "kpart.producer.custom",
    "compare_partitioners": "kpart.producer.compat",
    "partition_count_whatif": "kpart.producer.whatif",
    # consumer
    "Member": "kpart.consumer.spec",
    "Topic": "kpart.consumer.spec",
    "GroupSpec": "kpart.consumer.spec",
    "GroupAssignment": "kpart.consumer.assignment",
    "assign": "kpart.consumer",
    # consumer, KIP-848 server-side assignors
    "ServerTopic": "kpart.consumer.coordinator.server_spec",
    "ServerMember": "kpart.consumer.coordinator.server_spec",
    "ServerGroupSpec": "kpart.consumer.coordinator.server_spec",
    "server_assign": "kpart.consumer",
    "simulate_server_group": "kpart.consumer.coordinator.server_simulation",
    "PartitionAssignorError": "kpart.errors",
    # placement
    "Broker": "kpart.placement.spec",
    "assign_replicas_to_brokers": "kpart.placement.admin_utils",
    "assign_replicas_to_brokers_array": "kpart.placement.admin_utils",
    "JavaRandom": "kpart._java.random",
    "StripedReplicaPlacer": "kpart.placement.striped_replica_placer",
    "Move": "kpart.placement.reassign",
    "Plan": "kpart.placement.plan",
    "plan_reassignment": "kpart.placement.planner",
    "balance": "kpart.placement.balance",
    "PoolSpec": "kpart.placement.pools",
    "parse_pools": "kpart.placement.pools",
    # the cluster model, the planner and failures (kpart.cluster)
    "ClusterModel": "kpart.cluster.model",
    "cluster_from_files": "kpart.cluster.from_files",
    "cluster_from_json": "kpart.cluster.cluster_json",
    "ClusterPlan": "kpart.cluster.optimizer",
    "PlanRequest": "kpart.cluster.plan_request",
    "plan_cluster": "kpart.cluster.optimizer",
    "verify": "kpart.cluster.verifier",
    "outage": "kpart.cluster.broker_outage",
    "find_coordinator": "kpart.cluster.coordinator",
    # share groups (KIP-932) and Streams groups (KIP-1071)
    "ShareGroupSpec": "kpart.consumer.share.share_group_spec",
    "assign_simple": "kpart.consumer.share.simple_assignor",
    "StreamsGroupSpec": "kpart.consumer.streams.group_spec",
    # Kafka versions
    "KafkaVersion": "kpart.versions",
    # topology (the layout file of `kpart report`)
    "Topology": "kpart.topology",
    "load_topology": "kpart.topology",
    "default_topology": "kpart.topology",
    # errors
    "KpartError": "kpart.errors",
    "InvalidPartitionsError": "kpart.errors",
    "InvalidReplicationFactorError": "kpart.errors",
    "InvalidReplicaAssignmentError": "kpart.errors",
    "AdminOperationError": "kpart.errors",
    "InvalidPartitionError": "kpart.errors",
    "AssignmentError": "kpart.errors",
    "ConfigError": "kpart.errors",
    "OptimizationFailureError": "kpart.errors",
    "KpartWarning": "kpart.errors",
}

__all__ = sorted(_EXPORTS)
__version__ = "0.1.0"


#: Modules reachable as attributes: ``kpart.rebalance.simulate(...)``, ``kpart.spark.with_partition``.
_MODULES: dict[str, str] = {
    "rebalance": "kpart.consumer.rebalance",
    "spark": "kpart.spark",
    "producer": "kpart.producer",
    "consumer": "kpart.consumer",
    "placement": "kpart.placement",
    "report": "kpart.report",
    "topology": "kpart.topology",
    "cluster": "kpart.cluster",
    "versions": "kpart.versions",
    "share": "kpart.consumer.share",
    "streams": "kpart.consumer.streams",
}


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        value = importlib.import_module(_MODULES[name])
        globals()[name] = value
        return value
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'kpart' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    _report_kpart_as_module(name, value)
    globals()[name] = value
    return value


#: Where each public name resolved so far is defined (its ``__module__`` before it reported
#: ``kpart``), for tools that look for its definition (the doctest collection, conftest.py).
_DEFINED_IN: dict[str, str] = {}


def _report_kpart_as_module(name: str, value: object) -> None:
    """Set ``value.__module__`` to ``kpart``, except for an alias (exported under another name
    than its own, which pickle, looking functions up by their own name, would not find) and the
    errors (their home is the public module :mod:`kpart.errors`, which every traceback names:
    ``kpart.errors.ConfigError: ...``, whatever the program imported before)."""
    defined_in = getattr(value, "__module__", None)
    if (getattr(value, "__qualname__", None) != name or not isinstance(defined_in, str)
            or defined_in == "kpart.errors"):
        return
    with contextlib.suppress(AttributeError, TypeError):  # a builtin's module is read-only
        value.__module__ = "kpart"
        if defined_in != "kpart":
            _DEFINED_IN[name] = defined_in


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | set(_MODULES))
