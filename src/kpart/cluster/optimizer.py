"""Load-aware planning with Cruise Control's goals, on arrays (Cruise Control's
``GoalOptimizer.optimizations``: goals in priority order, each ``AbstractGoal.optimize``
fixing its own violations with moves every higher-priority goal accepts).

:func:`plan_cluster` adds and removes brokers and evens out replicas, disk, network and
leadership, moving the fewest bytes it can: hard goals no plan can meet are refused first
and hard goals broken at the start repaired (:mod:`kpart.cluster._optimizer_repair`); a
removed broker's replicas go, largest first, to the least-filled allowed broker; replica
counts are evened with replicas sized to what the receiver still needs, taken from brokers
above the disk band aimed at (bytes that must move anyway: none moves twice); then each
resource goal moves, from the most loaded broker to the least, the largest replica that does not
overshoot (the fewest bytes that fix the violation); the network-out, leader-count and
leader-bytes-in goals move leadership, together (:mod:`kpart.cluster._optimizer_leaders`,
no data), then, for each broker still outside the network-out band, leadership handovers,
replica moves chosen by the fewest bytes per byte/s relieved and replica swaps, leader
counts kept in their band (:mod:`kpart.cluster._optimizer_netout`), and partitions whose network
out alone is over the band packed two to a broker (:mod:`kpart.cluster._optimizer_pairs`); the
topic goal moves the smallest followers;
each partition's current leader comes back wherever no broker ends further from the
leadership bands (:func:`~kpart.cluster._optimizer_leaders.restore_leaders`); what is still
outside a leadership band is then solved exactly over the heaviest partitions, as a
mixed-integer program (:mod:`kpart.cluster._optimizer_program`); kpart's
:class:`~kpart.cluster.goals.BrokerFailureCapacityGoal` reorders followers instead
(:mod:`kpart.cluster._optimizer_failover`). The target's leader is each partition's first
replica. The result is checked by nothing here: run
:func:`kpart.cluster.verifier.verify` on :attr:`ClusterPlan.target` (the tests do, on every
plan they make).

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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from kpart.cluster._optimizer_chains import chain_leaders
from kpart.cluster._optimizer_failover import order_followers
from kpart.cluster._optimizer_leaders import (
    assign_leaders,
    refine_leaders,
    restore_leaders,
    set_leaders,
)
from kpart.cluster._optimizer_moves import balance, balance_topics, drain_all, fill_counts
from kpart.cluster._optimizer_netout import relocate_for_network_out
from kpart.cluster._optimizer_program import program_leaders
from kpart.cluster._optimizer_repair import hard_error, infeasible, repair
from kpart.cluster.goals import (
    BALANCE_MARGIN,
    DEFAULT_GOALS,
    DEFAULT_THRESHOLDS,
    BrokerSetAwareGoal,
    Goal,
    GoalState,
    Thresholds,
    TopicReplicaDistributionGoal,
    count_band,
    goal_state,
    pool_arrays,
    util_band,
)
from kpart.cluster.load import BrokerLoad, broker_load
from kpart.cluster.model import ClusterBroker, ClusterModel
from kpart.errors import ConfigError, OptimizationFailureError
from kpart.placement.pools import PoolSpec

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
#: The leadership goals, solved together by :mod:`kpart.cluster._optimizer_leaders` (rows of
#: its ``bands``: network out, leader count, leader bytes-in).
_LEADER_GOALS = ("NetworkOutboundUsageDistributionGoal", "LeaderReplicaDistributionGoal",
                 "LeaderBytesInDistributionGoal")


def _leader_bands(s: GoalState, goals: Sequence[Goal]) -> tuple[np.ndarray, np.ndarray]:
    """``(bands, weights)`` for :func:`refine_leaders`: the three leadership goals' bands
    (Cruise Control's margin inside the threshold), weights by priority (4, 2, 1 in the
    order ``goals`` lists them; 0 and no band for a goal not asked for)."""
    th = s.thresholds
    b = len(s.allowed)
    bands = np.tile(np.array([[-math.inf], [math.inf], [1.0], [-math.inf], [math.inf]]),
                    (3, b))
    weights = np.zeros(3)
    names = [g.name for g in goals if g.name in _LEADER_GOALS]
    for rank, name in enumerate(names):
        j = _LEADER_GOALS.index(name)
        weights[j] = 4.0 ** (len(names) - 1 - rank)
        rows = []
        for margin in (BALANCE_MARGIN, 1.0):
            if j == 0:
                lo, hi, c = util_band(s.nw_out, s.cap_out, s.allowed, th.network_out_balance,
                                      margin)
            elif j == 1:
                lo, hi = count_band(s.leaders, s.allowed, th.leader_balance, margin)
                c = np.ones(b)
            else:
                lo, hi, c = util_band(s.lead_in, np.ones(b), s.allowed,
                                      th.network_in_balance, margin)
                lo = -math.inf
            rows.append((lo * c, hi * c))
        (lo_aim, hi_aim), (lo_th, hi_th) = rows
        mid = (hi_aim + lo_aim) / 2 if np.isfinite(lo_aim).all() else hi_aim
        bands[5 * j: 5 * j + 5] = [lo_aim, hi_aim, np.maximum(mid, 1e-300),
                                   lo_th * (1 - 1e-9), hi_th * (1 + 1e-9)]
    return bands, weights


def _leadership_at(goals: Sequence[Goal]) -> int:
    """Where the one leadership pass runs: with the first leadership goal (-1: none).
    Replica goals after it move followers only or are guarded by it."""
    return next((i for i, g in enumerate(goals) if g.name in _LEADER_GOALS), -1)


def _leader_violations(s: GoalState, goals: Sequence[Goal]) -> list[int]:
    s.bands.clear()
    return [g.violations(s) for g in goals if g.name in _LEADER_GOALS]


def _lead(s: GoalState, goals: Sequence[Goal]) -> None:
    """The leadership goals: a greedy start then the descent (when network out is asked
    for), kept only when no leadership goal ends worse than the descent from the current
    leaders alone would leave it."""
    bands, weights = _leader_bands(s, goals)
    start = s.pos[:, 0].copy()
    if weights[0] > 0:
        c = s.cap_out if np.isfinite(s.cap_out[s.allowed]).all() else np.ones(len(s.allowed))
        share = np.where(s.allowed, c, 0.0) * s.lead_out.sum() / c[s.allowed].sum()
        before = _leader_violations(s, goals)
        assign_leaders(s, share)
        refine_leaders(s, bands, weights)
        after = _leader_violations(s, goals)
        if all(a <= b for a, b in zip(after, before, strict=True)):
            _relocate(s, goals, bands, weights)
            _chain(s, goals)
            return
        set_leaders(s, start)
    refine_leaders(s, bands, weights)
    s.bands.clear()
    if weights[0] > 0:
        _relocate(s, goals, bands, weights)
    _chain(s, goals)


def _chain(s: GoalState, goals: Sequence[Goal]) -> None:
    """Leadership chains (:mod:`kpart.cluster._optimizer_chains`) for what single transfers
    and swaps left outside the network-out and leader-bytes-in bands; kept only when no
    leadership goal ends worse and one ends better."""
    before = _leader_violations(s, goals)
    if not any(before):
        return
    bands, weights = _leader_bands(s, goals)
    start = s.pos[:, 0].copy()
    if chain_leaders(s, bands, weights):
        refine_leaders(s, bands, weights)
    after = _leader_violations(s, goals)
    if after == before or any(a > b for a, b in zip(after, before, strict=True)):
        set_leaders(s, start)  # no fewer violations: the leaders as they were
    s.bands.clear()


#: Default of :func:`plan_cluster`'s ``network_out_budget``.
NETWORK_OUT_BUDGET = 0.0185


def _relocate(s: GoalState, goals: Sequence[Goal], bands: np.ndarray,
              weights: np.ndarray) -> None:
    """Replica moves for the network out leadership could not even out, then leadership
    again; kept only when no leadership goal ends worse."""
    i = next(i for i, g in enumerate(goals) if g.name == _LEADER_GOALS[0])
    before = _leader_violations(s, goals)
    if not before[0]:
        return
    budget = s.network_out_budget * float((s.size * (s.pos >= 0).sum(axis=1)).sum())
    if budget <= 0:
        return
    soft = [g for g in goals if not g.hard and g.name != "BrokerFailureCapacityGoal"]
    counts = [g.violations(s) for g in soft]
    saved = s.save()
    if relocate_for_network_out(s, bands, _guards(goals, i), budget):
        refine_leaders(s, bands, weights)
    s.bands.clear()
    if any(g.violations(s) > c for g, c in zip(soft, counts, strict=True)):
        s.restore(saved)  # a goal got worse: as it was
        s.bands.clear()


def _keep_current(s: GoalState, goals: Sequence[Goal]) -> None:
    """Leaders and follower order as they are in the model wherever the goals end the same:
    each partition's current first replica leads again where no broker's distance to the
    leadership bands grows (:func:`restore_leaders`), and a partition on the same brokers
    with the same leader keeps its replica order (unless
    :class:`~kpart.cluster.goals.BrokerFailureCapacityGoal` orders followers)."""
    model = s.model
    if model is None:
        return
    orig = model.broker_positions(model.replicas)
    bands, weights = _leader_bands(s, goals)
    restore_leaders(s, orig[:, 0], bands, weights)
    s.bands.clear()
    if any(g.name == "BrokerFailureCapacityGoal" for g in goals):
        return
    same = (s.pos[:, 0] == orig[:, 0]) & (np.sort(s.pos, axis=1) == np.sort(orig, axis=1)).all(
        axis=1)
    s.pos[same] = orig[same]


def _run_goal(s: GoalState, goals: Sequence[Goal], i: int, strict: bool = False) -> None:
    g = goals[i]
    th = s.thresholds
    guards = list(goals) if strict else _guards(goals, i)
    if g.name == "ReplicaDistributionGoal":
        lo, hi = count_band(s.replicas, s.allowed, th.replica_balance, BALANCE_MARGIN)
        cap = np.where(np.isfinite(s.cap_disk), s.cap_disk, 1.0)
        target = cap * s.disk.sum() / cap[s.allowed].sum()
        disk_goal = any(x.name == "DiskUsageDistributionGoal" for x in goals)
        giver = target * (1 + (th.disk_balance - 1) * BALANCE_MARGIN) if disk_goal else None
        fill_counts(s, lo, hi, guards, target, bulk=not strict, giver_disk=giver)
    elif g.name in _REPLICA_RESOURCES:
        res, capname, wname = _REPLICA_RESOURCES[g.name]
        t = th.disk_balance if res == "disk" else th.network_in_balance
        lo, hi, c = util_band(getattr(s, res), getattr(s, capname), s.allowed, t, BALANCE_MARGIN)
        balance(s, getattr(s, res), c, lo, hi, getattr(s, wname), guards)
    elif isinstance(g, TopicReplicaDistributionGoal):
        balance_topics(s, g, guards)


def _optimize(s: GoalState, goals: tuple[Goal, ...], seconds: list[tuple[str, float]],
              strict: bool) -> list[tuple[int, int]]:
    """Drain, repair, then each goal in order, on ``s``; ``strict``: every goal guards every
    move (so that none gets worse). Returns the replicas it could not drain."""
    clock = time.perf_counter()
    soft = [g for g in goals if not g.hard]
    unplaced = drain_all(s, [g for g in goals if g.hard],
                         soft if strict else [g for g in soft
                                              if g.name == "TopicReplicaDistributionGoal"])
    seconds.append(("drain", time.perf_counter() - clock))
    clock = time.perf_counter()
    repair(s, goals)
    seconds.append(("repair", time.perf_counter() - clock))
    lead_at = _leadership_at(goals)
    for i, g in enumerate(goals):
        clock = time.perf_counter()
        _run_goal(s, goals, i, strict)
        if i == lead_at:
            _lead(s, goals)
        seconds.append((g.name, time.perf_counter() - clock))
    clock = time.perf_counter()
    _keep_current(s, goals)
    seconds.append(("keep leaders", time.perf_counter() - clock))
    clock = time.perf_counter()
    if any(g.name == "BrokerFailureCapacityGoal" for g in goals):
        order_followers(s)  # the follower order: seen by no other goal
        seconds.append(("failover order", time.perf_counter() - clock))
    else:  # the program weighs no failure: with the failure goal, leaders stay as they are
        program_leaders(s, goals)
        seconds.append(("leadership program", time.perf_counter() - clock))
    return unplaced


def _with_pools(goals: tuple[Goal, ...], pools: PoolSpec | None) -> tuple[Goal, ...]:
    """``goals`` with :class:`BrokerSetAwareGoal` after RackAwareGoal (first without it)
    when ``pools`` are given and the goals lack it."""
    if pools is None or any(g.name == "BrokerSetAwareGoal" for g in goals):
        return goals
    at = next((i + 1 for i, g in enumerate(goals) if g.name == "RackAwareGoal"), 0)
    return (*goals[:at], BrokerSetAwareGoal(), *goals[at:])


def _worse_soft(state: Callable[[np.ndarray], GoalState], s: GoalState,
                goals: Sequence[Goal]) -> str:
    """The first soft goal with more violations in ``s`` than in the model as it is (led by
    its current leaders; ``state`` makes a state of replicas), or ``""``."""
    model = s.model
    assert model is not None
    reps = model.replicas.copy()
    slot = np.argmax(reps == model.leader[:, None], axis=1)
    rows = np.flatnonzero((slot > 0) & (model.leader >= 0))
    reps[rows, 0], reps[rows, slot[rows]] = reps[rows, slot[rows]], reps[rows, 0]
    start = state(reps)
    start.removed_over = True
    s.bands.clear()
    for g in goals:
        if not g.hard and g.violations(s) > g.violations(start):
            return g.name
    return ""


def plan_cluster(
    model: ClusterModel,
    *,
    add_brokers: Iterable[ClusterBroker] = (),
    remove_brokers: Iterable[int] = (),
    goals: Sequence[Goal] = DEFAULT_GOALS,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    pools: PoolSpec | None = None,
    network_out_budget: float = NETWORK_OUT_BUDGET,
) -> ClusterPlan:
    """Plan the moves that add ``add_brokers`` (new, empty brokers with their racks and
    capacities), empty ``remove_brokers`` (ids of ``model``'s brokers) and meet ``goals`` in
    the order given (default: Cruise Control's ``default.goals``), under ``thresholds``.

    ``pools`` (:class:`~kpart.placement.pools.PoolSpec`): each topic's replicas stay on its
    pool's brokers (:class:`~kpart.cluster.goals.BrokerSetAwareGoal`, added after
    RackAwareGoal when ``goals`` lack it). ``network_out_budget``: the share of all replicas'
    bytes that replica moves for network out may move where leadership alone cannot even it
    out (:mod:`kpart.cluster._optimizer_netout`; 0 for none). Hard goals broken at the start are repaired first
    with the fewest bytes (:mod:`kpart.cluster._optimizer_repair`). A plan that would leave a
    soft goal with more violations than before is redone with every goal guarding every move.

    Errors (one line): :class:`~kpart.errors.ConfigError` for an added broker the cluster has,
    a removed broker it lacks, removing every broker, a pool naming an unknown broker;
    :class:`~kpart.errors.OptimizationFailureError` (``.goal``, ``.broker``, ``.partition``;
    ``.goal`` empty for a partition with more replicas than brokers left), ``Infeasible
    <goal>: ...``, for a hard goal no plan can meet or the target still breaks,
    naming a partition or broker that makes it so (a partition with more replicas than the
    racks left, a replica or a total load over the capacity threshold of the brokers left,
    more replicas than ``max.replicas.per.broker`` allows, a failure that overloads a
    survivor).
    Shapes: ``model``'s (P, R) replicas; time and memory linear in P (2.8M replicas: about
    22-53 s of CPU and 0.57 GB, see ``benchmarks/bench_cluster_plan.py``).
    """
    clock = time.perf_counter()
    model = _with_brokers(model, tuple(add_brokers))
    removed = tuple(sorted(set(remove_brokers)))
    for b in removed:
        model.broker_index(b)
    allowed = np.array([b.id not in removed for b in model.brokers], dtype=bool)
    if not allowed.any():
        raise ConfigError("Invalid brokers to remove: no broker would be left.")
    goals = _with_pools(tuple(goals), pools)
    arrays = pool_arrays(model, pools) if pools is not None else (None, None)

    def state(replicas: np.ndarray) -> GoalState:
        out = goal_state(model, replicas, allowed, thresholds)
        out.topic_pool, out.broker_pool = arrays
        out.network_out_budget = network_out_budget
        return out

    s = state(model.replicas)
    infeasible(s, model, goals)
    seconds = [("prepare", time.perf_counter() - clock)]
    unplaced = _optimize(s, goals, seconds, strict=False)
    worse = _worse_soft(state, s, goals)
    if worse:  # a higher goal's moves made a lower one worse: again, every goal guarding
        clock = time.perf_counter()
        s = state(model.replicas)
        s.count_guard = True
        seconds.append((f"strict ({worse} worse)", time.perf_counter() - clock))
        unplaced = _optimize(s, goals, seconds, strict=True)
    ids = np.array([b.id for b in model.brokers], dtype=np.int32)
    target = np.where(s.pos >= 0, ids[np.maximum(s.pos, 0)], -1).astype(np.int32)
    if unplaced:
        row, slot = unplaced[0]
        src = int(s.pos[row, slot])
        names = sorted({next(g.name for g in goals if g.hard and not g.accepts(s, row, src, d))
                        for d in np.flatnonzero(s.allowed & ~np.isin(np.arange(len(s.allowed)),
                                                                     s.pos[row])).tolist()
                        if any(g.hard and not g.accepts(s, row, src, d) for g in goals)})
        where = (model.topics[int(model.topic[row])].name, int(model.partition[row]))
        if not names:
            raise OptimizationFailureError(
                f"Infeasible: partition {model._where(row)} has more replicas than brokers "
                "left.", goal="", partition=where)
        raise OptimizationFailureError(
            f"Infeasible {'/'.join(names)}: no broker left can take partition "
            f"{model._where(row)}'s replica on broker {model.brokers[src].id} "
            f"({len(unplaced)} replicas left on removed brokers) without breaking it.",
            goal="/".join(names), partition=where, broker=model.brokers[src].id)
    s.bands.clear()
    error = hard_error(s, model, goals)
    if error:
        raise error
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
