"""``PreferredLeaderElectionGoal`` (``kpart.cluster.goals.preferred_leader_election``) as a
unit: every partition led by its first replica. A plan's target leader *is* its first replica
(slot 0 of the state), so the goal holds on every state (0 violations), accepts every move,
and its ``optimize`` moves nothing; the verifier, which is given the leaders apart, counts the
partitions whose leader is not their first replica — what a preferred election after the
plan fixes."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import DEFAULT_GOALS, DEFAULT_THRESHOLDS, GOALS, Guards, goal_state
from kpart.cluster.goals.preferred_leader_election import PreferredLeaderElectionGoal
from kpart.cluster.goals.relocation import relocate_leadership
from kpart.cluster.optimizer import plan_cluster
from kpart.cluster.verifier import goal_violations, verify

GOAL = PreferredLeaderElectionGoal()
CAP = Capacity(disk_bytes=1e9, network_in=1e9, network_out=1e9)


def _model(leader_slot: list[int]) -> ClusterModel:
    """Three brokers in their own racks; partition ``p`` on ``(p % 3, (p + 1) % 3, (p + 2) %
    3)``, led by its replica in slot ``leader_slot[p]``."""
    brokers = [ClusterBroker(i, f"r{i}", CAP) for i in range(3)]
    parts = []
    for p, k in enumerate(leader_slot):
        reps = tuple((p + j) % 3 for j in range(3))
        parts.append(PartitionState("t", p, reps, leader=reps[k], size_bytes=1.0,
                                    bytes_in_per_s=1.0, bytes_out_per_s=1.0))
    return ClusterModel.from_partitions(brokers, parts)


def test_a_soft_goal_of_the_registry_not_among_the_defaults() -> None:
    assert not GOAL.hard
    assert GOAL in GOALS and GOAL not in DEFAULT_GOALS


def test_the_first_replica_leads_in_every_state() -> None:
    # the current leaders are the second replicas of two partitions: the verifier counts
    # them when told the leaders; the state's leader is slot 0 by construction: 0
    m = _model([1, 0, 1, 0])
    assert goal_violations(m, m.replicas, m.leader, GOAL.name, np.ones(3, bool),
                           DEFAULT_THRESHOLDS) == 2
    s = goal_state(m, m.replicas, np.ones(3, bool))
    assert GOAL.violations(s) == 0
    # a leadership passed: the new leader takes slot 0
    relocate_leadership(s, 0, 2)
    assert s.pos[0, 0] == m.replicas[0, 2]
    assert GOAL.violations(s) == 0


def test_it_accepts_every_move_and_its_optimize_moves_nothing() -> None:
    m = _model([0, 0, 0, 0])
    s = goal_state(m, m.replicas, np.ones(3, bool))
    before = s.pos.copy()
    for row in range(4):
        for src in s.pos[row].tolist():
            for dst in range(3):
                assert GOAL.accepts(s, row, src, dst)
                assert GOAL.accepts_leader(s, row, src, dst)
    goals = (GOAL,)
    GOAL.optimize(s, Guards(goals, ()))
    assert GOAL.finish(s, Guards(goals, ())) == ""
    assert (s.pos == before).all()


def test_a_plan_with_the_goal_leaves_every_partition_led_by_its_first_replica() -> None:
    # the plan's target lists the leader first: the verifier (leader = first replica)
    # counts 0 after; 3 on the model as it is (three leaders not first)
    m = _model([1, 0, 1, 0, 2, 0])
    goals = (*[g for g in DEFAULT_GOALS if g.hard], GOAL)
    plan = plan_cluster(m, goals=goals)
    report = verify(plan.model, plan.target, goals)
    assert report.ok
    assert report.goals[-1].after == 0
    assert goal_violations(m, m.replicas, m.leader, GOAL.name, np.ones(3, bool),
                           DEFAULT_THRESHOLDS) == 3


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=1, max_size=12),
       st.lists(st.tuples(st.integers(0, 11), st.integers(1, 2)), max_size=10))
def test_no_leadership_move_makes_a_violation(slots: list[int],
                                              moves: list[tuple[int, int]]) -> None:
    m = _model(slots)
    s = goal_state(m, m.replicas, np.ones(3, bool))
    for row, slot in moves:
        if row < len(slots):
            assert GOAL.accepts_leader(s, row, int(s.pos[row, 0]), int(s.pos[row, slot]))
            relocate_leadership(s, row, slot)
    assert GOAL.violations(s) == 0
    # the verifier agrees once told the state's leaders (slot 0)
    assert goal_violations(m, s.pos, s.pos[:, 0], GOAL.name, np.ones(3, bool),
                           DEFAULT_THRESHOLDS) == 0
