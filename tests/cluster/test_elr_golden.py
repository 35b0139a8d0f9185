"""Golden vectors of KIP-966 elections (``tests/golden/4.3/elr_events.jsonl.gz``, Kafka 4.3's
``PartitionChangeBuilder`` driven as ``ReplicationControlManager`` drives it): every step of
every case, ELR on and off, through :mod:`kpart.cluster.broker_events`."""

from __future__ import annotations

import pytest

from golden_vectors import case_ids, load_golden
from kpart.cluster.broker_events import BrokerEvent, ReplicationState, run_events
from kpart.cluster.partition_change import ElectionRules, PartitionRegistration

CASES = load_golden("4.3/elr_events")


def _state(case: dict) -> ReplicationState:
    rows = [(t["name"], p["partition"], t["min_insync_replicas"],
             PartitionRegistration(tuple(p["replicas"]), p["leader"], tuple(p["isr"]),
                                   tuple(p["elr"]), tuple(p["last_known_elr"]),
                                   p["leader_recovery_state"]))
            for t in case["topics"] for p in t["partitions"]]
    return ReplicationState.of(case["brokers"], rows, fenced=case["down_brokers"])


def _seen(state: ReplicationState, event: list) -> dict:
    return {
        "event": event,
        "down_brokers": sorted(state.fenced),
        "partitions": [{"topic": t, "partition": n, "leader": p.leader, "isr": list(p.isr),
                        "elr": list(p.elr), "last_known_elr": list(p.last_known_elr),
                        "leader_recovery_state": p.leader_recovery_state}
                       for (t, n), p in zip(state.keys, state.partitions, strict=True)],
        "offline_partitions": [list(k) for k in state.offline],
        "under_min_isr": [list(k) for k in state.under_min_isr],
    }


def test_the_vectors_hold_both_modes():
    assert len(CASES) == 62
    assert sum(c["elr"] for c in CASES) == 31


@pytest.mark.parametrize("case", CASES, ids=case_ids(CASES))
def test_every_step_matches_kafka_4_3(case):
    state = _state(case)
    assert [state.effective_min_isr[i] for i in range(len(state.keys))] == [
        t["effective_min_isr"] for t in case["topics"] for _ in t["partitions"]]
    events = [BrokerEvent(kind, b) for kind, b in case["events"]]
    steps = run_events(state, events, ElectionRules.for_version("4.3", case["elr"]))
    for n, (got, want) in enumerate(zip(steps, case["expected"]["steps"], strict=True)):
        assert _seen(got, want["event"]) == want, f"step {n}: {want['event']}"
