"""A bad or unreachable ``--master`` is one line, exit 2 (issue 10, point 8).

The form of the URL is checked without a JVM, a standalone master's port within
``--master-timeout`` before the JVM starts; a master that accepts connections but never takes
the application is given up after the timeout, and the process can then start another
session. Only the last test starts a JVM (in a child process: this one may already run the
shared session, which ``get_or_create_session`` would reuse).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from kpart.cli import main
from kpart.cli._flags import flag_for
from kpart.cli._spark_options import HELP_DEFAULT, parse_master_timeout
from kpart.errors import ConfigError
from kpart.spark._master import (
    DEFAULT_MASTER_TIMEOUT,
    check_master,
    check_reachable,
    session_start_error,
    start_within,
)


def _closed_port() -> int:
    with socket.socket() as s:  # bound, never listening, then closed: nobody answers there
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def silent_master() -> Iterator[int]:
    """A loopback port that accepts connections and never says a word (not a Spark master)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(64)
        yield s.getsockname()[1]


@pytest.mark.parametrize(("master", "endpoints"), [
    ("local", ()), ("local[1]", ()), ("local[*]", ()), ("local[4,2]", ()), ("local[*,3]", ()),
    ("local-cluster[2,1,1024]", ()),
    ("spark://127.0.0.1:7077", (("127.0.0.1", 7077),)),
    ("spark://m1:7077,m2.example.com:7078", (("m1", 7077), ("m2.example.com", 7078))),
    ("spark://[::1]:7077", (("::1", 7077),)),
    ("k8s://https://10.0.0.1:6443", (("10.0.0.1", 6443),)),
    ("k8s://api.example.com", (("api.example.com", 443),)),
])
def test_valid_masters(master: str, endpoints: tuple[tuple[str, int], ...]) -> None:
    assert check_master(master) == endpoints


@pytest.mark.parametrize(("master", "why"), [
    ("spark:/x", "expected local"),
    ("spark://", "expected spark://HOST:PORT"),
    ("spark://host", "expected spark://HOST:PORT"),
    ("spark://host:0", "port 0"),
    ("spark://host:70000", "port 70000"),
    ("spark://h:7077,", "expected spark://HOST:PORT"),
    ("local[0]", "at least 1 thread"),
    ("local[2,0]", "task failure count"),
    ("local[x]", "expected local"),
    ("local-cluster[0,1,1]", "local-cluster"),
    ("foo://", "expected local"),
    ("", "expected local"),
    (" local", "no spaces"),
    ("mesos://h:5050", "Mesos"),
    ("sc://localhost:15002", "Spark Connect"),
    ("k8s://", "k8s://"),
])
def test_malformed_masters_are_refused_without_a_jvm(master: str, why: str) -> None:
    with pytest.raises(ConfigError, match=why) as e:
        check_master(master)
    assert repr(master) in str(e.value) and "\n" not in str(e.value)


def test_yarn_needs_its_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HADOOP_CONF_DIR", raising=False)
    monkeypatch.delenv("YARN_CONF_DIR", raising=False)
    with pytest.raises(ConfigError, match="HADOOP_CONF_DIR"):
        check_master("yarn")
    monkeypatch.setenv("YARN_CONF_DIR", "/etc/hadoop")
    assert check_master("yarn") == ()


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "soon", "", "1e9"])
def test_bad_master_timeouts(value: str) -> None:
    with pytest.raises(ConfigError, match=f"--master-timeout: .* got {value!r}"):
        parse_master_timeout(value)


def test_the_help_shows_the_real_default() -> None:
    assert float(HELP_DEFAULT) == DEFAULT_MASTER_TIMEOUT


def test_reachability() -> None:
    port = _closed_port()
    with pytest.raises(ConfigError, match=f"cannot connect to 127.0.0.1:{port}"):
        check_reachable(f"spark://127.0.0.1:{port}", (("127.0.0.1", port),), 5.0)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(4)
        live = s.getsockname()[1]
        # a standby list: the first master is down, the second answers
        check_reachable("spark://...", (("127.0.0.1", port), ("127.0.0.1", live)), 5.0)


def test_a_java_error_becomes_its_own_line() -> None:
    text = ("An error occurred while calling None.org.apache.spark.api.java.JavaSparkContext.\n"
            ": org.apache.spark.SparkException: Could not parse Master URL: 'x'\n"
            "\tat org.apache.spark.SparkContext$.createTaskScheduler(SparkContext.scala:3300)\n")
    e = session_start_error("x", RuntimeError(text))
    assert str(e) == ("Spark master 'x': Spark did not start: org.apache.spark.SparkException: "
                      "Could not parse Master URL: 'x'")


def test_the_clock_starts_when_the_driver_contacts_the_master() -> None:
    """The driver's own start-up (however long) does not count against --master-timeout."""
    release, polls = threading.Event(), []

    def contacting() -> bool:
        polls.append(1)
        if len(polls) == 5:  # the driver finishes while still starting up
            release.set()
        return False

    def start() -> str:
        release.wait()
        return "session"

    assert start_within("spark://h:1", start, 1e-6, release.set, contacting, poll=0.01) == "session"


