"""Leadership for the network-out, leader-count and leader-bytes-in goals, without moving
data (Cruise Control's ``LEADERSHIP_MOVEMENT`` actions of ``NetworkOutboundUsageDistributionGoal``,
``LeaderReplicaDistributionGoal`` and ``LeaderBytesInDistributionGoal``, as one pass).

Only the leader (which replica comes first) changes, so no goal of disk, replicas or network
in can change. Partitions are taken heaviest first (by leader network out); each is led by the
replica whose broker, after taking it, has the lowest of its normalised network out, leader
count and leader bytes-in (each divided by that broker's fair share), never above the
network-out capacity threshold nor above 1.09 × the mean leader count when another replica
can lead, and the current leader kept unless another scores 2 % better — a
longest-processing-time greedy that balances the heavy partitions by bytes and the many light
ones by count.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kpart.cluster.goals import GoalState

__all__ = ["assign_leaders"]


@njit(cache=True)
def _choose(pos: np.ndarray, order: np.ndarray, lead_out: np.ndarray, rate_in: np.ndarray,
            shares: np.ndarray, limit_out: np.ndarray, allowed: np.ndarray,
            params: np.ndarray) -> np.ndarray:  # pragma: no cover
    share_out, share_lead, share_in = shares[0], shares[1], shares[2]
    count_weight, lead_cap = params[0], params[1]
    b = len(share_out)
    out = np.zeros(b)
    lead = np.zeros(b)
    lin = np.zeros(b)
    slot = np.zeros(len(pos), np.int32)
    for i in order:
        best, best_score, best_over = -1, np.inf, True
        for k in range(pos.shape[1]):
            x = pos[i, k]
            if x < 0 or not allowed[x]:
                continue
            over = out[x] + lead_out[i] > limit_out[x] or lead[x] + 1.0 > lead_cap
            score = max((out[x] + lead_out[i]) / share_out[x],
                        count_weight * (lead[x] + 1.0) / share_lead[x],
                        count_weight * (lin[x] + rate_in[i]) / share_in[x])
            if k > 0:  # keep the current leader unless another is clearly better
                score = score * params[2] + 1e-9 * k
            if (best_over and not over) or (over == best_over and score < best_score):
                best, best_score, best_over = k, score, over
        if best < 0:
            best = 0
        slot[i] = best
        x = pos[i, best]
        out[x] += lead_out[i]
        lead[x] += 1.0
        lin[x] += rate_in[i]
    return slot


def assign_leaders(s: GoalState, count_weight: float = 1.0, lead_slack: float = 1.09) -> int:
    """Choose every partition's leader as the module docstring says and apply it to ``s``
    (slot 0 of :attr:`GoalState.pos`). Returns the number of partitions whose leader changed."""
    allowed = s.allowed
    n_allowed = max(int(allowed.sum()), 1)
    cap = np.where(np.isfinite(s.cap_out), s.cap_out, 1.0)
    if not np.isfinite(s.cap_out[allowed]).all():
        cap = np.ones_like(cap)
    tiny = 1e-300

    def share(total: float, weights: np.ndarray) -> np.ndarray:
        w = np.where(allowed, weights, 0.0)
        out: np.ndarray = np.maximum(total * w / max(float(w.sum()), tiny), tiny)
        return out

    ones = np.ones(len(allowed))
    share_out = share(float(s.lead_out.sum()), cap)
    share_lead = share(float(len(s.pos)), ones)
    share_in = share(float(s.rate_in.sum()), ones)
    limit = s.cap_out * s.thresholds.capacity
    order = np.argsort(-s.lead_out, kind="stable")
    params = np.array([count_weight, np.floor(len(s.pos) / n_allowed * lead_slack), 1.02])
    slot = _choose(s.pos, order, s.lead_out, s.rate_in,
                   np.stack([share_out, share_lead, share_in]), limit, allowed, params)
    rows = np.flatnonzero(slot)
    if len(rows):
        first = s.pos[rows, 0].copy()
        s.pos[rows, 0] = s.pos[rows, slot[rows]]
        s.pos[rows, slot[rows]] = first
    b = len(allowed)
    lead = s.pos[:, 0]
    s.leaders[:] = np.bincount(lead, minlength=b)
    s.nw_out[:] = np.bincount(lead, weights=s.lead_out, minlength=b)
    s.lead_in[:] = np.bincount(lead, weights=s.rate_in, minlength=b)
    return len(rows)
