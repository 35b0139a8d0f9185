"""``kpart.cluster.schedule``: batches cover exactly the reassigned partitions, no broker takes
part in more than K data moves of a batch (``batch_moves``' definition, from ``Move.brokers``),
durations agree with a plain recomputation, the fullest broker is relieved first, and the JSON
is byte for byte ``kpart.placement.reassign``'s and reads back through its parser."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.optimizer import plan_cluster
from kpart.cluster.schedule import reassignment_json, rollback_json, schedule_plan
from kpart.errors import ConfigError
from kpart.placement import reassign

NAMES = ("t", "a\"b", "é", "\U0001f600", "\uffff", "Z", "a\\z")


@st.composite
def cases(draw: st.DrawFn) -> tuple[ClusterModel, np.ndarray]:
    n = draw(st.integers(2, 6))
    caps = draw(st.booleans())
    brokers = [ClusterBroker(i * 3 + 1, capacity=Capacity(disk_bytes=draw(
        st.floats(100, 1e4))) if caps else None) for i in range(n)]
    ids = [b.id for b in brokers]
    parts, targets = [], []
    keys = draw(st.lists(st.tuples(st.sampled_from(NAMES), st.integers(0, 30)), min_size=1,
                         max_size=16, unique=True))
    for topic, p in keys:
        rf = draw(st.integers(1, min(3, n)))
        reps = tuple(draw(st.permutations(ids))[:rf])
        leader = draw(st.sampled_from((None, *reps)))
        size = draw(st.one_of(st.none(), st.floats(0, 1e6)))
        parts.append(PartitionState(topic, p, reps, leader=leader, size_bytes=size))
        kind = draw(st.sampled_from(("same", "reorder", "move", "move", "move", "resize")))
        if kind == "same":
            new = reps
        elif kind == "reorder":
            new = tuple(draw(st.permutations(reps)))
        else:
            new_rf = rf if kind == "move" else draw(st.integers(1, min(3, n)))
            new = tuple(draw(st.permutations(ids))[:new_rf])
        targets.append((topic, p, new))
    model = ClusterModel.from_partitions(brokers, parts)
    order = {(model.topics[int(t)].name, int(p)): i
             for i, (t, p) in enumerate(zip(model.topic, model.partition, strict=True))}
    width = max(len(x[2]) for x in targets)
    target = np.full((len(targets), width), -1, np.int32)
    for topic, p, new in targets:
        target[order[(topic, p)], : len(new)] = new
    return model, target


def _lists(model: ClusterModel, target: np.ndarray, row: int) -> tuple[list[int], list[int]]:
    return ([int(b) for b in model.replicas[row] if b >= 0],
            [int(b) for b in target[row] if b >= 0])


def _move(model: ClusterModel, target: np.ndarray, row: int) -> reassign.Move:
    cur, new = _lists(model, target, row)
    return reassign.Move(model.topics[int(model.topic[row])].name, int(model.partition[row]),
                         tuple(cur), tuple(new))


def _seconds(model: ClusterModel, target: np.ndarray, rows: np.ndarray, rate: int) -> float:
    """A batch's duration, recomputed partition by partition."""
    send: dict[int, float] = {}
    recv: dict[int, float] = {}
    for row in rows.tolist():
        cur, new = _lists(model, target, row)
        size = 0.0 if math.isnan(model.size_bytes[row]) else float(model.size_bytes[row])
        adding = [b for b in new if b not in cur]
        leader = int(model.leader[row]) if model.leader[row] >= 0 else cur[0]
        if adding:
            send[leader] = send.get(leader, 0.0) + size * len(adding)
        for b in adding:
            recv[b] = recv.get(b, 0.0) + size
    return max([*send.values(), *recv.values(), 0.0]) / rate


