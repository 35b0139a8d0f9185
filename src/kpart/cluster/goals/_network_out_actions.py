"""The steps of :mod:`kpart.cluster.goals._network_out_rebalance` share these: per-broker limits, a
leadership or replica move with its undo, and the leader-count repair that keeps every
broker's leader count in its band after a step (Cruise Control's
``NetworkOutboundUsageDistributionGoal`` keeps ``LeaderReplicaDistributionGoal`` by its
own acceptance; kpart repairs with the leadership of a light partition).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from kpart.cluster.goals.goal import Goal
from kpart.cluster.goals.relocation import accepted, relocate_leadership, relocate_replica
from kpart.cluster.goals.resource_distribution import ResourceDistributionGoal
from kpart.cluster.goals.state import GoalState

#: Candidates tried per step (partitions) and per partition (receiving brokers).
ROWS = 48
_DSTS = 12

Undo = list[Callable[[], None]]


def spreads_network_out(g: Goal) -> bool:
    """Whether ``g`` is the network-out distribution goal (Cruise Control's
    ``NetworkOutboundUsageDistributionGoal``)."""
    return isinstance(g, ResourceDistributionGoal) and g.resource == "nw_out"


@dataclass(frozen=True)
class BrokerLimits:
    """Absolute per-broker limits: network out aimed at ``[lo, hi]``, kept within the
    threshold band ``[lo_t, hi_t]``; leader count ``[clo, chi]``; leader bytes-in ``≤ lin``."""

    lo: np.ndarray
    hi: np.ndarray
    lo_t: np.ndarray
    hi_t: np.ndarray
    clo: float
    chi: float
    lin: np.ndarray
    #: Network out no broker may pass
    #: (:func:`kpart.cluster.load.network_out_ceiling`): the most-utilized broker ends
    #: no further above the mean than before the plan.
    top: np.ndarray


@dataclass(frozen=True, eq=False)
class StepContext:
    r"""What one step for one broker works with: the broker ``lim``\ its, the ``guards`` every
    move keeps, the ``light`` rows a leader-count repair may bring over (the lightest
    partitions, by bytes and network out), and ``failed``: the leader-count repairs (take?,
    broker) already found impossible in this step (filled as the step goes)."""

    lim: BrokerLimits
    guards: Sequence[Goal]
    light: np.ndarray
    failed: set[tuple[bool, int]] = field(default_factory=set)


def pass_leadership(s: GoalState, row: int, slot: int, undo: Undo) -> None:
    relocate_leadership(s, row, slot)
    undo.append(lambda: relocate_leadership(s, row, slot))


def move_replica(s: GoalState, row: int, slot: int, dst: int, undo: Undo) -> None:
    src = int(s.pos[row, slot])
    relocate_replica(s, row, slot, dst)
    undo.append(lambda: relocate_replica(s, row, slot, src))


def undo_all(undo: Undo) -> None:
    while undo:
        undo.pop()()


def heavy_partitions(s: GoalState, lim: BrokerLimits) -> np.ndarray:
    """bool ``(P,)``: the partitions whose network out as leader alone is above their
    leader's band top (whoever leads one stays over the band: the verifier's floor)."""
    lead = s.pos[:, 0]
    out: np.ndarray = (lead >= 0) & (s.lead_out > lim.hi_t[np.maximum(lead, 0)])
    return out


def lead_ok(s: GoalState, row: int, old: int, new: int, guards: Sequence[Goal]) -> bool:
    return all(g.accepts_leader(s, row, old, new) for g in guards)


def lead_moved(s: GoalState, row: int, k: int, old: int, new: int, guards: Sequence[Goal],
                undo: Undo) -> bool:
    """After the replica in slot ``k`` of ``row`` moved to ``new``: from a follower's slot
    (``k`` > 0) it takes the leadership from ``old`` when the guards accept that; ``False``
    when they do not (the caller rolls back). Slot 0 (the leader replica itself) leads on."""
    if not k:
        return True
    if not lead_ok(s, row, old, new, guards):
        return False
    pass_leadership(s, row, k, undo)
    return True


def take_one(s: GoalState, x: int, limit: float, lim: BrokerLimits, guards: Sequence[Goal],
              light: np.ndarray, undo: Undo) -> float:
    """``x`` takes the leadership of one light partition from a broker with a leader to
    spare (network out of ``x`` staying ≤ ``limit``). Returns the bytes moved, -1 for none."""
    rows, slots = s.replicas_on(x, first=1)
    order = np.argsort(s.lead_out[rows], kind="stable")[:256]
    for row, k in zip(rows[order].tolist(), slots[order].tolist(), strict=True):
        g, w = int(s.pos[row, 0]), float(s.lead_out[row])
        if s.nw_out[x] + w > limit:
            break
        if (s.leaders[g] - 1 >= lim.clo and s.nw_out[g] - w >= lim.lo_t[g]
                and s.lead_in[x] + s.rate_in[row] <= lim.lin[x]
                and lead_ok(s, row, g, x, guards)):
            pass_leadership(s, row, k, undo)
            return 0.0
    for row in light.tolist():  # no shared partition will do: bring one over (a few bytes)
        g = int(s.pos[row, 0])
        w = float(s.lead_out[row])
        if (g < 0 or (s.pos[row] == x).any() or s.leaders[g] - 1 < lim.clo
                or s.nw_out[x] + w > limit or s.nw_out[g] - w < lim.lo_t[g]):
            continue
        for k in range(1, s.pos.shape[1]):
            f = int(s.pos[row, k])
            if f >= 0 and accepted(guards, s, row, f, x):
                move_replica(s, row, k, x, undo)
                if lead_moved(s, row, k, g, x, guards, undo):
                    return float(s.size[row])
                undo.pop()()
    return -1.0


def _give_one(s: GoalState, x: int, floor: float, lim: BrokerLimits, guards: Sequence[Goal],
              undo: Undo) -> float:
    """``x`` passes the leadership of one light partition it leads to a follower with room
    for one more leader (network out of ``x`` staying ≥ ``floor``); when no follower has
    room, one moves to a broker that has. Returns the bytes moved, -1 for none."""
    rows = s.leads(x)
    rows = rows[np.argsort(s.lead_out[rows], kind="stable")][:256]
    for row in rows.tolist():
        w = float(s.lead_out[row])
        if s.nw_out[x] - w < floor:
            break
        for k in range(1, s.pos.shape[1]):
            f = int(s.pos[row, k])
            if (f >= 0 and s.allowed[f] and s.leaders[f] + 1 <= lim.chi
                    and s.nw_out[f] + w <= lim.hi_t[f]
                    and s.lead_in[f] + s.rate_in[row] <= lim.lin[f]
                    and lead_ok(s, row, x, f, guards)):
                pass_leadership(s, row, k, undo)
                return 0.0
    room = np.flatnonzero(s.allowed & (s.leaders + 1 <= lim.chi))
    room = room[np.argsort(s.leaders[room], kind="stable")][:_DSTS].tolist()
    for row in rows[:16].tolist():  # no follower will do: move one to a broker with room
        w = float(s.lead_out[row])
        if s.nw_out[x] - w < floor:
            break
        for d in room:
            if (s.pos[row] == d).any() or s.nw_out[d] + w > lim.hi_t[d]:
                continue
            for k in range(1, s.pos.shape[1]):
                f = int(s.pos[row, k])
                if f >= 0 and accepted(guards, s, row, f, d):
                    move_replica(s, row, k, d, undo)
                    if lead_moved(s, row, k, x, d, guards, undo):
                        return float(s.size[row])
                    undo.pop()()
    return -1.0


def keep_leader_counts(s: GoalState, gave: int, took: int, before: tuple[int, int], w: float,
                       ctx: StepContext, undo: Undo) -> float:
    """Leader counts back in band after ``gave`` passed a leadership of network out ``w`` to
    ``took``, for a broker that was inside it (one already outside may go further: the
    goal's violations do not grow) (``before``: their counts before; each may hand back at
    most half of ``w`` in
    the repair). Returns the bytes moved, -1 when it cannot (the caller
    undoes)."""
    lim, every, light, failed = ctx.lim, ctx.guards, ctx.light, ctx.failed
    # network out is kept by ``limit`` and the bands here: its goal would refuse any light
    # leadership to a broker still over its band, which this repair must allow
    guards = [g for g in every if not spreads_network_out(g)]
    spent = 0.0
    if s.leaders[gave] < lim.clo <= before[0]:
        if (True, gave) in failed:
            return -1.0
        limit = max(float(lim.hi_t[gave]), float(s.nw_out[gave]) + w / 2)
        got = take_one(s, gave, limit, lim, guards, light, undo)
        if got < 0:
            failed.add((True, gave))
            return -1.0
        spent += got
    if before[1] <= lim.chi < s.leaders[took]:
        floor = min(float(lim.lo_t[took]), float(s.nw_out[took]) - w / 2)
        got = -1.0 if (False, took) in failed else _give_one(s, took, floor, lim, guards,
                                                            undo)
        if got < 0:
            failed.add((False, took))
            return -1.0
        spent += got
    return spent


def cheapest(size: np.ndarray, useful: np.ndarray, need: float) -> np.ndarray:
    """The first :data:`ROWS` candidates by bytes per byte/s of the relief needed (in bins
    of about 9 %, so that among about equally cheap ones the one relieving most comes
    first), leaving out those relieving under 1/16 of it."""
    idx = np.flatnonzero(useful >= need / 16)
    cost = np.round(8 * np.log2(np.maximum(size[idx], 1.0) / useful[idx]))
    key = cost - 0.5 * useful[idx] / max(need, 1e-300)
    if len(idx) > ROWS:
        part = np.argpartition(key, ROWS)[:ROWS]
        idx, key = idx[part], key[part]
    out: np.ndarray = idx[np.argsort(key, kind="stable")]
    return out


def receivers(s: GoalState, w: float, rin: float, lim: BrokerLimits) -> np.ndarray:
    """Brokers that can take a leadership of network out ``w``: the farthest under their
    band first, then by network out relative to the band's top."""
    ok = s.allowed & (s.nw_out + w <= lim.hi) & (s.lead_in + rin <= lim.lin)
    cand = np.flatnonzero(ok)
    key = np.where(s.nw_out[cand] < lim.lo[cand], s.nw_out[cand] - lim.lo[cand],
                   s.nw_out[cand]) / lim.hi[cand]
    out: np.ndarray = cand[np.argsort(key, kind="stable")][:_DSTS]
    return out