def test_a_master_that_never_answers_is_abandoned() -> None:
    abandoned = threading.Event()

    def start() -> str:
        abandoned.wait()  # stuck until kpart gives up and stops it
        raise ConnectionError("the JVM is gone")

    with pytest.raises(ConfigError, match=r"'spark://h:1': no Spark session within 0.01 s"):
        start_within("spark://h:1", start, 0.01, abandoned.set, lambda: True, poll=0.01)
    assert abandoned.is_set()


def test_the_library_names_master_timeout_and_the_cli_its_flag() -> None:
    with pytest.raises(ConfigError) as e:
        start_within("spark://h:1", threading.Event().wait, 0.01, lambda: None, lambda: True,
                     poll=0.01)
    assert e.value.parameter == "master_timeout"
    assert str(e.value).endswith("(see master_timeout)")
    assert e.value.naming(flag_for(e.value.parameter)).endswith("(see --master-timeout)")


def test_the_port_is_probed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI checks --master before reading any input, then starts the session with
    probe=False; a library caller's session probes the port itself. No JVM starts here."""
    from kpart.spark import session

    probes: list[str] = []
    monkeypatch.setattr(session, "check_reachable", lambda master, *_: probes.append(master))
    monkeypatch.setattr(session, "has_active_session", lambda: False)
    started = type("Session", (), {"sparkContext": type("Context", (), {
        "setLogLevel": staticmethod(lambda level: None)})()})()
    monkeypatch.setattr(session, "_start", lambda *_: started)
    assert session.get_or_create_session("spark://127.0.0.1:7077", probe=False) is started
    assert probes == []
    assert session.get_or_create_session("spark://127.0.0.1:7077") is started
    assert probes == ["spark://127.0.0.1:7077"]


def test_a_failure_during_the_start_is_one_line() -> None:
    def start() -> str:
        raise RuntimeError("An error occurred while calling X.\n: java.io.IOException: boom\n")

    with pytest.raises(ConfigError, match=r"^Spark master 'yarn': Spark did not start: "
                       r"java.io.IOException: boom$"):
        start_within("yarn", start, 60, lambda: None)


@pytest.mark.parametrize("command", [
    ["report"], ["compat", "-n", "4"], ["whatif", "-n", "4", "--to", "5"],
])
def test_cli_unreachable_master_is_one_line(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    port = _closed_port()
    assert main([*command, "--master", f"spark://127.0.0.1:{port}", "--out", "o"]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.splitlines() == [f"kpart: error: Spark master 'spark://127.0.0.1:{port}': "
                                    f"cannot connect to 127.0.0.1:{port} (Connection refused)"]
    assert list(tmp_path.iterdir()) == []


def test_cli_bad_master_timeout(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "--master-timeout", "0"]) == 2
    assert "--master-timeout" in capsys.readouterr().err


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}


def test_cli_jvm_that_cannot_start_is_one_kpart_line(tmp_path: Path) -> None:
    env = {**_env(), "JAVA_HOME": str(tmp_path / "no-java")}
    r = subprocess.run([sys.executable, "-m", "kpart.cli", "report", "--master", "local[1]",
                        "--out", "o"], capture_output=True, text=True, env=env, cwd=tmp_path,
                       timeout=600, check=False)
    assert r.returncode == 2 and r.stdout == ""
    assert "Traceback" not in r.stderr
    # progress lines ("kpart: starting Spark ...") may come first; one error line, the last
    kpart_lines = [line for line in r.stderr.splitlines() if line.startswith("kpart: error: ")]
    assert kpart_lines == [r.stderr.splitlines()[-1]]
    assert "Spark master 'local[1]': Spark did not start" in kpart_lines[0]
    assert list(tmp_path.iterdir()) == [tmp_path / "no-java"] or list(tmp_path.iterdir()) == []


@pytest.mark.spark
def test_a_silent_master_is_given_up_after_the_timeout(silent_master: int,
                                                       tmp_path: Path) -> None:
    """The JVM starts, the 'master' never accepts the application: ConfigError after the
    timeout, the JVM is stopped, and the same process can then start a local session."""
    script = textwrap.dedent(f"""
        from kpart.errors import ConfigError
        from kpart.spark.session import get_or_create_session
        try:
            get_or_create_session("spark://127.0.0.1:{silent_master}", master_timeout=2)
        except ConfigError as e:
            print("ERROR", e)
        spark = get_or_create_session("local[1]")
        print("COUNT", spark.range(3).count())
        spark.stop()
    """)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       env=_env(), cwd=tmp_path, timeout=900, check=False)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        f"ERROR Spark master 'spark://127.0.0.1:{silent_master}': no Spark session within 2 s: "
        "the master did not accept the application (see master_timeout)",
        "COUNT 3",
    ]
    assert "Traceback" not in r.stderr
