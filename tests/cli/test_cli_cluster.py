"""``kpart cluster`` through ``kpart.cli.main``: writes cluster.json (read back equal to the
loaded model), prints the per-broker summary, and on bad input prints one line, exits 2 and
writes nothing; it never replaces a file kpart did not write."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from kpart.cli import main
from kpart.cluster import cluster_from_json
from kpart.cluster.capacity import parse_capacity_json
from kpart.cluster.from_files import cluster_from_files
from kpart.cluster.rates import parse_rates_csv
from kpart.placement.spec import Broker

DESCRIBE = (
    "Topic: orders\tPartitionCount: 2\tReplicationFactor: 2\tConfigs: min.insync.replicas=2\n"
    "\tTopic: orders\tPartition: 0\tLeader: 1\tReplicas: 1,2\tIsr: 1,2\n"
    "\tTopic: orders\tPartition: 1\tLeader: 2\tReplicas: 2,3\tIsr: 2\n"
    "Topic: pay\tPartitionCount: 1\tReplicationFactor: 3\tConfigs: \n"
    "\tTopic: pay\tPartition: 0\tLeader: 3\tReplicas: 3,1,2\tIsr: 3,1,2\n"
)
SIZES = '{"orders-0": 1048576, "orders-1": 2000000, "pay-0": 5}'
CAPACITY = json.dumps({"brokerCapacities": [
    {"brokerId": "-1", "capacity": {"DISK": "1000", "CPU": "100", "NW_IN": "100",
                                    "NW_OUT": "100"}, "doc": "default"}]})
RATES = ("topic,partition,bytes_in_per_s,bytes_out_per_s,messages_in_per_s\n"
         "orders,0,1000,2000,10\norders,1,500,100,5\npay,0,0,0,0\n")


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for name, text in (("describe.txt", DESCRIBE), ("sizes.json", SIZES),
                       ("capacity.json", CAPACITY), ("rates.csv", RATES)):
        (tmp_path / name).write_text(text)
        out[name] = tmp_path / name
    return out


def _args(files: dict[str, Path], out: Path) -> list[str]:
    return ["cluster", "--current", str(files["describe.txt"]), "--sizes", str(files["sizes.json"]),
            "--capacity", str(files["capacity.json"]), "--loads", str(files["rates.csv"]),
            "--brokers", "1:a,2:b,3:c", "--out", str(out)]


def test_cluster_writes_cluster_json_equal_to_the_loaded_model(files, tmp_path, capsys) -> None:
    out = tmp_path / "cluster.json"
    assert main(_args(files, out)) == 0
    printed = capsys.readouterr().out
    assert "3 brokers, 2 topics, 3 partitions, 7 replicas" in printed
    written = cluster_from_json(json.loads(out.read_text()))
    loaded = cluster_from_files(DESCRIBE, sizes=SIZES, capacity=parse_capacity_json(CAPACITY),
                                loads=[parse_rates_csv(RATES)],
                                brokers=[Broker(1, "a"), Broker(2, "b"), Broker(3, "c")])
    assert written.brokers == loaded.brokers and written.topics == loaded.topics
    for name in ("replicas", "leader", "isr", "size_bytes", "bytes_in_per_s", "bytes_out_per_s"):
        assert np.array_equal(getattr(written, name), getattr(loaded, name), equal_nan=True)
    # a second run replaces the cluster.json kpart wrote
    assert main(_args(files, out)) == 0


def test_cluster_json_summary_uses_cruise_controls_load_model(files, tmp_path, capsys) -> None:
    out = tmp_path / "cluster.json"
    assert main([*_args(files, out), "--json"]) == 0
    rows = {r["broker"]: r for r in json.loads(capsys.readouterr().out)["brokers"]}
    assert rows[1]["disk_bytes"] == 1048576 + 5 and rows[1]["leaders"] == 1
    # broker 1 leads orders-0: bytes-out 2000 + replication 1000 x (RF 2 - 1)
    assert rows[1]["nw_out_bytes_per_s"] == 3000 and rows[2]["nw_in_bytes_per_s"] == 1000 + 500
    assert rows[1]["disk_capacity_bytes"] == 1000 * 2**20
    assert rows[1]["nw_in_capacity_bytes_per_s"] == 102400


def _fails(capsys, args: list[str], message: str) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err


@pytest.mark.parametrize(("name", "text", "message"), [
    ("sizes.json", '{"orders-0": 1, "orders-1": 1, "pay-0": 1, "gone-0": 1}',
     "--sizes: partition gone-0 is not in"),
    ("sizes.json", '{"orders-0": 1, "orders-1": 1}', "--sizes: no size for partition pay-0"),
    ("capacity.json", json.dumps({"brokerCapacities": [{"brokerId": "-1", "capacity": {"DISK": "0"}}]}),
     "capacity.DISK: invalid capacity '0'"),
    ("rates.csv", RATES.replace("500,100", "-500,100"), "line 3, column bytes_in_per_s: negative rate"),
    ("rates.csv", RATES.replace("pay,0", "pay,4"), "partition pay-4 is not in"),
    ("sizes.json", "Querying brokers\n" + json.dumps({"version": 1, "brokers": [{"broker": 2, "logDirs": [
        {"logDir": "/k", "error": "KafkaStorageException", "partitions": []}]}]}),
     "broker 2 reports error 'KafkaStorageException'"),
])
def test_bad_input_is_one_line_exit_2_nothing_written(files, tmp_path, capsys, name, text,
                                                      message) -> None:
    files[name].write_text(text)
    out = tmp_path / "cluster.json"
    _fails(capsys, _args(files, out), message)
    assert not out.exists()
    assert sorted(os.listdir(tmp_path)) == sorted(p.name for p in files.values())


def test_refuses_to_replace_a_file_kpart_did_not_write(files, tmp_path, capsys) -> None:
    out = tmp_path / "cluster.json"
    out.write_text('{"mine": true}\n')
    _fails(capsys, _args(files, out), "exists and is not a cluster.json kpart wrote")
    assert out.read_text() == '{"mine": true}\n'
    _fails(capsys, [*_args(files, tmp_path / "x.json")[:-2], "--out", str(files["rates.csv"])],
           "it is the input given as --loads #1")


def test_report_directory_as_loads(files, tmp_path, capsys) -> None:
    report = tmp_path / "report"
    report.mkdir()
    (report / "summary.json").write_text(json.dumps({
        "format": "kpart-report", "format_version": 1, "topic": "orders",
        "partitions": [{"partition": 0, "records": 10, "bytes": 100},
                       {"partition": 1, "records": 20, "bytes": 200}]}))
    out = tmp_path / "cluster.json"
    args = ["cluster", "--current", str(files["describe.txt"]), "--loads", str(report),
            "--out", str(out)]
    assert main(args) == 0
    doc = json.loads(out.read_text())
    assert [p["messages"] for p in doc["topics"][0]["partitions"]] == [10, 20]
    assert doc["topics"][1]["partitions"][0]["messages"] is None
