"""Cruise Control's ``Goal`` contract (``com.linkedin.kafka.cruisecontrol.analyzer.goals.Goal``)
on a :class:`~kpart.cluster.goals.state.GoalState`: a goal is a small frozen object with a
``name``, ``hard``, ``violations(state)`` (how many brokers — or partitions, or topic × broker
pairs — break it), ``accepts(state, row, src, dst)`` / ``accepts_leader(...)`` (Cruise
Control's ``actionAcceptance``: whether moving one replica of partition ``row`` from broker
position ``src`` to ``dst``, or its leadership, keeps the goal) and ``optimize(state,
guards)`` (its fix, with moves every goal of ``guards`` accepts).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

import numpy as np

from kpart.cluster.goals.state import GoalState

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
    check and fix. By default a goal accepts every move and its ``optimize`` moves nothing."""

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

    def optimize(self, state: GoalState, guards: Guards) -> None:
        """Fix this goal's violations on ``state`` with moves ``guards`` accept (Cruise
        Control's ``AbstractGoal.optimize``); by default nothing to do."""
        return None

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
