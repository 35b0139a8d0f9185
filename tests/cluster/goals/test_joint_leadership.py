"""Leaders kept (kpart.cluster.goals._leadership_movement.restore_leaders and plan_cluster): a
leadership the goals do not need moved goes back to the partition's current leader; one
whose return would take a broker out of a band stays."""

from __future__ import annotations

import numpy as np

from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import GoalState, goal_state
from kpart.cluster.goals._leadership_movement import LeaderBands, restore_leaders
from kpart.cluster.optimizer import plan_cluster
from kpart.cluster.verifier import verify

CAP = Capacity(disk_bytes=1e9, network_in=1e9, network_out=1e9)


def _state() -> tuple[GoalState, np.ndarray]:
    """Three brokers, four partitions on all three led by broker 0 then 1, 2, 0 with
    network out 5, 5, 5, 15 (loads 20, 5, 5)."""
    brokers = [ClusterBroker(i, f"r{i}", CAP) for i in range(3)]
    outs = (5.0, 5.0, 5.0, 15.0)
    parts = [PartitionState("t", i, (i % 3, (i + 1) % 3, (i + 2) % 3), leader=i % 3,
                            size_bytes=1.0, bytes_in_per_s=0.0, bytes_out_per_s=o)
             for i, o in enumerate(outs)]
    model = ClusterModel.from_partitions(brokers, parts)
    s = goal_state(model, model.replicas, np.ones(3, bool))
    return s, model.broker_positions(model.replicas)[:, 0]


def _bands(lo: float, hi: float) -> tuple[LeaderBands, np.ndarray]:
    inf = np.full(3, np.inf)
    net = [np.full(3, lo), np.full(3, hi), np.full(3, 10.0), np.full(3, lo), np.full(3, hi)]
    rows = np.stack(net + [-inf, inf, np.ones(3), -inf, inf] * 2)
    return LeaderBands(*(rows[k::5] for k in range(5))), np.array([1.0, 0.0, 0.0])


def _lead(s: GoalState, leaders: list[int]) -> None:
    for i, x in enumerate(leaders):
        k = int(np.flatnonzero(s.pos[i] == x)[0])
        s.pos[i, 0], s.pos[i, k] = s.pos[i, k], s.pos[i, 0]
    b = len(s.allowed)
    s.leaders[:] = np.bincount(s.pos[:, 0], minlength=b)
    s.nw_out[:] = np.bincount(s.pos[:, 0], weights=s.lead_out, minlength=b)


def test_leaders_the_bands_do_not_need_moved_go_back() -> None:
    s, orig = _state()
    _lead(s, [2, 0, 1, 0])  # loads 20, 5, 5 as before, every light leader moved
    bands, weights = _bands(-np.inf, np.inf)
    assert restore_leaders(s, orig, bands, weights) == 3
    assert s.pos[:, 0].tolist() == orig.tolist()
    assert s.nw_out.tolist() == [20.0, 5.0, 5.0]


def test_a_leader_whose_return_breaks_a_band_stays() -> None:
    s, orig = _state()
    _lead(s, [0, 1, 2, 1])  # the heavy leadership moved to broker 1: loads 5, 20, 5
    restore_leaders(s, orig, *_bands(0.0, 19.0))  # back, broker 0 would be over 19
    assert s.pos[3, 0] == 1 and s.nw_out.tolist() == [5.0, 20.0, 5.0]
    restore_leaders(s, orig, *_bands(0.0, 20.0))  # 20 is in the band: it goes back
    assert s.pos[:, 0].tolist() == orig.tolist()


def test_a_plan_changes_no_leader_it_need_not() -> None:
    """Adding a broker to a cluster in band for every goal: the partitions the plan moves
    no replica of keep their leader and replica order."""
    brokers = [ClusterBroker(i, f"r{i}", CAP) for i in range(3)]
    parts = [PartitionState("t", p, (p % 3, (p + 1) % 3), leader=p % 3, size_bytes=10.0,
                            bytes_in_per_s=1.0, bytes_out_per_s=1.0) for p in range(12)]
    model = ClusterModel.from_partitions(brokers, parts)
    plan = plan_cluster(model, add_brokers=[ClusterBroker(3, "r3", CAP)])
    assert verify(plan.model, plan.target, plan.goals).ok
    untouched = (np.sort(plan.target, axis=1) == np.sort(model.replicas, axis=1)).all(axis=1)
    assert (plan.target[untouched] == model.replicas[untouched]).all()
