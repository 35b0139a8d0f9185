"""``kpart outage`` with ordered events: the order given on the command line, --elr/--no-elr
and their default by --kafka-version, --json version 2, and that a single --down keeps its
one-failure report (version 1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from golden_vectors import load_golden
from kpart.cli import main

ROOT = Path(__file__).resolve().parents[2]
KIP966 = str(ROOT / "docs/examples/kip966.describe.txt")
EXAMPLE = ["--down", "1", "--down", "2", "--down", "3", "--up", "2"]


def _doc(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(["outage", "--current", KIP966, *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _path(doc: dict) -> list[tuple]:
    return [(s["partitions"][0]["leader"], s["partitions"][0]["isr"], s["partitions"][0]["elr"],
             s["partitions"][0]["last_known_elr"]) for s in doc["steps"]]


def test_kip966_example_from_the_command_line_with_elr(capsys):
    doc = _doc(EXAMPLE, capsys)
    assert doc["format"] == "kpart-outage" and doc["version"] == 2 and doc["elr"] is True
    assert [s["event"] for s in doc["steps"]] == ["down 1", "down 2", "down 3", "up 2"]
    assert _path(doc) == [(2, [2, 3], [], []), (3, [3], [2], []), (None, [], [2, 3], [3]),
                          (2, [2], [3], [])]
    assert doc["steps"][2]["offline_partitions"] == [["orders", 0]]
    assert doc["steps"][3]["offline_partitions"] == []
    assert doc["steps"][3]["under_min_isr"] == [["orders", 0]]
    want = load_golden("4.3/elr_events")[0]["expected"]["steps"]
    assert [s["partitions"][0]["elr"] for s in doc["steps"]] == [
        w["partitions"][0]["elr"] for w in want]


def test_kip966_example_from_the_command_line_without_elr(capsys):
    doc = _doc([*EXAMPLE, "--no-elr"], capsys)
    assert doc["elr"] is False
    assert _path(doc)[-1] == (None, [3], [], [])
    assert doc["steps"][-1]["offline_partitions"] == [["orders", 0]]


@pytest.mark.parametrize(("version", "elr"), [("4.3", True), ("4.1.1", True), ("4.0.1", False),
                                              ("3.9", False), ("2.8.2", False)])
def test_elr_defaults_from_the_kafka_version(version, elr, capsys):
    doc = _doc([*EXAMPLE, "--kafka-version", version], capsys)
    assert doc["elr"] is elr and doc["kafka_version"] == version
    assert (_path(doc)[-1][0] == 2) is elr


def test_events_follow_the_order_given_across_options(capsys):
    doc = _doc(["--down", "3", "--up", "3", "--down=1", "--up-unclean", "1"], capsys)
    assert [s["event"] for s in doc["steps"]] == ["down 3", "up 3", "down 1", "up_unclean 1"]
    doc = _doc(["--down", "1,2", "--up", "2"], capsys)  # ID,... in the order listed
    assert [s["event"] for s in doc["steps"]] == ["down 1", "down 2", "up 2"]


def test_a_single_down_keeps_the_one_failure_report(capsys):
    assert main(["outage", "--current", KIP966, "--down", "1,2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["version"] == 1 and doc["outages"][0]["down"] == [1, 2]


def test_the_text_report_shows_each_step(capsys):
    assert main(["outage", "--current", KIP966, *EXAMPLE]) == 0
    out = capsys.readouterr().out
    assert "eligible leader replicas (KIP-966) on: 4 events" in out
    assert "3. down 3: down 1,2,3; 1 offline" in out
    assert "4. up 2: down 1,3; 0 offline, 1 under min.insync.replicas" in out


def test_a_dump_s_elr_and_last_known_elr_are_the_starting_state(tmp_path, capsys):
    # Kafka 3.7+ prints Elr:/LastKnownElr:; 2 and 3 are offline: the partition waits for them
    dump = tmp_path / "mid.txt"
    dump.write_text("Topic: orders\tPartitionCount: 1\tReplicationFactor: 3\tConfigs: "
                    "min.insync.replicas=2\n\tTopic: orders\tPartition: 0\tLeader: none\t"
                    "Replicas: 1,2,3\tIsr: \tElr: 3,2\tLastKnownElr: 3\tOffline: 2,3\n")
    assert main(["outage", "--current", str(dump), "--brokers", "1,2,3", "--down", "1",
                 "--up", "3", "--json"]) == 0
    steps = json.loads(capsys.readouterr().out)["steps"]
    first, last = steps[0]["partitions"][0], steps[1]["partitions"][0]
    assert (first["leader"], first["isr"], first["elr"], first["last_known_elr"]) == (
        None, [], [3, 2], [3])
    assert (last["leader"], last["isr"], last["elr"], last["last_known_elr"]) == (3, [3], [2], [])
