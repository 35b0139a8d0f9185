"""Range and RoundRobin assignors: kpart vs kafka-python, same inputs, same run.

Times ``kpart.assign(group, "range"|"roundrobin")`` against kafka-python's
``RangePartitionAssignor`` / ``RoundRobinPartitionAssignor`` on a large group (default: 200
topics × 500 partitions = 100k partitions, 1,000 consumers; uniform and random-half
subscriptions), inputs built beforehand, and prints the ratio. It also replays the golden
vectors (``tests/golden/assign_{range,roundrobin}.jsonl.gz``) through both and prints how many
each matches (kafka-python has no KIP-881 rack awareness and drops members when static and
dynamic members alternate in its input, so it is expected to miss some).

Run: ``.venv/bin/python benchmarks/bench_consumer_range_roundrobin.py [--topics T]
[--partitions P] [--consumers C]``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
from pathlib import Path
from types import SimpleNamespace

from _timing import best_of
from kafka.coordinator.assignors.range import RangePartitionAssignor
from kafka.coordinator.assignors.roundrobin import RoundRobinPartitionAssignor

from kpart.consumer import assign
from kpart.consumer.spec import GroupSpec

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"
PEERS = {"range": RangePartitionAssignor, "roundrobin": RoundRobinPartitionAssignor}


class _Cluster:
    def __init__(self, topics: dict[str, int]) -> None:
        self._parts = {t: set(range(n)) for t, n in topics.items() if n > 0}

    def partitions_for_topic(self, topic: str):
        return self._parts.get(topic)


def _peer_inputs(doc: dict):
    members = [
        SimpleNamespace(
            member_id=m["id"],
            group_instance_id=m.get("instance_id"),
            metadata=SimpleNamespace(topics=list(m["topics"])),
        )
        for m in doc["members"]
    ]
    return _Cluster(doc["topics"]), members


def _peer_assign(strategy: str, cluster, members) -> dict:
    out = PEERS[strategy].assign(cluster, members)
    return {mid: {t: sorted(ps) for t, ps in a.assignment if ps} for mid, a in out.items()}


def _golden(strategy: str) -> tuple[int, int, int]:
    name = {"range": "assign_range", "roundrobin": "assign_roundrobin"}[strategy]
    ours = peer = total = 0
    with gzip.open(GOLDEN / f"{name}.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            case = json.loads(line)
            if case["kind"] != "single":
                continue
            total += 1
            expected = case["expected"]["assignment"]
            ours += assign(GroupSpec.from_json(case["input"]), strategy).as_dict() == expected
            try:
                got = _peer_assign(strategy, *_peer_inputs(case["input"]))
            except Exception:  # noqa: BLE001 - a crash counts as a miss
                got = None
            peer += got == expected
    return ours, peer, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=200)
    parser.add_argument("--partitions", type=int, default=500)
    parser.add_argument("--consumers", type=int, default=1000)
    args = parser.parse_args()
    rng = random.Random(42)
    topics = {f"topic-{i:04d}": args.partitions for i in range(args.topics)}
    names = list(topics)
    for label, subs in (
        ("uniform", lambda: names),
        ("random half", lambda: sorted(rng.sample(names, len(names) // 2))),
    ):
        doc = {
            "topics": topics,
            "members": [
                {
                    "id": f"consumer-{i:05d}",
                    "topics": subs(),
                    "instance_id": f"i{i}" if i % 3 == 0 else None,
                }
                for i in range(args.consumers)
            ],
        }
        group = GroupSpec.from_json(doc)
        cluster, members = _peer_inputs(doc)
        n = args.topics * args.partitions
        for strategy in ("range", "roundrobin"):
            ours = best_of(3, lambda s=strategy, g=group: assign(g, s))
            try:
                peer = best_of(3, lambda s=strategy, c=cluster, m=members: PEERS[s].assign(c, m))
            except Exception as e:  # noqa: BLE001 - report the peer's crash honestly
                print(
                    f"{strategy:<10} {label:<12} kpart {ours:.3f} s, kafka-python crashed "
                    f"({type(e).__name__}: {e})"
                )
                continue
            print(
                f"{strategy:<10} {label:<12} {n:>8} partitions {args.consumers:>5} consumers: "
                f"kpart {ours:.3f} s, kafka-python {peer:.3f} s, ratio {peer / ours:.2f}x"
            )
    for strategy in ("range", "roundrobin"):
        ours, peer, total = _golden(strategy)
        print(
            f"golden {strategy:<10} single cases matched: kpart {ours}/{total}, "
            f"kafka-python {peer}/{total}"
        )


if __name__ == "__main__":
    main()
