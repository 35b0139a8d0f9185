"""Hard goals broken before planning: proof that they cannot hold, or the fewest bytes that
repair them (Cruise Control's hard goals ``RackAwareGoal``, ``ReplicaCapacityGoal``,
``DiskCapacityGoal``, ``NetworkInboundCapacityGoal``, ``NetworkOutboundCapacityGoal``
optimizing a cluster that starts in violation; Cruise Control fails with
``OptimizationFailureException`` when it cannot, and so does kpart, with a
:class:`~kpart.errors.OptimizationFailureError` naming the goal and a broker or partition that makes it so).

- :func:`infeasible` checks, before any move, what no plan can change: a partition with more
  replicas than the racks left, a replica larger than every broker's limit, a total load over
  the capacity threshold of the brokers left, more replicas than ``max.replicas.per.broker``
  allows on them.
- :func:`repair` then fixes, in the goals' order: a partition with two replicas in one rack
  (the later replica moves to the least-filled broker of an unused rack), and a broker over
  a capacity limit (network out: leadership handed to a follower first, no data; then, like
  disk and network in, replicas moved off: the smallest that covers the excess, else the
  largest, each to the least-loaded broker every hard goal accepts).
- :func:`hard_error` names what a plan still breaks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from kpart.cluster.goals._replica_movement import SCAN
from kpart.cluster.goals.broker_set_aware import BrokerSetAwareGoal, pool_violations
from kpart.cluster.goals.capacity import CapacityGoal
from kpart.cluster.goals.goal import Goal
from kpart.cluster.goals.rack_aware import RackAwareGoal, rack_violations
from kpart.cluster.goals.relocation import accepted, relocate_leadership, relocate_replica
from kpart.cluster.goals.replica_capacity import ReplicaCapacityGoal
from kpart.cluster.goals.state import GoalState
from kpart.cluster.model import ClusterModel
from kpart.errors import OptimizationFailureError

__all__ = ["hard_error", "infeasible", "rack_violations", "repair"]

#: Per capacity goal: the per-broker load in :class:`GoalState`, its capacity, what a replica
#: weighs (``lead_out`` only when it leads), and the words for messages.
_CAPACITY = {
    "disk": ("disk", "cap_disk", "size", "disk", "bytes"),
    "nw_in": ("nw_in", "cap_in", "rate_in", "network in", "bytes/s"),
    "nw_out": ("nw_out", "cap_out", "lead_out", "network out", "bytes/s"),
}


def _capacity_of(g: Goal) -> str:
    """The resource of a hard capacity goal (a key of :data:`_CAPACITY`), or ``""``."""
    if isinstance(g, CapacityGoal) and g.hard and g.resource in _CAPACITY:
        return g.resource
    return ""


def _broker(model: ClusterModel, b: int) -> str:
    return f"broker {model.brokers[b].id}"


def _failure(message: str, goal: str, model: ClusterModel, *, row: int | None = None,
             b: int | None = None) -> OptimizationFailureError:
    """The error for ``goal``, carrying the partition of model row ``row`` and the id of the
    broker at position ``b`` (when given)."""
    where = (None if row is None else
             (model.topics[int(model.topic[row])].name, int(model.partition[row])))
    return OptimizationFailureError(message, goal=goal, partition=where,
                                    broker=None if b is None else model.brokers[b].id)


def _fmt(x: float) -> str:
    return f"{x:.4g}"


def _check_racks(s: GoalState, model: ClusterModel, goal: Goal) -> None:
    racks = np.unique(s.rack[s.allowed])
    rf = (s.pos >= 0).sum(axis=1)
    row = int(np.argmax(rf))
    if len(rf) and rf[row] > len(racks):
        names = sorted({b.rack or f"(broker {b.id})" for b, ok in zip(model.brokers, s.allowed,
                                                                      strict=True) if ok})
        name = goal.name
        raise _failure(f"Infeasible {name}: partition {model._where(row)} has "
                       f"{int(rf[row])} replicas but the brokers left span {len(racks)} "
                       f"racks ({', '.join(names)}).", name, model, row=row)


def _check_capacity(s: GoalState, model: ClusterModel, goal: Goal) -> None:
    name = goal.name
    resource = _capacity_of(goal)
    res, capname, wname, words, unit = _CAPACITY[resource]
    cap = getattr(s, capname)
    limit = cap * s.thresholds.capacity
    ok = s.allowed
    single = getattr(s, wname)
    copies = 1 if resource == "nw_out" else (s.pos >= 0).sum(axis=1)
    total = float((single * copies).sum())
    if not np.isfinite(limit[ok]).all():
        return
    if len(single) and float(single.max()) > float(limit[ok].max()) * (1 + 1e-12):
        row = int(np.argmax(single))
        raise _failure(f"Infeasible {name}: partition {model._where(row)}'s replica needs "
                       f"{_fmt(float(single[row]))} {unit} of {words}, over "
                       f"{s.thresholds.capacity} x the capacity of every broker left.",
                       name, model, row=row)
    if total > float(limit[ok].sum()) * (1 + 1e-12):
        load = getattr(s, res)
        b = int(np.argmax(np.where(ok, load / np.maximum(cap, 1e-300), -np.inf)))
        raise _failure(f"Infeasible {name}: the partitions need {_fmt(total)} {unit} of "
                       f"{words}, over {s.thresholds.capacity} x the "
                       f"{_fmt(float(cap[ok].sum()))} {unit} the brokers left have "
                       f"({_broker(model, b)} holds {_fmt(float(load[b]))} of "
                       f"{_fmt(float(cap[b]))}).", name, model, b=b)


def infeasible(s: GoalState, model: ClusterModel, goals: Sequence[Goal]) -> None:
    """Raise :class:`OptimizationFailureError` for a hard goal of ``goals`` no plan can meet (module
    docstring), naming the goal and a partition or broker that makes it so."""
    for g in goals:
        if not g.hard:
            continue
        if isinstance(g, RackAwareGoal):
            _check_racks(s, model, g)
        elif _capacity_of(g):
            _check_capacity(s, model, g)
        elif isinstance(g, ReplicaCapacityGoal):
            total = int(s.replicas.sum())
            n = int(s.allowed.sum())
            if total > n * s.thresholds.max_replicas_per_broker:
                b = int(np.argmax(s.replicas))
                raise _failure(
                    f"Infeasible {g.name}: {total} replicas over {n} brokers is "
                    f"more than max.replicas.per.broker={s.thresholds.max_replicas_per_broker}"
                    f" each ({_broker(model, b)} holds {int(s.replicas.max())}).",
                    g.name, model, b=b)


def _misplaced(s: GoalState, row: int, racks: bool) -> list[int]:
    """Slots of ``row`` breaking rack awareness (``racks``: a rack shared) or the pools (a
    broker outside the pool), followers first (the leader stays where it can)."""
    p = s.pos[row]
    held = np.flatnonzero(p >= 0)[::-1]
    if racks:
        codes = s.rack[p[held]]
        return [k for k in held.tolist() if (codes == s.rack[p[k]]).sum() >= 2]
    assert s.topic_pool is not None and s.broker_pool is not None
    want = s.topic_pool[s.topic[row]]
    return [k for k in held.tolist() if s.broker_pool[p[k]] != want]


def _fix_row(s: GoalState, row: int, racks: bool, hard: Sequence[Goal]) -> bool:
    """Move one replica of ``row`` breaking ``goal`` to the least-filled broker every goal of
    ``hard`` accepts."""
    p = s.pos[row]
    cap = np.where(np.isfinite(s.cap_disk), s.cap_disk, 1.0)
    util = np.where(s.allowed, s.disk / cap, np.inf)
    for slot in _misplaced(s, row, racks):
        src = int(p[slot])
        for dst in np.argsort(util, kind="stable")[:SCAN].tolist():
            if util[dst] == np.inf:
                break
            if accepted(hard, s, row, src, dst):
                relocate_replica(s, row, slot, dst)
                return True
    return False


def _hand_leaders(s: GoalState, g: int, limit: np.ndarray, hard: Sequence[Goal]) -> None:
    """Network out: pass leaderships of broker ``g`` (heaviest first) to followers."""
    rows = np.flatnonzero(s.pos[:, 0] == g)
    for row in rows[np.argsort(-s.lead_out[rows], kind="stable")].tolist():
        if s.nw_out[g] <= limit[g]:
            return
        for slot in range(1, s.pos.shape[1]):
            f = int(s.pos[row, slot])
            if f >= 0 and s.allowed[f] and all(x.accepts_leader(s, row, g, f) for x in hard):
                relocate_leadership(s, row, slot)
                break


def _relieve(s: GoalState, resource: str, g: int, hard: Sequence[Goal]) -> None:
    """Move replicas off broker ``g`` until its load of ``resource`` (a key of
    :data:`_CAPACITY`) is under the limit."""
    res, capname, wname, _, _ = _CAPACITY[resource]
    load, limit = getattr(s, res), getattr(s, capname) * s.thresholds.capacity
    w = getattr(s, wname)
    if resource == "nw_out":
        _hand_leaders(s, g, limit, hard)
    while load[g] > limit[g]:
        rows, slots = np.nonzero(s.pos == g)
        if resource == "nw_out":
            rows, slots = rows[slots == 0], slots[slots == 0]
        weight = w[rows]
        excess = load[g] - limit[g]
        covers = weight >= excess
        order = np.concatenate([np.flatnonzero(covers)[np.argsort(weight[covers])],
                                np.flatnonzero(~covers)[np.argsort(-weight[~covers])]])
        room = np.where(s.allowed, limit - load, -np.inf)
        receivers = np.argsort(-room, kind="stable")[:16].tolist()
        if not _move_first(s, rows[order[:SCAN]], slots[order[:SCAN]], g, receivers, hard):
            return


def _move_first(s: GoalState, rows: np.ndarray, slots: np.ndarray, g: int,
                receivers: list[int], hard: Sequence[Goal]) -> bool:
    for row, slot in zip(rows.tolist(), slots.tolist(), strict=True):
        for r in receivers:
            if r != g and accepted(hard, s, row, g, r):
                relocate_replica(s, row, slot, r)
                return True
    return False


def _spread_replicas(s: GoalState, hard: Sequence[Goal]) -> None:
    """``ReplicaCapacityGoal``: the smallest replicas of a broker over the limit go to the
    brokers holding fewest."""
    most = s.thresholds.max_replicas_per_broker
    for g in np.flatnonzero(s.allowed & (s.replicas > most)).tolist():
        while s.replicas[g] > most:
            rows, slots = np.nonzero(s.pos == g)
            order = np.argsort(s.size[rows], kind="stable")[:SCAN]
            fewest = np.argsort(np.where(s.allowed, s.replicas, np.iinfo(np.int64).max),
                                kind="stable")[:16].tolist()
            if not _move_first(s, rows[order], slots[order], g, fewest, hard):
                break


def repair(s: GoalState, goals: Sequence[Goal]) -> None:
    """Fix the hard goals of ``goals`` broken in ``s`` (module docstring), in their order,
    with moves every goal accepts where there are, else moves the hard goals accept; what
    cannot be fixed stays (see :func:`hard_error`)."""
    hard = [g for g in goals if g.hard]
    for guards in (list(goals), hard):
        for g in hard:
            if isinstance(g, ReplicaCapacityGoal):
                _spread_replicas(s, guards)
            elif isinstance(g, RackAwareGoal):
                for row in rack_violations(s).tolist():
                    _fix_row(s, row, True, guards)
            elif isinstance(g, BrokerSetAwareGoal):
                for row in pool_violations(s).tolist():
                    while _misplaced(s, row, False) and _fix_row(s, row, False, guards):
                        pass
            elif _capacity_of(g):
                res, capname = _CAPACITY[_capacity_of(g)][:2]
                limit = getattr(s, capname) * s.thresholds.capacity
                over = np.flatnonzero(s.allowed & (getattr(s, res) > limit))
                for b in over.tolist():
                    _relieve(s, _capacity_of(g), b, guards)


def hard_error(s: GoalState, model: ClusterModel,
               goals: Sequence[Goal]) -> OptimizationFailureError | None:
    """The error (one line) naming the first hard goal of ``goals`` ``s`` still breaks and a partition
    or broker that does; ``None`` when every hard goal holds."""
    th = s.thresholds
    for g in goals:
        n = g.violations(s) if g.hard else 0
        if not n:
            continue
        if isinstance(g, RackAwareGoal):
            row = int(rack_violations(s)[0])
            return _failure(f"Infeasible {g.name}: partition {model._where(row)} keeps "
                            f"two replicas in one rack ({n} partitions do) whatever the other "
                            "hard goals allow.", g.name, model, row=row)
        if _capacity_of(g):
            res, capname, _, words, unit = _CAPACITY[_capacity_of(g)]
            load, cap = getattr(s, res), getattr(s, capname)
            b = int(np.argmax(np.where(s.allowed, load / np.maximum(cap, 1e-300), -math.inf)))
            return _failure(f"Infeasible {g.name}: {_broker(model, b)} keeps "
                            f"{_fmt(float(load[b]))} {unit} of {words}, over {th.capacity} x "
                            f"its {_fmt(float(cap[b]))} ({n} brokers do): no replica it holds "
                            "fits elsewhere.", g.name, model, b=b)
        if isinstance(g, BrokerSetAwareGoal):
            row = int(pool_violations(s)[0])
            slot = _misplaced(s, row, False)[0]
            return _failure(f"Infeasible {g.name}: partition {model._where(row)} "
                            f"keeps a replica on {_broker(model, int(s.pos[row, slot]))}, "
                            f"outside its pool ({n} partitions do): its pool has no broker "
                            "every hard goal accepts.", g.name, model, row=row,
                            b=int(s.pos[row, slot]))
        if isinstance(g, ReplicaCapacityGoal):
            b = int(np.argmax(s.replicas))
            return _failure(f"Infeasible {g.name}: {_broker(model, b)} keeps "
                            f"{int(s.replicas[b])} replicas, over max.replicas.per.broker="
                            f"{th.max_replicas_per_broker} ({n} brokers do).", g.name, model,
                            b=b)
        detail = getattr(g, "explain", None)
        return _failure(f"Infeasible {g.name}: {detail(s) if detail else f'{n} violations'} "
                        "after planning.", g.name, model)
    return None
