"""Load-aware planning with Cruise Control's goals, on arrays (Cruise Control's
``GoalOptimizer.optimizations``: goals in priority order, each ``AbstractGoal.optimize``
fixing its own violations with moves every higher-priority goal accepts).

Cruise Control's loop, with no goal's name in it::

    for goal in goals:
        goal.optimize(s, guards=Guards(goals, tuple(done), strict))
        done.append(goal)

:func:`plan_cluster` adds and removes brokers and evens out replicas, disk, network and
leadership, moving the fewest bytes it can. Around the loop: each goal's ``check_feasible``
refuses first what no plan can meet; in it, each goal's ``optimize`` relocates the replicas
still on removed brokers (the first goal does) before its own fix — the hard goals repair
what is broken at the start; after it, each partition's
current leader comes back wherever the goals allow
(:func:`~kpart.cluster.goals.joint_leadership.keep_current_leaders`) and each goal takes its
last step (``finish``: the leadership program, or the failover order), and the first hard
goal still broken names the ``failure``. What each goal does
is its own (:mod:`kpart.cluster.goals`); the map of who runs what, in what order and why, is
``docs/cluster-optimizer.md``. The target's leader is each partition's first replica. The
result is checked by nothing here: run :func:`kpart.cluster.verifier.verify` on
:attr:`ClusterPlan.target` (the tests do, on every plan they make).

>>> from kpart.cluster.model import ClusterBroker, ClusterModel, PartitionState, Capacity
>>> cap = Capacity(disk_bytes=100.0)
>>> m = ClusterModel.from_partitions([ClusterBroker(i, f"r{i}", cap) for i in range(3)],
...     [PartitionState("t", p, (p % 3, (p + 1) % 3), size_bytes=1.0 + p) for p in range(6)])
>>> p = plan_cluster(m, add_brokers=[ClusterBroker(3, "r3", cap)])
>>> int(p.load_after.replicas[3]) > 0, p.replica_moves > 0
(True, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from kpart.cluster.goals.broker_set_aware import pool_arrays
from kpart.cluster.goals.goal import Goal, Guards
from kpart.cluster.goals.joint_leadership import NETWORK_OUT_BUDGET, keep_current_leaders
from kpart.cluster.goals.registry import DEFAULT_GOALS, with_broker_sets
from kpart.cluster.goals.relocation import offline_replicas, relocate_back
from kpart.cluster.goals.state import (
    DEFAULT_THRESHOLDS,
    GoalSettings,
    GoalState,
    Thresholds,
    goal_state,
)
from kpart.cluster.load import BrokerLoad, broker_load
from kpart.cluster.model import ClusterBroker, ClusterModel
from kpart.errors import ConfigError, OptimizationFailureError
from kpart.placement.pools import PoolSpec

__all__ = ["NETWORK_OUT_BUDGET", "ClusterPlan", "plan_cluster"]


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


def _optimize(s: GoalState, goals: tuple[Goal, ...], seconds: list[tuple[str, float]],
              strict: bool) -> list[tuple[int, int]]:
    """On ``s``: Cruise Control's loop — each goal in priority order relocates the replicas
    still on removed brokers (the first finds them, the others none) and fixes its own
    violations with moves the goals before it accept — then the current leaders kept where
    the goals allow and each goal's last step. ``strict``: every goal guards every move (so
    that none gets worse). Returns the replicas left on removed brokers (``(row, slot)``,
    largest first): those no goal could relocate."""
    done: list[Goal] = []
    for goal in goals:
        clock = time.perf_counter()
        goal.optimize(s, guards=Guards(goals, tuple(done), strict))
        done.append(goal)
        seconds.append((goal.name, time.perf_counter() - clock))
    if s.model is not None:
        clock = time.perf_counter()
        relocate_back(s, goals, s.model.broker_positions(s.model.replicas))
        seconds.append(("relocate back", time.perf_counter() - clock))
    clock = time.perf_counter()
    keep_current_leaders(s, goals)
    seconds.append(("keep leaders", time.perf_counter() - clock))
    for i, goal in enumerate(goals):
        clock = time.perf_counter()
        step = goal.finish(s, guards=Guards(goals, goals[:i], strict))
        if step:
            seconds.append((step, time.perf_counter() - clock))
    rows, slots = offline_replicas(s)
    return list(zip(rows.tolist(), slots.tolist(), strict=True))


def _worse_soft(state: Callable[..., GoalState], s: GoalState,
                goals: Sequence[Goal]) -> str:
    """The first soft goal with more violations in ``s`` than in the model as it is (led by
    its current leaders; ``state`` makes a state of replicas), or ``""``."""
    model = s.model
    assert model is not None
    reps = model.replicas.copy()
    slot = np.argmax(reps == model.leader[:, None], axis=1)
    rows = np.flatnonzero((slot > 0) & (model.leader >= 0))
    reps[rows, 0], reps[rows, slot[rows]] = reps[rows, slot[rows]], reps[rows, 0]
    start = state(reps, removed_over=True)
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
    out (:mod:`kpart.cluster.goals._network_out_rebalance`; 0 for none). Each goal's
    ``check_feasible`` refuses first what no plan can meet; each goal's ``optimize`` then
    relocates the replicas of removed brokers still there (the first goal does) and fixes
    its own violations — a hard goal broken at the start with the fewest bytes it can; the
    first hard goal still broken after planning names the error (its ``failure``). A plan
    that would leave a
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
    goals = with_broker_sets(tuple(goals)) if pools is not None else tuple(goals)
    arrays = pool_arrays(model, pools) if pools is not None else (None, None)

    settings = GoalSettings(thresholds, model, topic_pool=arrays[0], broker_pool=arrays[1],
                            network_out_budget=network_out_budget)

    def state(replicas: np.ndarray, removed_over: bool = False,
              count_guard: bool = False) -> GoalState:
        return goal_state(model, replicas, allowed, settings=replace(
            settings, removed_over=removed_over, count_guard=count_guard))

    s = state(model.replicas)
    for goal in goals:
        goal.check_feasible(s, model)
    seconds = [("prepare", time.perf_counter() - clock)]
    unplaced = _optimize(s, goals, seconds, strict=False)
    worse = _worse_soft(state, s, goals)
    if worse:  # a higher goal's moves made a lower one worse: again, every goal guarding
        clock = time.perf_counter()
        s = state(model.replicas, count_guard=True)
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
                f"Infeasible: partition {model.partition_name(row)} has more replicas than brokers "
                "left.", goal="", partition=where)
        raise OptimizationFailureError(
            f"Infeasible {'/'.join(names)}: no broker left can take partition "
            f"{model.partition_name(row)}'s replica on broker {model.brokers[src].id} "
            f"({len(unplaced)} replicas left on removed brokers) without breaking it.",
            goal="/".join(names), partition=where, broker=model.brokers[src].id)
    error = next((e for goal in goals if (e := goal.failure(s, model)) is not None), None)
    if error is not None:
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
