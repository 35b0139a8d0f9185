"""The load-aware plan's Arrow table (kpart.cluster.plan_table): built below the CLI, the
count-based plan's columns, Kafka's partition order."""

from __future__ import annotations

import numpy as np

from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import goals_by_name
from kpart.cluster.optimizer import plan_cluster
from kpart.cluster.plan_table import plan_table
from kpart.placement.planner import plan

CAP = Capacity(disk_bytes=100.0, network_in=100.0, network_out=100.0)


def test_plan_table_has_the_count_based_columns_in_kafkas_order() -> None:
    brokers = [ClusterBroker(i, "ab"[i % 2], CAP) for i in range(3)]
    parts = [PartitionState(t, p, reps, leader=reps[0], isr=reps, size_bytes=1.0)
             for t, p, reps in (("b", 0, (0, 1)), ("a", 1, (1, 0)), ("a", 0, (0, 1)))]
    model = ClusterModel.from_partitions(brokers, parts)
    result = plan_cluster(model, add_brokers=[ClusterBroker(3, "b", CAP)],
                          goals=goals_by_name("RackAwareGoal,ReplicaDistributionGoal"))
    table = plan_table(result, np.array([0, 1, 0], np.int32))
    count = plan({"a": {0: (0, 1)}}).to_arrow()
    assert table.schema == count.schema
    assert table.column("topic").to_pylist() == ["a", "a", "b"]
    assert table.column("partition").to_pylist() == [0, 1, 0]
    assert table.column("current_replicas").to_pylist() == [[0, 1], [1, 0], [0, 1]]
    assert sorted(table.column("batch").to_pylist(), key=str) == [1, None, None]  # 0: null
