"""A real Spark standalone cluster on loopback: ``kpart report --master spark://...`` runs on a
separate executor JVM (and its Python workers), survives losing it, and gives the same summary
as ``local``.

The master and one worker are started from the pyspark package (``bin/spark-class``), the
report runs in a subprocess (this process already has a local SparkContext), and both cluster
processes are stopped in a ``finally`` whatever happens.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from _tools.processes import free_port, stop_group
from kpart.spark.datasets import flights_table
from kpart.spark.inputs import resolve_input
from kpart.spark.pipeline import run_report
from kpart.topology import DEFAULT_TOPOLOGY_TEXT, load_topology

pytestmark = [pytest.mark.spark, pytest.mark.cluster]

START_TIMEOUT = 90
REPORT_TIMEOUT = 180


def _master_state(ui_port: int) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{ui_port}/json/", timeout=2) as r:
        return json.load(r)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    import pyspark

    home = Path(pyspark.__file__).parent
    logs = tmp_path_factory.mktemp("spark-cluster")
    env = {**os.environ, "SPARK_HOME": str(home), "SPARK_LOCAL_IP": "127.0.0.1",
           "PYSPARK_PYTHON": sys.executable, "SPARK_LOG_DIR": str(logs),
           "SPARK_WORKER_DIR": str(logs / "work")}
    port, ui, worker_ui = free_port(), free_port(), free_port()
    spark_class = str(home / "bin" / "spark-class")
    procs: list[subprocess.Popen] = []
    try:
        for name, args in (
            ("master", ["org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                        "--port", str(port), "--webui-port", str(ui)]),
            ("worker", ["org.apache.spark.deploy.worker.Worker", f"spark://127.0.0.1:{port}",
                        "--host", "127.0.0.1", "--cores", "1", "--memory", "1g",
                        "--webui-port", str(worker_ui), "--work-dir", str(logs / "work")]),
        ):
            log = (logs / f"{name}.log").open("wb")
            procs.append(subprocess.Popen([spark_class, *args], stdout=log,
                                          stderr=subprocess.STDOUT, env=env,
                                          start_new_session=True))
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            for p in procs:
                assert p.poll() is None, (logs / "master.log").read_text()[-2000:]
            with contextlib.suppress(OSError, ValueError):
                if _master_state(ui).get("aliveworkers", 0) >= 1:
                    break
            if time.monotonic() > deadline:
                pytest.fail("the standalone worker did not register with the master in "
                            f"{START_TIMEOUT} s:\n" + (logs / "worker.log").read_text()[-2000:])
            time.sleep(0.5)
        yield {"url": f"spark://127.0.0.1:{port}", "ui": ui, "logs": logs}
    finally:
        for p in reversed(procs):
            stop_group(p, grace=15)


def _untimed(summary: dict) -> dict:
    return {**summary, "analysed": {**summary["analysed"], "time": None}}


def _executor_pids(app_marker: str = "CoarseGrainedExecutorBackend") -> list[int]:
    """Executor JVMs running on this machine (their command line names the backend class)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if app_marker.encode() in cmdline:
            pids.append(int(entry.name))
    return pids


def test_cluster_report_survives_a_killed_executor(cluster, spark, tmp_path):
    """``kpart report --master spark://...`` runs as a standalone application with executors
    on the worker. Kill the executor JVM while the report runs: the master launches another
    executor, Spark re-runs the lost tasks (and the shuffle output lost with the executor),
    and the summary is the same as the local one.

    Another client's murmur2 runs the numba kernel through mapInArrow: Python workers of the
    executor must import kpart and compile the kernel there, not on the driver."""
    # Many small files: stage 0 has one task per file on the worker's single core, so the job
    # is still reading when the executor is killed.
    data = tmp_path / "flights_parts"
    data.mkdir()
    table = flights_table()
    for i in range(48):
        pq.write_table(table.slice(i * 7_016, 7_016), data / f"part-{i:03d}.parquet")
    topology = tmp_path / "topology.toml"
    topology.write_text(DEFAULT_TOPOLOGY_TEXT.replace('partitioner = "java:default"',
                                                      'partitioner = "librdkafka:murmur2"'))
    out = tmp_path / "cluster-report"
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "SPARK_LOCAL_IP": "127.0.0.1"}
    before = set(_executor_pids())
    report = subprocess.Popen(
        [sys.executable, "-m", "kpart.cli", "report", str(data), "--topology", str(topology),
         "--master", cluster["url"], "--out", str(out), "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    killed: list[int] = []
    try:
        deadline = time.monotonic() + REPORT_TIMEOUT
        first_seen = None
        while not killed and time.monotonic() < deadline and report.poll() is None:
            executors = [p for p in _executor_pids() if p not in before]
            if executors and first_seen is None:
                first_seen = time.monotonic()
            # the executor registers when the session starts; give the driver time to submit
            # the job's first stage, then kill the executor JVM outright
            if executors and time.monotonic() - first_seen > 4:
                for pid in executors:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                        killed.append(pid)
            time.sleep(0.1)
        assert killed, "no executor JVM was seen while the report ran"
        assert report.poll() is None, "the report ended before the executor was killed"
        stdout, stderr = report.communicate(timeout=2 * REPORT_TIMEOUT)  # tasks run twice
    finally:
        if report.poll() is None:
            report.kill()
            report.wait()
    assert report.returncode == 0, stderr[-3000:]
    on_cluster = json.loads((out / "summary.json").read_text())
    local = run_report(spark, load_topology(topology), resolve_input(data, None, "tailnum"))
    assert _untimed(on_cluster) == _untimed(local)  # all but the time of the run
    assert on_cluster["records"] == 48 * 7_016
    apps = _master_state(cluster["ui"])
    ran = [a for a in apps.get("completedapps", []) + apps.get("activeapps", [])
           if a.get("name") == "kpart-report"]
    assert ran, apps  # the job was a standalone application with executors on the worker
    # the master launched a replacement executor for the application after the kill
    app_dirs = [d for d in (cluster["logs"] / "work").glob("app-*")
                if any((d / e / "stderr").exists() for e in ("0", "1"))]
    assert any(len([e for e in d.iterdir() if e.is_dir()]) >= 2 for d in app_dirs), [
        sorted(e.name for e in d.iterdir()) for d in app_dirs]
