"""``ReplicaDistributionGoal`` (``kpart.cluster.goals.replica_distribution``) as a unit: its
violations are the allowed brokers whose replica count lies outside ``[floor(avg × (2 − t)),
ceil(avg × t)]``, its ``accepts`` refuses a move that takes a broker out of that band (Cruise
Control's ``actionAcceptance``), and its ``optimize`` (the count fill) brings the counts in
with moves every hard goal accepts."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import (
    DEFAULT_GOALS,
    DEFAULT_THRESHOLDS,
    Goal,
    GoalState,
    Guards,
    Thresholds,
    goal_state,
    goals_by_name,
)
from kpart.cluster.goals._replica_movement import fill_counts
from kpart.cluster.goals.replica_distribution import ReplicaDistributionGoal
from kpart.cluster.goals.state import GoalSettings
from kpart.cluster.verifier import goal_violations, verify

GOAL = ReplicaDistributionGoal()
CAP = Capacity(disk_bytes=1e6, network_in=1e6, network_out=1e6)


def _counts_model(counts: list[int], n: int | None = None) -> ClusterModel:
    """Broker ``b`` (of ``n``, each in its own rack) holds ``counts[b]`` single-replica
    partitions of one byte."""
    n = len(counts) if n is None else n
    brokers = [ClusterBroker(i, f"r{i}", CAP) for i in range(n)]
    owners = [b for b, c in enumerate(counts) for _ in range(c)]
    parts = [PartitionState(f"t{p % 5}", p, (b,), leader=b, size_bytes=1.0,
                            bytes_in_per_s=0.0, bytes_out_per_s=0.0)
             for p, b in enumerate(owners)]
    return ClusterModel.from_partitions(brokers, parts)


def _state(model: ClusterModel, allowed: list[bool] | None = None, *,
           thresholds: Thresholds = DEFAULT_THRESHOLDS, removed_over: bool = False,
           count_guard: bool = False) -> GoalState:
    ok = np.ones(len(model.brokers), bool) if allowed is None else np.array(allowed)
    return goal_state(model, model.replicas, ok, settings=GoalSettings(
        thresholds, removed_over=removed_over, count_guard=count_guard))


def _row_on(s: GoalState, b: int) -> int:
    return int(np.flatnonzero(s.pos[:, 0] == b)[0])


def test_violations_are_the_brokers_outside_the_band() -> None:
    # 24 replicas on 4 brokers: mean 6, band [floor(5.4), ceil(6.6)] = [5, 7]; 7 and 5 sit on
    # its edges (in), 8 and 4 are one past them (out)
    m = _counts_model([8, 7, 5, 4])
    s = _state(m)
    assert GOAL.band(s)[:2] == (5, 7)
    assert GOAL.violations(s) == 2
    assert GOAL.violations(s) == goal_violations(m, m.replicas, m.replicas[:, 0], GOAL.name,
                                                 np.ones(4, bool), DEFAULT_THRESHOLDS)
    # one past the edge on both sides, then nothing out
    assert GOAL.violations(_state(_counts_model([9, 6, 6, 3]))) == 2
    assert GOAL.violations(_state(_counts_model([7, 7, 5, 5]))) == 0


def test_a_round_mean_gives_the_band_java_doubles_give() -> None:
    # 400 replicas on 4 brokers: mean 100, t = 1.10. As in Cruise Control, the band is
    # computed in doubles (1.10 - 1 is 0.10000000000000009): floor(89.99999999999999) and
    # ceil(110.00000000000001), so 111 and 89 are inside and 112 is not
    assert (math.floor(100 * (1 - (1.10 - 1))), math.ceil(100 * (1 + (1.10 - 1)))) == (89, 111)
    s = _state(_counts_model([111, 100, 100, 89]))
    assert GOAL.band(s)[:2] == (89, 111)
    assert GOAL.violations(s) == 0
    s = _state(_counts_model([112, 100, 100, 88]))
    assert GOAL.violations(s) == 2


def test_the_threshold_widens_the_band() -> None:
    # t = 1.5: band [floor(3), ceil(9)] = [3, 9]: [10, 6, 5, 3] has only broker 0 out
    th = Thresholds(replica_balance=1.5)
    s = _state(_counts_model([10, 6, 5, 3]), thresholds=th)
    assert GOAL.band(s)[:2] == (3, 9)
    assert GOAL.violations(s) == 1


def test_only_allowed_brokers_count_and_set_the_mean() -> None:
    # broker 3 is being removed: the mean is over the three others, 24 / 3 = 8, band [7, 9];
    # broker 2 (5) is under it; broker 3 (4) is not counted, even with removed_over (not
    # over the band)
    m = _counts_model([8, 7, 5, 4])
    allowed = [True, True, True, False]
    s = _state(m, allowed)
    assert GOAL.band(s)[:2] == (7, 9)
    assert GOAL.violations(s) == 1
    assert GOAL.violations(_state(m, allowed, removed_over=True)) == 1
    # a removed broker over the band counts only with removed_over (its replicas must go):
    # 36 replicas, mean 12 over the allowed three, band [10, 14]; the three are under
    m = _counts_model([2, 2, 2, 30])
    assert GOAL.violations(_state(m, allowed)) == 3
    assert GOAL.violations(_state(m, allowed, removed_over=True)) == 4


def test_a_move_that_takes_a_broker_out_of_the_band_is_refused() -> None:
    s = _state(_counts_model([8, 7, 5, 4]))  # band [5, 7]
    # 8 -> 7 and 5 -> 6: both in band after
    assert GOAL.accepts(s, _row_on(s, 0), 0, 2)
    # 7 -> 6 and 4 -> 5
    assert GOAL.accepts(s, _row_on(s, 1), 1, 3)
    # into broker 1 (7 -> 8, over the top)
    assert not GOAL.accepts(s, _row_on(s, 2), 2, 1)
    # out of broker 2 (5 -> 4, under the floor)
    assert not GOAL.accepts(s, _row_on(s, 2), 2, 3)
    # a leadership moves no replica: always accepted
    assert GOAL.accepts_leader(s, _row_on(s, 2), 2, 1)


def test_with_count_guard_a_broker_already_out_may_go_further() -> None:
    # count_guard: refuse only a move taking a broker that is in the band out of it
    m = _counts_model([8, 7, 5, 4])
    plain, guarded = _state(m), _state(m, count_guard=True)
    row = _row_on(plain, 3)
    # broker 3 is under (4): giving one more (3) is refused normally, accepted by the guard
    assert not GOAL.accepts(plain, row, 3, 2)
    assert GOAL.accepts(guarded, row, 3, 2)
    # broker 0 is over (8): taking one more is refused normally, accepted by the guard
    assert not GOAL.accepts(plain, _row_on(plain, 2), 2, 0)
    # ... but broker 2 (5, in) may not leave the band even under the guard
    assert not GOAL.accepts(guarded, _row_on(guarded, 2), 2, 0)
    # and a broker in band at the top may not be pushed over
    assert not GOAL.accepts(guarded, _row_on(guarded, 3), 3, 1)


def _rf2_model(n_old: int, n_new: int, partitions: int) -> ClusterModel:
    """``n_old + n_new`` brokers in their own racks; ``partitions`` RF-2 partitions of 10
    bytes on the first ``n_old`` only (the others new and empty)."""
    brokers = [ClusterBroker(i, f"r{i}", CAP) for i in range(n_old + n_new)]
    parts = [PartitionState(f"t{p % 3}", p, (p % n_old, (p + 1) % n_old), leader=p % n_old,
                            size_bytes=10.0 + p, bytes_in_per_s=1.0, bytes_out_per_s=1.0)
             for p in range(partitions)]
    return ClusterModel.from_partitions(brokers, parts)


def _optimize(s: GoalState, goals: tuple[Goal, ...] = DEFAULT_GOALS) -> None:
    at = goals.index(GOAL)
    GOAL.optimize(s, Guards(goals, goals[:at]))


def test_optimize_fills_new_brokers_and_keeps_the_hard_goals() -> None:
    # 24 replicas on brokers 0-2 (8 each), brokers 3 and 4 new: mean 4.8, band [4, 6]:
    # all five out before
    m = _rf2_model(3, 2, 12)
    s = _state(m)
    assert GOAL.violations(s) == 5
    _optimize(s)
    assert GOAL.violations(s) == 0
    assert s.replicas.tolist() == np.bincount(s.pos[s.pos >= 0], minlength=5).tolist()
    report = verify(m, s.pos, [g for g in DEFAULT_GOALS if g.hard] + [GOAL],
                    before=m.replicas)
    assert report.ok, report
    # replicas moved, none duplicated, the replication factor kept
    assert (np.sort(s.pos, axis=1)[:, 1:] != np.sort(s.pos, axis=1)[:, :-1]).all()


def test_optimize_with_the_rack_goal_moves_no_replica_into_a_shared_rack() -> None:
    # brokers 0-2 in racks a, b, c; the new broker 3 in rack a: it may take only replicas of
    # partitions not on broker 0
    brokers = [ClusterBroker(i, r, CAP) for i, r in enumerate("abca")]
    parts = [PartitionState("t", p, ((0, 1), (1, 2), (2, 0))[p % 3], size_bytes=1.0)
             for p in range(12)]
    m = ClusterModel.from_partitions(brokers, parts)
    s = _state(m)
    goals = goals_by_name("RackAwareGoal,ReplicaDistributionGoal")
    GOAL.optimize(s, Guards(goals, goals[:1]))
    assert goals[0].violations(s) == 0
    assert GOAL.violations(s) == 0
    moved_in = np.flatnonzero((s.pos == 3).any(axis=1))
    assert len(moved_in) >= 5
    assert not (s.pos[moved_in] == 0).any()


def test_the_count_fill_takes_from_brokers_whose_bytes_must_go() -> None:
    # broker 0 holds big replicas, brokers 1 and 2 small ones, broker 3 is new: the replicas
    # that fill broker 3's count come from broker 0 alone (what moves off 1 or 2 would have
    # to come back for the disk goal); without giver_disk any broker above the mean gives
    cap = Capacity(disk_bytes=1e6)
    brokers = [ClusterBroker(i, f"r{i}", cap) for i in range(4)]
    # broker 0: 30 replicas of 100 bytes; broker 1: 30 of 1 byte; broker 2: 14 of 1 byte.
    # Broker 0 can give 11 down to the mean count (19), 15 down to the band's bottom (14).
    parts = [PartitionState("t", p, (0 if p < 30 else 1 if p < 60 else 2,),
                            size_bytes=100.0 if p < 30 else 1.0) for p in range(74)]
    model = ClusterModel.from_partitions(brokers, parts)
    guards = [g for g in DEFAULT_GOALS if g.hard]
    for giver, sources in ((True, {0}), (False, {0, 1})):
        s = goal_state(model, model.replicas, np.ones(4, dtype=bool), DEFAULT_THRESHOLDS)
        target = np.full(4, s.disk.sum() / 4)
        fill_counts(s, 14, 100, guards, target, giver_disk=target * 1.09 if giver else None)
        moved = np.flatnonzero(s.pos[:, 0] == 3)
        assert len(moved) == 14
        assert {int(model.replicas[r, 0]) for r in moved} == sources


@st.composite
def _clusters(draw: st.DrawFn) -> ClusterModel:
    n = draw(st.integers(3, 7))
    racks = draw(st.integers(2, min(4, n)))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    brokers = [ClusterBroker(i, f"r{i % racks}", CAP) for i in range(n)]
    parts = []
    for p in range(draw(st.integers(4, 50))):
        rf = int(rng.integers(1, min(2, racks) + 1))
        rk = rng.choice(racks, size=rf, replace=False)
        reps = tuple(int(rng.choice([b for b in range(n) if b % racks == r])) for r in rk)
        parts.append(PartitionState(f"t{p % 3}", p, reps, leader=reps[0],
                                    size_bytes=float(rng.integers(1, 100)),
                                    bytes_in_per_s=1.0, bytes_out_per_s=1.0))
    return ClusterModel.from_partitions(brokers, parts)


@settings(max_examples=40, deadline=None)
@given(_clusters(), st.booleans())
def test_optimize_never_makes_the_goal_or_a_hard_goal_worse(model: ClusterModel,
                                                            strict: bool) -> None:
    s = _state(model)
    hard = [g for g in DEFAULT_GOALS if g.hard]
    before = GOAL.violations(s), [g.violations(s) for g in hard]
    at = DEFAULT_GOALS.index(GOAL)
    GOAL.optimize(s, Guards(DEFAULT_GOALS, DEFAULT_GOALS[:at], strict))
    s.cache.invalidate()
    assert GOAL.violations(s) <= before[0]
    assert all(a <= b for a, b in zip([g.violations(s) for g in hard], before[1], strict=True))
    # the per-broker counts match the replica sets, and the replication factors are kept
    held = s.pos >= 0
    assert (held.sum(axis=1) == (model.replicas >= 0).sum(axis=1)).all()
    assert s.replicas.tolist() == np.bincount(s.pos[held], minlength=len(s.allowed)).tolist()
