"""Leadership chains (kpart.cluster.goals._leadership_chains): the worked example of the module
docstring, where no single transfer nor pair swap helps and a chain does."""

from __future__ import annotations

import numpy as np

from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import GoalState, goal_state
from kpart.cluster.goals._leadership_chains import chain_leaders
from kpart.cluster.goals._leadership_movement import LeaderBands, refine_leaders

CAP = Capacity(disk_bytes=1e9, network_in=1e9, network_out=1e9)


def _state() -> GoalState:
    brokers = [ClusterBroker(i, f"r{i}", CAP) for i in range(3)]
    rows = [  # (replicas, network out of the leader): a=0 leads p and x, b=1 q and y, c=2 z
        ((0, 1), 4.0), ((0,), 9.0), ((1, 2), 4.0), ((1,), 6.0), ((2,), 7.0)]
    parts = [PartitionState("t", i, reps, leader=reps[0], size_bytes=1.0, bytes_in_per_s=0.0,
                            bytes_out_per_s=out) for i, (reps, out) in enumerate(rows)]
    model = ClusterModel.from_partitions(brokers, parts)
    return goal_state(model, model.replicas, np.ones(3, bool))


def _named(rows: np.ndarray) -> LeaderBands:
    """The rows ``lo, hi, norm, lo_t, hi_t`` of each goal in turn, as :class:`LeaderBands`."""
    return LeaderBands(*(rows[k::5] for k in range(5)))


def _bands() -> tuple[LeaderBands, np.ndarray]:
    """Network out aimed at and held to [9, 11]; no leader-count nor bytes-in band."""
    inf = np.full(3, np.inf)
    bands = np.stack([np.full(3, 9.0), np.full(3, 11.0), np.full(3, 10.0), np.full(3, 9.0),
                      np.full(3, 11.0)] + [-inf, inf, np.ones(3), -inf, inf] * 2)
    return _named(bands), np.array([1.0, 0.0, 0.0])


def test_a_chain_clears_what_single_moves_cannot() -> None:
    s = _state()
    assert s.nw_out.tolist() == [13.0, 10.0, 7.0]
    bands, weights = _bands()
    refine_leaders(s, bands, weights)  # single transfers and pair swaps: nothing fits
    assert s.nw_out.tolist() == [13.0, 10.0, 7.0]
    assert chain_leaders(s, bands, weights) == 2
    assert s.nw_out.tolist() == [9.0, 10.0, 11.0]  # a -> b -> c, all inside [9, 11]
    assert s.pos[:, 0].tolist() == [1, 0, 2, 1, 2]
    assert s.leaders.tolist() == [1, 2, 2]


def _cycle_state() -> GoalState:
    brokers = [ClusterBroker(i, f"r{i}", CAP) for i in range(3)]
    rows = [  # a=0 leads p (6, b follows) and 7; b=1 q (5, c follows) and 5; c=2 r (4, a) and 6
        ((0, 1), 6.0), ((0,), 7.0), ((1, 2), 5.0), ((1,), 5.0), ((2, 0), 4.0), ((2,), 6.0)]
    parts = [PartitionState("t", i, reps, leader=reps[0], size_bytes=1.0, bytes_in_per_s=0.0,
                            bytes_out_per_s=out) for i, (reps, out) in enumerate(rows)]
    model = ClusterModel.from_partitions(brokers, parts)
    return goal_state(model, model.replicas, np.ones(3, bool))


def test_a_cycle_keeps_every_leader_count() -> None:
    """Two leaders each, held to exactly two: ``a`` (13, band [10, 12]) may only trade."""
    s = _cycle_state()
    assert s.nw_out.tolist() == [13.0, 10.0, 10.0]
    inf = np.full(3, np.inf)
    bands = np.stack([np.full(3, 10.0), np.full(3, 12.0), np.full(3, 11.0), np.full(3, 10.0),
                      np.full(3, 12.0)]
                     + [np.full(3, 2.0), np.full(3, 2.0), np.ones(3), np.full(3, 2.0 - 1e-9),
                        np.full(3, 2.0 + 1e-9)]
                     + [-inf, inf, np.ones(3), -inf, inf])
    bands = _named(bands)
    weights = np.array([4.0, 1.0, 0.0])
    refine_leaders(s, bands, weights)  # no single transfer keeps the counts; no pair swap
    assert s.nw_out.tolist() == [13.0, 10.0, 10.0]
    assert chain_leaders(s, bands, weights) == 3
    assert s.nw_out.tolist() == [11.0, 11.0, 11.0]  # a -> b -> c -> a
    assert s.leaders.tolist() == [2, 2, 2]
