"""The array form of the constrained path equals the object-based port (its reference) —
assignment, revocations and each member's Kafka list order — on random uniform groups."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kpart.consumer import cooperative_sticky_assignor as coop
from kpart.consumer import sticky_assignor as sticky
from kpart.consumer._constrained_arrays import fast_constrained
from kpart.consumer.abstract_sticky_assignor import subscription_order
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


def test_array_form_declines_conflicts_and_racks() -> None:
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
    assert fast_constrained(g, ms, [coop.cooperative_member_data(m) for m in ms], True) is None


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
