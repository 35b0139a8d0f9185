"""Cruise Control's ``OptimizationFailureException`` for kpart's goals: the one-line
:class:`~kpart.errors.OptimizationFailureError` a goal raises when no plan can meet it (its
``check_feasible``) or returns when the plan still breaks it (its ``failure``), carrying the
goal's name, the partition of a model row and the id of a broker position, and the words the
messages share.

>>> from kpart.cluster.model import ClusterBroker, ClusterModel, PartitionState
>>> m = ClusterModel.from_partitions([ClusterBroker(7, None)], [PartitionState("t", 0, (7,))])
>>> e = optimization_failure("Infeasible XGoal: no.", "XGoal", m, row=0, b=0)
>>> str(e), e.goal, e.partition, e.broker, broker_name(m, 0), fmt(1234567.0)
('Infeasible XGoal: no.', 'XGoal', ('t', 0), 7, 'broker 7', '1.235e+06')
"""

from __future__ import annotations

from kpart.cluster.model import ClusterModel
from kpart.errors import OptimizationFailureError

__all__ = ["broker_name", "fmt", "optimization_failure"]


def optimization_failure(message: str, goal: str, model: ClusterModel, *,
                         row: int | None = None,
                         b: int | None = None) -> OptimizationFailureError:
    """The error for ``goal`` (its name), carrying the ``(topic, partition)`` of ``model``
    row ``row`` and the id of the broker at position ``b`` (when given)."""
    where = (None if row is None else
             (model.topics[int(model.topic[row])].name, int(model.partition[row])))
    return OptimizationFailureError(message, goal=goal, partition=where,
                                    broker=None if b is None else model.brokers[b].id)


def broker_name(model: ClusterModel, b: int) -> str:
    """``"broker <id>"`` for the broker at position ``b`` of ``model``."""
    return f"broker {model.brokers[b].id}"


def fmt(x: float) -> str:
    """A load or capacity in messages: 4 significant digits (``1.235e+06``, ``12.5``)."""
    return f"{x:.4g}"
