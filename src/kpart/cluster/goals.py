"""Cruise Control's goals, by their names, in its default priority order, with its defaults
(``com.linkedin.kafka.cruisecontrol.analyzer.goals.*``; ``default.goals`` of
``cruisecontrol.properties``; ``BalancingConstraint`` for the thresholds).

A goal is a small frozen object: ``name``, ``hard``, ``violations(state)`` (how many brokers —
partitions for :class:`RackAwareGoal` and :class:`PreferredLeaderElectionGoal`, topic × broker
pairs for :class:`TopicReplicaDistributionGoal` — break it, vectorised over brokers) and
``accepts(state, row, src, dst)`` / ``accepts_leader(state, row, src, dst)``: whether moving
one replica of partition ``row`` from broker position ``src`` to ``dst`` (or its leadership)
keeps the goal. The optimizer (:mod:`kpart.cluster.optimizer`) owns the only mutable state,
a :class:`GoalState` of arrays; the verifier (:mod:`kpart.cluster.verifier`) recomputes every
goal on its own.

Limits (Cruise Control's defaults, :class:`Thresholds`): a capacity goal holds when a broker's
load ≤ ``0.8 ×`` its capacity (``disk.capacity.threshold``, ``network.inbound/outbound.
capacity.threshold``); :class:`ReplicaCapacityGoal` when it holds ≤ ``max.replicas.per.broker``
(10,000) replicas; a distribution goal when every live broker's utilization (load / capacity;
the load itself when a capacity is unknown) lies within ``[avg × (2 − t), avg × t]`` with
``t`` = 1.10 (``*.balance.threshold``) — counts: ``[floor(avg × (2 − t)), ceil(avg × t)]``;
:class:`TopicReplicaDistributionGoal`: ``t`` = 3.0 with a gap of at least 2 and at most 40
replicas around the topic's mean (``topic.replica.count.balance.min.gap/max.gap``);
:class:`LeaderBytesInDistributionGoal`: leader bytes-in ≤ ``avg × t`` (network-in ``t``);
:class:`PotentialNwOutGoal`: the network out a broker would serve if all its replicas led ≤
``0.8 ×`` its network-out capacity. The target's leader is each partition's first replica
(the preferred leader, after a preferred election).

>>> [g.name for g in DEFAULT_GOALS][:3], [g.hard for g in DEFAULT_GOALS][:6]
(['RackAwareGoal', 'ReplicaCapacityGoal', 'DiskCapacityGoal'], [True, True, True, True, True, False])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from kpart.cluster.broker_outage import outage_all
from kpart.cluster.model import ClusterModel
from kpart.errors import ConfigError

if TYPE_CHECKING:
    from kpart.placement.pools import PoolSpec

__all__ = [
    "DEFAULT_GOALS",
    "BrokerFailureCapacityGoal",
    "BrokerSetAwareGoal",
    "DEFAULT_THRESHOLDS",
    "GOALS",
    "Goal",
    "GoalState",
    "Thresholds",
    "goal_state",
    "goals_by_name",
]

#: Cruise Control's ``ResourceDistributionGoal.BALANCE_MARGIN``: the optimizer aims inside
#: ``avg × (1 ± (t − 1) × margin)`` so that small estimate errors stay within the goal.
BALANCE_MARGIN = 0.9
#: The largest balance threshold taken: far beyond any band (a broker within 1,000 × the mean).
_MAX_BALANCE = 1000.0


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Cruise Control's ``BalancingConstraint`` defaults (names in the field docs)."""

    capacity: float = 0.8  #: disk/network.inbound/network.outbound.capacity.threshold
    max_replicas_per_broker: int = 10_000  #: max.replicas.per.broker
    replica_balance: float = 1.10  #: replica.count.balance.threshold
    leader_balance: float = 1.10  #: leader.replica.count.balance.threshold
    disk_balance: float = 1.10  #: disk.balance.threshold
    network_in_balance: float = 1.10  #: network.inbound.balance.threshold
    network_out_balance: float = 1.10  #: network.outbound.balance.threshold
    topic_balance: float = 3.00  #: topic.replica.count.balance.threshold
    topic_min_gap: int = 2  #: topic.replica.count.balance.min.gap
    topic_max_gap: int = 40  #: topic.replica.count.balance.max.gap

    def __post_init__(self) -> None:
        if not 0 < self.capacity <= 1:
            raise ConfigError(f"Invalid capacity threshold {self.capacity}: must be in (0, 1].")
        if self.max_replicas_per_broker < 1:
            raise ConfigError(f"Invalid max.replicas.per.broker {self.max_replicas_per_broker}"
                              ": must be >= 1.")
        for name in ("replica_balance", "leader_balance", "disk_balance", "network_in_balance",
                     "network_out_balance", "topic_balance"):
            t = getattr(self, name)
            if not (math.isfinite(t) and 1 <= t <= _MAX_BALANCE):
                raise ConfigError(f"Invalid {name.replace('_', ' ')} threshold {t}: must be "
                                  f"from 1 to {_MAX_BALANCE:g} (1.10 = within 10 % of the "
                                  "mean).")


