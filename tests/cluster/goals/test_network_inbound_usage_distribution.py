"""``NetworkInboundUsageDistributionGoal`` (``kpart.cluster.goals.
network_inbound_usage_distribution``) as a unit: its violations are the allowed brokers whose
network-in *utilization* (bytes in per second of every replica it holds, leader or follower,
over its network-in capacity; the rate itself when a capacity is unknown) lies outside
``[avg × (2 − t), avg × t]``, ``t`` = ``network.inbound.balance.threshold``; ``accepts``
refuses a replica move that takes a broker out of that band, a leadership moves none of it;
``optimize`` (Cruise Control's ``rebalanceByMovingLoadOut/In``) brings every broker in with
moves every guard accepts. The cases
are those of every replica-load distribution goal (:mod:`_tools.usage_goal_cases`), on bytes in per
second; a follower's replica carries them too."""

from __future__ import annotations

from _tools.usage_goal_cases import UsageGoalCases, state
from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals.network_inbound_usage_distribution import (
    NetworkInboundUsageDistributionGoal,
)

GOAL = NetworkInboundUsageDistributionGoal()


class TestNetworkInboundUsageDistributionGoal(UsageGoalCases):
    GOAL = GOAL
    capacity = "network_in"
    load = "bytes_in_per_s"
    broker_load = "nw_in"
    weight = "rate_in"
    threshold = "network_in_balance"


def test_a_follower_replica_carries_its_bytes_in() -> None:
    # a partition on brokers 0 (leader) and 1 (follower), 10 bytes/s in: both count 10
    cap = Capacity(disk_bytes=1e9, network_in=100.0, network_out=1e9)
    brokers = [ClusterBroker(i, f"r{i}", cap) for i in range(3)]
    m = ClusterModel.from_partitions(brokers, [PartitionState(
        "t", 0, (0, 1), leader=0, size_bytes=0.0, bytes_in_per_s=10.0, bytes_out_per_s=0.0)])
    s = state(m)
    assert s.nw_in.tolist() == [10.0, 10.0, 0.0]
    # mean 20 / 300 of capacity: broker 2 (0) is under the band, brokers 0 and 1 over it
    assert GOAL.violations(s) == 3
    # moving the follower off 1 onto 2 keeps neither in band: 2 goes to 10 / 100, over the
    # top 0.0733; refused
    assert not GOAL.accepts(s, 0, 1, 2)
