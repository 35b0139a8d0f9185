"""Vectorised ``AdminUtils#assignReplicasToBrokers`` walk (numpy), private to
:mod:`kpart.placement.admin_utils` and checked against its scalar reference ``_walk``.

Partitions come in *blocks* of ``n`` consecutive ids (``c // n``): inside a block the replica
shift is constant (it grows by one at every multiple of ``n``) and the first replica runs
through every position once, ``first = (c + start_index) % n``. So follower ``j`` of a
rack-unaware partition sits at ``first + 1 + (shift + j) % (n - 1)``, one offset per block:
the whole placement is one broadcast add and one gather into the broker list written twice
(which replaces the final ``% n``).

Rack-aware placement walks the candidate offsets ``k = 0, 1, ...`` for all partitions at once:
each round tries one candidate per partition still looking for its current follower and
keeps the ones Kafka would skip (rack already used while some rack is unused, or broker
already used) for the next round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from kpart.placement.admin_utils import _Plan

__all__ = ["walk_array"]


def _blocks(plan: _Plan, n: int) -> tuple[int, int, np.ndarray, np.ndarray]:
    """``(lo, hi, first_row, shifts)``: rows ``lo:hi`` of the block grid are the partitions;
    ``first_row[i]`` is the first replica's position for the ``i``-th partition of any block,
    ``shifts[b]`` the replica shift of block ``b`` (Python ints, no overflow)."""
    start = plan.start_partition_id
    b_lo = start // n
    b_hi = (start + plan.num_partitions - 1) // n
    base = (max(start, 1) - 1) // n
    shifts = np.arange(b_lo, b_hi + 1, dtype=np.int64) + (plan.replica_shift - base)
    first_row = (np.arange(n, dtype=np.int64) + plan.start_index % n) % n
    lo = start - b_lo * n
    return lo, lo + plan.num_partitions, first_row, shifts


def walk_array(plan: _Plan) -> np.ndarray:
    """Replicas of every partition as an ``int64`` array ``(num_partitions, rf)``."""
    ids = np.asarray(plan.broker_list, dtype=np.int64)
    n = ids.size
    rf = plan.replication_factor
    lo, hi, first_row, shifts = _blocks(plan, n)
    if rf == 1 or plan.rack_of is None:
        offsets = np.zeros((shifts.size, rf), dtype=np.int64)
        for j in range(1, rf):
            offsets[:, j] = 1 + (shifts + (j - 1)) % (n - 1)
        # positions first + offset < 2n: index the broker list written twice
        index = first_row[None, :, None] + offsets[:, None, :]
        twice = np.concatenate([ids, ids])
        return twice[index.reshape(-1, rf)[lo:hi]]
    first = np.tile(first_row, shifts.size)[lo:hi]
    steps = np.repeat((shifts * plan.num_racks) % (n - 1), n)[lo:hi]
    positions = _rack_aware(plan, first, steps, n)
    return np.stack([ids[p] for p in positions], axis=1)


def _rack_aware(plan: _Plan, first: np.ndarray, steps: np.ndarray, n: int) -> list[np.ndarray]:
    """Positions (in the rack-alternated list) of every replica, one array per replica."""
    rf = plan.replication_factor
    num_racks = plan.num_racks
    rack_of = np.asarray(plan.rack_of, dtype=np.int32)
    rack2 = np.concatenate([rack_of, rack_of])
    pos2 = np.concatenate([np.arange(n, dtype=np.int32)] * 2)
    first = first.astype(np.int32)
    # t = (shift * num_racks + k) % (n - 1), advanced by one per candidate tried
    t = steps.astype(np.int32)
    positions = [first]
    racks = [rack2[first]]
    distinct = np.ones(first.size, dtype=np.int32) if rf > num_racks else None
    wrap = np.int32(n - 1)
    for j in range(1, rf):
        full = None if distinct is None or j < num_racks else distinct == num_racks
        got_pos = got_rack = np.empty(0, dtype=np.int32)  # set by the first round
        active: np.ndarray | None = None  # None: every partition
        while active is None or active.size:
            sel = slice(None) if active is None else active
            tt = t[sel]
            cand = first[sel] + 1 + tt
            crack = rack2[cand]
            cpos = pos2[cand]
            ok = np.ones(cand.size, dtype=bool)
            for i in range(j):
                ok &= racks[i][sel] != crack
            if full is not None:
                ok |= full[sel]
            for i in range(1, j):  # the candidate is never the first replica itself
                ok &= positions[i][sel] != cpos
            tt += 1
            tt[tt == wrap] = 0
            if active is None:
                t = tt
                got_pos, got_rack = cpos, crack
                active = np.flatnonzero(~ok)
            else:
                t[active] = tt
                done = active[ok]
                got_pos[done] = cpos[ok]
                got_rack[done] = crack[ok]
                active = active[~ok]
        if distinct is not None:
            new_rack = np.ones(first.size, dtype=bool)
            for i in range(j):
                new_rack &= racks[i] != got_rack
            distinct += new_rack
        positions.append(got_pos)
        racks.append(got_rack)
    return positions
