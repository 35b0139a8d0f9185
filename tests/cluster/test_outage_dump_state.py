"""``kpart outage`` starts from the dump's state and never makes a partition healthier (issue
24, point 3): a leaderless partition stays offline, the ``Offline:`` field is read (those
replicas are dead for their partition), brokers the dump marks offline or the cluster lacks
are down from the start, and ``--plan`` cannot complete a reassignment of a partition that
has no leader."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from kpart.cli import main
from kpart.cluster import ClusterBroker, ClusterModel, PartitionState, TopicInfo
from kpart.cluster.broker_outage import apply_target, outage, outage_all, ranked
from kpart.cluster.from_files import cluster_from_files
from kpart.errors import ConfigError, KpartWarning
from kpart.placement.spec import Broker

HEADER = "Topic: {t}\tPartitionCount: {n}\tReplicationFactor: 2\tConfigs: {c}\n"
LINE = "\tTopic: {t}\tPartition: {p}\tLeader: {ld}\tReplicas: {r}\tIsr: {i}\tOffline: {o}\n"

#: the issue's example: t-1 has no leader, its only ISR replica 6 is offline
DUMP = (HEADER.format(t="t", n=3, c="")
        + LINE.format(t="t", p=0, ld=1, r="1,2", i="1,2", o="")
        + LINE.format(t="t", p=1, ld="none", r="6,1", i="6", o="6")
        + LINE.format(t="t", p=2, ld=2, r="2,1", i="2,1", o=""))

BROKERS = [ClusterBroker(i) for i in (1, 2, 3, 6)]


def _p(n: int, reps: tuple[int, ...], leader: int | None, isr: tuple[int, ...],
       rate: float) -> PartitionState:
    return PartitionState("t", n, reps, leader, isr, bytes_in_per_s=rate,
                          bytes_out_per_s=rate, size_bytes=rate)


def _healthy() -> list[PartitionState]:
    return [_p(0, (1, 2), 1, (1, 2), 10.0), _p(1, (2, 3), 2, (2, 3), 20.0),
            _p(2, (3, 6), 3, (3, 6), 5.0), _p(3, (6, 1), 6, (6, 1), 1.0)]


def _with_leaderless(rate: float = 1000.0) -> ClusterModel:
    parts = [*_healthy(), _p(4, (6, 1), None, (6,), rate)]
    return ClusterModel.from_partitions(BROKERS, parts, [TopicInfo("t")])


def test_leaderless_partition_stays_offline_when_an_unrelated_replica_fails() -> None:
    m = _with_leaderless()
    for r in (outage(m, [1]), outage_all(m, failures=[((1,), None)])[0]):
        assert r.leader_after().tolist()[4] == -1
        assert 4 in r.offline.tolist()
        six = [b.id for b in m.brokers].index(6)
        assert r.bytes_in_per_s[six] == 1.0  # partition 3 only: not the 1000 B/s of t-4
        assert 4 not in r.moved.tolist()


def test_all_ranking_does_not_change_because_of_a_leaderless_partition() -> None:
    plain = ClusterModel.from_partitions(BROKERS, _healthy(), [TopicInfo("t")])

    def keys(m: ClusterModel) -> list[tuple]:
        return [(r.down, r.rack, r.rank_key(), r.leaders.tolist(), r.bytes_in_per_s.tolist(),
                 r.moved.tolist()) for r in ranked(outage_all(m))]

    assert keys(_with_leaderless()) == keys(plain)


def test_offline_field_is_read_and_its_replica_never_elected() -> None:
    text = (HEADER.format(t="t", n=1, c="min.insync.replicas=2")
            + LINE.format(t="t", p=0, ld=1, r="1,6,2", i="1,6,2", o="6"))
    m = cluster_from_files(text)
    assert m.offline is not None and m.offline.tolist() == [[6]]
    r = outage(m, [1])
    # 6 is in the ISR but offline: 2 is elected, and the live ISR is {2} < 2
    assert r.leader_after().tolist() == [2]
    assert r.under_min_isr.tolist() == [0]
    assert r.isr_after().tolist() == [[2, -1, -1]]
    r2 = outage(m, [1, 2])
    assert r2.offline.tolist() == [0]  # not resurrected by 6


def test_broker_marked_offline_everywhere_is_down_from_the_start() -> None:
    m = cluster_from_files(DUMP)
    assert m.offline_brokers() == (6,)
    results = outage_all(m)
    assert [r.down for r in results] == [(1,), (2,)]  # 6 fails in no single failure
    six = [b.id for b in m.brokers].index(6)
    assert not any(r.alive[six] for r in results)
    before = outage(m, ())
    assert before.offline.tolist() == [1] and not before.alive[six]


def test_cli_down_1_reports_the_leaderless_partition_offline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dump = tmp_path / "dump.txt"
    dump.write_text(DUMP)
    assert main(["outage", "--current", str(dump), "--down", "1", "--json"]) == 0
    (one,) = json.loads(capsys.readouterr().out)["outages"]
    assert one["offline_partitions"] == [["t", 1]]
    assert [b["broker"] for b in one["brokers"]] == [2]  # 6 was down before
    assert one["leaders"] == {"t": {"0": 2}}


def test_broker_absent_from_the_cluster_is_down_from_the_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = DUMP.replace("\tOffline: 6", "\tOffline: ")  # Apache Kafka prints no Offline
    with pytest.warns(KpartWarning, match="broker 6 of the assignment is not one of the"):
        m = cluster_from_files(text, brokers=[Broker(1, "a"), Broker(2, "b")], state_now=True)
    assert m.offline_brokers() == (6,)
    with pytest.raises(ConfigError, match="replica 6 on a broker the cluster does not list"):
        cluster_from_files(text, brokers=[Broker(1, "a"), Broker(2, "b")])  # planning: refused
    dump = tmp_path / "dump.txt"
    dump.write_text(text)
    assert main(["outage", "--current", str(dump), "--brokers", "1:a,2:b", "--down-rack", "a",
                 "--json"]) == 0
    out = capsys.readouterr()
    assert "broker 6" in out.err
    (one,) = json.loads(out.out)["outages"]
    assert one["offline_partitions"] == [["t", 1]] and one["down"] == [1]


def test_absent_broker_that_leads_is_refused() -> None:
    text = (HEADER.format(t="t", n=1, c="")
            + LINE.format(t="t", p=0, ld=6, r="6,1", i="6,1", o=""))
    with pytest.raises(ConfigError, match="broker 6, the leader of partition t-0"):
        cluster_from_files(text, brokers=[Broker(1)], state_now=True)


def test_plan_cannot_complete_a_leaderless_reassignment() -> None:
    m = _with_leaderless()
    with pytest.warns(KpartWarning, match="partition t-4 cannot complete .it has no leader"):
        after = apply_target(m, {"t": {4: (2, 3), 0: (2, 1)}})
    assert after.partition_state(4).leader is None
    assert after.partition_state(4).replicas == (6, 1)
    assert after.partition_state(0).replicas == (2, 1)
    assert outage(after, [3]).offline.tolist() == [4]


def test_plan_onto_an_offline_replica_cannot_complete() -> None:
    m = cluster_from_files(DUMP)
    with pytest.warns(KpartWarning, match="t-0 cannot complete .its target replica 6 is"):
        after = apply_target(m, {"t": {0: (6, 2)}})
    assert after.partition_state(0).replicas == (1, 2)


def test_a_healthy_dump_gives_what_it_gave_before() -> None:
    text = (HEADER.format(t="t", n=2, c="")
            + LINE.format(t="t", p=0, ld=1, r="1,2", i="1,2", o="")
            + LINE.format(t="t", p=1, ld=2, r="2,1", i="2,1", o=""))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = cluster_from_files(text)
    assert m.offline is None and m.offline_brokers() == ()
    assert [r.down for r in outage_all(m)] == [(1,), (2,)]
    assert outage(m, [1]).leader_after().tolist() == [2, 2]


def test_outage_all_equals_outage_with_offline_replicas_and_dead_brokers() -> None:
    import numpy as np

    rng = np.random.default_rng(24)
    brokers = [ClusterBroker(i, f"r{i % 3}") for i in range(8)]
    parts, offline = [], []
    for n in range(300):
        reps = tuple(int(x) for x in rng.permutation(8)[: rng.integers(1, 4)])
        isr = tuple(b for b in reps if rng.random() < 0.8)
        leader = reps[0] if rng.random() < 0.85 else None
        parts.append(_p(n, reps, leader, isr, float(rng.integers(0, 50))))
        off = [b for b in reps if b == 7 or (b != leader and rng.random() < 0.1)]
        offline.append(off + [-1] * (3 - len(off)))
    m = ClusterModel.from_partitions(brokers, parts, [TopicInfo("t", 2)])
    from dataclasses import replace

    m = replace(m, offline=np.array(offline, dtype=np.int32), leader=np.where(
        np.isin(m.leader, [7]), -1, m.leader).astype(np.int32))
    assert m.offline_brokers() == (7,)
    results = outage_all(m)
    assert (7,) not in [r.down for r in results]
    for fast in results:
        slow = outage(m, fast.down)
        for name in ("offline", "under_min_isr", "moved", "moved_to", "alive", "leaders"):
            assert np.array_equal(getattr(fast, name), getattr(slow, name)), (fast.down, name)
        for name in ("bytes_in_per_s", "network_in", "network_out", "disk_bytes"):
            assert np.allclose(getattr(fast, name), getattr(slow, name)), (fast.down, name)
        before = outage(m, ())
        # never healthier than the dump: what was offline stays offline
        assert set(before.offline.tolist()) <= set(fast.offline.tolist())
        assert not fast.alive[7]


def test_cluster_json_says_it_does_not_keep_the_offline_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dump = tmp_path / "dump.txt"
    dump.write_text(DUMP)
    assert main(["cluster", "--current", str(dump), "--out", str(tmp_path / "c.json")]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err == ["kpart: warning: --out: cluster.json does not record the 1 offline replicas "
                   "of --current (its Offline: field): give the dump itself to kpart outage as "
                   "--current"]
