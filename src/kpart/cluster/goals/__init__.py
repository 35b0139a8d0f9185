"""Cruise Control's goals, by their names, in its default priority order, with its defaults
(``com.linkedin.kafka.cruisecontrol.analyzer.goals.*``; ``default.goals`` of
``cruisecontrol.properties``; ``BalancingConstraint`` for the thresholds): one module per goal
(or per family, as Cruise Control's ``CapacityGoal`` and ``ResourceDistributionGoal``), the
registry (:mod:`kpart.cluster.goals.registry`), the state they read
(:mod:`kpart.cluster.goals.state`).

A goal is a small frozen object (:class:`~kpart.cluster.goals.goal.Goal`): ``name``,
``hard``, ``violations(state)`` (how many brokers — partitions for ``RackAwareGoal`` and
``PreferredLeaderElectionGoal``, topic × broker pairs for ``TopicReplicaDistributionGoal`` —
break it, vectorised over brokers), ``accepts(state, row, src, dst)`` /
``accepts_leader(state, row, src, dst)``: whether moving one replica of partition ``row``
from broker position ``src`` to ``dst`` (or its leadership) keeps the goal,
``check_feasible(state, model)`` (a hard goal no plan can meet raises), ``optimize(state,
guards)``: its fix (the offline replicas relocated, then its ``rebalance``), and
``failure(state, model)``: the error when a hard goal still breaks after planning. The optimizer (:mod:`kpart.cluster.optimizer`) owns
the only mutable state, a :class:`GoalState` of arrays; the verifier
(:mod:`kpart.cluster.verifier`) recomputes every goal on its own.

Limits (Cruise Control's defaults, :class:`Thresholds`): a capacity goal holds when a broker's
load ≤ ``0.8 ×`` its capacity (``disk.capacity.threshold``, ``network.inbound/outbound.
capacity.threshold``); ``ReplicaCapacityGoal`` when it holds ≤ ``max.replicas.per.broker``
(10,000) replicas; a distribution goal when every live broker's utilization (load / capacity;
the load itself when a capacity is unknown) lies within ``[avg × (2 − t), avg × t]`` with
``t`` = 1.10 (``*.balance.threshold``) — counts: ``[floor(avg × (2 − t)), ceil(avg × t)]``;
``TopicReplicaDistributionGoal``: ``t`` = 3.0 with a gap of at least 2 and at most 40
replicas around the topic's mean (``topic.replica.count.balance.min.gap/max.gap``);
``LeaderBytesInDistributionGoal``: leader bytes-in ≤ ``avg × t`` (network-in ``t``);
``PotentialNwOutGoal``: the network out a broker would serve if all its replicas led ≤
``0.8 ×`` its network-out capacity. The target's leader is each partition's first replica
(the preferred leader, after a preferred election).

>>> [g.name for g in DEFAULT_GOALS][:3], [g.hard for g in DEFAULT_GOALS][:6]
(['RackAwareGoal', 'ReplicaCapacityGoal', 'DiskCapacityGoal'], [True, True, True, True, True, False])
"""

from __future__ import annotations

from kpart.cluster.goals.broker_failure_capacity import (
    BrokerFailureCapacityGoal,
    completed,
    failure_overloads,
)
from kpart.cluster.goals.broker_set_aware import (
    BrokerSetAwareGoal,
    pool_arrays,
    pool_violations,
)
from kpart.cluster.goals.capacity import CapacityGoal
from kpart.cluster.goals.goal import Goal, Guards
from kpart.cluster.goals.registry import DEFAULT_GOALS, GOALS, goals_by_name
from kpart.cluster.goals.resource_distribution import ResourceDistributionGoal
from kpart.cluster.goals.state import (
    BALANCE_MARGIN,
    DEFAULT_THRESHOLDS,
    GoalState,
    Thresholds,
    count_band,
    goal_state,
    util_band,
)
from kpart.cluster.goals.topic_replica_distribution import TopicReplicaDistributionGoal

__all__ = [
    "BALANCE_MARGIN",
    "DEFAULT_GOALS",
    "DEFAULT_THRESHOLDS",
    "GOALS",
    "BrokerFailureCapacityGoal",
    "BrokerSetAwareGoal",
    "CapacityGoal",
    "Goal",
    "GoalState",
    "Guards",
    "ResourceDistributionGoal",
    "Thresholds",
    "TopicReplicaDistributionGoal",
    "completed",
    "count_band",
    "failure_overloads",
    "goal_state",
    "goals_by_name",
    "pool_arrays",
    "pool_violations",
    "util_band",
]
