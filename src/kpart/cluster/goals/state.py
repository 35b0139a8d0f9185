"""The optimizer's state for Cruise Control's goals (``ClusterModel`` of
``com.linkedin.kafka.cruisecontrol.model``, on arrays): :class:`Thresholds` (Cruise Control's
``BalancingConstraint``), the mutable :class:`GoalState` goals read and the moves of
:mod:`kpart.cluster.goals.relocation` change, and the bands shared by the distribution goals.

>>> t = Thresholds()
>>> t.capacity, t.max_replicas_per_broker, t.replica_balance
(0.8, 10000, 1.1)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from kpart.cluster.goals.broker_replicas import BrokerReplicas
from kpart.cluster.load import leader_network_out
from kpart.cluster.model import ClusterModel
from kpart.errors import ConfigError

__all__ = [
    "BALANCE_MARGIN",
    "DEFAULT_THRESHOLDS",
    "BandCache",
    "GoalSettings",
    "GoalState",
    "Thresholds",
    "count_band",
    "goal_state",
    "util_band",
]

#: Cruise Control's ``ResourceDistributionGoal.BALANCE_MARGIN``: the optimizer aims inside
#: ``avg × (1 ± (t − 1) × margin)`` so that small estimate errors stay within the goal.
BALANCE_MARGIN = 0.9
#: The largest balance threshold taken: far beyond any band (a broker within 1,000 × the mean).
MAX_BALANCE = 1000.0


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
            if not (math.isfinite(t) and 1 <= t <= MAX_BALANCE):
                raise ConfigError(f"Invalid {name.replace('_', ' ')} threshold {t}: must be "
                                  f"from 1 to {MAX_BALANCE:g} (1.10 = within 10 % of the "
                                  "mean).")


#: Cruise Control's defaults.
DEFAULT_THRESHOLDS = Thresholds()


@dataclass(eq=False)
class BandCache:
    """The distribution goals' bands, computed from a :class:`GoalState`'s loads, by
    ``(goal name, margin)``: ``(lower, upper, divisor)`` (``(0, 0, (2, T) limits)`` for the
    topic goal), each with the total load it was computed from. Every move of
    :mod:`kpart.cluster.goals.relocation` (and :meth:`GoalState.restore`) invalidates the
    cache (never cleared by hand); a band is then recomputed unless the load's total is
    still the one it was computed from — a band is a function of that total alone (the
    allowed brokers, capacities and thresholds stay for a state's life), and a move only
    shifts load between brokers, so most often it is, and the band is exactly as a
    recomputation would give.

    >>> c = BandCache()
    >>> c.put(("g", 1.0), (0.0, 1.0, np.ones(1)), total=5.0)
    >>> c.invalidate()
    >>> c.get(("g", 1.0), total=lambda: 5.0) is not None  # the same total: still good
    True
    >>> c.invalidate()
    >>> c.get(("g", 1.0), total=lambda: 6.0) is None  # another total: to recompute
    True
    """

    found: dict[tuple[str, float], tuple[tuple[float, float, np.ndarray], float, int]] = field(
        default_factory=dict)
    #: Bumped by :meth:`invalidate`: an entry of an older generation is checked again.
    generation: int = 0

    def get(self, key: tuple[str, float], total: Callable[[], float],
            ) -> tuple[float, float, np.ndarray] | None:
        """The band of ``key``, or ``None`` when it must be computed (none yet, or the
        loads changed since and ``total()``, the load's total now, differs)."""
        entry = self.found.get(key)
        if entry is None:
            return None
        band, at, generation = entry
        if generation == self.generation:
            return band
        if total() != at:
            return None
        self.found[key] = (band, at, self.generation)
        return band

    def put(self, key: tuple[str, float], value: tuple[float, float, np.ndarray],
            total: float) -> None:
        """Keep ``value``, computed from a load whose total is ``total``."""
        self.found[key] = (value, total, self.generation)

    def invalidate(self) -> None:
        """The loads changed: every band is checked again before it is used."""
        self.generation += 1


@dataclass(frozen=True, eq=False)
class GoalSettings:
    """What a plan is asked for, fixed while it is made: ``thresholds``; ``model``, the model
    the state's positions index (for goals that replay Kafka on it, e.g.
    ``BrokerFailureCapacityGoal``; ``None`` when built by hand); ``topic_pool`` /
    ``broker_pool``: resource pools (``BrokerSetAwareGoal``), int32 pool index per topic and
    per broker (``-1``: the default pool, i.e. topics of no pool on brokers of no pool),
    ``None``: no pools; ``network_out_budget``: the share of all replicas' bytes the
    optimizer may move for network out after leadership; ``removed_over``: count a broker
    that may not hold replicas (one being removed) as a distribution violation when it is
    over the band (its load must go: how "before" is weighed); ``count_guard``: distribution
    goals accept any move that takes no broker out of its band (a broker already out may go
    further: no goal's violation count grows, the verifier's measure and the optimizer's
    fallback); by default a move may not take a broker past a limit."""

    thresholds: Thresholds = DEFAULT_THRESHOLDS
    model: ClusterModel | None = None
    topic_pool: np.ndarray | None = None
    broker_pool: np.ndarray | None = None
    network_out_budget: float = 0.0
    removed_over: bool = False
    count_guard: bool = False


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
    #: What the plan is asked for (frozen; :class:`GoalSettings`).
    settings: GoalSettings = field(default_factory=GoalSettings)
    #: The bands computed from the loads (invalidated by the moves).
    cache: BandCache = field(default_factory=BandCache)
    #: Each broker's replicas (kept in step by the moves; :meth:`replicas_on`).
    held: BrokerReplicas = field(default_factory=BrokerReplicas)
    # the settings, read as the state's own (read only: a plan's settings do not change)
    @property
    def thresholds(self) -> Thresholds:
        return self.settings.thresholds

    @property
    def model(self) -> ClusterModel | None:
        return self.settings.model

    @property
    def topic_pool(self) -> np.ndarray | None:
        return self.settings.topic_pool

    @property
    def broker_pool(self) -> np.ndarray | None:
        return self.settings.broker_pool

    @property
    def network_out_budget(self) -> float:
        return self.settings.network_out_budget

    @property
    def removed_over(self) -> bool:
        return self.settings.removed_over

    @property
    def count_guard(self) -> bool:
        return self.settings.count_guard

    #: The arrays a move changes (:meth:`save`, :meth:`restore`).
    MUTABLE = ("pos", "replicas", "leaders", "disk", "nw_in", "nw_out", "pot_out", "lead_in",
               "topic_count")

    def replicas_on(self, b: int, first: int = 0, lo: int = 0,
                    hi: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(rows, slots)`` of broker position ``b``'s replicas, slots ``first`` and up (1:
        its followers, and ``rows`` alone with ``first=0`` filtered on ``slots == 0``: what it
        leads), rows in ``[lo, hi)``: exactly ``np.nonzero(pos[lo:hi, first:] == b)`` with
        ``lo`` and ``first`` added back, without scanning every partition."""
        return self.held.on(self.pos, b, first, lo, hi)

    def leads(self, b: int) -> np.ndarray:
        """The rows broker position ``b`` leads, ascending (``np.flatnonzero(pos[:, 0] ==
        b)``)."""
        rows, slots = self.held.on(self.pos, b)
        out: np.ndarray = rows[slots == 0]
        return out

    def save(self) -> dict[str, np.ndarray]:
        """Copies of the arrays a move changes, for :meth:`restore`."""
        return {k: getattr(self, k).copy() for k in self.MUTABLE}

    def restore(self, saved: dict[str, np.ndarray]) -> None:
        """The arrays as :meth:`save` copied them (in place; the band cache invalidated)."""
        back = saved["pos"]
        for row in np.flatnonzero((self.pos != back).any(axis=1)).tolist():
            for b in back[row][back[row] >= 0].tolist():  # replicas placed back
                self.held.placed((row,), b)
        for k, v in saved.items():
            getattr(self, k)[...] = v
        self.cache.invalidate()


def capacities(model: ClusterModel, name: str) -> np.ndarray:
    """float64 ``(B,)``: each broker's capacity ``name`` (a :class:`~kpart.cluster.model.
    Capacity` field), ``inf`` when unknown."""
    return np.array([math.inf if b.capacity is None or getattr(b.capacity, name) is None
                     else float(getattr(b.capacity, name)) for b in model.brokers])


def goal_state(model: ClusterModel, replicas: np.ndarray, allowed: np.ndarray,
               thresholds: Thresholds = DEFAULT_THRESHOLDS,
               settings: GoalSettings | None = None) -> GoalState:
    """The :class:`GoalState` of ``replicas`` (broker ids ``(P, R)``, the leader first) on
    ``model``; ``allowed``: bool ``(B,)``, the brokers that may hold replicas; ``settings``
    (default: ``thresholds`` alone), their ``model`` set to ``model``."""
    settings = replace(settings or GoalSettings(thresholds), model=model)
    pos = model.broker_positions(np.asarray(replicas)).astype(np.int32)
    b = len(model.brokers)
    held = pos >= 0
    rf = held.sum(axis=1)
    size = np.nan_to_num(model.size_bytes)
    rate_in = np.nan_to_num(model.bytes_in_per_s)
    lead_out = leader_network_out(model, rf)
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
        cap_disk=capacities(model, "disk_bytes"), cap_in=capacities(model, "network_in"),
        cap_out=capacities(model, "network_out"), rack=np.array(codes, dtype=np.int32),
        allowed=np.asarray(allowed, dtype=bool),
        topic_count=tc.reshape(len(model.topics), b).astype(np.int32), settings=settings,
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
