"""Planner goals of the count-based planner (Cruise Control's goal chain on a cluster whose
loads are unknown, without its mutable machinery).

A goal has the contract of the load-aware planner's goals (:mod:`kpart.cluster.goals`): a small
frozen object with ``name`` (Cruise Control's goal name: ``RackAwareGoal``,
``BrokerSetAwareGoal``, ``ReplicaDistributionGoal``, ``LeaderReplicaDistributionGoal``), ``hard``,
``violations(state)`` (what still breaks the goal in the state's assignment),
``accepts(state, move)`` for a replica move and ``accepts_leader(state, move)`` for a leadership
move (Cruise Control's ``actionAcceptance``): whether one candidate move keeps the goal (a hard
goal) or improves it (a soft goal). Three hard goals hold what Cruise Control's model keeps by
construction and have no Cruise Control name: ``ReplicationFactorGoal``,
``DistinctBrokersGoal`` and ``RemovedBrokersGoal`` (a removed broker ends empty). The state is a
read-only view (:class:`PlanState`); the planner owns the only mutable copy.

>>> DistinctBrokersGoal().hard, ReplicaDistributionGoal().hard
(True, False)
>>> [g.name for g in DEFAULT_GOALS][3:]
['BrokerSetAwareGoal', 'RackAwareGoal', 'ReplicaDistributionGoal', 'LeaderReplicaDistributionGoal']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

__all__ = [
    "DEFAULT_GOALS",
    "BrokerSetAwareGoal",
    "DistinctBrokersGoal",
    "Goal",
    "LeaderReplicaDistributionGoal",
    "LeadershipMove",
    "PlanState",
    "RackAwareGoal",
    "RemovedBrokersGoal",
    "ReplicaDistributionGoal",
    "ReplicaMove",
    "ReplicationFactorGoal",
]


@dataclass(frozen=True, slots=True)
class ReplicaMove:
    """One replica of ``topic``-``partition`` moving from one broker to another."""

    topic: str
    partition: int
    from_broker: int
    to_broker: int


@dataclass(frozen=True, slots=True)
class LeadershipMove:
    """The preferred leader of ``topic``-``partition`` passing to another of its replicas."""

    topic: str
    partition: int
    from_broker: int
    to_broker: int


Candidate = ReplicaMove | LeadershipMove


class PlanState(Protocol):
    """What goals may ask of the planner's state (read only)."""

    removed: frozenset[int]

    def partitions(self) -> Sequence[tuple[str, int]]: ...
    def replicas(self, topic: str, partition: int) -> Sequence[int]: ...
    def original_replication_factor(self, topic: str, partition: int) -> int: ...
    def allowed(self, topic: str) -> frozenset[int]: ...
    def rack(self, broker: int) -> str | None: ...
    def required_racks(self, topic: str, partition: int) -> int: ...
    def load(self, broker: int) -> int: ...
    def target(self, broker: int) -> int: ...
    def leaders(self, broker: int) -> int: ...
    def leader_target(self, broker: int) -> int: ...


@dataclass(frozen=True, slots=True)
class ReplicationFactorGoal:
    """Every partition keeps its replication factor (moves replace, never add or drop)."""

    name: str = "ReplicationFactorGoal"
    hard: bool = True

    def accepts(self, state: PlanState, move: ReplicaMove) -> bool:
        return True

    def accepts_leader(self, state: PlanState, move: LeadershipMove) -> bool:
        return True

    def violations(self, state: PlanState) -> int:
        return sum(
            len(state.replicas(t, p)) != state.original_replication_factor(t, p)
            for t, p in state.partitions()
        )


@dataclass(frozen=True, slots=True)
class DistinctBrokersGoal:
    """The replicas of a partition sit on distinct brokers."""

    name: str = "DistinctBrokersGoal"
    hard: bool = True

    def accepts(self, state: PlanState, move: ReplicaMove) -> bool:
        return move.to_broker not in state.replicas(move.topic, move.partition)

    def accepts_leader(self, state: PlanState, move: LeadershipMove) -> bool:
        return True

    def violations(self, state: PlanState) -> int:
        return sum(
            len(set(r)) != len(r)
            for r in (state.replicas(t, p) for t, p in state.partitions())
        )


def _distinct_racks(state: PlanState, brokers: Sequence[int]) -> int:
    return len({state.rack(b) for b in brokers})


