"""Inputs for ``java/placement/AdminUtilsDriver.java add``: adding partitions to a topic in
ZooKeeper mode (``kafka-topics --alter --partitions``, ``AdminZkClient.addPartitions`` with no
replica assignment given), one JSON line each, written to stdout (fixed seed).

    python tools/golden/placement_inputs.py > /tmp/add_partitions_inputs.jsonl

A case is ``{"id", "input": {"brokers": [{"id", "rack"}, ...] (sorted by id, as AdminZkClient
lists them), "existing_partitions": int, "partition0": [broker, ...] (partition 0's replicas; its
length is the replication factor), "new_total": int}}``. The families exercise KAFKA-2146's start
index (the first broker whose id is >= partition 0's first replica): ids with gaps, a first replica
that left the cluster (the next id up) or is above every id (index 0), rack-aware and
rack-unaware clusters, replication factors above the broker count and racks given to only some
brokers (AdminUtils' errors).
"""

from __future__ import annotations

import json
import random
import sys


def cases() -> list[dict]:
    rng = random.Random(2146)
    out: list[dict] = []

    def add(name: str, brokers: list[dict], existing: int, partition0: list[int],
            new_total: int) -> None:
        out.append({"id": f"add-{len(out):03d}-{name}", "input": {
            "brokers": brokers, "existing_partitions": existing, "partition0": partition0,
            "new_total": new_total}})

    def ids(n: int, gaps: bool) -> list[int]:
        if not gaps:
            return list(range(n))
        return sorted(rng.sample(range(1, 4 * n + 2), n))

    for _ in range(140):
        n = rng.randint(1, 9)
        gaps = rng.random() < 0.6
        broker_ids = ids(n, gaps)
        mode = rng.choice(["none", "none", "racks", "racks", "some-racks"])
        nracks = rng.randint(1, 4)
        brokers = []
        for k, b in enumerate(broker_ids):
            rack = None
            if mode == "racks" or (mode == "some-racks" and rng.random() < 0.5):
                rack = f"r{k % nracks}" if rng.random() < 0.7 else f"r{rng.randrange(nracks)}"
            brokers.append({"id": b, "rack": rack})
        rf = rng.randint(1, n + (1 if rng.random() < 0.1 else 0))
        # partition 0's replicas: mostly current brokers, sometimes ids that left the cluster
        pool = broker_ids + [max(broker_ids) + rng.randint(1, 3), rng.randint(0, max(broker_ids))]
        first_kind = rng.choice(["member", "member", "member", "gone", "above"])
        if first_kind == "member":
            first = rng.choice(broker_ids)
        elif first_kind == "above":
            first = max(broker_ids) + rng.randint(1, 5)
        else:
            gone = [x for x in range(max(broker_ids) + 1) if x not in broker_ids]
            first = rng.choice(gone) if gone else rng.choice(broker_ids)
        rest = [x for x in pool if x != first]
        rng.shuffle(rest)
        partition0 = [first] + rest[: rf - 1]
        if len(partition0) < rf:
            partition0 += [max(pool) + 1 + k for k in range(rf - len(partition0))]
        existing = rng.randint(1, 12)
        new_total = existing + rng.randint(1, 10)
        add(f"{mode}-{first_kind}{'-gaps' if gaps else ''}", brokers, existing, partition0,
            new_total)
    return out


def main() -> int:
    for case in cases():
        sys.stdout.write(json.dumps(case, separators=(",", ":")) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
