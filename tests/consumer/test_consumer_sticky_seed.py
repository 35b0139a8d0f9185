"""Seed 003's worked examples (StickyAssignor / CooperativeStickyAssignor), against Kafka trunk.

Example 1's "after C1 leaves" result in the seed (C0: [t0p0, t1p1, t3p0, t2p0],
C2: [t1p0, t2p1, t0p1, t3p1], also in StickyAssignor's javadoc) comes from an older Kafka;
trunk (the golden oracle) keeps the same owners' partitions but hands C1's out differently:
C0: [t0p0, t0p1, t1p1, t3p0], C2: [t1p0, t2p0, t2p1, t3p1].
"""

from __future__ import annotations

import kpart
from kpart.consumer.spec import GroupSpec

TOPICS4 = ["t0", "t1", "t2", "t3"]


def _tps(a: kpart.GroupAssignment, member: str) -> set[str]:
    return {f"{t}p{p}" for t, p in a.partitions_of(member)}


def _members(ids_topics: dict[str, list[str]], previous: kpart.GroupAssignment | None) -> list:
    out = []
    for mid, topics in ids_topics.items():
        m = {"id": mid, "topics": topics}
        if previous is not None:
            m["generation"] = 1
            m["owned"] = [[t, list(ps)] for t, ps in dict(previous.assignment)[mid]]
        else:
            m["has_user_data"] = False
        out.append(m)
    return out


def _example1(strategy: str) -> tuple[kpart.GroupAssignment, kpart.GroupAssignment]:
    topics = {t: 2 for t in TOPICS4}
    subs = {c: TOPICS4 for c in ("C0", "C1", "C2")}
    first = kpart.assign(
        GroupSpec.from_json({"topics": topics, "members": _members(subs, None)}), strategy
    )
    del subs["C1"]
    second = kpart.assign(
        GroupSpec.from_json({"topics": topics, "members": _members(subs, first)}), strategy
    )
    return first, second


def test_example1_sticky_first_assignment_matches_seed() -> None:
    first, _ = _example1("sticky")
    assert _tps(first, "C0") == {"t0p0", "t1p1", "t3p0"}
    assert _tps(first, "C1") == {"t0p1", "t2p0", "t3p1"}
    assert _tps(first, "C2") == {"t1p0", "t2p1"}


def test_example1_sticky_after_c1_leaves_is_kafka_trunk() -> None:
    first, second = _example1("sticky")
    assert _tps(second, "C0") == {"t0p0", "t0p1", "t1p1", "t3p0"}
    assert _tps(second, "C2") == {"t1p0", "t2p0", "t2p1", "t3p1"}
    # both keep everything they had (the seed's point), only C1's partitions move
    assert _tps(first, "C0") <= _tps(second, "C0")
    assert _tps(first, "C2") <= _tps(second, "C2")


def test_example1_cooperative_revokes_nothing_when_a_member_leaves() -> None:
    _, second = _example1("cooperative-sticky")
    assert _tps(second, "C0") == {"t0p0", "t0p1", "t1p1", "t3p0"}
    assert _tps(second, "C2") == {"t1p0", "t2p0", "t2p1", "t3p1"}
    assert second.revoked == ()


def _example2(strategy: str) -> tuple[kpart.GroupAssignment, kpart.GroupAssignment]:
    topics = {"t0": 1, "t1": 2, "t2": 3}
    subs = {"C0": ["t0"], "C1": ["t0", "t1"], "C2": ["t0", "t1", "t2"]}
    first = kpart.assign(
        GroupSpec.from_json({"topics": topics, "members": _members(subs, None)}), strategy
    )
    del subs["C0"]
    second = kpart.assign(
        GroupSpec.from_json({"topics": topics, "members": _members(subs, first)}), strategy
    )
    return first, second


def test_example2_sticky_balances_uneven_subscriptions() -> None:
    first, second = _example2("sticky")
    assert _tps(first, "C0") == {"t0p0"}
    assert _tps(first, "C1") == {"t1p0", "t1p1"}
    assert _tps(first, "C2") == {"t2p0", "t2p1", "t2p2"}
    # C0 leaves: 5 of 6 partitions stay where they were, and the result is balanced
    assert _tps(second, "C1") == {"t0p0", "t1p0", "t1p1"}
    assert _tps(second, "C2") == {"t2p0", "t2p1", "t2p2"}


def test_example2_cooperative_matches_sticky() -> None:
    first, second = _example2("cooperative-sticky")
    assert _tps(second, "C1") == {"t0p0", "t1p0", "t1p1"}
    assert _tps(second, "C2") == {"t2p0", "t2p1", "t2p2"}
