"""Issue 24, point 2, end to end: ``kpart report user.csv --key k --timestamp ts --window 1m``
without ``--brokers`` is the producer view over time (it was refused: "give them with
--brokers"), and so is a topology ``[topic]`` with ``timestamp`` and no ``[cluster]``: the
topic named after the dataset, each partition's load per window, the partition count, hot keys
and null keys; no broker, rack, replica, leader, consumer group or cluster model."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from kpart.cli import main


def _user_csv(tmp_path: Path) -> Path:
    """90 records over 3 minutes, every 9th without a key."""
    path = tmp_path / "user.csv"
    rows = [f"{'' if i % 9 == 0 else f'u{i % 5}'},{i},2024-05-01T10:{i // 30:02d}:{i % 30:02d}Z"
            for i in range(90)]
    path.write_text("k,v,ts\n" + "\n".join(rows) + "\n")
    return path


def _check(out: Path, topic: str) -> dict:
    summary = json.loads((out / "summary.json").read_text())
    assert summary["kind"] == "cluster" and summary["window_s"] == 60.0
    assert summary["brokers"] == [] and summary["racks"] == [] and summary["groups"] == []
    assert summary["cluster"] is None
    assert summary["analysed"]["brokers"] == [] and summary["analysed"]["groups"] == []
    [t] = summary["topics"]
    assert (t["topic"], t["records"], t["timestamp"]) == (topic, 90, "ts")
    assert t["null_key_records"] == 10
    assert all(p["leader"] is None and p["replicas"] == [] and p["consumers"] == {}
               for p in t["partitions"])
    assert t["partition_count"]["current"] == len(t["partitions"])
    assert {h["key"] for h in summary["hot_keys"]} == {f"u{i}" for i in range(5)}
    windows = pq.read_table(out / "windows.parquet").to_pylist()
    assert sum(w["records"] for w in windows) == 90
    assert len({w["window_start"] for w in windows}) == 3
    assert not (out / "cluster.json").exists()  # no cluster model invented
    page = (out / "report.html").read_text()
    assert "kpart report — producer view: 1 topic" in page
    assert 'id="chart-heatmap"' in page and '<section id="brokers"' not in page
    return summary


@pytest.mark.spark
def test_timestamp_without_brokers_is_the_producer_view_over_time(spark, capsys, tmp_path):
    data = _user_csv(tmp_path)
    out = tmp_path / "r"
    code = main(["report", str(data), "--key", "k", "--timestamp", "ts", "--window", "1m",
                 "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    summary = _check(out, "user")
    assert len(summary["topics"][0]["partitions"]) == 12  # the dataset's topology default
    assert "producer view" in captured.out and "0 brokers" not in captured.out
    assert "user: 10 null-key records" in captured.out

    # a topology [topic] with timestamp and no [cluster] reports the same
    topo = tmp_path / "t.toml"
    topo.write_text(f'window = "1m"\n[topic]\nname = "user"\npartitions = 12\nkey = "k"\n'
                    f'timestamp = "ts"\ndata = "{data}"\n')
    out2 = tmp_path / "r2"
    assert main(["report", "--topology", str(topo), "--out", str(out2), "--quiet"]) == 0
    summary2 = _check(out2, "user")
    t1, t2 = summary["topics"][0], summary2["topics"][0]
    def keyed(t: dict) -> list[int]:  # null keys are drawn from each run's seed
        return [p["records"] - p["null_key_records"] for p in t["partitions"]]

    assert keyed(t1) == keyed(t2) and t2["null_key_records"] == 10
