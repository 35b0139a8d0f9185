"""``kpart outage``: JSON field names and values, --all ranking, --plan, --out, and bad input
(one line, exit code 2, nothing written)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kpart.cli import main

ROOT = Path(__file__).resolve().parents[2]
CLUSTER = str(ROOT / "docs/examples/outage-cluster.json")
DESCRIBE = str(ROOT / "docs/examples/topic-test4.describe.txt")


def _json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(["outage", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_fields_and_values(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(["--snapshot", CLUSTER, "--down", "4"], capsys)
    assert doc["format"] == "kpart-outage" and doc["version"] == 1 and doc["ranked_by"] is None
    (one,) = doc["outages"]
    assert {"down", "offline_partitions", "under_min_isr", "leaders", "brokers"} <= set(one)
    assert one["down"] == [4] and one["rack"] is None
    assert one["offline_partitions"] == [["clicks", 1]]
    assert one["under_min_isr"] == [["orders", 2]]
    assert one["leaders"] == {"orders": {"3": 5}}
    assert [b["broker"] for b in one["brokers"]] == [1, 2, 3, 5, 6]
    b5 = one["brokers"][3]
    assert {"broker", "leaders", "bytes_in_per_s"} <= set(b5)
    assert b5["leaders"] == 1 and b5["bytes_in_per_s"] == 4e6
    assert one["max_bytes_in_per_s"] == 5e6 and one["max_leaders"] == 2


def test_rack_and_union(capsys: pytest.CaptureFixture[str]) -> None:
    one = _json(["--snapshot", CLUSTER, "--down-rack", "us-east-1a"], capsys)["outages"][0]
    assert one["down"] == [3, 6] and one["rack"] == "us-east-1a"
    both = _json(["--snapshot", CLUSTER, "--down-rack", "us-east-1a", "--down", "1"],
                 capsys)["outages"][0]
    assert both["down"] == [1, 3, 6] and both["rack"] is None


def test_all_is_ranked_and_complete(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(["--snapshot", CLUSTER, "--all"], capsys)
    assert doc["ranked_by"].startswith("max bytes_in_per_s")
    outs = doc["outages"]
    assert len(outs) == 6 + 3
    keys = [(-o["max_bytes_in_per_s"], -o["max_leaders"], o["down"]) for o in outs]
    assert keys == sorted(keys)


def test_describe_without_loads_and_min_isr(capsys: pytest.CaptureFixture[str]) -> None:
    one = _json(["--current", DESCRIBE, "--down", "1,2", "--min-insync-replicas", "2"],
                capsys)["outages"][0]
    assert one["offline_partitions"] == [] and len(one["under_min_isr"]) == 6
    assert one["brokers"] == [{"broker": 0, "rack": None, "leaders": 6, "bytes_in_per_s": None,
                               "nw_in_bytes_per_s": None, "nw_out_bytes_per_s": None,
                               "disk_bytes": None}]
    racks = _json(["--current", DESCRIBE, "--brokers", "0:a,1:b,2:b", "--down-rack", "b"],
                  capsys)["outages"][0]
    assert racks["down"] == [1, 2] and racks["rack"] == "b"


def test_plan_target(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"version": 1, "partitions": [
        {"topic": "clicks", "partition": 1, "replicas": [2, 4]}]}))
    one = _json(["--snapshot", CLUSTER, "--plan", str(plan), "--down", "4"], capsys)
    # after the plan, clicks-1 is led by 4, with 2 in sync: 2 takes over
    assert one["outages"][0]["offline_partitions"] == []
    assert one["outages"][0]["leaders"]["clicks"] == {"1": 2}


def test_out_writes_the_json_and_the_table_prints(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "o.json"
    assert main(["outage", "--snapshot", CLUSTER, "--all", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "9 failures, worst first" in printed and "rack us-east-1a" in printed
    assert len(json.loads(out.read_text())["outages"]) == 9


@pytest.mark.parametrize(("argv", "message"), [
    (["--snapshot", CLUSTER, "--down", "9"], "--down: unknown broker 9: the cluster has "
                                             "brokers 1-6"),
    (["--snapshot", CLUSTER, "--down", "x"], "--down: invalid broker id 'x'"),
    (["--snapshot", CLUSTER, "--down-rack", "zz"], "--down-rack: unknown rack 'zz'"),
    (["--current", DESCRIBE, "--down-rack", "a"], "the cluster has no racks"),
    (["--snapshot", CLUSTER], "Give --down/--down-rack (one failure) or --all"),
    (["--snapshot", CLUSTER, "--all", "--down", "1"], "Give --down/--down-rack"),
    (["--down", "1"], "Give the cluster as one of --current"),
    (["--snapshot", CLUSTER, "--current", DESCRIBE, "--down", "1"], "one of --current"),
    (["--snapshot", CLUSTER, "--brokers", "1:a", "--down", "1"], "--brokers: a --snapshot"),
    (["--snapshot", DESCRIBE, "--down", "1"], "--snapshot: not JSON"),
    (["--snapshot", "/no/such.json", "--down", "1"], "--snapshot: cannot read"),
    (["--current", CLUSTER, "--down", "1"], "--current: no partition lines"),
])
def test_bad_input_is_one_line_exit_2(argv: list[str], message: str, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "o.json"
    assert main(["outage", *argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("kpart: error: ") and message in err, err
    assert not out.exists()


def test_plan_with_an_unknown_partition(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text('{"version":1,"partitions":[{"topic":"nope","partition":0,"replicas":[1]}]}')
    assert main(["outage", "--snapshot", CLUSTER, "--plan", str(plan), "--down", "1"]) == 2
    assert "Partition nope-0 of the plan is not in the cluster" in capsys.readouterr().err
    plan.write_text("junk")
    assert main(["outage", "--snapshot", CLUSTER, "--plan", str(plan), "--down", "1"]) == 2
    assert capsys.readouterr().err.startswith("kpart: error: --plan: Malformed reassignment")


def test_out_never_overwrites_an_input(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    copy = tmp_path / "c.json"
    copy.write_text(Path(CLUSTER).read_text())
    assert main(["outage", "--snapshot", str(copy), "--down", "1", "--out", str(copy)]) == 2
    assert capsys.readouterr().err.startswith("kpart: error:")
    assert copy.read_text() == Path(CLUSTER).read_text()