#: Cruise Control's defaults.
DEFAULT_THRESHOLDS = Thresholds()


@dataclass(eq=False)
class GoalState:
    """The optimizer's mutable arrays (read only for goals). Brokers by position in
    ``model.brokers``; ``pos``: int32 ``(P, R)`` broker positions, ``-1`` padding, slot 0 the
    leader. Per partition: ``size``, ``rate_in``, ``lead_out`` (network out of its leader:
    bytes-out + bytes-in × (RF − 1)), ``topic``. Per broker (float64 unless said): ``replicas``
    and ``leaders`` (int64), ``disk``, ``nw_in``, ``nw_out``, ``pot_out``, ``lead_in``;
    ``cap_disk/cap_in/cap_out`` (``inf`` when unknown), ``rack`` (int32 code, unique per
    rackless broker), ``allowed`` (bool: may hold replicas), ``topic_count`` (int32 ``(T, B)``).
    """

    pos: np.ndarray
    size: np.ndarray
    rate_in: np.ndarray
    lead_out: np.ndarray
    topic: np.ndarray
    replicas: np.ndarray
    leaders: np.ndarray
    disk: np.ndarray
    nw_in: np.ndarray
    nw_out: np.ndarray
    pot_out: np.ndarray
    lead_in: np.ndarray
    cap_disk: np.ndarray
    cap_in: np.ndarray
    cap_out: np.ndarray
    rack: np.ndarray
    allowed: np.ndarray
    topic_count: np.ndarray
    thresholds: Thresholds
    bands: dict[tuple[str, float], tuple[float, float, np.ndarray]] = field(
        default_factory=dict)
    #: The model ``pos`` indexes (for goals that replay Kafka on it, e.g.
    #: :class:`BrokerFailureCapacityGoal`); ``None`` when built by hand.
    model: ClusterModel | None = None
    #: Count a broker that may not hold replicas (one being removed) as a distribution
    #: violation when it is over the band (its load must go): how "before" is weighed.
    removed_over: bool = False
    #: Distribution goals accept any move that takes no broker out of its band (a broker
    #: already out may go further): no goal's violation count grows, the verifier's measure
    #: (the optimizer's fallback); by default a move may not take a broker past a limit.
    count_guard: bool = False
    #: Resource pools (:class:`BrokerSetAwareGoal`): int32 pool index per topic and per
    #: broker (``-1``: the default pool, i.e. topics of no pool on brokers of no pool);
    #: ``None``: no pools (every broker may hold every topic).
    topic_pool: np.ndarray | None = None
    broker_pool: np.ndarray | None = None
    #: Share of all replicas' bytes the optimizer may move for network out after leadership.
    network_out_budget: float = 0.0

    #: The arrays a move changes (:meth:`save`, :meth:`restore`).
    MUTABLE = ("pos", "replicas", "leaders", "disk", "nw_in", "nw_out", "pot_out", "lead_in",
               "topic_count")

    def save(self) -> dict[str, np.ndarray]:
        """Copies of the arrays a move changes, for :meth:`restore`."""
        return {k: getattr(self, k).copy() for k in self.MUTABLE}

    def restore(self, saved: dict[str, np.ndarray]) -> None:
        """The arrays as :meth:`save` copied them (in place; ``bands`` is left as it is)."""
        for k, v in saved.items():
            getattr(self, k)[...] = v