@settings(max_examples=100)
@given(cases(), st.one_of(st.none(), st.integers(1, 3)), st.sampled_from((None, 1, 7, 1e3)))
def test_batches_cover_the_moves_within_k(case: tuple[ClusterModel, np.ndarray],
                                          k: int | None, rate: float | None) -> None:
    model, target = case
    s = schedule_plan(model, target, max_moves_per_broker=k, throttle_bytes_per_s=rate)
    moved = [r for r in range(model.num_partitions)
             if _lists(model, target, r)[0] != _lists(model, target, r)[1]]
    rows = [r for b in s.batches for r in b.rows.tolist()]
    assert sorted(rows) == moved and len(set(rows)) == len(rows)
    assert all(b.rows.tolist() == sorted(b.rows.tolist()) and len(b.rows) for b in s.batches)
    if k is None:
        assert len(s.batches) == (1 if moved else 0)
    seen_copy_free = False
    for b in s.batches:
        moves = [_move(model, target, r) for r in b.rows.tolist()]
        assert b.replica_moves == sum(m.replica_moves for m in moves)
        sizes = np.nan_to_num(model.size_bytes[b.rows])
        assert b.bytes == pytest.approx(sum(
            float(x) * m.replica_moves for x, m in zip(sizes, moves, strict=True)))
        if k is not None:
            copying = [m for m in moves if m.replica_moves]
            assert not seen_copy_free or not copying  # the copy-free batch comes last
            seen_copy_free = seen_copy_free or not copying
            assert all(m.replica_moves for m in moves) or not copying
            per: dict[int, int] = {}
            for m in copying:  # batch_moves' "taking part": Move.brokers
                for broker in m.brokers:
                    per[broker] = per.get(broker, 0) + 1
            assert max(per.values(), default=0) <= k
        involved = set()
        for m, row in zip(moves, b.rows.tolist(), strict=True):
            involved |= m.brokers
            if m.replica_moves:
                involved.add(int(model.leader[row]) if model.leader[row] >= 0
                             else m.from_replicas[0])
            if m.leader_change:
                involved |= {m.from_replicas[0], m.to_replicas[0]}
        assert b.brokers == tuple(sorted(involved))
        if rate is None:
            assert b.seconds is None
        else:
            assert b.seconds == pytest.approx(_seconds(model, target, b.rows, int(rate)))
    if rate is None:
        assert s.total_seconds is None and s.throttle_bytes_per_s is None
    else:
        assert s.throttle_bytes_per_s == int(rate)
        assert s.total_seconds == pytest.approx(sum(b.seconds or 0 for b in s.batches))


@settings(max_examples=60)
@given(cases(), st.data())
def test_json_is_reassigns_and_reads_back(case: tuple[ClusterModel, np.ndarray],
                                          data: st.DataObject) -> None:
    model, target = case
    rows = np.array(data.draw(st.permutations(range(model.num_partitions))), dtype=np.int64)
    rows = rows[: data.draw(st.integers(0, len(rows)))]
    moves = [_move(model, target, r) for r in rows.tolist()]
    text = reassignment_json(model, target, rows)
    assert text == reassign.reassignment_json(moves)
    assert rollback_json(model, rows) == reassign.rollback_json(moves)
    if len(rows):
        back = reassign.parse_reassignment_json(text)
        assert back == {t: dict(ps) for t, ps in _by_topic(
            (m.topic, m.partition, m.to_replicas) for m in moves).items()}


def _by_topic(items: object) -> dict[str, dict[int, tuple[int, ...]]]:
    out: dict[str, dict[int, tuple[int, ...]]] = {}
    for t, p, r in items:  # type: ignore[attr-defined]
        out.setdefault(t, {})[p] = r
    return out


def _four() -> ClusterModel:
    cap = Capacity(disk_bytes=1000.0)
    big = Capacity(disk_bytes=4000.0)
    # bytes on disk: broker 0: 600 (60 % of 1000), broker 1: 900 (22.5 % of 4000),
    # broker 2: 500 (50 %), broker 3: 0
    return ClusterModel.from_partitions(
        [ClusterBroker(0, capacity=cap), ClusterBroker(1, capacity=big),
         ClusterBroker(2, capacity=cap), ClusterBroker(3, capacity=cap)],
        [PartitionState("t", 0, (1, 2), leader=1, size_bytes=400.0),
         PartitionState("t", 1, (0, 1), leader=0, size_bytes=100.0),
         PartitionState("t", 2, (1, 0), leader=1, size_bytes=400.0),
         PartitionState("t", 3, (2, 0), leader=2, size_bytes=100.0)])


