"""SparkSession set-up for kpart: loopback only, UI off, the project's own Python on executors.

``get_or_create_session`` is the only place kpart builds a session. It applies the platform
rules of DESIGN.md before the JVM starts:

* ``PYSPARK_PYTHON = sys.executable`` so Python workers (``mapInArrow``) run the interpreter
  that has kpart installed, locally and on standalone executors on the same machine;
* ``SPARK_LOCAL_IP = 127.0.0.1``, ``spark.driver.bindAddress`` / ``spark.driver.host`` =
  ``127.0.0.1``: all traffic stays on loopback;
* ``spark.ui.enabled = false``, a small ``spark.sql.shuffle.partitions`` (the jobs shuffle
  kilobytes, not gigabytes), and a quiet log4j2 profile shipped in ``kpart/data``.

Under ``spark-submit`` (the driver is started by Spark, ``PYSPARK_GATEWAY_PORT`` is set), a
``master`` of ``None`` keeps the master chosen by ``spark-submit``.

``remote="sc://HOST:PORT"`` opens a Spark Connect session instead (:mod:`kpart.spark._remote`):
no JVM in this process, the driver and its settings are the server's; kpart sets only its SQL
settings (shuffle partitions, UTC session time zone) on the session.

A bad master costs one line, not a minute of Java stack traces: the URL's form is checked
before the JVM starts, a standalone master's port must answer within ``master_timeout``
seconds, the JVM is started on its own, and a non-local master must then accept the
application within ``master_timeout`` seconds (see :mod:`kpart.spark._master`); any failure
is a :class:`~kpart.errors.ConfigError` naming the master.

Ctrl-C while the JVM is being launched is held until the JVM is up (so that it is known, and can
be stopped, :func:`stop_jvm`), then delivered; a SIGINT handler the caller installed before the
session started stays in place (pyspark installs its own, which asks the busy JVM to cancel its
jobs from inside the signal handler; it is kept only when the caller had none).

The command line calls :func:`for_command_line` before it starts a session: the sessions it
starts then print nothing of their own on a failure (log4j ``OFF``; py4j's logged tracebacks
and pyspark's "Unable to cleanly shutdown" warning dropped), and their JVM exits at its first
``OutOfMemoryError`` (``-XX:+ExitOnOutOfMemoryError``, its last words kept from the terminal by
:mod:`kpart.spark._stderr`) instead of running on with a dead thread while Python waits for an
answer that never comes: the command then ends with one line (:mod:`kpart.spark._failures`).
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from importlib import resources
from typing import TYPE_CHECKING

from kpart.errors import ConfigError
from kpart.spark._master import (
    DEFAULT_MASTER_TIMEOUT,
    check_master,
    check_reachable,
    is_local_master,
    session_start_error,
    start_within,
)
from kpart.spark._remote import (
    DEFAULT_REMOTE_TIMEOUT,
    check_remote,
    check_remote_reachable,
    connect_session,
    is_connect,
    shown_url,
)

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import SparkSession

__all__ = [
    "DEFAULT_MASTER_TIMEOUT",
    "DEFAULT_REMOTE_TIMEOUT",
    "DEFAULT_SHUFFLE_PARTITIONS",
    "for_command_line",
    "get_or_create_session",
    "has_active_session",
    "is_connect",
    "jvm_exit_status",
    "launched_jvm",
    "quiet_log4j_path",
    "stop_jvm",
]

#: Shuffle partitions of kpart sessions: kpart's shuffles are small (one row per key, then
#: one row per partition), so a few tasks per core beat Spark's default of 200.
DEFAULT_SHUFFLE_PARTITIONS = 8
#: JVM options of the sessions started under :func:`for_command_line`: the first
#: OutOfMemoryError ends the JVM (status 3), its message on stderr (not on the command's stdout).
COMMAND_LINE_JAVA_OPTIONS = "-XX:+ExitOnOutOfMemoryError -XX:+DisplayVMOutputToStderr"
_COMMAND_LINE: list[bool] = []  # [True] once for_command_line() was called
_FORGOTTEN: list[subprocess.Popen[bytes]] = []  # the last JVM launched, once forgotten


class _NotPy4J(logging.Filter):
    """Drops the records py4j logs on the root logger (``logging.exception("Exception while
    sending command.")``, with a traceback, when the JVM is gone or the call was interrupted)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return f"{os.sep}py4j{os.sep}" not in record.pathname


def for_command_line() -> None:
    """Make the sessions this process starts from now on those of a command line (see the module
    docstring): their failures are the caller's one line, not Spark's logs and tracebacks.
    Idempotent; no pyspark import."""
    if _COMMAND_LINE:
        return
    _COMMAND_LINE.append(True)
    logging.getLogger("py4j").setLevel(logging.CRITICAL + 1)
    logging.getLogger().addFilter(_NotPy4J())
    warnings.filterwarnings("ignore", message="Unable to cleanly shutdown Spark JVM process")


def quiet_log4j_path() -> str:
    """Path of the log4j2 profile shipped with kpart (root logger at ERROR, console only)."""
    return str(resources.files("kpart") / "data" / "log4j2.properties")


def has_active_session() -> bool:
    """True when this process already runs a SparkSession (``get_or_create_session`` reuses
    it; whoever started it stops it)."""
    if "pyspark" not in sys.modules:
        return False
    from pyspark.sql import SparkSession

    return SparkSession.getActiveSession() is not None


def _launched_by_spark_submit() -> bool:
    return "PYSPARK_GATEWAY_PORT" in os.environ


def get_or_create_session(
    master: str | None = "local[*]",
    app_name: str = "kpart",
    conf: Mapping[str, str] | None = None,
    master_timeout: float = DEFAULT_MASTER_TIMEOUT,
    *,
    probe: bool = True,
    remote: str | None = None,
    remote_timeout: float = DEFAULT_REMOTE_TIMEOUT,
) -> SparkSession:
    """Return the active SparkSession, or start one bound to loopback with the UI off.

    ``master``: a Spark master URL (``local[*]``, ``local[2]``, ``spark://127.0.0.1:7077``);
    ``None`` keeps the master given by ``spark-submit`` (``local[*]`` when there is none).
    ``conf``: extra ``spark.*`` settings, applied last. ``master_timeout``: seconds to wait
    for a non-local master (its TCP port, then its acceptance of the application).
    ``probe=False``: the caller has just checked the master (its form and port, with
    :func:`kpart.spark._master.check_master` and :func:`~kpart.spark._master.check_reachable`,
    as the CLI does before reading any input), so its port is not probed a second time.
    Environment variables ``PYSPARK_PYTHON`` and ``SPARK_LOCAL_IP`` are set for this process
    (and so for the JVM it launches). Starting a local session takes ~5 s and ~400 MiB; an
    existing session is reused as is.

    ``remote``: a Spark Connect URL (``sc://HOST:PORT``, :mod:`kpart.spark._remote`) to run on
    instead of a master (``master`` must then be left at ``local[*]`` or ``None``); the
    server must answer within ``remote_timeout`` seconds (its port is probed unless
    ``probe=False``). Only the SQL settings (``spark.sql.*``, from ``conf`` too) apply to a
    Connect session.

    Raises ConfigError naming the master: a malformed URL (before anything starts), a
    standalone master that does not answer, a JVM or session that does not start, a master
    that does not accept the application within ``master_timeout``. With ``remote``:
    ConfigError naming ``remote`` and the URL (its form, a server that does not answer, a
    master given as well, a classic session already active in this process).
    """
    if remote is not None:
        return _remote_session(remote, master, conf, remote_timeout, probe=probe)
    if master is not None and probe:  # before pyspark is even imported: seconds count here
        check_reachable(master, check_master(master), master_timeout)
    reuse = has_active_session()
    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName(app_name)
    if master is None and not _launched_by_spark_submit():
        master = "local[*]"
    if master is not None:
        builder = builder.master(master)
    log4j = quiet_log4j_path()
    settings = {
        "spark.driver.bindAddress": "127.0.0.1",
        "spark.driver.host": "127.0.0.1",
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        **_sql_settings(None),
        "spark.pyspark.python": sys.executable,
        "spark.driver.extraJavaOptions": f"-Dlog4j2.configurationFile=file:{log4j}",
        "spark.executor.extraJavaOptions": f"-Dlog4j2.configurationFile=file:{log4j}",
    }
    if _COMMAND_LINE:
        for key in ("spark.driver.extraJavaOptions", "spark.executor.extraJavaOptions"):
            settings[key] += f" {COMMAND_LINE_JAVA_OPTIONS}"
        _quiet_query_context_loggers()
    settings.update(conf or {})
    for key, value in settings.items():
        builder = builder.config(key, value)
    from kpart.spark._stderr import jvm_stderr_filtered

    with jvm_stderr_filtered(), _sigint_kept():  # the JVM's "Using incubator modules" stays out
        if reuse:
            session = builder.getOrCreate()
        else:
            settings = {"spark.app.name": app_name, **settings}
            if master is not None:
                settings["spark.master"] = master
            session = _start(builder, settings, master, master_timeout)
    if not is_connect(session):  # a Connect session (reused) has no SparkContext
        session.sparkContext.setLogLevel("OFF" if _COMMAND_LINE and not reuse else "ERROR")
    return session


def _quiet_query_context_loggers() -> None:
    """Silence the loggers through which pyspark prints an analysis error's query context as a
    JSON record with a traceback, on stderr, when the error is raised (the command's own line
    names the error). They must be pyspark's ``PySparkLogger`` (pyspark passes them extra
    keywords), so they are made here, where pyspark is imported."""
    try:
        from pyspark.logger import PySparkLogger
    except ImportError:  # pragma: no cover - an older pyspark: no such loggers
        return
    for name in ("DataFrameQueryContextLogger", "SQLQueryContextLogger"):
        PySparkLogger.getLogger(name).setLevel(logging.CRITICAL + 1)


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def _sigint_kept() -> Iterator[None]:
    """Keep the SIGINT handler the caller installed (pyspark's SparkContext replaces it with
    its own); Python's default handler is left to pyspark's."""
    previous = signal.getsignal(signal.SIGINT) if _in_main_thread() else None
    try:
        yield
    finally:
        if previous is not None and previous is not signal.default_int_handler:
            signal.signal(signal.SIGINT, previous)


@contextmanager
def _sigint_deferred() -> Iterator[None]:
    """Hold a SIGINT until the body (the JVM's launch) is over, then deliver it to the handler
    in place before, which is back then (pyspark's SparkContext installs its own meanwhile,
    which a SIGINT after that reaches instead): interrupted half-way, pyspark would lose the
    JVM it launched."""
    if not _in_main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught and callable(previous):
            previous(signal.SIGINT, None)
        elif caught and previous == signal.SIG_DFL:
            raise KeyboardInterrupt


def launched_jvm() -> subprocess.Popen[bytes] | None:
    """The last JVM process this process launched for its Spark sessions (alive, or stopped
    and forgotten by :func:`stop_jvm`), ``None`` when there is none (no session yet, a JVM
    started by ``spark-submit``, Spark Connect)."""
    if "pyspark" not in sys.modules:
        return None
    from pyspark import SparkContext

    proc = getattr(SparkContext._gateway, "proc", None)
    return proc if proc is not None else (_FORGOTTEN[-1] if _FORGOTTEN else None)


def jvm_exit_status(wait: float = 0.0) -> int | None:
    """The exit status of the JVM this process launched once it has exited (negative: the
    signal that killed it), waiting ``wait`` seconds at most; ``None`` while it runs (or when
    there is none)."""
    proc = launched_jvm()
    if proc is None:
        return None
    try:
        return proc.wait(wait) if wait > 0 else proc.poll()
    except subprocess.TimeoutExpired:
        return None


def stop_jvm(grace: float = 5.0) -> int | None:
    """Stop the JVM this process launched and forget it (a later session starts a new one):
    SIGTERM (Spark's shutdown hooks remove its temporary directories), SIGKILL after ``grace``
    seconds; the process is waited for, so none is left behind. For an interrupted or failed
    run: its session is not stopped first (a busy or dying JVM may not answer). Returns the
    JVM's exit status, ``None`` when there was none."""
    proc = launched_jvm()
    if proc is None:
        return None
    logging.getLogger("py4j").setLevel(logging.CRITICAL + 1)  # the dying gateway is expected
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
    _forget_jvm()
    return proc.returncode


def _forget_jvm() -> None:
    """Forget the JVM (dead or abandoned) and its session, so that a later session of this
    process starts afresh."""
    from pyspark import SparkContext
    from pyspark.sql import SparkSession

    gateway = SparkContext._gateway
    proc = getattr(gateway, "proc", None)
    if proc is not None:
        _FORGOTTEN[:] = [proc]
    if SparkContext._lock.acquire(timeout=10):
        try:
            SparkContext._gateway = None
            SparkContext._jvm = None
            SparkContext._active_spark_context = None
        finally:
            SparkContext._lock.release()
    SparkSession._instantiatedSession = None
    SparkSession._activeSession = None
    try:
        if gateway is not None:
            gateway.shutdown()
    except Exception:  # noqa: BLE001 - already dead
        pass


def _sql_settings(conf: Mapping[str, str] | None) -> dict[str, str]:
    """kpart's session settings that a session (also a Connect one) may change at run time."""
    return {
        "spark.sql.shuffle.partitions": str(DEFAULT_SHUFFLE_PARTITIONS),
        "spark.sql.execution.arrow.pyspark.enabled": "true",
        "spark.sql.session.timeZone": "UTC",  # to_json of timestamps: same bytes everywhere
        **{k: v for k, v in (conf or {}).items() if k.startswith("spark.sql.")},
    }


def _remote_session(remote: str, master: str | None, conf: Mapping[str, str] | None,
                    timeout: float, *, probe: bool) -> SparkSession:
    """:func:`get_or_create_session` on a Spark Connect server (an active Connect session of
    this process on the same server is reused)."""
    if master not in (None, "local[*]"):
        raise ConfigError.about("remote", "{param} {value!r}: a Spark Connect server runs its "
                                "own master; give a master or a remote, not both (master "
                                "{master!r})", value=shown_url(remote), master=master)
    check_remote(remote)
    if probe:
        check_remote_reachable(remote, timeout)
    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas")
    return connect_session(remote, _sql_settings(conf), timeout)


def _start(builder: SparkSession.Builder, settings: Mapping[str, str], master: str | None,
           timeout: float) -> SparkSession:
    """Start the JVM (with the driver's settings), then the session: within ``timeout``
    seconds for a non-local master. Every failure is one ConfigError naming the master."""
    from pyspark import SparkConf, SparkContext

    from kpart.spark._stderr import clear_fatal_lines

    label = master or "(spark-submit's)"
    local = master is None or is_local_master(master)
    try:
        clear_fatal_lines()  # the last words of an earlier JVM are not this one's
        # Ctrl-C while the JVM is launched would lose it, and while a local SparkContext starts
        # it would reach pyspark's handler; held until then (a local start takes seconds)
        with _sigint_deferred():
            SparkContext._ensure_initialized(conf=SparkConf().setAll(list(settings.items())))
            if local:
                return builder.getOrCreate()
    except Exception as e:  # Py4J/Java errors, the JVM exiting at start
        raise _start_error(label, e) from None
    assert master is not None  # a local master returned above
    contacting = _registering_with_master if master.startswith("spark://") else None
    session = start_within(master, builder.getOrCreate, timeout, _abandon_jvm, contacting)
    # the JVM's active session is per thread: make it this thread's too, as getOrCreate does
    jvm = session._jvm
    if jvm is not None:
        jvm.SparkSession.setActiveSession(session._jsparkSession)
    return session


def _start_error(master: str, error: BaseException) -> ConfigError:
    """:func:`~kpart.spark._master.session_start_error`, or, when the JVM ran out of memory
    while it started (its last words, or its exit status), one line saying so."""
    from kpart.spark._failures import describe_failure, is_lost_connection
    from kpart.spark._stderr import fatal_lines

    status = jvm_exit_status(wait=5.0 if is_lost_connection(error) else 0.0)
    dead = status is not None or launched_jvm() is None  # JAVA_GATEWAY_EXITED: no gateway
    fatal = fatal_lines(wait=1.0 if dead else 0.0)
    line = describe_failure(error, jvm_status=status, fatal=fatal) if (
        status is not None or fatal) else None
    if line is not None and "out of memory" in line:
        return ConfigError(f"Spark did not start: {line}")
    return session_start_error(master, error)


def _registering_with_master() -> bool:
    """True once the driver's JVM runs the thread that registers the application with a
    standalone master (``StandaloneAppClient``'s ``appclient-register-master-threadpool``);
    True as well when the JVM cannot be asked (the clock then starts)."""
    from pyspark import SparkContext

    jvm = SparkContext._jvm
    if jvm is None:  # no JVM (any more): cannot tell, count from now
        return True
    try:
        threads = jvm.java.lang.Thread.getAllStackTraces().keySet().toArray()
        return any(str(t.getName()).startswith("appclient-register-master") for t in threads)
    except Exception:  # noqa: BLE001 - cannot tell: count from now
        return True


def _abandon_jvm() -> None:
    """Kill the JVM kpart launched (it is stuck waiting for a master) and forget it, so that a
    later session of this process starts afresh."""
    logging.getLogger("py4j").setLevel(logging.CRITICAL)  # the dying gateway is expected
    proc = launched_jvm()
    if proc is not None:  # None under spark-submit: that JVM is not ours to kill
        proc.kill()
        proc.wait(10)
    _forget_jvm()
