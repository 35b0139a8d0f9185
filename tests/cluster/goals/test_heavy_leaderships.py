"""Heavy leaderships two to a broker (``kpart.cluster.goals._heavy_leaderships``): on a cluster with
two partitions each serving more network out than the band's top, led by two brokers, the
plan leads both from one broker and ends at the verifier's floor (one broker over the
band) when a broker served more than both before; without the pairing step it ends above
it; without such a broker no plan leads both from one broker (the ceiling)."""

from __future__ import annotations

import numpy as np
import pytest

import kpart.cluster.goals._network_out_rebalance as netout
from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import goal_state, goals_by_name
from kpart.cluster.goals._heavy_leaderships import Exchange, _backs
from kpart.cluster.goals._network_out_actions import BrokerLimits
from kpart.cluster.load import network_out_ceiling
from kpart.cluster.optimizer import ClusterPlan, plan_cluster
from kpart.cluster.verifier import verify

_NET_OUT = "NetworkOutboundUsageDistributionGoal"


def _cluster(seed: int = 0, n: int = 30, hot: bool = True) -> ClusterModel:
    """``n`` brokers in 10 racks, ``8 n`` light partitions (RF 2, random brokers, sizes 1-10,
    network out 0.5-6) and two heavy ones (size 12) on brokers 0, 1 and 4, 5, each serving
    1.15 × (1.02 ×) the mean network out a broker would carry with both on one broker —
    above the band's top (1.10 × the mean), so whoever leads one is over it. ``hot``: broker
    9 leads 20 more light partitions (6 each) today, so the hottest broker before serves
    more than both heavy ones together (the ceiling no plan may pass lets them share)."""
    rng = np.random.default_rng(seed)
    cap = Capacity(disk_bytes=1e6, network_in=1e6, network_out=1e6)
    brokers = [ClusterBroker(i, f"r{i % 10}", cap) for i in range(n)]
    parts = []
    for p in range(8 * n):
        reps = tuple(int(b) for b in rng.choice(n, size=2, replace=False))
        parts.append(PartitionState(f"t{p % 4}", p, reps, leader=reps[0], isr=reps,
                                    size_bytes=float(rng.uniform(1, 10)), bytes_in_per_s=0.0,
                                    bytes_out_per_s=float(rng.uniform(0.5, 6))))
    for p in range(8 * n, 8 * n + (20 if hot else 0)):
        reps = (9, 10 + p % (n - 10))
        parts.append(PartitionState("w", p, reps, leader=9, isr=reps, size_bytes=5.0,
                                    bytes_in_per_s=0.0, bytes_out_per_s=6.0))
    light = sum(p.bytes_out_per_s or 0.0 for p in parts)
    heavy = 1.15 * light / (n - 2 * 1.15)
    for h in range(2):
        reps = (4 * h, 4 * h + 1)
        parts.append(PartitionState("h", h, reps, leader=reps[0], isr=reps, size_bytes=12.0,
                                    bytes_in_per_s=0.0, bytes_out_per_s=heavy * (1 + 0.02 * h)))
    return ClusterModel.from_partitions(brokers, parts)


def _network_out(plan: ClusterPlan) -> tuple[int, int | None]:
    report = verify(plan.model, plan.target, plan.goals, removed=plan.removed)
    assert report.ok, report
    check = next(g for g in report.goals if g.name == _NET_OUT)
    return check.after, check.floor


def test_two_heavy_leaderships_share_a_broker_and_the_plan_reaches_the_floor() -> None:
    model = _cluster(seed=1)
    plan = plan_cluster(model, network_out_budget=0.5)
    after, floor = _network_out(plan)
    assert floor == 1 and after == 1
    h = next(i for i, t in enumerate(model.topics) if t.name == "h")
    heavy = np.flatnonzero(model.topic == h)
    assert len(heavy) == 2 and plan.target[heavy[0], 0] == plan.target[heavy[1], 0]


def test_no_two_heavy_leaderships_share_a_broker_hotter_than_the_hottest_before() -> None:
    # without the hot broker, a broker leading both heavy ones and what it leads of the
    # light ones would serve more than any broker does today: each keeps a broker of its
    # own (the floor, 1, weighs the heavy ones alone: both fit under the ceiling)
    model = _cluster(hot=False)
    plan = plan_cluster(model, network_out_budget=0.5)
    after, floor = _network_out(plan)
    assert floor == 1 and after == 2
    h = next(i for i, t in enumerate(model.topics) if t.name == "h")
    heavy = np.flatnonzero(model.topic == h)
    assert plan.target[heavy[0], 0] != plan.target[heavy[1], 0]
    kept = ~np.isin([b.id for b in plan.model.brokers], plan.removed)
    ceiling = network_out_ceiling(plan.model, kept)
    assert (plan.load_after.network_out <= ceiling * (1 + 1e-9)).all()


def test_without_the_pairs_the_plan_stays_above_the_floor(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(netout, "pair_heavy", lambda *args: 0.0)
    after, floor = _network_out(plan_cluster(_cluster(), network_out_budget=0.5))
    assert floor == 1 and after > 1


def test_a_bin_sends_back_a_partition_it_leads_with_its_leadership() -> None:
    """Broker 2 (the bin) takes broker 0's heavy partition ``q``; it follows nothing, so only
    with ``with_led`` does a replica go back: the partition it leads, ``m`` (slot 0: its
    leadership goes with it to broker 0, which needs network out back)."""
    cap = Capacity(disk_bytes=100.0, network_in=1e6, network_out=1e6)
    brokers = [ClusterBroker(i, f"r{i}", cap) for i in range(4)]
    parts = [PartitionState("t", p, reps, leader=reps[0], isr=reps, size_bytes=10.0,
                            bytes_in_per_s=0.0, bytes_out_per_s=out)
             for p, (reps, out) in enumerate((((0, 1), 50.0), ((2, 3), 20.0)))]
    model = ClusterModel.from_partitions(brokers, parts)
    s = goal_state(model, model.replicas, np.ones(4, dtype=bool))
    n = np.ones(4)
    lim = BrokerLimits(lo=n, hi=1e3 * n, lo_t=n, hi_t=1e3 * n, clo=0.0, chi=10.0,
                       lin=np.full(4, np.inf), top=np.full(4, np.inf))
    guards = goals_by_name("DiskUsageDistributionGoal")
    assert _backs(s, 2, 0, 0, Exchange(lim, guards, 0)) == ([], 0.0)
    assert _backs(s, 2, 0, 0, Exchange(lim, guards, 0), with_led=True) == ([[1, 0]], 0.0)
