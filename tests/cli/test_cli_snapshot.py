"""``kpart snapshot`` and ``kpart snapshot-group`` end to end: against librdkafka's mock cluster
(in this process), unreachable servers, bad --command-config files, and group what-ifs."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("confluent_kafka")

from _tools import mock_kafka as mk  # noqa: E402
from kpart.cli import main  # noqa: E402


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def bootstrap() -> Iterator[str]:
    with mk.standard_cluster() as mc:
        mk.produce_keyed(mc.bootstrap_servers, "orders", [b"k%d" % i for i in range(50)])
        yield mc.bootstrap_servers


def test_snapshot_writes_cluster_json(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                      bootstrap: str) -> None:
    out = tmp_path / "cluster.json"
    code, stdout, err = run(capsys, "snapshot", "--bootstrap-server", bootstrap, "--out", str(out))
    assert code == 0, err
    doc = json.loads(out.read_text())
    assert doc["format"] == "kpart-cluster" and doc["version"] == 1
    assert [(b["id"], b["rack"]) for b in doc["brokers"]] == [
        (b, mk.rack_of(b)) for b in range(1, 7)]
    orders = next(t for t in doc["topics"] if t["name"] == "orders")
    assert [p["replicas"] for p in orders["partitions"]] == [
        mk.mock_replicas(p, 3, 6) for p in range(6)]
    assert sum(p["messages"] for p in orders["partitions"]) == 50
    assert orders["configs"] == {"min.insync.replicas": None}
    assert doc["groups"] is None
    warnings = [line for line in err.splitlines() if line.startswith("kpart: warning:")]
    assert len(warnings) == 2  # configs (one line for every topic), groups
    assert sum("min.insync.replicas" in w for w in warnings) == 1
    assert "Traceback" not in err and stdout == ""


def test_no_groups_skips_the_group_calls(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                         bootstrap: str) -> None:
    out = tmp_path / "c.json"
    code, _, err = run(capsys, "snapshot", "--bootstrap-server", bootstrap, "--out", str(out),
                       "--no-groups")
    assert code == 0 and "consumer groups" not in err
    assert json.loads(out.read_text())["groups"] is None


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_unreachable_server_one_line_exit_2_nothing_written(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "cluster.json"
    server = f"127.0.0.1:{_closed_port()}"
    start = time.monotonic()
    code, _, err = run(capsys, "snapshot", "--bootstrap-server", server, "--out", str(out),
                       "--timeout", "1")
    assert time.monotonic() - start < 3.0
    assert code == 2 and not out.exists() and list(tmp_path.iterdir()) == []
    assert err.count("\n") == 1 and err.startswith("kpart: error: Cannot describe the cluster")
    assert server in err


@pytest.mark.parametrize(("text", "needle"), [
    ("security.protocol=PLAINTEXT\nwhat is this\n", "line 2: expected key=value"),
    ("ssl.keystore.location=/k.jks\n", "line 1: ssl.keystore.location is a Java client"),
    ("client.id=x\nbogus.key=1\n", "line 2: "),
])
def test_bad_command_config_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                     text: str, needle: str) -> None:
    cfg = tmp_path / "client.properties"
    cfg.write_text(text)
    out = tmp_path / "cluster.json"
    code, _, err = run(capsys, "snapshot", "--bootstrap-server", "127.0.0.1:1", "--out",
                       str(out), "--command-config", str(cfg))
    assert code == 2 and not out.exists()
    assert err.count("\n") == 1 and needle in err and str(cfg) in err


def test_out_never_overwrites_the_command_config(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    cfg = tmp_path / "client.properties"
    cfg.write_text("security.protocol=PLAINTEXT\n")
    code, _, err = run(capsys, "snapshot", "--bootstrap-server", "127.0.0.1:1", "--out",
                       str(cfg), "--command-config", str(cfg))
    assert code == 2 and err.count("\n") == 1 and "--command-config" in err
    assert cfg.read_text() == "security.protocol=PLAINTEXT\n"


def _cluster_with_group(path: Path) -> None:
    doc = {"format": "kpart-cluster", "version": 1,
           "brokers": [{"id": 1, "rack": "a"}, {"id": 2, "rack": "b"}],
           "topics": [{"name": "t", "partitions": [
               {"partition": p, "replicas": [1 + p % 2, 2 - p % 2]} for p in range(4)]}],
           "groups": [{"group_id": "g", "type": "classic", "state": "STABLE",
                       "assignor": "cooperative-sticky", "simple": False, "coordinator": 1,
                       "members": [
                           {"member_id": "m-a", "group_instance_id": "a", "client_id": "c",
                            "host": "/h", "rack": None, "assignment": [["t", [0, 1]]]},
                           {"member_id": "m-b", "group_instance_id": "b", "client_id": "c",
                            "host": "/h", "rack": None, "assignment": [["t", [2, 3]]]}]}]}
    path.write_text(json.dumps(doc))


def test_snapshot_group_feeds_assign(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    cluster = tmp_path / "cluster.json"
    _cluster_with_group(cluster)
    group = tmp_path / "group.json"
    code, _, err = run(capsys, "snapshot-group", str(cluster), "g", "--leave", "a", "--out",
                       str(group))
    assert code == 0, err
    spec = json.loads(group.read_text())
    assert spec == {"topics": {"t": 4}, "partition_racks": {"t": [["a", "b"], ["b", "a"],
                                                                  ["a", "b"], ["b", "a"]]},
                    "members": [{"id": "m-b", "topics": ["t"], "instance_id": "b",
                                 "owned": [["t", [2, 3]]]}]}
    code, out, err = run(capsys, "assign", str(group), "-s", "cooperative-sticky")
    assert code == 0, err
    assert "m-b" in out


@pytest.mark.parametrize(("args", "needle"), [
    (["nope"], "no group 'nope' (groups: g)"),
    (["g", "--leave", "zed"], "has no member 'zed' (members: a, b)"),
])
def test_snapshot_group_bad_names(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                  args: list[str], needle: str) -> None:
    cluster = tmp_path / "cluster.json"
    _cluster_with_group(cluster)
    out = tmp_path / "group.json"
    code, _, err = run(capsys, "snapshot-group", str(cluster), *args, "--out", str(out))
    assert code == 2 and needle in err and not out.exists()


def test_snapshot_group_without_groups(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    cluster = tmp_path / "cluster.json"
    cluster.write_text(json.dumps({"format": "kpart-cluster", "version": 1, "brokers": [],
                                   "topics": [], "groups": None}))
    code, _, err = run(capsys, "snapshot-group", str(cluster), "g")
    assert code == 2 and "has no consumer groups" in err


def test_bad_group_field_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    cluster = tmp_path / "cluster.json"
    _cluster_with_group(cluster)
    doc = json.loads(cluster.read_text())
    doc["groups"][0]["members"][1]["assignment"] = [["t", [-1]]]
    cluster.write_text(json.dumps(doc))
    code, _, err = run(capsys, "snapshot-group", str(cluster), "g")
    assert code == 2 and "cluster.groups[0].members[1].assignment[0][1][0]" in err
