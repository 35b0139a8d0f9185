"""kpart — Kafka's partitioning decisions, computed exactly as Kafka computes them.

Three pure cores, usable alone:

* producer partitioning (key → partition): :func:`murmur2`, :func:`partition_for_key`,
  :func:`partition_for_keys`;
* consumer-group assignment (partition → member): :func:`assign`, :class:`GroupSpec`;
* replica placement (replica → broker): :func:`assign_replicas_to_brokers`, :class:`Broker`.

``kpart.spark`` applies them to DataFrames. Names are resolved lazily, so ``import kpart``
imports neither numba, pyarrow nor pyspark.

>>> import kpart
>>> kpart.partition_for_key(b"my_key_1", 6)
0
"""

from __future__ import annotations

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
    "Cluster": "kpart.producer.cluster",
    "Partitioner": "kpart.producer.custom",
    "load_partitioner": "kpart.producer.custom",
    "compare_partitioners": "kpart.producer.compat",
    "partition_count_whatif": "kpart.producer.whatif",
    # consumer
    "Member": "kpart.consumer.spec",
    "Topic": "kpart.consumer.spec",
    "GroupSpec": "kpart.consumer.spec",
    "GroupAssignment": "kpart.consumer.spec",
    "assign": "kpart.consumer",
    # consumer, KIP-848 server-side assignors
    "ServerTopic": "kpart.consumer.server_spec",
    "ServerMember": "kpart.consumer.server_spec",
    "ServerGroupSpec": "kpart.consumer.server_spec",
    "server_assign": "kpart.consumer",
    "simulate_server_group": "kpart.consumer.server_simulation",
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
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | set(_MODULES))
