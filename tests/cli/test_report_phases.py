"""kpart's steps during long work (issue 10, point 17): one ``kpart: <step>`` line per step off a
terminal, nothing with ``--quiet``, live bars labelled by kpart's step (not Spark call sites) on
a terminal; the numba kernels are cached so a second process compiles nothing."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap

import pytest
from rich.console import Console
from test_report_progress import FakeContext, FakeSession, FakeStageInfo, FakeTracker

from kpart.cli._phases import phases
from kpart.errors import KpartWarning


def test_off_a_terminal_each_step_is_one_line(capsys) -> None:
    with phases() as steps:  # pytest's stderr is not a terminal
        steps.step("reading flights.parquet")
        steps.step("hashing 4,043 distinct keys")
        with steps.watch_spark(FakeSession(FakeContext(FakeTracker()))):
            steps.step("placing replicas")
    err = capsys.readouterr().err
    assert err.splitlines() == ["kpart: reading flights.parquet",
                                "kpart: hashing 4,043 distinct keys", "kpart: placing replicas"]


def test_quiet_prints_nothing_and_never_touches_spark(capsys) -> None:
    session = FakeSession(FakeContext(FakeTracker({0: FakeStageInfo("collect at x.py:1", 1)})))
    with phases(quiet=True) as steps, steps.watch_spark(session):
        steps.step("reading flights.parquet")
    assert capsys.readouterr() == ("", "")
    assert session.sparkContext.calls == 0


def test_library_callers_see_nothing(capsys) -> None:
    """Without ``on_step`` (a library caller), the report's steps print nothing."""
    from kpart.spark.inputs import InputSpec
    from kpart.spark.pipeline import run_report
    from kpart.topology import default_topology

    spec = InputSpec(None, "csv", {"path": "empty.csv"}, "tailnum", records=0)
    with pytest.warns(KpartWarning):
        run_report(None, default_topology().with_topic(placement_seed=1), spec)
    assert capsys.readouterr() == ("", "")


def test_on_a_terminal_the_bar_is_labelled_by_the_step_not_the_call_site() -> None:
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=120, color_system=None)
    tracker = FakeTracker({4: FakeStageInfo("collect at /x/pipeline.py:171", 8, 3)})
    session = FakeSession(FakeContext(tracker))
    with phases(console=console) as steps:
        assert steps.mode == "live"
        steps.step("hashing 4,043 distinct keys")
        with steps.watch_spark(session, interval=0.01):
            steps.poll(session.sparkContext.tracker)
            task = steps._progress.tasks[-1]
            assert (task.description, task.completed, task.total) == (
                "hashing 4,043 distinct keys", 3, 8)
            tracker.stages = {5: FakeStageInfo("toArrow at /x/whatif.py:99", 2, 0)}
            steps.poll(tracker)  # stage 4 left: done; stage 5 counts in the same step
            assert (task.completed, task.total) == (8, 10)
        steps.step("placing replicas")
    out = buf.getvalue()
    assert "hashing 4,043 distinct keys" in out and "placing replicas" in out
    assert "pipeline.py" not in out and "collect at" not in out and "stage" not in out


def test_a_second_process_does_not_recompile_the_kernels(tmp_path) -> None:
    """The numba kernels are ``cache=True``: the first process compiles and writes the cache,
    the next one loads it (numba's own hit/miss counters, per kernel)."""
    script = textwrap.dedent("""
        import json
        import pyarrow as pa
        from kpart.producer import _client_kernels as k
        from kpart.producer.kernels import partition_for_keys
        partition_for_keys(pa.array(["a", "bb", None]), 12, "java:default")
        partition_for_keys(pa.array(["a", "bb"]), 12, "librdkafka:consistent")
        stats = {name: [sum(f.stats.cache_hits.values()), sum(f.stats.cache_misses.values())]
                 for name, f in vars(k).items() if getattr(f, "stats", None) is not None}
        print(json.dumps({n: s for n, s in stats.items() if any(s)}))
    """)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}

    def run() -> dict[str, list[int]]:
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                              text=True, check=True)
        return json.loads(done.stdout)

    first, second = run(), run()
    assert set(first) == set(second) == {"murmur2_partitions", "crc32_partitions"}
    assert all(misses > 0 for _, misses in first.values())  # compiled (cold cache dir)
    assert any((tmp_path / "numba").rglob("*.nbi"))
    assert all(hits > 0 and misses == 0 for hits, misses in second.values()), second
