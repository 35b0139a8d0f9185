"""The whole cluster, weighed: a frozen, array-backed model of brokers, replicas, leaders, ISR
and per-partition load (:mod:`kpart.cluster.model`), Cruise Control's load model
(:mod:`kpart.cluster.load`) and kpart's ``cluster.json`` (:mod:`kpart.cluster.cluster_json`).

Loaders (describe dumps, log-dirs JSON, ``capacity.json``, rates, a live snapshot) build a
:class:`ClusterModel`; the planner, its verifier and the failure what-ifs read it.
"""

from kpart.cluster.cluster_json import cluster_from_json, cluster_to_json
from kpart.cluster.load import BrokerLoad, broker_load
from kpart.cluster.model import (
    LOADS,
    Capacity,
    ClusterBroker,
    ClusterModel,
    PartitionState,
    TopicInfo,
)

__all__ = [
    "LOADS",
    "BrokerLoad",
    "Capacity",
    "ClusterBroker",
    "ClusterModel",
    "PartitionState",
    "TopicInfo",
    "broker_load",
    "cluster_from_json",
    "cluster_to_json",
]
