"""The leadership program (kpart.cluster.goals._exact_leadership): the worked example of its
docstring, and on random clusters: only leaders change, no leadership goal ends with more
brokers outside its band, and a change is made only when one ends with fewer."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import DEFAULT_GOALS, GoalState, goal_state, goals_by_name
from kpart.cluster.goals._exact_leadership import leadership_goals, program_leaders
from kpart.cluster.optimizer import plan_cluster

CAP = Capacity(disk_bytes=1e9, network_in=1e9, network_out=1e9)
_NET_OUT = goals_by_name(["NetworkOutboundUsageDistributionGoal"])


def _model(rows: list[tuple[tuple[int, ...], float, float]], brokers: int,
           cap: Capacity = CAP) -> ClusterModel:
    """Partitions ``(replicas, bytes-out/s, bytes-in/s)``, one rack a broker."""
    bs = [ClusterBroker(i, f"r{i}", cap) for i in range(brokers)]
    parts = [PartitionState("t", i, reps, leader=reps[0], isr=reps, size_bytes=1.0,
                            bytes_in_per_s=rin, bytes_out_per_s=out)
             for i, (reps, out, rin) in enumerate(rows)]
    return ClusterModel.from_partitions(bs, parts)


def _state(model: ClusterModel) -> GoalState:
    return goal_state(model, model.replicas, np.ones(len(model.brokers), bool))


def test_the_worked_example() -> None:
    """a=0 leads p (4, b follows) and 9; b=1 leads q (4, c follows) and 6; c=2 leads 7; the
    band is [9, 11]: p goes to b and q to c."""
    s = _state(_model([((0, 1), 4.0, 0.0), ((0,), 9.0, 0.0), ((1, 2), 4.0, 0.0),
                       ((1,), 6.0, 0.0), ((2,), 7.0, 0.0)], 3))
    assert s.nw_out.tolist() == [13.0, 10.0, 7.0]
    assert program_leaders(s, _NET_OUT) == 2
    assert s.nw_out.tolist() == [9.0, 10.0, 11.0]
    assert s.pos[:, 0].tolist() == [1, 0, 2, 1, 2]
    assert s.leaders.tolist() == [1, 2, 2]
    assert sorted(s.pos[0].tolist()) == [0, 1] and sorted(s.pos[2].tolist()) == [1, 2]


def test_nothing_outside_a_band_changes_nothing() -> None:
    s = _state(_model([((0, 1), 10.0, 0.0), ((1, 0), 10.0, 0.0)], 2))
    before = s.pos.copy()
    assert program_leaders(s, DEFAULT_GOALS) == 0
    assert (s.pos == before).all()


def test_a_higher_goal_is_never_traded_for_a_lower_one() -> None:
    """Broker 1 leads one partition, under the leader-count band [2, 4]; the only one it could
    take (``b``, 3, from broker 0) would take brokers 0 and 1 out of the network-out band
    [9, 11], which network out (the higher goal) forbids: nothing changes."""
    rows = [((0,), 4.0, 0.0), ((0, 1), 3.0, 0.0), ((0,), 1.5, 0.0), ((0,), 1.5, 0.0),
            ((1,), 10.0, 0.0)] + [((2,), 2.5, 0.0)] * 4
    s = _state(_model(rows, 3))
    goals = goals_by_name(["NetworkOutboundUsageDistributionGoal",
                           "LeaderReplicaDistributionGoal"])
    assert s.nw_out.tolist() == [10.0, 10.0, 10.0] and s.leaders.tolist() == [4, 1, 4]
    assert [g.violations(s) for g in goals] == [0, 1]
    assert program_leaders(s, goals) == 0
    assert s.pos[1, 0] == 0
    s.cache.invalidate()
    assert program_leaders(s, goals[1:]) == 1  # alone, the leader count may take it
    assert s.pos[1, 0] == 1 and s.leaders.tolist() == [3, 2, 4]


def _random_state(seed: int, brokers: int, partitions: int) -> GoalState:
    """Partitions of RF 1-3 on random brokers, heavy-tailed rates; network-out capacity
    either far off or near the loads."""
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(partitions):
        rf = int(rng.integers(1, min(3, brokers) + 1))
        reps = tuple(int(b) for b in rng.choice(brokers, size=rf, replace=False))
        rows.append((reps, float(rng.pareto(1.5) * 10), float(rng.pareto(1.5) * 3)))
    cap = Capacity(disk_bytes=1e9, network_in=1e9,
                   network_out=float(rng.choice([1e9, 400.0])))
    return _state(_model(rows, brokers, cap))


_GOALS = [g for g in DEFAULT_GOALS if g in leadership_goals(DEFAULT_GOALS) or g.hard]


@given(seed=st.integers(0, 2**32 - 1), brokers=st.integers(3, 7),
       partitions=st.integers(4, 40))
def test_no_leadership_goal_ends_worse(seed: int, brokers: int, partitions: int) -> None:
    s = _random_state(seed, brokers, partitions)
    goals = _GOALS
    named = leadership_goals(goals)
    before = [g.violations(s) for g in named]
    over_cap = s.nw_out > s.cap_out * s.thresholds.capacity
    start = s.pos.copy()
    made = program_leaders(s, goals)
    s.cache.invalidate()
    after = [g.violations(s) for g in named]
    assert (np.sort(s.pos, axis=1) == np.sort(start, axis=1)).all()  # leaders only
    assert int((s.pos[:, 0] != start[:, 0]).sum()) == made
    assert all(a <= b for a, b in zip(after, before, strict=True))
    assert (made == 0) == (after == before)
    b = len(s.allowed)
    assert s.nw_out.tolist() == np.bincount(s.pos[:, 0], weights=s.lead_out,
                                            minlength=b).tolist()
    assert s.leaders.tolist() == np.bincount(s.pos[:, 0], minlength=b).tolist()
    limit = s.cap_out * s.thresholds.capacity
    assert not (~over_cap & (s.nw_out > limit * (1 + 1e-9))).any()


def test_the_solver_prints_nothing(capfd: pytest.CaptureFixture[str]) -> None:
    """HiGHS prints a debug line to the C stdout on these programs (scipy 1.17): none
    reaches fd 1 (``kpart plan --json`` writes its document there)."""
    made = [program_leaders(_random_state(*args), _GOALS)
            for args in ((12, 6, 13), (139, 5, 19), (228, 6, 28))]
    assert any(made)
    out, _ = capfd.readouterr()
    assert out == ""


def test_a_plan_runs_the_program_unless_the_failure_goal_orders_leaders() -> None:
    model = _model([((0, 1), 4.0, 0.0), ((0,), 9.0, 0.0), ((1, 2), 4.0, 0.0),
                    ((1,), 6.0, 0.0), ((2,), 7.0, 0.0)], 3)
    assert "leadership program" in dict(plan_cluster(model).seconds)
    goals = (*DEFAULT_GOALS, *goals_by_name(["BrokerFailureCapacityGoal"]))
    assert "leadership program" not in dict(plan_cluster(model, goals=goals).seconds)
