"""Load-aware planning on Cruise Control's #1592 shape (kpart issue 13's targets).

Adds 10 brokers, then separately removes 5, with Cruise Control's default goals
(``max.replicas.per.broker`` raised to 20,000: the shape holds ~13,000 replicas a broker, over
Cruise Control's default 10,000, as #1592's operators must have set it). Prints the planning
time (wall and CPU, median of ``--repeats``), peak RSS, per goal the violations before → after
(from the independent verifier, with the floor it proves no plan can go below), per broker max/mean (and min/mean) of disk, network in/out,
replicas and leaders before → after, and the bytes moved against two lower bounds:

- ``band``: the fewest bytes that bring every broker's disk into the ±10 % band: the larger of
  the bytes above the band's top and the bytes missing under its bottom (any plan moves them);
- ``new-mean`` (adding brokers): the bytes the new brokers must hold to reach the mean disk.

Run: ``PYTHONPATH=src:benchmarks python benchmarks/bench_cluster_plan.py [--scale 0.1]
[--scenario add|remove|both] [--repeats 3] [--failure-goal]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from dataclasses import replace

import numpy as np
from _cluster_shape import CAPACITY, CC1592_JAVA, RACKS, cc1592
from _timing import peak_rss_mb

from kpart.cluster import BrokerLoad, ClusterBroker, ClusterModel
from kpart.cluster.goals import DEFAULT_GOALS, Goal, Thresholds, goals_by_name
from kpart.cluster.optimizer import ClusterPlan, plan_cluster
from kpart.cluster.verifier import verify

THRESHOLDS = Thresholds(max_replicas_per_broker=20_000)


def whole_bytes(model: ClusterModel) -> ClusterModel:
    """``model`` with its partition sizes in whole bytes (floored), as ``kafka-log-dirs.sh``
    reports them and ``bench_cluster_plan_cli.py`` writes them: the library then plans the
    very model ``kpart plan`` reads back from the files. (The generated sizes have fractions
    of a byte; the optimizer's greedy path is sensitive to them: on the remove scenario the
    fractional model ended with 7 brokers outside the network-out band, the one read back
    with 11.)"""
    return replace(model, size_bytes=np.floor(model.size_bytes))


def _bounds(model: ClusterModel, plan: ClusterPlan, added: int) -> tuple[float, float]:
    disk = plan.load_before.disk_bytes
    allowed = np.array([b.id not in plan.removed for b in plan.model.brokers])
    mean = disk.sum() / allowed.sum()
    above = np.maximum(disk - np.where(allowed, mean * THRESHOLDS.disk_balance, 0), 0).sum()
    below = np.maximum(mean * (2 - THRESHOLDS.disk_balance) - disk, 0)[allowed].sum()
    new_mean = mean * added if added else disk[~allowed].sum()
    return float(max(above, below)), float(new_mean)


def _ratios(load: BrokerLoad, allowed: np.ndarray, name: str) -> str:
    v = getattr(load, name)[allowed].astype(float)
    mean = v.mean()
    return f"{v.max() / mean:.3f}/{v.min() / mean:.3f}" if mean else "-"


def run(scale: float, scenario: str, repeats: int, goals: tuple[Goal, ...] = DEFAULT_GOALS,
        ) -> None:
    model = whole_bytes(cc1592(scale))
    n = len(model.brokers)
    add = [ClusterBroker(n + i, f"rack-{(n + i) % RACKS}", CAPACITY) for i in range(10)]
    kwargs: dict[str, object] = ({"add_brokers": add} if scenario == "add"
                                 else {"remove_brokers": list(range(0, 50, 10))})
    walls, cpus, plan = [], [], None
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        plan = plan_cluster(model, thresholds=THRESHOLDS, goals=goals,
                            **kwargs)  # type: ignore[arg-type]
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    assert plan is not None
    w = time.perf_counter()
    report = verify(plan.model, plan.target, goals, removed=plan.removed,
                    thresholds=THRESHOLDS)
    verify_s = time.perf_counter() - w
    print(f"\n== {scenario} ({'10 brokers' if scenario == 'add' else 'brokers 0,10,20,30,40'})"
          f" on cc1592({scale}): {model.num_partitions:,} partitions, {n} brokers")
    print(f"plan: {statistics.median(walls):.1f} s wall, {statistics.median(cpus):.1f} s CPU "
          f"(median of {repeats}; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores); verify {verify_s:.1f} s; peak RSS {peak_rss_mb():.0f} MiB; "
          f"{CC1592_JAVA}")
    print("phases: " + ", ".join(f"{k} {v:.1f}" for k, v in plan.seconds if v >= 0.05))
    print(f"verifier: {'OK' if report.ok else 'FAILED'} {list(report.errors)[:3]}")
    for g in report.goals:
        print(f"  {g.name:40s} {'hard' if g.hard else 'soft'} {g.before} -> {g.after}"
              f"{'' if g.floor is None else f' (floor {g.floor})'}"
              f"{'' if g.ok else '  WORSE'}")
    allowed = np.array([b.id not in plan.removed for b in plan.model.brokers])
    before_allowed = allowed if scenario == "remove" else allowed & (
        np.arange(len(allowed)) < n)
    print("per broker max/min over mean, before -> after:")
    for name in ("disk_bytes", "network_in", "network_out", "replicas", "leaders"):
        print(f"  {name:12s} {_ratios(plan.load_before, before_allowed, name)} -> "
              f"{_ratios(plan.load_after, allowed, name)}")
    band, new_mean = _bounds(model, plan, len(add) if scenario == "add" else 0)
    print(f"moves: {plan.replica_moves:,} replicas, {plan.leader_changes:,} leader changes, "
          f"{plan.bytes_moved / 1e12:.2f} TB moved; lower bounds: band {band / 1e12:.2f} TB "
          f"({plan.bytes_moved / band:.3f}x), "
          f"{'new-mean' if scenario == 'add' else 'removed brokers hold'} {new_mean / 1e12:.2f} "
          f"TB ({plan.bytes_moved / new_mean:.3f}x)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--scenario", choices=("add", "remove", "both"), default="both")
    ap.add_argument("--failure-goal", action="store_true",
                    help="add kpart's BrokerFailureCapacityGoal (every single broker and rack "
                         "failure replayed by the optimizer and the verifier)")
    args = ap.parse_args()
    goals = DEFAULT_GOALS + (goals_by_name("BrokerFailureCapacityGoal")
                             if args.failure_goal else ())
    for scenario in ("add", "remove") if args.scenario == "both" else (args.scenario,):
        run(args.scale, scenario, args.repeats, goals)


if __name__ == "__main__":
    main()
