"""What the Spark job of a cluster report measures, per topic: loads, load over time and the
partition count the topic needs. Pure values (numpy inside), no Spark: the job
(:mod:`kpart.spark.cluster_job`) builds them, the summary (:mod:`kpart.analysis.cluster_summary`)
reads them.

Units: records are counts, bytes as :data:`kpart.analysis.summary.BYTES_DEFINITION`; times are
epoch milliseconds (UTC); rates are per second. A window is ``[k * window_ms, (k + 1) *
window_ms)`` for the integer ``k = floor(timestamp_ms / window_ms)``, so the windows of every
topic line up on one grid and broker loads add across topics window by window.

>>> import numpy as np
>>> w = TopicWindows(window_ms=60_000, start_ms=120_000,
...                  records=np.array([[1, 0, 2], [0, 3, 0]]),
...                  bytes=np.array([[10, 0, 20], [0, 30, 0]]))
>>> w.partitions, w.windows, w.window_s, w.span_s
(2, 3, 60.0, 180.0)
>>> w.window_starts_ms().tolist()
[120000, 180000, 240000]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kpart.analysis.loads import Loads
from kpart.errors import ConfigError
from kpart.producer.partition_count import PartitionCountResult

__all__ = ["MAX_GRID_CELLS", "MAX_GRID_WINDOWS", "TopicMeasure", "TopicWindows", "check_grid"]

#: Most windows of the common grid of a cluster's topics (from the first topic's first window
#: to the last one's last): topics timed years apart make a grid no topic's own limit bounds.
MAX_GRID_WINDOWS = 1_000_000
#: Most cells of the per-window series on the common grid (brokers, group members, heat-map
#: rows, each × the grid's windows; int64 each: 160 MB per series at the limit).
MAX_GRID_CELLS = 20_000_000


def check_grid(starts: dict[str, int], ends: dict[str, int], window_ms: int, rows: int) -> int:
    """The number of windows of the common grid of a cluster's timed topics, given each topic's
    first window start and last window end (epoch ms, on the ``window_ms`` grid), checked
    against :data:`MAX_GRID_WINDOWS` and, × ``rows`` series (brokers, group members, heat-map
    rows), :data:`MAX_GRID_CELLS`. ``ConfigError`` about ``window`` (``--window``) naming the
    earliest and the latest topic.

    >>> check_grid({"a": 0}, {"a": 7_200_000}, 3_600_000, 10)
    2
    """
    from datetime import UTC, datetime

    def iso(ms: int) -> str:
        return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

    start, end = min(starts.values()), max(ends.values())
    grid = (end - start) // window_ms
    if grid <= MAX_GRID_WINDOWS and grid * rows <= MAX_GRID_CELLS:
        return grid
    first = min(starts, key=lambda name: starts[name])
    last = max(ends, key=lambda name: ends[name])
    raise ConfigError.about(
        "window", "{param}: the topics' windows lie on one grid from {start} (topic {first!r}) "
        "to {end} (topic {last!r}): {grid:,} windows of {window:,} ms × {rows:,} series (brokers, "
        "members, heat-map rows); at most {most:,} windows and {cells:,} cells: pass a longer "
        "{param}, or report topics timed far apart separately", start=iso(start), first=first,
        end=iso(end), last=last, grid=grid, window=window_ms, rows=rows, most=MAX_GRID_WINDOWS,
        cells=MAX_GRID_CELLS)


@dataclass(frozen=True, slots=True)
class TopicWindows:
    """Records and bytes of every partition in every window of one topic.

    ``records`` and ``bytes``: int64, shape ``(P, W)`` — partition ``p``'s keyed records (and
    their bytes) whose timestamp falls in window ``w``, window ``0`` starting at ``start_ms``
    (a multiple of ``window_ms``), ``W`` windows covering the first to the last timestamp.
    ``null_key_records``/``null_key_bytes``: int64, shape ``(W,)``, the records without key per
    window (placed by the summary with the topic's null-key rule). ``random_key_records`` /
    ``random_key_bytes``: int64, shape ``(W,)``, the keyed records the client places at random
    (every record under ``librdkafka:random``, empty keys under
    ``librdkafka:consistent_random``; spread evenly by the summary). ``untimed_records`` /
    ``untimed_bytes``: records whose timestamp is null (in the totals, in no window)."""

    window_ms: int
    start_ms: int
    records: np.ndarray
    bytes: np.ndarray
    null_key_records: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    null_key_bytes: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    untimed_records: int = 0
    untimed_bytes: int = 0
    random_key_records: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    random_key_bytes: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))

    def __post_init__(self) -> None:
        if self.window_ms <= 0 or self.start_ms % self.window_ms:
            raise ConfigError(f"windows: start {self.start_ms} ms is not on the "
                              f"{self.window_ms} ms grid")
        if self.records.ndim != 2 or self.records.shape != self.bytes.shape:
            raise ConfigError("windows: records and bytes must have the same (P, W) shape")
        w = self.records.shape[1]
        for name in ("null_key_records", "null_key_bytes", "random_key_records",
                     "random_key_bytes"):
            a = getattr(self, name)
            if a.size == 0:
                object.__setattr__(self, name, np.zeros(w, np.int64))
            elif a.shape != (w,):
                raise ConfigError(f"windows: {name} must have shape ({w},)")

    @property
    def partitions(self) -> int:
        """``P``."""
        return int(self.records.shape[0])

    @property
    def windows(self) -> int:
        """``W``."""
        return int(self.records.shape[1])

    @property
    def window_s(self) -> float:
        """The window length in seconds."""
        return self.window_ms / 1000

    @property
    def span_s(self) -> float:
        """Seconds covered by the windows (``W × window_s``): the denominator of mean rates."""
        return self.windows * self.window_s

    def window_starts_ms(self) -> np.ndarray:
        """Epoch milliseconds of each window's start, shape ``(W,)``."""
        return self.start_ms + self.window_ms * np.arange(self.windows, dtype=np.int64)


@dataclass(frozen=True, slots=True)
class TopicMeasure:
    """One topic's measure: its name, the per-partition :class:`~kpart.analysis.loads.Loads` (as the
    single-topic job measures them), its ``windows`` (``None`` without a timestamp column),
    its ``partition_count`` (``None`` without windows) and the ``source`` it was read from
    (``{"path", "format"}``)."""

    topic: str
    loads: Loads
    windows: TopicWindows | None = None
    partition_count: PartitionCountResult | None = None
    source: dict[str, Any] = field(default_factory=dict)