def _capacities(model: ClusterModel, name: str) -> np.ndarray:
    return np.array([math.inf if b.capacity is None or getattr(b.capacity, name) is None
                     else float(getattr(b.capacity, name)) for b in model.brokers])


def goal_state(model: ClusterModel, replicas: np.ndarray, allowed: np.ndarray,
               thresholds: Thresholds = DEFAULT_THRESHOLDS) -> GoalState:
    """The :class:`GoalState` of ``replicas`` (broker ids ``(P, R)``, the leader first) on
    ``model``; ``allowed``: bool ``(B,)``, the brokers that may hold replicas."""
    pos = model.broker_positions(np.asarray(replicas)).astype(np.int32)
    b = len(model.brokers)
    held = pos >= 0
    rf = held.sum(axis=1)
    size = np.nan_to_num(model.size_bytes)
    rate_in = np.nan_to_num(model.bytes_in_per_s)
    lead_out = np.nan_to_num(model.bytes_out_per_s) + rate_in * np.maximum(rf - 1, 0)
    rows = np.broadcast_to(np.arange(len(pos))[:, None], pos.shape)[held]
    where = pos[held]
    lead = pos[:, 0]
    racks: dict[str | None, int] = {}
    codes = [racks.setdefault(br.rack, len(racks)) if br.rack is not None else -1 - i
             for i, br in enumerate(model.brokers)]
    topic = model.topic.astype(np.int64)
    tc = np.bincount(topic[rows] * b + where, minlength=len(model.topics) * b)
    return GoalState(
        pos=pos, size=size, rate_in=rate_in, lead_out=lead_out, topic=model.topic,
        replicas=np.bincount(where, minlength=b).astype(np.int64),
        leaders=np.bincount(lead, minlength=b).astype(np.int64),
        disk=np.bincount(where, weights=size[rows], minlength=b),
        nw_in=np.bincount(where, weights=rate_in[rows], minlength=b),
        nw_out=np.bincount(lead, weights=lead_out, minlength=b),
        pot_out=np.bincount(where, weights=lead_out[rows], minlength=b),
        lead_in=np.bincount(lead, weights=rate_in, minlength=b),
        cap_disk=_capacities(model, "disk_bytes"), cap_in=_capacities(model, "network_in"),
        cap_out=_capacities(model, "network_out"), rack=np.array(codes, dtype=np.int32),
        allowed=np.asarray(allowed, dtype=bool),
        topic_count=tc.reshape(len(model.topics), b).astype(np.int32), thresholds=thresholds,
        model=model,
    )


# -- limits shared by the goals (the verifier recomputes its own) ---------------------------
def count_band(counts: np.ndarray, allowed: np.ndarray, t: float,
               margin: float = 1.0) -> tuple[float, float]:
    """``(lower, upper)`` of a count balanced within ``t`` over the allowed brokers."""
    avg = counts.sum() / max(int(allowed.sum()), 1)
    return (math.floor(avg * (1 - (t - 1) * margin)), math.ceil(avg * (1 + (t - 1) * margin)))


def util_band(load: np.ndarray, cap: np.ndarray, allowed: np.ndarray, t: float,
              margin: float = 1.0) -> tuple[float, float, np.ndarray]:
    """``(lower, upper, capacity)`` of a utilization balanced within ``t``: a broker is in
    the band when ``lower ≤ load / capacity ≤ upper`` (capacity 1 when any is unknown)."""
    c = cap if np.isfinite(cap[allowed]).all() else np.ones_like(cap)
    avg = load.sum() / max(float(c[allowed].sum()), 1e-300)
    return avg * (1 - (t - 1) * margin), avg * (1 + (t - 1) * margin), c


# -- the goals --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Goal:
    name: str
    hard: bool

    def violations(self, state: GoalState) -> int:  # pragma: no cover - overridden
        raise NotImplementedError

    def accepts(self, state: GoalState, row: int, src: int, dst: int) -> bool:
        """Whether moving partition ``row``'s replica on ``src`` to ``dst`` keeps the goal."""
        return True

    def accepts_leader(self, state: GoalState, row: int, src: int, dst: int) -> bool:
        """Whether passing partition ``row``'s leadership from ``src`` to ``dst`` keeps it."""
        return True


