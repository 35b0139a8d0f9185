"""Each broker's replicas, kept in step with the moves (Cruise Control's ``Broker.replicas()``,
which every ``Broker`` of its ``ClusterModel`` keeps as a set): the goals ask which replicas
broker ``b`` holds many thousand times a plan, and scanning the whole ``(P, R)`` replica
array for each answer (``np.nonzero(pos == b)``) took seconds on a cluster of a million
partitions.

The index holds, per broker, the rows it held when it was built plus every row a move has
placed on it since (:meth:`BrokerReplicas.placed`, called by
:func:`~kpart.cluster.goals.relocation.relocate_replica`). That is a superset of the rows it
holds now — a move off a broker, a leadership change or a restored state never adds a row —
so every answer is checked against the replica array itself and is exactly the scan's.

>>> import numpy as np
>>> pos = np.array([[0, 1], [1, 2], [2, 0]], dtype=np.int32)
>>> held = BrokerReplicas()
>>> rows, slots = held.on(pos, 0); rows.tolist(), slots.tolist()
([0, 2], [0, 1])
>>> pos[0, 0] = 2; held.placed(np.array([0]), 2)   # partition 0's leader moves to broker 2
>>> held.on(pos, 0)[0].tolist(), held.on(pos, 2)[0].tolist()
([2], [0, 1, 2])
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["BrokerReplicas"]

#: Rows placed since the last build, over the replicas, past which the index is rebuilt.
_REBUILD_SHARE = 0.05


@dataclass(eq=False)
class BrokerReplicas:
    """Per broker, the rows (partitions) whose replicas it may hold (module docstring); built
    from the replica array at the first question."""

    #: The rows of every broker, broker by broker, each broker's ascending.
    rows: np.ndarray | None = None
    #: ``starts[b]:starts[b + 1]``: broker ``b``'s part of :attr:`rows`.
    starts: np.ndarray | None = None
    #: Rows placed on each broker since the build, not yet in :attr:`placed_sorted`.
    since: dict[int, list[int]] = field(default_factory=dict)
    #: Rows placed on each broker since the build, ascending and unique.
    placed_sorted: dict[int, np.ndarray] = field(default_factory=dict)
    #: Per broker, its built rows and those placed since, merged (until the next placement).
    merged: dict[int, np.ndarray] = field(default_factory=dict)
    placed_count: int = 0

    def placed(self, rows: np.ndarray | list[int] | tuple[int, ...], dst: int) -> None:
        """Record that replicas of ``rows`` were placed on broker position ``dst``."""
        if self.rows is None:
            return  # not built yet: the build reads the replica array as it is then
        add = self.since.setdefault(int(dst), [])
        add.extend(int(r) for r in rows)
        self.merged.pop(int(dst), None)
        self.placed_count += len(rows)

    def _build(self, pos: np.ndarray) -> None:
        held = pos >= 0
        rows = np.nonzero(held)[0]
        brokers = pos[held]
        small = brokers.astype(np.int16) if pos.max(initial=0) < 2**15 else brokers
        order = np.argsort(small, kind="stable")  # a radix sort; rows stay ascending
        self.rows = rows[order]
        count = np.bincount(brokers, minlength=int(pos.max(initial=-1)) + 1)
        self.starts = np.concatenate([[0], np.cumsum(count)])
        self.since, self.placed_sorted, self.merged = {}, {}, {}
        self.placed_count = 0

    def _placed_on(self, b: int) -> np.ndarray:
        """Ascending unique rows placed on ``b`` since the build."""
        done = self.placed_sorted.get(b)
        more = self.since.pop(b, None)
        if more:
            fresh = np.asarray(more, dtype=np.int64)
            done = np.unique(fresh if done is None else np.concatenate([done, fresh]))
            self.placed_sorted[b] = done
        return np.empty(0, np.int64) if done is None else done

    def candidates(self, pos: np.ndarray, b: int, lo: int = 0,
                   hi: int | None = None) -> np.ndarray:
        """Ascending unique rows in ``[lo, hi)`` broker ``b`` may hold (a superset of those
        it holds)."""
        if self.rows is None or self.placed_count > _REBUILD_SHARE * pos.size:
            self._build(pos)
        rows = self.merged.get(b)
        if rows is None:
            rows = self.merged[b] = self._merge(b)
        if lo or hi is not None:
            end = len(pos) if hi is None else hi
            rows = rows[np.searchsorted(rows, lo):np.searchsorted(rows, end)]
        return rows

    def _merge(self, b: int) -> np.ndarray:
        """Broker ``b``'s built rows and those placed on it since, ascending and unique."""
        assert self.rows is not None and self.starts is not None
        base = (self.rows[self.starts[b]:self.starts[b + 1]] if b + 1 < len(self.starts)
                else self.rows[:0])
        extra = self._placed_on(b)
        if not len(extra):
            return base
        if len(base):  # rows placed back on ``b`` are in ``base`` already
            at = np.minimum(np.searchsorted(base, extra), len(base) - 1)
            extra = extra[base[at] != extra]
        if not len(extra):
            return base
        # two ascending runs: the stable sort (a merge) keeps it linear
        return np.sort(np.concatenate([base, extra]), kind="stable")

    def on(self, pos: np.ndarray, b: int, first: int = 0,
           lo: int = 0, hi: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(rows, slots)`` of broker ``b``'s replicas in ``pos`` (int ``(P, R)``, ``-1``
        padding), slots ``first`` and up only (1: followers), rows in ``[lo, hi)`` only: the
        same arrays, in the same order, as ``np.nonzero(pos[lo:hi, first:] == b)`` with
        ``lo`` and ``first`` added back."""
        cand = self.candidates(pos, b, lo, hi)
        hit = pos[cand] == b
        keep = hit[:, first:].any(axis=1)
        rows = cand[keep]
        slots = np.argmax(hit[keep], axis=1)
        return rows, slots.astype(np.intp)
