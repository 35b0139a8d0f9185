"""``--format parquet|arrow`` of ``kpart place``, ``kpart plan`` and ``kpart pools``: the table
read back (pyarrow) equals the JSON the same command writes, binary formats go to ``--out``
only, and the plan's outputs stay all or none."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from kpart.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
DESCRIBE = str(EXAMPLES / "topic-test4.describe.txt")
PLACE = ["place", "--brokers", "0,1,2,3,4,5", "--racks", "a,b,c,a,b,c", "--partitions", "40",
         "--replication-factor", "3", "--seed", "11", "--topic", "orders"]


def read(path: Path, fmt: str) -> pa.Table:
    if fmt == "parquet":
        assert path.read_bytes()[:4] == b"PAR1"
        return pq.read_table(path)
    assert path.read_bytes()[:6] == b"ARROW1"
    return pa.ipc.open_file(str(path)).read_all()


# -- kpart place -----------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["parquet", "arrow"])
@pytest.mark.parametrize("placer", ["adminutils", "striped"])
def test_place_table_reads_back_as_the_json(capsys, tmp_path, fmt, placer) -> None:
    assert main([*PLACE, "--placer", placer, "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    target = tmp_path / f"p.{fmt}"
    assert main([*PLACE, "--placer", placer, "--format", fmt, "-o", str(target)]) == 0
    assert capsys.readouterr() == ("", "")
    table = read(target, fmt)
    assert table.schema == pa.schema([("topic", pa.string()), ("partition", pa.int32()),
                                      ("replicas", pa.list_(pa.int32()))])
    assert table.to_pylist() == [
        {"topic": p["topic"], "partition": p["partition"], "replicas": p["replicas"]}
        for p in doc["partitions"]]


def test_place_format_follows_the_out_name_and_the_old_alias(capsys, tmp_path) -> None:
    target = tmp_path / "p.arrow"
    assert main([*PLACE, "--output", str(target)]) == 0  # hidden alias of --out
    assert read(target, "arrow").num_rows == 40
    text = tmp_path / "p.txt"
    assert main([*PLACE, "-o", str(text)]) == 0  # default stays --describe text
    assert text.read_text().startswith("Topic: orders\tPartitionCount: 40\t")


@pytest.mark.parametrize(("argv", "message"), [
    (["--format", "parquet"], "--format parquet writes a binary file: give -o/--out FILE"),
    (["--format", "yaml", "-o", "p.yaml"], "--format: unknown format 'yaml' (expected one of "
     "describe, replica-assignment, json, zk, parquet, arrow)"),
])
def test_place_format_errors(capsys, tmp_path, monkeypatch, argv, message) -> None:
    monkeypatch.chdir(tmp_path)
    assert main([*PLACE, *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"kpart: error: {message}") and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


# -- kpart plan / pools ----------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["parquet", "arrow"])
def test_plan_table_reads_back_as_the_plan_json(capsys, tmp_path, fmt) -> None:
    base = ["plan", "--current", DESCRIBE, "--add-brokers", "3,4,5", "--seed", "0",
            "--max-concurrent-moves-per-broker", "1"]
    plan_json = tmp_path / "plan.json"
    rollback = tmp_path / "rollback.json"
    assert main([*base, "-o", str(plan_json), "--rollback-out", str(rollback)]) == 0
    batches = sorted(tmp_path.glob("plan.batch-*.json"))
    assert len(batches) == 3
    target = tmp_path / f"plan.{fmt}"
    capsys.readouterr()
    assert main([*base, "-o", str(target), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    rows = read(target, fmt).to_pylist()
    assert len(rows) == summary["partitions"] == 6
    assert not list(tmp_path.glob("plan.batch-*.parquet")) and not list(
        tmp_path.glob("plan.batch-*.arrow"))  # the batch column instead of batch files
    changed = [r for r in rows if r["changed"]]
    plan_doc = json.loads(plan_json.read_text())
    assert [(r["topic"], r["partition"], r["target_replicas"]) for r in changed] == [
        (p["topic"], p["partition"], p["replicas"]) for p in plan_doc["partitions"]]
    back = json.loads(rollback.read_text())
    assert [r["current_replicas"] for r in changed] == [p["replicas"] for p in back["partitions"]]
    for n, path in enumerate(batches, start=1):
        in_batch = [(p["topic"], p["partition"]) for p in json.loads(path.read_text())["partitions"]]
        assert in_batch == [(r["topic"], r["partition"]) for r in rows if r["batch"] == n]
    assert sum(r["replica_moves"] for r in rows) == summary["replica_moves"]
    assert sum(r["leader_change"] for r in rows) == summary["leader_changes"]
    for r in rows:
        if not r["changed"]:
            assert r["current_replicas"] == r["target_replicas"] and r["batch"] is None


def test_pools_table(capsys, tmp_path) -> None:
    target = tmp_path / "pools.arrow"
    assert main(["pools", "--current", str(EXAMPLES / "pools-current.json"), "--pools",
                 str(EXAMPLES / "pools.json"), "--seed", "0", "-o", str(target)]) == 0
    rows = read(target, "arrow").to_pylist()
    assert len(rows) == 81 and sum(r["changed"] for r in rows) == 54
    assert sum(r["replica_moves"] for r in rows) == 54


def test_plan_binary_without_out_writes_nothing(capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    rollback = tmp_path / "rollback.json"
    assert main(["plan", "--current", DESCRIBE, "--add-brokers", "3", "--format", "arrow",
                 "--rollback-out", str(rollback)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("kpart: error: --format arrow writes a binary file")
    assert list(tmp_path.iterdir()) == []


def test_plan_unknown_format(capsys, tmp_path) -> None:
    assert main(["plan", "--current", DESCRIBE, "--add-brokers", "3", "--format", "table",
                 "-o", str(tmp_path / "p.json")]) == 2
    assert capsys.readouterr().err == ("kpart: error: --format: unknown format 'table' "
                                       "(expected one of json, parquet, arrow)\n")
    assert list(tmp_path.iterdir()) == []


def test_plan_table_failure_writes_no_output(capsys, tmp_path, monkeypatch) -> None:
    # the table is written with the rollback, all or none: a failing table writer leaves
    # neither (nor a temporary), and the previous files as they were
    import errno

    import pyarrow.parquet as pq_module

    def broken(table, where, **kwargs):
        where.write(b"PAR1 half a file")
        raise OSError(errno.ENOSPC, "No space left on device")

    target = tmp_path / "plan.parquet"
    rollback = tmp_path / "rollback.json"
    rollback.write_text("previous\n")
    monkeypatch.setattr(pq_module, "write_table", broken)
    assert main(["plan", "--current", DESCRIBE, "--add-brokers", "3", "-o", str(target),
                 "--rollback-out", str(rollback)]) == 2
    err = capsys.readouterr().err
    assert err == f"kpart: error: --out: cannot write {str(target)!r}: no space left on device\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rollback.json"]
    assert rollback.read_text() == "previous\n"
