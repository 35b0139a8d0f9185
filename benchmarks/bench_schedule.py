"""Scheduling a load-aware plan on Cruise Control's #1592 shape (kpart issue 13, point 6).

Plans adding 10 brokers (``--scenario remove``: removing brokers 0, 10, 20, 30, 40) with :func:`kpart.cluster.optimizer.plan_cluster` (as
``bench_cluster_plan.py`` does, not timed here), then times, median of ``--repeats``:

- :func:`kpart.cluster.schedule.schedule_plan` at ``K = --k`` with ``--throttle`` bytes/s (the
  batches materialized as :class:`~kpart.cluster.schedule.Batch` values, rows included);
- :func:`~kpart.cluster.schedule.reassignment_json` of every reassigned partition in one file,
  and of every batch (one file each) plus the rollback file;

and prints the batch count (against the lower bound ``max over brokers of ceil(moves / K)``),
the estimated duration, peak RSS (and the memory the scheduling and JSON steps allocate at
their peak, by ``tracemalloc``), and as a peer the existing object batcher
:func:`kpart.placement.plan.batch_moves` on the same moves (as ``Move`` objects, built untimed
in a forked child; "did not finish" past 60 s).

Run: ``PYTHONPATH=src:benchmarks python benchmarks/bench_schedule.py [--scale 0.1]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc

import numpy as np
from _cluster_shape import CAPACITY, RACKS, cc1592
from _timing import capped_median, fmt_seconds, peak_rss_mb

from kpart.cluster import ClusterBroker, ClusterModel
from kpart.cluster.goals import Thresholds
from kpart.cluster.optimizer import plan_cluster
from kpart.cluster.schedule import reassignment_json, rollback_json, schedule_plan
from kpart.placement.plan import batch_moves
from kpart.placement.reassign import Move

THRESHOLDS = Thresholds(max_replicas_per_broker=20_000)


def _timed(repeats: int, fn: object) -> tuple[float, float, object]:
    walls, cpus, out = [], [], None
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        out = fn()  # type: ignore[operator]
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus), out


def _moves(model: ClusterModel, target: np.ndarray, rows: np.ndarray) -> list[Move]:
    names = [t.name for t in model.topics]
    cur, tgt = model.replicas[rows].tolist(), target[rows].tolist()
    return [Move(names[t], p, tuple(b for b in c if b >= 0), tuple(b for b in n if b >= 0))
            for t, p, c, n in zip(model.topic[rows].tolist(), model.partition[rows].tolist(),
                                  cur, tgt, strict=True)]


def _lower_bound(model: ClusterModel, target: np.ndarray, k: int) -> int:
    """max over brokers of ceil(reassignments copying data the broker gains or loses in / K)."""
    cur, tgt = model.replicas, target
    add = (tgt[:, :, None] != cur[:, None, :]).all(axis=2) & (tgt >= 0)
    rem = (cur[:, :, None] != tgt[:, None, :]).all(axis=2) & (cur >= 0)
    data = add.any(axis=1)
    ids = np.concatenate([tgt[data][add[data]], cur[data][rem[data]]])
    per = np.bincount(ids)
    return int(-(-per.max() // k)) if len(per) else 0


def run(scale: float, k: int, throttle: float, repeats: int, scenario: str) -> None:
    model = cc1592(scale)
    n = len(model.brokers)
    add = [ClusterBroker(n + i, f"rack-{(n + i) % RACKS}", CAPACITY) for i in range(10)]
    kwargs: dict[str, object] = ({"add_brokers": add} if scenario == "add"
                                 else {"remove_brokers": list(range(0, 50, 10))})
    w = time.perf_counter()
    plan = plan_cluster(model, thresholds=THRESHOLDS, **kwargs)  # type: ignore[arg-type]
    plan_s = time.perf_counter() - w
    rss_planned = peak_rss_mb()
    m, target = plan.model, plan.target
    rows = plan.moved_rows()
    what = "+ 10 brokers" if scenario == "add" else "- brokers 0,10,20,30,40"
    print(f"== cc1592({scale}) {what}: {m.num_partitions:,} partitions; plan "
          f"{plan_s:.1f} s (untimed below): {len(rows):,} partitions reassigned, "
          f"{plan.replica_moves:,} replica moves, {plan.bytes_moved / 1e12:.2f} TB")
    sched_w, sched_c, s = _timed(repeats, lambda: schedule_plan(
        m, target, max_moves_per_broker=k, throttle_bytes_per_s=throttle))
    bound = _lower_bound(m, target, k)
    total = s.total_seconds or 0.0  # type: ignore[attr-defined]
    batches = s.batches  # type: ignore[attr-defined]
    copying = sum(1 for b in batches if b.replica_moves)
    print(f"schedule_plan (K={k}, throttle {throttle:,.0f} B/s): {sched_w:.2f} s wall, "
          f"{sched_c:.2f} s CPU (median of {repeats}); {len(batches):,} batches: {copying:,} "
          f"copying data (lower bound {bound:,}) + {len(batches) - copying} copy-free; "
          f"estimated {total / 3600:.1f} h "
          f"({total:,.0f} s); bytes {sum(b.bytes for b in batches) / 1e12:.2f} TB")
    one_w, one_c, text = _timed(repeats, lambda: reassignment_json(m, target, rows))
    print(f"reassignment_json of all {len(rows):,} partitions: {one_w:.2f} s wall, "
          f"{one_c:.2f} s CPU, {len(text) / 1e6:.1f} MB")  # type: ignore[arg-type]
    all_w, all_c, _ = _timed(repeats, lambda: (
        [reassignment_json(m, target, b.rows) for b in batches], rollback_json(m, rows)))
    print(f"one JSON per batch ({len(batches):,}) + rollback: {all_w:.2f} s wall, "
          f"{all_c:.2f} s CPU")
    tracemalloc.start()
    schedule_plan(m, target, max_moves_per_broker=k, throttle_bytes_per_s=throttle)
    sched_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.reset_peak()
    reassignment_json(m, target, rows)
    json_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"peak RSS {peak_rss_mb():.0f} MiB (after planning: {rss_planned:.0f} MiB); "
          f"allocated at peak (tracemalloc): schedule_plan {sched_peak / 2**20:.0f} MiB, "
          f"reassignment_json {json_peak / 2**20:.0f} MiB")
    peer = capped_median(lambda: _moves(m, target, rows), lambda mv: batch_moves(mv, k),
                         repeats=1, cap=60.0)
    count = ""
    if peer is not None:  # it finished: count its batches (once more, in this process)
        count = f", {len(batch_moves(_moves(m, target, rows), k)):,} batches"
    print(f"peer kpart.placement.plan.batch_moves (Move objects, K={k}): {fmt_seconds(peer)}"
          f"{count}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--throttle", type=float, default=50e6, help="bytes/s (default 50 MB/s)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--scenario", choices=("add", "remove"), default="add")
    args = ap.parse_args()
    run(args.scale, args.k, args.throttle, args.repeats, args.scenario)


if __name__ == "__main__":
    main()
