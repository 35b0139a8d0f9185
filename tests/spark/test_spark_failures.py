"""Spark failures end cleanly (issue 24, points 7 and 8): Ctrl-C, a file Spark cannot read, a JVM
out of memory or killed — each one line on stderr, a non-zero exit code, the JVM kpart started
stopped, nothing written.

The end-to-end tests run ``kpart`` as a subprocess with its own JVM, as a user would, on a
50-record dataset; each waits for kpart's step lines on stderr (not a clock) to know that Spark
runs. The text tests (:func:`describe_java_text` on Java errors as py4j gives them) need no JVM.
"""

from __future__ import annotations

import io
import os
import signal
import struct
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from kpart.spark._failures import describe_failure, describe_java_text, java_chain

SRC = Path(__file__).resolve().parents[2] / "src"
HANG = 600.0  # seconds after which a kpart subprocess is taken for hung and killed
STEP = "kpart: "  # kpart's step lines ("kpart: reading x.csv") when stderr is not a terminal


def _csv(d: Path, records: int = 50) -> Path:
    path = d / "small.csv"
    path.write_text("user_id,v\n" + "".join(f"u{i},{i}\n" for i in range(records)))
    return path


def _stale_crc(directory: Path) -> Path:
    """A Parquet directory whose second part file has a Hadoop ``.crc`` sidecar that does not
    match it (as after the file was rewritten by a tool that does not know about .crc files)."""
    directory.mkdir()
    table = pa.table({"user_id": [f"u{i}" for i in range(50)], "v": list(range(50))})
    pq.write_table(table, directory / "part-00000.parquet")
    part = directory / "part-00001.parquet"
    pq.write_table(table.slice(0, 20), part)
    data = part.read_bytes()
    sums = b"".join(struct.pack(">I", zlib.crc32(data[i:i + 512]) ^ 1)  # one bit off each
                    for i in range(0, len(data), 512))
    (directory / ".part-00001.parquet.crc").write_bytes(b"crc\0" + struct.pack(">i", 512) + sums)
    return part


