"""The array form of the constrained path equals the object-based port (its reference) —
assignment, revocations and each member's Kafka list order — on random uniform groups."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kpart.consumer.classic import cooperative_sticky_assignor as coop
from kpart.consumer.classic import sticky_assignor as sticky
from kpart.consumer.classic._constrained_arrays import fast_constrained
from kpart.consumer.classic.abstract_sticky_assignor import subscription_order
from kpart.consumer.spec import GroupSpec


@st.composite
def uniform_groups(draw: st.DrawFn) -> GroupSpec:
    n_topics = draw(st.integers(1, 4))
    topics = {f"t{i}": draw(st.integers(1, 9)) for i in range(n_topics)}
    ids = draw(
        st.lists(st.text("abAB-01", min_size=1, max_size=4), min_size=1, max_size=8, unique=True)
    )
    all_tps = [(t, p) for t, n in topics.items() for p in range(n)]
    owner = {tp: draw(st.sampled_from([None, *ids])) for tp in all_tps}
    members = []
    for i in ids:
        mine = [tp for tp in all_tps if owner[tp] == i]
        mine = draw(st.permutations(mine))
        owned: dict[str, list[int]] = {}
        for t, p in mine:
            owned.setdefault(t, []).append(p)
        fresh = not mine and draw(st.booleans())
        members.append(
            {
                "id": i,
                "topics": list(topics),
                "generation": -1 if fresh else draw(st.integers(1, 3)),
                "owned": [[t, ps] for t, ps in owned.items()],
                "has_user_data": not fresh,
            }
        )
    return GroupSpec.from_json({"topics": topics, "members": members})


@pytest.mark.parametrize("module", [sticky, coop], ids=["sticky", "cooperative"])
@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
@given(group=uniform_groups())
def test_array_form_equals_reference(module, group: GroupSpec) -> None:
    members = subscription_order(group)
    member_data = coop.cooperative_member_data if module is coop else sticky.sticky_member_data
    fast = fast_constrained(
        group, members, [member_data(m) for m in members], module is coop, ordered=True
    )
    assert fast is not None  # uniform, no racks, no conflicts: the array form applies
    expected, lists = module.reference_assign(group)
    assert fast.assignment == expected
    assert fast.lists == lists
    # Without the lists, only members owning more than they keep sort their claims.
    unordered = fast_constrained(
        group, members, [member_data(m) for m in members], module is coop, ordered=False
    )
    assert unordered is not None and unordered.lists is None
    assert unordered.assignment.partition_counts() == expected.partition_counts()
    assert unordered.assignment.assignment == expected.assignment
    assert unordered.assignment.revoked == expected.revoked


def test_array_form_declines_conflicts() -> None:
    """A partition claimed twice declines; racks do not (``test_sticky_rack_arrays.py``)."""
    doc = {
        "topics": {"t": 2},
        "members": [
            {"id": "a", "topics": ["t"], "generation": 1, "owned": [["t", [0]]]},
            {"id": "b", "topics": ["t"], "generation": 1, "owned": [["t", [0]]]},
        ],
    }
    g = GroupSpec.from_json(doc)
    ms = subscription_order(g)
    data = [coop.cooperative_member_data(m) for m in ms]
    assert fast_constrained(g, ms, data, True) is None
    doc["members"][1]["owned"] = []
    doc["members"][0]["rack"] = "r1"
    g = GroupSpec.from_json(doc)
    ms = subscription_order(g)
    fast = fast_constrained(g, ms, [coop.cooperative_member_data(m) for m in ms], True)
    assert fast is not None and fast.assignment == coop.reference_assign(g)[0]


def test_array_form_on_golden_vectors() -> None:
    """Wherever the array form applies to a golden case or round (uniform, no racks, no
    conflicts), it reproduces Kafka's recorded assignment exactly."""
    from golden_vectors import load_golden

    used = 0
    for name, module in (("assign_sticky", sticky), ("assign_cooperative_sticky", coop)):
        member_data = coop.cooperative_member_data if module is coop else sticky.sticky_member_data
        for c in load_golden(name):
            runs = []
            if c["kind"] == "single":
                runs.append((c["input"], c["expected"]))
            else:
                for r in c["expected"]["rounds"]:
                    if "assignment" in r:
                        doc = dict(c["input"]["steps"][r["step"]])
                        doc["members"] = r["members"]
                        runs.append((doc, {"assignment": r["assignment"]}))
            for doc, expected in runs:
                g = GroupSpec.from_json(doc)
                ms = subscription_order(g)
                fast = fast_constrained(g, ms, [member_data(m) for m in ms], module is coop)
                if fast is not None:
                    used += 1
                    assert fast.assignment.to_json() == expected, c["id"]
    assert used >= 100


