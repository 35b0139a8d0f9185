"""The minimal-movement planner at scale: 200 brokers × 200,000 partitions × RF 3 (200 topics
created by AdminUtils with one java.util.Random), adding 10 brokers.

Measured in the same run: kpart's ``plan`` (target ≤ 60 s, issue 4) and the peer, Kafka's
``--generate`` (``AdminUtils`` per topic over the new broker list, seeded random start):
time, replicas moved by each, max/min replicas and leaders per broker after each.

Run: ``.venv/bin/python benchmarks/bench_planner.py [--scale 0.1] [--racks 4] [-k 10]``.
"""

from __future__ import annotations

import argparse
import math
import time

from kpart._java.random import JavaRandom
from kpart.placement.admin_utils import assign_replicas_to_brokers
from kpart.placement.balance import balance
from kpart.placement.planner import plan
from kpart.placement.reassign import count_replica_moves, generate_assignment
from kpart.placement.spec import Broker

TARGET_S = 60.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the full size")
    parser.add_argument("--racks", type=int, default=0, help="racks (0: no rack information)")
    parser.add_argument("-k", "--max-concurrent-moves-per-broker", type=int, default=10)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    n_brokers = max(6, round(200 * args.scale))
    n_parts = max(n_brokers, round(200_000 * args.scale))
    n_add = max(1, round(10 * args.scale))
    n_topics = max(1, min(200, n_parts // 10))
    per_topic = n_parts // n_topics

    def rack(i: int) -> str | None:
        return f"rack-{i % args.racks}" if args.racks else None

    brokers = [Broker(i, rack(i)) for i in range(n_brokers)]
    added = [Broker(n_brokers + i, rack(i)) for i in range(n_add)]
    rnd = JavaRandom(args.seed)
    t0 = time.perf_counter()
    current = {
        f"topic-{t:04d}": dict(assign_replicas_to_brokers(brokers, per_topic, 3, random=rnd))
        for t in range(n_topics)
    }
    t_build = time.perf_counter() - t0
    replicas = 3 * per_topic * n_topics
    print(f"cluster: {n_brokers} brokers{f' in {args.racks} racks' if args.racks else ''}, "
          f"{n_topics} topics x {per_topic:,} partitions x RF 3 = {replicas:,} replicas "
          f"(built by AdminUtils in {t_build:.2f} s); adding {n_add} brokers")

    t0 = time.perf_counter()
    p = plan(current, brokers, add_brokers=added,
             max_concurrent_moves_per_broker=args.max_concurrent_moves_per_broker)
    t_plan = time.perf_counter() - t0

    t0 = time.perf_counter()
    generated = generate_assignment(current, brokers + added, seed=args.seed + 1)
    t_gen = time.perf_counter() - t0
    gen_moves = count_replica_moves(current, generated)

    before = balance(current, brokers + added)
    after = balance(p.target, brokers + added)
    after_gen = balance(generated, brokers + added)
    bound = math.ceil(n_add * replicas / (n_brokers + n_add))
    print(f"{'':28}{'kpart plan':>16}{'--generate':>16}")
    print(f"{'time (s)':28}{t_plan:>16.2f}{t_gen:>16.2f}")
    print(f"{'replicas moved':28}{p.replica_moves:>16,}{gen_moves:>16,}")
    print(f"{'share of replicas':28}{p.replica_moves / replicas:>16.2%}"
          f"{gen_moves / replicas:>16.2%}")
    print(f"{'max/min replicas/broker':28}{after.replica_ratio:>16.4f}"
          f"{after_gen.replica_ratio:>16.4f}")
    print(f"{'max/min leaders/broker':28}{after.leader_ratio:>16.4f}"
          f"{after_gen.leader_ratio:>16.4f}")
    print(f"kpart moves {p.replica_moves / gen_moves:.1%} of what --generate moves "
          f"(bound ceil(kR/(B+k)) = {bound:,}); {p.leader_changes:,} leader changes; "
          f"{len(p.batches)} batches of <= {args.max_concurrent_moves_per_broker} moves per "
          f"broker; replicas max/min before: {before.replica_ratio:.4f} (new brokers empty)")
    verdict = "OK" if t_plan <= TARGET_S else "SLOWER THAN TARGET"
    print(f"planner: {t_plan:.2f} s vs target {TARGET_S:.0f} s -> {verdict} "
          f"({t_plan / t_gen:.1f}x the --generate peer's time)")


if __name__ == "__main__":
    main()
