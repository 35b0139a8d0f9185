"""``kpart outage`` with ordered events and KIP-966 eligible leader replicas on Cruise Control's
issue #1592 shape (215 brokers in 6 racks, 930,000 partitions × RF 3 = 2.8M replicas,
``min.insync.replicas=2``), a three-step event sequence ``--down A --down B --up A`` (A and B
share many partitions, among them the coordinator of ``group-0``: the second failure leaves
some with an empty ISR), ELR on; target ≤ 30 s
end to end (issue 26).

The command runs in a child process (``python -m kpart.cli outage --snapshot cluster.json
--down A --down B --up A --elr --group ... --json --out FILE``, and the same on a
``--describe`` dump with ``--brokers``): wall and CPU seconds (median of ``--repeats``) and the
child's peak RSS (``kpart outage`` starts no process of its own, so that is the process
tree's). The cluster also has a 50-partition ``__consumer_offsets`` and 50-partition
``__transaction_state`` (RF 3) and the command locates 100 groups and 100 transactional ids.

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/bench_outage_elr.py [--scale 0.1]
[--repeats 3]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
from _cluster_shape import cc1592
from _timing import peak_rss_mb, run_child
from bench_outage import _describe

from kpart.cluster import ClusterModel, cluster_to_json
from kpart.cluster.coordinator import GroupKey
from kpart.cluster.model import LOADS, TopicInfo

TARGET_S = 30.0
INTERNAL = ("__consumer_offsets", "__transaction_state")


def with_internal_topics(model: ClusterModel) -> ClusterModel:
    """``model`` with 50-partition ``__consumer_offsets`` and ``__transaction_state`` topics
    (RF 3, on consecutive brokers, leader first, full ISR) appended."""
    ids = np.array([b.id for b in model.brokers], dtype=np.int32)
    n = 50
    rows = 2 * n
    first = np.arange(rows) % len(ids)
    replicas = ids[(first[:, None] + np.arange(3)[None, :]) % len(ids)]
    width = model.replicas.shape[1]
    if width > 3:
        replicas = np.pad(replicas, ((0, 0), (0, width - 3)), constant_values=-1)
    nan = np.full(rows, np.nan)
    return replace(
        model,
        topics=(*model.topics, *(TopicInfo(t, 2) for t in INTERNAL)),
        topic=np.concatenate([model.topic, np.repeat(
            np.arange(len(model.topics), len(model.topics) + 2, dtype=np.int32), n)]),
        partition=np.concatenate([model.partition, np.tile(np.arange(n, dtype=np.int32), 2)]),
        replicas=np.concatenate([model.replicas, replicas]),
        leader=np.concatenate([model.leader, replicas[:, 0]]),
        isr=np.concatenate([model.isr, replicas]),
        **{k: np.concatenate([getattr(model, k), nan]) for k in LOADS},
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the full size")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-describe", action="store_true",
                        help="only the --snapshot input")
    parser.add_argument("--no-keys", action="store_true",
                        help="no --group/--transactional-id (the events alone)")
    args = parser.parse_args()

    start = time.perf_counter()
    model = with_internal_topics(cc1592(args.scale))
    # A leads the coordinator of group-0 (its __consumer_offsets partition) and B is that
    # partition's second replica: A and B share it and many other partitions
    row = int(np.flatnonzero((model.topic == len(model.topics) - 2)
                             & (model.partition == GroupKey("group-0").partition_for(50)))[0])
    a, b = int(model.replicas[row, 0]), int(model.replicas[row, 1])
    print(f"cc1592 shape + internal topics: {model.num_partitions:,} partitions, "
          f"{int((model.replicas >= 0).sum()):,} replicas, {len(model.brokers)} brokers (built "
          f"in {time.perf_counter() - start:.1f} s, peak RSS {peak_rss_mb():.0f} MiB); events "
          f"--down {a} --down {b} --up {a}, ELR on")
    racks = ",".join(f"{x.id}:{x.rack}" for x in model.brokers)
    keys = [arg for i in range(100) for arg in ("--group", f"group-{i}")]
    keys += [arg for i in range(100) for arg in ("--transactional-id", f"tx-{i}")]
    if args.no_keys:
        keys = []
    events = ["--down", str(a), "--down", str(b), "--up", str(a), "--elr",
              "--kafka-version", "4.3"]
    with tempfile.TemporaryDirectory() as tmp:
        dump, snap, out = Path(tmp, "describe.txt"), Path(tmp, "cluster.json"), Path(tmp, "o.json")
        snap.write_text(json.dumps(cluster_to_json(model)))
        inputs = [("--snapshot (cluster.json)", ["--snapshot", str(snap)])]
        if not args.no_describe:
            dump.write_text(_describe(model))
            inputs.append(("--current (describe)", ["--current", str(dump), "--brokers", racks,
                                                    "--min-insync-replicas", "2"]))
        del model
        for name, argv in inputs:
            runs = [run_child(["outage", *argv, *events, *keys, "--json", "--out", str(out)])
                    for _ in range(args.repeats)]
            for r in runs:
                if r["rc"]:
                    raise SystemExit(f"kpart outage failed: {r['error']}")
            wall = statistics.median(r["wall"] for r in runs)
            cpu = statistics.median(r["cpu"] for r in runs)
            doc = json.loads(out.read_text())
            last = doc["steps"][-1]
            print(f"kpart outage {name} 3 events --elr --json --out: {wall:.2f} s wall, "
                  f"{cpu:.2f} s CPU (median of {args.repeats}); peak RSS of the process tree "
                  f"{max(r['rss_mb'] for r in runs):.0f} MiB; output "
                  f"{out.stat().st_size / 2**20:.0f} MiB; after the last event "
                  f"{len(last['offline_partitions'])} offline, {len(last['under_min_isr'])} "
                  f"under min ISR; coordinator changes per event "
                  f"{[len(s.get('coordinators', [])) for s in doc['steps']]}; target <= {TARGET_S:.0f} s: "
                  f"{'met' if wall <= TARGET_S else 'MISSED'}")


if __name__ == "__main__":
    main()
