"""Cruise Control's ``LeaderReplicaDistributionGoal``: each broker's leader count (soft).

Its ``optimize`` and the program are the joint leadership solve's
(:class:`~kpart.cluster.goals.joint_leadership.JointLeadershipGoal`); its ``finish`` then
moves leadership in to every broker still under the leader-count band, Cruise Control's
``rebalanceByMovingLeadershipIn``: the broker's followers of least network out first (a
broker at the top of its network-out band takes leaders only if they add next to nothing),
each accepted by every goal of the plan, so that no goal gets worse.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kpart.cluster.goals.goal import Goal, Guards
from kpart.cluster.goals.joint_leadership import JointLeadershipGoal, finish_jointly
from kpart.cluster.goals.relocation import relocate_leadership
from kpart.cluster.goals.state import BALANCE_MARGIN, GoalState

__all__ = ["LeaderReplicaDistributionGoal", "move_leadership_in"]

#: The followers of a broker under the band tried per leader it lacks (the lightest).
_TRIES_PER_LEADER = 8
#: The leaderships (most bytes in first) a broker under the band tries to hand on.
_GIVE_TRIES = 64


@dataclass(frozen=True, slots=True)
class LeaderReplicaDistributionGoal(JointLeadershipGoal):
    """``LeaderReplicaDistributionGoal``: each broker's leader count, within ``Thresholds.leader_balance`` of the mean (soft)."""

    name: str = "LeaderReplicaDistributionGoal"
    hard: bool = False
    resource: str = "leaders"
    capacity: str = ""
    threshold: str = "leader_balance"
    upper_only: bool = False

    def finish(self, state: GoalState, guards: Guards) -> str:
        step = finish_jointly(state, guards)
        moved = move_leadership_in(state, self, guards)
        return step or ("leadership in" if moved else "")


def move_leadership_in(s: GoalState, goal: LeaderReplicaDistributionGoal,
                       guards: Guards) -> int:
    """Brokers under ``goal``'s band (allowed ones, fewest leaders first) take the leadership
    of the partitions they follow, least network out first, up to the band aimed at
    (``BALANCE_MARGIN`` inside it), each pass accepted by every goal of ``guards.goals``.
    When a broker's network out or leader bytes-in leaves no room, it first hands its
    heaviest leadership (by bytes in) to a follower every other goal accepts, kept only if
    it then takes more leaders than it gave. Returns the leaderships passed."""
    goals = guards.goals
    others = [x for x in goals if x is not goal]
    lo = goal.band(s)[0]
    aim = goal.band(s, BALANCE_MARGIN)[0]
    under = np.flatnonzero(s.allowed & (s.leaders < lo))
    made = 0
    for b in under[np.argsort(s.leaders[under], kind="stable")].tolist():
        made += _take_lightest(s, b, aim, goals)
        for _ in range(int(aim - s.leaders[b])):
            if s.leaders[b] >= aim:
                break
            before = int(s.leaders[b])
            gave = _give_heaviest(s, b, others, goal.band(s)[1])
            if gave is None:
                break
            took = _take_lightest(s, b, aim, goals)
            if s.leaders[b] <= before:  # no more leaders than it gave: as it was
                row, slot = gave
                relocate_leadership(s, row, slot)
                break
            made += took + 1
    return made


def _take_lightest(s: GoalState, b: int, aim: float, goals: Sequence[Goal]) -> int:
    """``b`` leads the partitions it follows, least network out first, up to ``aim`` leaders,
    each accepted by every goal of ``goals``."""
    rows, slots = s.replicas_on(b, first=1)
    need = int(aim - s.leaders[b])
    order = np.argsort(s.lead_out[rows], kind="stable")[:_TRIES_PER_LEADER * max(need, 0)]
    made = 0
    for row, k in zip(rows[order].tolist(), slots[order].tolist(), strict=True):
        if s.leaders[b] >= aim:
            break
        g = int(s.pos[row, 0])
        if all(x.accepts_leader(s, row, g, b) for x in goals):
            relocate_leadership(s, row, k)
            made += 1
    return made


def _give_heaviest(s: GoalState, b: int, goals: Sequence[Goal],
                   most: float) -> tuple[int, int] | None:
    """``b`` hands its leadership of most bytes in to a follower every goal of ``goals``
    accepts and that stays at or under ``most`` leaders: ``(row, slot)`` that gives it back,
    ``None`` when none does."""
    rows = s.leads(b)
    for row in rows[np.argsort(-s.rate_in[rows], kind="stable")][:_GIVE_TRIES].tolist():
        for k in range(1, s.pos.shape[1]):
            f = int(s.pos[row, k])
            if (f >= 0 and s.allowed[f] and s.leaders[f] + 1 <= most
                    and all(x.accepts_leader(s, row, b, f) for x in goals)):
                relocate_leadership(s, row, k)
                return row, k
    return None
