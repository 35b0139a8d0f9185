"""Vectorised ``AdminUtils#assignReplicasToBrokers`` walk (numpy), private to
:mod:`kpart.placement.admin_utils`, checked against its scalar reference ``_walk``.

Rack-unaware placement is closed-form per partition ``c``:
``shift(c) = shift0 + c // n - (max(start, 1) - 1) // n`` (one increment per wrap of the broker
list since the start partition), ``first = (c + start_index) % n`` and follower ``j`` at
``(first + 1 + (shift + j) % (n - 1)) % n``. Rack-aware placement walks candidate offsets
``k = 0, 1, ...`` for all partitions at once, each round only over the partitions still
looking for their current follower.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from kpart.placement.admin_utils import _Plan

__all__ = ["walk_array"]


def _shifts(plan: _Plan, current: np.ndarray, n: int) -> np.ndarray:
    base = (max(plan.start_partition_id, 1) - 1) // n
    return plan.replica_shift + (current // n - base)


def walk_array(plan: _Plan) -> np.ndarray:
    """Replicas of every partition as an ``int64`` array ``(num_partitions, rf)``."""
    ids = np.asarray(plan.broker_list, dtype=np.int64)
    n = ids.size
    rf = plan.replication_factor
    count = plan.num_partitions
    current = np.arange(plan.start_partition_id, plan.start_partition_id + count,
                        dtype=np.int64)
    shift = _shifts(plan, current, n)
    first = (current + plan.start_index) % n
    pos = np.empty((count, rf), dtype=np.int64)
    pos[:, 0] = first
    if rf > 1:
        if plan.rack_of is None:
            for j in range(rf - 1):
                pos[:, j + 1] = (first + 1 + (shift + j) % (n - 1)) % n
        else:
            _rack_aware(plan, pos, first, shift * plan.num_racks, n)
    return ids[pos]


def _rack_aware(plan: _Plan, pos: np.ndarray, first: np.ndarray, shift: np.ndarray,
                n: int) -> None:
    rack_of = np.asarray(plan.rack_of, dtype=np.int64)
    num_racks = plan.num_racks
    count, rf = pos.shape
    racks = np.full((count, rf), -1, dtype=np.int64)
    racks[:, 0] = rack_of[first]
    distinct_racks = np.ones(count, dtype=np.int64)
    k = np.zeros(count, dtype=np.int64)
    base = first + 1  # candidate position = (base + (shift + k) % (n - 1)) % n
    for j in range(1, rf):
        active = np.arange(count)
        a_base, a_shift = base, shift
        while active.size:
            ka = k[active]
            cand = (a_base + (a_shift + ka) % (n - 1)) % n
            k[active] = ka + 1
            crack = rack_of[cand]
            rack_seen = (racks[active, :j] == crack[:, None]).any(axis=1)
            broker_seen = (pos[active, :j] == cand[:, None]).any(axis=1)
            # Brokers are distinct and rf <= n, so a broker already holding a replica is
            # always skipped (Kafka's "or every broker holds one" never applies).
            ok = ~broker_seen & (~rack_seen | (distinct_racks[active] == num_racks))
            done = active[ok]
            pos[done, j] = cand[ok]
            racks[done, j] = crack[ok]
            distinct_racks[done] += ~rack_seen[ok]
            keep = ~ok
            active = active[keep]
            a_base = a_base[keep]
            a_shift = a_shift[keep]
