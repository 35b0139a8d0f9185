"""Shared timing helper of the benchmark scripts (run as ``python benchmarks/bench_*.py``, so
this directory is on ``sys.path``)."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(repeats: int, fn: Callable[[], object]) -> float:
    """The fastest of ``repeats`` calls of ``fn``, in seconds of wall time."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best
