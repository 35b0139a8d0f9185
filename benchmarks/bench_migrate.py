"""``kpart migrate`` core: a cooperative-sticky group moved to the consumer protocol (KIP-848).

Shape (kpart issue 25, point 4 acceptance): 1,000 members, 10,000 partitions (10 topics ×
1,000), every member subscribed to every topic, a stable cooperative-sticky group (generation
5; each member owns the 10 partitions the group's previous round gave it, dealt round-robin).
Timed: :func:`kpart.consumer.migration.protocol_change` with ``"consumer"`` (the classic answer,
the converted group's uniform target at Kafka 4.3 with the members owning the classic answer,
and the comparison: moves per partition and member, balance), to its materialized
:class:`~kpart.consumer.migration.AssignmentChange` (Python objects) and its JSON document.
Beside it, the assignors' own times on the same inputs (to ``to_arrow()`` tables), and the
comparison alone. Target: ≤ 2 s. Figures: the median of 3 wall-clock runs (the 2-core machine
may be shared) and the process's peak resident memory.

    .venv/bin/python benchmarks/bench_migrate.py [--members 1000] [--partitions 10000]
"""

from __future__ import annotations

import argparse

from _timing import fmt_seconds, median_of, peak_rss_mb

from kpart.consumer import assign, server_assign
from kpart.consumer.coordinator.server_spec import server_group
from kpart.consumer.migration import compare, protocol_change
from kpart.consumer.spec import GroupSpec, Member, Topic

TOPICS = 10
TARGET_S = 2.0


def build(members: int, partitions: int) -> GroupSpec:
    """The stable cooperative-sticky group of the module docstring."""
    per_topic = partitions // TOPICS
    names = tuple(f"topic-{t}" for t in range(TOPICS))
    owned: list[dict[str, list[int]]] = [{} for _ in range(members)]
    i = 0
    for t in names:
        for p in range(per_topic):
            owned[i % members].setdefault(t, []).append(p)
            i += 1
    return GroupSpec(
        tuple(Topic(t, per_topic) for t in names),
        tuple(Member(f"consumer-{m}", names, generation=5,
                     owned_partitions=tuple((t, tuple(ps)) for t, ps in owned[m].items()))
              for m in range(members)),
    )


def run(group: GroupSpec, label: str) -> None:
    """Time the migrate core on ``group`` and the assignors' own times beside it."""
    print(f"{label}: {len(group.members):,} members, "
          f"{sum(t.num_partitions for t in group.topics):,} partitions ({TOPICS} topics)")

    def migrate() -> object:
        change = protocol_change(group, "cooperative-sticky", "consumer")
        return change.to_json()

    total = median_of(3, migrate)
    classic = assign(group, "cooperative-sticky")
    owned = dict(classic.assignment)
    converted = server_group(group.with_members(
        Member(m.member_id, m.topics, generation=m.generation,
               owned_partitions=owned[m.member_id]) for m in group.members))
    target = server_assign(converted, "uniform")
    t_classic = median_of(3, lambda: assign(group, "cooperative-sticky").to_arrow())
    t_uniform = median_of(3, lambda: server_assign(converted, "uniform").to_arrow())
    t_compare = median_of(3, lambda: compare(classic, target).to_json())
    change = protocol_change(group, "cooperative-sticky", "consumer")
    verdict = "OK" if total <= TARGET_S else "OVER"
    print(f"  kpart migrate core (classic → consumer, to JSON): {fmt_seconds(total)} "
          f"[target ≤ {TARGET_S:.0f} s: {verdict}]")
    print(f"    cooperative-sticky assign (to Arrow):          {fmt_seconds(t_classic)}")
    print(f"    uniform target, Kafka 4.3 (to Arrow):          {fmt_seconds(t_uniform)}")
    print(f"    compare (moves, balance, to JSON):             {fmt_seconds(t_compare)}")
    print(f"  result: {change.moved:,} partitions change owner; partitions per member "
          f"{change.before_balance.min_partitions}-{change.before_balance.max_partitions} → "
          f"{change.after_balance.min_partitions}-{change.after_balance.max_partitions}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=1000)
    parser.add_argument("--partitions", type=int, default=10_000)
    args = parser.parse_args()
    stable = build(args.members, args.partitions)
    run(stable, "stable cooperative-sticky group (generation 5, owned partitions)")
    fresh = stable.with_members(Member(m.member_id, m.topics) for m in stable.members)
    run(fresh, "fresh group (no owned partitions)")
    print(f"peak resident memory of this process: {peak_rss_mb():.0f} MiB")


if __name__ == "__main__":
    main()
