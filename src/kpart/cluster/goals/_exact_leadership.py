"""The leadership goals finished exactly where the greedy steps stop, without moving data
(Cruise Control's ``LEADERSHIP_MOVEMENT`` actions of ``NetworkOutboundUsageDistributionGoal``,
``LeaderReplicaDistributionGoal`` and ``LeaderBytesInDistributionGoal``), as a small
mixed-integer program solved by HiGHS (:func:`scipy.optimize.milp`).

The descent, the chains and the replica moves before it (:mod:`kpart.cluster.goals._leadership_movement`,
:mod:`kpart.cluster.goals._leadership_chains`, :mod:`kpart.cluster.goals._network_out_rebalance`) leave most
brokers at the very edge of their bands, so what is left needs several leaderships passed at
once among brokers none of which may lose or gain alone (on #1592's shape, adding ten
brokers: broker 55 under the network-out band, lifted by eleven heavy leaderships passed
among twelve brokers).
A program finds such a set where a search over chains does not:

- variables: for each of the ``heavy`` partitions heaviest by network out or by bytes-in,
  and the ``light`` lightest that each broker outside a band leads and follows, one binary a
  replica (1: that replica leads); one binary a (goal, broker) outside the goal's band
  (1: it stays outside);
- every partition has one leader; a broker inside a band stays inside it, one outside may
  come in (its binary 0: inside the band) or stay out, never further from the band (in
  the spirit of Cruise Control's ``ResourceDistributionGoal.actionAcceptance``, which takes
  a lower goal's action on a broker outside its limits only when it leaves the brokers no
  more unbalanced); network out never over the
  ``NetworkOutboundCapacityGoal`` limit; leaders only on allowed brokers (a removed broker
  keeps a leadership it has);
- objective: the fewest brokers outside the bands, by goal priority (a violation of a higher
  goal outweighs any number of a lower one's), then the fewest leaderships passed.

So no broker enters a violation and no goal's violations grow: a lower goal never undoes a
higher one. The result is kept only when the goals' own counts
(:meth:`~kpart.cluster.goals.ResourceDistributionGoal.violations`) confirm it. The solver is bounded
by a count of work, never by the clock: at most ``nodes`` branch-and-bound nodes (HiGHS's
``mip_max_nodes``, scipy's ``node_limit``), and its best answer by then is used, so the same
input gives the same plan on a slow or busy machine (a wall-clock limit would stop it at a
different node there). The programs this module builds close in a few nodes: one on #1592's
shape, at most 23 on hundreds of random small clusters; :data:`NODE_LIMIT` is far above.

Worked example: three brokers with the network-out band [9, 11] (mean 10); ``a`` leads
``p`` (weight 4, followed by ``b``) and 9 more, so 13; ``b`` leads ``q`` (4, followed by
``c``) and 6, so 10; ``c`` leads 7. The program passes ``p`` to ``b`` and ``q`` to ``c``:
9, 10, 11, all inside, two leaderships passed.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import coo_array

from kpart.cluster.goals.capacity import CapacityGoal
from kpart.cluster.goals.goal import Goal
from kpart.cluster.goals.relocation import relocate_leaderships
from kpart.cluster.goals.resource_distribution import ResourceDistributionGoal
from kpart.cluster.goals.state import GoalState

__all__ = ["LEADERSHIP_RESOURCES", "NODE_LIMIT", "leadership_goals", "program_leaders"]

#: The per-broker loads of the goals the program weighs (the network-out, leader-count and
#: leader bytes-in distribution goals), the only loads a leadership change moves.
LEADERSHIP_RESOURCES = ("nw_out", "leaders", "lead_in")


def leadership_goals(goals: Sequence[Goal]) -> list[ResourceDistributionGoal]:
    """The distribution goals of ``goals`` (in their order) whose resource is one of
    :data:`LEADERSHIP_RESOURCES`."""
    return [g for g in goals
            if isinstance(g, ResourceDistributionGoal) and g.resource in LEADERSHIP_RESOURCES]
#: The branch-and-bound nodes a program may take (a count of work, so that the plan does not
#: depend on the machine's speed or load; the module docstring).
NODE_LIMIT = 1000
#: The share of a band's width a broker is kept from its edges: none first; when the
#: solver's tolerance took a broker just outside (the goals' own counts say so), once more
#: with a margin.
_INSIDE = (0.0, 1e-6)


def _candidates(s: GoalState, outside: np.ndarray, heavy: int, light: int) -> np.ndarray:
    """int64, sorted: the rows the program may give a new leader (module docstring)."""
    choice = np.flatnonzero((s.pos >= 0).sum(axis=1) > 1)
    pick = [choice if len(choice) <= heavy
            else choice[np.argpartition(-w[choice], heavy - 1)[:heavy]]
            for w in (s.lead_out, s.rate_in)]
    for b in np.flatnonzero(outside).tolist():
        for held in (s.pos[choice, 0] == b, (s.pos[choice, 1:] == b).any(axis=1)):
            cand = choice[held]
            if len(cand) > light:
                cand = cand[np.argpartition(s.lead_out[cand], light - 1)[:light]]
            pick.append(cand)
    return np.unique(np.concatenate(pick))


@contextmanager
def _stdout_closed() -> Iterator[None]:
    """File descriptor 1 pointed at ``/dev/null`` for the body: HiGHS (inside scipy) prints a
    debug line (``HighsMipSolverData::transformNewIntegerFeasibleSolution tmpSolver.run();``)
    straight to the C library's stdout on some programs, whatever its output options, and
    ``kpart plan``'s stdout is the user's (a ``--json`` document). The C library's buffer is
    flushed before fd 1 is restored."""
    try:
        sys.stdout.flush()
        saved = os.dup(1)
    except (OSError, ValueError):  # no usable fd 1: nothing to keep clean
        yield
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.close(null)
    try:
        yield
    finally:
        with suppress(OSError, AttributeError):
            ctypes.CDLL(None).fflush(None)
        os.dup2(saved, 1)
        os.close(saved)


@dataclass
class _Band:
    """One goal's band per broker (``lo`` ``-inf`` when it has none), the load it bands
    (``resource``, one of :data:`LEADERSHIP_RESOURCES`, and its values), each partition's share
    of it on its leader, and the allowed brokers outside it."""

    resource: str
    lo: np.ndarray
    hi: np.ndarray
    load: np.ndarray
    weight: np.ndarray
    outside: np.ndarray


def _bands(s: GoalState, named: Sequence[ResourceDistributionGoal]) -> list[_Band]:
    loads = {"nw_out": (s.nw_out, s.lead_out),
             "leaders": (s.leaders.astype(np.float64), np.ones(len(s.pos))),
             "lead_in": (s.lead_in, s.rate_in)}
    out = []
    for g in named:
        lo, hi, c = g.band(s)
        load, weight = loads[g.resource]
        eps = 1e-9 * np.maximum(np.abs(hi * c), 1e-300)
        outside = s.allowed & ((load < lo * c - eps) | (load > hi * c + eps))
        out.append(_Band(g.resource, lo * c, hi * c, load, weight, outside))
    return out


@dataclass
class _Program:
    """The program's constraint rows as triplets, ``n`` leadership columns then the
    outside-the-band columns (their costs in ``zcost``)."""

    n: int
    rows: list[np.ndarray] = field(default_factory=list)
    cols: list[np.ndarray] = field(default_factory=list)
    vals: list[np.ndarray] = field(default_factory=list)
    lows: list[float] = field(default_factory=list)
    highs: list[float] = field(default_factory=list)
    zcost: list[float] = field(default_factory=list)

    def block(self, rows: np.ndarray, cols: np.ndarray, vals: np.ndarray, lo: float,
              hi: float) -> None:
        """Rows numbered from the next free one by ``rows`` (0, 1, ...), all within
        ``[lo, hi]``."""
        count = int(rows.max()) + 1 if len(rows) else 0
        self.rows.append(rows + len(self.lows))
        self.cols.append(cols)
        self.vals.append(vals)
        self.lows += [lo] * count
        self.highs += [hi] * count

    def row(self, cols: np.ndarray, vals: np.ndarray, lo: float, hi: float) -> None:
        self.block(np.zeros(len(cols), np.int64), cols, vals, lo, hi)

    def z(self, cost: float) -> int:
        self.zcost.append(cost)
        return self.n + len(self.zcost) - 1

    def solve(self, cost: np.ndarray, ub: np.ndarray, nodes: int) -> np.ndarray | None:
        nvar = self.n + len(self.zcost)
        a = coo_array((np.concatenate(self.vals),
                       (np.concatenate(self.rows), np.concatenate(self.cols))),
                      shape=(len(self.lows), nvar)).tocsr()
        c = np.concatenate([cost, np.array(self.zcost)])
        upper = np.concatenate([ub, np.ones(len(self.zcost))])
        with _stdout_closed():
            result = milp(c, constraints=LinearConstraint(a, np.array(self.lows),
                                                          np.array(self.highs)),
                          integrality=np.ones(nvar), bounds=Bounds(np.zeros(nvar), upper),
                          options={"node_limit": nodes, "disp": False, "mip_rel_gap": 0.0})
        return None if result.x is None else np.asarray(result.x[:self.n])


@dataclass(frozen=True)
class _Columns:
    """The program's leadership columns: ``rows`` (sorted) the partitions it may give a new
    leader; per column its row ``vrow``, broker ``vbro``, and ``current`` (that broker leads
    it now)."""

    rows: np.ndarray
    vrow: np.ndarray
    vbro: np.ndarray
    current: np.ndarray


@dataclass(frozen=True)
class _Weighing:
    """How a band's rows are written: ``cost`` of a broker staying outside, ``margin`` the
    share of the band's width kept clear of its edges."""

    cost: float
    margin: float


