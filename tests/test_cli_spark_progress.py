"""``kpart compat DATA`` / ``kpart whatif DATA`` say their steps on stderr as ``kpart report``
does (issue 10, point 17): one ``kpart: <step>`` line each when stderr is not a terminal."""

from __future__ import annotations

import pytest

from kpart.cli import main

pytestmark = pytest.mark.spark


@pytest.fixture
def csv(tmp_path):
    path = tmp_path / "keys.csv"
    path.write_text("k,v\n" + "".join(f"key-{i % 7},{i}\n" for i in range(50)))
    return path


def test_whatif_and_compat_on_spark_print_their_steps(spark, csv, capsys) -> None:
    assert main(["whatif", str(csv), "--key", "k", "-p", "4", "--to", "6,8", "--json"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err == ["kpart: using the active Spark session", "kpart: reading keys.csv",
                   "kpart: what-if: 4 → 6, 8 partitions"]
    assert main(["compat", str(csv), "--key", "k", "-p", "4", "--json",
                 "--partitioners", "java:default,sarama:hash"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[1:] == ["kpart: reading keys.csv", "kpart: comparing 2 client partitioners"]


def test_quiet_prints_no_steps(spark, csv, capsys) -> None:
    assert main(["whatif", str(csv), "--key", "k", "-p", "4", "--to", "6", "--json",
                 "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and '"whatif"' in captured.out
