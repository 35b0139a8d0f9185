"""``kpart report --out``: kpart replaces only a report it wrote, never the user's data.

No Spark: the summary comes from :func:`kpart.analysis.summary.build_summary` on given loads, and
the command-line cases fail before a Spark session would start (the session factory raises).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from kpart.analysis.summary import Loads, build_summary
from kpart.cli import main
from kpart.errors import ConfigError
from kpart.report.output import REPORT_FILES, check_report_out, is_kpart_report, write_report
from kpart.topology import default_topology


@pytest.fixture(scope="module")
def summary() -> dict:
    loads = Loads(partition_records=tuple(range(12)), partition_bytes=tuple(range(12)),
                  partition_keys=(1,) * 12, null_key_records=5, null_key_bytes=50, hot_keys=())
    return build_summary(default_topology(), loads)


def _tree(d: Path) -> dict[str, bytes]:
    return {str(p.relative_to(d)): p.read_bytes() if p.is_file() else b"<dir>"
            for p in sorted(d.rglob("*"))}


def test_summary_carries_the_marker_first(summary: dict, tmp_path: Path) -> None:
    assert list(summary)[:2] == ["format", "format_version"]
    assert summary["format"] == "kpart-report" and summary["format_version"] == 1
    out = write_report(summary, tmp_path / "r")
    assert is_kpart_report(out)
    assert sorted(p.name for p in out.iterdir()) == sorted(REPORT_FILES - {"report.html"})
    assert json.loads((out / "summary.json").read_text()) == summary


def test_a_previous_report_is_replaced_whole(summary: dict, tmp_path: Path) -> None:
    out = write_report(summary, tmp_path / "r")
    first = _tree(out)
    other = {**summary, "topic": "other"}
    write_report(other, out)
    assert json.loads((out / "summary.json").read_text())["topic"] == "other"
    assert _tree(out) != first
    assert os.listdir(tmp_path) == ["r"]  # no temporary, no swapped-aside directory left


def test_a_directory_kpart_did_not_write_is_refused_unless_forced(summary: dict,
                                                                    tmp_path: Path) -> None:
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "notes.txt").write_text("mine")
    (precious / "summary.json").write_text('{"format": "something else"}')
    before = _tree(tmp_path)
    # the library names its parameters (the command line names --out and --force: below)
    with pytest.raises(ConfigError, match=r"^out_dir: '.*precious' exists and is not a kpart "
                                          r"report .* pass force to"):
        write_report(summary, precious)
    assert _tree(tmp_path) == before
    write_report(summary, precious, force=True)
    assert is_kpart_report(precious) and not (precious / "notes.txt").exists()


def test_a_report_holding_a_users_file_is_refused_unless_forced(summary: dict,
                                                                  tmp_path: Path) -> None:
    out = write_report(summary, tmp_path / "r")
    (out / ".summary.json.kpart-1-0badc0de.tmp").write_text("{")  # a killed whatif --out
    write_report(summary, out)  # kpart's own temporaries are not the user's files
    (out / "notes.txt").write_text("mine")
    with pytest.raises(ConfigError, match="also holds 'notes.txt', which kpart did not write"):
        write_report(summary, out)
    assert (out / "notes.txt").read_text() == "mine"
    write_report(summary, out, force=True)
    assert not (out / "notes.txt").exists()


@pytest.mark.parametrize("force", [False, True])
def test_never_the_working_directory_an_input_or_their_parents(
        summary: dict, tmp_path: Path, monkeypatch, force: bool) -> None:
    data = tmp_path / "mydata"
    data.mkdir()
    (data / "events.csv").write_text("user_key\nu1\n")
    pq_dir = tmp_path / "table.parquet"
    pq_dir.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    before = _tree(tmp_path)
    inputs = [data / "events.csv", pq_dir]
    for out, why in [
        (".", "working directory"), ("..", "working directory"), (str(work), "working directory"),
        ("/", "working directory"), (str(data), "holds the input"),
        (str(data / "events.csv"), "it is the input"), (str(pq_dir / "sub"), "inside the input"),
        (str(pq_dir), "it is the input"), ("../mydata/.", "holds the input"),
    ]:
        with pytest.raises(ConfigError, match=why):
            check_report_out(out, inputs, force=force)
        with pytest.raises(ConfigError, match=why):
            write_report(summary, out, force=force, inputs=inputs)
    assert _tree(tmp_path) == before


def test_missing_unwritable_or_file_parent(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    with pytest.raises(ConfigError, match="directory '.*no/such' does not exist"):
        check_report_out(tmp_path / "no" / "such" / "r")
    with pytest.raises(ConfigError, match="'.*afile' is not a directory"):
        check_report_out(tmp_path / "afile" / "r")
    with pytest.raises(ConfigError, match="exists and is not a directory"):
        check_report_out(tmp_path / "afile")
    if os.path.isdir("/sys/kernel"):
        with pytest.raises(ConfigError, match="permission denied"):
            check_report_out("/sys/kpart-report")
    assert os.listdir(tmp_path) == ["afile"]


@pytest.fixture
def no_spark(monkeypatch):
    import kpart.spark.session as session

    def refuse(*args, **kwargs):
        raise AssertionError("Spark started before --out was checked")

    monkeypatch.setattr(session, "get_or_create_session", refuse)


@pytest.mark.parametrize("out", [".", "..", "mydata", "precious", "mydata/events.csv"])
def test_cli_refuses_before_spark_and_deletes_nothing(tmp_path: Path, monkeypatch, capsys,
                                                      no_spark, out: str) -> None:
    (tmp_path / "mydata").mkdir()
    (tmp_path / "mydata" / "events.csv").write_text("user_key,v\nu1,1\n")
    (tmp_path / "precious").mkdir()
    (tmp_path / "precious" / "notes.txt").write_text("mine")
    monkeypatch.chdir(tmp_path)
    before = _tree(tmp_path)
    assert main(["report", "mydata/events.csv", "--key", "user_key", "--out", out]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("kpart: error: --out: ") and repr(out) in err[0]
    assert _tree(tmp_path) == before
    if out != "precious":
        assert main(["report", "mydata/events.csv", "--key", "user_key", "--out", out,
                     "--force"]) == 2
        assert _tree(tmp_path) == before
