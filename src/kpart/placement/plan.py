"""A reassignment plan as a value, and its batches (what ``kafka-reassign-partitions.sh``
executes, throttled, a batch at a time): :class:`Plan`, :func:`batch_moves`.

The planner (:mod:`kpart.placement.planner`) builds plans; this module only holds them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from kpart.errors import ConfigError
from kpart.placement.reassign import Move
from kpart.placement.spec import Broker

__all__ = ["Plan", "batch_moves"]


@dataclass(frozen=True, slots=True)
class Plan:
    """A reassignment plan (a value: two plans are equal when every field is, and equal plans
    hash alike).

    ``current``/``target``: read-only ``{topic: {partition: replicas}}``; ``brokers``: the
    cluster after the change; ``moves``: one :class:`Move` per changed partition in
    ``compareTopicPartitions`` order; ``batches``: the same moves grouped so that no broker
    gains or loses a replica in more than ``K`` moves of a batch (leader-only moves last);
    ``replica_moves``: replicas changing broker; ``leader_changes``: partitions whose
    preferred leader changes; ``bytes_to_move``: sum of moved replicas' partition sizes
    (``None`` without sizes); ``hard_violations``: what still breaks a hard goal (empty when
    all hold); ``max_moves_reached``: the soft phase stopped at ``max_moves``.

    Built by :func:`kpart.placement.planner.plan` (and its siblings), never mutated: the same
    inputs give equal plans, which hash alike (a plan can key a dict or sit in a set).

    >>> from kpart.placement.planner import plan
    >>> cur = {"t": {0: (0, 1), 1: (1, 0)}}
    >>> a = plan(cur, [Broker(0), Broker(1)], add_brokers=[Broker(2)])
    >>> b = plan(cur, [Broker(0), Broker(1)], add_brokers=[Broker(2)])
    >>> a == b, hash(a) == hash(b), a is b
    (True, True, False)
    >>> a.replica_moves, a.replicas_per_broker()
    (1, ((0, 2), (1, 1), (2, 1)))
    """

    current: Mapping[str, Mapping[int, tuple[int, ...]]]
    target: Mapping[str, Mapping[int, tuple[int, ...]]]
    brokers: tuple[Broker, ...]
    moves: tuple[Move, ...]
    batches: tuple[tuple[Move, ...], ...]
    replica_moves: int
    leader_changes: int
    bytes_to_move: int | None = None
    hard_violations: tuple[tuple[str, int], ...] = ()
    max_moves_reached: bool = False

    def __hash__(self) -> int:
        # The read-only mappings do not hash; ``moves`` (the diff of current and target) and
        # the other fields do, and equal plans have equal ones.
        return hash((self.brokers, self.moves, self.batches, self.bytes_to_move,
                     self.hard_violations, self.max_moves_reached))

    def replicas_per_broker(self) -> tuple[tuple[int, int], ...]:
        """``(broker, replicas)`` in the target, every cluster broker included."""
        counts = {b.id: 0 for b in self.brokers}
        for parts in self.target.values():
            for reps in parts.values():
                for b in reps:
                    counts[b] = counts.get(b, 0) + 1
        return tuple(sorted(counts.items()))


def _freeze(
    a: Mapping[str, Mapping[int, Sequence[int]]],
) -> Mapping[str, Mapping[int, tuple[int, ...]]]:
    """A read-only copy of ``{topic: {partition: replicas}}`` with tuple replicas."""
    return MappingProxyType(
        {t: MappingProxyType({p: tuple(r) for p, r in ps.items()}) for t, ps in a.items()}
    )


def batch_moves(moves: Sequence[Move], k: int | None) -> tuple[tuple[Move, ...], ...]:
    """Order ``moves`` into batches where no broker gains or loses a replica in more than
    ``k`` moves (greedy, busiest brokers first); leader-only moves form the last batch.
    ``k=None``: one batch. Errors: ``ConfigError`` when ``k < 1``."""
    _check_at_least_one("k", k)
    if not moves:
        return ()
    if k is None:
        return (tuple(moves),)
    data = [m for m in moves if m.replica_moves]
    lead_only = [m for m in moves if not m.replica_moves]
    involved = {id(m): tuple(m.brokers) for m in data}
    busy: dict[int, int] = {}
    for m in data:
        for b in involved[id(m)]:
            busy[b] = busy.get(b, 0) + 1
    data.sort(key=lambda m: -max(busy[b] for b in involved[id(m)]))
    ptr: dict[int, int] = {}
    use: dict[int, dict[int, int]] = {}
    batches: list[list[Move]] = []
    for m in data:
        bs = involved[id(m)]
        j = max(ptr.get(b, 0) for b in bs)
        while any(use.get(b, {}).get(j, 0) >= k for b in bs):
            j += 1
        while len(batches) <= j:
            batches.append([])
        batches[j].append(m)
        for b in bs:
            u = use.setdefault(b, {})
            u[j] = u.get(j, 0) + 1
            p = ptr.get(b, 0)
            while u.get(p, 0) >= k:
                p += 1
            ptr[b] = p
    order = {(m.topic, m.partition): i for i, m in enumerate(moves)}
    out = [tuple(sorted(b, key=lambda m: order[(m.topic, m.partition)])) for b in batches]
    if lead_only:
        out.append(tuple(lead_only))
    return tuple(out)


def _check_at_least_one(parameter: str, value: int | None) -> None:
    """Refuse ``value < 1`` for ``parameter`` (``None`` means unlimited)."""
    if value is not None and value < 1:
        raise ConfigError.about(parameter, "Invalid {param} {value}: must be >= 1", value=value)