@dataclass(frozen=True, slots=True)
class RackAwareGoal(_Goal):
    """``RackAwareGoal``: no two replicas of a partition in one rack (hard)."""

    name: str = "RackAwareGoal"
    hard: bool = True

    def violations(self, state: GoalState) -> int:
        r = np.where(state.pos >= 0, state.rack[np.maximum(state.pos, 0)], -(2**30))
        r = np.where(state.pos >= 0, r, -(2**30) - np.arange(r.shape[1])[None, :])
        s = np.sort(r, axis=1)
        return int((s[:, 1:] == s[:, :-1]).any(axis=1).sum())

    def accepts(self, state: GoalState, row: int, src: int, dst: int) -> bool:
        rk = state.rack[dst]
        return all(p == src or p < 0 or state.rack[p] != rk for p in state.pos[row].tolist())


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
class BrokerSetAwareGoal(_Goal):
    """``BrokerSetAwareGoal`` (Cruise Control's name; kpart's resource pools,
    :class:`kpart.placement.pools.PoolSpec`): every replica of a topic on a broker of its
    pool — a topic of no pool on brokers of no pool (hard). Violations: partitions with a
    replica outside. Without pools (the state's ``topic_pool`` is ``None``) it always holds."""

    name: str = "BrokerSetAwareGoal"
    hard: bool = True

    def violations(self, state: GoalState) -> int:
        return len(pool_violations(state))

    def accepts(self, state: GoalState, row: int, src: int, dst: int) -> bool:
        if state.topic_pool is None or state.broker_pool is None:
            return True
        return bool(state.broker_pool[dst] == state.topic_pool[state.topic[row]])


@dataclass(frozen=True, slots=True)
class ReplicaCapacityGoal(_Goal):
    """``ReplicaCapacityGoal``: at most ``max.replicas.per.broker`` replicas a broker (hard)."""

    name: str = "ReplicaCapacityGoal"
    hard: bool = True

    def violations(self, state: GoalState) -> int:
        return int((state.replicas > state.thresholds.max_replicas_per_broker).sum())

    def accepts(self, state: GoalState, row: int, src: int, dst: int) -> bool:
        return bool(state.replicas[dst] + 1 <= state.thresholds.max_replicas_per_broker)


def _move_delta(state: GoalState, row: int, src: int, resource: str) -> float:
    """What moving ``row``'s replica off ``src`` moves of ``resource``."""
    leader = int(state.pos[row, 0]) == src
    if resource == "disk":
        return float(state.size[row])
    if resource == "nw_in":
        return float(state.rate_in[row])
    if resource == "nw_out":
        return float(state.lead_out[row]) if leader else 0.0
    if resource == "pot_out":
        return float(state.lead_out[row])
    if resource == "lead_in":
        return float(state.rate_in[row]) if leader else 0.0
    return 1.0 if resource == "replicas" or leader else 0.0  # leaders


def _leader_delta(state: GoalState, row: int, resource: str) -> float:
    if resource == "nw_out":
        return float(state.lead_out[row])
    if resource == "lead_in":
        return float(state.rate_in[row])
    return 1.0 if resource == "leaders" else 0.0


@dataclass(frozen=True, slots=True)
class _CapacityGoal(_Goal):
    """A broker's ``resource`` load ≤ capacity threshold × its capacity (hard)."""

    resource: str = "disk"
    capacity: str = "cap_disk"

    def limit(self, state: GoalState) -> np.ndarray:
        out: np.ndarray = getattr(state, self.capacity) * state.thresholds.capacity
        return out

    def violations(self, state: GoalState) -> int:
        return int((getattr(state, self.resource) > self.limit(state) * (1 + 1e-12)).sum())

    def accepts(self, state: GoalState, row: int, src: int, dst: int) -> bool:
        d = _move_delta(state, row, src, self.resource)
        lim = float(getattr(state, self.capacity)[dst]) * state.thresholds.capacity
        return d == 0 or float(getattr(state, self.resource)[dst]) + d <= lim

    def accepts_leader(self, state: GoalState, row: int, src: int, dst: int) -> bool:
        d = _leader_delta(state, row, self.resource)
        lim = float(getattr(state, self.capacity)[dst]) * state.thresholds.capacity
        return d == 0 or float(getattr(state, self.resource)[dst]) + d <= lim