def _constrain(prog: _Program, band: _Band, how: _Weighing, vbro: np.ndarray,
               vw: np.ndarray, fixed: np.ndarray, limit: np.ndarray | None) -> None:
    """``band``'s rows for every allowed broker with a column: inside stays inside; outside
    never goes further out, and comes in (its column ``z`` 0) or not (``z`` 1 frees the two
    rows of the band); ``limit``: the hard network-out limit, outside the band too; ``how``:
    the cost of staying outside, and the share of the band's width kept clear of its edges.
    Rows in band widths, so that the solver's tolerances mean the same for every goal."""
    cost, margin = how.cost, how.margin
    finite = np.isfinite(band.lo)
    width = np.maximum(np.where(finite, band.hi - band.lo, np.abs(band.hi)), 1e-300)
    inner = 0.0 if band.resource == "leaders" else margin * width  # counts: whole
    lo_in, hi_in = band.lo + inner, band.hi - inner
    if limit is not None:
        hi_in = np.minimum(hi_in, limit * (1 - 1e-9))
    order = np.argsort(vbro, kind="stable")
    starts = np.searchsorted(vbro[order], np.arange(len(fixed) + 1))
    for b in np.flatnonzero(np.diff(starts) > 0).tolist():
        cols = order[starts[b]:starts[b + 1]]
        vals = vw[cols] / width[b]
        lo = (lo_in[b] - fixed[b]) / width[b] if finite[b] else -np.inf
        hi = (hi_in[b] - fixed[b]) / width[b]
        x = float(band.load[b])  # never further out (inside within the goal's tolerance:
        far_lo = (min(x, lo_in[b]) - fixed[b]) / width[b] if finite[b] else -np.inf
        far_hi = (max(x, hi_in[b]) - fixed[b]) / width[b]  # it may stay); hi_in: the limit
        prog.row(cols, vals, far_lo, far_hi)
        if not band.outside[b]:
            continue
        z = prog.z(cost)  # outside: comes in (z 0) or not (z 1)
        if finite[b] and lo > far_lo:  # load + M z >= lo
            prog.row(np.append(cols, z), np.append(vals, lo - far_lo), lo, np.inf)
        if far_hi > hi:  # load - M z <= hi
            prog.row(np.append(cols, z), np.append(vals, -(far_hi - hi)), -np.inf, hi)


