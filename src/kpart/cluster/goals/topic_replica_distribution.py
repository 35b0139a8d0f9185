"""Cruise Control's ``TopicReplicaDistributionGoal``: each topic's replicas per broker within
``[avg × (2 − t), avg × t]`` widened to a gap of ``min.gap``..``max.gap`` (soft)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from kpart.cluster.goals._replica_movement import balance_topics
from kpart.cluster.goals.goal import Goal, Guards, leaves
from kpart.cluster.goals.state import GoalState

__all__ = ["TopicReplicaDistributionGoal"]

#: The most passes of :meth:`TopicReplicaDistributionGoal.optimize` over the pairs outside.
_PASSES = 4


@dataclass(frozen=True, slots=True)
class TopicReplicaDistributionGoal(Goal):
    """``TopicReplicaDistributionGoal``: each topic's replicas per broker within
    ``[avg × (2 − t), avg × t]`` widened to a gap of ``min.gap``..``max.gap`` (soft).
    Violations: (topic, broker) pairs outside. It guards every later goal's moves too
    (``guards_always``: cheap to keep, so that no soft goal gets worse).

    >>> TopicReplicaDistributionGoal().hard
    False
    """

    name: str = "TopicReplicaDistributionGoal"
    hard: bool = False
    guards_always: ClassVar[bool] = True

    def bands(self, state: GoalState) -> tuple[np.ndarray, np.ndarray]:
        """Per topic ``(lower, upper)`` int arrays."""
        th = state.thresholds
        avg = state.topic_count.sum(axis=1) / max(int(state.allowed.sum()), 1)
        t = th.topic_balance
        hi = np.clip(np.ceil(avg * t), np.ceil(avg) + th.topic_min_gap,
                     np.ceil(avg) + th.topic_max_gap)
        lo = np.clip(np.floor(avg * (2 - t)), np.floor(avg) - th.topic_max_gap,
                     np.floor(avg) - th.topic_min_gap)
        return np.maximum(lo, 0), hi

    def violations(self, state: GoalState) -> int:
        lo, hi = self.bands(state)
        over = state.topic_count > hi[:, None]
        bad = state.allowed[None, :] & ((state.topic_count < lo[:, None]) | over)
        if state.removed_over:
            bad |= ~state.allowed[None, :] & over
        return int(bad.sum())

    def limits(self, state: GoalState) -> np.ndarray:
        """float64 ``(2, T)``: :meth:`bands` as one array, cached in the state."""
        key = (self.name, 1.0)
        # each topic's replica total: no move changes it (a move takes one replica of the
        # topic from a broker to another), so the limits stand whatever moved
        found = state.cache.get(key, lambda: 0.0)
        if found is None:
            lo, hi = self.bands(state)
            found = (0.0, 0.0, np.stack([lo, hi]))
            state.cache.put(key, found, 0.0)
        return found[2]

    def accepts(self, state: GoalState, row: int, src: int, dst: int) -> bool:
        t = int(state.topic[row])
        lim = self.limits(state)
        if state.count_guard:
            n_dst, n_src = int(state.topic_count[t, dst]), int(state.topic_count[t, src])
            return not (leaves(n_dst, n_dst + 1, lim[0, t], lim[1, t])
                        or (state.allowed[src] and leaves(n_src, n_src - 1, lim[0, t],
                                                          lim[1, t])))
        return bool(state.topic_count[t, dst] + 1 <= lim[1, t]
                    and (not state.allowed[src] or state.topic_count[t, src] - 1 >= lim[0, t]))

    def rebalance(self, state: GoalState, guards: Guards) -> None:
        """Each (topic, broker) count outside the band takes (or gives) the topic's smallest
        follower replicas (:func:`~kpart.cluster.goals._replica_movement.balance_topics`),
        pass after pass while a pass moves something (a pair refused early can be accepted
        once later pairs' moves changed the brokers' loads), at most ``_PASSES``."""
        for _ in range(_PASSES):
            if not balance_topics(state, self, guards.moves()):
                break
