"""`kpart place`: both placers, all formats, bad input → one stderr line, exit 2, no output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kpart import Broker, JavaRandom, StripedReplicaPlacer, assign_replicas_to_brokers
from kpart.cli import main
from kpart.placement.formats import parse_describe
from kpart.placement.manual import parse_replica_assignment, read_zk_topic_node

BASE = ["place", "--brokers", "0,1,2", "--partitions", "6", "--replication-factor", "3"]


def test_place_describe_topic_test4(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*BASE, "--start-index", "2", "--topic", "topic-test4"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == ("Topic: topic-test4\tPartitionCount: 6\tReplicationFactor: 3"
                                   "\tConfigs: ")
    assert parse_describe(out)["topic-test4"] == {
        0: (2, 0, 1), 1: (0, 1, 2), 2: (1, 2, 0), 3: (2, 1, 0), 4: (0, 2, 1), 5: (1, 0, 2)}


def test_place_rack_aware_replica_assignment(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["place", "--brokers", "0,1,2,3,4,5", "--racks", "rack1,rack3,rack3,rack2,rack2,rack1",
            "--partitions", "7", "--replication-factor", "3", "--start-index", "0",
            "--format", "replica-assignment"]
    assert main(args) == 0
    got = parse_replica_assignment(capsys.readouterr().out.strip())
    assert got[0] == (0, 3, 1) and got[6] == (0, 4, 2)


def test_place_disable_rack_aware(capsys: pytest.CaptureFixture[str]) -> None:
    args = [*BASE, "--racks", "a,,b", "--start-index", "1", "--format", "zk"]
    assert main(args) == 2
    assert "Not all brokers have rack information" in capsys.readouterr().err
    assert main([*args, "--disable-rack-aware"]) == 0
    node = read_zk_topic_node(capsys.readouterr().out)
    assert node.partitions == assign_replicas_to_brokers([0, 1, 2], 6, 3, fixed_start_index=1)


def test_place_seeded_adminutils_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*BASE, "--seed", "42", "--format", "json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert main([*BASE, "--seed", "42", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == first
    got = {r["partition"]: tuple(r["replicas"]) for r in first["partitions"]}
    assert got == assign_replicas_to_brokers([0, 1, 2], 6, 3, seed=42)


def test_place_striped_with_fenced(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["place", "--brokers", "0,1,2,3", "--racks", "a,a,b,b", "--fenced", "1",
            "--partitions", "5", "--replication-factor", "2", "--placer", "striped",
            "--seed", "7", "--format", "replica-assignment"]
    assert main(args) == 0
    got = parse_replica_assignment(capsys.readouterr().out.strip())
    brokers = [Broker(0, "a"), Broker(1, "a", True), Broker(2, "b"), Broker(3, "b")]
    expected = StripedReplicaPlacer(JavaRandom(7)).place(
        brokers=brokers, start_partition=0, num_partitions=5, replication_factor=2)
    assert list(got.values()) == expected
    assert all(r[0] != 1 for r in expected)


def test_place_output_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "a.json"
    assert main([*BASE, "--start-index", "0", "--format", "zk", "-o", str(target)]) == 0
    assert capsys.readouterr().out == ""
    assert read_zk_topic_node(target.read_text()).partitions[0] == (0, 1, 2)
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--brokers", "0,x,2"], "'x'"),
        (["--brokers", "0,1,1"], "Duplicate broker id 1"),
        (["--racks", "a,b"], "--racks 'a,b'"),
        (["--format", "yaml"], "'yaml'"),
        (["--placer", "random"], "'random'"),
        (["--fenced", "9", "--placer", "striped"], "broker 9"),
        (["--fenced", "1"], "--fenced '1'"),
        (["--start-index", "1", "--placer", "striped"], "--start-index 1"),
        (["--start-index", "-1"], "--start-index -1"),
        (["--replication-factor", "4"], "Replication factor: 4 larger than available brokers: 3"),
        (["--partitions", "0"], "cannot place 0 partition(s)"),
        (["--placer", "striped", "--replication-factor", "5"],
         "The target replication factor of 5 cannot be reached"),
    ],
)
def test_place_bad_input(extra: list[str], needle: str, tmp_path: Path,
                         capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "out.txt"
    args = [*BASE, "-o", str(target)]
    for i in range(0, len(extra), 2):  # later options override earlier ones
        if extra[i] in args:
            j = args.index(extra[i])
            del args[j:j + 2]
    assert main([*args, *extra]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1
    assert needle in captured.err
    assert list(tmp_path.iterdir()) == []
