"""What real tools write, read as the whole cluster (issue 24, points 4(d) and 9): a partial
``--describe`` dump is refused unless ``--partial``; a ``kafka-reassign-partitions.sh
--generate`` transcript is read as ``--current`` (or refused with the hint); a reassignment in
progress is read and named, never blamed on rack awareness; ``--describe-out`` keeps each
topic's ``Configs:``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kpart.cli import main
from kpart.errors import ConfigError, KpartWarning
from kpart.placement.formats import parse_describe, parse_describe_partitions
from kpart.placement.reassign import read_current

HEADER = "Topic: {t}\tPartitionCount: {n}\tReplicationFactor: {rf}\tConfigs: {c}\n"
LINE = "\tTopic: {t}\tPartition: {p}\tLeader: {ld}\tReplicas: {r}\tIsr: {i}\n"

WHOLE = (HEADER.format(t="t", n=3, rf=2, c="min.insync.replicas=2")
         + LINE.format(t="t", p=0, ld=1, r="1,2", i="1,2")
         + LINE.format(t="t", p=1, ld=2, r="2,3", i="2,3")
         + LINE.format(t="t", p=2, ld=3, r="3,1", i="3,1"))
#: kafka-topics.sh --describe --under-replicated-partitions: partition lines, no header
UNDER_REPLICATED = LINE.format(t="t", p=1, ld=2, r="2,3", i="2")
#: a topic whose lines miss partition 2 of its PartitionCount 3
MISSING = "".join(WHOLE.splitlines(keepends=True)[:3])

TRANSCRIPT = """Current partition replica assignment
{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[1,2],"log_dirs":["any","any"]},{"topic":"t","partition":1,"replicas":[2,3],"log_dirs":["any","any"]}]}

