"""Ordered broker events as ``org.apache.kafka.controller.ReplicationControlManager`` (KRaft,
branch 4.3) handles them: a broker fenced (``down``), re-registering after a clean shutdown
(``up``) or an unclean one (``up_unclean``), each partition's change computed by
:func:`kpart.cluster.partition_change.build_partition_change` (KIP-966 ELR on or off).

Event → controller calls (unclean leader election off, so ``Election.ONLINE``):

- ``down B`` → ``handleBrokerFenced(B)``: every partition with B in its ISR, B removed from the
  target ISR and never an acceptable leader; then B is fenced.
- ``up B`` → ``handleBrokerShutdown(B, clean)`` (the same removal over partitions with B in the
  ISR, normally nothing after ``down B``), then ``handleBrokerUnfenced(B)``: every leaderless
  partition, B acceptable; then B is unfenced. The controller adds B back to no ISR (only a
  leader's AlterPartition does, which is not modelled).
- ``up_unclean B`` with ELR on (and unclean-shutdown detection, 3.8–3.9 and 4.1+):
  ``handleBrokerShutdown(B, unclean)``: partitions with B in the ISR, then those with B in the
  ELR (both taken before either is applied), B removed from ISR and ELR; then unfenced as
  ``up``. Otherwise as ``up``.

The acceptable leader is ``r != removed and r != unclean and (r == added or r is not fenced)``;
partitions are independent, so their order does not matter. ``down`` of a broker already
down, ``up`` of a broker not down, or an unknown broker is a
:class:`~kpart.errors.ConfigError` naming the event.

>>> from kpart.cluster.partition_change import ElectionRules, PartitionRegistration
>>> s = ReplicationState.of([1, 2, 3], [("t", 0, 2, PartitionRegistration((1, 2, 3), 1,
...                                                                     (1, 2, 3)))])
>>> steps = run_events(s, [BrokerEvent("down", 1), BrokerEvent("down", 2),
...                        BrokerEvent("down", 3), BrokerEvent("up", 2)], ElectionRules(True))
>>> [(p.leader, p.isr, p.elr, p.last_known_elr) for p in (st.partitions[0] for st in steps)]
[(2, (2, 3), (), ()), (3, (3,), (2,), ()), (None, (), (2, 3), (3,)), (2, (2,), (3,), ())]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from kpart.cluster.partition_change import (
    ElectionRules,
    PartitionRegistration,
    build_partition_change,
)
from kpart.errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from kpart.cluster.model import ClusterModel

__all__ = ["EVENT_KINDS", "BrokerEvent", "ReplicationState", "apply_event", "run_events",
           "state_from_model"]

#: The event kinds, as the golden vectors and ``kpart outage --json`` name them.
EVENT_KINDS = ("down", "up", "up_unclean")
_NONE = -1


@dataclass(frozen=True, slots=True)
class BrokerEvent:
    """One broker event: ``kind`` in :data:`EVENT_KINDS`, ``broker`` an id."""

    kind: str
    broker: int

    def __post_init__(self) -> None:
        if self.kind not in EVENT_KINDS:
            raise ConfigError(f"Invalid event {self.kind!r}: expected one of "
                              f"{', '.join(EVENT_KINDS)}")

    def __str__(self) -> str:
        return f"{self.kind} {self.broker}"


@dataclass(frozen=True, slots=True)
class ReplicationState:
    """The cluster as elections see it: registered ``brokers``, the ``fenced`` ones, and per
    partition (sorted by topic then partition, as given): ``keys`` ``(topic, partition)``,
    ``min_insync_replicas`` (the topic's config), ``effective_min_isr`` (``min(config, RF of
    the topic's partition 0)``, Kafka's ``getTopicEffectiveMinIsr``) and ``partitions``."""

    brokers: tuple[int, ...]
    fenced: frozenset[int]
    keys: tuple[tuple[str, int], ...]
    min_insync_replicas: tuple[int, ...]
    effective_min_isr: tuple[int, ...]
    partitions: tuple[PartitionRegistration, ...]

    @classmethod
    def of(cls, brokers: Iterable[int],
           partitions: Iterable[tuple[str, int, int, PartitionRegistration]],
           fenced: Iterable[int] = ()) -> ReplicationState:
        """From ``(topic, partition, min.insync.replicas, registration)`` rows (their order is
        kept); the effective min ISR is computed per topic from its lowest-numbered
        partition's replication factor."""
        rows = list(partitions)
        first: dict[str, tuple[int, int]] = {}
        for topic, part, _, reg in rows:
            if topic not in first or part < first[topic][0]:
                first[topic] = (part, len(reg.replicas))
        return cls(
            brokers=tuple(brokers), fenced=frozenset(fenced),
            keys=tuple((t, p) for t, p, _, _ in rows),
            min_insync_replicas=tuple(m for _, _, m, _ in rows),
            effective_min_isr=tuple(min(m, first[t][1]) for t, _, m, _ in rows),
            partitions=tuple(r for _, _, _, r in rows))

    @property
    def offline(self) -> tuple[tuple[str, int], ...]:
        """Partitions without a leader."""
        return tuple(k for k, p in zip(self.keys, self.partitions, strict=True)
                     if p.leader is None)

    @property
    def under_min_isr(self) -> tuple[tuple[str, int], ...]:
        """Partitions whose ISR is smaller than the topic's ``min.insync.replicas`` (the
        config, not capped by the replication factor; offline ones included)."""
        return tuple(k for k, m, p in zip(self.keys, self.min_insync_replicas,
                                          self.partitions, strict=True) if len(p.isr) < m)


