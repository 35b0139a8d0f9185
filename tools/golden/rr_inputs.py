"""Inputs for ``java/producer/RoundRobinDriver.java``: RoundRobinPartitioner cases, one JSON line
each, written to stdout (deterministic: fixed seed, no clock).

    python tools/golden/rr_inputs.py > /tmp/rr_inputs.jsonl

A case is ``{"id", "clusters": [{topic: [leader or null, ...]}, ...], "sends": [[topic,
cluster_index, new_batch], ...]}``: the producer's metadata snapshots (partition ``i`` of a topic
led by ``leaders[i]``; ``null`` = no leader, so not available) and the records sent in order, each
with the cluster the producer partitions it against and whether the accumulator needs a new batch
for the record's first partition (``abortForNewBatch`` up to 3.9). The families exercise what
moved between releases (KAFKA-9965 / KAFKA-17632 / KAFKA-18295): records sent back to back, each
needing a new batch (the issue's example: 4 partitions, p1 p3 p1 p3 at 3.9.0, p0 p1 p2 p3 after),
none needing one, random mixes, unavailable partitions (including none available), several topics
interleaved, and metadata that changes between records.
"""

from __future__ import annotations

import json
import random
import sys


def _leaders(rng: random.Random, n: int, down: float) -> list[int | None]:
    return [None if rng.random() < down else rng.randrange(5) for _ in range(n)]


def cases() -> list[dict]:
    rng = random.Random(20261128)
    out: list[dict] = []

    def add(name: str, clusters: list[dict], sends: list[list]) -> None:
        out.append({"id": f"rr-{len(out):03d}-{name}", "clusters": clusters, "sends": sends})

    # records back to back, every one needing a new batch (linger.ms=0, idle brokers)
    for n in range(1, 9):
        add(f"all-new-batch-{n}p", [{"t": [p % 3 for p in range(n)]}],
            [["t", 0, True] for _ in range(3 * n + 1)])
    # no record needs a new batch (batches still open): one call per record in every release
    for n in range(1, 7):
        add(f"no-new-batch-{n}p", [{"t": [p % 3 for p in range(n)]}],
            [["t", 0, False] for _ in range(2 * n + 1)])
    # random mixes of new-batch records
    for i in range(60):
        n = rng.randint(1, 10)
        p_new = rng.choice([0.2, 0.5, 0.8])
        add(f"mixed-{i}", [{"t": [p % 4 for p in range(n)]}],
            [["t", 0, rng.random() < p_new] for _ in range(rng.randint(1, 30))])
    # some partitions without a leader (available list shorter), or none available
    for i in range(40):
        n = rng.randint(1, 9)
        leaders = _leaders(rng, n, rng.choice([0.3, 0.6, 1.0]))
        add(f"unavailable-{i}", [{"t": leaders}],
            [["t", 0, rng.random() < 0.6] for _ in range(rng.randint(1, 25))])
    # several topics interleaved (one counter per topic)
    for i in range(40):
        topics = {f"t{k}": _leaders(rng, rng.randint(1, 7), 0.2) for k in range(rng.randint(2, 3))}
        names = sorted(topics)
        add(f"topics-{i}", [topics],
            [[rng.choice(names), 0, rng.random() < 0.6] for _ in range(rng.randint(2, 30))])
    # metadata changing between records (leaders lost and back, partitions added)
    for i in range(40):
        k = rng.randint(2, 4)
        clusters = []
        n = rng.randint(1, 6)
        for _ in range(k):
            n = n + rng.choice([0, 0, 1, 3])
            clusters.append({"t": _leaders(rng, n, 0.3), "u": _leaders(rng, 3, 0.2)})
        sends = []
        for c in range(k):
            for _ in range(rng.randint(1, 8)):
                sends.append([rng.choice(["t", "t", "u"]), c, rng.random() < 0.6])
        add(f"metadata-{i}", clusters, sends)
    return out


def main() -> int:
    for case in cases():
        sys.stdout.write(json.dumps(case, separators=(",", ":")) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
