"""NetworkOutboundUsageDistributionGoal (``kpart.cluster.goals.network_outbound_usage_distribution``)
and its network-out replica phase (``kpart.cluster.goals._network_out_rebalance``)."""

from __future__ import annotations

import numpy as np

from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import goal_state, goals_by_name
from kpart.cluster.goals._network_out_rebalance import relocate_for_network_out
from kpart.cluster.goals.goal import guards_upto
from kpart.cluster.goals.joint_leadership import leader_bands
from kpart.cluster.optimizer import plan_cluster
from kpart.cluster.verifier import verify

CAP = Capacity(disk_bytes=1e9, network_in=1e9, network_out=1e9)


def _one_leader() -> ClusterModel:
    """Broker 0 leads every partition (network out 12 on it, 0 elsewhere)."""
    brokers = [ClusterBroker(i, f"r{i}", CAP) for i in range(3)]
    parts = [PartitionState("t", p, (0, 1 + p % 2), leader=0, size_bytes=1.0,
                            bytes_in_per_s=0.0, bytes_out_per_s=1.0) for p in range(12)]
    return ClusterModel.from_partitions(brokers, parts)


def test_without_the_leader_count_goal_the_phase_passes_leaderships() -> None:
    """With no leader-count band (``LeaderReplicaDistributionGoal`` not asked for) a broker
    may pass any number of leaderships: the phase evens network out (it raised
    OverflowError on the unbounded band before)."""
    model = _one_leader()
    goals = goals_by_name("RackAwareGoal,NetworkOutboundUsageDistributionGoal")
    s = goal_state(model, model.replicas, np.ones(3, bool))
    bands, _ = leader_bands(s, goals)
    assert np.isneginf(bands.lo_t[1]).all()  # no leader-count band
    relocate_for_network_out(s, bands, guards_upto(goals, 1), budget=0.0)
    assert s.nw_out.tolist() == [4.0, 4.0, 4.0]


def test_a_plan_of_network_out_alone_is_verified() -> None:
    model = _one_leader()
    goals = goals_by_name("RackAwareGoal,NetworkOutboundUsageDistributionGoal")
    plan = plan_cluster(model, goals=goals)
    assert verify(plan.model, plan.target, goals).ok
    assert plan.load_after.network_out.tolist() == [4.0, 4.0, 4.0]
