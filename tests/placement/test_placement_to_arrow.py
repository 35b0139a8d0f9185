"""``TopicAssignment.to_arrow`` and ``Plan.to_arrow``: one row per partition, equal to what the
values hold (checked against a plain-Python reading of them), on hand-made and random cases."""

from __future__ import annotations

from types import MappingProxyType

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kpart._java.strings import java_string_key
from kpart.placement.plan import Plan, batch_moves
from kpart.placement.planner import plan
from kpart.placement.reassign import diff
from kpart.placement.spec import Broker, TopicAssignment

LIST = pa.list_(pa.int32())
PLAN_SCHEMA = pa.schema([
    ("topic", pa.string()), ("partition", pa.int32()), ("current_replicas", LIST),
    ("target_replicas", LIST), ("changed", pa.bool_()), ("replica_moves", pa.int32()),
    ("leader_change", pa.bool_()), ("batch", pa.int32()),
])


# -- TopicAssignment -------------------------------------------------------------------------


def test_topic_assignment_schema_and_rows() -> None:
    a = TopicAssignment(((2, 0, 1), (0, 1, 2), (1, 2, 0)), start_partition=3)
    t = a.to_arrow("topic-test4")
    assert t.schema == pa.schema([("topic", pa.string()), ("partition", pa.int32()),
                                  ("replicas", LIST)])
    assert t.to_pylist() == [
        {"topic": "topic-test4", "partition": p, "replicas": list(r)}
        for p, r in a.to_dict().items()
    ]


def test_topic_assignment_empty() -> None:
    t = TopicAssignment(()).to_arrow("t")
    assert t.num_rows == 0 and t.schema.field("replicas").type == LIST


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.integers(0, 2**31 - 1), max_size=5).map(tuple), max_size=30),
       st.integers(0, 2**31 - 40), st.text(min_size=1, max_size=5))
def test_topic_assignment_random(replicas, start, topic) -> None:
    a = TopicAssignment(tuple(replicas), start_partition=start)
    rows = a.to_arrow(topic).to_pylist()
    assert rows == [{"topic": topic, "partition": start + i, "replicas": list(r)}
                    for i, r in enumerate(replicas)]


def test_topic_assignment_of_a_placer() -> None:
    from kpart import JavaRandom
    from kpart.placement.spec import PlacementSpec, StaticCluster
    from kpart.placement.striped_replica_placer import StripedReplicaPlacer

    cluster = StaticCluster.of([Broker(b, f"r{b % 3}") for b in range(9)])
    a = StripedReplicaPlacer(JavaRandom(7)).place(PlacementSpec(1000, 3), cluster)
    t = a.to_arrow("big")
    assert t.num_rows == 1000
    assert t.column("replicas").to_pylist() == [list(r) for r in a.assignments]


# -- Plan ------------------------------------------------------------------------------------


def reference_rows(p: Plan) -> list[dict]:
    """What ``Plan.to_arrow`` must hold, read from the plan one partition at a time."""
    move = {(m.topic, m.partition): m for m in p.moves}
    batch = {(m.topic, m.partition): b for b, ms in enumerate(p.batches, 1) for m in ms}
    rows = []
    for t in sorted(p.target, key=java_string_key):
        for part in sorted(p.target[t]):
            cur = p.current.get(t, {}).get(part)
            m = move.get((t, part))
            rows.append({
                "topic": t, "partition": part,
                "current_replicas": None if cur is None else list(cur),
                "target_replicas": list(p.target[t][part]),
                "changed": m is not None,
                "replica_moves": 0 if m is None else m.replica_moves,
                "leader_change": m is not None and m.leader_change,
                "batch": batch.get((t, part)),
            })
    return rows


def test_plan_rows_match_its_moves_and_batches() -> None:
    cur = {"b": {i: (i % 3, (i + 1) % 3) for i in range(12)},
           "a": {i: ((i + 1) % 3, i % 3) for i in range(5)}}
    p = plan(cur, [Broker(0), Broker(1), Broker(2)], add_brokers=[Broker(3), Broker(4)],
             max_concurrent_moves_per_broker=1)
    assert len(p.batches) > 1
    t = p.to_arrow()
    assert t.schema == PLAN_SCHEMA
    rows = t.to_pylist()
    assert rows == reference_rows(p)
    assert [r["topic"] for r in rows[:5]] == ["a"] * 5  # compareTopicPartitions order
    assert sum(r["changed"] for r in rows) == len(p.moves)
    assert sum(r["replica_moves"] for r in rows) == p.replica_moves
    assert sum(r["leader_change"] for r in rows) == p.leader_changes


def _hand_made(current: dict, target: dict, k: int | None = None) -> Plan:
    moves = diff(current, {t: {p: r for p, r in ps.items() if p in current.get(t, {})}
                           for t, ps in target.items()})
    return Plan(current=MappingProxyType(current), target=MappingProxyType(target), brokers=(),
                moves=moves, batches=batch_moves(moves, k), replica_moves=0, leader_changes=0)


