"""Load-aware planning with Cruise Control's goals, on arrays (Cruise Control's
``GoalOptimizer.optimizations``: goals in priority order, each ``AbstractGoal.optimize``
fixing its own violations with moves every higher-priority goal accepts).

:func:`plan_cluster` adds and removes brokers and evens out replicas, disk, network and
leadership, moving the fewest bytes it can: a removed broker's replicas go, largest first, to
the least-filled allowed broker; replica counts are evened with replicas sized to what the
receiver still needs; then each resource goal moves, from the most loaded broker to the least,
the largest replica that does not overshoot (the fewest bytes that fix the violation); the
network-out, leader-count and leader-bytes-in goals move leadership only (no data). The
target's leader is each partition's first replica. The result is checked by nothing here:
run :func:`kpart.cluster.verifier.verify` on :attr:`ClusterPlan.target`.

>>> from kpart.cluster.model import ClusterBroker, ClusterModel, PartitionState, Capacity
>>> cap = Capacity(disk_bytes=100.0)
>>> m = ClusterModel.from_partitions([ClusterBroker(i, f"r{i}", cap) for i in range(3)],
...     [PartitionState("t", p, (p % 3, (p + 1) % 3), size_bytes=1.0 + p) for p in range(6)])
>>> p = plan_cluster(m, add_brokers=[ClusterBroker(3, "r3", cap)])
>>> int(p.load_after.replicas[3]) > 0, p.replica_moves > 0
(True, True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from kpart.cluster._optimizer_leaders import assign_leaders
from kpart.cluster._optimizer_moves import (
    balance,
    balance_leaders,
    drain_all,
    fill_counts,
)
from kpart.cluster.goals import (
    BALANCE_MARGIN,
    DEFAULT_GOALS,
    DEFAULT_THRESHOLDS,
    Goal,
    GoalState,
    Thresholds,
    count_band,
    goal_state,
    util_band,
)
from kpart.cluster.load import BrokerLoad, broker_load
from kpart.cluster.model import ClusterBroker, ClusterModel
from kpart.errors import ConfigError

__all__ = ["ClusterPlan", "plan_cluster"]


@dataclass(frozen=True, eq=False)
class ClusterPlan:
    """A load-aware plan: ``model`` (the cluster with the added brokers), ``removed`` (broker
    ids that hold no replica in the target), ``goals`` (in the priority order used),
    ``target`` (int32 broker ids ``(P, R)`` padded ``-1``, the preferred leader first, rows as
    ``model``'s), ``load_before``/``load_after`` (:class:`~kpart.cluster.BrokerLoad` per broker
    of ``model``; before: the model's leaders, after: each target's first replica),
    ``replica_moves`` (replicas changing broker), ``leader_changes`` (partitions whose first
    replica changes), ``bytes_moved`` (sum of the sizes of moved replicas, unknown sizes as 0),
    ``unplaced`` (replicas of removed brokers no allowed broker could take, as ``(row, slot)``)
    and ``seconds`` (time per optimizer phase)."""

    model: ClusterModel
    removed: tuple[int, ...]
    goals: tuple[Goal, ...]
    target: np.ndarray
    load_before: BrokerLoad
    load_after: BrokerLoad
    replica_moves: int
    leader_changes: int
    bytes_moved: float
    unplaced: tuple[tuple[int, int], ...]
    seconds: tuple[tuple[str, float], ...]

    def moved_rows(self) -> np.ndarray:
        """int64: the rows whose replica list changes (the partitions to reassign)."""
        return np.flatnonzero((self.target != self.model.replicas).any(axis=1))


def _with_brokers(model: ClusterModel, add: Sequence[ClusterBroker]) -> ClusterModel:
    if not add:
        return model
    known = {b.id for b in model.brokers}
    for b in add:
        if b.id in known:
            raise ConfigError(f"Invalid broker {b.id} to add: the cluster already has it.")
    return replace(model, brokers=model.brokers + tuple(add))


def _guards(goals: Sequence[Goal], upto: int) -> list[Goal]:
    """The hard goals, every goal up to (and including) position ``upto``, and
    :class:`TopicReplicaDistributionGoal` (cheap to keep: so that no soft goal gets worse)."""
    return [g for i, g in enumerate(goals)
            if g.hard or i <= upto or g.name == "TopicReplicaDistributionGoal"]


_REPLICA_RESOURCES = {"DiskUsageDistributionGoal": ("disk", "cap_disk", "size"),
                      "NetworkInboundUsageDistributionGoal": ("nw_in", "cap_in", "rate_in")}
_LEADER_RESOURCES = {"NetworkOutboundUsageDistributionGoal": ("nw_out", "cap_out", "lead_out"),
                     "LeaderReplicaDistributionGoal": ("leaders", "", ""),
                     "LeaderBytesInDistributionGoal": ("lead_in", "", "rate_in")}


def _run_goal(s: GoalState, goals: Sequence[Goal], i: int, refine_leaders: bool = False) -> None:
    g = goals[i]
    th = s.thresholds
    guards = _guards(goals, i)
    if g.name == "ReplicaDistributionGoal":
        lo, hi = count_band(s.replicas, s.allowed, th.replica_balance, BALANCE_MARGIN)
        cap = np.where(np.isfinite(s.cap_disk), s.cap_disk, 1.0)
        target = cap * s.disk.sum() / cap[s.allowed].sum()
        fill_counts(s, lo, hi, guards, target)
    elif g.name in _REPLICA_RESOURCES:
        res, capname, wname = _REPLICA_RESOURCES[g.name]
        t = th.disk_balance if res == "disk" else th.network_in_balance
        lo, hi, c = util_band(getattr(s, res), getattr(s, capname), s.allowed, t, BALANCE_MARGIN)
        balance(s, getattr(s, res), c, lo, hi, getattr(s, wname), guards)
    elif g.name in _LEADER_RESOURCES and not any(x.name in _LEADER_RESOURCES
                                                 for x in goals[:i]):
        assign_leaders(s)  # one pass for all three leadership goals, then each refines
    elif g.name in _LEADER_RESOURCES and refine_leaders:
        res, capname, wname = _LEADER_RESOURCES[g.name]
        load = getattr(s, res)
        weight = np.ones(len(s.pos)) if not wname else getattr(s, wname)
        if res == "leaders":
            lo, hi = count_band(load, s.allowed, th.leader_balance, BALANCE_MARGIN)
            c = np.ones(len(load))
        else:
            t = th.network_out_balance if res == "nw_out" else th.network_in_balance
            cap = getattr(s, capname) if capname else np.ones(len(load))
            lo, hi, c = util_band(load, cap, s.allowed, t, BALANCE_MARGIN)
            if res == "lead_in":
                lo = -math.inf
        balance_leaders(s, load, c, lo, hi, weight, guards)


def plan_cluster(
    model: ClusterModel,
    *,
    add_brokers: Iterable[ClusterBroker] = (),
    remove_brokers: Iterable[int] = (),
    goals: Sequence[Goal] = DEFAULT_GOALS,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
) -> ClusterPlan:
    """Plan the moves that add ``add_brokers`` (new, empty brokers with their racks and
    capacities), empty ``remove_brokers`` (ids of ``model``'s brokers) and meet ``goals`` in
    the order given (default: Cruise Control's ``default.goals``), under ``thresholds``.

    Errors (:class:`~kpart.errors.ConfigError`): an added broker the cluster has, a removed
    broker it lacks, removing every broker, a hard goal the target still violates (naming the
    goal and the count; e.g. a partition whose replication factor exceeds the racks left for
    :class:`RackAwareGoal`, or more replicas than ``max.replicas.per.broker`` allows).
    Shapes: ``model``'s (P, R) replicas; time and memory linear in P (about 2.8M replicas in
    well under a minute).
    """
    clock = time.perf_counter()
    model = _with_brokers(model, tuple(add_brokers))
    removed = tuple(sorted(set(remove_brokers)))
    for b in removed:
        model.broker_index(b)
    allowed = np.array([b.id not in removed for b in model.brokers], dtype=bool)
    if not allowed.any():
        raise ConfigError("Invalid brokers to remove: no broker would be left.")
    goals = tuple(goals)
    s = goal_state(model, model.replicas, allowed, thresholds)
    seconds = [("prepare", time.perf_counter() - clock)]
    clock = time.perf_counter()
    unplaced = drain_all(s, [g for g in goals if g.hard],
                         [g for g in goals if g.name == "TopicReplicaDistributionGoal"])
    seconds.append(("drain", time.perf_counter() - clock))
    for i, g in enumerate(goals):
        clock = time.perf_counter()
        _run_goal(s, goals, i)
        seconds.append((g.name, time.perf_counter() - clock))
    ids = np.array([b.id for b in model.brokers], dtype=np.int32)
    target = np.where(s.pos >= 0, ids[np.maximum(s.pos, 0)], -1).astype(np.int32)
    if unplaced:
        row, _ = unplaced[0]
        raise ConfigError(f"Infeasible: no allowed broker can take partition "
                          f"{model._where(row)}'s replica ({len(unplaced)} replicas left on "
                          "removed brokers) without breaking a hard goal.")
    hard_left = [(g.name, g.violations(s)) for g in goals if g.hard]
    bad = [(n, v) for n, v in hard_left if v]
    if bad:
        raise ConfigError(f"Infeasible: {bad[0][0]} still has {bad[0][1]} violations after "
                          "planning.")
    cur = model.replicas
    moved = (target[:, :, None] != cur[:, None, :]).all(axis=2) & (target >= 0)
    return ClusterPlan(
        model=model, removed=removed, goals=goals, target=target,
        load_before=broker_load(model), load_after=broker_load(model, target, target[:, 0]),
        replica_moves=int(moved.sum()),
        leader_changes=int((target[:, 0] != cur[:, 0]).sum()),
        bytes_moved=float((moved.sum(axis=1) * np.nan_to_num(model.size_bytes)).sum()),
        unplaced=tuple(unplaced), seconds=tuple(seconds),
    )
