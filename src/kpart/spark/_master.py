"""Spark master URLs: their form checked before the JVM starts, a standalone master's port
reached within a timeout, and every session-start failure turned into one ``ConfigError`` line.

Forms Spark 4 accepts (``SparkContext.createTaskScheduler`` and its cluster managers):
``local``, ``local[N]``, ``local[*]``, ``local[N,F]``, ``local[*,F]`` (N threads ≥ 1, F task
failures ≥ 1), ``local-cluster[N,C,M]``, ``spark://HOST:PORT[,HOST:PORT...]`` (standalone, with
standby masters), ``yarn`` and ``k8s://[https://]HOST[:PORT]``. Mesos support was removed in
Spark 4; ``sc://`` is Spark Connect, a server rather than a master: ``--remote`` takes it
(:mod:`kpart.spark._remote`). No JVM is involved in checking a URL (pure string work, no pyspark import).

>>> check_master("local[2]"), check_master("spark://10.0.0.1:7077,10.0.0.2:7077")
((), (('10.0.0.1', 7077), ('10.0.0.2', 7077)))
>>> check_master("local[0]")
Traceback (most recent call last):
kpart.errors.ConfigError: Spark master 'local[0]': Spark needs at least 1 thread
"""

from __future__ import annotations

import os
import re
import socket
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from kpart.errors import ConfigError

__all__ = [
    "DEFAULT_MASTER_TIMEOUT",
    "check_master",
    "check_reachable",
    "is_local_master",
    "session_start_error",
    "start_within",
]

#: Seconds kpart waits for a Spark master: the TCP connection to a standalone master, then
#: the SparkContext's start from the driver's first contact with the master. Measured on a
#: loaded 2-core machine (load average ~12): a live standalone master registered the
#: application 1 s after the first contact, but the driver's own start-up after that took
#: 20 s more (which kpart cannot tell apart from waiting), so 15-20 s failed a live cluster.
#: Unreachable, refused and unresolvable masters fail at once, whatever the timeout.
DEFAULT_MASTER_TIMEOUT = 60.0

_EXPECTED = ("expected local, local[N], local[*], local[N,F], spark://HOST:PORT[,HOST:PORT], "
             "yarn or k8s://HOST:PORT")
_LOCAL = re.compile(r"local(?:\[(\d+|\*)(?:,(\d+))?\])?")
_LOCAL_CLUSTER = re.compile(r"local-cluster\[(\d+),(\d+),(\d+)\]")
_HOST = r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)"
_HOST_PORT = re.compile(_HOST + r":(\d+)")
_K8S = re.compile(r"k8s://(?:https?://)?" + _HOST + r"(?::(\d+))?/?")

T = TypeVar("T")


def _fail(master: str, why: str) -> ConfigError:
    return ConfigError(f"Spark master {master!r}: {why}")


def is_local_master(master: str) -> bool:
    """True for the in-process masters (``local...``, ``local-cluster[...]``): no network."""
    return master == "local" or master.startswith(("local[", "local-cluster["))


def _port(master: str, text: str) -> int:
    port = int(text)
    if not 0 < port < 65536:
        raise _fail(master, f"port {text} is not in 1..65535")
    return port


def check_master(master: str) -> tuple[tuple[str, int], ...]:
    """Check the form of a Spark master URL; return the ``(host, port)`` endpoints to reach
    before the JVM starts (a standalone master's list, the Kubernetes API server's address;
    ``()`` for local masters and ``yarn``, whose address lives in Hadoop's configuration).

    The forms are tried in the order of Spark's ``SparkContext.createTaskScheduler``: local,
    local-cluster, standalone, then the external cluster managers (YARN, Kubernetes).

    Raises ConfigError naming the URL: malformed, zero threads, Mesos (removed in Spark 4),
    Spark Connect (``sc://``), ``yarn`` without ``HADOOP_CONF_DIR``/``YARN_CONF_DIR``.
    """
    if not isinstance(master, str) or not master:
        raise ConfigError(f"Spark master {master!r}: {_EXPECTED}")
    if master != master.strip() or any(c.isspace() for c in master):
        raise _fail(master, f"a master URL has no spaces; {_EXPECTED}")
    if m := _LOCAL.fullmatch(master):
        return _local(master, m)
    if m := _LOCAL_CLUSTER.fullmatch(master):
        return _local_cluster(master, m)
    if master.startswith("spark://"):
        return _standalone(master)
    if master == "yarn":
        return _yarn(master)
    if master.startswith("k8s://"):
        return _kubernetes(master)
    if master.startswith("mesos://"):
        raise _fail(master, "Mesos support was removed in Spark 4")
    if master.startswith("sc://"):
        raise _fail(master, "sc:// is a Spark Connect server, not a master: give it as "
                    "--remote (kpart report --remote sc://HOST:PORT)")
    raise _fail(master, _EXPECTED)


def _local(master: str, m: re.Match[str]) -> tuple[()]:
    """``local``, ``local[N]``, ``local[*]``, ``local[N,F]``, ``local[*,F]``: in-process."""
    threads, failures = m.groups()
    if threads is not None and threads != "*" and int(threads) < 1:
        raise _fail(master, "Spark needs at least 1 thread")
    if failures is not None and int(failures) < 1:
        raise _fail(master, "the task failure count F of local[N,F] must be at least 1")
    return ()


