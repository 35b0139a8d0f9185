"""A reassignment plan as a value, and its batches (what ``kafka-reassign-partitions.sh``
executes, throttled, a batch at a time): :class:`Plan`, :func:`batch_moves`.

The planner (:mod:`kpart.placement.planner`) builds plans; this module only holds them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from types import MappingProxyType
from typing import TYPE_CHECKING

from kpart._java.strings import java_string_key
from kpart.errors import ConfigError
from kpart.placement.reassign import Move
from kpart.placement.spec import Broker

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import pyarrow as pa

__all__ = ["Plan", "batch_moves", "check_at_least_one", "freeze_assignment"]


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

    def to_arrow(self) -> pa.Table:
        """The plan as an Arrow table, one row per partition of :attr:`target`, in Kafka's
        ``compareTopicPartitions`` order (topics by ``String.compareTo``, then partitions: the
        order of :attr:`moves` and of the reassignment JSON).

        Columns: ``topic`` (string), ``partition`` (int32), ``current_replicas`` and
        ``target_replicas`` (list<int32>, preferred leader first; ``current_replicas`` is null
        for a partition :attr:`current` lacks), ``changed`` (bool: the two lists differ, i.e.
        the partition is in :attr:`moves` and the reassignment JSON), ``replica_moves`` (int32:
        replicas changing broker, 0 for a leader-only change), ``leader_change`` (bool: the
        preferred leader changes) and ``batch`` (int32: the 1-based batch of :attr:`batches` moving it,
        as in ``kpart plan``'s ``<out>.batch-001.json`` files; null when unchanged).

        Shape: one row per partition of the cluster (``sum(len(ps) for ps in
        target.values())``). The replica lists are read into flat int32 arrays in one pass
        and compared as arrays; only the batch numbers are read per :class:`Move`: no Python
        loop over partitions (about 0.12 s for 100,000 partitions of three replicas).

        >>> from kpart.placement.planner import plan
        >>> p = plan({"t": {0: (0, 1), 1: (1, 0)}}, [Broker(0), Broker(1)],
        ...          add_brokers=[Broker(2)])
        >>> p.to_arrow().to_pylist()  # doctest: +NORMALIZE_WHITESPACE
        [{'topic': 't', 'partition': 0, 'current_replicas': [0, 1], 'target_replicas': [0, 2],
          'changed': True, 'replica_moves': 1, 'leader_change': False, 'batch': 1},
         {'topic': 't', 'partition': 1, 'current_replicas': [1, 0], 'target_replicas': [1, 0],
          'changed': False, 'replica_moves': 0, 'leader_change': False, 'batch': None}]
        """
        import numpy as np
        import pyarrow as pa

        from kpart._arrow import (
            bool_array,
            flatten_lists,
            int32_array,
            list_array,
            numeric_array,
            string_array,
        )

        topics = sorted(self.target, key=java_string_key)
        rank = {t: i for i, t in enumerate(topics)}
        counts = [len(self.target[t]) for t in topics]
        n = sum(counts)
        tid = np.repeat(np.arange(len(topics), dtype=np.int64), counts)
        part = np.fromiter(chain.from_iterable(self.target[t] for t in topics), np.int64, n)
        target = flatten_lists(list(chain.from_iterable(self.target[t].values()
                                                         for t in topics)))
        current = flatten_lists(list(chain.from_iterable(
            _aligned(self.current.get(t), self.target[t]) for t in topics)))
        changed, replica_moves, leader_change = _differences(current, target)
        width = int(part.max(initial=0)) + 1
        key = tid * width + part  # (topic rank, partition) as one sortable int
        order = None if bool(np.all(key[1:] > key[:-1])) else np.argsort(key, kind="stable")
        sorted_key = key if order is None else key[order]
        sizes = [len(moves) for moves in self.batches]
        mk = np.fromiter((rank[m.topic] * width + m.partition
                          for moves in self.batches for m in moves), np.int64, sum(sizes))
        rows = np.searchsorted(sorted_key, mk)  # the row of each move, batch after batch
        batch = np.zeros(n, np.int32)
        batch[rows if order is None else order[rows]] = np.repeat(
            np.arange(1, len(sizes) + 1, dtype=np.int32), sizes)
        table = pa.table({
            "topic": string_array(topics).take(numeric_array(tid)),
            "partition": int32_array(part),
            "current_replicas": list_array(*current),
            "target_replicas": list_array(*target),
            "changed": bool_array(changed),
            "replica_moves": int32_array(replica_moves),
            "leader_change": bool_array(leader_change),
            "batch": int32_array(batch, null=batch == 0),
        })
        return table if order is None else table.take(numeric_array(order))


def _differences(current: _Lists, target: _Lists) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row of two lists of lists of one length (:func:`kpart._arrow.flatten_lists`' arrays):
    whether the lists differ (bool), how many of ``target``'s ids ``current`` lacks (int32:
    replicas moving, as :attr:`Move.replica_moves`) and whether their first ids differ (bool,
    as :attr:`Move.leader_change`); all three false/0 where ``current`` is null. Vectorised per
    pair of list lengths (one pair in a cluster of one replication factor)."""
    import numpy as np

    (c_off, c_val, c_null), (t_off, t_val, _) = current, target
    n = len(t_off) - 1
    c_len, t_len = np.diff(c_off), np.diff(t_off)
    present = np.ones(n, bool) if c_null is None else ~c_null
    changed, leader = np.zeros(n, bool), np.zeros(n, bool)
    moves = np.zeros(n, np.int32)
    wide = int(t_len.max(initial=0)) + 1
    for code in np.unique(c_len[present] * wide + t_len[present]).tolist():
        lc, lt = divmod(code, wide)
        rows = np.flatnonzero(present & (c_len == lc) & (t_len == lt))
        c2 = c_val[c_off[rows, None] + np.arange(lc)]
        t2 = t_val[t_off[rows, None] + np.arange(lt)]
        changed[rows] = (c2 != t2).any(axis=1) if lc == lt else True
        moves[rows] = (~(t2[:, :, None] == c2[:, None, :]).any(axis=2)).sum(axis=1)
        leader[rows] = c2[:, 0] != t2[:, 0] if lc and lt else bool(lc or lt)
    return changed, moves, leader


#: A list of lists as :func:`kpart._arrow.flatten_lists` gives it: offsets, values, null mask.
_Lists = tuple["np.ndarray", "np.ndarray", "np.ndarray | None"]


def _aligned(current: Mapping[int, tuple[int, ...]] | None,
             target: Mapping[int, tuple[int, ...]]) -> Sequence[tuple[int, ...] | None]:
    """``current``'s replicas of ``target``'s partitions, in ``target``'s order (``None`` where
    ``current`` lacks one); read as one list when both list the same partitions in the same
    order (a planner's plan: the target is the current assignment, updated)."""
    if current is None:
        return [None] * len(target)
    if len(current) == len(target) and list(current) == list(target):
        return list(current.values())
    return [current.get(p) for p in target]


def freeze_assignment(
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
    check_at_least_one("k", k)
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


def check_at_least_one(parameter: str, value: int | None) -> None:
    """Refuse ``value < 1`` for ``parameter`` (``None`` means unlimited)."""
    if value is not None and value < 1:
        raise ConfigError.about(parameter, "Invalid {param} {value}: must be >= 1", value=value)
