"""What every leadership goal's ``optimize`` keeps (``LeaderReplicaDistributionGoal``,
``LeaderBytesInDistributionGoal``): run after the hard goals alone, it makes no goal worse and
moves leaderships only — every partition keeps its brokers."""

from __future__ import annotations

import numpy as np

from kpart.cluster import ClusterModel
from kpart.cluster.goals import DEFAULT_GOALS, GoalState, Guards
from kpart.cluster.goals.goal import Goal


def optimize_after_the_hard_goals(goal: Goal, model: ClusterModel, s: GoalState) -> None:
    """``goal.optimize`` on ``s`` (the state of ``model``) guarded by the default hard goals;
    asserts that neither it nor a hard goal ends with more violations and that only
    leaderships moved. ``s`` is left as the goal leaves it, for the goal's own checks."""
    goals = (*[g for g in DEFAULT_GOALS if g.hard], goal)
    before = [g.violations(s) for g in goals]
    goal.optimize(s, Guards(goals, goals[:-1]))
    after = [g.violations(s) for g in goals]
    assert all(a <= b for a, b in zip(after, before, strict=True)), (before, after)
    assert (np.sort(s.pos, axis=1) == np.sort(model.broker_positions(model.replicas),
                                              axis=1)).all()
