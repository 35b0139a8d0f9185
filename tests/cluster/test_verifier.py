"""``kpart.cluster.verifier``: the independent check catches invalid replica sets, broken hard
goals and worse soft goals, and agrees with the goals' own counts (from another code path)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import GOALS, Thresholds, goal_state, goals_by_name
from kpart.cluster.load import broker_load, network_out_ceiling
from kpart.cluster.verifier import goal_floor, goal_violations, verify

CAP = Capacity(disk_bytes=100.0, network_in=100.0, network_out=100.0)


def _model(n_brokers: int = 4, racks: int = 2, sizes: tuple[float, ...] = (10.0, 20.0, 30.0),
           rf: int = 2) -> ClusterModel:
    brokers = [ClusterBroker(i, f"r{i % racks}", CAP) for i in range(n_brokers)]
    parts = [PartitionState("t", p, tuple((p + k) % n_brokers for k in range(rf)),
                            leader=p % n_brokers, size_bytes=s, bytes_in_per_s=s / 10,
                            bytes_out_per_s=s / 5) for p, s in enumerate(sizes)]
    return ClusterModel.from_partitions(brokers, parts)


def test_invalid_replica_sets_are_named() -> None:
    m = _model()
    assert verify(m, np.array([[0, 0], [1, 2], [2, 3]]), ()).errors == (
        "partition t-0: broker 0 twice in [0, 0]",)
    assert verify(m, np.array([[0, -1], [1, 2], [2, 3]]), ()).errors == (
        "partition t-0: replication factor 2 became 1 ([0])",)
    report = verify(m, np.array([[0, 1], [1, 2], [2, 3]]), (), removed=[3])
    assert report.errors == ("partition t-2: replicas [2, 3] use a broker that may not hold "
                             "replicas",)
    assert not report.ok


def test_hard_goal_broken_after_fails() -> None:
    m = _model()
    # brokers 0 and 2 share rack r0: a partition on both breaks RackAwareGoal
    report = verify(m, np.array([[0, 2], [1, 2], [2, 3]]), goals_by_name("RackAwareGoal"))
    assert report.goals[0].after == 1 and not report.ok


def test_soft_goal_worse_fails_and_better_passes() -> None:
    m = _model(sizes=(10.0, 10.0, 10.0, 10.0))
    goals = goals_by_name("ReplicaDistributionGoal")
    piled = np.array([[0, 1], [0, 1], [0, 1], [0, 1]])
    assert not verify(m, piled, goals).ok
    assert verify(m, piled, goals, before=piled).ok  # not worse than itself
    even = np.array([[0, 1], [2, 3], [0, 1], [2, 3]])
    assert verify(m, even, goals, before=piled).goals[0].after == 0


@settings(max_examples=30, deadline=None)
@given(st.integers(3, 7), st.integers(1, 3),
       st.lists(st.floats(0, 1000, allow_nan=False), min_size=1, max_size=30),
       st.randoms(use_true_random=False))
def test_verifier_agrees_with_the_goals(n: int, racks: int, sizes: list[float],
                                        rnd: object) -> None:
    m = _model(n, racks, tuple(sizes))
    reps = np.array([rnd.sample(range(n), 2) for _ in sizes], dtype=np.int32)  # type: ignore[attr-defined]
    allowed = np.ones(n, dtype=bool)
    th = Thresholds(max_replicas_per_broker=len(sizes) // 2 + 1)
    s = goal_state(m, reps, allowed, th)
    for g in GOALS:
        assert g.violations(s) == goal_violations(m, reps, reps[:, 0], g.name, allowed, th), g.name


def test_a_target_naming_an_unknown_broker_is_an_error_not_an_exception() -> None:
    """verify never raises for a target of the right width: an unknown broker is reported,
    and no goal is counted over it."""
    from kpart.cluster.goals import goals_by_name

    m = ClusterModel.from_partitions([ClusterBroker(i, f"r{i}") for i in range(3)],
                                     [PartitionState("t", 0, (0, 1)),
                                      PartitionState("t", 1, (1, 2))])
    r = verify(m, np.array([[0, 1], [1, 9]]),
               goals_by_name("RackAwareGoal,ReplicaDistributionGoal"))
    assert not r.ok and r.goals == () and len(r.errors) == 1 and "9" in r.errors[0]


# -- the floor: violations no plan can go below ---------------------------------------------
_FLOORED = ("DiskUsageDistributionGoal", "NetworkInboundUsageDistributionGoal",
            "NetworkOutboundUsageDistributionGoal", "LeaderBytesInDistributionGoal")
_HARD = ("DiskCapacityGoal", "NetworkInboundCapacityGoal", "NetworkOutboundCapacityGoal")


def _heavy_model(sizes: tuple[float, ...], outs: tuple[float, ...], n: int = 6,
                 disk: float = 100.0, *, ins: tuple[float, ...] | None = None,
                 on: tuple[int, ...] | None = None) -> ClusterModel:
    """One replica a partition, partition ``p`` on broker ``on[p]`` (default ``p % n``)."""
    cap = Capacity(disk_bytes=disk, network_in=1e6, network_out=1e6)
    brokers = [ClusterBroker(i, f"r{i}", cap) for i in range(n)]
    on = on or tuple(p % n for p in range(len(sizes)))
    ins = ins or (0.0,) * len(sizes)
    parts = [PartitionState("t", p, (b,), leader=b, size_bytes=s, bytes_in_per_s=i,
                            bytes_out_per_s=o)
             for p, (s, o, i, b) in enumerate(zip(sizes, outs, ins, on, strict=True))]
    return ClusterModel.from_partitions(brokers, parts)


def test_floor_counts_brokers_that_must_lead_a_partition_over_the_band() -> None:
    # 6 brokers, total network out 100 + 100 + 10 x 4 = 240, band top 240 / 6 x 1.1 = 44:
    # the two partitions of 100 put their leaders over it whatever the plan
    m = _heavy_model((30.0, 30.0, 1, 1, 1, 1), (100.0, 100.0, 10, 10, 10, 10))
    allowed = np.ones(6, dtype=bool)
    th = Thresholds()
    name = "NetworkOutboundUsageDistributionGoal"
    # one broker leading both would serve 200, twice the hottest broker before (100): no
    # plan may leave the most-utilized broker more unbalanced, so the floor is 2
    assert network_out_ceiling(m, allowed).tolist() == pytest.approx([100.0] * 6)
    assert goal_floor(m, name, allowed, th) == 2
    # both led by broker 0 today (200), broker 1 leading a light one: one broker may lead
    # both (nothing forbids it), the floor is 1, not 2
    both = dict(on=(0, 0, 1, 2, 3, 4, 5))
    m = _heavy_model((30.0, 30.0, 1, 1, 1, 1, 1), (100.0, 100.0, 10, 10, 10, 10, 10), **both)
    assert goal_floor(m, name, allowed, th) == 1
    assert goal_floor(m, name, allowed, th, _HARD) == 1  # 60 bytes fit 0.8 x 100
    # sized 50 each, they cannot share a broker under DiskCapacityGoal (80 of 100)
    m2 = _heavy_model((50.0, 50.0, 1, 1, 1, 1, 1), (100.0, 100.0, 10, 10, 10, 10, 10), **both)
    assert goal_floor(m2, name, allowed, th, _HARD) == 2
    assert goal_floor(m2, name, allowed, th) == 1
    assert goal_floor(m2, "DiskUsageDistributionGoal", allowed, th, _HARD) == 2
    assert goal_floor(m2, "ReplicaDistributionGoal", allowed, th, _HARD) == 0
    assert goal_floor(m2, "RackAwareGoal", allowed, th, _HARD) is None
    even = _heavy_model((1.0,) * 6, (10.0,) * 6)
    assert goal_floor(even, name, allowed, th, _HARD) == 0
    report = verify(m2, m2.replicas, goals_by_name(",".join((*_HARD, name,
                                                             "ReplicaDistributionGoal"))))
    assert [g.floor for g in report.goals] == [None, None, None, 2, 0]


def test_count_goals_floor_at_zero_unless_max_replicas_keeps_every_broker_under_the_band() -> None:
    # 12 partitions of RF 2 over 3 brokers: 8 replicas and 4 leaders a broker on average
    m = ClusterModel.from_partitions([ClusterBroker(i, f"r{i}") for i in range(3)],
                                     [PartitionState("t", p, (p % 3, (p + 1) % 3))
                                      for p in range(12)])
    allowed = np.ones(3, dtype=bool)
    for name in ("ReplicaDistributionGoal", "LeaderReplicaDistributionGoal",
                 "TopicReplicaDistributionGoal"):
        assert goal_floor(m, name, allowed, Thresholds(), ("ReplicaCapacityGoal",)) == 0
    # at most 3 replicas a broker: the replica band's bottom (7) is out of reach everywhere,
    # the leader band's (3) is not
    tight = Thresholds(max_replicas_per_broker=3)
    assert goal_floor(m, "ReplicaDistributionGoal", allowed, tight,
                      ("ReplicaCapacityGoal",)) == 3
    assert goal_floor(m, "ReplicaDistributionGoal", allowed, tight) == 0
    assert goal_floor(m, "LeaderReplicaDistributionGoal", allowed, tight,
                      ("ReplicaCapacityGoal",)) == 0


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 4), st.lists(st.tuples(st.sampled_from((1.0, 30.0, 45.0)),
                                             st.sampled_from((0.0, 5.0, 60.0)),
                                             st.sampled_from((1.0, 40.0, 90.0))),
                                   min_size=1, max_size=3), st.integers(1, 2))
def test_floor_is_never_above_the_best_plan(n: int, loads: list[tuple[float, float, float]],
                                             rf: int) -> None:
    # every target of the tiny cluster (every ordered replica list per partition) that meets
    # the hard capacity goals has at least ``floor`` violations of each floored goal
    import itertools

    rf = min(rf, n)
    cap = Capacity(disk_bytes=100.0, network_in=100.0, network_out=100.0)
    brokers = [ClusterBroker(i, f"r{i}", cap) for i in range(n)]
    parts = [PartitionState("t", p, tuple(range(rf)), leader=0, size_bytes=s,
                            bytes_in_per_s=i, bytes_out_per_s=o)
             for p, (s, i, o) in enumerate(loads)]
    m = ClusterModel.from_partitions(brokers, parts)
    allowed = np.ones(n, dtype=bool)
    th = Thresholds()
    best = dict.fromkeys(_FLOORED, 10**9)
    for choice in itertools.product(itertools.permutations(range(n), rf), repeat=len(loads)):
        reps = np.array(choice, dtype=np.int32)
        if any(goal_violations(m, reps, reps[:, 0], h, allowed, th) for h in _HARD):
            continue
        out = broker_load(m, reps, reps[:, 0]).network_out
        if (out > network_out_ceiling(m, allowed) * (1 + 1e-9)).any():
            continue  # hotter than the hottest broker before: no plan may do that
        for name in _FLOORED:
            best[name] = min(best[name], goal_violations(m, reps, reps[:, 0], name, allowed, th))
    for name in _FLOORED:
        floor = goal_floor(m, name, allowed, th, _HARD)
        assert floor is not None and floor <= best[name], (name, floor, best[name])


def test_floor_keeps_the_bands_of_higher_priority_goals_the_plan_meets() -> None:
    # 6 partitions of 20 bytes, one a broker: disk band top 120 / 6 x 1.1 = 22, so a plan
    # keeping DiskUsageDistributionGoal puts no two of them on one broker, and the two
    # partitions taking 100 bytes/s in need two brokers over the network-in band
    m = _heavy_model((20.0,) * 6, (0.0,) * 6, ins=(100.0, 100.0, 10, 10, 10, 10))
    allowed = np.ones(6, dtype=bool)
    th = Thresholds()
    name = "NetworkInboundUsageDistributionGoal"
    assert goal_floor(m, name, allowed, th, _HARD) == 1
    assert goal_floor(m, name, allowed, th, _HARD, ("DiskUsageDistributionGoal",)) == 2
    disk_then_out = goals_by_name(f"DiskUsageDistributionGoal,{name}")
    report = verify(m, m.replicas, disk_then_out)
    # network in: 2 brokers over the band [36, 44], 4 under it (10 bytes/s); the floor is 2
    assert [(g.after, g.floor) for g in report.goals] == [(0, 0), (6, 2)]
    # a plan that breaks the disk band (both 20-byte heavy ones on broker 0) keeps no band
    crowded = np.array([[0], [0], [2], [3], [4], [5]])
    report = verify(m, crowded, disk_then_out)
    assert report.goals[0].after > 0 and report.goals[1].floor == 1
