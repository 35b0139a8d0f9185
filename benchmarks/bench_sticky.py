"""Sticky and CooperativeSticky assignors: kpart vs kafka-python, same inputs, same run.

Scenarios (issue 3 §5; targets on 2 cores, from Python with inputs already built):

- ``equal``: 500 topics × 2,000 partitions (1M), 2,000 consumers, all subscribed to every
  topic: cooperative fresh (target ≤ 0.17 s), cooperative after one consumer leaves (≤ 1.2 s),
  sticky after one leaves (≤ 2.0 s);
- ``half``: 50 topics × 2,000 partitions (100k), 2,000 consumers each subscribed to a random
  half of the topics, fresh (≤ 15 s); ``half-1m``: the same with 500 topics (≤ 120 s).

Each measurement runs in a child process with a time cap (``--cap`` seconds); a run that hits
it is reported as "did not finish". Wall and CPU time are both printed (the machine may be
shared; CPU time is the steadier figure). The clock runs over ``assign(group, strategy)`` with
the assignor's modules already imported (numpy included; nothing is run beforehand). A large
sticky result is array-backed: every partition's owner and every revocation is decided inside
``assign``, and the per-member ``(topic, (partition, ...))`` tuples are built on first access;
that extra time is printed apart ("+… s for the tuples"). kafka-python's ``StickyPartitionAssignor`` (a port of the
pre-2.8 algorithm, no racks, no cooperative variant) is timed on the same groups.

    .venv/bin/python benchmarks/bench_sticky.py [--scale 0.1] [--cap 300] [--only equal]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import time

from kpart.consumer.spec import GroupSpec, Member, Topic


def _topics(n_topics: int, n_parts: int) -> tuple[Topic, ...]:
    return tuple(Topic(f"topic-{i:04d}", n_parts) for i in range(n_topics))


def equal_group(n_topics: int, n_parts: int, n_members: int, leave: bool, sticky: bool):
    """All members subscribe to every topic; ``leave``: one member of a balanced previous
    round-robin assignment left, the others own their partitions (generation 1)."""
    topics = _topics(n_topics, n_parts)
    names = tuple(t.name for t in topics)
    ids = [f"consumer-{i:05d}" for i in range(n_members)]
    members = []
    for k, mid in enumerate(ids):
        if not leave:
            members.append(Member(mid, names, has_user_data=False))
            continue
        if k == 1:
            continue  # this one left
        owned = []  # round robin over the sorted partitions: global index ≡ k (mod members)
        for ti, name in enumerate(names):
            first = (k - ti * n_parts) % n_members
            ps = tuple(range(first, n_parts, n_members))
            if ps:
                owned.append((name, ps))
        members.append(Member(mid, names, generation=1, owned_partitions=tuple(owned)))
    return GroupSpec(topics, tuple(members))


def half_group(n_topics: int, n_parts: int, n_members: int, seed: int = 7):
    """Each member subscribes to a random half of the topics; nobody owns anything."""
    rnd = random.Random(seed)
    topics = _topics(n_topics, n_parts)
    names = [t.name for t in topics]
    members = tuple(
        Member(
            f"consumer-{i:05d}",
            tuple(sorted(rnd.sample(names, n_topics // 2))),
            has_user_data=False,
        )
        for i in range(n_members)
    )
    return GroupSpec(topics, members)


SCENARIOS = {
    "equal/cooperative fresh": ("equal", "cooperative-sticky", False, 0.17),
    "equal/cooperative after leave": ("equal", "cooperative-sticky", True, 1.2),
    "equal/sticky after leave": ("equal", "sticky", True, 2.0),
    "half/sticky fresh (100k)": ("half", "sticky", False, 15.0),
    "half-1m/sticky fresh (1M)": ("half-1m", "sticky", False, 120.0),
}


def _build(kind: str, strategy: str, leave: bool, scale: float):
    members = max(2, int(2000 * scale))
    parts = max(1, int(2000 * scale))
    if kind == "equal":
        return equal_group(500, parts, members, leave, strategy == "sticky")
    n_topics = 50 if kind == "half" else 500
    return half_group(n_topics, parts, members)


def _peer_inputs(group: GroupSpec, generation: int = 1):
    from types import SimpleNamespace

    from kafka.coordinator.assignors.sticky.sticky_assignor import StickyAssignorUserData

    class Cluster:
        def __init__(self, topics) -> None:
            self._parts = {t.name: set(range(t.num_partitions)) for t in topics}

        def partitions_for_topic(self, topic: str):
            return self._parts.get(topic)

        def topics(self):
            return set(self._parts)

    members = []
    for m in group.members:
        user_data = None
        if m.owned_partitions:
            user_data = StickyAssignorUserData(
                [(t, list(ps)) for t, ps in m.owned_partitions], generation
            ).encode()
        members.append(
            SimpleNamespace(
                member_id=m.member_id,
                group_instance_id=None,
                metadata=SimpleNamespace(topics=list(m.topics), user_data=user_data),
            )
        )
    return Cluster(group.topics), members


def _child(who: str, key: str, scale: float, out) -> None:
    kind, strategy, leave, _ = SCENARIOS[key]
    group = _build(kind, strategy, leave, scale)
    tuples = 0.0
    if who == "kpart":
        from kpart.consumer import assign, get_strategy

        get_strategy(strategy).load()  # imports the assignor's modules (numpy), runs nothing
        t0, c0 = time.perf_counter(), time.process_time()
        result = assign(group, strategy)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        t1 = time.perf_counter()
        result.assignment  # noqa: B018 -- the deferred per-member tuples, timed apart
        tuples = time.perf_counter() - t1
    else:
        from kafka.coordinator.assignors.sticky.sticky_assignor import StickyPartitionAssignor

        cluster, members = _peer_inputs(group)
        t0, c0 = time.perf_counter(), time.process_time()
        StickyPartitionAssignor().assign(cluster, members)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    out.put((wall, cpu, tuples))


def _timed(who: str, key: str, scale: float, cap: float) -> tuple[float, float, float] | None:
    """(wall, CPU, tuples) seconds of one assignment in a fresh process, ``None`` past the
    cap; ``tuples``: kpart's extra wall time to build every member's tuples afterwards."""
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_child, args=(who, key, scale, q))
    p.start()
    p.join(cap + 120)  # input building is not timed
    if p.is_alive():
        p.kill()
        p.join()
        return None
    try:
        wall, cpu, tuples = q.get(timeout=1)
    except Exception:
        return None
    return (wall, cpu, tuples) if wall <= cap else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0, help="fraction of partitions/members")
    ap.add_argument("--cap", type=float, default=300.0, help="time cap per run, seconds")
    ap.add_argument("--only", default="", help="run scenarios whose name contains this")
    ap.add_argument("--no-peer", action="store_true", help="skip kafka-python")
    args = ap.parse_args()
    for key, (_, _, _, target) in SCENARIOS.items():
        if args.only not in key:
            continue
        ours = _timed("kpart", key, args.scale, args.cap)
        peer = None if args.no_peer else _timed("kafka-python", key, args.scale, args.cap)

        def fmt(x: tuple[float, float, float] | None) -> str:
            if x is None:
                return "did not finish"
            extra = f", +{x[2]:.3f} s for the tuples" if x[2] else ""
            return f"{x[0]:.3f} s (cpu {x[1]:.3f} s{extra})"

        ratio = f", ratio {peer[0] / ours[0]:.1f}x" if ours and peer else ""
        peer_s = "" if args.no_peer else f", kafka-python {fmt(peer)}"
        print(
            f"{key:<32} kpart {fmt(ours)} (target {target} s at scale 1){peer_s}{ratio}", flush=True
        )


if __name__ == "__main__":
    main()