def _children(pid: int) -> list[int]:
    """Process ids whose parent is ``pid`` (Linux /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry))
    return found


def _is_java(pid: int) -> bool:
    try:
        return "java" in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode()
    except OSError:
        return False


def _gone(pid: int) -> bool:
    """True when ``pid`` no longer runs (absent, or a zombie left for its new parent)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def _kpart(args: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(SRC), os.environ.get("PYTHONPATH", "")]), **(env or {})}
    proc = subprocess.Popen([sys.executable, "-m", "kpart.cli", *args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=environment)
    # a safety net, not a measure: a kpart that hangs (the bug) fails the test, not the run
    guard = threading.Timer(HANG, proc.kill)
    guard.daemon = True
    guard.start()
    return proc


def _run_until(proc: subprocess.Popen[str], step: str) -> tuple[list[str], list[int]]:
    """Read ``proc``'s stderr up to the step line starting with ``step``; the lines read and
    the JVM processes ``proc`` runs then."""
    assert proc.stderr is not None
    lines = []
    for line in proc.stderr:
        lines.append(line.rstrip("\n"))
        if line.startswith(step):
            return lines, [p for p in _children(proc.pid) if _is_java(p)]
    raise AssertionError(f"no {step!r} line: {lines}")


def _finish(proc: subprocess.Popen[str]) -> tuple[int, list[str]]:
    """``proc``'s exit code and the rest of its stderr (-9: it hung and was killed)."""
    assert proc.stderr is not None
    rest = proc.stderr.read()
    proc.wait()
    return proc.returncode, rest.splitlines()


@pytest.mark.spark
def test_ctrl_c_during_report_exits_130_with_one_line_and_stops_the_jvm(tmp_path):
    out = tmp_path / "out"
    proc = _kpart(["report", str(_csv(tmp_path)), "--key", "user_id", "--out", str(out)])
    before, jvms = _run_until(proc, "kpart: reading small.csv")
    assert jvms, "Spark runs: its JVM is a child of kpart"
    proc.send_signal(signal.SIGINT)  # what Ctrl-C sends (the JVM ignores it: pyspark's launch)
    code, after = _finish(proc)
    assert code == 130, (before, after)
    assert after == ["kpart: interrupted"]
    assert all(line.startswith(STEP) for line in before)
    assert all(_gone(pid) for pid in jvms), "the JVM kpart started is left running"
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["small.csv"]


@pytest.mark.spark
def test_ctrl_c_while_the_jvm_starts_exits_130_and_stops_it(tmp_path):
    """Ctrl-C as soon as the JVM process exists (pyspark is still launching it, or the
    SparkContext is starting): the interrupt waits for the JVM to be known, then stops it."""
    out = tmp_path / "out"
    proc = _kpart(["report", str(_csv(tmp_path)), "--key", "user_id", "--out", str(out)])
    _run_until(proc, "kpart: starting Spark")
    jvms: list[int] = []
    while not jvms and proc.poll() is None:  # waits for a process to appear, not for a time
        jvms = [p for p in _children(proc.pid) if _is_java(p)]
        time.sleep(0.05)
    assert jvms, "the JVM never started"
    proc.send_signal(signal.SIGINT)
    code, after = _finish(proc)
    assert (code, after) == (130, ["kpart: interrupted"])
    assert all(_gone(pid) for pid in jvms), "the JVM kpart started is left running"
    assert not out.exists()


@pytest.mark.spark
def test_ctrl_c_during_a_cluster_report_exits_130(tmp_path):
    from _tools.cluster_datasets import write_cluster

    write_cluster(tmp_path)
    inputs = sorted(p.name for p in tmp_path.iterdir())
    out = tmp_path / "out"
    proc = _kpart(["report", "--topology", str(tmp_path / "cluster.toml"), "--out", str(out)])
    _, jvms = _run_until(proc, "kpart: clicks: reading")
    proc.send_signal(signal.SIGINT)
    code, after = _finish(proc)
    assert (code, after) == (130, ["kpart: interrupted"])
    assert all(_gone(pid) for pid in jvms)
    assert sorted(p.name for p in tmp_path.iterdir()) == inputs


@pytest.mark.spark
def test_ctrl_c_during_compat_on_a_dataset_exits_130(tmp_path):
    proc = _kpart(["compat", str(_csv(tmp_path)), "--key", "user_id", "-p", "12"])
    _, jvms = _run_until(proc, "kpart: reading small.csv")
    proc.send_signal(signal.SIGINT)
    code, after = _finish(proc)
    assert (code, after) == (130, ["kpart: interrupted"])
    assert proc.stdout is not None and proc.stdout.read() == ""
    assert all(_gone(pid) for pid in jvms)


@pytest.mark.spark
def test_stale_crc_is_one_line_naming_the_file_and_the_cause(tmp_path):
    data = tmp_path / "events"
    part = _stale_crc(data)
    out = tmp_path / "out"
    proc = _kpart(["report", str(data), "--key", "user_id", "--out", str(out)])
    _, jvms = _run_until(proc, "kpart: reading events")
    code, after = _finish(proc)
    assert code == 2, after
    assert len(after) == 1, after
    assert after[0].startswith("kpart: error: DATA: checksum error in ")
    assert repr(str(part)) in after[0] and "'.part-00001.parquet.crc'" in after[0]
    assert not out.exists()
    assert all(_gone(pid) for pid in jvms)


@pytest.mark.spark
def test_jvm_out_of_memory_ends_the_run_with_one_line(tmp_path):
    """A driver heap too small for the job (``spark.testing.memory`` lets Spark start on it):
    the JVM's OutOfMemoryError ends the run, whether it strikes while Spark starts or while it
    reads; never a hang, a traceback or exit code 0."""
    out = tmp_path / "out"
    tiny = {"PYSPARK_SUBMIT_ARGS": "--driver-memory 48m --conf spark.testing.memory=2147483648 "
                                   "pyspark-shell"}
    proc = _kpart(["report", str(_csv(tmp_path)), "--key", "user_id", "--out", str(out)], tiny)
    before, jvms = _run_until(proc, "kpart: starting Spark")
    code, after = _finish(proc)
    errors = [line for line in after if not line.startswith(STEP) or "error" in line]
    assert code == 2, after
    assert len(errors) == 1 and errors[0].startswith("kpart: error: "), after
    assert "ran out of memory" in errors[0] and "SPARK_DRIVER_MEMORY" in errors[0], errors
    assert "Traceback" not in "\n".join(before + after)
    assert not out.exists()
    assert all(_gone(pid) for pid in jvms + [p for p in _children(proc.pid) if _is_java(p)])


@pytest.mark.spark
def test_killed_jvm_is_one_line_naming_the_signal(tmp_path):
    """The JVM dies under kpart (the system's OOM killer, a kill -9): py4j loses its connection;
    kpart says so in one line instead of a chain of py4j tracebacks."""
    out = tmp_path / "out"
    proc = _kpart(["report", str(_csv(tmp_path)), "--key", "user_id", "--out", str(out)])
    _, jvms = _run_until(proc, "kpart: reading small.csv")
    assert len(jvms) == 1
    os.kill(jvms[0], signal.SIGKILL)
    code, after = _finish(proc)
    errors = [line for line in after if not line.startswith(STEP) or "error" in line]
    assert code == 2, after
    assert errors == ["kpart: error: Spark's JVM was killed by signal 9 (SIGKILL; the system "
                      "may have run out of memory)"], after
    assert not out.exists()


# -- the one line, from the text of Java errors as py4j gives them (no JVM) --------------------

_CRC_TEXT = """An error occurred while calling o109.collectToPython.
: org.apache.spark.SparkException: Job aborted due to stage failure: Task 1 in stage 1.0 failed \
1 times, most recent failure: Lost task 1.0 in stage 1.0 (TID 2) (localhost executor driver): \
org.apache.spark.SparkException: [FAILED_READ_FILE.NO_HINT] Encountered error while reading \
file file:///data/ev%20ents/part-00001.parquet.  SQLSTATE: KD001
\tat org.apache.spark.sql.errors.QueryExecutionErrors$.cannotReadFilesError(QueryExecutionErrors.scala:920)
Caused by: org.apache.hadoop.fs.ChecksumException: Checksum error: \
file:/data/ev ents/part-00001.parquet at 512 exp: -416953797 got: -416953798
\tat org.apache.hadoop.fs.FSInputChecker.readChecksumChunk(FSInputChecker.java:308)
"""


def test_checksum_error_names_the_file_its_crc_and_the_offset():
    line = describe_java_text(_CRC_TEXT)
    assert line.startswith("DATA: checksum error in '/data/ev ents/part-00001.parquet' at byte "
                           "512: the file does not match its Hadoop checksum file "
                           "'.part-00001.parquet.crc'")
    assert "\n" not in line


def test_other_read_errors_name_the_file_and_the_root_cause():
    text = _CRC_TEXT.replace("org.apache.hadoop.fs.ChecksumException: Checksum error: "
                             "file:/data/ev ents/part-00001.parquet at 512 exp: -416953797 got: "
                             "-416953798", "java.io.EOFException: Reached the end of stream")
    assert describe_java_text(text) == ("DATA: cannot read '/data/ev ents/part-00001.parquet': "
                                        "java.io.EOFException: Reached the end of stream")


def test_out_of_memory_errors_say_how_to_give_spark_more():
    thrown = "An error occurred while calling o47.read.\n: java.lang.OutOfMemoryError: Java heap space"
    assert describe_java_text(thrown) == (
        "Spark ran out of memory (java.lang.OutOfMemoryError: Java heap space): give Spark's "
        "driver more memory, e.g. SPARK_DRIVER_MEMORY=4g")
    last_words = ("Terminating due to java.lang.OutOfMemoryError: Java heap space",)
    assert describe_java_text("", last_words) == describe_java_text(thrown)
    spark_managed = ": org.apache.spark.SparkException: Job aborted\nCaused by: " \
        "org.apache.spark.memory.SparkOutOfMemoryError: [AGGREGATE_OUT_OF_MEMORY] No enough " \
        "memory for aggregation SQLSTATE: 82001"
    assert describe_java_text(spark_managed).startswith(
        "Spark ran out of memory (org.apache.spark.memory.SparkOutOfMemoryError: ")


def test_a_dead_jvm_is_named_by_its_exit_status():
    lost = ConnectionRefusedError(111, "Connection refused")
    assert describe_failure(lost, jvm_status=3).startswith("Spark ran out of memory (Spark's "
                                                           "JVM exited with status 3)")
    assert describe_failure(lost, jvm_status=1) == (
        "Spark's JVM exited with status 1 before the job ended")
    assert describe_failure(lost, jvm_status=-15) == "Spark's JVM was killed by signal 15 (SIGTERM)"


def test_errors_not_from_spark_are_left_alone():
    assert describe_failure(ValueError("a kpart bug")) is None
    assert describe_failure(ConnectionRefusedError(111, "Connection refused")) is None
    assert java_chain("no Java here") == []


def test_a_connection_lost_inside_py4j_with_the_jvm_alive_is_one_line():
    def connect() -> None:  # stands in for py4j's connect_to_java_server
        raise ConnectionRefusedError(111, "Connection refused")

    connect.__code__ = connect.__code__.replace(co_filename="/venv/site-packages/py4j/clientserver.py")
    try:
        connect()
    except ConnectionRefusedError as e:
        error = e
    assert describe_failure(error) == (
        "Spark's JVM stopped answering (ConnectionRefusedError: [Errno 111] Connection refused)")


def test_a_python_worker_error_is_its_exception_line():
    text = (": org.apache.spark.api.python.PythonException: An exception was thrown from the "
            "Python worker. Please see the stack trace below.\nTraceback (most recent call "
            "last):\n  File \"/x/kernels.py\", line 3, in hash_batch\n    raise ValueError("
            "'boom')\nValueError: boom\n\n\tat org.apache.spark.api.python.BasePythonRunner"
            "(PythonRunner.scala:1)")
    assert describe_java_text(text) == "Spark failed in a Python worker: ValueError: boom"


def test_ctrl_c_in_any_command_exits_130_with_one_line(monkeypatch, capsys):
    """Not only Spark's: Ctrl-C while ``kpart assign -`` waits for its standard input."""
    from kpart.cli import main

    class Keyboard:  # standard input that the user interrupts instead of typing
        def read(self, *args: object) -> str:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)  # the signal's KeyboardInterrupt cuts this short
            raise AssertionError("SIGINT was not delivered")

    monkeypatch.setattr(sys, "stdin", Keyboard())
    assert main(["assign", "-"]) == 130
    out, err = capsys.readouterr()
    assert (out, err) == ("", "kpart: interrupted\n")


