"""kpart's ``BrokerFailureCapacityGoal`` (not Cruise Control's; opt-in, hard): the cluster
survives any single broker or rack failure below capacity, with leadership moved as Kafka
moves it (:mod:`kpart.cluster.broker_outage`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

import numpy as np

from kpart.cluster.broker_outage import outage_all
from kpart.cluster.goals._failover_order import order_followers
from kpart.cluster.goals.goal import Goal, Guards
from kpart.cluster.goals.state import GoalState
from kpart.cluster.model import ClusterModel

__all__ = ["BrokerFailureCapacityGoal", "completed", "failure_overloads"]


def completed(model: ClusterModel, replicas: np.ndarray,
              removed: Sequence[int] = ()) -> ClusterModel:
    """``model`` once its partitions sit on ``replicas`` (broker ids ``(P, R)``, padded
    ``-1``), all in sync, each led by its first replica (a completed reassignment followed by
    a preferred leader election), without the ``removed`` brokers (which hold no replica)."""
    reps = np.asarray(replicas, dtype=np.int32)
    brokers = tuple(b for b in model.brokers if b.id not in set(removed))
    return replace(model, brokers=brokers, replicas=reps, leader=reps[:, 0].copy(), isr=reps)


def failure_overloads(model: ClusterModel, threshold: float,
                      ) -> list[tuple[tuple[int, ...], str | None, int, str, float, float]]:
    """Every surviving broker over ``threshold ×`` its network capacity after a single
    broker or rack failure of ``model`` (:func:`kpart.cluster.broker_outage.outage_all`: Kafka's
    election, leaders and loads after): ``(down ids, rack, broker id, "network in" |
    "network out", load, capacity)``, failures in :func:`outage_all`'s order."""
    def cap(name: str) -> np.ndarray:
        return np.array([math.inf if b.capacity is None or getattr(b.capacity, name) is None
                         else float(getattr(b.capacity, name)) for b in model.brokers])

    caps = (("network in", "network_in", cap("network_in")),
            ("network out", "network_out", cap("network_out")))
    out = []
    for r in outage_all(model):
        for words, field_name, c in caps:
            load = getattr(r, field_name)
            for b in np.flatnonzero(r.alive & (load > threshold * c * (1 + 1e-12))).tolist():
                out.append((r.down, r.rack, model.brokers[b].id, words, float(load[b]),
                            float(c[b])))
    return out


@dataclass(frozen=True, slots=True)
class BrokerFailureCapacityGoal(Goal):
    """kpart's goal, not Cruise Control's (opt-in: not in :data:`~kpart.cluster.goals.registry.DEFAULT_GOALS`; hard): the
    cluster survives any single broker failure and any single rack failure below capacity —
    after it, with leadership moved as Kafka moves it (the first live in-sync replica in
    replica order, :mod:`kpart.cluster.broker_outage`; the replicas all in sync, each partition led
    by its first replica), every surviving broker's network in and network out stay ≤ the capacity
    threshold × its capacity. Violations: the (failure, surviving broker) pairs over it.
    Only the order of followers (who leads after a failure) is the optimizer's lever here."""

    name: str = "BrokerFailureCapacityGoal"
    hard: bool = True
    orders_followers: ClassVar[bool] = True

    def finish(self, state: GoalState, guards: Guards) -> str:
        """The follower order (:func:`~kpart.cluster.goals._failover_order.order_followers`):
        seen by no other goal, so last."""
        order_followers(state)
        return "failover order"

    def violations(self, state: GoalState) -> int:
        if state.model is None:
            raise ValueError("BrokerFailureCapacityGoal needs the state's model")
        ids = np.array([b.id for b in state.model.brokers], dtype=np.int32)
        reps = np.where(state.pos >= 0, ids[np.maximum(state.pos, 0)], -1)
        return len(failure_overloads(completed(state.model, reps), state.thresholds.capacity))

    def explain(self, state: GoalState) -> str:
        """The first failure that overloads a broker, in words."""
        assert state.model is not None
        ids = np.array([b.id for b in state.model.brokers], dtype=np.int32)
        reps = np.where(state.pos >= 0, ids[np.maximum(state.pos, 0)], -1)
        found = failure_overloads(completed(state.model, reps), state.thresholds.capacity)
        if not found:
            return "no failure overloads a broker"
        down, rack, b, words, load, c = found[0]
        what = f"rack {rack}" if rack is not None else f"broker {down[0]}"
        return (f"if {what} fails, broker {b}'s {words} becomes {load:.4g} bytes/s, over "
                f"{state.thresholds.capacity} x its {c:.4g} ({len(found)} such (failure, "
                "broker) pairs)")
