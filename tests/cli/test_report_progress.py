"""Progress helpers: quiet / non-TTY print nothing; Spark stages are read from a fake status tracker."""

from __future__ import annotations

import io
import sys
from dataclasses import dataclass, field

from rich.console import Console

from kpart.cli._progress import busy, snapshot, task_progress, track


@dataclass
class FakeStageInfo:
    name: str
    numTasks: int  # noqa: N815 - pyspark's StageInfo field names
    numCompletedTasks: int = 0  # noqa: N815
    numActiveTasks: int = 0  # noqa: N815
    numFailedTasks: int = 0  # noqa: N815


@dataclass
class FakeTracker:
    """In-memory stand-in for pyspark's StatusTracker (only the two calls used)."""

    stages: dict[int, FakeStageInfo] = field(default_factory=dict)
    vanished: set[int] = field(default_factory=set)  # listed as active, info already gone

    def getActiveStageIds(self) -> list[int]:  # noqa: N802
        return sorted([*self.stages, *self.vanished], reverse=True)

    def getStageInfo(self, stage_id: int) -> FakeStageInfo | None:  # noqa: N802
        return self.stages.get(stage_id)


@dataclass
class FakeContext:
    tracker: FakeTracker
    calls: int = 0

    def statusTracker(self) -> FakeTracker:  # noqa: N802
        self.calls += 1
        return self.tracker


@dataclass
class FakeSession:
    sparkContext: FakeContext  # noqa: N815


def tty_console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, force_terminal=True, width=100, color_system=None), buf


def plain_console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, force_terminal=False, width=100), buf


def test_snapshot_sorted_skips_vanished_stages() -> None:
    tracker = FakeTracker(
        {3: FakeStageInfo("count at x", 8, 5, 2, 1), 1: FakeStageInfo("", 4, 4)}, vanished={2}
    )
    got = snapshot(tracker)
    assert [s.stage_id for s in got] == [1, 3]
    assert got[0].name == "stage 1"
    assert (got[1].num_tasks, got[1].num_completed_tasks, got[1].num_failed_tasks) == (8, 5, 1)


def test_default_console_is_stderr_and_pytest_capture_is_not_a_tty(capsys) -> None:
    with task_progress(3, "plan") as advance:
        advance(3)
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""
    assert not sys.stderr.isatty()


def test_task_progress_and_track() -> None:
    console, buf = tty_console()
    assert list(track(range(5), "assign", console=console)) == [0, 1, 2, 3, 4]
    assert "assign" in buf.getvalue() and "5/5" in buf.getvalue()
    console, buf = plain_console()
    seen = list(track(iter("abc"), "quiet loop", console=console))
    assert seen == ["a", "b", "c"] and buf.getvalue() == ""
    console, buf = tty_console()
    with task_progress(10, "plan", quiet=True, console=console) as advance:
        advance(10)
    assert buf.getvalue() == ""


def test_busy_spinner_only_on_a_terminal() -> None:
    console, buf = tty_console()
    with busy("sticky: 1,000,000 partitions", console=console):
        console.print("working")  # printed above the live spinner
    assert "working" in buf.getvalue() and "1,000,000 partitions" in buf.getvalue()
    for quiet, (console, buf) in ((False, plain_console()), (True, tty_console())):
        with busy("plan", quiet=quiet, console=console):
            pass
        assert buf.getvalue() == ""


def test_rebalance_reports_each_step_through_on_step() -> None:
    from kpart.consumer.rebalance import compare

    ticks: list[int] = []
    scenario = {"topics": {"t": 2}, "steps": [{"join": [{"id": "a", "topics": ["t"]}]},
                                             {"join": [{"id": "b", "topics": ["t"]}]},
                                             {"leave": ["a"]}]}
    sims = compare(scenario, ["range", "cooperative-sticky"], on_step=lambda: ticks.append(1))
    assert len(ticks) == 2 * 3 and set(sims) == {"range", "cooperative-sticky"}


def test_progress_module_does_not_import_pyspark() -> None:
    import subprocess

    code = (
        "import sys, kpart.cli._progress, kpart.report.html; "
        "print('pyspark' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
