"""``DiskUsageDistributionGoal`` (``kpart.cluster.goals.disk_usage_distribution``) as a unit:
its violations are the allowed brokers whose disk *utilization* (bytes / disk capacity; the
bytes themselves when a capacity is unknown) lies outside ``[avg × (2 − t), avg × t]``, ``avg``
the cluster's total bytes over its total capacity; ``accepts`` refuses a replica move that
takes a broker out of that band (Cruise Control's ``actionAcceptance``); ``optimize`` (Cruise
Control's ``rebalanceByMovingLoadOut/In``) brings every broker in with moves every guard
accepts. The cases are those of every replica-load distribution goal
(:mod:`_tools.usage_goal_cases`), on bytes."""

from __future__ import annotations

from _tools.usage_goal_cases import UsageGoalCases
from kpart.cluster.goals.disk_usage_distribution import DiskUsageDistributionGoal


class TestDiskUsageDistributionGoal(UsageGoalCases):
    GOAL = DiskUsageDistributionGoal()
    capacity = "disk_bytes"
    load = "size_bytes"
    broker_load = "disk"
    weight = "size"
    threshold = "disk_balance"
