"""An independent check of a plan, as Cruise Control's ``OptimizationVerifier``
(``com.linkedin.kafka.cruisecontrol.analyzer.OptimizationVerifier``).

Deliberately simple and separate from the optimizer: it shares only the load model
(:func:`kpart.cluster.broker_load`) and the goals' names, kinds and thresholds
(:class:`~kpart.cluster.goals.Thresholds`); every violation count is recomputed here with
plain numpy, so a bug in the optimizer's incremental bookkeeping cannot hide.

:func:`verify` checks (1) every replica set is valid — no broker twice in a partition, the
replication factor unchanged, only allowed brokers (not removed, known to the model) —,
(2) every hard goal holds on the target, (3) no soft goal has more violations than before.
The target's leader is each partition's first replica (the preferred leader). For the
usage-distribution goals it also shows a ``floor``: violations no plan can go below that
meets the hard goals and the usage-distribution goals this target meets earlier in the
priority order (:func:`goal_floor`), so that "within its threshold wherever feasible" can be
checked.

>>> from kpart.cluster.model import ClusterBroker, ClusterModel, PartitionState
>>> m = ClusterModel.from_partitions([ClusterBroker(i, f"r{i}") for i in range(3)],
...     [PartitionState("t", 0, (0, 1), leader=0, size_bytes=1.0)])
>>> from kpart.cluster.goals import goals_by_name
>>> r = verify(m, np.array([[2, 1]]), goals_by_name("RackAwareGoal"))
>>> r.ok, r.goals[0].name, r.goals[0].after
(True, 'RackAwareGoal', 0)
>>> verify(m, np.array([[1, 1]]), ()).errors
('partition t-0: broker 1 twice in [1, 1]',)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from kpart.cluster.broker_outage import outage_all
from kpart.cluster.goals import DEFAULT_THRESHOLDS, Goal, Thresholds
from kpart.cluster.load import BrokerLoad, broker_load, leader_network_out, network_out_ceiling
from kpart.cluster.model import ClusterModel
from kpart.placement.pools import PoolSpec

__all__ = ["GoalCheck", "VerifierReport", "goal_floor", "goal_violations", "network_out_limit",
           "verify"]


@dataclass(frozen=True, slots=True)
class GoalCheck:
    """One goal: violations ``before`` (``None`` without a before) and ``after``; ``ok``: a
    hard goal has none after, a soft goal no more than before; ``floor``: the violations no
    plan meeting the hard goals (and the higher-priority usage-distribution goals this target
    meets) can go below (:func:`goal_floor`; ``None`` where not computed: hard goals and
    count goals)."""

    name: str
    hard: bool
    before: int | None
    after: int
    ok: bool
    floor: int | None = None


@dataclass(frozen=True, slots=True)
class VerifierReport:
    """``errors``: invalid replica sets (one line each, at most 20); ``goals``: one
    :class:`GoalCheck` per goal in the order given; ``ok``: no error and every goal ok."""

    errors: tuple[str, ...]
    goals: tuple[GoalCheck, ...]

    @property
    def ok(self) -> bool:
        return not self.errors and all(g.ok for g in self.goals)


def _band_counts(values: np.ndarray, allowed: np.ndarray, t: float) -> tuple[float, float]:
    avg = values.sum() / max(int(allowed.sum()), 1)  # what every allowed broker would hold
    return math.floor(avg * (2 - t)), math.ceil(avg * t)


def _outside(values: np.ndarray, lo: float, hi: float, over_only: np.ndarray | None = None,
             ) -> int:
    """Allowed brokers' ``values`` outside ``[lo, hi]``, plus ``over_only`` (values of
    brokers counted only when over ``hi``)."""
    tol = 1e-9 * max(abs(hi), 1e-300)
    extra = 0 if over_only is None else int((over_only > hi + tol).sum())
    return int(((values < lo - tol) | (values > hi + tol)).sum()) + extra


class _Weighed:
    """One assignment's broker positions and :func:`broker_load`, each computed from scratch
    the first time a goal asks and then shared by the goals :func:`verify` checks on it."""

    def __init__(self, model: ClusterModel, replicas: np.ndarray, leader: np.ndarray) -> None:
        self.model, self.replicas, self.leader = model, replicas, leader

    @cached_property
    def positions(self) -> np.ndarray:
        return self.model.broker_positions(self.replicas)

    @cached_property
    def load(self) -> BrokerLoad:
        return broker_load(self.model, self.replicas, self.leader)

    @cached_property
    def lead_out(self) -> np.ndarray:
        """Per partition, its leader's network out: bytes out + bytes in × (RF − 1)."""
        return leader_network_out(self.model, (self.replicas >= 0).sum(axis=1))


