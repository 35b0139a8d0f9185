"""Replica placement (partition → brokers, preferred leader first).

* :mod:`~kpart.placement.admin_utils` — ``AdminUtils.assignReplicasToBrokers`` (ZooKeeper-era
  ``kafka-topics.sh --create``), rack-unaware and rack-aware;
* :mod:`~kpart.placement.striped_replica_placer` — the KRaft controller's
  ``StripedReplicaPlacer``;
* :mod:`~kpart.placement.manual` — ``--replica-assignment`` strings, the ZooKeeper topic node,
  adding partitions;
* :mod:`~kpart.placement.formats` — ``kafka-topics.sh --describe`` lines and other formats.

Submodules are imported on use (``from kpart.placement.admin_utils import ...``).
"""
