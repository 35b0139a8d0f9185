"""Who leads after a failure: the order of followers, for kpart's
:class:`~kpart.cluster.goals.BrokerFailureCapacityGoal` (not a Cruise Control goal).

Kafka (unclean election off) hands a dead leader's partitions to the first live in-sync
replica in replica order (:mod:`kpart.cluster.broker_outage`). With the target all in sync, that is
the first follower outside the failure: the follower order decides which broker takes a
leadership when the leader's broker or rack stops, and changing it moves no data, changes no
leader and no replica set (no other goal sees it). :func:`order_followers` estimates, for
every single-broker and single-rack failure, the network out each survivor takes over (a
partition's full leader network out, an upper bound: replication to the dead follower stops)
and, for each survivor it would push over the capacity threshold, puts another live follower
with room first, heaviest partitions first. The goal's violations are counted exactly (by
:func:`kpart.cluster.broker_outage.outage_all`) afterwards; what reordering cannot fix stays.
"""

from __future__ import annotations

import numpy as np

from kpart.cluster.goals.state import GoalState

__all__ = ["order_followers"]


def _failover(pos: np.ndarray, row: int, dead: np.ndarray) -> int:
    """The first follower of ``row`` not ``dead`` (bool per broker position), or -1."""
    for b in pos[row, 1:].tolist():
        if b >= 0 and not dead[b]:
            return int(b)
    return -1


class _Failures:
    """Failures by index: broker positions ``0..B-1`` alone, then the racks (codes >= 0)."""

    def __init__(self, s: GoalState) -> None:
        self.b = len(s.rack)
        self.racks = np.unique(s.rack[s.rack >= 0])
        self.rack_index = {int(r): self.b + i for i, r in enumerate(self.racks.tolist())}
        self.rack = s.rack

    def dead(self, f: int) -> np.ndarray:
        if f < self.b:
            out = np.zeros(self.b, dtype=bool)
            out[f] = True
            return out
        return np.asarray(self.rack == self.racks[f - self.b])

    def of_leader(self, a: int) -> list[int]:
        """The failures that stop broker position ``a``."""
        rk = int(self.rack[a])
        return [a] if rk < 0 else [a, self.rack_index[rk]]


def order_followers(s: GoalState, rounds: int = 4) -> int:
    """Reorder followers in ``s.pos`` (slot 0, the leader, stays) as the module docstring
    says. Returns the partitions reordered."""
    fl = _Failures(s)
    n_f = fl.b + len(fl.racks)
    limit = np.where(np.isfinite(s.cap_out), s.cap_out * s.thresholds.capacity, np.inf)
    if (s.pot_out <= limit).all():  # no failover can add more than a broker's followers
        return 0
    dead = [fl.dead(f) for f in range(n_f)]
    extra = np.zeros((fl.b, n_f))
    target: dict[tuple[int, int], int] = {}
    for row in np.flatnonzero(s.pos[:, 0] >= 0).tolist():
        for f in fl.of_leader(int(s.pos[row, 0])):
            x = _failover(s.pos, row, dead[f])
            if x >= 0:
                extra[x, f] += s.lead_out[row]
                target[row, f] = x
    changed: set[int] = set()
    for _ in range(rounds):
        over = np.argwhere(s.nw_out[:, None] + extra > limit[:, None] * (1 + 1e-12))
        if not len(over):
            break
        for x, f in over.tolist():
            _relieve(s, fl, dead, extra, target, limit, (x, f), changed)
    return len(changed)


def _relieve(s: GoalState, fl: _Failures, dead: list[np.ndarray], extra: np.ndarray,
             target: dict[tuple[int, int], int], limit: np.ndarray, xf: tuple[int, int],
             changed: set[int]) -> None:
    x, f = xf
    rows = [r for (r, g), t in target.items() if g == f and t == x]
    rows.sort(key=lambda r: -float(s.lead_out[r]))
    for row in rows:
        if s.nw_out[x] + extra[x, f] <= limit[x]:
            return
        w = float(s.lead_out[row])
        for slot in range(2, s.pos.shape[1]):
            z = int(s.pos[row, slot])
            if z < 0 or dead[f][z]:
                continue
            trial = s.pos[row].copy()
            first = int(np.flatnonzero(trial == x)[0])
            trial[first], trial[slot] = trial[slot], trial[first]
            moves = {g: _failover(trial[None, :], 0, dead[g])
                     for g in fl.of_leader(int(trial[0]))}
            fits = all(t < 0 or t == target.get((row, g)) or
                       s.nw_out[t] + extra[t, g] + w <= limit[t] for g, t in moves.items())
            if not fits:
                continue
            for g, t in moves.items():
                old = target.pop((row, g), -1)
                if old >= 0:
                    extra[old, g] -= w
                if t >= 0:
                    extra[t, g] += w
                    target[row, g] = t
            s.pos[row] = trial
            changed.add(row)
            break