def program_leaders(s: GoalState, goals: Sequence[Goal], heavy: int = 1000, light: int = 40,
                    nodes: int = NODE_LIMIT) -> int:
    """Pass leaderships on ``s`` (in place: slot 0 of :attr:`GoalState.pos` and its leader
    loads) so that fewer brokers sit outside the leadership goals' bands (the module
    docstring), for the goals of ``goals`` :func:`leadership_goals` names, weighed in their order.
    Returns the leaderships passed (0: nothing better found, ``s`` unchanged). Never raises
    for a valid state; a solver that runs out of ``nodes`` (branch-and-bound nodes, not
    seconds: the same state gives the same answer however busy the machine) without an
    answer leaves ``s`` as it was. Shapes: ``s.pos`` ``(P, R)``; about ``heavy + light × brokers outside`` rows
    in the program (#1592's shape, 2.8M replicas: about 2 s).

    >>> from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
    >>> from kpart.cluster.goals import goal_state
    >>> from kpart.cluster.goals.network_outbound_usage_distribution import (
    ...     NetworkOutboundUsageDistributionGoal)
    >>> cap = Capacity(disk_bytes=1e9, network_in=1e9, network_out=1e9)
    >>> rows = [((0, 1), 4.0), ((0,), 9.0), ((1, 2), 4.0), ((1,), 6.0), ((2,), 7.0)]
    >>> model = ClusterModel.from_partitions(
    ...     [ClusterBroker(i, f"r{i}", cap) for i in range(3)],
    ...     [PartitionState("t", i, r, leader=r[0], size_bytes=1.0, bytes_in_per_s=0.0,
    ...                     bytes_out_per_s=out) for i, (r, out) in enumerate(rows)])
    >>> s = goal_state(model, model.replicas, np.ones(3, bool))
    >>> program_leaders(s, [NetworkOutboundUsageDistributionGoal()])
    2
    >>> s.nw_out.tolist()
    [9.0, 10.0, 11.0]
    """
    named = leadership_goals(goals)
    if not named or len(s.pos) == 0:
        return 0
    bands = _bands(s, named)
    outside = np.logical_or.reduce([b.outside for b in bands])
    if not outside.any():
        return 0
    before = [g.violations(s) for g in named]
    rows = _candidates(s, outside, heavy, light)
    if not len(rows):  # no partition with a follower to lead it
        return 0
    vrow = np.repeat(rows, s.pos.shape[1])
    vbro = s.pos[rows].ravel()
    vrow, vbro = vrow[vbro >= 0], vbro[vbro >= 0]
    current = s.pos[vrow, 0] == vbro
    start = s.pos[:, 0].copy()
    for inner in _INSIDE:
        move = _solve(s, _Solve(bands, goals, inner, nodes), _Columns(rows, vrow, vbro, current))
        if not move.any():
            return 0
        relocate_leaderships(s, vbro[move], vrow[move])
        after = [g.violations(s) for g in named]
        if after != before and all(x <= y for x, y in zip(after, before, strict=True)):
            return int(move.sum())
        relocate_leaderships(s, start)  # not better: the leaders as they were
        if after == before:  # no worse either: a margin would not make it better
            break
    return 0


