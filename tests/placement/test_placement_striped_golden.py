"""StripedReplicaPlacer: every case of replicas_striped.jsonl (one placer, one JavaRandom per
case, placements in order), and the derived rack HashMap order against ``aux``."""

from __future__ import annotations

import pytest

import kpart
from golden_vectors import case_ids, load_golden
from kpart import Broker
from kpart._java.hashing import hashmap_order
from kpart.errors import KpartError
from kpart.placement.striped_replica_placer import StripedReplicaPlacer, _RackList

CASES = load_golden("replicas_striped")


def _brokers(case: dict) -> list[Broker]:
    return [Broker(b["id"], b["rack"], b["fenced"]) for b in case["input"]["brokers"]]


def test_golden_file_has_all_cases() -> None:
    assert len(CASES) == 286


@pytest.mark.parametrize("case", CASES, ids=case_ids(CASES))
def test_striped_golden(case: dict) -> None:
    brokers = _brokers(case)
    placer = StripedReplicaPlacer(kpart.JavaRandom(case["input"]["seed"]), kafka_version="4.0.0")
    results = case["expected"]["results"]
    assert len(results) == len(case["input"]["placements"])
    for spec, expected in zip(case["input"]["placements"], results, strict=True):
        kw = {"brokers": brokers, "start_partition": spec["start_partition"],
              "num_partitions": spec["partitions"],
              "replication_factor": spec["replication_factor"]}
        if "error" in expected:
            with pytest.raises(KpartError) as info:
                placer.place(**kw)
            assert info.value.java_class == expected["error"]["class"]
            assert str(info.value) == expected["error"]["message"]
        else:
            got = placer.place(**kw)
            assert [list(r) for r in got] == expected["assignment"]


@pytest.mark.parametrize("case", CASES, ids=case_ids(CASES))
def test_rack_hash_order_matches_aux(case: dict) -> None:
    brokers = _brokers(case)
    assert hashmap_order([b.rack for b in brokers]) == case["aux"]["java_rack_hash_order"]
    rack_list = _RackList(kpart.JavaRandom(0), brokers)
    by_identity = {id(r): name for name, r in rack_list.racks.items()}
    order = [by_identity[id(r)] for r in rack_list.racks_hash_order]
    assert order == case["aux"]["java_rack_hash_order"]


def test_fenced_brokers_never_lead() -> None:
    brokers = [Broker(i, f"r{i % 3}", fenced=i % 2 == 1) for i in range(9)]
    placer = StripedReplicaPlacer(kpart.JavaRandom(11))
    for _ in range(5):
        for replicas in placer.place(brokers=brokers, start_partition=0, num_partitions=20,
                                     replication_factor=5):
            assert replicas[0] % 2 == 0
            assert len(set(replicas)) == 5


def test_same_seed_same_sequence_and_calls_share_random() -> None:
    brokers = [Broker(i, f"r{i % 2}") for i in range(6)]
    kw = {"brokers": brokers, "start_partition": 0, "num_partitions": 7, "replication_factor": 3}
    a, b = StripedReplicaPlacer(kpart.JavaRandom(5)), StripedReplicaPlacer(kpart.JavaRandom(5))
    first = a.place(**kw)
    assert first == b.place(**kw)
    assert a.place(**kw) == b.place(**kw)


def test_bad_inputs() -> None:
    placer = StripedReplicaPlacer(kpart.JavaRandom(1))
    with pytest.raises(KpartError, match="Duplicate broker id 3"):
        placer.place(brokers=[Broker(3), Broker(3)], num_partitions=1, replication_factor=1)
    with pytest.raises(KpartError, match="-2"):
        placer.place(brokers=[Broker(3)], num_partitions=-2, replication_factor=1)
    with pytest.raises(TypeError):
        StripedReplicaPlacer(1234)  # type: ignore[arg-type]
