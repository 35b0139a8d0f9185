"""Cruise Control's ``BrokerSetAwareGoal`` (kpart's resource pools,
:class:`kpart.placement.pools.PoolSpec`): every replica of a topic on a broker of its pool."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from kpart.cluster.goals.goal import Goal
from kpart.cluster.goals.state import GoalState
from kpart.cluster.model import ClusterModel

if TYPE_CHECKING:
    from kpart.placement.pools import PoolSpec

__all__ = ["BrokerSetAwareGoal", "pool_arrays", "pool_violations"]


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
