"""``kpart streams-assign``: golden cases through the command line (a whole single case, its
``input``, one sequence round), ``--out``, the table, and the library's versions and errors."""

from __future__ import annotations

import json

import pytest

from golden_vectors import load_golden
from kpart.cli import main
from kpart.consumer.streams import StreamsGroupSpec, assign
from kpart.errors import ConfigError

CASES = load_golden("4.3/streams_assignor")
SINGLES = [c for c in CASES if c["kind"] == "single"]
SEQUENCES = [c for c in CASES if c["kind"] == "sequence"]


@pytest.mark.parametrize("whole", [True, False], ids=["case", "input"])
def test_every_single_case_through_the_cli(tmp_path, capsys, whole: bool) -> None:
    for case in SINGLES:
        path = tmp_path / "case.json"
        path.write_text(json.dumps(case if whole else case["input"]), encoding="utf-8")
        assert main(["streams-assign", str(path), "--json"]) == 0
        assert json.loads(capsys.readouterr().out) == case["expected"], case["id"]


def test_a_sequence_round_through_the_cli(tmp_path, capsys) -> None:
    case = SEQUENCES[0]
    for rnd in case["expected"]["rounds"]:
        step = case["input"]["steps"][rnd["step"]]
        doc = {"subtopologies": step["subtopologies"],
               "num_standby_replicas": step["num_standby_replicas"], "members": rnd["members"]}
        path = tmp_path / "round.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        assert main(["streams-assign", str(path), "--json", "--kafka-version", "4.3.1"]) == 0
        assert json.loads(capsys.readouterr().out) == {"assignment": rnd["assignment"]}


def test_out_writes_the_json_and_prints_nothing(tmp_path, capsys) -> None:
    case = SINGLES[0]
    src, out = tmp_path / "g.json", tmp_path / "out.json"
    src.write_text(json.dumps(case["input"]), encoding="utf-8")
    assert main(["streams-assign", str(src), "--json", "--out", str(out)]) == 0
    assert capsys.readouterr().out == ""
    assert json.loads(out.read_text(encoding="utf-8")) == case["expected"]


def test_the_table_shows_members_processes_and_tasks(tmp_path, capsys) -> None:
    src = tmp_path / "g.json"
    src.write_text(json.dumps({
        "subtopologies": [{"id": "0", "tasks": 2, "stateful": True}],
        "num_standby_replicas": 1,
        "members": [{"id": "a", "process_id": "p1"}, {"id": "b", "process_id": "p2"}]}),
        encoding="utf-8")
    assert main(["streams-assign", str(src)]) == 0
    lines = [line.split("│")[1:-1] for line in capsys.readouterr().out.splitlines()
             if line.startswith("│")]
    assert [[c.strip() for c in row] for row in lines] == [
        ["a", "p1", "0:0", "0:1"], ["b", "p2", "0:1", "0:0"]]


def _spec(**over) -> StreamsGroupSpec:
    doc = {"subtopologies": [{"id": "0", "tasks": 2, "stateful": True}],
           "num_standby_replicas": 1,
           "members": [{"id": "a", "process_id": "p1"}, {"id": "b", "process_id": "p1"}]}
    return StreamsGroupSpec.from_json({**doc, **over})


@pytest.mark.parametrize(("version", "match"), [
    ("4.0.1", "does not exist in kafka_version '4.0.1'"),
    ("4.1", "not known to kpart for kafka_version '4.1'"),
    ("4.1.2", "not known to kpart for kafka_version '4.1.2'"),
    ("4.4", "not known to kpart for kafka_version '4.4'"),
])
def test_versions_without_the_modelled_assignor_are_errors(version: str, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        assign(_spec(), version)


def test_one_process_never_holds_two_copies_of_a_task() -> None:
    # two members of one process: standbys cannot go to the process holding the active task
    result = assign(_spec())
    assert all(a.standby == () for _, a in result.members)
    assert sorted(p for _, a in result.members for _, ps in a.active for p in ps) == [0, 1]


def test_an_empty_group_gets_an_empty_assignment() -> None:
    assert assign(_spec(members=[])).to_json() == {"assignment": {}}


def test_stale_tasks_are_listed_and_ignored() -> None:
    spec = _spec(members=[{"id": "a", "process_id": "p1", "active": {"0": [5], "x": [0]}}])
    assert spec.stale_tasks() == [("a", "active", "0", 5), ("a", "active", "x", 0)]
    assert assign(spec).to_json() == {"assignment": {"a": {"active": {"0": [0, 1]},
                                                           "standby": {}}}}
