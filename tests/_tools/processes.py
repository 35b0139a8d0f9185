"""Processes the tests start on loopback (a Spark Connect server, a standalone master and
worker): a free port, and stopping a process group whatever state it is in."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on (as of now)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stop_group(proc: subprocess.Popen[bytes], grace: float = 20) -> None:
    """Stop the process group ``proc`` leads (a launcher script and its JVM): SIGTERM, then
    SIGKILL after ``grace`` seconds."""
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
