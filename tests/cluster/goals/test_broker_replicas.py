"""Each broker's replicas (``kpart.cluster.goals.broker_replicas``, Cruise Control's
``Broker.replicas()``): whatever moves, leadership changes and restores happened, the index
answers exactly what scanning the replica array answers, in the same order."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kpart.cluster import ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import goal_state
from kpart.cluster.goals.broker_replicas import BrokerReplicas
from kpart.cluster.goals.relocation import (
    relocate_leadership,
    relocate_replica,
    relocate_replicas,
)


def _scan(pos: np.ndarray, b: int, first: int, lo: int, hi: int) -> tuple[list[int], list[int]]:
    rows, slots = np.nonzero(pos[lo:hi, first:] == b)
    return (rows + lo).tolist(), (slots + first).tolist()


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), brokers=st.integers(3, 7),
       partitions=st.integers(1, 40), steps=st.integers(0, 60))
def test_the_index_answers_what_the_scan_answers(seed: int, brokers: int, partitions: int,
                                                  steps: int) -> None:
    rng = np.random.default_rng(seed)
    model = ClusterModel.from_partitions(
        [ClusterBroker(i, None) for i in range(brokers)],
        [PartitionState("t", p, tuple(int(x) for x in rng.choice(brokers, 3, replace=False)),
                        size_bytes=1.0) for p in range(partitions)])
    s = goal_state(model, model.replicas, np.ones(brokers, bool))
    s.held.placed((0,), 0)  # before the first question: nothing to record yet
    saved = None
    for _ in range(steps):
        op = int(rng.integers(0, 6))
        row = int(rng.integers(0, partitions))
        if op <= 1:  # a replica moves to a broker not holding one of its partition
            free = np.setdiff1d(np.arange(brokers), s.pos[row])
            if len(free):
                relocate_replica(s, row, int(rng.integers(0, 3)), int(rng.choice(free)))
        elif op == 2:
            relocate_leadership(s, row, int(rng.integers(1, 3)))
        elif op == 3:  # many partitions' replicas to one broker
            dst = int(rng.integers(0, brokers))
            rows = np.flatnonzero(~(s.pos == dst).any(axis=1))[:3]
            relocate_replicas(s, rows, np.zeros(len(rows), np.intp), dst)
        elif op == 4:
            saved = s.save()
        elif saved is not None:
            s.restore(saved)
        b = int(rng.integers(0, brokers))
        first = int(rng.integers(0, 2))
        lo = int(rng.integers(0, partitions))
        hi = int(rng.integers(lo, partitions + 1))
        rows, slots = s.replicas_on(b, first, lo, hi)
        assert (rows.tolist(), slots.tolist()) == _scan(s.pos, b, first, lo, hi)
        rows, slots = s.replicas_on(b, first)
        assert (rows.tolist(), slots.tolist()) == _scan(s.pos, b, first, 0, partitions)
        assert s.leads(b).tolist() == np.flatnonzero(s.pos[:, 0] == b).tolist()


def test_rows_placed_back_are_answered_once() -> None:
    pos = np.array([[0, 1], [1, 2]], dtype=np.int32)
    held = BrokerReplicas()
    assert held.on(pos, 0)[0].tolist() == [0]
    for dst in (2, 0, 2, 0):  # partition 0's leader goes to broker 2 and back, twice
        pos[0, 0] = dst
        held.placed((0,), dst)
    assert held.on(pos, 0)[0].tolist() == [0]
    assert held.on(pos, 2)[0].tolist() == [1]


def test_many_moves_rebuild_the_index() -> None:
    pos = np.array([[0, 1]] * 10, dtype=np.int32)
    held = BrokerReplicas()
    held.on(pos, 0)
    pos[:, 0] = 2
    held.placed(np.arange(10), 2)  # past the rebuild share of the replicas
    rows, slots = held.on(pos, 2)
    assert rows.tolist() == list(range(10)) and slots.tolist() == [0] * 10
    assert held.placed_count == 0 and held.on(pos, 0)[0].tolist() == []