def goal_violations(model: ClusterModel, replicas: np.ndarray, leader: np.ndarray,
                    name: str, allowed: np.ndarray, th: Thresholds, *,
                    removed_over: bool = False, pools: PoolSpec | None = None) -> int:
    """Violations of goal ``name`` when ``replicas`` (ids ``(P, R)``) are led by ``leader``
    (ids ``(P,)``), over the ``allowed`` brokers (bool ``(B,)``); recomputed from scratch.
    ``removed_over``: a distribution goal also counts each broker not allowed (being
    removed) that is over the band — its load has to go (how :func:`verify` weighs
    "before"). ``pools``: for BrokerSetAwareGoal (none: it always holds)."""
    return _violations(_Weighed(model, replicas, leader), name, allowed, th,
                       removed_over=removed_over, pools=pools)


def _violations(weighed: _Weighed, name: str, allowed: np.ndarray, th: Thresholds, *,
                removed_over: bool, pools: PoolSpec | None) -> int:
    model, replicas, leader = weighed.model, weighed.replicas, weighed.leader
    if name == "BrokerSetAwareGoal":
        return _pool_violations(model, replicas, pools)
    if name == "PreferredLeaderElectionGoal":
        return int((leader != replicas[:, 0]).sum())
    if name == "BrokerFailureCapacityGoal":
        return _failure_violations(model, replicas, leader, th)
    pos = weighed.positions
    if name == "TopicReplicaDistributionGoal":
        return _topic_violations(model, pos, allowed, th, removed_over)
    load = weighed.load
    gone = ~allowed if removed_over else np.zeros(len(allowed), dtype=bool)

    def cap(field: str) -> np.ndarray:
        return np.array([math.inf if b.capacity is None or getattr(b.capacity, field) is None
                         else getattr(b.capacity, field) for b in model.brokers])

    def util(values: np.ndarray, field: str) -> int:
        full = cap(field)
        full = full if np.isfinite(full[allowed]).all() else np.ones_like(full)
        c = full[allowed]
        avg = values.sum() / c.sum()
        t = {"disk_bytes": th.disk_balance, "network_in": th.network_in_balance,
             "network_out": th.network_out_balance}[field]
        return _outside(values[allowed] / c, avg * (2 - t), avg * t, values[gone] / full[gone])

    if name == "RackAwareGoal":
        racks = [b.rack if b.rack is not None else f"\0{b.id}" for b in model.brokers]
        code = np.array([sorted(set(racks)).index(r) for r in racks])
        rk = np.where(pos >= 0, code[np.maximum(pos, 0)], -1 - np.arange(pos.shape[1]))
        rk = np.sort(rk, axis=1)
        return int((rk[:, 1:] == rk[:, :-1]).any(axis=1).sum())
    if name == "ReplicaCapacityGoal":
        return int((load.replicas > th.max_replicas_per_broker).sum())
    capacity_goals = {"DiskCapacityGoal": (load.disk_bytes, "disk_bytes"),
                      "NetworkInboundCapacityGoal": (load.network_in, "network_in"),
                      "NetworkOutboundCapacityGoal": (load.network_out, "network_out")}
    if name == "PotentialNwOutGoal":
        held = pos >= 0
        rows = np.broadcast_to(np.arange(len(pos))[:, None], pos.shape)[held]
        potential = np.bincount(pos[held], weights=weighed.lead_out[rows],
                                minlength=len(allowed))
        capacity_goals[name] = (potential, "network_out")
    if name in capacity_goals:
        values, field = capacity_goals[name]
        return int((values > cap(field) * th.capacity * (1 + 1e-12)).sum())
    if name == "ReplicaDistributionGoal":
        return _outside(load.replicas[allowed], *_band_counts(load.replicas, allowed,
                                                              th.replica_balance),
                        load.replicas[gone])
    if name == "LeaderReplicaDistributionGoal":
        return _outside(load.leaders[allowed], *_band_counts(load.leaders, allowed,
                                                             th.leader_balance),
                        load.leaders[gone])
    usage = {"DiskUsageDistributionGoal": "disk_bytes",
             "NetworkInboundUsageDistributionGoal": "network_in",
             "NetworkOutboundUsageDistributionGoal": "network_out"}
    if name in usage:
        return util(getattr(load, usage[name]), usage[name])
    if name == "LeaderBytesInDistributionGoal":
        lp = model.broker_positions(leader)
        lead_in = np.bincount(lp[lp >= 0], minlength=len(allowed),
                              weights=np.nan_to_num(model.bytes_in_per_s)[lp >= 0])
        avg = lead_in.sum() / max(int(allowed.sum()), 1)
        return _outside(lead_in[allowed], -math.inf, avg * th.network_in_balance,
                        lead_in[gone])
    raise ValueError(f"no verifier for goal {name!r}")


