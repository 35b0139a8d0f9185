"""AdminUtils.assignReplicasToBrokers at scale: 1,000 brokers × 1,000,000 partitions, RF 3,
without racks and with 10 racks.

kpart's vectorised walk (``assign_replicas_to_brokers_array``) is timed against its own
scalar reference (Kafka's loop, partition by partition, in Python) in the same run; the two
results are compared element by element. Targets (issue 4): ≤ 0.1 s without racks and
≤ 0.34 s with 10 racks (Kafka's Java on this machine, cold JVM: 0.09 / 0.34 s).
Also timed: the dict-returning ``assign_replicas_to_brokers`` (1M Python tuples).

Run: ``.venv/bin/python benchmarks/bench_adminutils.py [--partitions N] [--repeat R]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from kpart import Broker
from kpart.placement import admin_utils
from kpart.placement.admin_utils import assign_replicas_to_brokers, assign_replicas_to_brokers_array

TARGETS = {"no racks": 0.1, "10 racks": 0.34}


def _best(fn, repeat: int) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--brokers", type=int, default=1000)
    parser.add_argument("--partitions", type=int, default=1_000_000)
    parser.add_argument("--replication-factor", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    n, p, rf = args.brokers, args.partitions, args.replication_factor
    layouts = {
        "no racks": [Broker(i) for i in range(n)],
        "10 racks": [Broker(i, f"rack-{i % 10}") for i in range(n)],
    }
    print(f"AdminUtils.assignReplicasToBrokers: {n} brokers x {p:,} partitions, RF {rf} "
          f"(best of {args.repeat}; scalar reference once)")
    for name, brokers in layouts.items():
        kw = {"fixed_start_index": 7}

        def vectorised(brokers=brokers, kw=kw):
            return assign_replicas_to_brokers_array(brokers, p, rf, **kw)

        t_vec, matrix = _best(vectorised, args.repeat)
        t_dict, _ = _best(lambda brokers=brokers, kw=kw: assign_replicas_to_brokers(
            brokers, p, rf, **kw), 1)
        plan = admin_utils._plan(*admin_utils._placement_inputs(brokers, p, rf, 7, None, None, True, None))
        t_ref, reference = _best(lambda plan=plan: admin_utils._walk(plan), 1)
        same = np.array_equal(matrix, np.array(list(reference.values()), dtype=np.int64))
        target = TARGETS[name]
        print(f"  {name:9s} vectorised {t_vec:7.3f} s (target <= {target} s: "
              f"{'met' if t_vec <= target else 'MISSED'}) | scalar reference {t_ref:6.2f} s "
              f"| speed-up x{t_ref / t_vec:5.1f} | dict API {t_dict:5.2f} s | "
              f"identical: {same}")
        if not same:
            raise SystemExit("vectorised and scalar placements differ")


if __name__ == "__main__":
    main()
