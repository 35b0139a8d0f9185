"""Review of ``kpart report`` on a cluster topology from the command line (issue 14): the
report's cluster.json carries its consumer groups, read back by ``kpart snapshot-group`` and
``kpart assign`` as a snapshot's; the hot-key verdict on the terminal; bad input that the
schema or the files show → one line naming the topic and field (or the option and file),
exit 2, nothing written, before Spark starts."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from _tools.cluster_datasets import TOPOLOGY, write_cluster
from kpart.cli import main

pytestmark = pytest.mark.spark


def _one_line(capsys: pytest.CaptureFixture[str], args: list[str], out: Path) -> str:
    code = main(["report", *args, "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "starting Spark" not in err, err  # refused before Spark starts
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kpart: error: "), err
    assert not out.exists()
    return lines[0]


def test_bad_parquet_and_files_are_one_line_before_spark(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_cluster(tmp_path)
    pq.write_table(pa.table({"sku": ["s1", "s2"], "ts": pa.array([1.5, 2.5]),
                             "on": [True, False],
                             "at": pa.array([0, 1], pa.timestamp("ms", tz="UTC"))}),
                   tmp_path / "stock.parquet")
    parquet = TOPOLOGY.replace('data = "stock.json"', 'data = "stock.parquet"')
    out = tmp_path / "report"

    def topology(text: str) -> str:
        path = tmp_path / f"t{len(list(tmp_path.glob('t*.toml')))}.toml"
        path.write_text(text)
        return str(path)

    stock_ts = parquet.replace('key = "sku"\ntimestamp = "ts"', 'key = "sku"\ntimestamp = "{}"')
    assert stock_ts != parquet
    line = _one_line(capsys, ["--topology", topology(stock_ts.replace("{}", "ts"))], out)
    assert line == ("kpart: error: topics[1] (stock).timestamp: column 'ts' is double, expected "
                    "a timestamp, a date, an integer (epoch milliseconds) or ISO 8601 text")
    line = _one_line(capsys, ["--topology", topology(stock_ts.replace("{}", "on"))], out)
    assert line.startswith("kpart: error: topics[1] (stock).timestamp: column 'on' is boolean")
    line = _one_line(capsys, ["--topology", topology(stock_ts.replace("{}", "when"))], out)
    assert line.startswith("kpart: error: topics[1] (stock).timestamp: column 'when' not found")
    line = _one_line(capsys, ["--topology", topology(
        stock_ts.replace("{}", "at").replace('key = "sku"', 'key = "item"'))], out)
    assert line.startswith("kpart: error: topics[1] (stock).key: column 'item' not found")
    good = topology(stock_ts.replace("{}", "at"))
    bad = tmp_path / "notes.txt"
    bad.write_text("nothing to see\n")
    line = _one_line(capsys, ["--topology", good, "--current", str(bad)], out)
    assert line.startswith(f"kpart: error: --current {str(bad)!r}: ")
    line = _one_line(capsys, ["--topology", good, "--capacity", str(bad)], out)
    assert line.startswith(f"kpart: error: --capacity {str(bad)!r}: ")


def test_cluster_json_groups_feed_snapshot_group_and_assign(
        spark: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_cluster(tmp_path)
    out = tmp_path / "report"
    assert main(["report", "--topology", str(tmp_path / "cluster.toml"), "--out", str(out),
                 "--consumer-records-per-s", "0.05"]) == 0
    terminal = capsys.readouterr().out
    assert "clicks: no partition count up to 4,000" in terminal
    assert "alone exceeds a limit; fix the key, not the count" in terminal
    summary = json.loads((out / "summary.json").read_text())
    clicks = summary["topics"][0]["partition_count"]
    assert clicks["hot_key"]["key"] == "u0" and clicks["recommended"] is None
    assert "over consumer_records_per_s = 0.05:" in clicks["reason"]
    assert summary["heatmap"]["rows_omitted"] == 0 and len(summary["heatmap"]["rows"]) == 7
    doc = json.loads((out / "cluster.json").read_text())
    groups = {g["group_id"]: g for g in doc["groups"]}
    assert groups["both"]["assignor"] == "cooperative-sticky"
    owned = sorted((t, p) for m in groups["both"]["members"] for t, ps in m["assignment"]
                   for p in ps)
    assert owned == [("clicks", p) for p in range(4)] + [("stock", p) for p in range(3)]
    assert main(["snapshot-group", str(out / "cluster.json"), "both", "--leave", "m1",
                 "--out", str(tmp_path / "group.json")]) == 0
    spec = json.loads((tmp_path / "group.json").read_text())
    assert [m["id"] for m in spec["members"]] == ["m2"]
    assert main(["assign", str(tmp_path / "group.json"), "-s", "cooperative-sticky"]) == 0
    assert "m2" in capsys.readouterr().out