#: The goals :func:`goal_floor` bounds: the per-partition load (a :func:`_partition_loads`
#: key) and whether only the leader carries it (else every replica does).
_FLOORED = {"DiskUsageDistributionGoal": ("disk_bytes", False),
            "NetworkInboundUsageDistributionGoal": ("network_in", False),
            "NetworkOutboundUsageDistributionGoal": ("network_out", True),
            "LeaderBytesInDistributionGoal": ("network_in", True)}
#: The hard capacity goals a floor may rely on: the load they limit and its capacity field.
_CAPACITY_GOALS = {"DiskCapacityGoal": "disk_bytes", "NetworkInboundCapacityGoal": "network_in",
                   "NetworkOutboundCapacityGoal": "network_out"}
#: The count-distribution goals :func:`goal_floor` bounds.
_COUNTED = ("ReplicaDistributionGoal", "LeaderReplicaDistributionGoal",
            "TopicReplicaDistributionGoal")


def _count_floor(model: ClusterModel, name: str, allowed: np.ndarray, th: Thresholds,
                 hard: Sequence[str]) -> int:
    """The floor of a count-distribution goal: replicas move freely between brokers, so a
    plan can put any count within the band on every allowed broker — 0 — unless
    ``max.replicas.per.broker`` (ReplicaCapacityGoal among ``hard``) keeps every broker
    under the band's bottom (replicas, or leaders: a broker leads only what it holds), when
    every allowed broker is outside. A topic's band never asks a broker for more than one
    replica of each of its partitions (its mean is at most its partition count)."""
    n = int(allowed.sum())
    if name == "TopicReplicaDistributionGoal" or "ReplicaCapacityGoal" not in hard or not n:
        return 0
    rf = model.replication_factors()
    total = int(rf.sum()) if name == "ReplicaDistributionGoal" else int((rf > 0).sum())
    t = th.replica_balance if name == "ReplicaDistributionGoal" else th.leader_balance
    lo = math.floor(total / n * (2 - t))
    return n if lo > th.max_replicas_per_broker else 0


#: Up to this many forced items, :func:`_bins` packs them exactly (3^n subset pairs).
_EXACT = 10


def _partition_loads(model: ClusterModel) -> dict[str, np.ndarray]:
    """Per partition what each replica holds (``disk_bytes``, ``network_in``) and what its
    leader serves (``network_out``: bytes-out + bytes-in × (RF − 1)), unknowns as 0."""
    return {"disk_bytes": np.nan_to_num(model.size_bytes),
            "network_in": np.nan_to_num(model.bytes_in_per_s),
            "network_out": leader_network_out(model, model.replication_factors())}


def _bins(items: np.ndarray, group: np.ndarray, cap: np.ndarray) -> int:
    """A lower bound on the bins (brokers) holding ``items`` (float ``(n, k)``: each item's
    load on ``k`` resources) when a bin holds at most ``cap`` (``(k,)``, ``inf``: no limit)
    of each and no two items of one ``group`` (replicas of one partition): exact for up to
    :data:`_EXACT` items, else the largest of the items of one group, the total over the
    capacity and the items over half of it (no two of those share a bin)."""
    n = len(items)
    sizes = np.bincount(group)
    bound = max(int(sizes.max()), 1)
    fin = np.isfinite(cap)
    if fin.any():
        c = cap[fin]
        part = items[:, fin]
        bound = max(bound, int(np.ceil((part.sum(axis=0) / c).max() * (1 - 1e-12))),
                    int((part > c / 2).sum(axis=0).max()))
    if n > _EXACT:
        return bound
    masks = np.arange(1 << n)
    bits = (masks[:, None] >> np.arange(n)[None, :]) & 1
    fits = ((bits @ np.where(np.isfinite(items), items, 0)) <= np.where(fin, cap, np.inf)
            * (1 + 1e-12)).all(axis=1)
    per_group = bits @ (np.arange(int(group.max()) + 1)[None, :] == group[:, None])
    fits &= (per_group <= 1).all(axis=1)
    best = [0] + [n + 1] * ((1 << n) - 1)
    for mask in range(1, 1 << n):
        low = mask & -mask
        rest = mask ^ low
        sub = rest
        while True:  # every feasible bin holding the lowest item, with what else of mask
            if fits[sub | low]:
                best[mask] = min(best[mask], best[rest ^ sub] + 1)
            if sub == 0:
                break
            sub = (sub - 1) & rest
    return max(bound, best[-1])


