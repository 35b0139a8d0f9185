"""Shared timing helpers of the benchmark scripts (run as ``python benchmarks/bench_*.py``, so
this directory is on ``sys.path``).

Every figure a script prints ends with a result a user can read: the timed function must
return a materialized value (an Arrow table, Python objects), never a lazy one.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def best_of(repeats: int, fn: Callable[[], object]) -> float:
    """The fastest of ``repeats`` calls of ``fn``, in seconds of wall time."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def median_of(repeats: int, fn: Callable[[], object]) -> float:
    """The median of ``repeats`` calls of ``fn``, in seconds of wall time."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _child(build: Callable[[], Any], run: Callable[[Any], object], repeats: int, out: Any) -> None:
    inputs = build()  # not timed
    out.put(median_of(repeats, lambda: run(inputs)))


def capped_median(
    build: Callable[[], Any], run: Callable[[Any], object], *, repeats: int = 3, cap: float = 60.0
) -> float | None:
    """Median seconds of ``repeats`` calls of ``run(build())`` in a forked child process
    (``build`` is not timed), or ``None`` when the child does not finish within ``cap``
    seconds of timed work (plus a minute for building the inputs): the caller prints
    "did not finish"."""
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_child, args=(build, run, repeats, q))
    p.start()
    p.join(cap * repeats + 60)
    if p.is_alive():
        p.kill()
        p.join()
        return None
    try:
        seconds: float = q.get(timeout=1)
    except Exception:  # noqa: BLE001 - a child that crashed did not finish
        return None
    return seconds if seconds <= cap else None


def fmt_seconds(seconds: float | None) -> str:
    """``"0.123 s"`` or ``"did not finish"``."""
    return "did not finish" if seconds is None else f"{seconds:.3f} s"


def run_child(argv: list[str], cwd: Path | None = None) -> dict[str, Any]:
    """Run ``kpart ARGV`` in a child process (this checkout's ``src`` first on its path) to
    its end: wall and CPU (user + sys) seconds, that child's own peak RSS (MiB, ``os.wait4``:
    not the maximum over every child waited for), exit code, the last stderr line."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(Path(__file__).resolve().parents[1] / "src"), os.environ.get("PYTHONPATH", "")]))
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "kpart.cli", *argv], cwd=cwd, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read().decode()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
            "rss_mb": usage.ru_maxrss / 1024, "rc": proc.returncode,
            "error": err.strip().splitlines()[-1] if err.strip() else ""}


def peak_rss_mb() -> float:
    """This process's peak resident memory so far, in MiB (``ru_maxrss``, Linux KiB)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