def test_plan_partitions_out_of_order_and_missing_from_current() -> None:
    # a Plan built by hand: the target lists partitions in any order, and one the current
    # assignment lacks (no current replicas: null)
    current = {"t": {2: (1, 2), 0: (0, 1)}, "\U0001f600": {0: (3,)}, "\uff61": {0: (4,)}}
    target = {"t": {5: (2, 0), 2: (2, 1), 0: (0, 1)}, "\U0001f600": {0: (4,)},
              "\uff61": {0: (4,)}}
    p = _hand_made(current, target)
    rows = p.to_arrow().to_pylist()
    assert rows == reference_rows(p)
    # Java's String.compareTo: the surrogate pair (U+D83D...) sorts before U+FF61
    assert [r["topic"] for r in rows][-2:] == ["\U0001f600", "\uff61"]
    assert rows[2] == {"topic": "t", "partition": 5, "current_replicas": None,
                       "target_replicas": [2, 0], "changed": False, "replica_moves": 0,
                       "leader_change": False, "batch": None}


def test_plan_without_moves_and_empty() -> None:
    cur = {"t": {0: (0, 1), 1: (1, 0)}}
    p = plan(cur, [Broker(0), Broker(1)])
    assert not p.moves
    rows = p.to_arrow().to_pylist()
    assert [r["batch"] for r in rows] == [None, None] and not any(r["changed"] for r in rows)
    empty = _hand_made({}, {})
    assert empty.to_arrow().num_rows == 0 and empty.to_arrow().schema == PLAN_SCHEMA


@st.composite
def clusters(draw: st.DrawFn) -> tuple[dict, int, int, int | None]:
    brokers = draw(st.integers(2, 6))
    rf = draw(st.integers(1, min(3, brokers)))
    topics = draw(st.lists(st.sampled_from(["a", "b", "t0", "t1", "é", "\U0001f600"]),
                           min_size=1, max_size=4, unique=True))
    current: dict = {}
    for t in topics:
        n = draw(st.integers(1, 12))
        current[t] = {p: tuple(draw(st.permutations(range(brokers)))[:rf]) for p in range(n)}
    add = draw(st.integers(0, 2))
    k = draw(st.one_of(st.none(), st.integers(1, 3)))
    return current, brokers, add, k


@settings(max_examples=100, deadline=None)
@given(clusters())
def test_plan_random(case) -> None:
    current, brokers, add, k = case
    p = plan(current, [Broker(b) for b in range(brokers)],
             add_brokers=[Broker(brokers + i) for i in range(add)],
             max_concurrent_moves_per_broker=k)
    assert p.to_arrow().to_pylist() == reference_rows(p)


def test_plan_large_shape() -> None:
    # 100,000 partitions (the size kpart issue 12 asks a table for), RF 3 and RF 1 topics mixed, every
    # 7th partition of a topic moving a replica to broker 6 (the leader on every 14th)
    cur = {f"t{t:03d}": {p: (p % 6, (p + 1) % 6, (p + 2) % 6)[: 1 if t % 10 == 0 else 3]
                         for p in range(1000)} for t in range(100)}
    tgt = {t: {p: ((6, *r[1:]) if p % 14 == 0 else (*r[:-1], 6)) if p % 7 == 0 else r
               for p, r in ps.items()} for t, ps in cur.items()}
    p = _hand_made(cur, tgt, k=40)
    t = p.to_arrow()
    assert t.num_rows == 100_000 and t.schema == PLAN_SCHEMA
    assert t.column("changed").to_pylist().count(True) == len(p.moves)
    moved = t.filter(t.column("changed"))
    assert moved.column("target_replicas").to_pylist() == [list(m.to_replicas)
                                                           for m in p.moves]
    assert moved.column("current_replicas").to_pylist() == [list(m.from_replicas)
                                                            for m in p.moves]
    assert moved.column("replica_moves").to_pylist() == [m.replica_moves for m in p.moves]
    assert moved.column("leader_change").to_pylist() == [m.leader_change for m in p.moves]
    assert t.to_pylist() == reference_rows(p)


@pytest.mark.parametrize("k", [None, 2])
def test_plan_batch_numbers_are_the_batch_files(k) -> None:
    cur = {"t": {i: (i % 3, (i + 1) % 3) for i in range(9)}}
    p = plan(cur, [Broker(0), Broker(1), Broker(2)], add_brokers=[Broker(3)],
             max_concurrent_moves_per_broker=k)
    rows = p.to_arrow().to_pylist()
    for b, moves in enumerate(p.batches, start=1):
        assert sorted((m.topic, m.partition) for m in moves) == sorted(
            (r["topic"], r["partition"]) for r in rows if r["batch"] == b)
