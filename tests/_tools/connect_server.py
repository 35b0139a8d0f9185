"""A Spark Connect server on loopback, started from the installed pyspark package's own scripts
and jars (``bin/spark-submit --class org.apache.spark.sql.connect.service.SparkConnectServer``
over ``jars/spark-connect_*.jar``): what ``tests/spark/test_connect.py`` and
``benchmarks/bench_connect.py`` run ``kpart report --remote`` against.

The server binds ``spark.connect.grpc.binding.address`` = 127.0.0.1 on a free port, runs
``local[N]`` with the UI off and kpart's SQL settings, and its Python workers (``mapInArrow``)
run this interpreter and import the kpart this process imports (its source directory on
``PYTHONPATH``). It is a process group of its own, killed at the end of the ``with`` block
whatever happens.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from _tools.processes import free_port, stop_group

#: Seconds the server has to open its port (a cold JVM on a loaded 2-core machine: ~15-40 s).
START_TIMEOUT = 180.0


@dataclass(frozen=True)
class ConnectServer:
    url: str  # sc://127.0.0.1:PORT
    port: int
    log: Path


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


@contextlib.contextmanager
def connect_server(workdir: Path, *, cores: int = 2,
                   start_timeout: float = START_TIMEOUT) -> Iterator[ConnectServer]:
    """Start a Spark Connect server (``local[cores]``) logging to ``workdir``; yield it once
    its port answers; stop it (its whole process group) on leaving."""
    import pyspark

    import kpart
    from kpart.spark.session import DEFAULT_SHUFFLE_PARTITIONS, quiet_log4j_path

    home = Path(pyspark.__file__).parent
    jars = sorted((home / "jars").glob("spark-connect_*.jar"))
    if not jars:
        raise RuntimeError(f"no spark-connect jar in {home / 'jars'}")
    port = free_port()
    log = workdir / "connect-server.log"
    env = {**os.environ, "SPARK_HOME": str(home), "SPARK_LOCAL_IP": "127.0.0.1",
           "PYSPARK_PYTHON": sys.executable, "SPARK_LOG_DIR": str(workdir),
           # the server's Python workers import the kpart this process imports
           "PYTHONPATH": str(Path(kpart.__file__).resolve().parents[1])}
    env.pop("PYSPARK_GATEWAY_PORT", None)
    env.pop("SPARK_CONNECT_MODE_ENABLED", None)
    settings = {
        "spark.connect.grpc.binding.address": "127.0.0.1",
        "spark.connect.grpc.binding.port": str(port),
        "spark.driver.bindAddress": "127.0.0.1",
        "spark.driver.host": "127.0.0.1",
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.shuffle.partitions": str(DEFAULT_SHUFFLE_PARTITIONS),
        "spark.sql.session.timeZone": "UTC",
        "spark.pyspark.python": sys.executable,
    }
    args = [str(home / "bin" / "spark-submit"), "--master", f"local[{cores}]",
            "--name", "kpart-connect-server",
            "--class", "org.apache.spark.sql.connect.service.SparkConnectServer",
            "--driver-java-options", f"-Dlog4j2.configurationFile=file:{quiet_log4j_path()}"]
    for key, value in settings.items():
        args += ["--conf", f"{key}={value}"]
    with log.open("wb") as out:
        proc = subprocess.Popen([*args, str(jars[-1])], stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + start_timeout
        while not _answers(port):
            if proc.poll() is not None:
                raise RuntimeError("the Spark Connect server exited:\n"
                                   + log.read_text(errors="replace")[-3000:])
            if time.monotonic() > deadline:
                raise RuntimeError(f"the Spark Connect server did not open port {port} in "
                                   f"{start_timeout:g} s:\n"
                                   + log.read_text(errors="replace")[-3000:])
            time.sleep(0.5)
        yield ConnectServer(f"sc://127.0.0.1:{port}", port, log)
    finally:
        stop_group(proc)
