"""Cruise Control's ``Goal`` contract (``com.linkedin.kafka.cruisecontrol.analyzer.goals.Goal``)
on a :class:`~kpart.cluster.goals.state.GoalState`: a goal is a small frozen object with a
``name``, ``hard``, ``violations(state)`` (how many brokers — or partitions, or topic × broker
pairs — break it), ``accepts(state, row, src, dst)`` / ``accepts_leader(...)`` (Cruise
Control's ``actionAcceptance``: whether moving one replica of partition ``row`` from broker
position ``src`` to ``dst``, or its leadership, keeps the goal), ``check_feasible(state,
model)`` (Cruise Control's ``initGoalState`` throwing ``OptimizationFailureException``: a
hard goal no plan can meet raises :class:`~kpart.errors.OptimizationFailureError`),
``optimize(state, guards)`` (its fix, with moves every goal of ``guards`` accepts: the
offline replicas relocated first, then the goal's own ``rebalance``) and ``failure(state,
model)`` (Cruise Control's ``updateGoalState``: the error when a hard goal still breaks).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

import numpy as np

from kpart.cluster.goals.optimization_failure import optimization_failure
from kpart.cluster.goals.relocation import relocate_offline
from kpart.cluster.goals.state import GoalState
from kpart.cluster.model import ClusterModel
from kpart.errors import OptimizationFailureError

__all__ = ["Goal", "Guards", "TopicLimits", "guards_upto", "leader_delta", "leaves",
           "move_delta"]


class TopicLimits(Protocol):
    """A goal limiting each topic's replicas per broker (``TopicReplicaDistributionGoal``):
    ``limits(state)`` float64 ``(2, T)``, lower and upper per topic."""

    @property
    def name(self) -> str: ...

    def limits(self, state: GoalState) -> np.ndarray: ...

    def accepts(self, state: GoalState, row: int, src: int, dst: int) -> bool: ...


@dataclass(frozen=True, slots=True)
class Goal:
    """The contract every goal keeps (the module docstring); subclasses override what they
    check and fix. By default a goal accepts every move, is feasible, its ``rebalance``
    moves nothing and a hard goal's ``failure`` counts its violations."""

    name: str
    hard: bool
    #: The goal decides the order of followers (who leads after a failure): the optimizer
    #: then keeps no partition's current replica order for its own sake.
    orders_followers: ClassVar[bool] = False
    #: The goal guards every move of the plan, even those of goals before it (cheap to
    #: keep, so that no soft goal gets worse: ``TopicReplicaDistributionGoal``).
    guards_always: ClassVar[bool] = False

    def violations(self, state: GoalState) -> int:  # pragma: no cover - overridden
        raise NotImplementedError

    def accepts(self, state: GoalState, row: int, src: int, dst: int) -> bool:
        """Whether moving partition ``row``'s replica on ``src`` to ``dst`` keeps the goal."""
        return True

    def accepts_leader(self, state: GoalState, row: int, src: int, dst: int) -> bool:
        """Whether passing partition ``row``'s leadership from ``src`` to ``dst`` keeps it."""
        return True

    def check_feasible(self, state: GoalState, model: ClusterModel) -> None:
        """Raise :class:`~kpart.errors.OptimizationFailureError` (one line naming the goal and
        a partition or broker that makes it so) when no plan of ``state`` (before any move;
        ``model`` its cluster) can meet this goal (Cruise Control's ``initGoalState``
        throwing ``OptimizationFailureException``); by default every goal can."""
        return None

    def optimize(self, state: GoalState, guards: Guards) -> None:
        """Fix this goal's violations on ``state`` with moves ``guards`` accept (Cruise
        Control's ``AbstractGoal.optimize``): first the replicas still on brokers that may
        hold none (removed brokers: Cruise Control's offline replicas) relocated, in the
        passes of :meth:`Guards.offline`, then the goal's own :meth:`rebalance`. The first
        goal of a plan relocates them; the others find none (checked in O(brokers)); what
        none could place stays (the optimizer names it after the loop)."""
        if not state.allowed.all():
            for moves in guards.offline():
                if not relocate_offline(state, moves):
                    break
        self.rebalance(state, guards)

    def rebalance(self, state: GoalState, guards: Guards) -> None:
        """The goal's own fix, once no replica is offline (Cruise Control's
        ``rebalanceForBroker`` over the brokers); by default nothing to do."""
        return None

    def failure(self, state: GoalState, model: ClusterModel) -> OptimizationFailureError | None:
        """The error when this hard goal still breaks in ``state`` after planning (Cruise
        Control's ``updateGoalState`` failing), naming a partition or broker where the goal
        knows one; ``None`` when it holds or is soft. By default: ``Infeasible <name>:
        <explain(state)> after planning.``"""
        if not self.hard or not self.violations(state):
            return None
        return optimization_failure(f"Infeasible {self.name}: {self.explain(state)} after "
                                    "planning.", self.name, model)

    def explain(self, state: GoalState) -> str:
        """What breaks the goal in ``state``, in words (for :meth:`failure`); by default
        ``"<n> violations"``."""
        return f"{self.violations(state)} violations"

    def finish(self, state: GoalState, guards: Guards) -> str:
        """A last step once every goal is optimized (and the current leaders kept where the
        goals allow); returns its name for the plan's timings, ``""`` for none (the
        default)."""
        return ""


