"""Compiled (numba) kernels of :class:`kpart.consumer._columns.AssignmentColumns` (private).

:func:`owner_rows` is ``AssignmentColumns.rows`` in one pass: a counting sort of the partition
indices by owner (stable, so each member's partitions stay in index order: topic, then
partition), writing each row's member, topic and partition at once. The kernels are compiled
on first use and cached on disk (``cache=True``): a process that finds numba's cache loads them
instead of compiling.

>>> import numpy as np
>>> m, t, p = owner_rows(np.array([1, 0, -1, 1], dtype=np.int32), 2,
...                      np.array([3, 1], dtype=np.int64))
>>> m.tolist(), t.tolist(), p.tolist()
([0, 1, 1], [0, 0, 1], [1, 0, 0])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

__all__ = ["owner_rows"]

_F = TypeVar("_F", bound=Callable[..., Any])


def _compiled(**options: Any) -> Callable[[_F], _F]:
    """``numba.njit(**options)``, typed as the Python function it compiles."""
    return cast("Callable[[_F], _F]", njit(**options))


@_compiled(cache=True, nogil=True)
def _owner_rows(owner: np.ndarray, n_members: int, counts: np.ndarray,
                member: np.ndarray, topic: np.ndarray, partition: np.ndarray) -> None:
    start = np.zeros(n_members + 1, dtype=np.int64)
    for i in range(owner.shape[0]):
        start[owner[i] + 1] += 1
    # start[m + 1] (m >= 0): the first row of member m; nobody's (-1) partitions have no row
    total = np.int64(0)
    for m in range(1, n_members + 1):
        held = start[m]
        start[m] = total
        total += held
    i = 0
    for t in range(counts.shape[0]):
        for p in range(counts[t]):
            o = owner[i]
            i += 1
            if o < 0:
                continue
            r = start[o + 1]
            start[o + 1] = r + 1
            member[r] = o
            topic[r] = t
            partition[r] = p


def owner_rows(owner: np.ndarray, n_members: int,
               counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(member, topic, partition)`` int32 arrays, one entry per held partition, sorted by
    member, then partition index (topic, then partition): ``owner`` (int32, ``-1`` nobody)
    holds each partition index's member, ``counts`` (int64) each topic's partitions, in the
    layout of :class:`~kpart.consumer._columns.AssignmentColumns`."""
    held = int(np.count_nonzero(owner >= 0))
    member = np.empty(held, dtype=np.int32)
    topic = np.empty(held, dtype=np.int32)
    partition = np.empty(held, dtype=np.int32)
    _owner_rows(np.ascontiguousarray(owner, dtype=np.int32), n_members,
                np.ascontiguousarray(counts, dtype=np.int64), member, topic, partition)
    return member, topic, partition
