"""Broker- and rack-failure what-ifs at scale: ``kpart outage --all`` on Cruise Control's
issue #1592 shape (215 brokers in 6 racks, 930,000 partitions × RF 3: 221 failures; target
≤ 30 s, issue 13).

Measured, median of ``--repeats``, wall and CPU time, with peak memory:

1. the library: :func:`kpart.cluster.broker_outage.outage_all` + :func:`ranked` to a materialized
   list of results (every failure's offline / under-min-ISR / moved rows and per-broker load);
2. the command end to end, in a child process (``python -m kpart.cli outage ... --all --json
   --out FILE``): from a ``--describe`` dump of the model (racks through ``--brokers``), and
   from a ``cluster.json`` (``--snapshot``, with rates), peak RSS of the child.

Run: ``.venv/bin/python benchmarks/bench_outage.py [--scale 0.1] [--repeats 3] [--no-cli]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from _cluster_shape import cc1592
from _timing import peak_rss_mb, run_child

from kpart.cluster import ClusterModel, cluster_to_json
from kpart.cluster.broker_outage import outage_all, ranked

TARGET_S = 30.0


def _describe(model: ClusterModel) -> str:
    """``kafka-topics.sh --describe`` text of the model (leader and ISR as they are), each
    topic's header line first (a dump without them is refused as partial)."""
    names = [t.name for t in model.topics]
    counts = np.bincount(model.topic, minlength=len(names)).tolist()
    lines = []
    reps = model.replicas.tolist()
    isr = model.isr.tolist()
    last = -1
    for t, p, lead, r, i in zip(model.topic.tolist(), model.partition.tolist(),
                                model.leader.tolist(), reps, isr, strict=True):
        if t != last:
            last = t
            lines.append(f"Topic: {names[t]}\tPartitionCount: {counts[t]}\tReplicationFactor: "
                         f"{sum(1 for b in r if b >= 0)}\tConfigs: ")
        lines.append(f"\tTopic: {names[t]}\tPartition: {p}\tLeader: {lead}\tReplicas: "
                     f"{','.join(str(b) for b in r if b >= 0)}\tIsr: "
                     f"{','.join(str(b) for b in i if b >= 0)}")
    return "\n".join(lines) + "\n"


def _cli(argv: list[str], repeats: int) -> tuple[float, float, float]:
    """Median wall and CPU seconds of ``kpart outage ARGV`` in a child (to its written
    output), and the largest peak RSS (MiB) of those children."""
    runs = [run_child(["outage", *argv]) for _ in range(repeats)]
    for r in runs:
        if r["rc"]:
            raise SystemExit(f"kpart outage failed: {r['error']}")
    return (statistics.median(r["wall"] for r in runs), statistics.median(r["cpu"] for r in runs),
            max(r["rss_mb"] for r in runs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the full size")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-cli", action="store_true", help="time the library only")
    args = parser.parse_args()

    start = time.perf_counter()
    model = cc1592(args.scale)
    print(f"cc1592 shape: {model.num_partitions:,} partitions, {len(model.brokers)} brokers, "
          f"{len({b.rack for b in model.brokers})} racks (built in "
          f"{time.perf_counter() - start:.1f} s, peak RSS {peak_rss_mb():.0f} MiB)")

    walls, cpus = [], []
    results = []
    for _ in range(args.repeats):
        w, c = time.perf_counter(), time.process_time()
        results = ranked(outage_all(model))
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    worst = results[0]
    wall = statistics.median(walls)
    print(f"library outage_all + ranked: {len(results)} failures in {wall:.2f} s wall, "
          f"{statistics.median(cpus):.2f} s CPU (median of {args.repeats}); peak RSS "
          f"{peak_rss_mb():.0f} MiB; target <= {TARGET_S:.0f} s: "
          f"{'met' if wall <= TARGET_S else 'MISSED'}")
    (max_b, mean_b), (max_l, mean_l) = worst.max_mean_bytes_in, worst.max_mean_leaders
    label = f"rack {worst.rack}" if worst.rack else f"broker {worst.down[0]}"
    print(f"worst failure: {label}: max leader bytes-in {max_b / 1e6:.1f} MB/s "
          f"({max_b / mean_b:.2f}x mean), max leaders {max_l:.0f} ({max_l / mean_l:.2f}x mean), "
          f"{len(worst.offline)} offline, {len(worst.under_min_isr)} under min ISR, "
          f"{len(worst.moved):,} leaders moved")
    if args.no_cli:
        return
    racks = ",".join(f"{b.id}:{b.rack}" for b in model.brokers)
    with tempfile.TemporaryDirectory() as tmp:
        dump, snap, out = Path(tmp, "describe.txt"), Path(tmp, "cluster.json"), Path(tmp, "o.json")
        dump.write_text(_describe(model))
        snap.write_text(json.dumps(cluster_to_json(model)))
        del model, results, worst
        print(f"inputs: describe {dump.stat().st_size / 2**20:.0f} MiB, cluster.json "
              f"{snap.stat().st_size / 2**20:.0f} MiB")
        for name, argv in (
            ("--current (describe)", ["--current", str(dump), "--brokers", racks]),
            ("--snapshot (cluster.json)", ["--snapshot", str(snap)]),
        ):
            wall, cpu, peak = _cli([*argv, "--all", "--json", "--out", str(out)], args.repeats)
            print(f"kpart outage {name} --all --json --out: {wall:.2f} s wall, {cpu:.2f} s CPU "
                  f"(median of {args.repeats}); child's peak RSS {peak:.0f} MiB; output "
                  f"{out.stat().st_size / 2**20:.0f} MiB; target <= {TARGET_S:.0f} s: "
                  f"{'met' if wall <= TARGET_S else 'MISSED'}")


if __name__ == "__main__":
    main()
