"""The goal registry: every goal kpart knows, by its name, in Cruise Control's default
priority order (``default.goals`` of ``cruisecontrol.properties``) — the one place a goal is
found by its name (as xarray's backend registry finds an engine).

>>> [g.name for g in DEFAULT_GOALS][:3], [g.hard for g in DEFAULT_GOALS][:6]
(['RackAwareGoal', 'ReplicaCapacityGoal', 'DiskCapacityGoal'], [True, True, True, True, True, False])
>>> goals_by_name("RackAwareGoal,DiskCapacityGoal")[1].name
'DiskCapacityGoal'
"""

from __future__ import annotations

from kpart.cluster.goals.broker_failure_capacity import BrokerFailureCapacityGoal
from kpart.cluster.goals.broker_set_aware import BrokerSetAwareGoal
from kpart.cluster.goals.capacity import (
    DiskCapacityGoal,
    NetworkInboundCapacityGoal,
    NetworkOutboundCapacityGoal,
    PotentialNwOutGoal,
)
from kpart.cluster.goals.disk_usage_distribution import DiskUsageDistributionGoal
from kpart.cluster.goals.goal import Goal
from kpart.cluster.goals.leader_bytes_in_distribution import LeaderBytesInDistributionGoal
from kpart.cluster.goals.leader_replica_distribution import LeaderReplicaDistributionGoal
from kpart.cluster.goals.network_inbound_usage_distribution import (
    NetworkInboundUsageDistributionGoal,
)
from kpart.cluster.goals.network_outbound_usage_distribution import (
    NetworkOutboundUsageDistributionGoal,
)
from kpart.cluster.goals.preferred_leader_election import PreferredLeaderElectionGoal
from kpart.cluster.goals.rack_aware import RackAwareGoal
from kpart.cluster.goals.replica_capacity import ReplicaCapacityGoal
from kpart.cluster.goals.replica_distribution import ReplicaDistributionGoal
from kpart.cluster.goals.topic_replica_distribution import TopicReplicaDistributionGoal
from kpart.errors import ConfigError

__all__ = ["DEFAULT_GOALS", "GOALS", "goals_by_name", "with_broker_sets"]

#: Every goal kpart knows, in Cruise Control's default priority order (hard goals first).
GOALS: tuple[Goal, ...] = (
    RackAwareGoal(),
    BrokerSetAwareGoal(),
    ReplicaCapacityGoal(),
    DiskCapacityGoal(),
    NetworkInboundCapacityGoal(),
    NetworkOutboundCapacityGoal(),
    ReplicaDistributionGoal(),
    PotentialNwOutGoal(),
    DiskUsageDistributionGoal(),
    NetworkInboundUsageDistributionGoal(),
    NetworkOutboundUsageDistributionGoal(),
    TopicReplicaDistributionGoal(),
    LeaderReplicaDistributionGoal(),
    LeaderBytesInDistributionGoal(),
    PreferredLeaderElectionGoal(),
    BrokerFailureCapacityGoal(),
)

#: Cruise Control's ``default.goals``: all of :data:`GOALS` but PreferredLeaderElectionGoal,
#: BrokerSetAwareGoal (added by :func:`~kpart.cluster.optimizer.plan_cluster` when it is
#: given pools) and kpart's opt-in BrokerFailureCapacityGoal.
DEFAULT_GOALS: tuple[Goal, ...] = tuple(
    g for g in GOALS if not isinstance(g, (PreferredLeaderElectionGoal, BrokerSetAwareGoal,
                                           BrokerFailureCapacityGoal)))


def goals_by_name(names: str | list[str]) -> tuple[Goal, ...]:
    """The goals named (a comma-separated string or a list), in the order given.
    :class:`ConfigError` naming an unknown goal."""
    known = {g.name: g for g in GOALS}
    wanted = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
    out = []
    for n in wanted:
        if n not in known:
            raise ConfigError(f"Unknown goal {n!r}: known goals are {', '.join(known)}.")
        out.append(known[n])
    return tuple(out)


def with_broker_sets(goals: tuple[Goal, ...]) -> tuple[Goal, ...]:
    """``goals`` with :class:`BrokerSetAwareGoal` after RackAwareGoal (first without it)
    when they lack it: the goals of a plan given resource pools."""
    if any(isinstance(g, BrokerSetAwareGoal) for g in goals):
        return goals
    at = next((i + 1 for i, g in enumerate(goals) if isinstance(g, RackAwareGoal)), 0)
    return (*goals[:at], BrokerSetAwareGoal(), *goals[at:])