def _local_cluster(master: str, m: re.Match[str]) -> tuple[()]:
    """``local-cluster[N,C,M]``: N workers of C cores and M MiB, started by this process."""
    if min(int(x) for x in m.groups()) < 1:
        raise _fail(master, "local-cluster[N,C,M] needs N workers, C cores, M MiB >= 1")
    return ()


def _standalone(master: str) -> tuple[tuple[str, int], ...]:
    """``spark://HOST:PORT[,HOST:PORT...]``: a standalone master and its standbys."""
    endpoints = []
    for part in master[len("spark://"):].split(","):
        hp = _HOST_PORT.fullmatch(part)
        if hp is None:
            raise _fail(master, f"expected spark://HOST:PORT[,HOST:PORT], got {part!r}")
        endpoints.append((hp.group(1).strip("[]"), _port(master, hp.group(2))))
    return tuple(endpoints)


def _yarn(master: str) -> tuple[()]:
    """``yarn``: the ResourceManager's address is in Hadoop's configuration directory."""
    if not (os.environ.get("HADOOP_CONF_DIR") or os.environ.get("YARN_CONF_DIR")):
        raise _fail(master, "Spark on YARN needs HADOOP_CONF_DIR or YARN_CONF_DIR set")
    return ()


def _kubernetes(master: str) -> tuple[tuple[str, int]]:
    """``k8s://[https://]HOST[:PORT]``: the Kubernetes API server (port 443 by default)."""
    k = _K8S.fullmatch(master)
    if k is None:
        raise _fail(master, "expected k8s://[https://]HOST[:PORT]")
    return ((k.group(1).strip("[]"), _port(master, k.group(2) or "443")),)


def check_reachable(master: str, endpoints: tuple[tuple[str, int], ...], timeout: float) -> None:
    """Open (and close) a TCP connection to one of ``endpoints`` within ``timeout`` seconds in
    all; ConfigError naming the master and the last failure when none answers."""
    if not endpoints:
        return
    deadline = time.monotonic() + timeout
    failures = []
    for host, port in endpoints:
        left = deadline - time.monotonic()
        if left <= 0:
            failures.append(f"{host}:{port}: no answer within {timeout:g} s")
            break
        try:
            with socket.create_connection((host, port), timeout=left):
                return
        except socket.gaierror as e:
            failures.append(f"cannot resolve host {host!r} ({e.strerror})")
        except TimeoutError:
            failures.append(f"{host}:{port}: no answer within {timeout:g} s")
        except OSError as e:
            failures.append(f"cannot connect to {host}:{port} ({e.strerror or e})")
    if "within" in failures[-1]:  # the timeout was too short, or the host is far
        raise ConfigError.about("master_timeout", "Spark master {master!r}: {why} (see {param})",
                                master=master, why="; ".join(failures))
    raise _fail(master, "; ".join(failures))


def session_start_error(master: str, error: BaseException) -> ConfigError:
    """One-line ConfigError for an exception raised while Spark starts: the Java exception's
    own line of a Py4J error (``org.apache.spark.SparkException: ...``), else the first line."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    java = [line[1:].strip() for line in lines if line.startswith(": ")]
    detail = (java or lines or [type(error).__name__])[0]
    if "JAVA_GATEWAY_EXITED" in detail:
        detail += " (is Java 17+ installed, and JAVA_HOME right?)"
    if len(detail) > 300:
        detail = detail[:297] + "..."
    return _fail(master, f"Spark did not start: {detail}")


def start_within(master: str, start: Callable[[], T], timeout: float,
                 abandon: Callable[[], None], contacting: Callable[[], bool] | None = None,
                 poll: float = 0.5) -> T:
    """``start()`` (the SparkContext's creation, the JVM being up) in a daemon thread; its
    result, or ConfigError naming the master when it fails or when it has not returned
    ``timeout`` seconds after the driver began contacting the master (``abandon()`` is then
    called to stop what ``start`` left running).

    ``contacting()``, polled every ``poll`` seconds, tells when the driver began contacting
    the master; the clock starts then, so that the driver's own start-up (seconds of class
    loading, more on a loaded machine) does not count against the master. Without it the
    clock starts at once.
    """
    values: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            values.append(start())
        except BaseException as e:  # handed to the caller's thread
            errors.append(e)

    thread = threading.Thread(target=run, name="kpart-spark-start", daemon=True)
    thread.start()
    deadline = None if contacting is not None else time.monotonic() + timeout
    while thread.is_alive():
        if deadline is None and contacting is not None and contacting():
            deadline = time.monotonic() + timeout
        if deadline is not None and time.monotonic() >= deadline:
            abandon()
            thread.join(5.0)
            raise ConfigError.about(
                "master_timeout", "Spark master {master!r}: no Spark session within {timeout:g} "
                "s: the master did not accept the application (see {param})",
                master=master, timeout=timeout)
        thread.join(poll if deadline is None else min(poll, deadline - time.monotonic()))
    if errors:
        raise session_start_error(master, errors[0])
    return values[0]
