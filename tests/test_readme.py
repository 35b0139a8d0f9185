"""The README as a new user reads it: its first lines are the two commands ``make demo`` /
``make test``, it says where ``make demo`` installs the ``kpart`` command, and every command of
its tour runs as written from the repository root (here: a fresh directory that sees the
repository's ``docs/``), exit code 0.

The tour's ``kpart report`` on the full flights data (no DATA argument) is checked up to the
start of Spark (every argument accepted, nothing written); the tour's Spark commands on the
small sample (``docs/examples/flights-sample.csv``) run in full on the shared session.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from kpart.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(text: str) -> list[tuple[str, list[str]]]:
    return [(m.group(1), m.group(2).splitlines())
            for m in re.finditer(r"^```(\w*)\n(.*?)^```$", text, re.S | re.M)]


def _tour() -> list[list[str]]:
    section = README[README.index("## A short tour"):]
    lang, lines = next(b for b in _blocks(section))
    assert lang == "sh"
    commands = [shlex.split(line, comments=True) for line in lines if line.strip()]
    assert all(argv[0] == "kpart" for argv in commands), commands
    return [argv[1:] for argv in commands]


TOUR = _tour()


def _needs_spark(argv: list[str]) -> bool:
    return argv[0] == "report" or (argv[0] in ("compat", "whatif") and "--keys" not in argv)


def _full_flights(argv: list[str]) -> bool:
    return argv[0] == "report" and not any(a.endswith((".csv", ".parquet")) for a in argv)


def _run(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue() + err.getvalue()


@pytest.fixture
def user_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "docs").symlink_to(ROOT / "docs")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "120")
    return tmp_path


def test_first_lines_are_make_demo_and_make_test() -> None:
    lines = README.splitlines()
    assert lines[0] == "# kpart" and lines[1] == "" and lines[2] == "```" and lines[5] == "```"
    assert [line.split()[:2] for line in lines[3:5]] == [["make", "demo"], ["make", "test"]]


def test_readme_says_where_make_demo_installs_kpart() -> None:
    assert ".venv/bin/kpart" in README and "source .venv/bin/activate" in README
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^VENV\s*:=\s*\.venv$", makefile, re.M)
    assert re.search(r"^demo: install\n\t\$\(BIN\)/kpart report", makefile, re.M)


def test_tour_covers_the_commands() -> None:
    assert {argv[0] for argv in TOUR} >= {"partition", "partitioners", "compat", "simulate",
                                           "place", "plan", "assign", "rebalance", "report",
                                           "whatif"}


@pytest.mark.parametrize("argv", [a for a in TOUR if not _needs_spark(a)],
                         ids=lambda a: " ".join(a)[:60])
def test_tour_command_runs(argv: list[str], user_dir: Path) -> None:
    code, output = _run(argv)
    assert code == 0, output
    assert output.strip()
    for i, a in enumerate(argv):
        if a in ("--out", "-o"):
            assert (user_dir / argv[i + 1]).exists()


class _SparkWouldStart(Exception):
    pass


@pytest.mark.parametrize("argv", [a for a in TOUR if _full_flights(a)],
                         ids=lambda a: " ".join(a)[:60])
def test_tour_report_on_the_full_flights_is_accepted(argv: list[str], user_dir: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import kpart.spark.session as session

    def refuse(*args: object, **kwargs: object) -> None:
        raise _SparkWouldStart

    monkeypatch.setattr(session, "get_or_create_session", refuse)
    monkeypatch.setattr(session, "has_active_session", lambda: False)
    with pytest.raises(_SparkWouldStart):  # every argument checked, Spark next
        _run(argv)
    assert [p.name for p in user_dir.iterdir()] == ["docs"]


@pytest.mark.spark
@pytest.mark.parametrize("argv", [a for a in TOUR if _needs_spark(a) and not _full_flights(a)],
                         ids=lambda a: " ".join(a)[:60])
def test_tour_spark_command_runs_on_the_sample(argv: list[str], user_dir: Path,
                                               spark: object) -> None:
    code, output = _run(argv)
    assert code == 0, output
    if argv[0] == "report":
        out = argv[argv.index("--out") + 1]
        assert (user_dir / out / "summary.json").is_file()
        assert (user_dir / out / "report.html").is_file()


def test_python_example_runs() -> None:
    lang, body = next(b for b in _blocks(README) if b[0] == "python")
    namespace: dict[str, object] = {}
    for line in body:
        code = line.split("#")[0].strip()
        if code.startswith("import"):
            exec(code, namespace)
        elif code:
            value = eval(code, namespace)
            if "partition_for_key" in code:
                assert value == 0
