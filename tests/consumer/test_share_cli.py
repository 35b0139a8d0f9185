"""``kpart share-assign``: Kafka 4.3's share-group assignor from the command line, on golden
cases (a whole case line, its ``input`` object, one sequence round), Kafka's own failure (exit
2 naming ``java.util.NoSuchElementException``, nothing written), and the other formats."""

from __future__ import annotations

import json

import pyarrow.parquet as pq

from golden_vectors import load_golden
from kpart.cli import main

CASES = load_golden("4.3/share_assignor")


def _first(kind: str, failing: bool = False) -> dict:
    return next(c for c in CASES if c["kind"] == kind and ("error" in c["expected"]) == failing
                and (failing or not c["exact"]))


def test_a_single_case_and_its_input_print_the_expected_assignment(tmp_path, capsys):
    case = _first("single")
    for i, doc in enumerate((case, case["input"])):
        path = tmp_path / f"g{i}.json"
        path.write_text(json.dumps(doc))
        assert main(["share-assign", str(path), "--json"]) == 0
        assert json.loads(capsys.readouterr().out) == case["expected"]


def test_one_sequence_round_prints_the_round_assignment(tmp_path, capsys):
    case = next(c for c in CASES if c["kind"] == "sequence")
    rnd = case["expected"]["rounds"][-1]
    step = case["input"]["steps"][rnd["step"]]
    path = tmp_path / "round.json"
    path.write_text(json.dumps({"topics": step["topics"], "assignable": step["assignable"],
                                "members": rnd["members"]}))
    assert main(["share-assign", str(path), "--kafka-version", "4.3"]) == 0
    assert json.loads(capsys.readouterr().out) == {"assignment": rnd["assignment"]}


def test_kafkas_exception_is_an_error_naming_it_and_nothing_is_written(tmp_path, capsys):
    case = _first("single", failing=True)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(case["input"]))
    out = tmp_path / "out.json"
    assert main(["share-assign", str(path), "--json", "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith("kpart: error: java.util.NoSuchElementException in "
                          "SimpleHeterogeneousAssignmentBuilder.assignRemainingPartitions")
    assert not out.exists()


def test_table_and_parquet(tmp_path, capsys):
    doc = {"topics": [{"name": "t", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 2}],
           "assignable": {"t": [0, 1]},
           "members": [{"id": m, "topics": ["t"]} for m in ("a", "b", "c")]}
    path = tmp_path / "g.json"
    path.write_text(json.dumps(doc))
    assert main(["share-assign", str(path), "--format", "table"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # desired sharing ceil(3 / 2) = 2: four slots, member a (first in map order) takes two
    assert any(line.split("│")[1:6] == [" a      ", " -    ", " 2          ", " 2      ",
                                        " t[0,1]     "] for line in lines)
    assert main(["share-assign", str(path), "-o", str(tmp_path / "a.parquet")]) == 0
    rows = pq.read_table(tmp_path / "a.parquet").to_pylist()
    assert sorted((r["member"], r["partition"]) for r in rows) == [("a", 0), ("a", 1), ("b", 0),
                                                                ("c", 1)]
