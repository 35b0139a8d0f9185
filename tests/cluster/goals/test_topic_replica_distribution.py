"""TopicReplicaDistributionGoal's fix (``kpart.cluster.goals._replica_movement``): a topic
missing from a broker whose disk band is full gets its replicas by swaps — one of the topic
in, one of another topic about as large out — when no single move is accepted."""

from __future__ import annotations

import numpy as np
import pytest

import kpart.cluster.goals._replica_movement as movement
from kpart.cluster import ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import Thresholds, goals_by_name
from kpart.cluster.load import broker_load
from kpart.cluster.optimizer import plan_cluster
from kpart.cluster.verifier import verify

GOALS = goals_by_name("DiskUsageDistributionGoal,TopicReplicaDistributionGoal")
#: A disk band so narrow that any single move of a replica breaks it.
TIGHT = Thresholds(disk_balance=1.001)


def _cluster() -> ClusterModel:
    """Four brokers of exactly 100 one-byte replicas each (RF 2): topic ``a`` 100 partitions
    on brokers 0, 1 and 3 (66, 67, 67 replicas, none on 2: its band is [10, 90] per broker),
    topic ``b`` 100 partitions led by 0, 1 and 3 (34, 33, 33), each followed on broker 2
    (100 there, over 90)."""
    brokers = [ClusterBroker(i, f"r{i}") for i in range(4)]
    pairs = {"a": [(0, 1)] * 33 + [(1, 3)] * 34 + [(3, 0)] * 33,
             "b": [((0, 1, 3)[p % 3], 2) for p in range(100)]}
    parts = [PartitionState(t, p, reps, leader=reps[0], size_bytes=1.0, bytes_in_per_s=0.0,
                            bytes_out_per_s=0.0)
             for t, of in pairs.items() for p, reps in enumerate(of)]
    return ClusterModel.from_partitions(brokers, parts)


def _topic_after(model: ClusterModel) -> tuple[int, int, np.ndarray]:
    plan = plan_cluster(model, goals=GOALS, thresholds=TIGHT)
    report = verify(plan.model, plan.target, plan.goals, thresholds=TIGHT)
    disk, topic = report.goals
    return disk.after, topic.after, broker_load(plan.model, plan.target,
                                                plan.target[:, 0]).disk_bytes


def test_a_topic_missing_from_a_full_broker_comes_by_swaps() -> None:
    disk, topic, bytes_after = _topic_after(_cluster())
    assert (disk, topic) == (0, 0)
    assert bytes_after.tolist() == [100.0, 100.0, 100.0, 100.0]


def test_without_swaps_no_single_move_fixes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(movement, "_topic_swap", lambda *args: False)
    disk, topic, _ = _topic_after(_cluster())
    assert disk == 0 and topic > 0