@dataclass(frozen=True)
class _Solve:
    """One solve: the goals' ``bands`` (in priority order) and the plan's ``goals``, the
    share ``inner`` of each band's width kept clear of its edges, the solver's ``nodes``."""

    bands: list[_Band]
    goals: Sequence[Goal]
    inner: float
    nodes: int


def _solve(s: GoalState, what: _Solve, cols: _Columns) -> np.ndarray:
    """bool, one a column: the leaderships the program passes."""
    bands, goals, inner, nodes = what.bands, what.goals, what.inner, what.nodes
    rows, vrow, vbro, current = cols.rows, cols.vrow, cols.vbro, cols.current
    n = len(vrow)
    prog = _Program(n)
    prog.block(np.searchsorted(rows, vrow), np.arange(n), np.ones(n), 1.0, 1.0)  # one leader
    limit = next((s.cap_out * s.thresholds.capacity for g in goals
                  if isinstance(g, CapacityGoal) and g.resource == "nw_out"), None)
    led = s.pos[rows, 0]
    nb = len(s.allowed)
    for rank, band in enumerate(bands):
        fixed = band.load - np.bincount(led, weights=band.weight[rows], minlength=nb)
        _constrain(prog, band, _Weighing(float(nb + 1) ** (len(bands) - 1 - rank), inner), vbro,
                   band.weight[vrow], fixed, limit if band.resource == "nw_out" else None)
    chosen = prog.solve(np.where(current, 0.0, 1.0 / (n + 1)),
                        np.where(s.allowed[vbro] | current, 1.0, 0.0), nodes)
    return np.zeros(n, dtype=bool) if chosen is None else (chosen > 0.5) & ~current