def _updates(state: ReplicationState, parts: list[PartitionRegistration], rows: Sequence[int],
             rules: ElectionRules, *, remove: int = _NONE, add: int = _NONE,
             unclean: int = _NONE) -> None:
    """``generateLeaderAndIsrUpdates(remove, add, unclean)`` over ``rows``, read from
    ``state`` and written to ``parts`` (the records are replayed after the batch)."""
    fenced = state.fenced

    def acceptable(r: int) -> bool:
        return r not in (remove, unclean) and (r == add or (r in state.brokers
                                                            and r not in fenced))

    gone = {remove, unclean}
    for i in rows:
        p = state.partitions[i]
        parts[i] = build_partition_change(
            p, acceptable, state.effective_min_isr[i], rules,
            target_isr=[r for r in p.isr if r not in gone],
            unclean_shutdown_replicas=() if unclean == _NONE else (unclean,))


def _replayed(state: ReplicationState, parts: list[PartitionRegistration],
              fenced: frozenset[int] | None = None) -> ReplicationState:
    return replace(state, partitions=tuple(parts),
                   fenced=state.fenced if fenced is None else fenced)


def apply_event(state: ReplicationState, event: BrokerEvent,
                rules: ElectionRules) -> ReplicationState:
    """The state after ``event`` (module docstring). Raises
    :class:`~kpart.errors.ConfigError`: an unknown broker, ``down`` of a fenced broker,
    ``up``/``up_unclean`` of a broker that is not fenced."""
    b = event.broker
    if b not in state.brokers:
        raise ConfigError(f"event '{event}': unknown broker {b}: the cluster has brokers "
                          f"{', '.join(map(str, state.brokers))}")
    parts = list(state.partitions)
    if event.kind == "down":
        if b in state.fenced:
            raise ConfigError(f"event '{event}': broker {b} is already down")
        _updates(state, parts, [i for i, p in enumerate(state.partitions) if b in p.isr],
                 rules, remove=b)
        return _replayed(state, parts, state.fenced | {b})
    if b not in state.fenced:
        raise ConfigError(f"event '{event}': broker {b} is not down")
    in_isr = [i for i, p in enumerate(state.partitions) if b in p.isr]
    if event.kind == "up_unclean" and rules.elr and rules.unclean_shutdown_detection:
        in_elr = [i for i, p in enumerate(state.partitions) if b in p.elr]
        _updates(state, parts, in_isr, rules, unclean=b)
        _updates(state, parts, in_elr, rules, unclean=b)
    else:
        _updates(state, parts, in_isr, rules, remove=b)
    state = _replayed(state, parts)
    _updates(state, parts, [i for i, p in enumerate(state.partitions) if p.leader is None],
             rules, add=b)
    return _replayed(state, parts, state.fenced - {b})


def run_events(state: ReplicationState, events: Iterable[BrokerEvent],
               rules: ElectionRules) -> list[ReplicationState]:
    """The state after each event, in order (errors: :func:`apply_event`'s, naming the
    first bad event; nothing is returned then)."""
    out: list[ReplicationState] = []
    for event in events:
        state = apply_event(state, event, rules)
        out.append(state)
    return out


def state_from_model(model: ClusterModel, default_min_isr: int = 1) -> ReplicationState:
    """The elections' view of ``model``: its brokers, those down from the start
    (:meth:`ClusterModel.offline_brokers`) fenced, each partition's replicas, leader, ISR,
    ELR and LastKnownElr as the model has them (a describe dump's ``Elr:`` /
    ``LastKnownElr:``), ``min.insync.replicas`` per topic (``default_min_isr`` where
    unknown)."""
    def id_lists(a: np.ndarray | None) -> list[tuple[int, ...]]:
        if a is None:
            return [()] * model.num_partitions
        # one tuple per distinct row (rows repeat: few replica sets, many partitions)
        seen: dict[tuple[int, ...], tuple[int, ...]] = {}
        out = []
        for row in map(tuple, a.tolist()):
            got = seen.get(row)
            if got is None:
                got = seen[row] = tuple(x for x in row if x >= 0)
            out.append(got)
        return out

    names = [t.name for t in model.topics]
    mins = [default_min_isr if t.min_insync_replicas is None else t.min_insync_replicas
            for t in model.topics]
    topics = model.topic.tolist()
    leaders = [None if x < 0 else x for x in model.leader.tolist()]
    # one registration per distinct state (immutable, so shared: less memory, and a
    # report writes each once)
    regs: dict[tuple[object, ...], PartitionRegistration] = {}

    def reg(*state: object) -> PartitionRegistration:
        got = regs.get(state)
        if got is None:
            got = regs[state] = PartitionRegistration(*state)  # type: ignore[arg-type]
        return got

    rows = [(names[t], p, mins[t], reg(r, lead, i, e, k))
            for t, p, r, lead, i, e, k in zip(
                topics, model.partition.tolist(), id_lists(model.replicas), leaders,
                id_lists(model.isr), id_lists(model.elr), id_lists(model.last_known_elr),
                strict=True)]
    return ReplicationState.of((b.id for b in model.brokers), rows,
                               fenced=model.offline_brokers())