def _large_group(seed: int) -> GroupSpec:
    """A uniform group past the array threshold: mixed id styles, random and skewed owners
    (some members far over quota), fresh members without user data."""
    import random

    rnd = random.Random(seed)
    topics = {
        f"{rnd.choice(['orders', 't', 'Topic_', 'x-'])}{i}": rnd.randint(1, 400)
        for i in range(rnd.randint(1, 30))
    }
    first = next(iter(topics))
    topics[first] += max(0, 2048 - sum(topics.values()))
    ids = [
        rnd.choice([f"consumer-{i}", f"c{i}-{rnd.getrandbits(64):x}", f"C{i:03d}"])
        for i in range(rnd.randint(1, 300))
    ]
    ids = list(dict.fromkeys(ids))
    all_tps = [(t, p) for t, n in topics.items() for p in range(n)]
    frac, hot = rnd.random(), rnd.sample(ids, min(len(ids), 3))
    owner = {tp: rnd.choice(ids) if rnd.random() < frac else None for tp in all_tps}
    for tp in all_tps:
        if rnd.random() < rnd.random() * 0.3:
            owner[tp] = rnd.choice(hot)
    members = []
    for i in ids:
        mine = [tp for tp in all_tps if owner[tp] == i]
        rnd.shuffle(mine)
        owned: dict[str, list[int]] = {}
        for t, p in mine:
            owned.setdefault(t, []).append(p)
        fresh = not mine and rnd.random() < 0.5
        members.append(
            {
                "id": i,
                "topics": list(topics),
                "generation": -1 if fresh else rnd.randint(1, 3),
                "owned": [[t, ps] for t, ps in owned.items()],
                "has_user_data": not fresh,
            }
        )
    return GroupSpec.from_json({"topics": topics, "members": members})


@pytest.mark.parametrize("seed", range(12))
def test_array_form_equals_reference_on_large_groups(seed: int) -> None:
    """Past 2,048 partitions ``assign`` takes the array form; it equals the object-based port
    (assignment, revocations, Kafka list order) on large random groups."""
    group = _large_group(seed)
    members = subscription_order(group)
    for module in (sticky, coop):
        member_data = coop.cooperative_member_data if module is coop else sticky.sticky_member_data
        data = [member_data(m) for m in members]
        fast = fast_constrained(group, members, data, module is coop, ordered=True)
        assert fast is not None
        expected, lists = module.reference_assign(group)
        assert module._assign(group, ordered=False)[0] == expected
        assert (fast.assignment, fast.lists) == (expected, lists)


def test_array_form_declines_a_subscription_listing_a_topic_twice() -> None:
    """Kafka's ``allSubscriptionsEqual`` compares list sizes with the first member's topic
    set, so equal lists repeating a topic are *not* equal subscriptions (general path)."""
    doc = {
        "topics": {"a": 2048},
        "members": [
            {"id": f"C{i}", "topics": ["a", "a"], "generation": 3,
             "owned": [["a", list(range(lo, hi))]]}
            for i, (lo, hi) in enumerate([(0, 1500), (1500, 1600), (1600, 1600)])
        ],
    }
    g = GroupSpec.from_json(doc)
    ms = subscription_order(g)
    for module in (sticky, coop):
        member_data = coop.cooperative_member_data if module is coop else sticky.sticky_member_data
        assert fast_constrained(g, ms, [member_data(m) for m in ms], module is coop) is None
        assert module._assign(g, ordered=True) == module.reference_assign(g)
