"""What the commands that start Spark (``report``, and ``compat``/``whatif`` on a dataset) share:
the check that Spark is installed, and the ``--master``/``--master-timeout`` options (and
``report``'s ``--remote``, a Spark Connect server instead of a master).

Spark is the extra ``kpart[spark]``: ``pip install kpart`` gives every other command. Nothing
here imports :mod:`kpart.spark` or pyspark at module level: registering the commands must stay
cheap for the commands that never start Spark.

>>> parse_master_timeout("2.5")
2.5
>>> parse_master_timeout("soon")
Traceback (most recent call last):
...
kpart.errors.ConfigError: --master-timeout: expected a number of seconds in (0, 86400], got 'soon'
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer

from kpart.errors import ConfigError

__all__ = [
    "MasterTimeout",
    "Remote",
    "check_master_options",
    "parse_master_timeout",
    "require_spark",
]

#: The default of ``--master-timeout`` as its help shows it (the value itself is
#: :data:`kpart.spark._master.DEFAULT_MASTER_TIMEOUT`; a test keeps the two equal).
HELP_DEFAULT = "60"
#: The default wait for a ``--remote`` as its help shows it
#: (:data:`kpart.spark._remote.DEFAULT_REMOTE_TIMEOUT`).
REMOTE_HELP_DEFAULT = "10"

#: ``--master-timeout SECONDS``: how long to wait for a non-local ``--master``.
MasterTimeout = Annotated[str | None, typer.Option(
    "--master-timeout", metavar="SECONDS",
    help="Seconds to wait for a non-local --master: its port to answer, then the application "
    f"to be accepted (default {HELP_DEFAULT}); for a --remote, its first answer (default "
    f"{REMOTE_HELP_DEFAULT}).", show_default=False)]

#: ``--remote sc://HOST:PORT``: a Spark Connect server instead of ``--master``.
Remote = Annotated[str | None, typer.Option(
    "--remote", metavar="sc://HOST:PORT",
    help="Run the job on a Spark Connect server (Spark 4's client/server mode) instead of a "
    "--master: sc://HOST:PORT[/;token=...]. The server reads the data: it must see the same "
    "path.", show_default=False)]

#: How to get Spark, in the one line a command that needs it prints without it.
INSTALL_SPARK = "pip install 'kpart[spark]'"


def require_spark(command: str, *, except_with: str | None = None) -> None:
    """Refuse ``kpart COMMAND`` in one line when pyspark is not installed (``pip install
    kpart`` without the ``spark`` extra): ConfigError ``kpart report needs Spark: pip install
    'kpart[spark]'`` (exit 2). ``except_with``: the option that lets the command run without
    Spark (``--keys``), named in the message. pyspark is looked up, not imported (no JVM, no
    half-second import).

    >>> require_spark("report")  # pyspark is installed here: nothing happens
    """
    if importlib.util.find_spec("pyspark") is None:
        but = "" if except_with is None else f" ({except_with} does not)"
        raise ConfigError(f"kpart {command} needs Spark{but}: {INSTALL_SPARK}")


def parse_master_timeout(value: str) -> float:
    """``--master-timeout`` in seconds: a positive finite number, at most a day; ConfigError
    naming the option and the value otherwise."""
    try:
        seconds = float(value.strip())
    except ValueError:
        seconds = math.nan
    if not (0 < seconds <= 86400):  # also refuses nan and inf
        raise ConfigError(f"--master-timeout: expected a number of seconds in (0, 86400], "
                          f"got {value!r}")
    return seconds


def check_master_options(master: str | None, master_timeout: str | None,
                         remote: str | None = None) -> float:
    """Check ``--master-timeout`` and ``--master`` before any other input is read: the URL's
    form, and a standalone master's TCP port within the timeout (also when this process
    already runs a session, which is then reused: the user named that master). No JVM starts
    here; the caller then starts the session with ``probe=False``
    (:func:`kpart.spark.session.get_or_create_session`), so the port is probed once. Returns
    the timeout in seconds; ConfigError naming the bad value. Every command that starts Spark
    calls this first: it also makes the sessions this process starts those of a command line
    (:func:`kpart.spark.session.for_command_line`: a failure is kpart's one line).

    ``remote`` (``--remote``): a Spark Connect URL, checked the same way (its form, then its
    TCP port; :mod:`kpart.spark._remote`); with ``--master`` as well, ConfigError. Its
    timeout is ``--master-timeout`` when given, else
    :data:`~kpart.spark._remote.DEFAULT_REMOTE_TIMEOUT`.

    >>> check_master_options("local[2]", None, "sc://127.0.0.1:15002")
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: --remote: a Spark Connect server runs its own master: give --remote or --master, not both
    """
    from kpart.spark._master import DEFAULT_MASTER_TIMEOUT, check_master, check_reachable
    from kpart.spark.session import for_command_line

    for_command_line()  # the session this command starts fails in one line, never hangs
    if remote is not None:
        from kpart.spark._remote import DEFAULT_REMOTE_TIMEOUT, check_remote_reachable

        if master is not None:
            raise ConfigError("--remote: a Spark Connect server runs its own master: give "
                              "--remote or --master, not both")
        timeout = (DEFAULT_REMOTE_TIMEOUT if master_timeout is None
                   else parse_master_timeout(master_timeout))
        check_remote_reachable(remote, timeout)
        return timeout
    timeout = (DEFAULT_MASTER_TIMEOUT if master_timeout is None
               else parse_master_timeout(master_timeout))
    if master is not None:
        check_reachable(master, check_master(master), timeout)
    return timeout


@contextmanager
def report_session(run: Any, steps: Any, *, needed: bool = True) -> Iterator[Any]:
    """The Spark session of a report, inside kpart's steps (``steps``,
    :func:`kpart.cli._phases.phases`): the active one (an embedding process keeps its own),
    else one started for ``run``'s ``--master`` or ``--remote`` (with its checked timeout) and
    stopped on the way out; ``None`` when ``needed`` is false (an input without records).
    The job runs inside ``steps.watch_spark`` (a progress bar on a terminal)."""
    from kpart.spark._remote import shown_url
    from kpart.spark.session import get_or_create_session, has_active_session, stop_jvm

    if not needed:
        yield None
        return
    owned = not has_active_session()
    steps.step(f"starting Spark ({run.master or shown_url(run.remote or 'local[*]')})"
               if owned else "using the active Spark session")
    spark = get_or_create_session(master=run.master, app_name="kpart-report",
                                  master_timeout=run.timeout, probe=False,
                                  remote=run.remote, remote_timeout=run.timeout)
    try:
        with steps.watch_spark(spark):
            yield spark
    except BaseException:
        if owned and _jvm_unusable():  # interrupted, or dead: no graceful stop to wait for
            owned = False
            stop_jvm()
        raise
    finally:
        if owned:
            spark.stop()


def _jvm_unusable() -> bool:
    """True while a KeyboardInterrupt is being handled (Ctrl-C) or once the JVM kpart launched
    has exited: its session is then not stopped through it, the JVM is stopped instead."""
    import sys

    from kpart.spark._failures import is_lost_connection
    from kpart.spark.session import jvm_exit_status

    error = sys.exc_info()[1]
    if error is None or isinstance(error, KeyboardInterrupt):
        return True
    return jvm_exit_status(wait=5.0 if is_lost_connection(error) else 0.0) is not None
