"""Reading a dataset without Spark (:mod:`kpart.spark.datasets`, issue 11 points 6 and 9): one
way to list its files, and errors about the library's parameters (``path``, ``fmt``, ``key``)
that the command line words with its own names (``DATA``, ``--format``, ``--key``)."""

from __future__ import annotations

import pytest

from kpart.cli import main
from kpart.errors import ConfigError
from kpart.spark.datasets import (
    data_files,
    dataset_columns,
    detect_format,
    has_records,
    key_type,
    sample_keys,
)


def test_a_directory_lists_its_data_files_only(tmp_path):
    for name in ("b.jsonl", "a.jsonl", "_SUCCESS", ".a.jsonl.crc"):
        (tmp_path / name).write_text('{"k": "x"}\n')
    (tmp_path / "sub").mkdir()
    assert [p.name for p in data_files(tmp_path)] == ["a.jsonl", "b.jsonl"]
    assert data_files(tmp_path / "a.jsonl") == [tmp_path / "a.jsonl"]
    assert dataset_columns(tmp_path, "json") == ["k"]
    assert key_type(tmp_path, "json", "k") == "string"
    assert sample_keys(tmp_path, "json", "k") == ["x"]


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_an_empty_directory_is_named_by_every_reader(tmp_path, fmt):
    for read in (dataset_columns, lambda p, f: key_type(p, f, "k")):
        with pytest.raises(ConfigError, match="^path: directory .* holds no data files$") as e:
            read(tmp_path, fmt)
        assert e.value.parameter == "path"
    assert has_records(tmp_path, fmt) is False
    assert sample_keys(tmp_path, fmt, "k") == []


def test_library_errors_name_parameters(tmp_path):
    with pytest.raises(ConfigError, match="^fmt: unknown format 'xml'") as e:
        detect_format("x.csv", "xml")
    assert e.value.parameter == "fmt"
    with pytest.raises(ConfigError, match="^path: cannot tell the format of 'x.dat' from its "
                                          r"name; pass fmt \(") as e:
        detect_format("x.dat")
    assert (e.value.parameter, e.value.mentions) == ("path", ("fmt",))
    with pytest.raises(ConfigError, match=r"^path: '.*nope.csv' does not exist$"):
        dataset_columns(tmp_path / "nope.csv", "csv")
    bad = tmp_path / "bad.jsonl"
    bad.write_text("[1]\n")
    with pytest.raises(ConfigError, match="the first JSON line is not an object$"):
        key_type(bad, "json", "k")
    bad.write_text("{nope\n")
    with pytest.raises(ConfigError, match=r"^path: cannot read .* as json: ") as e:
        dataset_columns(bad, "json")
    assert e.value.parameter == "path"
    good = tmp_path / "k.csv"
    good.write_text("k\n1\n")
    with pytest.raises(ConfigError, match=r"^key: column 'x' not found \(columns: k\)$"):
        key_type(good, "csv", "x")


def test_the_command_line_names_its_own_flags(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "e.csv").write_text("k\n1\n")
    (tmp_path / "x.dat").write_text("k\n1\n")
    (tmp_path / "empty").mkdir()
    for argv, line in [
        (["e.csv", "--format", "xml"],
         "--format: unknown format 'xml' (expected one of parquet, csv, json)"),
        (["x.dat"], "DATA: cannot tell the format of 'x.dat' from its name; pass --format "
                    "(parquet, csv, json)"),
        (["empty", "--format", "csv"], "DATA: directory 'empty' holds no data files"),
        (["nope.csv"], "DATA: 'nope.csv' does not exist"),
        (["e.csv", "--key", "d..x"], "--key: 'd..x' has an empty field name"),
    ]:
        assert main(["compat", *argv, "-p", "3", *([] if "--key" in argv else ["--key", "k"])]
                    ) == 2
        assert capsys.readouterr().err.strip() == f"kpart: error: {line}"


def test_resolve_input_names_its_parameters_and_the_cli_its_flags(tmp_path, capsys):
    from kpart.spark.inputs import resolve_input
    from kpart.spark.key_loads import measure_loads

    f = tmp_path / "events.csv"
    f.write_text("user,n\nu1,1\n")
    for call, parameter in ((lambda: resolve_input(tmp_path / "nope.csv", None, "user"), "data"),
                            (lambda: resolve_input(f, None, "missing"), "key"),
                            (lambda: measure_loads(None, None, invalid_keys="skip"),
                             "invalid_keys")):
        with pytest.raises(ConfigError, match=f"^{parameter}: ") as e:
            call()
        assert e.value.parameter == parameter
    assert main(["report", str(tmp_path / "nope.csv"), "--out", str(tmp_path / "r")]) == 2
    assert capsys.readouterr().err.startswith("kpart: error: DATA: ")
    assert main(["report", str(f), "--key", "missing", "--out", str(tmp_path / "r")]) == 2
    assert capsys.readouterr().err.startswith("kpart: error: --key: column 'missing' not found")
