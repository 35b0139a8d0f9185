"""``kpart report`` on one's own data without writing TOML (issue 10, points 15–17): topology
options, a topology without groups, what was analysed, the steps on stderr, and a ``--quiet``
run that prints nothing at all (not even the JVM's start-up warning)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pyarrow.csv as pcsv
import pytest

from kpart.cli import main
from kpart.spark.datasets import flights_table

_NO_GROUPS = """\
[cluster]
brokers = [{ id = 0 }, { id = 1 }]

[topic]
name = "flights"
partitions = 3
replication_factor = 1
key = "tailnum"
placement_seed = 1
"""


@pytest.fixture(scope="module")
def small_csv(tmp_path_factory):
    path = tmp_path_factory.mktemp("opts") / "flights_small.csv"
    pcsv.write_csv(flights_table(2_000), path)
    return path


@pytest.mark.spark
def test_topology_options_without_groups_and_the_steps(spark, capfd, tmp_path, small_csv,
                                                      monkeypatch):
    monkeypatch.setenv("COLUMNS", "300")  # the input's whole path fits in the Analysed table
    topo = tmp_path / "nogroups.toml"
    topo.write_text(_NO_GROUPS)
    out = tmp_path / "report"
    assert main(["report", str(small_csv), "--topology", str(topo), "--out", str(out),
                 "--topic", "orders", "-p", "6", "--replication-factor", "2",
                 "--brokers", "4,5,6", "--racks", "a,b,a", "--whatif", "8"]) == 0
    shown, err = capfd.readouterr()
    s = json.loads((out / "summary.json").read_text())
    assert (s["topic"], s["num_partitions"], s["replication_factor"]) == ("orders", 6, 2)
    assert [b["broker"] for b in s["brokers"]] == [4, 5, 6]
    assert [r["rack"] for r in s["racks"]] == ["a", "b"]
    assert all(len(p["replicas"]) == 2 for p in s["partitions"]) and s["groups"] == []
    a = s["analysed"]
    assert (a["input"], a["format"], a["records"], a["key"]) == (str(small_csv), "csv", 2_000,
                                                                "tailnum")
    assert (a["partitions"], a["replication_factor"], a["brokers"], a["racks"]) == (
        6, 2, [4, 5, 6], ["a", "b"])
    assert a["time"].endswith("Z") and a["kpart_version"]
    page = (out / "report.html").read_text(encoding="utf-8")
    assert '<section id="consumers"' not in page and 'id="table-analysed"' in page
    assert "Group " not in shown and "Analysed" in shown and str(small_csv) in shown
    # the what-if's "now" is the report's own figure, and "best" never worse
    now = s["whatif"]["scenarios"][0]
    assert now["max_over_mean"] == s["skew"]["partition_records"]["max_over_mean"]
    best = next(x for x in s["whatif"]["scenarios"] if x["num_partitions"] == s["whatif"]["best"])
    assert best["max_over_mean"] <= now["max_over_mean"]
    # one line per step on a non-TTY stderr, in order, with kpart's numbers
    steps = [line for line in err.splitlines() if line.startswith("kpart: ")]
    assert steps == [
        "kpart: using the active Spark session",
        f"kpart: reading {small_csv.name}",
        f"kpart: hashing {s['distinct_keys']:,} distinct keys",
        "kpart: what-if: 1 other partition count(s)",
        "kpart: placing replicas",
        f"kpart: writing {out}/",
    ], err


@pytest.mark.spark
def test_quiet_run_prints_nothing_not_even_the_jvm_warning(tmp_path, small_csv):
    """A fresh process starts its own JVM (whose launcher prints "WARNING: Using incubator
    modules: jdk.incubator.vector" on stderr): with --quiet, stdout and stderr stay empty."""
    out = tmp_path / "r"
    done = subprocess.run(
        [sys.executable, "-m", "kpart.cli", "report", str(small_csv), "--key", "tailnum",
         "--out", str(out), "--quiet", "--master", "local[1]"],
        capture_output=True, text=True, env=os.environ, timeout=900,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and done.stderr == "", done.stderr
    assert json.loads((out / "summary.json").read_text())["records"] == 2_000
