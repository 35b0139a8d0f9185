"""The JVM's start-up noise kept off the user's terminal.

The JVM that pyspark launches (``spark-submit`` → ``java``) inherits the Python process's
stderr, and Spark ≥ 4 starts it with ``--add-modules jdk.incubator.vector``, for which the Java
launcher prints ``WARNING: Using incubator modules: jdk.incubator.vector`` on that stderr before
any of Spark's own (log4j) settings apply: no Spark option silences it. While the session
starts, :func:`jvm_stderr_filtered` points file descriptor 2 at a pipe, so the JVM (and every
process it starts: Python workers) inherits the pipe; a daemon thread copies what arrives to
the real stderr, line by line, dropping only the lines of :data:`NOISE`. The Python process's
own stderr is restored when the ``with`` block ends; the JVM keeps writing into the pipe until
it exits. Errors the JVM prints later still reach the user, except its last words before a
fatal error (:data:`FATAL`: ``Terminating due to java.lang.OutOfMemoryError: ...``, printed by
a JVM started with ``-XX:+ExitOnOutOfMemoryError``), which are kept for the caller to name in
its own one-line error (:func:`fatal_lines`). Python's own ``sys.stderr`` writes bypass the
pipe meanwhile (a live progress line is not held back waiting for a newline).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import TextIO

__all__ = ["FATAL", "NOISE", "clear_fatal_lines", "fatal_lines", "jvm_stderr_filtered"]

#: Start-of-line byte strings dropped from the JVM's stderr.
NOISE = (b"WARNING: Using incubator modules",)
#: Start-of-line byte strings of a JVM's fatal error, dropped and kept (:func:`fatal_lines`).
FATAL = (b"Terminating due to java.lang.OutOfMemoryError",)
_KEPT: list[TextIO] = []  # the temporary sys.stderr objects, never collected (a thread may hold one)
_FATAL_LINES: list[str] = []  # the FATAL lines seen, oldest first
_PUMPS: list[threading.Thread] = []  # the copying threads started, newest last


def _pump(read_fd: int, out_fd: int) -> None:
    try:
        with os.fdopen(read_fd, "rb") as src:
            for line in iter(src.readline, b""):
                if line.startswith(FATAL):
                    _FATAL_LINES.append(line.decode("utf-8", "replace").strip())
                elif not line.startswith(NOISE):
                    with suppress(OSError):
                        os.write(out_fd, line)
    finally:
        os.close(out_fd)


def fatal_lines(wait: float = 0.0) -> tuple[str, ...]:
    """The :data:`FATAL` lines the JVMs started under :func:`jvm_stderr_filtered` printed so
    far (``"Terminating due to java.lang.OutOfMemoryError: Java heap space"``), oldest first;
    ``wait``: seconds to wait at most for the copying of a JVM that has exited to end (its
    last line may still be in the pipe)."""
    if wait > 0 and _PUMPS:
        _PUMPS[-1].join(wait)
    return tuple(_FATAL_LINES)


def clear_fatal_lines() -> None:
    """Forget the :data:`FATAL` lines seen (their JVM is gone: a new one starts afresh)."""
    _FATAL_LINES.clear()


@contextmanager
def jvm_stderr_filtered() -> Iterator[None]:
    """Run the body (which starts the JVM) with fd 2 filtered through :data:`NOISE`."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no usable fd 2: nothing to filter
        yield
        return
    read_fd, write_fd = os.pipe()
    os.dup2(write_fd, 2)
    os.close(write_fd)
    pump = threading.Thread(target=_pump, args=(read_fd, os.dup(saved)),
                            name="kpart-jvm-stderr", daemon=True)
    pump.start()
    _PUMPS.append(pump)
    python_stderr = sys.stderr
    with suppress(AttributeError, OSError, ValueError):
        if python_stderr.fileno() == 2:  # Python's own writes (a live progress line) go
            sys.stderr = os.fdopen(os.dup(saved), "w", buffering=1,  # straight out, unfiltered
                                   encoding=python_stderr.encoding, errors=python_stderr.errors)
            _KEPT.append(sys.stderr)
    try:
        yield
    finally:
        with suppress(OSError, ValueError):
            sys.stderr.flush()
        sys.stderr = python_stderr  # (the temporary one is left open: a progress thread may
        os.dup2(saved, 2)           # still hold it)
        os.close(saved)
