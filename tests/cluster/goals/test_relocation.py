"""The one module of moves (``kpart.cluster.goals.relocation``, Cruise Control's
relocateReplica/relocateLeadership): every per-broker array and topic count follows a move,
and the band cache is invalidated by the move itself (each band checked against its load's
total before it is used again)."""

from __future__ import annotations

import numpy as np

from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import GoalState, goal_state, goals_by_name
from kpart.cluster.goals.relocation import (
    relocate_back,
    relocate_leadership,
    relocate_leaderships,
    relocate_replica,
    relocate_replicas,
)

CAP = Capacity(disk_bytes=100.0, network_in=100.0, network_out=100.0)


def _model() -> ClusterModel:
    brokers = [ClusterBroker(i, f"r{i}", CAP) for i in range(4)]
    parts = [PartitionState("t", p, (p % 2, 2), size_bytes=1.0 + p, bytes_in_per_s=1.0,
                            bytes_out_per_s=2.0) for p in range(4)]
    return ClusterModel.from_partitions(brokers, parts)


def _ids(s: GoalState, model: ClusterModel) -> np.ndarray:
    ids = np.array([b.id for b in model.brokers])
    out: np.ndarray = np.where(s.pos >= 0, ids[np.maximum(s.pos, 0)], -1)
    return out


def _same_as_fresh(s: GoalState, model: ClusterModel) -> None:
    ids = np.array([b.id for b in model.brokers])
    fresh = goal_state(model, np.where(s.pos >= 0, ids[np.maximum(s.pos, 0)], -1), s.allowed)
    for name in ("replicas", "leaders", "disk", "nw_in", "nw_out", "pot_out", "lead_in",
                 "topic_count"):
        assert np.allclose(getattr(s, name), getattr(fresh, name)), name


def test_every_move_keeps_the_loads_and_invalidates_the_band_cache() -> None:
    model = _model()
    s = goal_state(model, model.replicas, np.ones(4, bool))
    disk = goals_by_name("DiskUsageDistributionGoal")[0]
    moves = [lambda: relocate_replica(s, 0, 1, 3),
             lambda: relocate_leadership(s, 1, 1),
             lambda: relocate_replicas(s, np.array([2, 3]), np.array([0, 0]), 3),
             lambda: relocate_leaderships(s, np.array([2]), np.array([0]))]
    for move in moves:
        disk.violations(s)  # fills the cache
        before = s.cache.generation
        move()
        assert s.cache.generation == before + 1  # every band checked again before use
        assert disk.band(s)[1] == disk.band(goal_state(model, _ids(s, model), s.allowed))[1]
        _same_as_fresh(s, model)


def test_restore_invalidates_the_band_cache() -> None:
    model = _model()
    s = goal_state(model, model.replicas, np.ones(4, bool))
    saved = s.save()
    relocate_replica(s, 0, 1, 3)
    goals_by_name("DiskUsageDistributionGoal")[0].violations(s)
    before = s.cache.generation
    s.restore(saved)
    assert s.cache.generation == before + 1
    _same_as_fresh(s, model)


def test_a_band_is_recomputed_when_its_load_total_changed() -> None:
    model = _model()
    s = goal_state(model, model.replicas, np.ones(4, bool))
    disk = goals_by_name("DiskUsageDistributionGoal")[0]
    hi = disk.band(s)[1]
    s.disk[0] += 40.0  # not a move: the total changes, as no move would change it
    s.cache.invalidate()
    assert abs(disk.band(s)[1] - (hi + 0.1 * 1.1)) < 1e-12  # utilization up 40 / 400


def test_relocate_back_undoes_only_the_moves_no_goal_needs() -> None:
    # broker 3 holds nothing; three followers move to it: the replica-count goal (band
    # [2, 4] replicas) needs two of them there, not three
    brokers = [ClusterBroker(i, f"r{i}", CAP) for i in range(4)]
    parts = [PartitionState("t", p, (p % 3, (p + 1) % 3), size_bytes=10.0 + p)
             for p in range(6)]
    model = ClusterModel.from_partitions(brokers, parts)
    s = goal_state(model, model.replicas, np.ones(4, bool))
    original = s.pos.copy()
    count = goals_by_name("ReplicaDistributionGoal")
    assert count[0].band(s)[:2] == (2, 4) and count[0].violations(s) == 1
    for row in (0, 1, 2):
        relocate_replica(s, row, 1, 3)
    assert relocate_back(s, count, original) == 1
    assert count[0].violations(s) == 0 and s.replicas[3] == 2
    assert (s.pos[2] == original[2]).all()  # the largest of the three went back
    _same_as_fresh(s, model)
    assert relocate_back(s, [], original) == 2  # no goal: every move goes back
    assert (s.pos == original).all()


def test_relocate_back_leaves_leaders_where_they_are() -> None:
    model = _model()
    s = goal_state(model, model.replicas, np.ones(4, bool))
    original = s.pos.copy()
    relocate_replica(s, 0, 0, 3)  # partition 0's leader moves
    assert relocate_back(s, [], original) == 0 and s.pos[0, 0] == 3