@dataclass(frozen=True, slots=True)
class Guards:
    """What a goal's ``optimize`` is given (Cruise Control's ``optimizedGoals``): ``goals``,
    every goal of the plan in priority order; ``done``, the goals optimized before this one
    (Cruise Control's ``optimizedGoals``); ``strict``: every goal guards every move (the
    optimizer's fallback, so that no goal gets worse)."""

    goals: tuple[Goal, ...]
    done: tuple[Goal, ...] = ()
    strict: bool = False

    def moves(self) -> list[Goal]:
        """The goals every move must keep: all of them when ``strict``, else the hard goals,
        every goal optimized so far and the one optimizing (Cruise Control's
        ``optimizedGoals`` + itself), and ``TopicReplicaDistributionGoal`` (cheap to keep: so
        that no soft goal gets worse)."""
        return guards_upto(self.goals, len(self.goals) if self.strict else len(self.done))

    def offline(self) -> tuple[list[Goal], list[Goal]]:
        """The guards of the offline replicas' relocation, in turn: the hard goals and the
        soft goals that guard always (every soft goal when ``strict``), then the hard goals
        alone for what is left."""
        hard = [g for g in self.goals if g.hard]
        return ([*hard, *(g for g in self.goals
                          if not g.hard and (self.strict or g.guards_always))], hard)

    def fallbacks(self) -> tuple[list[Goal], list[Goal]]:
        """The guards of a hard goal's fix, in turn: moves every goal of the plan accepts,
        then moves the hard goals alone accept (for what is left)."""
        return list(self.goals), [g for g in self.goals if g.hard]


def guards_upto(goals: Sequence[Goal], upto: int) -> list[Goal]:
    """The hard goals, every goal up to (and including) position ``upto`` of ``goals``, and
    a topic-replica goal (one whose ``guards_always`` is set)."""
    return [g for i, g in enumerate(goals)
            if g.hard or i <= upto or g.guards_always]


def move_delta(state: GoalState, row: int, src: int, resource: str) -> float:
    """What moving ``row``'s replica off ``src`` moves of ``resource`` (a per-broker array of
    the state: ``disk``, ``nw_in``, ``nw_out``, ``pot_out``, ``lead_in``, ``replicas``,
    ``leaders``)."""
    leader = int(state.pos[row, 0]) == src
    if resource == "disk":
        return float(state.size[row])
    if resource == "nw_in":
        return float(state.rate_in[row])
    if resource == "nw_out":
        return float(state.lead_out[row]) if leader else 0.0
    if resource == "pot_out":
        return float(state.lead_out[row])
    if resource == "lead_in":
        return float(state.rate_in[row]) if leader else 0.0
    return 1.0 if resource == "replicas" or leader else 0.0  # leaders


def leader_delta(state: GoalState, row: int, resource: str) -> float:
    """What passing ``row``'s leadership moves of ``resource``."""
    if resource == "nw_out":
        return float(state.lead_out[row])
    if resource == "lead_in":
        return float(state.rate_in[row])
    return 1.0 if resource == "leaders" else 0.0


def leaves(before: float, after: float, lo: float, hi: float) -> bool:
    """A load inside ``[lo, hi]`` before (with a relative tolerance) is outside after."""
    tol = 1e-9 * max(abs(hi) if math.isfinite(hi) else 0.0, abs(lo) if math.isfinite(lo)
                     else 0.0, 1e-300)
    return bool(lo - tol <= before <= hi + tol and not lo - tol <= after <= hi + tol)