def _band_top(model: ClusterModel, key: str, leader_only: bool, allowed: np.ndarray,
              th: Thresholds, loads: dict[str, np.ndarray]) -> float:
    """The highest band top over the ``allowed`` brokers of the usage-distribution goal on
    ``key`` (each broker's band scaled by its capacity when every allowed broker has one)."""
    if key == "network_in" and leader_only:  # LeaderBytesInDistributionGoal: no capacity
        return float(loads[key].sum() / max(int(allowed.sum()), 1) * th.network_in_balance)
    t = {"disk_bytes": th.disk_balance, "network_in": th.network_in_balance,
         "network_out": th.network_out_balance}[key]
    full = np.array([math.inf if b.capacity is None or getattr(b.capacity, key) is None
                     else float(getattr(b.capacity, key)) for b in model.brokers])[allowed]
    c = full if np.isfinite(full).all() else np.ones(int(allowed.sum()))
    total = loads[key] if leader_only else loads[key] * model.replication_factors()
    return float((total.sum() / max(float(c.sum()), 1e-300) * t * c).max())


def goal_floor(model: ClusterModel, name: str, allowed: np.ndarray, th: Thresholds,  # noqa: PLR0913
               hard: Sequence[str] = (), kept: Sequence[str] = (), *,
               network_out_top: float | None = None) -> int | None:
    """Violations of the distribution goal ``name`` that no target of ``model`` on the
    ``allowed`` brokers meeting the hard goals ``hard`` (names) can go below; ``None`` for
    the other goals. The count goals (replicas, leaders, a topic's replicas per broker) can
    always be evened out by moving replicas: 0 (:func:`_count_floor`). For the usage goals: The band's top does not depend on the plan (the total load is fixed:
    each partition keeps its replication factor), so a partition whose load alone is over the
    top on every allowed broker (disk, network in: on each replica; network out: the
    leader's bytes-out + bytes-in × (RF − 1); leader bytes-in: its bytes-in on the leader)
    takes whoever carries it over the top. One broker may carry several such partitions, so
    the floor is the fewest brokers that can carry them all: at least one per replica of a
    partition (replicas of one partition sit on distinct brokers), and, when ``hard`` holds
    the capacity goals, no broker above ``capacity threshold × capacity`` of disk, network
    in or network out (each such partition's replica brings its size and bytes-in, its
    leadership also its network out): a bin packing, exact for up to ten such partition
    replicas, else bounded by the total over the largest capacity and the items over half of
    it. 0 when no partition is that heavy. ``kept``: higher-priority usage-distribution goals
    (names) the plan keeps within their bands — a lower-priority goal may not undo them, as in
    Cruise Control — so no broker holds more than their band's top of disk, network in or
    network out either.

    ``network_out_top``: :func:`network_out_limit` of ``model`` and ``allowed``, when the
    caller has it (:func:`verify` asks once for all goals).

    Example: brokers capped at 0.8 × 10 TB of disk cannot lead seven partitions of 2 TB each
    that each serve more network out than the band's top; two may (a plan that reached two
    would be optimal for that goal), so the floor is 2, not 7."""
    if name in _COUNTED:
        return _count_floor(model, name, allowed, th, hard)
    if name not in _FLOORED:
        return None
    key, leader_only = _FLOORED[name]
    if not allowed.any():
        return None
    loads = _partition_loads(model)
    rf = model.replication_factors()

    def cap(field: str) -> np.ndarray:
        return np.array([math.inf if b.capacity is None or getattr(b.capacity, field) is None
                         else float(getattr(b.capacity, field)) for b in model.brokers])

    top = _band_top(model, key, leader_only, allowed, th, loads)
    heavy = np.flatnonzero(loads[key] > top + 1e-9 * max(abs(top), 1e-300))
    if not len(heavy):
        return 0
    fields = ("disk_bytes", "network_in", "network_out")
    limits = np.array([float(cap(f)[allowed].max()) * th.capacity
                       if any(_CAPACITY_GOALS.get(h) == f for h in hard) else math.inf
                       for f in fields])
    for other in kept:  # the bands of the higher-priority goals the plan keeps
        k, lo = _FLOORED[other]
        if other != name and other != "LeaderBytesInDistributionGoal":
            f, band = fields.index(k), _band_top(model, k, lo, allowed, th, loads)
            if band > 0:  # 0: nothing of that load anywhere, no limit
                limits[f] = min(limits[f], band)
    if leader_only:
        limits[2] = min(limits[2], network_out_limit(model, allowed)
                        if network_out_top is None else network_out_top)
    copies = np.ones(len(heavy), dtype=np.int64) if leader_only else rf[heavy]
    group = np.repeat(np.arange(len(heavy)), copies)
    rows = heavy[group]
    items = np.stack([loads["disk_bytes"][rows], loads["network_in"][rows],
                      loads["network_out"][rows] if leader_only else np.zeros(len(rows))],
                     axis=1)
    return _bins(items, group, limits)