Proposed partition reassignment configuration
{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[3,1],"log_dirs":["any","any"]},{"topic":"t","partition":1,"replicas":[1,2],"log_dirs":["any","any"]}]}
"""

#: t-1 moves from 1,2 to 3,2 (racks a, b, a): Kafka prints the union 3,2,1 meanwhile
REASSIGNING = (HEADER.format(t="t", n=2, rf=2, c="")
               + LINE.format(t="t", p=0, ld=1, r="1,2", i="1,2")
               + "\tTopic: t\tPartition: 1\tLeader: 2\tReplicas: 3,2,1\tIsr: 2,1\t"
                 "Adding Replicas: 3\tRemoving Replicas: 1\n")
RACKS = "1:a,2:b,3:a"


def _file(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def _error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("kpart: error: "), err
    return err[0]


# -- 4(d): a partial dump ----------------------------------------------------------------------
@pytest.mark.parametrize(("text", "named"), [
    (UNDER_REPLICATED, "topic 't' has partition lines but no header line"),
    (MISSING, "PartitionCount 3 but 2 partition lines (partition t-2 is missing)"),
])
def test_partial_dump_is_refused_by_the_parsers(text: str, named: str) -> None:
    with pytest.raises(ConfigError, match=named.replace("(", r"\(").replace(")", r"\)")):
        parse_describe(text)
    with pytest.raises(ConfigError, match="--partial"):
        read_current(text)


@pytest.mark.parametrize("command", [
    ["outage", "--down", "2"],
    ["plan", "--add-brokers", "4"],
    ["plan", "--add-brokers", "4", "--goals", "ReplicaDistributionGoal"],
    ["describe"],
    ["cluster"],
])
@pytest.mark.parametrize("text", [UNDER_REPLICATED, MISSING])
def test_partial_dump_is_refused_unless_partial(
    command: list[str], text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    current = _file(tmp_path, "dump.txt", text)
    argv = [command[0], "--current", current, *command[1:]]
    assert "--partial" in _error(argv, capsys)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dump.txt"]
    assert main([*argv, "--partial"]) == 0
    capsys.readouterr()


def test_partial_keeps_the_partitions_and_says_so() -> None:
    with pytest.warns(KpartWarning, match="PartitionCount 3 but 2 partition lines"):
        assert parse_describe(MISSING, partial=True) == {"t": {0: (1, 2), 1: (2, 3)}}
    assert [d.partition for d in parse_describe_partitions(UNDER_REPLICATED, partial=True)] == [1]


# -- 9: a --generate transcript as --current ---------------------------------------------------
def test_generate_transcript_is_read_as_the_current_assignment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert read_current(TRANSCRIPT) == {"t": {0: (1, 2), 1: (2, 3)}}
    current = _file(tmp_path, "generate.txt", TRANSCRIPT)
    assert main(["describe", "--current", current, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["partitions"] == 2
    assert main(["plan", "--current", current, "--add-brokers", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["partitions"] == 2
    assert main(["plan", "--current", current, "--goals", "ReplicaDistributionGoal",
                 "--json"]) == 0
    capsys.readouterr()


def test_transcript_without_the_current_block_is_refused_with_the_hint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    proposed = TRANSCRIPT[TRANSCRIPT.index("Proposed"):]
    current = _file(tmp_path, "proposed.txt", proposed)
    assert "Current partition replica assignment" in _error(
        ["plan", "--current", current, "--add-brokers", "4"], capsys)
    # a JSON line under an unknown heading: the hint names the block kpart reads
    other = _file(tmp_path, "other.txt", "some heading\n" + TRANSCRIPT.splitlines()[1] + "\n")
    assert "Current partition replica assignment" in _error(
        ["describe", "--current", other], capsys)


def test_outage_refuses_a_transcript_it_has_no_leaders_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    current = _file(tmp_path, "generate.txt", TRANSCRIPT)
    assert "transcript holds no leader or ISR" in _error(
        ["outage", "--current", current, "--down", "1"], capsys)


# -- 9: a reassignment in progress -------------------------------------------------------------
def test_reassignment_in_progress_is_read() -> None:
    (_, one) = parse_describe_partitions(REASSIGNING)
    assert one.replicas == (3, 2, 1) and one.adding == (3,) and one.removing == (1,)
    assert one.completed().replicas == (3, 2) and one.completed().leader == 2
    with pytest.warns(KpartWarning, match=r"partition t-1 is being reassigned \(Adding "
                                          r"Replicas: 3, Removing Replicas: 1\)"):
        assert read_current(REASSIGNING) == {"t": {0: (1, 2), 1: (3, 2)}}


@pytest.mark.parametrize("command", [
    ["describe", "--brokers", RACKS, "--json"],
    ["plan", "--brokers", RACKS, "--add-brokers", "4:b", "--json"],
    ["plan", "--brokers", RACKS, "--goals", "RackAwareGoal", "--json"],
    ["cluster", "--brokers", RACKS, "--json"],
    ["outage", "--brokers", RACKS, "--down", "1", "--json"],
])
def test_reassignment_in_progress_is_named_not_blamed_on_racks(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    current = _file(tmp_path, "dump.txt", REASSIGNING)
    assert main([command[0], "--current", current, *command[1:]]) == 0
    out = capsys.readouterr()
    warned = [ln for ln in out.err.splitlines() if ln.startswith("kpart: warning:")]
    assert len(warned) == 1 and "partition t-1 is being reassigned" in warned[0]
    assert "rack" not in out.err.lower()
    doc = json.loads(out.out)
    if command[0] == "describe":
        assert doc["rack_violations"] == []
    if command[0] == "plan" and "--goals" in command:
        rack = next(g for g in doc["goals"] if g["goal"] == "RackAwareGoal")
        assert rack["before"] == 0


# -- 9: --describe-out keeps the topics' Configs -----------------------------------------------
@pytest.mark.parametrize("mode", [[], ["--goals", "ReplicaDistributionGoal"]])
def test_describe_out_keeps_configs_and_outage_gives_the_same_result(
    mode: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dump = _file(tmp_path, "dump.txt", WHOLE)
    plan, view = tmp_path / "plan.json", tmp_path / "after.txt"
    assert main(["plan", "--current", dump, "--remove-brokers", "3", "--out", str(plan),
                 "--describe-out", str(view), *mode]) == 0
    capsys.readouterr()
    assert "\tConfigs: min.insync.replicas=2" in view.read_text().splitlines()[0]

    def report(*argv: str) -> dict:
        assert main(["outage", *argv, "--all", "--json"]) == 0
        return {tuple(o["down"]): (o["offline_partitions"], o["under_min_isr"])
                for o in json.loads(capsys.readouterr().out)["outages"]}

    after = report("--current", str(view))
    planned = report("--current", dump, "--plan", str(plan))  # still lists the emptied broker 3
    assert planned.pop((3,)) == ([], [])
    assert after == planned
    assert any(under for _, under in after.values())  # min.insync.replicas=2 was kept


def test_marked_for_deletion_and_confluents_empty_offline_are_read() -> None:
    text = (HEADER.format(t="t", n=2, rf=2, c="")
            + "\tTopic: t\tPartition: 0\tLeader: 1\tReplicas: 1,2\tIsr: 1,2\tMarkedForDeletion: "
              "true\tElr: N/A\tLastKnownElr: N/A\n"
            + "\tTopic: t\tPartition: 1\tLeader: 2\tReplicas: 2,1\tIsr: 2\tOffline: 1\n")
    zero, one = parse_describe_partitions(text)
    assert zero.isr == (1, 2) and zero.offline == ()
    assert one.offline == (1,) and one.isr == (2,)
