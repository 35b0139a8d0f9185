"""``kpart outage --group/--transactional-id/--groups-file``: the coordinators (the leaders of
their ``__consumer_offsets`` / ``__transaction_state`` partitions) that move or become
unavailable, per failure and per ordered event; the refusal of a cluster without the internal
topic; and the events' ``--json`` written as ``json.dumps`` would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kpart.cli import main
from kpart.cluster.broker_outage import coordinator_steps, outage_coordinators
from kpart.cluster.coordinator import Coordinator, coordinator_rows
from kpart.cluster.model import ClusterBroker, ClusterModel, PartitionState
from kpart.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]
CLUSTER = str(ROOT / "docs/examples/coordinator-cluster.json")
KIP966 = str(ROOT / "docs/examples/kip966.describe.txt")
# __consumer_offsets of 3 partitions, RF 3, min.insync.replicas=2 ("polygenelubricants":
# hashCode() Integer.MIN_VALUE -> partition 0; "a" -> 97 % 3 = 1)
DUMP = """\
Topic: __consumer_offsets\tPartitionCount: 3\tReplicationFactor: 3\tConfigs: min.insync.replicas=2
\tTopic: __consumer_offsets\tPartition: 0\tLeader: 1\tReplicas: 1,2,3\tIsr: 1,2,3
\tTopic: __consumer_offsets\tPartition: 1\tLeader: 2\tReplicas: 2,3,1\tIsr: 2,3,1
\tTopic: __consumer_offsets\tPartition: 2\tLeader: 3\tReplicas: 3,1,2\tIsr: 3,1,2
"""
EVENTS = ["--down", "1", "--down", "2", "--down", "3", "--up", "2"]


@pytest.fixture
def dump(tmp_path: Path) -> str:
    p = tmp_path / "c.txt"
    p.write_text(DUMP)
    return str(p)


def _json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(["outage", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _changes(step: dict) -> list[tuple]:
    return [(c["id"], c["leader_before"], c["leader"], c["status"]) for c in step["coordinators"]]


def test_events_list_the_coordinators_that_move_or_become_unavailable(dump, capsys):
    doc = _json(["--current", dump, *EVENTS, "--group", "polygenelubricants", "--group", "a"],
                capsys)
    assert doc["version"] == 2
    assert doc["coordinators"] == [
        {"kind": "group", "id": "polygenelubricants", "topic": "__consumer_offsets",
         "partition": 0, "leader": 1},
        {"kind": "group", "id": "a", "topic": "__consumer_offsets", "partition": 1,
         "leader": 2}]
    assert [_changes(s) for s in doc["steps"]] == [
        [("polygenelubricants", 1, 2, "moved")],
        [("polygenelubricants", 2, 3, "moved"), ("a", 2, 3, "moved")],
        [("polygenelubricants", 3, None, "unavailable"), ("a", 3, None, "unavailable")],
        [("polygenelubricants", None, 2, "moved"), ("a", None, 2, "moved")]]
    # the leaders agree with the partitions of the same step
    for step in doc["steps"]:
        leaders = {p["partition"]: p["leader"] for p in step["partitions"]}
        for c in step["coordinators"]:
            assert leaders[c["partition"]] == c["leader"]


def test_events_without_elr_leave_the_coordinator_unavailable(dump, capsys):
    doc = _json(["--current", dump, *EVENTS, "--no-elr", "--group", "polygenelubricants"],
                capsys)
    assert [_changes(s) for s in doc["steps"]][2:] == [
        [("polygenelubricants", 3, None, "unavailable")], []]


def test_events_text_names_each_move(dump, capsys):
    assert main(["outage", "--current", dump, *EVENTS, "--transactional-id", "t",
                 "--group", "polygenelubricants"]) == 2
    # no __transaction_state: refused before anything is printed
    captured = capsys.readouterr()
    assert captured.out == ""
    assert main(["outage", "--current", dump, *EVENTS, "--group", "polygenelubricants"]) == 0
    out = capsys.readouterr().out
    assert "coordinators of 1 key:" in out
    assert ("3. down 3: group 'polygenelubricants' (__consumer_offsets-0): leader 3 -> none "
            "(unavailable)") in out
    assert "4. up 2: group 'polygenelubricants' (__consumer_offsets-0): leader none -> 2" in out


def test_single_failure_and_all(capsys):
    doc = _json(["--snapshot", CLUSTER, "--down", "2", "--group", "orders", "--group",
                 "polygenelubricants", "--transactional-id", "tx-1"], capsys)
    assert doc["version"] == 1
    assert [c["leader"] for c in doc["coordinators"]] == [2, None, 3]
    assert doc["outages"][0]["coordinators"] == [
        {"kind": "group", "id": "orders", "topic": "__consumer_offsets", "partition": 31,
         "leader_before": 2, "leader": 3, "status": "moved"}]
    doc = _json(["--snapshot", CLUSTER, "--all", "--transactional-id", "tx-1"], capsys)
    moved = {tuple(o["down"]) for o in doc["outages"] if o["coordinators"]}
    assert (3,) in moved and (1,) not in moved and (2,) not in moved


def test_groups_file(tmp_path, capsys):
    ids = tmp_path / "groups.txt"
    ids.write_text("orders\n\n  polygenelubricants  \n")
    doc = _json(["--snapshot", CLUSTER, "--down", "2", "--groups-file", str(ids)], capsys)
    assert [c["id"] for c in doc["coordinators"]] == ["orders", "polygenelubricants"]


def test_refused_without_the_internal_topic(capsys):
    assert main(["outage", "--current", KIP966, *EVENTS, "--group", "orders"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "__consumer_offsets" in err and "--group orders" in err
    assert "kafka-topics.sh --describe --topic __consumer_offsets" in err


def test_refused_when_the_dump_lacks_the_partition():
    m = ClusterModel.from_partitions(
        [ClusterBroker(1)],
        [PartitionState("__consumer_offsets", p, (1,), leader=1, isr=(1,)) for p in (0, 2)])
    with pytest.raises(ConfigError, match="partition 1 of __consumer_offsets is not in"):
        outage_coordinators(m, ["a"])  # 97 % 3 = 1


def test_coordinator_rows_and_steps():
    m = ClusterModel.from_partitions(
        [ClusterBroker(1), ClusterBroker(2)],
        [PartitionState("x", 0, (1,)),
         *(PartitionState("__consumer_offsets", p, (1, 2), leader=1, isr=(1, 2))
           for p in range(3))])
    found = outage_coordinators(m, ["polygenelubricants", "a"])
    assert coordinator_rows(found, m).tolist() == [1, 2]
    c = Coordinator("g", "__consumer_offsets", 0, 3, None)
    steps = coordinator_steps([c], [[None], [2], [2]])
    assert [[(x.coordinator.leader, x.leader, x.status) for x in s] for s in steps] == [
        [], [(None, 2, "moved")], []]


def test_events_json_is_what_json_dumps_writes(dump, capsys):
    """The fast writer of the events report gives the document ``json.dumps`` would."""
    from kpart.cli.outage import _steps_text
    from kpart.cluster.broker_events import BrokerEvent, run_events, state_from_model
    from kpart.cluster.from_files import cluster_from_files
    from kpart.cluster.partition_change import ElectionRules

    model = cluster_from_files(DUMP, state_now=True)
    events = [BrokerEvent("down", 1), BrokerEvent("down", 2), BrokerEvent("up_unclean", 1)]
    steps = run_events(state_from_model(model), events, ElectionRules.for_version("4.3", True))
    want = {"format": "kpart-outage", "version": 2, "elr": True, "kafka_version": "4.3",
            "steps": [{"event": str(e), "down": sorted(st.fenced),
                       "offline_partitions": [list(k) for k in st.offline],
                       "under_min_isr": [list(k) for k in st.under_min_isr],
                       "partitions": [{"topic": t, "partition": n, "leader": p.leader,
                                       "isr": list(p.isr), "elr": list(p.elr),
                                       "last_known_elr": list(p.last_known_elr),
                                       "leader_recovery_state": p.leader_recovery_state}
                                      for (t, n), p in zip(st.keys, st.partitions,
                                                           strict=True)]}
                      for e, st in zip(events, steps, strict=True)]}
    text = _steps_text(events, steps, True, "4.3", None, None)
    assert text == json.dumps(want, separators=(",", ":")) + "\n"
