"""``DiskUsageDistributionGoal`` (``kpart.cluster.goals.disk_usage_distribution``) as a unit:
its violations are the allowed brokers whose disk *utilization* (bytes / disk capacity; the
bytes themselves when a capacity is unknown) lies outside ``[avg × (2 − t), avg × t]``, ``avg``
the cluster's total bytes over its total capacity; ``accepts`` refuses a replica move that
takes a broker out of that band (Cruise Control's ``actionAcceptance``); ``optimize`` (Cruise
Control's ``rebalanceByMovingLoadOut/In``) brings every broker in with moves every guard
accepts."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import (
    DEFAULT_GOALS,
    DEFAULT_THRESHOLDS,
    GoalState,
    Guards,
    Thresholds,
    goal_state,
    goals_by_name,
)
from kpart.cluster.goals.disk_usage_distribution import DiskUsageDistributionGoal
from kpart.cluster.verifier import goal_violations, verify

GOAL = DiskUsageDistributionGoal()


def _model(held: list[list[float]], caps: list[float | None]) -> ClusterModel:
    """Broker ``b`` (its own rack, disk capacity ``caps[b]``, ``None``: unknown) holds one
    single-replica partition per size in ``held[b]``."""
    brokers = [ClusterBroker(i, f"r{i}", Capacity(disk_bytes=c, network_in=1e9,
                                                  network_out=1e9)) for i, c in enumerate(caps)]
    parts = [PartitionState("t", p, (b,), leader=b, size_bytes=size, bytes_in_per_s=0.0,
                            bytes_out_per_s=0.0)
             for p, (b, size) in enumerate((b, x) for b, xs in enumerate(held) for x in xs)]
    return ClusterModel.from_partitions(brokers, parts)


def _state(model: ClusterModel, th: Thresholds = DEFAULT_THRESHOLDS) -> GoalState:
    return goal_state(model, model.replicas, np.ones(len(model.brokers), bool), th)


def _row(s: GoalState, b: int, size: float) -> int:
    return int(np.flatnonzero((s.pos[:, 0] == b) & (s.size == size))[0])


#: Loads 45, 55, 90, 110 on capacities 100, 100, 200, 200: utilization 0.45, 0.55, 0.45,
#: 0.55 — every broker on an edge of the band [0.45, 0.55] around 300 / 600 = 0.5.
EDGES = ([[40.0, 5.0], [50.0, 5.0], [80.0, 10.0], [100.0, 10.0]], [100.0, 100.0, 200.0, 200.0])


def test_violations_are_brokers_outside_the_utilization_band() -> None:
    s = _state(_model(*EDGES))
    lo, hi, c = GOAL.band(s)
    assert (lo, hi) == (0.5 * (2 - 1.1), 0.5 * 1.1) and c.tolist() == EDGES[1]
    assert GOAL.violations(s) == 0  # all on an edge: in
    # one byte past the edges: brokers 0 (0.44) and 1 (0.56) out
    m = _model([[39.0, 5.0], [51.0, 5.0], [80.0, 10.0], [100.0, 10.0]], EDGES[1])
    assert GOAL.violations(_state(m)) == 2
    assert GOAL.violations(_state(m)) == goal_violations(
        m, m.replicas, m.replicas[:, 0], GOAL.name, np.ones(4, bool), DEFAULT_THRESHOLDS)


def test_the_bytes_count_when_a_capacity_is_unknown() -> None:
    # the same loads with broker 3's capacity unknown: the band is on bytes, [67.5, 82.5]
    # around 75: every broker out
    m = _model(EDGES[0], [100.0, 100.0, 200.0, None])
    s = _state(m)
    lo, hi, c = GOAL.band(s)
    assert (lo, hi) == (75 * (2 - 1.1), 75 * 1.1) and c.tolist() == [1.0] * 4
    assert GOAL.violations(s) == 4


def test_the_threshold_widens_the_band() -> None:
    m = _model([[39.0, 5.0], [51.0, 5.0], [80.0, 10.0], [100.0, 10.0]], EDGES[1])
    assert GOAL.violations(_state(m, Thresholds(disk_balance=1.2))) == 0


def test_a_move_that_takes_a_broker_out_of_the_band_is_refused() -> None:
    s = _state(_model(*EDGES))
    # 5 bytes from broker 1 (0.55 -> 0.50) to broker 0 (0.45 -> 0.50)
    assert GOAL.accepts(s, _row(s, 1, 5.0), 1, 0)
    # 10 bytes from broker 3 (0.55 -> 0.50) to broker 0 (0.45 -> 0.55, the top edge)
    assert GOAL.accepts(s, _row(s, 3, 10.0), 3, 0)
    # 10 bytes off broker 2 (0.45 -> 0.40): under the band
    assert not GOAL.accepts(s, _row(s, 2, 10.0), 2, 1)
    # 5 bytes onto broker 3 (0.55 -> 0.575): over it
    assert not GOAL.accepts(s, _row(s, 1, 5.0), 1, 3)
    # 5 bytes onto broker 2 (0.45 -> 0.475) off broker 1: both stay in
    assert GOAL.accepts(s, _row(s, 1, 5.0), 1, 2)
    # a leadership moves no byte of disk
    assert GOAL.accepts_leader(s, _row(s, 2, 10.0), 2, 3)


def _run(s: GoalState) -> dict[str, int]:
    """``GOAL.optimize`` with Cruise Control's default goals as guards (those before it);
    returns the guards' violations before."""
    goals = DEFAULT_GOALS
    at = goals.index(GOAL)
    before = {g.name: g.violations(s) for g in goals}
    GOAL.optimize(s, Guards(goals, goals[:at]))
    return before