def test_fullest_broker_is_relieved_first() -> None:
    m = _four()
    # every move goes to broker 3 (one slot per batch at K=1): t-0 off broker 2 (50 %),
    # t-1 off broker 1 (22.5 %, though it holds the most bytes), t-2 and t-3 off broker 0 (60 %)
    target = np.array([[1, 3], [0, 3], [1, 3], [2, 3]], dtype=np.int32)
    s = schedule_plan(m, target, max_moves_per_broker=1)
    assert [b.rows.tolist() for b in s.batches] == [[2], [3], [0], [1]]  # 0: 400 B before 100 B
    # without capacities, fullness is bytes: broker 1 (900 B) first
    bare = ClusterModel.from_partitions([ClusterBroker(b.id) for b in m.brokers],
                                        [m.partition_state(r) for r in range(4)])
    s = schedule_plan(bare, target, max_moves_per_broker=1)
    assert [b.rows.tolist() for b in s.batches] == [[1], [2], [3], [0]]


def test_copy_free_reassignments_come_last_and_take_no_time() -> None:
    m = _four()
    target = np.array([[2, 1], [0, 3], [1], [2, 0]], dtype=object).tolist()
    t = np.full((4, 2), -1, np.int32)
    for i, r in enumerate(target):
        t[i, : len(r)] = r
    s = schedule_plan(m, t, max_moves_per_broker=2, throttle_bytes_per_s=50)
    assert [b.rows.tolist() for b in s.batches] == [[1], [0, 2]]
    last = s.batches[-1]
    assert (last.replica_moves, last.bytes, last.seconds, last.brokers) == (0, 0.0, 0.0,
                                                                           (0, 1, 2))
    assert s.batches[0].seconds == 2.0 and s.total_seconds == 2.0  # 100 B at 50 B/s
    d = s.to_dict()
    assert d == {"max_moves_per_broker": 2, "throttle_bytes_per_s": 50, "total_seconds": 2.0,
                 "batches": [{"batch": 1, "partitions": 1, "replica_moves": 1, "bytes": 100.0,
                              "seconds": 2.0, "brokers": [0, 1, 3]},
                             {"batch": 2, "partitions": 2, "replica_moves": 0, "bytes": 0.0,
                              "seconds": 0.0, "brokers": [0, 1, 2]}]}
    assert schedule_plan(m, m.replicas).batches == ()
    assert schedule_plan(m, m.replicas, throttle_bytes_per_s=5).total_seconds == 0.0


def test_throttle_weighs_the_busier_side_of_each_broker() -> None:
    # broker 0 leads both partitions and sends 2 x 300 B; brokers 2 and 3 each receive 300 B
    m = ClusterModel.from_partitions(
        [ClusterBroker(i) for i in range(4)],
        [PartitionState("t", 0, (0, 1), leader=0, size_bytes=300.0),
         PartitionState("t", 1, (1, 0), leader=0, size_bytes=300.0)])
    s = schedule_plan(m, np.array([[0, 2], [3, 0]]), throttle_bytes_per_s=100.5)
    assert s.throttle_bytes_per_s == 100 and s.batches[0].seconds == 6.0


def test_a_plan_is_scheduled_whole() -> None:
    cap = Capacity(disk_bytes=1e4, network_in=1e4, network_out=1e4)
    m = ClusterModel.from_partitions(
        [ClusterBroker(i, f"r{i % 3}", cap) for i in range(6)],
        [PartitionState(f"t{p % 4}", p, (p % 6, (p + 1) % 6), leader=p % 6,
                        size_bytes=float(10 + p * 7 % 50), bytes_in_per_s=1.0,
                        bytes_out_per_s=1.0) for p in range(60)])
    plan = plan_cluster(m, add_brokers=[ClusterBroker(6, "r0", cap),
                                        ClusterBroker(7, "r1", cap)])
    s = schedule_plan(plan.model, plan.target, max_moves_per_broker=3, throttle_bytes_per_s=10)
    assert sum(b.replica_moves for b in s.batches) == plan.replica_moves
    assert sum(b.bytes for b in s.batches) == pytest.approx(plan.bytes_moved)
    assert np.array_equal(np.sort(np.concatenate([b.rows for b in s.batches])),
                          plan.moved_rows())
    assert len(s.batches) > 1 and s.total_seconds and s.total_seconds > 0


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"max_moves_per_broker": 0}, "Invalid max_moves_per_broker 0: must be an integer >= 1"),
    ({"max_moves_per_broker": True}, "Invalid max_moves_per_broker True"),
    ({"max_moves_per_broker": 1.5}, "Invalid max_moves_per_broker 1.5"),
    ({"throttle_bytes_per_s": 0}, "Invalid throttle_bytes_per_s 0: must be a finite number"),
    ({"throttle_bytes_per_s": -5.0}, "Invalid throttle_bytes_per_s -5.0"),
    ({"throttle_bytes_per_s": math.nan}, "Invalid throttle_bytes_per_s nan"),
    ({"throttle_bytes_per_s": math.inf}, "Invalid throttle_bytes_per_s inf"),
    ({"throttle_bytes_per_s": 0.5}, "Invalid throttle_bytes_per_s 0.5"),
    ({"throttle_bytes_per_s": 2**63}, "Invalid throttle_bytes_per_s 9223372036854775808"),
])
def test_bad_parameters_are_named(kwargs: dict[str, object], message: str) -> None:
    m = _four()
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")) as e:
        schedule_plan(m, m.replicas, **kwargs)  # type: ignore[arg-type]
    assert e.value.parameter == next(iter(kwargs))