def network_out_limit(model: ClusterModel, allowed: np.ndarray) -> float:
    """The network out (bytes/s) no broker of a plan on the ``allowed`` brokers needs to go
    above: no broker more unbalanced than the hottest before
    (:func:`~kpart.cluster.load.network_out_ceiling`), though a plan may leave that one as it
    is (when adding brokers lowers the ceiling below it)."""
    hottest = float(broker_load(model).network_out.max())
    return max(float(network_out_ceiling(model, allowed)[allowed].max()), hottest)


def _pool_violations(model: ClusterModel, replicas: np.ndarray, pools: PoolSpec | None,
                     ) -> int:
    """Partitions with a replica on a broker outside the topic's pool."""
    if pools is None:
        return 0
    ids = [b.id for b in model.brokers]
    bad = 0
    allowed = {t: np.array(sorted(pools.allowed(t.name, ids)), dtype=np.int64)
               for t in model.topics}
    for ti, t in enumerate(model.topics):
        reps = replicas[model.topic == ti]
        bad += int(((reps >= 0) & ~np.isin(reps, allowed[t])).any(axis=1).sum())
    return bad


def _failure_violations(model: ClusterModel, replicas: np.ndarray, leader: np.ndarray,
                        th: Thresholds) -> int:
    """(failure, surviving broker) pairs over the network capacity threshold after every
    single broker and rack failure (:func:`kpart.cluster.broker_outage.outage_all`), with the
    replicas all in sync and led by ``leader`` (before and after weighed alike: a replica
    out of sync today is a transient, not the placement's)."""
    reps = np.asarray(replicas, dtype=np.int32)
    model = replace(model, replicas=reps, leader=np.asarray(leader, np.int32), isr=reps)
    limit = {f: np.array([math.inf if b.capacity is None or getattr(b.capacity, f) is None
                          else getattr(b.capacity, f) for b in model.brokers]) * th.capacity
             for f in ("network_in", "network_out")}
    return sum(int((r.alive & (getattr(r, f) > lim * (1 + 1e-12))).sum())
               for r in outage_all(model) for f, lim in limit.items())


def _topic_violations(model: ClusterModel, pos: np.ndarray, allowed: np.ndarray,
                      th: Thresholds, removed_over: bool) -> int:
    b = len(allowed)
    held = pos >= 0
    topic = np.broadcast_to(model.topic[:, None].astype(np.int64), pos.shape)[held]
    counts = np.bincount(topic * b + pos[held], minlength=len(model.topics) * b)
    counts = counts.reshape(len(model.topics), b)
    avg = counts.sum(axis=1) / max(int(allowed.sum()), 1)
    gone = counts[:, ~allowed] if removed_over else counts[:, :0]
    counts = counts[:, allowed]
    hi = np.minimum(np.maximum(np.ceil(avg * th.topic_balance), np.ceil(avg) + th.topic_min_gap),
                    np.ceil(avg) + th.topic_max_gap)
    lo = np.maximum(np.maximum(np.minimum(np.floor(avg * (2 - th.topic_balance)),
                                          np.floor(avg) - th.topic_min_gap),
                               np.floor(avg) - th.topic_max_gap), 0)
    return int(((counts < lo[:, None]) | (counts > hi[:, None])).sum()
               + (gone > hi[:, None]).sum())


