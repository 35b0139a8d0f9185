"""``kpart report`` on a cluster topology from the command line: two topics with their own
datasets and timestamps, a group reading both; the report directory (summary, windows.parquet,
cluster.json that ``kpart plan --snapshot`` reads); bad input → one line, exit 2, nothing
written."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from _tools.cluster_datasets import TOPOLOGY, write_cluster
from kpart.cli import main
from kpart.cluster import cluster_from_json
from kpart.topology import DEMO_TOPOLOGY_TEXT, demo_topology, parse_topology

pytestmark = pytest.mark.spark

@pytest.fixture()
def cluster_dir(tmp_path: Path) -> Path:
    write_cluster(tmp_path)
    return tmp_path


def _fails(capsys: pytest.CaptureFixture[str], args: list[str], *needles: str) -> str:
    code = main(["report", *args])
    err = capsys.readouterr().err
    assert code == 2, err
    lines = [line for line in err.strip().splitlines()
             if line.startswith("kpart: error:") or not line.startswith("kpart: ")]
    assert len(lines) == 1, err
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def test_show_topology_prints_the_demo_cluster(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "--show-topology"]) == 0
    out = capsys.readouterr().out
    assert out == DEMO_TOPOLOGY_TEXT and parse_topology(out) == demo_topology()


def test_two_topics_report_and_plan_from_its_cluster_json(
        spark: object, cluster_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = cluster_dir / "report"
    assert main(["report", "--topology", str(cluster_dir / "cluster.toml"), "--out", str(out),
                 "--quiet"]) == 0, capsys.readouterr().err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["kind"] == "cluster" and summary["window_s"] == 60
    topics = {t["topic"]: t for t in summary["topics"]}
    assert topics["clicks"]["records"] == 240 and topics["stock"]["records"] == 90
    assert sum(p["records"] for p in topics["clicks"]["partitions"]) == 240
    assert topics["clicks"]["null_key_records"] == 1  # the absent field; "" is the empty key
    # every record of a timed topic is in exactly one window
    windows = pq.read_table(out / "windows.parquet").to_pylist()
    per_topic = {name: sum(w["records"] for w in windows if w["topic"] == name)
                 for name in topics}
    assert per_topic == {"clicks": 240, "stock": 90}
    # replicas: every broker's replica records sum to records x RF over the topics
    assert sum(b["replica_records"] for b in summary["brokers"]) == 240 * 2 + 90 * 3
    # the group reads both topics: its members own all 7 partitions between them
    both = next(g for g in summary["groups"] if g["group"] == "both")
    owned = [(p["topic"], p["partition"]) for m in both["members"] for p in m["partitions"]]
    assert sorted(owned) == sorted([("clicks", p) for p in range(4)]
                                   + [("stock", p) for p in range(3)])
    model = cluster_from_json(json.loads((out / "cluster.json").read_text()))
    assert [t.name for t in model.topics] == ["clicks", "stock"]
    assert int(model.messages.sum()) == 330
    assert (out / "report.html").read_text().count("<html") == 1
    plan = cluster_dir / "plan.json"
    assert main(["plan", "--snapshot", str(out / "cluster.json"), "--out", str(plan)]) == 0, \
        capsys.readouterr().err
    assert json.loads(plan.read_text())["version"] == 1
    # the topics now exist: a second report keeps their replicas and leaders from the snapshot
    again = cluster_dir / "again"
    other = (cluster_dir / "cluster.toml").read_text().replace("placement_seed = 11",
                                                               "placement_seed = 99")
    (cluster_dir / "other.toml").write_text(other)
    assert main(["report", "--topology", str(cluster_dir / "other.toml"), "--snapshot",
                 str(out / "cluster.json"), "--out", str(again), "--quiet"]) == 0, \
        capsys.readouterr().err
    replicas = [[p["replicas"] for p in t["partitions"]] for t in summary["topics"]]
    kept = json.loads((again / "summary.json").read_text())["topics"]
    assert [[p["replicas"] for p in t["partitions"]] for t in kept] == replicas
    assert replicas[0][0] == [1, 2]  # seed 99 alone would place clicks-0 on [2, 3]


def test_the_report_reruns_over_its_own_directory(
        spark: object, cluster_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = cluster_dir / "report"
    args = ["report", "--topology", str(cluster_dir / "cluster.toml"), "--out", str(out),
            "--quiet", "--window", "2m"]
    assert main(args) == 0 and main(args) == 0, capsys.readouterr().err
    assert json.loads((out / "summary.json").read_text())["window_s"] == 120


def _topology(cluster_dir: Path, text: str) -> str:
    path = cluster_dir / f"bad-{len(list(cluster_dir.glob('bad-*.toml')))}.toml"
    path.write_text(text)
    return str(path)


def test_bad_cluster_inputs_are_one_line_before_spark(
        cluster_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = cluster_dir / "report"
    good = str(cluster_dir / "cluster.toml")
    cases = [
        (_topology(cluster_dir, TOPOLOGY.replace('name = "stock"', 'name = "clicks"')),
         "topics[1].name", "'clicks'"),
        (_topology(cluster_dir, TOPOLOGY.replace('topics = ["stock"]', 'topics = ["orders"]')),
         "groups[1].topics[0]", "'orders'"),
        (_topology(cluster_dir, TOPOLOGY.replace('key = "sku"', 'key = "item"')),
         "stock", "'item'"),
        (_topology(cluster_dir, TOPOLOGY.replace('timestamp = "ts"\npartitions = 4',
                                                 'timestamp = "when"\npartitions = 4')),
         "clicks", "timestamp", "'when'"),
        (_topology(cluster_dir, TOPOLOGY.replace('timestamp = "ts"\npartitions = 4',
                                                 'timestamp = "page"\npartitions = 4')),
         "clicks", "timestamp", "'page'"),
        (_topology(cluster_dir, TOPOLOGY.replace('window = "1m"', 'window = "0m"')),
         "window", "'0m'"),
    ]
    for topology, *needles in cases:
        _fails(capsys, ["--topology", topology, "--out", str(out)], *needles)
    _fails(capsys, ["--topology", good, "--window", "0s", "--out", str(out)], "--window")
    _fails(capsys, ["--topology", good, "--partitions", "6", "--out", str(out)],
           "--partitions", "single-topic")
    _fails(capsys, ["--topology", good, "--whatif", "6", "--out", str(out)], "--whatif")
    _fails(capsys, [str(cluster_dir / "clicks.csv"), "--topology", good, "--out", str(out)],
           "2 topics")
    _fails(capsys, [str(cluster_dir / "clicks.csv"), "--key", "user", "--window", "1m",
                    "--out", str(out)], "--window", "cluster")
    _fails(capsys, ["--topology", good, "--max-partition-bytes-per-s", "0", "--out", str(out)],
           "--max-partition-bytes-per-s")
    _fails(capsys, ["--topology", good, "--capacity", str(cluster_dir / "none.json"),
                    "--out", str(out)], "--capacity")
    describe = cluster_dir / "describe.txt"
    describe.write_text("Topic: clicks\tPartitionCount: 2\tReplicationFactor: 2\tConfigs:\n"
                        "\tTopic: clicks\tPartition: 0\tLeader: 1\tReplicas: 1,2\tIsr: 1,2\n"
                        "\tTopic: clicks\tPartition: 1\tLeader: 2\tReplicas: 2,3\tIsr: 2,3\n")
    _fails(capsys, ["--topology", good, "--current", str(describe), "--out", str(out)],
           "clicks", "partitions", "existing")
    assert not out.exists()


def test_a_window_longer_than_the_data_is_refused(
        spark: object, cluster_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = cluster_dir / "report"
    _fails(capsys, ["--topology", str(cluster_dir / "cluster.toml"), "--window", "1d",
                    "--out", str(out)], "--window")
    assert not out.exists()
