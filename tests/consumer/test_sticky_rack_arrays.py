"""The rack-aware (KIP-881) array form of the sticky assignors' constrained path equals the
object-based port (its reference) — assignment, revocations and each member's Kafka list
order — and Kafka's recorded results, with the array form forced on small groups."""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from golden_vectors import load_golden
from kpart.consumer.classic import _constrained_arrays as arrays
from kpart.consumer.classic import cooperative_sticky_assignor as coop
from kpart.consumer.classic import sticky_assignor as sticky
from kpart.consumer.classic._constrained_arrays import (
    FastConstrained,
    fast_constrained,
    try_array_form,
)
from kpart.consumer.classic._constrained_racks import rack_view
from kpart.consumer.classic.abstract_sticky_assignor import MemberData, subscription_order
from kpart.consumer.spec import GroupSpec, Member
from kpart.errors import AssignmentError

MODULES = [sticky, coop]
RACKS = ["r0", "r1", "r2", "r3"]


def _member_data(module: ModuleType) -> Callable[[Member], MemberData]:
    return coop.cooperative_member_data if module is coop else sticky.sticky_member_data


def _fast(group: GroupSpec, module: ModuleType, ordered: bool) -> FastConstrained | None:
    members = subscription_order(group)
    data = [_member_data(module)(m) for m in members]
    return fast_constrained(group, members, data, module is coop, ordered=ordered)


def _reference(group: GroupSpec, module: ModuleType) -> tuple[Any, Any] | None:
    try:
        result: tuple[Any, Any] = module.reference_assign(group)
        return result
    except AssignmentError:
        return None


@st.composite
def rack_groups(draw: st.DrawFn) -> GroupSpec:
    """Equal subscriptions; members with and without racks (some on racks no replica uses);
    partitions with full, partial, ``null`` or no replica racks; random single owners (some
    members far over quota, owned partitions on the wrong rack); fresh members without user
    data; static members; generations."""
    topics = {f"t{i}": draw(st.integers(1, 9)) for i in range(draw(st.integers(1, 4)))}
    ids = draw(st.lists(st.text("abAB-01", min_size=1, max_size=4), min_size=1, max_size=9,
                        unique=True))
    pool = RACKS[: draw(st.integers(1, 4))]
    partition_racks: dict[str, list[list[str | None]]] = {}
    for t, n in topics.items():
        kind = draw(st.sampled_from(["none", "full", "random", "random"]))
        if kind == "full":
            partition_racks[t] = [list(pool) for _ in range(n)]
        elif kind == "random":
            partition_racks[t] = [
                draw(st.lists(st.sampled_from([*pool, "r9", None]), max_size=3)) for _ in range(n)
            ]
    all_tps = [(t, p) for t, n in topics.items() for p in range(n)]
    hot = draw(st.sampled_from(ids))
    owner = {tp: draw(st.sampled_from([None, hot, *ids])) for tp in all_tps}
    members = []
    for i in ids:
        mine = draw(st.permutations([tp for tp in all_tps if owner[tp] == i]))
        owned: dict[str, list[int]] = {}
        for t, p in mine:
            owned.setdefault(t, []).append(p)
        fresh = not mine and draw(st.booleans())
        members.append({
            "id": i,
            "topics": list(topics),
            "rack": draw(st.sampled_from([*pool, "r8", None, None])),
            "instance_id": draw(st.sampled_from([None, f"i-{i}"])),
            "generation": -1 if fresh else draw(st.integers(1, 3)),
            "owned": [[t, ps] for t, ps in owned.items()],
            "has_user_data": not fresh,
        })
    return GroupSpec.from_json(
        {"topics": topics, "partition_racks": partition_racks, "members": members}
    )


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(group=rack_groups())
def test_rack_array_form_equals_reference(group: GroupSpec) -> None:
    """Eager and cooperative: the same assignment, revocations and Kafka lists (or both
    decline where Kafka throws)."""
    for module in MODULES:
        expected = _reference(group, module)
        fast = _fast(group, module, ordered=True)
        if expected is None:  # Kafka's IllegalStateException: the array form declines
            assert fast is None
            continue
        assert fast is not None  # equal subscriptions, single owners, < 62 racks: it applies
        assert (fast.assignment, fast.lists) == expected
        unordered = _fast(group, module, ordered=False)
        assert unordered is not None and unordered.lists is None
        assert unordered.assignment == expected[0]
        assert unordered.assignment.revoked == expected[0].revoked


def _golden_runs(name: str) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    runs = []
    for c in load_golden(name):
        if c["kind"] == "single":
            runs.append((c["id"], c["input"], c["expected"]))
            continue
        for i, r in enumerate(c["expected"]["rounds"]):
            doc = {k: v for k, v in c["input"]["steps"][r["step"]].items() if k != "members"}
            doc["members"] = r["members"]
            exp = {"error": r["error"]} if "error" in r else {"assignment": r["assignment"]}
            runs.append((f"{c['id']}-round{i}", doc, exp))
    return runs


