"""``LeaderBytesInDistributionGoal`` (``kpart.cluster.goals.leader_bytes_in_distribution``) as
a unit: its violations are the allowed brokers whose leader bytes-in (the bytes in per second
of the partitions it leads) is over ``avg × t`` (``t`` = ``network.inbound.balance.threshold``;
no lower limit); ``accepts_leader`` / ``accepts`` refuse a move that takes a broker over it and
accept one that leaves a broker with as little as it likes; its ``optimize`` is the joint
leadership solve (leaderships only)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from _tools.leadership_goal_cases import optimize_after_the_hard_goals
from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import (
    DEFAULT_THRESHOLDS,
    GoalState,
    Guards,
    Thresholds,
    goal_state,
    goals_by_name,
)
from kpart.cluster.goals.leader_bytes_in_distribution import LeaderBytesInDistributionGoal
from kpart.cluster.verifier import goal_violations, verify

GOAL = LeaderBytesInDistributionGoal()
CAP = Capacity(disk_bytes=1e9, network_in=1e9, network_out=1e9)


def _model(led: list[list[float]]) -> ClusterModel:
    """Broker ``b`` (of ``len(led)``, each its own rack) leads one partition per rate of
    ``led[b]`` (bytes in per second), followed by the next broker."""
    n = len(led)
    brokers = [ClusterBroker(i, f"r{i}", CAP) for i in range(n)]
    spec = [(b, r) for b, rates in enumerate(led) for r in rates]
    parts = [PartitionState("t", p, (b, (b + 1) % n), leader=b, size_bytes=1.0,
                            bytes_in_per_s=r, bytes_out_per_s=0.0)
             for p, (b, r) in enumerate(spec)]
    return ClusterModel.from_partitions(brokers, parts)


def _state(model: ClusterModel, th: Thresholds = DEFAULT_THRESHOLDS) -> GoalState:
    return goal_state(model, model.replicas, np.ones(len(model.brokers), bool), th)


def _row(s: GoalState, leader: int, rate: float) -> int:
    return int(np.flatnonzero((s.pos[:, 0] == leader) & (s.rate_in == rate))[0])


#: Leader bytes-in 40, 33, 20, 7: mean 25, upper limit 27.5.
SKEWED = [[30.0, 10.0], [30.0, 3.0], [10.0, 10.0], [5.0, 2.0]]


def test_violations_are_the_brokers_over_the_upper_limit_only() -> None:
    m = _model(SKEWED)
    s = _state(m)
    lo, hi, _ = GOAL.band(s)
    assert lo == -math.inf and hi == 25 * 1.1
    assert s.lead_in.tolist() == [40.0, 33.0, 20.0, 7.0]
    # 40 and 33 over; 7, far under the mean, is no violation
    assert GOAL.violations(s) == 2
    assert GOAL.violations(s) == goal_violations(m, m.replicas, m.replicas[:, 0], GOAL.name,
                                                 np.ones(4, bool), DEFAULT_THRESHOLDS)
    # on the limit: in; a tenth over it: out
    assert GOAL.violations(_state(_model([[27.5], [27.5], [27.5], [17.5]]))) == 0
    assert GOAL.violations(_state(_model([[27.6], [27.4], [27.5], [17.5]]))) == 1
    # only what a broker leads counts (with its followers' bytes in, 40, 60, 60, 40, two
    # would be over 55; led, 30, 30, 30, 10: three over 27.5)
    assert GOAL.violations(_state(_model([[30.0], [30.0], [30.0], [10.0]]))) == 3
    # the network-in threshold widens the limit: t = 1.7, limit 42.5
    assert GOAL.violations(_state(m, Thresholds(network_in_balance=1.7))) == 0


def test_a_leadership_that_takes_a_broker_over_the_limit_is_refused() -> None:
    s = _state(_model(SKEWED))  # 40, 33, 20, 7; limit 27.5; follower: the next broker
    # broker 2 leads 10 followed by 3: 20 -> 10 and 7 -> 17, both under: accepted
    assert GOAL.accepts_leader(s, _row(s, 2, 10.0), 2, 3)
    # broker 3 leads 5 followed by 0 (40 -> 45): refused; no lower limit on broker 3
    assert not GOAL.accepts_leader(s, _row(s, 3, 5.0), 3, 0)
    # broker 1 leads 3 followed by 2 (20 -> 23): accepted; 30 (20 -> 50): refused
    assert GOAL.accepts_leader(s, _row(s, 1, 3.0), 1, 2)
    assert not GOAL.accepts_leader(s, _row(s, 1, 30.0), 1, 2)
    # broker 0 passes its 10 to broker 1 (33 -> 43): refused, even though 0 gets better
    assert not GOAL.accepts_leader(s, _row(s, 0, 10.0), 0, 1)


def test_a_replica_move_counts_only_when_it_carries_the_leadership() -> None:
    s = _state(_model(SKEWED))
    row = _row(s, 2, 10.0)  # [2, 3]
    # the leader's replica onto broker 3 (7 -> 17): accepted; onto broker 0 (40 -> 50): no
    assert GOAL.accepts(s, row, 2, 3)
    assert not GOAL.accepts(s, row, 2, 0)
    # its follower (on 3) onto broker 0: no leader bytes-in moves
    assert GOAL.accepts(s, row, 3, 0)


def _one_leader() -> ClusterModel:
    """Four brokers in their own racks; eight partitions of 10 bytes/s in on brokers 0, 1,
    2, 3 (RF 3 rotating), every one that broker 0 holds led by it."""
    brokers = [ClusterBroker(i, f"r{i}", CAP) for i in range(4)]
    parts = []
    for p in range(8):
        reps = tuple((p + k) % 4 for k in range(3))
        if 0 in reps:
            reps = (0, *[x for x in reps if x != 0])
        parts.append(PartitionState("t", p, reps, leader=reps[0], size_bytes=1.0,
                                    bytes_in_per_s=10.0, bytes_out_per_s=0.0))
    return ClusterModel.from_partitions(brokers, parts)


def test_optimize_passes_leaderships_under_the_limit() -> None:
    m = _one_leader()
    s = _state(m)
    assert s.lead_in.tolist() == [60.0, 20.0, 0.0, 0.0]  # mean 20, limit 22
    assert GOAL.violations(s) == 1
    goals = goals_by_name("RackAwareGoal,LeaderBytesInDistributionGoal")
    GOAL.optimize(s, Guards(goals, goals[:1]))
    assert GOAL.violations(s) == 0
    assert s.lead_in.max() <= 22.0
    assert (np.sort(s.pos, axis=1) == np.sort(m.replicas, axis=1)).all()
    assert verify(m, s.pos, goals, before=m.replicas).ok


@st.composite
def _clusters(draw: st.DrawFn) -> ClusterModel:
    n = draw(st.integers(3, 7))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    brokers = [ClusterBroker(i, f"r{i % 3}", CAP) for i in range(n)]
    parts = []
    for p in range(draw(st.integers(3, 40))):
        rf = int(rng.integers(1, 4))
        reps = tuple(int(b) for b in rng.choice(n, size=rf, replace=False))
        rate = float(rng.pareto(1.2))
        parts.append(PartitionState(f"t{p % 3}", p, reps, leader=reps[0], size_bytes=1.0,
                                    bytes_in_per_s=rate, bytes_out_per_s=rate))
    return ClusterModel.from_partitions(brokers, parts)


@settings(max_examples=30, deadline=None)
@given(_clusters())
def test_optimize_moves_only_leaderships_and_never_makes_it_worse(model: ClusterModel) -> None:
    s = _state(model)
    optimize_after_the_hard_goals(GOAL, model, s)
    assert np.allclose(s.lead_in, np.bincount(s.pos[:, 0], weights=s.rate_in,
                                              minlength=len(s.allowed)))
