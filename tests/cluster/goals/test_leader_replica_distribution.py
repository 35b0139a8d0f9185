"""``LeaderReplicaDistributionGoal`` (``kpart.cluster.goals.leader_replica_distribution``) as a
unit: its violations are the allowed brokers whose leader count lies outside
``[floor(avg × (2 − t)), ceil(avg × t)]``; ``accepts`` / ``accepts_leader`` refuse a move that
takes a broker out of that band (a follower's move changes no leader count); its ``optimize``
is the joint leadership solve, run when it is the plan's first leadership goal: leaderships
only, into the band. (Its ``finish``, ``move_leadership_in``, is tested in
``test_move_leadership_in.py``.)"""

from __future__ import annotations

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
from kpart.cluster.goals.leader_replica_distribution import LeaderReplicaDistributionGoal
from kpart.cluster.verifier import goal_violations, verify

GOAL = LeaderReplicaDistributionGoal()
CAP = Capacity(disk_bytes=1e9, network_in=1e9, network_out=1e9)


def _model(leads: list[int], n: int = 4) -> ClusterModel:
    """``n`` brokers in their own racks; broker ``b`` leads ``leads[b]`` partitions, each
    followed by the next broker (RF 2, one byte, 1 byte/s in and out)."""
    brokers = [ClusterBroker(i, f"r{i}", CAP) for i in range(n)]
    owners = [b for b, c in enumerate(leads) for _ in range(c)]
    parts = [PartitionState("t", p, (b, (b + 1) % n), leader=b, size_bytes=1.0,
                            bytes_in_per_s=1.0, bytes_out_per_s=1.0)
             for p, b in enumerate(owners)]
    return ClusterModel.from_partitions(brokers, parts)


def _state(model: ClusterModel, th: Thresholds = DEFAULT_THRESHOLDS) -> GoalState:
    return goal_state(model, model.replicas, np.ones(len(model.brokers), bool), th)


def _led_by(s: GoalState, b: int) -> int:
    return int(np.flatnonzero(s.pos[:, 0] == b)[0])


def test_violations_are_the_brokers_outside_the_band() -> None:
    # 24 leaders on 4 brokers: mean 6, band [5, 7]; 7 and 5 on its edges, 8 and 4 out
    m = _model([8, 7, 5, 4])
    s = _state(m)
    assert GOAL.band(s)[:2] == (5, 7)
    assert GOAL.violations(s) == 2
    assert GOAL.violations(s) == goal_violations(m, m.replicas, m.replicas[:, 0], GOAL.name,
                                                 np.ones(4, bool), DEFAULT_THRESHOLDS)
    # the leaders count, not the replicas (broker 0: its 8 and broker 3's 4 followers)
    assert s.replicas.tolist() == [12, 15, 12, 9]
    assert GOAL.violations(_state(_model([7, 7, 5, 5]))) == 0
    assert GOAL.violations(_state(_model([9, 6, 6, 3]))) == 2
    # t = 1.5: band [3, 9]
    assert GOAL.violations(_state(_model([9, 6, 6, 3]), Thresholds(leader_balance=1.5))) == 0


def test_a_leadership_that_takes_a_broker_out_of_the_band_is_refused() -> None:
    s = _state(_model([8, 7, 5, 4]))  # band [5, 7]
    # 8 -> 7 and 4 -> 5: broker 0's partitions are followed by 1; pass one of broker 3's
    # (followed by broker 0) the other way round is 4 -> 3: refused
    row = _led_by(s, 3)
    assert s.pos[row].tolist() == [3, 0]
    assert not GOAL.accepts_leader(s, row, 3, 0)  # 3 under the floor, 0 over the top
    row = _led_by(s, 2)  # followed by 3: 5 -> 4 refused
    assert not GOAL.accepts_leader(s, row, 2, 3)
    row = _led_by(s, 1)  # followed by 2: 7 -> 6, 5 -> 6 accepted
    assert GOAL.accepts_leader(s, row, 1, 2)
    row = _led_by(s, 0)  # followed by 1: 8 -> 7 but 7 -> 8 over the top: refused
    assert not GOAL.accepts_leader(s, row, 0, 1)