@pytest.mark.spark
def test_a_spark_analysis_error_is_one_line_and_prints_nothing_itself(spark, capfd):
    """pyspark prints an analysis error's query context as a JSON record on stderr when the
    error is raised; a command-line session silences that (its one line names the error)."""
    from pyspark.sql import functions as F

    from kpart.spark.session import _quiet_query_context_loggers

    _quiet_query_context_loggers()
    capfd.readouterr()
    with pytest.raises(Exception) as caught:
        spark.range(1).select(F.col("no_such_column")).collect()
    assert capfd.readouterr().err == ""
    line = describe_failure(caught.value)
    assert line is not None and "\n" not in line
    assert line.startswith("Spark failed: org.apache.spark.sql.") and "AnalysisException: " in line
    assert "no_such_column" in line


# -- kpart's steps on a terminal when the run fails --------------------------------------------


class _DeadTracker:
    """A status tracker whose JVM is gone: every call fails as py4j's would."""

    def getActiveStageIds(self) -> list[int]:  # noqa: N802 - pyspark's StatusTracker API
        raise ConnectionRefusedError(111, "Connection refused")


class _Session:
    def __init__(self, tracker: object) -> None:
        self.sparkContext = self
        self._tracker = tracker

    def statusTracker(self) -> object:  # noqa: N802 - pyspark's SparkContext API
        return self._tracker


def _live(buf: io.StringIO):
    from rich.console import Console

    from kpart.cli._phases import phases

    return phases(console=Console(file=buf, force_terminal=True, width=100, color_system=None))


def test_a_step_ended_by_ctrl_c_is_not_ticked_as_done():
    buf = io.StringIO()
    with pytest.raises(KeyboardInterrupt), _live(buf) as steps:
        steps.step("starting Spark (local[*])")
        steps.step("reading small.csv")
        raise KeyboardInterrupt
    done = [t.description for t in steps._progress.tasks if t.finished]
    assert done == ["starting Spark (local[*])"]
    assert "✓ reading small.csv" not in buf.getvalue()


def test_a_dead_jvm_leaves_the_run_s_own_error_not_the_progress_poller_s():
    buf = io.StringIO()
    with pytest.raises(ValueError, match="the job's own error"), _live(buf) as steps:
        steps.step("hashing 50 distinct keys")
        with steps.watch_spark(_Session(_DeadTracker()), interval=0.01):
            time.sleep(0.05)  # the poller meets the dead JVM meanwhile
            raise ValueError("the job's own error")
    assert "Traceback" not in buf.getvalue() and "Connection refused" not in buf.getvalue()
