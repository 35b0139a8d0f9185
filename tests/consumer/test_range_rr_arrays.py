"""The array paths of Range (with KIP-881 rack matching) and RoundRobin equal their object
paths (the reference ports) and Kafka's golden vectors, with the array path forced."""

from __future__ import annotations

import pytest
from consumer_sequence_check import check_sequence, round_group
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from golden_vectors import load_golden
from kpart.consumer import assign
from kpart.consumer.classic import _member_info, _range_arrays, _round_robin_arrays
from kpart.consumer.classic._range_arrays import range_columns
from kpart.consumer.classic._round_robin_arrays import round_robin_columns
from kpart.consumer.classic.range_assignor import _assign_range_objects
from kpart.consumer.classic.round_robin_assignor import _assign_round_robin_objects
from kpart.consumer.spec import GroupSpec

ARRAYS = {"range": range_columns, "roundrobin": round_robin_columns}
OBJECTS = {"range": _assign_range_objects, "roundrobin": _assign_round_robin_objects}
GOLDEN = {"range": "assign_range", "roundrobin": "assign_roundrobin"}


@pytest.fixture
def forced(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every group, however small, through the array paths of ``assign``."""
    monkeypatch.setattr(_range_arrays, "ARRAY_THRESHOLD", 0)
    monkeypatch.setattr(_round_robin_arrays, "ARRAY_THRESHOLD", 0)


@pytest.mark.parametrize("strategy", ARRAYS)
def test_golden_vectors_through_the_array_path(strategy: str) -> None:
    """Every single case and every recorded round of every sequence (static members, racks),
    straight through the array function: none is declined."""
    run = ARRAYS[strategy]
    n = 0
    for case in load_golden(GOLDEN[strategy]):
        if case["kind"] == "single":
            groups = [(GroupSpec.from_json(case["input"]), case["expected"])]
        else:
            groups = [(round_group(case, r), r) for r in case["expected"]["rounds"]]
        for group, expected in groups:
            got = run(group)
            assert got is not None and got.columns is not None, case["id"]
            assert got.to_json()["assignment"] == expected["assignment"], case["id"]
            n += 1
    assert n > 294


@pytest.mark.parametrize("strategy", ARRAYS)
def test_golden_sequences_simulated_through_the_array_path(strategy: str, forced: None) -> None:
    for case in load_golden(GOLDEN[strategy]):
        if case["kind"] == "sequence":
            assert check_sequence(case, strategy) == [], case["id"]


def test_large_groups_take_the_array_path() -> None:
    doc = {"topics": {"t": 3000}, "members": [{"id": f"m{i}", "topics": ["t"]} for i in range(3)]}
    g = GroupSpec.from_json(doc)
    for strategy in ARRAYS:
        assert assign(g, strategy).columns is not None
        small = GroupSpec.from_json({**doc, "topics": {"t": 30}})
        assert assign(small, strategy).columns is None


def test_declines() -> None:
    many_racks = GroupSpec.from_json({
        "topics": {"t": 128, "u": 128},
        "partition_racks": {"t": [[f"r{p % 70}"] for p in range(128)]},
        "members": [{"id": f"m{i}", "topics": ["t", "u"], "rack": f"r{i}"} for i in range(70)],
    })
    assert range_columns(many_racks) is None  # more member racks than bits
    assert round_robin_columns(many_racks) is not None  # RoundRobin ignores racks


def test_declines_large_subscription_matrices(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_member_info, "MAX_SUBSCRIPTION_CELLS", 3)
    g = GroupSpec.from_json({
        "topics": {"a": 1, "b": 1},
        "members": [{"id": "x", "topics": ["a"]}, {"id": "y", "topics": ["a", "b"]}],
    })
    assert range_columns(g) is None and round_robin_columns(g) is None


@pytest.mark.parametrize("doc", [
    {"topics": {"t": 2}, "members": []},
    {"topics": {"t": 0}, "members": [{"id": "a", "topics": ["t"]}]},
    {"topics": {"t": 3}, "members": [{"id": "a", "topics": []}, {"id": "b", "topics": ["t"]}]},
    {"topics": {}, "members": [{"id": "a", "topics": ["gone"]}]},
], ids=["no members", "zero partitions", "member without topics", "no topics"])
def test_empty_edges(doc: dict) -> None:
    group = GroupSpec.from_json(doc)
    for strategy, run in ARRAYS.items():
        got = run(group)
        assert got is not None
        assert got.assignment == OBJECTS[strategy](group).assignment
        assert got.to_arrow().num_rows == sum(got.partition_counts().values())


RACKS = ["r0", "r1", "r2", "r3"]
# Topic names whose Java (UTF-16) and Python (code point) orders differ, and plain ones.
TOPICS = ["t0", "t1", "t2", "t3", "t4", "x\U0001f600", "x\ufffd"]
IDS = st.text(st.sampled_from("ab\U0001f600\ufffd"), min_size=1, max_size=3)


@st.composite
def groups(draw: st.DrawFn) -> GroupSpec:
    names = draw(st.lists(st.sampled_from(TOPICS), min_size=1, max_size=5, unique=True))
    same_count = draw(st.booleans())  # co-partitioned topics (KIP-881's first pass)
    base = draw(st.integers(0, 12))
    topics = {t: base if same_count else draw(st.integers(0, 12)) for t in names}
    racks: dict[str, list[list[str | None]]] = {}
    layout = draw(st.sampled_from(["none", "same", "random"]))
    for t, n in topics.items():
        if layout == "none" or draw(st.integers(0, 5)) == 0:
            continue  # no rack information for this topic
        if layout == "same":  # every topic alike, replicas on racks (p, p + 1) mod 3
            racks[t] = [[RACKS[p % 3], RACKS[(p + 1) % 3]] for p in range(n)]
        else:
            pool = st.sampled_from([None, *RACKS])
            racks[t] = [draw(st.lists(pool, max_size=3)) for _ in range(n)]
    subscribable = [*names, "absent"]
    uniform = draw(st.booleans())
    common = draw(st.lists(st.sampled_from(subscribable), min_size=1, max_size=6))
    ids = draw(st.lists(IDS, min_size=1, max_size=9, unique=True))
    members = []
    for i, member_id in enumerate(ids):
        subs = common if uniform else draw(st.lists(st.sampled_from(subscribable), max_size=6))
        members.append({
            "id": member_id,
            "topics": subs,
            "instance_id": draw(st.one_of(st.none(), st.just(f"i{9 - i}"), IDS)),
            "rack": draw(st.sampled_from([None, "", *RACKS[:3]])),
            # read by neither assignor: a previous owner and a generation change nothing
            "generation": draw(st.integers(-1, 3)),
            "owned": [[names[0], [0]]] if topics[names[0]] and draw(st.booleans()) else [],
        })
    doc = {"topics": topics, "members": members, "partition_racks": racks}
    return GroupSpec.from_json(doc)


@pytest.mark.parametrize("strategy", ARRAYS)
@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(group=groups())
def test_array_path_equals_object_path(strategy: str, group: GroupSpec) -> None:
    got = ARRAYS[strategy](group)
    expected = OBJECTS[strategy](group)
    assert got is not None and got.columns is not None
    assert got.assignment == expected.assignment
    assert got.partition_counts() == expected.partition_counts()
    assert got.to_arrow().equals(expected.to_arrow())


@st.composite
def rack_aware_groups(draw: st.DrawFn) -> GroupSpec:
    """Racks everywhere: co-partitioned topics and single rack-aware topics, more members
    than partitions or many partitions per member."""
    n_members = draw(st.integers(1, 12))
    counts = draw(st.lists(st.sampled_from([1, 5, 17, 40]), min_size=1, max_size=4))
    topics = {f"t{i}": n for i, n in enumerate(counts)}
    rf = draw(st.integers(1, 3))
    shift = draw(st.integers(0, 2))
    racks = {
        t: [[RACKS[(p * (i + shift) + r) % 3] for r in range(rf)] for p in range(n)]
        for i, (t, n) in enumerate(topics.items())
    }
    members = [
        {"id": f"m{j:02d}", "topics": list(topics) if draw(st.integers(0, 3)) else ["t0"],
         "rack": draw(st.sampled_from([None, *RACKS]))}
        for j in range(n_members)
    ]
    return GroupSpec.from_json({"topics": topics, "members": members, "partition_racks": racks})


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(group=rack_aware_groups())
def test_rack_aware_range_equals_object_path(group: GroupSpec) -> None:
    got = range_columns(group)
    assert got is not None
    assert got.assignment == _assign_range_objects(group).assignment