def _leaves(before: float, after: float, lo: float, hi: float) -> bool:
    """A load inside ``[lo, hi]`` before (with a relative tolerance) is outside after."""
    tol = 1e-9 * max(abs(hi) if math.isfinite(hi) else 0.0, abs(lo) if math.isfinite(lo)
                     else 0.0, 1e-300)
    return bool(lo - tol <= before <= hi + tol and not lo - tol <= after <= hi + tol)


@dataclass(frozen=True, slots=True)
class _DistributionGoal(_Goal):
    """Every allowed broker's ``resource`` within its balance band (soft)."""

    resource: str = "disk"
    capacity: str = ""  # "" = a count
    threshold: str = "disk_balance"
    upper_only: bool = False

    def band(self, state: GoalState, margin: float = 1.0) -> tuple[float, float, np.ndarray]:
        """``(lower, upper, divisor)``: broker ``i`` is in band when ``lower ≤ load[i] /
        divisor[i] ≤ upper``."""
        found = state.bands.get((self.name, margin))
        if found is not None:
            return found
        load = getattr(state, self.resource)
        t = getattr(state.thresholds, self.threshold)
        if self.resource in ("replicas", "leaders"):
            lo, hi = count_band(load, state.allowed, t, margin)
            c = np.ones(len(load))
        else:
            cap = getattr(state, self.capacity) if self.capacity else np.ones(len(load))
            lo, hi, c = util_band(load, cap, state.allowed, t, margin)
        out = (-math.inf if self.upper_only else lo), hi, c
        state.bands[(self.name, margin)] = out
        return out

    def violations(self, state: GoalState) -> int:
        lo, hi, c = self.band(state)
        u = getattr(state, self.resource) / c
        eps = 1e-9 * max(abs(hi), 1e-300)
        over = u > hi + eps
        bad = state.allowed & ((u < lo - eps) | over)
        if state.removed_over:
            bad |= ~state.allowed & over
        return int(bad.sum())

    def _keeps(self, state: GoalState, src: int, dst: int, d: float) -> bool:
        if d == 0:
            return True
        lo, hi, c = self.band(state)
        load = getattr(state, self.resource)
        if state.count_guard:
            return not (_leaves(load[dst], load[dst] + d, lo * c[dst], hi * c[dst])
                        or (state.allowed[src]
                            and _leaves(load[src], load[src] - d, lo * c[src], hi * c[src])))
        return bool(load[dst] + d <= hi * c[dst] * (1 + 1e-9)
                    and (not state.allowed[src] or load[src] - d >= lo * c[src] * (1 - 1e-9)))

    def accepts(self, state: GoalState, row: int, src: int, dst: int) -> bool:
        return self._keeps(state, src, dst, _move_delta(state, row, src, self.resource))

    def accepts_leader(self, state: GoalState, row: int, src: int, dst: int) -> bool:
        return self._keeps(state, src, dst, _leader_delta(state, row, self.resource))


@dataclass(frozen=True, slots=True)
class TopicReplicaDistributionGoal(_Goal):
    """``TopicReplicaDistributionGoal``: each topic's replicas per broker within
    ``[avg × (2 − t), avg × t]`` widened to a gap of ``min.gap``..``max.gap`` (soft)."""

    name: str = "TopicReplicaDistributionGoal"
    hard: bool = False

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
        found = state.bands.get(key)
        if found is None:
            lo, hi = self.bands(state)
            found = (0.0, 0.0, np.stack([lo, hi]))
            state.bands[key] = found
        return found[2]

    def accepts(self, state: GoalState, row: int, src: int, dst: int) -> bool:
        t = int(state.topic[row])
        lim = self.limits(state)
        if state.count_guard:
            n_dst, n_src = int(state.topic_count[t, dst]), int(state.topic_count[t, src])
            return not (_leaves(n_dst, n_dst + 1, lim[0, t], lim[1, t])
                        or (state.allowed[src] and _leaves(n_src, n_src - 1, lim[0, t],
                                                           lim[1, t])))
        return bool(state.topic_count[t, dst] + 1 <= lim[1, t]
                    and (not state.allowed[src] or state.topic_count[t, src] - 1 >= lim[0, t]))