@pytest.mark.parametrize(("target", "message"), [
    (np.zeros((3, 2), np.int32), r"Invalid target of shape \(3, 2\) and type int32: expected "
                                 r"integer broker ids of shape \(4, R\)"),
    (np.zeros((4,), np.int32), r"Invalid target of shape \(4,\)"),
    (np.zeros((4, 2)), "type float64"),
    (np.array([[1, 2], [0, 1], [1, 9], [2, 0]]), "partition t-2: broker 9 is not in the cluster"),
    (np.array([[1, 2], [0, 0], [1, 0], [2, 0]]), r"partition t-1: replicas \[0, 0\] must be "
                                                 "distinct"),
    (np.array([[1, 2], [0, 1], [-1, 0], [2, 0]]), r"partition t-2: replicas \[-1, 0\]"),
])
def test_bad_targets_are_named(target: np.ndarray, message: str) -> None:
    m = _four()
    with pytest.raises(ConfigError, match=message):
        schedule_plan(m, target)
    if target.ndim != 2 or len(target) != 4 or target.dtype.kind != "i":
        with pytest.raises(ConfigError, match=message):
            reassignment_json(m, target, np.array([0]))


def test_bad_rows_are_named() -> None:
    m = _four()
    for rows, message in (([4], "row 4 is not in 0..3"), ([-1], "row -1"),
                          ([1, 1], "a row is listed twice"), ([[0]], "1-d array")):
        with pytest.raises(ConfigError, match=message):
            rollback_json(m, np.array(rows))
    # only the rows written are checked: a bad row elsewhere does not stop a batch's file
    target = np.array([[1, 2], [0, 0], [1, 0], [2, 0]])
    assert '"partition":0' in reassignment_json(m, target, np.array([0]))
    with pytest.raises(ConfigError, match="partition t-1"):
        reassignment_json(m, target, np.array([0, 1]))


@settings(max_examples=30)
@given(st.integers(0, 2**32 - 1), st.integers(1, 3), st.integers(3, 9))
def test_many_moves_keep_k(seed: int, k: int, n: int) -> None:
    """Dense random plans (most partitions move, among few brokers): every batch within K, and
    first fit: a move sits in a later batch only because each earlier one had, for one of its
    brokers, no slot left."""
    rng = np.random.default_rng(seed)
    parts = [PartitionState("t", p, tuple(int(b) for b in rng.permutation(n)[:2]),
                            size_bytes=float(rng.integers(1, 100))) for p in range(120)]
    m = ClusterModel.from_partitions([ClusterBroker(i) for i in range(n)], parts)
    target = np.array([rng.permutation(n)[:2] for _ in range(120)], dtype=np.int32)
    s = schedule_plan(m, target, max_moves_per_broker=k)
    use: list[dict[int, int]] = []
    for b in s.batches:
        per: dict[int, int] = {}
        for r in b.rows.tolist():
            mv = _move(m, target, r)
            for broker in mv.brokers if mv.replica_moves else ():
                per[broker] = per.get(broker, 0) + 1
        assert max(per.values(), default=0) <= k
        use.append(per)
    for j, b in enumerate(s.batches):
        for r in b.rows.tolist():
            mv = _move(m, target, r)
            if mv.replica_moves:
                assert all(any(use[e].get(x, 0) == k for x in mv.brokers) for e in range(j))


def test_the_guide_page_example_runs() -> None:
    """docs/schedule.md's Python example, run as a doctest."""
    import doctest
    from pathlib import Path

    page = Path(__file__).resolve().parents[2] / "docs" / "schedule.md"
    result = doctest.testfile(str(page), module_relative=False, verbose=False)
    assert result.attempted >= 8 and result.failed == 0