def test_a_replica_move_counts_only_when_it_carries_the_leadership() -> None:
    s = _state(_model([8, 7, 5, 4]))
    row = _led_by(s, 0)  # [0, 1]
    # the leader's replica onto broker 2 (5 -> 6) or 3 (4 -> 5): in band
    assert GOAL.accepts(s, row, 0, 2) and GOAL.accepts(s, row, 0, 3)
    row = _led_by(s, 2)  # [2, 3]: its leader replica off broker 2 (5 -> 4) is refused
    assert not GOAL.accepts(s, row, 2, 0)
    # its follower replica (on 3) may go anywhere: no leader count changes
    assert GOAL.accepts(s, row, 3, 1)
    row = _led_by(s, 3)  # [3, 0]: the leader replica onto broker 1 (7 -> 8) is refused
    assert not GOAL.accepts(s, row, 3, 1)


def _one_leader(partitions: int = 12, n: int = 4) -> ClusterModel:
    """``n`` brokers in their own racks; every partition on three of them (rotating), all
    led by broker 0 where it holds a replica, else by its first replica."""
    brokers = [ClusterBroker(i, f"r{i}", CAP) for i in range(n)]
    parts = []
    for p in range(partitions):
        reps = tuple((p + k) % n for k in range(3))
        if 0 in reps:
            reps = (0, *[x for x in reps if x != 0])
        parts.append(PartitionState("t", p, reps, leader=reps[0], size_bytes=1.0,
                                    bytes_in_per_s=1.0, bytes_out_per_s=1.0))
    return ClusterModel.from_partitions(brokers, parts)


def test_optimize_passes_leaderships_into_the_band() -> None:
    # 12 partitions, 9 led by broker 0, 3 by broker 1: band [2, 4] around 3
    m = _one_leader()
    s = _state(m)
    assert s.leaders.tolist() == [9, 3, 0, 0]
    assert GOAL.violations(s) == 3
    goals = goals_by_name("RackAwareGoal,LeaderReplicaDistributionGoal")
    GOAL.optimize(s, Guards(goals, goals[:1]))
    assert GOAL.violations(s) == 0
    assert s.leaders.tolist() == np.bincount(s.pos[:, 0], minlength=4).tolist()
    # leaderships only: every partition on the brokers it was on
    assert (np.sort(s.pos, axis=1) == np.sort(m.replicas, axis=1)).all()
    assert verify(m, s.pos, goals, before=m.replicas).ok


def test_optimize_is_the_first_leadership_goals_alone() -> None:
    # when network out comes first, the joint solve ran at it: this goal's optimize moves
    # nothing (the leaders stay as the state has them)
    m = _one_leader()
    s = _state(m)
    goals = goals_by_name("NetworkOutboundUsageDistributionGoal,LeaderReplicaDistributionGoal")
    GOAL.optimize(s, Guards(goals, goals[:1]))
    assert s.leaders.tolist() == [9, 3, 0, 0]
    assert (s.pos == m.replicas).all()


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
        parts.append(PartitionState(f"t{p % 3}", p, reps, leader=reps[0],
                                    size_bytes=float(rng.integers(1, 50)),
                                    bytes_in_per_s=rate, bytes_out_per_s=rate))
    return ClusterModel.from_partitions(brokers, parts)


@settings(max_examples=30, deadline=None)
@given(_clusters())
def test_optimize_moves_only_leaderships_and_never_makes_it_worse(model: ClusterModel) -> None:
    s = _state(model)
    optimize_after_the_hard_goals(GOAL, model, s)
    assert s.leaders.tolist() == np.bincount(s.pos[:, 0], minlength=len(s.allowed)).tolist()