def _replica_errors(model: ClusterModel, target: np.ndarray, allowed_ids: set[int]) -> list[str]:
    errors: list[str] = []
    if target.shape[0] != model.num_partitions:
        return [f"target has {target.shape[0]} partitions, the model {model.num_partitions}"]
    rf_before = model.replication_factors()
    rf_after = (target >= 0).sum(axis=1)
    s = np.sort(np.where(target >= 0, target, -1 - np.arange(target.shape[1])), axis=1)
    dup = (s[:, 1:] == s[:, :-1]).any(axis=1)
    gap = (target[:, 1:] >= 0) & (target[:, :-1] < 0)  # padding only at the end
    bad_broker = (target >= 0) & ~np.isin(target, np.array(sorted(allowed_ids)))
    for row in np.flatnonzero(dup | (rf_after != rf_before[: len(rf_after)]) | gap.any(axis=1)
                              | bad_broker.any(axis=1))[:20].tolist():
        ids = [int(x) for x in target[row] if x >= 0]
        where = f"partition {model.partition_name(row)}"
        if dup[row]:
            twice = next(x for x in ids if ids.count(x) > 1)
            errors.append(f"{where}: broker {twice} twice in {ids}")
        elif rf_after[row] != rf_before[row] or gap[row].any():
            errors.append(f"{where}: replication factor {int(rf_before[row])} became "
                          f"{int(rf_after[row])} ({ids})")
        else:
            errors.append(f"{where}: replicas {ids} use a broker that may not hold replicas")
    return errors


def verify(model: ClusterModel, target_replicas: np.ndarray, goals: Sequence[Goal],
           before: np.ndarray | None = None, *, removed: Sequence[int] = (),
           thresholds: Thresholds = DEFAULT_THRESHOLDS,
           pools: PoolSpec | None = None) -> VerifierReport:
    """Check ``target_replicas`` (broker ids, int ``(P, R)`` padded ``-1``, the preferred
    leader first) against ``model`` and ``goals``. ``before``: the replicas to compare soft
    goals with (default: the model's own, led by the model's leaders); ``removed``: broker ids
    that may hold no replica; ``pools``: the resource pools BrokerSetAwareGoal checks.
    Brokers must be in ``model.brokers`` (add new brokers to the model before planning).
    Never raises for a target of the right width: a target with an invalid replica set (a
    broker twice, a changed replication factor, a removed or unknown broker) gets its
    ``errors`` and no goal count (``goals`` empty; counts over unknown brokers mean nothing)."""
    target = np.asarray(target_replicas)
    ids = [b.id for b in model.brokers]
    allowed_ids = set(ids) - set(removed)
    allowed = np.array([i in allowed_ids for i in ids], dtype=bool)
    errors = _replica_errors(model, target, allowed_ids)
    if errors:
        return VerifierReport(tuple(errors), ())
    checks = []
    hard = [g.name for g in goals if g.hard]
    kept: list[str] = []  # usage-distribution goals met so far, in priority order
    weighed_after = _Weighed(model, target, target[:, 0])
    weighed_before = (_Weighed(model, model.replicas, model.leader) if before is None
                      else _Weighed(model, np.asarray(before), np.asarray(before)[:, 0]))
    top = (network_out_limit(model, allowed) if allowed.any() and any(
        _FLOORED.get(g.name, ("", False))[1] for g in goals if not g.hard) else None)
    for g in goals:
        after = _violations(weighed_after, g.name, allowed, thresholds, removed_over=False,
                            pools=pools)
        base = _violations(weighed_before, g.name, allowed, thresholds, removed_over=True,
                           pools=pools)
        ok = after == 0 if g.hard else after <= base
        floor = None if g.hard else goal_floor(model, g.name, allowed, thresholds, hard,
                                               kept, network_out_top=top)
        if g.name in _FLOORED and after == 0:
            kept.append(g.name)
        checks.append(GoalCheck(g.name, g.hard, base, after, ok, floor))
    return VerifierReport(tuple(errors), tuple(checks))
