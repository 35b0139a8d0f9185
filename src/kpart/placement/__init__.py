"""Replica placement (partition → brokers, preferred leader first).

The placers follow KRaft's ``ReplicaPlacer.place(PlacementSpec, ClusterDescriber)``, returning
a frozen ``TopicAssignment`` (:mod:`~kpart.placement.spec`):

* :mod:`~kpart.placement.admin_utils` — ``AdminUtils.assignReplicasToBrokers`` (ZooKeeper-era
  ``kafka-topics.sh --create``), rack-unaware and rack-aware;
* :mod:`~kpart.placement.striped_replica_placer` — the KRaft controller's
  ``StripedReplicaPlacer``;
* :mod:`~kpart.placement.manual` — ``--replica-assignment`` strings, the ZooKeeper topic node,
  adding partitions;
* :mod:`~kpart.placement.formats` — ``kafka-topics.sh --describe`` lines and other formats;
* :mod:`~kpart.placement.planner` — minimal-movement reassignment plans;
* :mod:`~kpart.placement.plan` — a plan as a value (:class:`Plan`) and its batches.

The names below are resolved on use, so ``import kpart.placement`` imports no submodule:

>>> from kpart.placement import AdminUtilsReplicaPlacer, PlacementSpec, StaticCluster
>>> AdminUtilsReplicaPlacer().place(PlacementSpec(2, 2, fixed_start_index=0),
...                                 StaticCluster.of([0, 1])).to_dict()
{0: (0, 1), 1: (1, 0)}
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS: dict[str, str] = {
    "AdminUtilsReplicaPlacer": "kpart.placement.admin_utils",
    "Broker": "kpart.placement.spec",
    "ClusterDescriber": "kpart.placement.spec",
    "PartitionAssignment": "kpart.placement.spec",
    "Plan": "kpart.placement.plan",
    "PlacementSpec": "kpart.placement.spec",
    "PlanOptions": "kpart.placement.planner",
    "ReplicaPlacer": "kpart.placement.spec",
    "StaticCluster": "kpart.placement.spec",
    "StripedReplicaPlacer": "kpart.placement.striped_replica_placer",
    "TopicAssignment": "kpart.placement.spec",
    "assign_replicas_to_brokers": "kpart.placement.admin_utils",
    "place_in_pools": "kpart.placement.planner",
    "plan": "kpart.placement.planner",
    "plan_reassignment": "kpart.placement.planner",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'kpart.placement' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
