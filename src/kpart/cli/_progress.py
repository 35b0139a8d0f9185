"""Progress display for long CLI work: loops, a spinner, and the Spark stages of a status tracker.

Nothing here imports pyspark: :func:`snapshot` reads anything with the ``pyspark.StatusTracker``
API (``getActiveStageIds()`` and ``getStageInfo(id)`` with ``name``, ``numTasks``,
``numCompletedTasks``, ``numActiveTasks``, ``numFailedTasks``; :mod:`kpart.cli._phases` polls
it). Progress goes to stderr with rich; it is shown only when that stream is a terminal and
``quiet`` is false, so piped or redirected output stays clean.

>>> with task_progress(3, "planning", quiet=True) as advance:
...     for _ in range(3):
...         advance()
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sized
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)

__all__ = [
    "StageSnapshot",
    "busy",
    "snapshot",
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
    if total is None and isinstance(items, Sized):
        total = len(items)
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
