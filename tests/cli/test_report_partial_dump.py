"""``kpart report --current`` with a partial describe dump: refused naming ``--partial``, an
option ``kpart report`` has (issue 24, 4(d)); with it, the dump is read as the existing cluster."""

from __future__ import annotations

from pathlib import Path

from kpart.cli import main
from kpart.cli._report_cluster import ClusterOptions, check_cluster_report
from kpart.topology import demo_topology

# a --under-replicated-partitions dump: partition lines without their topic's header line
PARTIAL = "\tTopic: audit\tPartition: 3\tLeader: 1\tReplicas: 1,2,0\tIsr: 1\n"


def test_a_partial_dump_is_refused_naming_an_option_report_has(tmp_path: Path, capsys) -> None:
    dump = tmp_path / "urp.txt"
    dump.write_text(PARTIAL)
    assert main(["report", "--current", str(dump), "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("kpart: error: ") and "--partial" in err[0]
    assert main(["report", "--help"]) == 0
    assert "--partial" in capsys.readouterr().out
    assert not (tmp_path / "r").exists()


def test_with_partial_the_dump_is_the_existing_cluster(tmp_path: Path) -> None:
    dump = tmp_path / "urp.txt"
    dump.write_text(PARTIAL)
    checked = check_cluster_report(demo_topology(), None, None,
                                   ClusterOptions(current=dump, partial=True))
    assert checked.existing is not None
    assert dump in checked.inputs
