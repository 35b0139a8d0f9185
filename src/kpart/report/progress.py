"""Progress display for long CLI work: Spark stages (polled from the status tracker) and loops.

Nothing here imports pyspark: :func:`spark_progress` takes the session (anything with
``sparkContext.statusTracker()``, the ``pyspark.StatusTracker`` API: ``getActiveStageIds()``
and ``getStageInfo(id)`` with ``name``, ``numTasks``, ``numCompletedTasks``,
``numActiveTasks``, ``numFailedTasks``). Progress goes to stderr with rich; it is shown only
when that stream is a terminal and ``quiet`` is false, so piped or redirected output stays
clean (no thread is started at all then).

>>> with task_progress(3, "planning", quiet=True) as advance:
...     for _ in range(3):
...         advance()
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)

__all__ = [
    "SparkProgress",
    "StageSnapshot",
    "busy",
    "spark_progress",
    "task_progress",
    "track",
]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class StageSnapshot:
    """One active Spark stage as the status tracker reports it (task counts, not records)."""

    stage_id: int
    name: str
    num_tasks: int
    num_completed_tasks: int
    num_active_tasks: int = 0
    num_failed_tasks: int = 0


def snapshot(tracker: Any) -> list[StageSnapshot]:
    """Active stages of ``tracker`` (a ``pyspark.StatusTracker`` or a fake), sorted by id.

    A stage that finished between ``getActiveStageIds()`` and ``getStageInfo()`` (which then
    returns ``None``) is left out.
    """
    out = []
    for sid in sorted(tracker.getActiveStageIds()):
        info = tracker.getStageInfo(sid)
        if info is None:
            continue
        out.append(
            StageSnapshot(
                stage_id=int(sid),
                name=str(getattr(info, "name", "") or f"stage {sid}"),
                num_tasks=int(info.numTasks),
                num_completed_tasks=int(info.numCompletedTasks),
                num_active_tasks=int(getattr(info, "numActiveTasks", 0)),
                num_failed_tasks=int(getattr(info, "numFailedTasks", 0)),
            )
        )
    return out


def _console(console: Console | None) -> Console:
    return console if console is not None else Console(stderr=True)


def _progress(console: Console) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    )


class SparkProgress:
    """Rich progress bars mirroring the active stages of a status tracker, one bar per stage.

    :meth:`poll` reads the tracker once and updates the bars (a stage that left the active list
    is shown complete); :func:`spark_progress` calls it from a thread every ``interval`` s.
    """

    def __init__(self, tracker: Any, progress: Progress, description: str = "spark") -> None:
        self.tracker = tracker
        self.progress = progress
        self.description = description
        self.tasks: dict[int, TaskID] = {}
        self._lock = threading.Lock()

    def poll(self) -> list[StageSnapshot]:
        """Read the tracker once, update the bars, return the active stages seen."""
        stages = snapshot(self.tracker)
        with self._lock:
            active = {s.stage_id for s in stages}
            for stage in stages:
                label = f"{self.description} · stage {stage.stage_id} {stage.name[:40]}"
                if stage.stage_id not in self.tasks:
                    self.tasks[stage.stage_id] = self.progress.add_task(
                        label, total=max(stage.num_tasks, 1)
                    )
                self.progress.update(
                    self.tasks[stage.stage_id],
                    total=max(stage.num_tasks, 1),
                    completed=stage.num_completed_tasks,
                )
            totals = {t.id: t.total for t in self.progress.tasks}
            for sid, task in self.tasks.items():
                if sid not in active:
                    self.progress.update(task, completed=totals[task])
        return stages


@contextmanager
def spark_progress(
    session: Any,
    *,
    quiet: bool = False,
    description: str = "spark",
    interval: float = 0.25,
    console: Console | None = None,
) -> Iterator[SparkProgress | None]:
    """Show Spark stage progress while the ``with`` body runs jobs on ``session``.

    ``session``: a SparkSession (or anything with ``sparkContext.statusTracker()``). Yields the
    :class:`SparkProgress` (``None`` when nothing is shown: ``quiet`` or stderr not a TTY).
    """
    out = _console(console)
    if quiet or not out.is_terminal:
        yield None
        return
    tracker = session.sparkContext.statusTracker()
    progress = _progress(out)
    view = SparkProgress(tracker, progress, description)
    stop = threading.Event()

    def _loop() -> None:
        while not stop.wait(interval):
            view.poll()

    thread = threading.Thread(target=_loop, name="kpart-spark-progress", daemon=True)
    with progress:
        thread.start()
        try:
            yield view
        finally:
            stop.set()
            thread.join()
            view.poll()


@contextmanager
def task_progress(
    total: int | None,
    description: str,
    *,
    quiet: bool = False,
    console: Console | None = None,
) -> Iterator[Callable[..., None]]:
    """A progress bar for long pure-Python work; yields ``advance(n=1)``.

    ``total`` steps (``None``: unknown). With ``quiet`` or a non-TTY stderr, ``advance`` is a
    no-op and nothing is printed.
    """
    out = _console(console)
    if quiet or not out.is_terminal:
        yield lambda n=1: None
        return
    progress = _progress(out)
    with progress:
        task = progress.add_task(description, total=total)
        yield lambda n=1: progress.advance(task, n)


def track(
    items: Iterable[T],
    description: str,
    *,
    total: int | None = None,
    quiet: bool = False,
    console: Console | None = None,
) -> Iterator[T]:
    """Iterate ``items`` with a progress bar (``total`` defaults to ``len(items)`` if known)."""
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    with task_progress(total, description, quiet=quiet, console=console) as advance:
        for item in items:
            yield item
            advance()


@contextmanager
def busy(description: str, *, quiet: bool = False, console: Console | None = None) -> Iterator[None]:
    """A spinner with elapsed time on stderr while one long call runs (an assignment of a
    large group, a reassignment plan): nothing when ``quiet`` or stderr is not a TTY."""
    out = _console(console)
    if quiet or not out.is_terminal:
        yield
        return
    from rich.progress import SpinnerColumn

    progress = Progress(SpinnerColumn(), TextColumn("[bold]{task.description}"),
                        TimeElapsedColumn(), console=out, transient=True)
    with progress:
        progress.add_task(description, total=None)
        yield
