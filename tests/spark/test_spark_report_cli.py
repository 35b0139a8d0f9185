"""``kpart report`` on the command line: bad input → one line, exit 2, no output; a real run."""

from __future__ import annotations

import json

import pyarrow.csv as pcsv
import pytest

from kpart.cli import main
from kpart.spark.datasets import flights_table
from kpart.topology import (
    DEFAULT_TOPOLOGY_TEXT,
    DEMO_TOPOLOGY_TEXT,
    default_topology,
    parse_topology,
)


@pytest.fixture(scope="module")
def small_csv(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "flights_small.csv"
    pcsv.write_csv(flights_table(3_000), path)
    return path


def _fails(capsys, args, *needles):
    code = main(["report", *args])
    err = capsys.readouterr().err
    assert code == 2
    # progress steps ("kpart: reading x.csv") may precede an error found once Spark runs
    lines = [line for line in err.strip().splitlines()
             if line.startswith(("kpart: error:", "kpart: warning:"))
             or not line.startswith("kpart: ")]
    assert len(lines) == 1, err
    for needle in needles:
        assert needle in lines[0]
    return lines[0]


def test_show_topology_prints_the_single_topic_default(capsys):
    # a single-topic option picks the flights topic alone (no option: the demo cluster)
    assert main(["report", "--key", "tailnum", "--show-topology"]) == 0
    out = capsys.readouterr().out
    assert out == DEFAULT_TOPOLOGY_TEXT
    assert parse_topology(out) == default_topology()


def test_bad_inputs_exit_2_with_one_line(capsys, tmp_path, small_csv):
    out = tmp_path / "report"
    _fails(capsys, [str(tmp_path / "nope.csv"), "--out", str(out)], "nope.csv", "does not exist")
    weird = tmp_path / "data.txt"
    weird.write_text("a,b\n1,2\n")
    _fails(capsys, [str(weird), "--out", str(out)], "data.txt", "--format")
    _fails(capsys, [str(weird), "--format", "xml", "--out", str(out)], "'xml'")
    _fails(capsys, [str(small_csv), "--key", "no_such_column", "--out", str(out)],
           "'no_such_column'", "tailnum")
    _fails(capsys, ["--key", "no_such_column", "--out", str(out)], "'no_such_column'")
    _fails(capsys, [str(small_csv), "--serializer", "float", "--out", str(out)], "'float'")
    _fails(capsys, [str(small_csv), "--out", str(out)], "--key", "tailnum")  # no key: columns
    bad = tmp_path / "bad.toml"
    bad.write_text(DEFAULT_TOPOLOGY_TEXT.replace("partitions = 12", "partitions = -3"))
    _fails(capsys, [str(small_csv), "--topology", str(bad), "--out", str(out)],
           "topic.partitions: expected a positive integer, got -3")
    _fails(capsys, [str(small_csv), "--topology", str(tmp_path / "missing.toml")], "missing.toml")
    _fails(capsys, [str(small_csv), "--key", "tailnum", "--out",
                    str(tmp_path / "no" / "such" / "dir")], "--out")
    _fails(capsys, [str(small_csv), "--whatif", "16,0", "--out", str(out)], "--whatif", "'0'")
    _fails(capsys, [str(small_csv), "--compat", "java:default,nope", "--out", str(out)],
           "--compat", "'nope'")
    _fails(capsys, [str(small_csv), "--whatif", "16", "--partitioner", "librdkafka:random",
                    "--out", str(out)], "--whatif", "ignores keys")
    afile = tmp_path / "a-file"
    afile.write_text("x")
    _fails(capsys, [str(small_csv), "--key", "tailnum", "--out", str(afile)], "not a directory")
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "bad.toml", "data.txt"]


@pytest.mark.spark
def test_serializer_mismatch_fails_without_output(spark, capsys, tmp_path, small_csv):
    topo = tmp_path / "t.toml"
    topo.write_text(DEFAULT_TOPOLOGY_TEXT.replace('key_serializer = "string"',
                                                  'key_serializer = "long"'))
    _fails(capsys, [str(small_csv), "--topology", str(topo), "--out", str(tmp_path / "r")],
           "'long'", "'tailnum'")
    assert not (tmp_path / "r").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["t.toml"]


