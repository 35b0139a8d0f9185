"""KIP-848 server-side assignors (uniform, range): kpart vs the nearest Python peers, same run.

No Python library implements the group coordinator's assignors, so the peers are kafka-python's
client-side ancestors on the same group: its ``StickyPartitionAssignor`` for ``uniform`` (the
classic sticky assignor the uniform assignor replaces) and its ``RangePartitionAssignor`` for
``range``. Both sides assign a fresh group (no previous assignment) and the time of a
follow-up rebalance after one member leaves is printed for kpart (the peers' rebalances need
user data that kafka-python builds differently). Inputs are built beforehand; best of 3.
It also prints how many golden rounds kpart matches (``uniform_assignor``, ``server_range``).

Run: ``.venv/bin/python benchmarks/bench_server_assignors.py [--topics T] [--partitions P]
[--consumers C]``.
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
from kafka.coordinator.assignors.sticky.sticky_assignor import StickyPartitionAssignor

from kpart._java.uuid import uuid_to_string
from kpart.consumer import server_assign
from kpart.consumer.coordinator.server_simulation import simulate_server_group
from kpart.consumer.coordinator.server_spec import ServerGroupSpec, ServerMember, ServerTopic

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"
PEERS = {"uniform": StickyPartitionAssignor, "range": RangePartitionAssignor}


class _Cluster:
    def __init__(self, topics: dict[str, int]) -> None:
        self._parts = {t: set(range(n)) for t, n in topics.items() if n > 0}

    def partitions_for_topic(self, topic: str):
        return self._parts.get(topic)

    def topics(self):
        return set(self._parts)


def _golden(name: str, assignor: str) -> tuple[int, int]:
    ok = total = 0
    with gzip.open(GOLDEN / f"{name}.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            case = json.loads(line)
            if case["kind"] == "single":
                rounds = [(case["input"]["topics"], case["input"]["members"], case["expected"])]
            else:
                steps = case["input"]["steps"]
                rounds = [
                    (steps[r["step"]]["topics"], r["members"], r)
                    for r in case["expected"]["rounds"]
                ]
            for topics, members, expected in rounds:
                spec = ServerGroupSpec.from_json({"topics": topics, "members": members})
                total += 1
                ok += server_assign(spec, assignor).as_dict() == expected["assignment"]
    return ok, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--partitions", type=int, default=100)
    parser.add_argument("--consumers", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(42)
    topics = tuple(
        ServerTopic(f"topic-{i:04d}", uuid_to_string(rng.getrandbits(128)), args.partitions)
        for i in range(args.topics)
    )
    names = [t.name for t in topics]
    n = args.topics * args.partitions
    for label, subs in (
        ("uniform", lambda: names),
        ("random half", lambda: sorted(rng.sample(names, len(names) // 2))),
    ):
        members = tuple(
            ServerMember(f"consumer-{i:05d}", tuple(subs()), f"i{i}" if i % 3 == 0 else None)
            for i in range(args.consumers)
        )
        spec = ServerGroupSpec(topics, members)
        after = ServerGroupSpec(topics, members[1:])
        cluster = _Cluster({t.name: t.num_partitions for t in topics})
        peer_members = [
            SimpleNamespace(
                member_id=m.member_id,
                group_instance_id=m.instance_id,
                metadata=SimpleNamespace(topics=list(m.topics), user_data=None),
            )
            for m in members
        ]
        for assignor in ("uniform", "range"):
            ours = best_of(3, lambda a=assignor, g=spec: server_assign(g, a))
            both = best_of(3, lambda a=assignor, g=spec, h=after: simulate_server_group([g, h], a))
            rebalance = both - ours
            peer_cls = PEERS[assignor]
            peer = best_of(1, lambda c=peer_cls, k=cluster, m=peer_members: c().assign(k, m))
            print(
                f"{assignor:<8} {label:<12} {n:>7} partitions {args.consumers:>5} consumers: "
                f"kpart {ours:.3f} s (+ rebalance {max(rebalance, 0):.3f} s), "
                f"kafka-python {peer_cls.__name__} {peer:.3f} s, ratio {peer / ours:.2f}x"
            )
    for name, assignor in (("uniform_assignor", "uniform"), ("server_range", "range")):
        ok, total = _golden(name, assignor)
        print(f"golden {name:<17} rounds matched by kpart: {ok}/{total}")


if __name__ == "__main__":
    main()
