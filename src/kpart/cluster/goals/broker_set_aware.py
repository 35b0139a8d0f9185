"""Cruise Control's ``BrokerSetAwareGoal`` (kpart's resource pools,
:class:`kpart.placement.pools.PoolSpec`): every replica of a topic on a broker of its pool."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from kpart.cluster.goals.goal import Goal, Guards
from kpart.cluster.goals.optimization_failure import broker_name, optimization_failure
from kpart.cluster.goals.relocation import relocate_first_accepted
from kpart.cluster.goals.state import GoalState
from kpart.cluster.model import ClusterModel
from kpart.errors import OptimizationFailureError

if TYPE_CHECKING:
    from kpart.placement.pools import PoolSpec

__all__ = ["BrokerSetAwareGoal", "pool_arrays", "pool_misplaced", "pool_violations"]


def pool_arrays(model: ClusterModel, pools: PoolSpec) -> tuple[np.ndarray, np.ndarray]:
    """``(topic_pool, broker_pool)`` of :class:`GoalState` for ``pools`` (pools by their
    order in the spec). :class:`ConfigError` naming a pool broker the model lacks."""
    pools.check_brokers(b.id for b in model.brokers)
    index = {p.name: i for i, p in enumerate(pools.pools)}
    topic_pool = np.array([-1 if (p := pools.pool_of(t.name)) is None else index[p.name]
                           for t in model.topics], dtype=np.int32)
    owner = {b: index[p.name] for p in pools.pools for b in p.brokers}
    broker_pool = np.array([owner.get(b.id, -1) for b in model.brokers], dtype=np.int32)
    return topic_pool, broker_pool


def pool_violations(state: GoalState) -> np.ndarray:
    """Rows (int64) with a replica on a broker outside the topic's pool."""
    if state.topic_pool is None or state.broker_pool is None:
        return np.zeros(0, dtype=np.int64)
    want = state.topic_pool[state.topic][:, None]
    bad = (state.pos >= 0) & (state.broker_pool[np.maximum(state.pos, 0)] != want)
    return np.flatnonzero(bad.any(axis=1))


def pool_misplaced(state: GoalState, row: int) -> list[int]:
    """Slots of ``row`` on a broker outside the topic's pool, followers first (the leader
    stays where it can); none without pools."""
    if state.topic_pool is None or state.broker_pool is None:
        return []
    p = state.pos[row]
    held = np.flatnonzero(p >= 0)[::-1]
    want = state.topic_pool[state.topic[row]]
    return [k for k in held.tolist() if state.broker_pool[p[k]] != want]


@dataclass(frozen=True, slots=True)
class BrokerSetAwareGoal(Goal):
    """``BrokerSetAwareGoal`` (Cruise Control's name; kpart's resource pools,
    :class:`kpart.placement.pools.PoolSpec`): every replica of a topic on a broker of its
    pool — a topic of no pool on brokers of no pool (hard). Violations: partitions with a
    replica outside. Without pools (the state's ``topic_pool`` is ``None``) it always holds.

    >>> BrokerSetAwareGoal().hard
    True
    """

    name: str = "BrokerSetAwareGoal"
    hard: bool = True

    def violations(self, state: GoalState) -> int:
        return len(pool_violations(state))

    def accepts(self, state: GoalState, row: int, src: int, dst: int) -> bool:
        if state.topic_pool is None or state.broker_pool is None:
            return True
        return bool(state.broker_pool[dst] == state.topic_pool[state.topic[row]])

    def rebalance(self, state: GoalState, guards: Guards) -> None:
        """Each replica outside its pool to the least-filled broker (by disk) the guards
        accept — every goal's first, then the hard goals' (:meth:`Guards.fallbacks`)."""
        for moves in guards.fallbacks():
            for row in pool_violations(state).tolist():
                while (slots := pool_misplaced(state, row)) and relocate_first_accepted(
                        state, row, slots, moves):
                    pass

    def failure(self, state: GoalState, model: ClusterModel) -> OptimizationFailureError | None:
        found = pool_violations(state)
        if not len(found):
            return None
        row = int(found[0])
        b = int(state.pos[row, pool_misplaced(state, row)[0]])
        return optimization_failure(
            f"Infeasible {self.name}: partition {model.partition_name(row)} keeps a replica on "
            f"{broker_name(model, b)}, outside its pool ({len(found)} partitions do): its "
            "pool has no broker every hard goal accepts.", self.name, model, row=row, b=b)