@pytest.mark.spark
def test_report_run_writes_and_replaces_the_directory(spark, capsys, tmp_path, small_csv):
    out = tmp_path / "report"
    out.mkdir()
    (out / "stale.txt").write_text("old run")
    _fails(capsys, [str(small_csv), "--key", "tailnum", "--out", str(out)],
           "not a kpart report", "--force")
    assert (out / "stale.txt").read_text() == "old run"  # kpart did not write it: kept
    assert main(["report", str(small_csv), "--key", "tailnum", "--out", str(out), "--quiet",
                 "--force"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""
    summary = json.loads((out / "summary.json").read_text())
    # the user's data: its own topic, not the demo's (issue 24), and no demo brokers or groups
    assert summary["records"] == 3_000 and summary["topic"] == "flights_small"
    assert summary["brokers"] == [] and summary["groups"] == []
    html = (out / "report.html").read_text(encoding="utf-8")  # written beside summary.json
    assert "Records per partition" in html and "<script" in html
    assert not (out / "stale.txt").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]
    assert main(["report", str(small_csv), "--out", str(out), "--key", "dest"]) == 0
    shown = capsys.readouterr().out
    assert "Hot keys" in shown and "delay-analytics" not in shown
    assert json.loads((out / "summary.json").read_text())["key"] == "dest"
    assert main(["report", str(small_csv), "--out", str(out), "--key", "flight",
                 "--serializer", "long", "--quiet"]) == 0
    assert json.loads((out / "summary.json").read_text())["key_serializer"] == "long"
    assert spark.sparkContext._jsc is not None  # the embedding process keeps its session


def test_module_entry_for_spark_submit(capsys):
    from kpart.cli import _submit

    assert _submit.main(["--show-topology"]) == 0
    assert capsys.readouterr().out == DEMO_TOPOLOGY_TEXT
    assert _submit.main(["--key", "tailnum", "--show-topology"]) == 0
    assert capsys.readouterr().out == DEFAULT_TOPOLOGY_TEXT
    assert _submit.main(["/no/such/data.csv"]) == 2
    assert "/no/such/data.csv" in capsys.readouterr().err


@pytest.mark.spark
def test_report_adds_whatif_and_compat_sections(spark, capsys, tmp_path, small_csv):
    """``--whatif``/``--compat`` add the sections the page shows; they equal the no-Spark
    cores run on the same keys (one record per row)."""
    from kpart.producer.compat import compare_partitioners
    from kpart.producer.whatif import partition_count_whatif

    out = tmp_path / "report"
    assert main(["report", str(small_csv), "--key", "tailnum", "--out", str(out), "--whatif",
                 "16,24",
                 "--compat", "java:default,sarama:hash"]) == 0
    shown = capsys.readouterr().out
    assert "lowest skew" in shown and "sarama:hash" in shown
    summary = json.loads((out / "summary.json").read_text())
    keys = flights_table(3_000).column("tailnum").to_pylist()
    expected_whatif = partition_count_whatif(keys, 12, (16, 24), "java:default").to_json()
    expected_compat = compare_partitioners(keys, 12, ("java:default", "sarama:hash")).to_json()
    assert [s["num_partitions"] for s in summary["whatif"]["scenarios"]] == [12, 16, 24]
    for field in ("keys", "records"):
        assert summary["whatif"][field] == expected_whatif[field], field
    record_fields = ("num_partitions", "moved_fraction",
                     "moved_key_fraction")  # the report also weighs bytes, the core cannot
    for got, want in zip(summary["whatif"]["scenarios"], expected_whatif["scenarios"],
                         strict=True):
        assert {f: got[f] for f in record_fields} == {f: want[f] for f in record_fields}
    for got, want in zip(summary["whatif"]["loads"], expected_whatif["loads"], strict=True):
        assert got["keyed_records"] == want["records"]  # records placed by their key
    # the skew figures count the 4 null-key records as the report does: "now" is its own figure
    now = summary["whatif"]["scenarios"][0]
    assert summary["null_key_records"] == 4
    assert summary["whatif"]["loads"][0]["records"] == [p["records"] for p in
                                                        summary["partitions"]]
    for f in ("max_over_mean", "cv"):
        assert now[f] == summary["skew"]["partition_records"][f], f
    best = min(summary["whatif"]["scenarios"],
               key=lambda x: (x["max_over_mean"], x["cv"], x["num_partitions"]))
    assert summary["whatif"]["best"] == best["num_partitions"]
    for field in ("keys", "records", "clients", "matrix"):
        assert summary["compat"][field] == expected_compat[field], field
    html = (out / "report.html").read_text(encoding="utf-8")
    assert '<section id="whatif"' in html and '<section id="compat"' in html
