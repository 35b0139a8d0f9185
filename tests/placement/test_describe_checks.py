"""``--describe`` text Kafka never prints but kpart still reads: one warning each (issue 10,
point 11): a leader that is not one of its replicas, a ``PartitionCount`` that disagrees with
the partition lines. The parsed assignment is the text's, unchanged."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from kpart.cli import main
from kpart.errors import KpartWarning
from kpart.placement.formats import format_describe, parse_describe, parse_describe_partitions

HEADER = "Topic: t\tPartitionCount: {n}\tReplicationFactor: 2\tConfigs: \n"
ROW = "\tTopic: t\tPartition: {p}\tLeader: {leader}\tReplicas: {r}\tIsr: {r}\n"


def _text(n: int, rows: list[tuple[int, str, str]]) -> str:
    return HEADER.format(n=n) + "".join(ROW.format(p=p, leader=ld, r=r) for p, ld, r in rows)


def test_kafkas_own_output_does_not_warn() -> None:
    text = format_describe({0: (2, 0, 1), 1: (0, 1, 2), 2: (1, 2, 0)}, "t", elr=True)
    text += "\tTopic: t\tPartition: 3\tLeader: none\tReplicas: 1,2\tIsr: \n"  # offline
    text = text.replace("PartitionCount: 3", "PartitionCount: 4")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(parse_describe_partitions(text)) == 4


@pytest.mark.parametrize(("text", "named"), [
    (_text(2, [(0, "5", "1,2"), (1, "2", "2,1")]), "the leader 5 of partition t-0"),
    (_text(3, [(0, "1", "1,2"), (1, "2", "2,1")]), "has PartitionCount 3 but 2 partition lines"),
    (_text(1, [(0, "1", "1,2"), (1, "2", "2,1")]), "has PartitionCount 1 but 2 partition lines"),
])
def test_inconsistent_describe_text_warns_and_parses_as_written(text: str, named: str) -> None:
    with pytest.warns(KpartWarning, match=named) as caught:
        parsed = parse_describe(text, partial=True)  # PartitionCount 3: refused without it
    assert len(caught) == 1 and caught[0].filename == __file__
    rows = [line.split("\t") for line in text.splitlines()[1:]]
    assert parsed == {"t": {int(r[2].split(": ")[1]): tuple(int(b) for b in r[4].split(": ")[1]
                                                             .split(",")) for r in rows}}


def test_cli_describe_prints_the_warning_and_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    current = tmp_path / "current.txt"
    current.write_text(_text(2, [(0, "5", "1,2"), (1, "2", "2,1")]))
    assert main(["describe", "--current", str(current), "--json"]) == 0
    out = capsys.readouterr()
    assert out.err.splitlines() == [
        "kpart: warning: line 2: the leader 5 of partition t-0 is not one of its replicas 1,2"]
    assert json.loads(out.out)["partitions"] == 2
