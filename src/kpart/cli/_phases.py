"""kpart's steps during long work (``kpart report``), wherever the output goes.

A command opens :func:`phases` and hands its :meth:`Phases.step` to the code doing the work (the
``on_step`` parameter of :func:`kpart.spark.pipeline.run_report`), which calls it with the next
step in kpart's words (``"reading flights.parquet"``, ``"hashing 4,043 distinct keys"``) without
knowing where it goes:

* stderr is not a terminal (CI logs, pipes): one line per step, ``kpart: <step>``, flushed at
  once, so a log never stays silent for the length of a Spark job;
* stderr is a terminal: one live line per step (spinner, elapsed time) and, while Spark runs,
  a bar of the step's Spark tasks (polled from the status tracker,
  :func:`kpart.cli._progress.snapshot`; on Spark Connect, from the progress the server sends
  with each query), labelled by the step, never by Spark's call sites;
* ``quiet``: nothing at all (no thread, no Spark call).

Library callers (tests, notebooks) pass no ``on_step`` and see no output. Nothing here imports
pyspark.

>>> import io
>>> out = io.StringIO()
>>> with phases(file=out) as steps:
...     steps.step("reading flights.parquet")
...     steps.step("hashing 4,043 distinct keys")
>>> print(out.getvalue(), end="")
kpart: reading flights.parquet
kpart: hashing 4,043 distinct keys
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any

__all__ = ["Phases", "phases"]


class Phases:
    """The reporter behind :func:`phases`: ``mode`` is ``"quiet"``, ``"lines"`` (one line per
    step on ``file``) or ``"live"`` (rich progress on ``console``)."""

    def __init__(self, mode: str, file: IO[str] | None = None, console: Any = None) -> None:
        self.mode = mode
        self.file = file
        self.steps: list[str] = []
        self._lock = threading.Lock()
        self._progress: Any = None
        self._task: Any = None
        self._stages: dict[int, tuple[int, int]] = {}
        if mode == "live":
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                SpinnerColumn,
                TextColumn,
                TimeElapsedColumn,
            )

            self._progress = Progress(
                SpinnerColumn(finished_text="✓"), TextColumn("[bold]{task.description}"),
                BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console,
                transient=False)

    def step(self, text: str) -> None:
        """Start step ``text`` (the previous one is done)."""
        with self._lock:
            self.steps.append(text)
            if self.mode == "lines":
                out = self.file if self.file is not None else sys.stderr
                out.write(f"kpart: {text}\n")
                out.flush()
            elif self.mode == "live":
                self._finish_task()
                self._stages = {}
                self._task = self._progress.add_task(text, total=None)

    def _finish_task(self) -> None:
        if self._task is None:
            return
        task = next(t for t in self._progress.tasks if t.id == self._task)
        total = task.total if task.total is not None else 1
        self._progress.update(self._task, total=total, completed=total)

    def poll(self, tracker: Any) -> None:
        """Read the Spark status tracker once: the current step's bar counts the tasks of the
        stages seen during the step (a stage that left the active list counts as done)."""
        from kpart.cli._progress import snapshot

        stages = snapshot(tracker)
        with self._lock:
            if self.mode != "live" or self._task is None:
                return
            active = {s.stage_id for s in stages}
            for sid, (total, _) in list(self._stages.items()):
                if sid not in active:
                    self._stages[sid] = (total, total)
            for s in stages:
                self._stages[s.stage_id] = (max(s.num_tasks, 1), s.num_completed_tasks)
            if self._stages:
                self._progress.update(self._task,
                                      total=sum(t for t, _ in self._stages.values()),
                                      completed=sum(c for _, c in self._stages.values()))

    @contextmanager
    def watch_spark(self, session: Any, interval: float = 0.25) -> Iterator[None]:
        """Poll ``session``'s status tracker every ``interval`` s while the body runs (live
        mode only; otherwise Spark is not touched). A Spark Connect session has no status
        tracker: its queries' progress reports update the bar instead."""
        if self.mode != "live":
            yield
            return
        if type(session).__module__.startswith("pyspark.sql.connect"):  # no SparkContext
            with _connect_progress(session, self.poll):
                yield
            return
        tracker = session.sparkContext.statusTracker()
        stop = threading.Event()

        def loop() -> None:
            while not stop.wait(interval) and self._polled(tracker):
                pass

        thread = threading.Thread(target=loop, name="kpart-phases", daemon=True)
        thread.start()
        try:
            yield
        finally:
            stop.set()
            thread.join()
            self._polled(tracker)

    def _polled(self, tracker: Any) -> bool:
        """:meth:`poll`, False when Spark cannot answer (its JVM is gone, the run is failing
        or interrupted: the run's own error tells why, not a traceback of this thread)."""
        try:
            self.poll(tracker)
        except Exception:  # noqa: BLE001 - py4j errors of a dead or stopping JVM
            return False
        return True


class _ConnectTracker:
    """The status-tracker calls :func:`kpart.cli._progress.snapshot` makes, answered from a
    Spark Connect session's progress reports (``SparkSession.registerProgressHandler``: the
    server's stages of the running query, sent with its results). Each report is also passed
    to ``on_report`` (:meth:`Phases.poll`)."""

    def __init__(self, on_report: Any = None) -> None:
        self._stages: dict[int, Any] = {}
        self.on_report = on_report

    def __call__(self, stages: Any = None, inflight_tasks: int = 0, operation_id: Any = None,
                 done: bool = False) -> None:
        self._stages = {} if done else {int(s.stage_id): s for s in stages or () if not s.done}
        if self.on_report is not None:
            self.on_report(self)

    def getActiveStageIds(self) -> list[int]:  # noqa: N802 - pyspark's StatusTracker API
        return list(self._stages)

    def getStageInfo(self, stage_id: int) -> Any:  # noqa: N802 - pyspark's StatusTracker API
        from types import SimpleNamespace

        s = self._stages.get(stage_id)
        if s is None:
            return None
        return SimpleNamespace(name=f"stage {stage_id}", numTasks=s.num_tasks,
                               numCompletedTasks=s.num_completed_tasks)


@contextmanager
def _connect_progress(session: Any, on_report: Any) -> Iterator[_ConnectTracker]:
    """Feed ``on_report`` the progress of ``session``'s queries (a Spark Connect session)."""
    tracker = _ConnectTracker(on_report)
    session.registerProgressHandler(tracker)
    try:
        yield tracker
    finally:
        session.removeProgressHandler(tracker)


@contextmanager
def phases(*, quiet: bool = False, console: Any = None,
           file: IO[str] | None = None) -> Iterator[Phases]:
    """Report :meth:`Phases.step` steps for the duration of the ``with`` body (see the module
    docstring). ``console``: a rich Console (default: stderr); ``file``: where step lines go
    when it is not a terminal (default: ``sys.stderr`` at the time of each step)."""
    if quiet:
        reporter = Phases("quiet")
    elif file is not None:
        reporter = Phases("lines", file=file)
    else:
        from rich.console import Console

        console = console if console is not None else Console(stderr=True)
        reporter = (Phases("live", console=console) if console.is_terminal
                    else Phases("lines", file=console.file if console.file is not sys.stderr
                                else None))
    if reporter.mode == "live":
        with reporter._progress:
            yield reporter  # a step a failure or Ctrl-C ended is not ticked as done
            with reporter._lock:
                reporter._finish_task()
    else:
        yield reporter
