"""``kpart.cluster.broker_outage``: Kafka's election with unclean election off (hand-made cases),
``min.insync.replicas`` boundaries, rack failures, the vectorised path against a per-partition
reference loop, and ``outage_all`` against ``outage``."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kpart.cluster import ClusterBroker, ClusterModel, PartitionState, TopicInfo
from kpart.cluster.broker_outage import apply_target, outage, outage_all, rack_brokers, ranked
from kpart.errors import ConfigError

BROKERS = [ClusterBroker(i, f"r{i % 3}") for i in range(6)]


def _model(*parts: PartitionState, min_isr: int | None = 2) -> ClusterModel:
    return ClusterModel.from_partitions(BROKERS, parts, [TopicInfo("t", min_isr)])


def _p(n: int, reps: tuple[int, ...], leader: int | None, isr: tuple[int, ...],
       rate: float | None = None) -> PartitionState:
    return PartitionState("t", n, reps, leader, isr, bytes_in_per_s=rate,
                          bytes_out_per_s=None if rate is None else 2 * rate,
                          size_bytes=None if rate is None else 100 * rate)


def test_leader_alive_stays() -> None:
    m = _model(_p(0, (1, 2, 3), 2, (1, 2, 3)))
    r = outage(m, [1])
    assert r.leader_after().tolist() == [2]
    assert r.moved.tolist() == [] and r.offline.tolist() == [] and r.under_min_isr.tolist() == []
    assert r.isr_after().tolist() == [[2, 3, -1]]


def test_dead_leader_goes_to_the_first_live_isr_replica_in_replica_order() -> None:
    # replica order, not ISR order: 3 comes before 2 in the replicas
    m = _model(_p(0, (1, 3, 2), 1, (1, 2, 3)), _p(1, (1, 4, 2), 1, (2, 1)))
    r = outage(m, [1])
    assert r.leader_after().tolist() == [3, 2]  # 4 is alive but out of sync
    assert r.moved.tolist() == [0, 1] and r.moved_to.tolist() == [3, 2]
    assert r.under_min_isr.tolist() == [1]  # live ISR {2} < 2


def test_only_out_of_sync_replicas_left_is_offline() -> None:
    m = _model(_p(0, (1, 2, 3), 1, (1,)), _p(1, (2, 1), 2, (2, 1)))
    r = outage(m, [1])
    assert r.leader_after().tolist() == [-1, 2]
    assert r.offline.tolist() == [0]
    assert r.under_min_isr.tolist() == [1]  # offline ones are not listed again
    assert r.isr_after().tolist()[0] == [-1, -1]


def test_min_isr_boundaries_and_the_unknown_default() -> None:
    parts = [_p(0, (0, 1, 2), 0, (0, 1, 2)), _p(1, (0, 1, 4), 0, (0, 1))]
    r2 = outage(_model(*parts, min_isr=2), [1])
    assert r2.under_min_isr.tolist() == [1]  # live ISR 2 = min 2: fine; 1 < 2: blocked
    r3 = outage(_model(*parts, min_isr=3), [1])
    assert r3.under_min_isr.tolist() == [0, 1]
    unknown = _model(*parts, min_isr=None)
    assert outage(unknown, [1]).under_min_isr.tolist() == []  # Kafka's default 1
    assert outage(unknown, [1], default_min_isr=2).under_min_isr.tolist() == [1]
    assert outage(unknown, [0, 1]).offline.tolist() == [1]


def test_rack_failure_and_loads() -> None:
    m = _model(_p(0, (0, 1, 2), 0, (0, 1, 2), 10.0), _p(1, (3, 4, 5), 3, (3, 4, 5), 4.0),
               _p(2, (0, 3), 0, (0, 3), 1.0))
    assert rack_brokers(m, "r0") == (0, 3)
    r = outage(m, rack_brokers(m, "r0"), rack="r0")
    assert r.down == (0, 3) and r.rack == "r0"
    assert r.leader_after().tolist() == [1, 4, -1]
    assert r.offline.tolist() == [2]
    assert r.alive.tolist() == [False, True, True, False, True, True]
    assert r.leaders.tolist() == [0, 1, 0, 0, 1, 0]
    assert r.bytes_in_per_s.tolist() == [0, 10.0, 0, 0, 4.0, 0]
    # network in: producers to the leader + replication to live followers; out: replication
    # to the live followers (RF-1 = 1 now) + consumers
    assert r.network_in.tolist() == [0, 10.0, 10.0, 0, 4.0, 4.0]
    assert r.network_out.tolist() == [0, 20.0 + 10.0, 0, 0, 8.0 + 4.0, 0]
    # disk stays on the live replicas, offline partition 2 had none alive
    assert r.disk_bytes.tolist() == [0, 1000.0, 1000.0, 0, 400.0, 400.0]
    assert r.max_mean_leaders == (1.0, 0.5)
    assert r.max_mean_bytes_in == (10.0, 3.5)


def test_offline_partition_keeps_disk_but_no_traffic() -> None:
    m = _model(_p(0, (0, 1), 0, (0,), 3.0))
    r = outage(m, [0])
    assert r.offline.tolist() == [0]
    assert r.disk_bytes.tolist()[1] == 300.0
    assert r.network_in.tolist() == [0.0] * 6


def test_untouched_partitions_keep_their_state() -> None:
    # partition 1 is already offline (no leader); broker 5 has nothing to do with it
    m = _model(_p(0, (5, 1), 5, (5, 1)), _p(1, (2, 3), None, (2, 3)))
    r = outage(m, [5])
    assert r.leader_after().tolist() == [1, -1]
    assert r.offline.tolist() == [1] and r.under_min_isr.tolist() == [0]
    assert outage_all(m, failures=[((5,), None)])[0].offline.tolist() == [1]


def test_bad_input() -> None:
    m = _model(_p(0, (0, 1), 0, (0, 1)))
    with pytest.raises(ConfigError, match="Unknown broker 9"):
        outage(m, [9])
    with pytest.raises(ConfigError, match="Unknown rack 'zz'"):
        rack_brokers(m, "zz")
    with pytest.raises(ConfigError, match="t-7 of the plan is not in the cluster"):
        apply_target(m, {"t": {7: (0, 1)}})


def test_apply_target() -> None:
    m = _model(_p(0, (0, 1), 0, (0,)), _p(1, (1, 2), 1, (1, 2)))
    t = apply_target(m, {"t": {0: (9, 1, 2), 1: (2, 3)}})
    assert [b.id for b in t.brokers][-1] == 9
    assert t.partition_state(0).replicas == (9, 1, 2) and t.partition_state(0).leader == 9
    assert t.partition_state(0).isr == (9, 1, 2)
    assert t.partition_state(1).leader == 2


def test_all_failures_and_ranking() -> None:
    m = _model(_p(0, (0, 1, 2), 0, (0, 1, 2), 10.0), _p(1, (1, 2, 3), 1, (1, 2, 3), 1.0),
               _p(2, (4, 5, 0), 4, (4, 5, 0), 2.0))
    results = outage_all(m)
    assert [r.down for r in results] == [(0,), (1,), (2,), (3,), (4,), (5,), (0, 3), (1, 4),
                                         (2, 5)]
    assert [r.rack for r in results][-3:] == ["r0", "r1", "r2"]
    worst = ranked(results)[0]
    # without 0, broker 1 leads partitions 0 and 1: 11 B/s; rack r0 (0, 3) ties, by ids after
    assert [r.down for r in ranked(results)][:2] == [(0,), (0, 3)]
    assert worst.max_mean_bytes_in[0] == 11.0 and worst.leaders.tolist()[1] == 2


# -- the vectorised paths against a per-partition loop -------------------------------------
def _reference(parts: list[PartitionState], down: set[int], mins: int) -> dict[str, object]:
    leaders, offline, under = [], [], []
    for i, p in enumerate(parts):
        touched = bool(down & (set(p.replicas) | set(p.isr)))
        live_isr = [b for b in p.isr if b not in down]
        # a partition without a leader stays offline: no failure brings a replica back
        if not touched or p.leader is None or p.leader in live_isr:
            new = p.leader
        else:
            new = next((b for b in p.replicas if b not in down and b in live_isr), None)
        leaders.append(-1 if new is None else new)
        if new is None:
            offline.append(i)
        elif len(live_isr) < mins:
            under.append(i)
    per = {b.id: [0, 0.0, 0.0, 0.0, 0.0] for b in BROKERS}
    for p, new in zip(parts, leaders, strict=True):
        live = [b for b in p.replicas if b not in down]
        rin, rout, size = (p.bytes_in_per_s or 0.0), (p.bytes_out_per_s or 0.0), (
            p.size_bytes or 0.0)
        for b in live:
            per[b][4] += size
            if new >= 0:
                per[b][2] += rin
        if new >= 0:
            per[new][0] += 1
            per[new][1] += rin
            per[new][3] += rout + rin * (len(live) - 1)
    return {"leaders": leaders, "offline": offline, "under": under, "per": per}


@st.composite
def _clusters(draw: st.DrawFn) -> tuple[list[PartitionState], set[int], int]:
    parts = []
    for n in range(draw(st.integers(1, 12))):
        reps = tuple(draw(st.permutations(range(6)))[: draw(st.integers(1, 4))])
        isr = tuple(b for b in draw(st.permutations(range(6))) if b in reps
                    and draw(st.booleans()))
        leader = draw(st.sampled_from([None, *reps]))
        rate = draw(st.sampled_from([None, 1.0, 2.5, 7.0]))
        parts.append(_p(n, reps, leader, isr, rate))
    down = draw(st.sets(st.integers(0, 5), max_size=3))
    return parts, down, draw(st.integers(1, 3))


@given(_clusters())
def test_vectorised_paths_match_the_reference_loop(case: tuple) -> None:
    parts, down, mins = case
    m = _model(*parts, min_isr=mins)
    want = _reference(parts, down, mins)
    got = [outage(m, down), outage_all(m, failures=[(tuple(down), None)])[0]]
    for r in got:
        assert r.leader_after().tolist() == want["leaders"]
        assert r.offline.tolist() == want["offline"]
        assert r.under_min_isr.tolist() == want["under"]
        for i, b in enumerate(m.brokers):
            exp = [0, 0.0, 0.0, 0.0, 0.0] if b.id in down else want["per"][b.id]
            assert r.leaders[i] == exp[0]
            for k, arr in enumerate((r.bytes_in_per_s, r.network_in, r.network_out,
                                     r.disk_bytes), start=1):
                assert math.isclose(arr[i], exp[k], abs_tol=1e-9), (b.id, k)


def test_outage_all_equals_outage_on_every_failure() -> None:
    rng = np.random.default_rng(7)
    parts = []
    for n in range(200):
        reps = tuple(int(x) for x in rng.permutation(6)[: rng.integers(1, 4)])
        isr = tuple(b for b in reps if rng.random() < 0.8)
        parts.append(_p(n, reps, reps[0] if rng.random() < 0.9 else None, isr,
                        float(rng.integers(0, 50))))
    m = _model(*parts)
    for fast in outage_all(m):
        slow = outage(m, fast.down)
        assert fast.down == slow.down
        for name in ("offline", "under_min_isr", "moved", "moved_to", "alive", "leaders"):
            assert np.array_equal(getattr(fast, name), getattr(slow, name)), name
        for name in ("bytes_in_per_s", "network_in", "network_out", "disk_bytes"):
            assert np.allclose(getattr(fast, name), getattr(slow, name)), name
