"""The cluster report's files (issue 14 §5): cluster.json (the cluster model of the measured
loads, read back by cluster_from_json and planned from by kpart plan --snapshot),
windows.parquet and the tables of a cluster summary, written atomically by write_report."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from _tools.cluster_standin import cluster, group, measure, topic, windows
from kpart.analysis.cluster_model import placed_cluster
from kpart.analysis.cluster_summary import (
    build_cluster_summary,
    cluster_windows_table,
    report_cluster_model,
)
from kpart.cluster.capacity import capacities_for, parse_capacity_json
from kpart.cluster.cluster_json import cluster_from_json, cluster_to_json
from kpart.cluster.load import broker_load
from kpart.cluster.model import LOADS
from kpart.cluster.optimizer import plan_cluster
from kpart.cluster.plan_summary import plan_summary
from kpart.report.output import CLUSTER_REPORT_FILES, write_report

CAPACITY = ('{"brokerCapacities": [{"brokerId": "-1", "capacity": {"DISK": "100", "CPU": "100",'
            ' "NW_IN": "50", "NW_OUT": "50"}}]}')


@pytest.fixture
def report():  # noqa: ANN201
    c = cluster([topic("clicks", 6), topic("stock", 3, rf=2, seed=3)],
                [group("both", 3, "cooperative-sticky"), group("one", 2)],
                {"one": ("clicks",)})
    rng = np.random.default_rng(5)
    ms = [measure("clicks", windows(rng.integers(0, 50, (6, 30)),
                                    null_records=rng.integers(0, 5, 30), size=300), size=300),
          measure("stock", windows(rng.integers(0, 20, (3, 20)), start=5, size=200), size=200)]
    return c, ms


def _write(c, ms, out: Path):  # noqa: ANN001, ANN202
    placed = placed_cluster(c, ms)
    cap = capacities_for(parse_capacity_json(CAPACITY), [b.id for b in c.topology.brokers])
    summary = build_cluster_summary(c, placed, capacity=cap)
    model = report_cluster_model(c, placed, cap)
    return write_report(summary, out, windows=cluster_windows_table(c, placed),
                        cluster=model), summary, model


def test_model_loads(report) -> None:  # noqa: ANN001
    c, ms = report
    m = report_cluster_model(c, ms)
    assert [t.name for t in m.topics] == ["clicks", "stock"]
    assert m.num_partitions == 9 and m.replication_factors().tolist() == [3] * 6 + [2] * 3
    assert (m.isr == m.replicas).all()
    assert m.leader.tolist() == [r[0] for rt in c.topics for r in rt.layout.replicas]
    assert all(t.min_insync_replicas is None for t in m.topics)
    placed = placed_cluster(c, ms)
    assert m.messages.tolist() == [float(x) for t in placed.topics for x in t.records]
    assert m.size_bytes.tolist() == [float(x) for t in placed.topics for x in t.bytes]
    span = np.repeat([30 * 60.0, 20 * 60.0], [6, 3])
    assert m.bytes_in_per_s == pytest.approx(m.size_bytes / span)  # no untimed record
    assert m.messages_in_per_s is not None
    assert m.messages_in_per_s == pytest.approx(m.messages / span)
    readers = np.repeat([2.0, 1.0], [6, 3])
    assert m.bytes_out_per_s == pytest.approx(m.bytes_in_per_s * readers)
    load = broker_load(m)
    assert load.network_in.sum() == pytest.approx((m.bytes_in_per_s * m.replication_factors())
                                                  .sum())


def test_files_and_cluster_json_round_trip(report, tmp_path: Path) -> None:  # noqa: ANN001
    c, ms = report
    out, summary, model = _write(c, ms, tmp_path / "r")
    assert {p.name for p in out.iterdir()} == CLUSTER_REPORT_FILES - {"report.html"}
    doc = json.loads((out / "cluster.json").read_text(encoding="utf-8"))
    assert doc == cluster_to_json(model)
    back = cluster_from_json(doc)
    assert [b.id for b in back.brokers] == [b.id for b in model.brokers]
    assert back.brokers[0].capacity == model.brokers[0].capacity
    for name in ("topic", "partition", "replicas", "leader", "isr", *LOADS):
        np.testing.assert_allclose(getattr(back, name), getattr(model, name), rtol=1e-12)
    assert json.loads((out / "summary.json").read_text())["kind"] == "cluster"
    # a second run replaces the report: every file is kpart's
    _write(c, ms, out)


def test_plan_from_the_report(report, tmp_path: Path,  # noqa: ANN001
                              capsys: pytest.CaptureFixture[str]) -> None:
    c, ms = report
    out, _, _ = _write(c, ms, tmp_path / "r")
    loaded = cluster_from_json(json.loads((out / "cluster.json").read_text()))
    plan = plan_cluster(loaded)
    s = plan_summary(plan, capacity_threshold=0.8)
    assert len(s["brokers"]) == 6 and s["brokers"][0]["capacity"]["nw_in_bytes_per_s"] == 50 * 1024
    assert s["brokers"][0]["before"]["nw_in_bytes_per_s"] is not None
    # and the command line: kpart plan --snapshot kpart-report/cluster.json --capacity ...
    from kpart.cli import main

    cap = tmp_path / "capacity.json"
    cap.write_text(CAPACITY)
    capsys.readouterr()
    assert main(["plan", "--snapshot", str(out / "cluster.json"), "--capacity", str(cap),
                 "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["partitions"] == 9


def test_windows_parquet(report, tmp_path: Path) -> None:  # noqa: ANN001
    c, ms = report
    out, summary, _ = _write(c, ms, tmp_path / "r")
    table = pq.read_table(out / "windows.parquet")
    assert table.schema.names == ["topic", "partition", "window_start", "records", "bytes"]
    assert str(table.schema.field("window_start").type) == "timestamp[ms, tz=UTC]"
    rows = table.to_pylist()
    assert all(r["records"] > 0 or r["bytes"] > 0 for r in rows)
    for t in summary["topics"]:
        mine = [r for r in rows if r["topic"] == t["topic"]]
        assert sum(r["records"] for r in mine) == t["records"]  # every record is timed here
    first = next(r for r in rows if r["topic"] == "stock")
    assert first["window_start"].timestamp() >= 5 * 60


def test_cluster_tables(report, tmp_path: Path) -> None:  # noqa: ANN001
    c, ms = report
    out, summary, _ = _write(c, ms, tmp_path / "r")
    parts = pq.read_table(out / "partitions.parquet").to_pylist()
    assert [(p["topic"], p["partition"]) for p in parts] == (
        [("clicks", p) for p in range(6)] + [("stock", p) for p in range(3)])
    brokers = pq.read_table(out / "brokers.parquet").to_pylist()
    assert [b["nw_out_bytes_per_s"] for b in brokers] == pytest.approx(
        [b["nw_out_bytes_per_s"] for b in summary["brokers"]])
    members = pq.read_table(out / "consumers.parquet").to_pylist()
    assert len(members) == 5
    assert {p["topic"] for p in members[0]["partitions"]} <= {"clicks", "stock"}
    hot = pq.read_table(out / "hot_keys.parquet")
    assert "topic" in hot.schema.names


def test_no_windows_no_windows_table(tmp_path: Path) -> None:
    c = cluster([topic("a", 2)])
    ms = [measure("a", None, partitions=2)]
    assert cluster_windows_table(c, ms) is None
    out = write_report(build_cluster_summary(c, ms), tmp_path / "r",
                       cluster=report_cluster_model(c, ms))
    assert not (out / "windows.parquet").exists()
    back = cluster_from_json(json.loads((out / "cluster.json").read_text()))
    assert np.isnan(back.bytes_in_per_s).all() and back.size_bytes.tolist() == [50.0, 50.0]