@pytest.mark.parametrize("name", ["assign_sticky", "assign_cooperative_sticky"])
def test_golden_vectors_through_the_forced_array_form(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every golden case and round, ``exact: false`` ones too, with the array threshold at 0:
    wherever the array form applies (rack-aware cases included) it reproduces Kafka's
    recorded result exactly (elsewhere ``test_consumer_sticky_golden`` checks the reference;
    Kafka's errors are among the declined cases)."""
    monkeypatch.setattr(arrays, "ARRAY_THRESHOLD", 0)
    module = coop if name == "assign_cooperative_sticky" else sticky
    used = racked = 0
    for case_id, doc, expected in _golden_runs(name):
        g = GroupSpec.from_json(doc)
        fast = try_array_form(g, _member_data(module), module is coop, ordered=True)
        if fast is not None:
            used += 1
            racked += any(m.rack for m in g.members)
            assert fast.assignment.to_json() == expected, case_id
    assert used >= 150 and racked >= 100, (used, racked)


def _large_rack_group(seed: int) -> GroupSpec:
    """Past the array threshold: 3 racks, replicas over 2 or 3 of them (some partitions
    without racks), members on racks (some without), owners from a random earlier round."""
    rnd = random.Random(seed)
    topics = {f"topic-{i}": rnd.randint(50, 400) for i in range(rnd.randint(4, 12))}
    first = next(iter(topics))
    topics[first] += max(0, 2048 - sum(topics.values()))
    racks = ["rack-0", "rack-1", "rack-2"]
    partition_racks: dict[str, list[list[str]]] = {}
    for t, n in topics.items():
        rows: list[list[str]] = []
        for p in range(n):
            r = rnd.random()
            if r < 0.05:
                rows.append([])
            elif r < 0.15:
                rows.append(list(racks))
            else:
                rows.append([racks[p % 3], racks[(p + rnd.randint(1, 2)) % 3]])
        partition_racks[t] = rows
    ids = [f"consumer-{rnd.getrandbits(40):x}-{i}" for i in range(rnd.randint(3, 200))]
    all_tps = [(t, p) for t, n in topics.items() for p in range(n)]
    frac = rnd.random()
    owner = {tp: rnd.choice(ids) if rnd.random() < frac else None for tp in all_tps}
    members = []
    for i, mid in enumerate(ids):
        owned: dict[str, list[int]] = {}
        mine = [tp for tp in all_tps if owner[tp] == mid]
        rnd.shuffle(mine)
        for t, p in mine:
            owned.setdefault(t, []).append(p)
        members.append({
            "id": mid, "topics": list(topics),
            "rack": None if rnd.random() < 0.1 else racks[i % 3],
            "generation": rnd.randint(1, 2), "owned": [[t, ps] for t, ps in owned.items()],
        })
    return GroupSpec.from_json(
        {"topics": topics, "partition_racks": partition_racks, "members": members}
    )


@pytest.mark.parametrize("seed", range(6))
def test_rack_array_form_on_large_groups(seed: int) -> None:
    """Past 2,048 partitions ``assign`` takes the rack-aware array form; it equals the
    object-based port (assignment, revocations, Kafka list order)."""
    group = _large_rack_group(seed)
    for module in MODULES:
        fast = _fast(group, module, ordered=True)
        assert fast is not None
        assert (fast.assignment, fast.lists) == module.reference_assign(group)
        assert module._assign(group, ordered=False)[0] == fast.assignment


def test_racks_without_rack_awareness_only_sort() -> None:
    """Members with racks but every partition on every rack: Kafka does not use rack-aware
    assignment, yet still sorts the unassigned partitions by same-rack members."""
    doc = {
        "topics": {"a": 3, "b": 2},
        "partition_racks": {"a": [["x", "y"]] * 3, "b": [["x", "y"], ["y", "x", None]]},
        "members": [{"id": "m0", "topics": ["a", "b"], "rack": "x"},
                    {"id": "m1", "topics": ["a", "b"]}],
    }
    g = GroupSpec.from_json(doc)
    view = rack_view(g, subscription_order(g), ["a", "b"], 5)
    assert view is not None and not view.aware
    for module in MODULES:
        fast = _fast(g, module, ordered=True)
        assert fast is not None
        assert (fast.assignment, fast.lists) == module.reference_assign(g)


def test_declines_past_62_member_racks() -> None:
    n = 63
    doc = {
        "topics": {"t": n},
        "partition_racks": {"t": [[f"r{p}"] for p in range(n)]},
        "members": [{"id": f"m{i}", "topics": ["t"], "rack": f"r{i}"} for i in range(n)],
    }
    g = GroupSpec.from_json(doc)
    for module in MODULES:
        assert _fast(g, module, ordered=False) is None
