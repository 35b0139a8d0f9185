"""The whole cluster, weighed: a frozen, array-backed model of brokers, replicas, leaders, ISR
and per-partition load (:mod:`kpart.cluster.model`), Cruise Control's load model
(:mod:`kpart.cluster.load`) and kpart's ``cluster.json`` (:mod:`kpart.cluster.cluster_json`).

Loaders (describe dumps, log-dirs JSON, ``capacity.json``, rates, a live snapshot) build a
:class:`ClusterModel`; the planner, its verifier and the failure what-ifs read it:

* the model and its loaders: :class:`ClusterModel`, :func:`cluster_from_files`,
  :func:`cluster_from_json` / :func:`cluster_to_json`, :func:`take_snapshot`,
  :func:`parse_capacity_json`, :func:`parse_rates_csv`;
* the planner (Cruise Control's goals): :func:`plan_cluster` → :class:`ClusterPlan`, checked by
  :func:`verify` (→ :class:`VerifierReport`), scheduled by :func:`schedule_plan`;
* failures: :func:`outage` / :func:`outage_all` (→ :class:`OutageResult`), KIP-966's elections
  after ordered broker events (:func:`run_events`), coordinators (:func:`find_coordinator`).

The planner's names are imported on first use (``import kpart.cluster`` loads numpy only):

>>> import kpart.cluster, kpart.cluster.optimizer
>>> kpart.cluster.plan_cluster is kpart.cluster.optimizer.plan_cluster
True
"""

from __future__ import annotations

import importlib
from typing import Any

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

#: Names imported on first use: ``{name: module}``.
_LAZY: dict[str, str] = {
    "cluster_from_files": "kpart.cluster.from_files",
    "take_snapshot": "kpart.cluster.snapshot",
    "Snapshot": "kpart.cluster.snapshot",
    "CapacityConfig": "kpart.cluster.capacity",
    "parse_capacity_json": "kpart.cluster.capacity",
    "PartitionLoads": "kpart.cluster.rates",
    "parse_rates_csv": "kpart.cluster.rates",
    "ClusterPlan": "kpart.cluster.optimizer",
    "plan_cluster": "kpart.cluster.optimizer",
    "VerifierReport": "kpart.cluster.verifier",
    "verify": "kpart.cluster.verifier",
    "Schedule": "kpart.cluster.schedule",
    "schedule_plan": "kpart.cluster.schedule",
    "OutageResult": "kpart.cluster.broker_outage",
    "outage": "kpart.cluster.broker_outage",
    "outage_all": "kpart.cluster.broker_outage",
    "BrokerEvent": "kpart.cluster.broker_events",
    "ReplicationState": "kpart.cluster.broker_events",
    "run_events": "kpart.cluster.broker_events",
    "find_coordinator": "kpart.cluster.coordinator",
    "coordinator_changes": "kpart.cluster.coordinator",
    "PlanRequest": "kpart.cluster.plan_request",
    "GoalThresholds": "kpart.cluster.plan_request",
}

__all__ = [  # the eager names, then those of _LAZY
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
    "cluster_from_files",
    "take_snapshot",
    "Snapshot",
    "CapacityConfig",
    "parse_capacity_json",
    "PartitionLoads",
    "parse_rates_csv",
    "ClusterPlan",
    "plan_cluster",
    "PlanRequest",
    "GoalThresholds",
    "VerifierReport",
    "verify",
    "Schedule",
    "schedule_plan",
    "OutageResult",
    "outage",
    "outage_all",
    "BrokerEvent",
    "ReplicationState",
    "run_events",
    "find_coordinator",
    "coordinator_changes",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'kpart.cluster' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