@dataclass(frozen=True, slots=True)
class RackAwareGoal:
    """A partition spans ``min(RF, racks of its pool)`` racks where possible: a move must keep
    that many, or raise the count of a partition below it."""

    name: str = "RackAwareGoal"
    hard: bool = True

    def accepts(self, state: PlanState, move: ReplicaMove) -> bool:
        required = state.required_racks(move.topic, move.partition)
        if required <= 1:
            return True
        reps = state.replicas(move.topic, move.partition)
        racks = [state.rack(b) for b in reps]
        before = len(set(racks))
        to_rack = state.rack(move.to_broker)
        if to_rack == state.rack(move.from_broker):
            return before >= required
        pairs = zip(reps, racks, strict=True)
        after = len({to_rack if b == move.from_broker else r for b, r in pairs})
        return after >= required or after > before

    def accepts_leader(self, state: PlanState, move: LeadershipMove) -> bool:
        return True

    def violations(self, state: PlanState) -> int:
        return sum(
            _distinct_racks(state, state.replicas(t, p)) < state.required_racks(t, p)
            for t, p in state.partitions()
        )


@dataclass(frozen=True, slots=True)
class BrokerSetAwareGoal:
    """A topic's replicas stay inside its resource pool (kpart's pools are Cruise Control's
    broker sets)."""

    name: str = "BrokerSetAwareGoal"
    hard: bool = True

    def accepts(self, state: PlanState, move: ReplicaMove) -> bool:
        return move.to_broker in state.allowed(move.topic)

    def accepts_leader(self, state: PlanState, move: LeadershipMove) -> bool:
        return True

    def violations(self, state: PlanState) -> int:
        return sum(
            sum(b not in state.allowed(t) and b not in state.removed for b in state.replicas(t, p))
            for t, p in state.partitions()
        )


@dataclass(frozen=True, slots=True)
class RemovedBrokersGoal:
    """Removed brokers end empty: no replica moves to one."""

    name: str = "RemovedBrokersGoal"
    hard: bool = True

    def accepts(self, state: PlanState, move: ReplicaMove) -> bool:
        return move.to_broker not in state.removed

    def accepts_leader(self, state: PlanState, move: LeadershipMove) -> bool:
        return move.to_broker not in state.removed

    def violations(self, state: PlanState) -> int:
        return sum(
            sum(b in state.removed for b in state.replicas(t, p)) for t, p in state.partitions()
        )


@dataclass(frozen=True, slots=True)
class ReplicaDistributionGoal:
    """Replicas per broker within ``[floor, ceil]`` of the pool's (rack-feasible) average:
    accepts a move from a broker above its target to a broker below it."""

    name: str = "ReplicaDistributionGoal"
    hard: bool = False

    def accepts(self, state: PlanState, move: ReplicaMove) -> bool:
        return state.load(move.to_broker) < state.target(move.to_broker) and (
            move.from_broker not in state.allowed(move.topic)
            or state.load(move.from_broker) > state.target(move.from_broker)
        )

    def accepts_leader(self, state: PlanState, move: LeadershipMove) -> bool:
        return True

    def violations(self, state: PlanState) -> int:
        brokers = {b for t, _ in state.partitions() for b in state.allowed(t)}
        return sum(abs(state.load(b) - state.target(b)) for b in brokers) // 2


@dataclass(frozen=True, slots=True)
class LeaderReplicaDistributionGoal:
    """Preferred leaders per broker near the pool's average: accepts a leadership move from
    a broker above its leader target to one below it."""

    name: str = "LeaderReplicaDistributionGoal"
    hard: bool = False

    def accepts(self, state: PlanState, move: ReplicaMove) -> bool:
        return True

    def accepts_leader(self, state: PlanState, move: LeadershipMove) -> bool:
        return state.leaders(move.from_broker) > state.leader_target(
            move.from_broker
        ) and state.leaders(move.to_broker) < state.leader_target(move.to_broker)

    def violations(self, state: PlanState) -> int:
        brokers = {b for t, _ in state.partitions() for b in state.allowed(t)}
        return sum(abs(state.leaders(b) - state.leader_target(b)) for b in brokers) // 2


class Goal(Protocol):
    """A goal of the count-based planner (the contract of :mod:`kpart.cluster.goals`)."""

    @property
    def name(self) -> str: ...
    @property
    def hard(self) -> bool: ...

    def accepts(self, state: PlanState, move: ReplicaMove) -> bool: ...
    def accepts_leader(self, state: PlanState, move: LeadershipMove) -> bool: ...
    def violations(self, state: PlanState) -> int: ...


#: The planner's goal chain, hard goals first.
DEFAULT_GOALS: tuple[Goal, ...] = (
    ReplicationFactorGoal(),
    DistinctBrokersGoal(),
    RemovedBrokersGoal(),
    BrokerSetAwareGoal(),
    RackAwareGoal(),
    ReplicaDistributionGoal(),
    LeaderReplicaDistributionGoal(),
)
