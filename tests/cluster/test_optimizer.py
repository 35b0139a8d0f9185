"""``kpart.cluster.optimizer.plan_cluster``: every plan it makes passes the independent verifier
(valid replica sets, hard goals met, no soft goal worse), empties removed brokers, fills new
ones, and moves few bytes."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import (
    DEFAULT_GOALS,
    DEFAULT_THRESHOLDS,
    GOALS,
    Goal,
    Thresholds,
    goals_by_name,
)
from kpart.cluster.optimizer import plan_cluster
from kpart.cluster.verifier import verify
from kpart.errors import ConfigError, OptimizationFailureError

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from _cluster_shape import CAPACITY, cc1592  # noqa: E402

CAP = Capacity(disk_bytes=1e6, network_in=1e6, network_out=1e6)


def _random_model(n: int, racks: int, sizes: list[float], seed: int) -> ClusterModel:
    rng = np.random.default_rng(seed)
    brokers = [ClusterBroker(i, f"r{i % racks}", CAP) for i in range(n)]
    by_rack = [[b.id for b in brokers if b.rack == f"r{r}"] for r in range(racks)]
    parts = []
    for p, size in enumerate(sizes):
        chosen = rng.choice(racks, size=2, replace=False)
        reps = tuple(int(rng.choice(by_rack[int(r)])) for r in chosen)
        parts.append(PartitionState(f"t{p % 3}", p, reps, leader=reps[0], size_bytes=size,
                                    bytes_in_per_s=size / 100, bytes_out_per_s=size / 50))
    return ClusterModel.from_partitions(brokers, parts)


#: Goals a plan may leave worse here: none (the leadership goals used to be, before the
#: leadership descent that lets no goal's violation count grow).
LEADERSHIP: set[str] = set()


def _check(plan: object, goals: tuple[Goal, ...] = DEFAULT_GOALS, th: Thresholds = DEFAULT_THRESHOLDS,
           lenient: frozenset[str] = frozenset()) -> None:
    report = verify(plan.model, plan.target, goals, removed=plan.removed,  # type: ignore[attr-defined]
                    thresholds=th)
    assert not report.errors
    bad = [g for g in report.goals if not g.ok and (g.hard or g.name not in lenient)]
    assert not bad, bad


@settings(max_examples=25, deadline=None)
@given(st.integers(4, 9), st.integers(2, 3),
       st.lists(st.floats(10, 100, allow_nan=False), min_size=80, max_size=160),
       st.integers(0, 2**16), st.sampled_from(["add", "remove", "none"]))
def test_every_plan_passes_the_verifier(n: int, racks: int, sizes: list[float], seed: int,
                                        scenario: str) -> None:
    m = _random_model(n, racks, sizes, seed)
    if scenario == "add":
        plan = plan_cluster(m, add_brokers=[ClusterBroker(n, f"r{n % racks}", CAP)])
        _check(plan, lenient=frozenset(LEADERSHIP))
    elif scenario == "remove":
        # racks of equal size once broker 0 goes (else the distribution goals can be
        # infeasible under rack awareness, and may end worse: see the verifier's report)
        n = racks * max(2, n // racks) + 1
        m = _random_model(n, racks, sizes, seed)
        try:
            plan = plan_cluster(m, remove_brokers=[0])
        except OptimizationFailureError as e:  # rack-aware placement: infeasible with one rack less
            assert e.goal and e.partition is not None
            return
        _check(plan, lenient=frozenset(LEADERSHIP))
        assert not (plan.target == 0).any()
    else:  # racks of equal size (see "remove")
        m = _random_model(racks * max(2, n // racks), racks, sizes, seed)
        _check(plan_cluster(m, goals=GOALS), GOALS, lenient=frozenset(LEADERSHIP))


def test_adding_brokers_fills_them_with_few_bytes() -> None:
    m = cc1592(0.01, brokers=30)
    add = [ClusterBroker(30 + i, f"rack-{(30 + i) % 6}", CAPACITY) for i in range(3)]
    th = Thresholds(max_replicas_per_broker=20_000)
    plan = plan_cluster(m, add_brokers=add, thresholds=th)
    _check(plan, th=th)
    disk = plan.load_after.disk_bytes
    assert disk.max() <= disk.mean() * 1.1 + 1 and disk.min() >= disk.mean() * 0.9 - 1
    new_mean = disk.mean() * 3  # what the new brokers must hold to reach the mean
    assert plan.bytes_moved <= 1.25 * new_mean
    assert (plan.load_after.replicas[30:] > 0).all()


def test_removing_brokers_empties_them() -> None:
    m = cc1592(0.01, brokers=30)
    th = Thresholds(max_replicas_per_broker=20_000)
    plan = plan_cluster(m, remove_brokers=[0, 7], thresholds=th)
    _check(plan, th=th)
    assert not np.isin(plan.target, [0, 7]).any()
    assert plan.bytes_moved <= 1.25 * plan.load_before.disk_bytes[[0, 7]].sum()


def test_bad_brokers_are_refused() -> None:
    m = _random_model(4, 2, [1.0, 2.0], 0)
    with pytest.raises(ConfigError, match="already has it"):
        plan_cluster(m, add_brokers=[ClusterBroker(1, "r1")])
    with pytest.raises(ConfigError, match="Unknown broker 9"):
        plan_cluster(m, remove_brokers=[9])
    with pytest.raises(ConfigError, match="no broker would be left"):
        plan_cluster(m, remove_brokers=[0, 1, 2, 3])


def test_network_out_moves_a_follower_where_leadership_alone_cannot() -> None:
    # broker 0 leads t-0 and t-1 (12 B/s out each), brokers 2 and 3 one each (12), broker 1
    # none and follows nothing with traffic: mean 12, band [10.8, 13.2]. No leadership swap
    # helps broker 1; moving a follower of a partition the over broker leads to broker 1 and
    # passing it the leadership does: one replica, the smallest that fits (t-0 or t-1,
    # depending on which the leadership pass left on the over broker).
    cap = Capacity(disk_bytes=1000.0, network_in=1000.0, network_out=1000.0)
    m = ClusterModel.from_partitions(
        [ClusterBroker(i, r, cap) for i, r in enumerate("abcd")],
        [PartitionState("t", p, reps, leader=reps[0], isr=reps, size_bytes=size,
                        bytes_in_per_s=0.0, bytes_out_per_s=out)
         for p, (reps, size, out) in enumerate([((0, 2), 1.0, 12.0), ((0, 3), 2.0, 12.0),
                                                ((2, 3), 5.0, 12.0), ((3, 2), 5.0, 12.0),
                                                ((1, 2), 5.0, 0.0)])])
    goals = goals_by_name("RackAwareGoal,ReplicaCapacityGoal,DiskCapacityGoal,"
                          "NetworkInboundCapacityGoal,NetworkOutboundCapacityGoal,"
                          "NetworkOutboundUsageDistributionGoal")
    plan = plan_cluster(m, goals=goals, network_out_budget=0.1)
    check = verify(plan.model, plan.target, goals)
    assert check.ok, check
    assert [(g.before, g.after) for g in check.goals][-1] == (2, 0)
    assert plan.replica_moves == 1 and plan.bytes_moved <= 2.0
    assert int(plan.load_after.leaders[1]) == 2 and plan.load_after.network_out[1] == 12.0
    # no budget: leadership alone, broker 1 stays empty
    none = plan_cluster(m, goals=goals, network_out_budget=0.0)
    assert verify(none.model, none.target, goals).ok and none.bytes_moved == 0.0