@dataclass(frozen=True, slots=True)
class PreferredLeaderElectionGoal(_Goal):
    """``PreferredLeaderElectionGoal``: every partition led by its first replica. The target
    always is (the leader is slot 0 of :attr:`GoalState.pos`): 0 violations."""

    name: str = "PreferredLeaderElectionGoal"
    hard: bool = False

    def violations(self, state: GoalState) -> int:
        return 0


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
class BrokerFailureCapacityGoal(_Goal):
    """kpart's goal, not Cruise Control's (opt-in: not in :data:`DEFAULT_GOALS`; hard): the
    cluster survives any single broker failure and any single rack failure below capacity —
    after it, with leadership moved as Kafka moves it (the first live in-sync replica in
    replica order, :mod:`kpart.cluster.broker_outage`; the replicas all in sync, each partition led
    by its first replica), every surviving broker's network in and network out stay ≤ the capacity
    threshold × its capacity. Violations: the (failure, surviving broker) pairs over it.
    Only the order of followers (who leads after a failure) is the optimizer's lever here."""

    name: str = "BrokerFailureCapacityGoal"
    hard: bool = True

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


def _cap(name: str, resource: str, capacity: str) -> _CapacityGoal:
    return _CapacityGoal(name, True, resource, capacity)


def _dist(name: str, resource: str, capacity: str, threshold: str,
          upper_only: bool = False) -> _DistributionGoal:
    return _DistributionGoal(name, False, resource, capacity, threshold, upper_only)


#: Every goal kpart knows, in Cruise Control's default priority order (hard goals first).
GOALS: tuple[_Goal, ...] = (
    RackAwareGoal(),
    BrokerSetAwareGoal(),
    ReplicaCapacityGoal(),
    _cap("DiskCapacityGoal", "disk", "cap_disk"),
    _cap("NetworkInboundCapacityGoal", "nw_in", "cap_in"),
    _cap("NetworkOutboundCapacityGoal", "nw_out", "cap_out"),
    _dist("ReplicaDistributionGoal", "replicas", "", "replica_balance"),
    _cap("PotentialNwOutGoal", "pot_out", "cap_out"),
    _dist("DiskUsageDistributionGoal", "disk", "cap_disk", "disk_balance"),
    _dist("NetworkInboundUsageDistributionGoal", "nw_in", "cap_in", "network_in_balance"),
    _dist("NetworkOutboundUsageDistributionGoal", "nw_out", "cap_out", "network_out_balance"),
    TopicReplicaDistributionGoal(),
    _dist("LeaderReplicaDistributionGoal", "leaders", "", "leader_balance"),
    _dist("LeaderBytesInDistributionGoal", "lead_in", "", "network_in_balance", True),
    PreferredLeaderElectionGoal(),
    BrokerFailureCapacityGoal(),
)
# PotentialNwOutGoal is soft in Cruise Control: a capacity-shaped limit, not a hard goal.
GOALS = tuple(g if g.name != "PotentialNwOutGoal" else
              _CapacityGoal("PotentialNwOutGoal", False, "pot_out", "cap_out") for g in GOALS)

#: Cruise Control's ``default.goals``: all of :data:`GOALS` but PreferredLeaderElectionGoal,
#: BrokerSetAwareGoal (added by :func:`~kpart.cluster.optimizer.plan_cluster` when it is
#: given pools) and kpart's opt-in BrokerFailureCapacityGoal.
DEFAULT_GOALS: tuple[_Goal, ...] = tuple(
    g for g in GOALS if g.name not in ("PreferredLeaderElectionGoal", "BrokerSetAwareGoal",
                                       "BrokerFailureCapacityGoal"))

Goal = _Goal


def goals_by_name(names: str | list[str]) -> tuple[_Goal, ...]:
    """The goals named (a comma-separated string or a list), in the order given.
    :class:`ConfigError` naming an unknown goal."""
    known = {g.name: g for g in GOALS}
    wanted = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
    out = []
    for n in wanted:
        if n not in known:
            raise ConfigError(f"Unknown goal {n!r}: known goals are {', '.join(known)}.")
        out.append(known[n])
    return tuple(out)
