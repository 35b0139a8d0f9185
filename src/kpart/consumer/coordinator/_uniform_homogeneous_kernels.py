"""Compiled (numba) steps 3 and 4 of the homogeneous uniform builder on arrays (private).

:func:`deal_owners` is ``maybeRevokePartitions`` then ``assignRemainingPartitions`` of
``UniformHomogeneousAssignmentBuilder`` in one pass over the partitions, for
:func:`kpart.consumer.coordinator._uniform_homogeneous_arrays.homogeneous_columns` (which
computes the topic order and the quotas, and documents the steps). The kernel is compiled on
first use and cached on disk (``cache=True``): a process that finds numba's cache loads it.

>>> import numpy as np
>>> owner = np.full(5, -1, dtype=np.int32)
>>> deal_owners(np.array([0]), np.array([0, 5]), np.array([5]), np.array([1, 0]),
...             np.array([2, 3]), np.array([0, 0, 0]), np.array([4, 3, 2]), owner)
0
>>> owner.tolist()  # spec member 1 (first in map order) keeps 4, 3; spec member 0: 0, 1, 2
[0, 0, 0, 1, 1]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

__all__ = ["deal_owners"]

_F = TypeVar("_F", bound=Callable[..., Any])


def _compiled(**options: Any) -> Callable[[_F], _F]:
    """``numba.njit(**options)``, typed as the Python function it compiles."""
    return cast("Callable[[_F], _F]", njit(**options))


@_compiled(cache=True, nogil=True)
def _deal(topics: np.ndarray, offsets: np.ndarray, counts: np.ndarray, order: np.ndarray,
          quota: np.ndarray, member: np.ndarray, owned: np.ndarray, owner: np.ndarray) -> int:
    n = order.shape[0]
    remaining = quota.copy()
    taken = np.zeros(owner.shape[0], dtype=np.bool_)
    revoked = np.empty(owned.shape[0], dtype=np.int64)
    n_revoked = 0
    for k in range(owned.shape[0]):  # maybeRevokePartitions: the first `quota` are kept
        p = owned[k]
        m = member[k]
        taken[p] = True
        if remaining[m] > 0:
            remaining[m] -= 1
            owner[p] = order[m]
        else:
            revoked[n_revoked] = p
            n_revoked += 1
    m = 0  # assignRemainingPartitions: the unowned ones (topic order), then the revoked ones
    while m < n and remaining[m] == 0:
        m += 1
    left = 0
    for j in range(topics.shape[0]):
        t = topics[j]
        start = offsets[t]
        for p in range(start, start + counts[t]):
            if taken[p]:
                continue
            if m == n:
                left += 1
                continue
            owner[p] = order[m]
            remaining[m] -= 1
            while m < n and remaining[m] == 0:
                m += 1
    for k in range(n_revoked):
        if m == n:
            left += 1
            continue
        owner[revoked[k]] = order[m]
        remaining[m] -= 1
        while m < n and remaining[m] == 0:
            m += 1
    return left


def deal_owners(topics: np.ndarray, offsets: np.ndarray, counts: np.ndarray,
                order: np.ndarray, quota: np.ndarray, member: np.ndarray, owned: np.ndarray,
                owner: np.ndarray) -> int:
    """Fill ``owner`` (int32, one entry per partition index, ``-1`` on entry where nobody
    owns it yet) with spec positions, and return how many partitions no member could take
    (Kafka then throws). ``topics``: the subscribed topics (positions) in ``HashSet<Uuid>``
    order; ``offsets``/``counts``: the partition layout; ``order``: spec positions in
    ``GroupSpec.memberIds()`` order; ``quota``: each member's quota (map-order positions);
    ``member``/``owned``: the current assignment flattened (map-order position, partition
    index), grouped by member in map order, each member's partitions in its iteration
    order."""
    i64 = np.int64
    return int(_deal(np.ascontiguousarray(topics, dtype=i64),
                     np.ascontiguousarray(offsets, dtype=i64),
                     np.ascontiguousarray(counts, dtype=i64),
                     np.ascontiguousarray(order, dtype=i64),
                     np.ascontiguousarray(quota, dtype=i64),
                     np.ascontiguousarray(member, dtype=i64),
                     np.ascontiguousarray(owned, dtype=i64), owner))