def test_optimize_brings_every_broker_into_the_band_and_keeps_the_hard_goals() -> None:
    # 120, 100, 80, 100 bytes of 10- and 1-byte replicas on brokers of capacity 1000: band
    # [90, 110] around 100, aimed at [91, 109]; brokers 0 and 2 out. The fix moves the
    # largest replica that overshoots nothing, then the next: 10 bytes, then 1
    m = _model([[10.0] * 10 + [1.0] * 20, [10.0] * 10, [10.0] * 8, [10.0] * 10],
               [1000.0] * 4)
    s = _state(m)
    assert GOAL.violations(s) == 2
    before = _run(s)
    assert GOAL.violations(s) == 0
    assert s.disk.tolist() == [109.0, 100.0, 91.0, 100.0]
    assert int((s.pos[:, 0] != m.replicas[:, 0]).sum()) == 2
    goals = DEFAULT_GOALS
    at = goals.index(GOAL)
    # no goal before it (nor the topic goal, which guards every move) got worse
    for g in Guards(goals, goals[:at]).moves():
        assert g.violations(s) <= before[g.name], g.name
    report = verify(m, s.pos, goals[:at + 1], before=m.replicas)
    assert report.ok, report


@pytest.mark.xfail(strict=True, reason=(
    "balance() caps each move at max(excess, need) measured to the band aimed at "
    "(BALANCE_MARGIN inside the threshold): with 4-byte replicas it stops at 76 / 60 "
    "(1.88 bytes over the aim, under one replica) though one more move gives 72 / 64, "
    "both inside the threshold band"))
def test_optimize_moves_a_replica_larger_than_the_excess_when_it_fixes_both() -> None:
    # 4-byte replicas: 96, 68, 40, 68 bytes (band [61.2, 74.8] around 68, aimed at
    # [61.88, 74.12]): brokers 0 and 2 out; six moves from 0 to 2 give 72 and 64, in
    m = _model([[4.0] * 24, [4.0] * 17, [4.0] * 10, [4.0] * 17], [1000.0] * 4)
    s = _state(m)
    assert GOAL.violations(s) == 2
    _run(s)
    assert GOAL.violations(s) == 0


def test_optimize_moves_nothing_a_guard_refuses() -> None:
    # with the rack goal and every broker in one rack but broker 0's, a replica can only go
    # where its partition keeps racks apart: brokers 2 and 3 share rack "x" with broker 1
    cap = Capacity(disk_bytes=1000.0, network_in=1e9, network_out=1e9)
    brokers = [ClusterBroker(i, r, cap) for i, r in enumerate(["a", "x", "x", "x"])]
    parts = [PartitionState("t", p, (0, 1), leader=0, size_bytes=10.0) for p in range(8)]
    m = ClusterModel.from_partitions(brokers, parts)
    s = _state(m)
    goals = goals_by_name("RackAwareGoal,DiskUsageDistributionGoal")
    GOAL.optimize(s, Guards(goals, goals[:1]))
    assert goals[0].violations(s) == 0
    # broker 0's replicas can go nowhere (every other broker is in rack "x", the rack of
    # each partition's other replica); broker 1's go to 2 and 3, none pushed over the top
    # of the band [36, 44] around 40
    assert (s.pos[:, 0] == 0).all()
    assert s.disk[0] == 80.0 and s.disk[1:].sum() == 80.0
    assert s.disk[1:].max() <= 44.0 and s.disk[2:].min() > 0


@st.composite
def _clusters(draw: st.DrawFn) -> ClusterModel:
    n = draw(st.integers(3, 7))
    racks = draw(st.integers(2, n))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    caps = draw(st.sampled_from([None, 1000.0, "mixed"]))
    brokers = [ClusterBroker(i, f"r{i % racks}", Capacity(
        disk_bytes=(1000.0 * (1 + i % 2) if caps == "mixed" else caps),  # type: ignore[arg-type]
        network_in=1e9, network_out=1e9)) for i in range(n)]
    parts = []
    for p in range(draw(st.integers(4, 40))):
        rf = int(rng.integers(1, 3))
        rk = rng.choice(racks, size=rf, replace=False)
        reps = tuple(int(rng.choice([b for b in range(n) if b % racks == r])) for r in rk)
        parts.append(PartitionState(f"t{p % 3}", p, reps, leader=reps[0],
                                    size_bytes=float(rng.pareto(1.5) * 10),
                                    bytes_in_per_s=1.0, bytes_out_per_s=1.0))
    return ClusterModel.from_partitions(brokers, parts)


@settings(max_examples=40, deadline=None)
@given(_clusters())
def test_optimize_never_makes_it_or_a_guard_worse(model: ClusterModel) -> None:
    s = _state(model, Thresholds(max_replicas_per_broker=1000))
    goals = DEFAULT_GOALS
    at = goals.index(GOAL)
    guards = Guards(goals, goals[:at])
    checked = [*guards.moves()]
    before = [g.violations(s) for g in checked]
    GOAL.optimize(s, guards)
    after = [g.violations(s) for g in checked]
    assert all(a <= b for a, b in zip(after, before, strict=True)), (before, after)
    held = s.pos >= 0
    assert (held.sum(axis=1) == (model.replicas >= 0).sum(axis=1)).all()
    assert np.allclose(np.bincount(s.pos[held], weights=np.broadcast_to(
        s.size[:, None], s.pos.shape)[held], minlength=len(s.allowed)), s.disk)
