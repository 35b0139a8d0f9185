"""`kpart server-assign`: the KIP-848 assignors from the command line, on golden cases."""

import json

import pytest

from golden_vectors import load_golden
from kpart.cli import main


@pytest.mark.parametrize(("name", "assignor", "version"), [
    ("uniform_assignor", "uniform", ["--kafka-version", "4.0.0"]),
    ("server_range", "range", ["--kafka-version", "4.0.0"]),
    ("4.3/uniform_assignor", "uniform", ["--kafka-version", "4.3"]),
    ("4.3/uniform_assignor", "uniform", []),  # the default: the newest release
])
def test_server_assign_cli_reproduces_golden_single(tmp_path, capsys, name, assignor, version):
    # the first single case that KAFKA-18688 changed (all of them for server_range)
    case = next(c for c in load_golden(name) if c["kind"] == "single"
                and "assignment" in c["expected"] and c.get("differs_from_1eb7644", True))
    path = tmp_path / "group.json"
    path.write_text(json.dumps(case["input"]))
    assert main(["server-assign", str(path), "--assignor", assignor, *version]) == 0
    assert json.loads(capsys.readouterr().out) == case["expected"]


THREE = {"topics": [{"name": "t", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 3}],
         "members": [{"id": "m1", "topics": ["t"]}, {"id": "m2", "topics": ["t"]}]}
STICKY = {"topics": [{"name": "t", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 5}],
          "members": [{"id": "A", "topics": ["t"], "assignment": [["t", [0, 3]]]},
                      {"id": "B", "topics": ["t"], "assignment": [["t", [1]]]},
                      {"id": "C", "topics": ["t"], "assignment": [["t", [2, 4]]]}]}


@pytest.mark.parametrize(("doc", "version", "expected"), [
    (THREE, [], {"m1": {"t": [0]}, "m2": {"t": [1, 2]}}),
    (THREE, ["--kafka-version", "4.3"], {"m1": {"t": [0]}, "m2": {"t": [1, 2]}}),
    (THREE, ["--kafka-version", "4.0.1"], {"m1": {"t": [0]}, "m2": {"t": [1, 2]}}),
    (THREE, ["--kafka-version", "4.0.0"], {"m1": {"t": [0, 1]}, "m2": {"t": [2]}}),
    # PR #19677's testReassignmentStickinessWhenAlreadyBalanced: 4.0.1+ moves nothing,
    # 4.0.0 moves partition 4 from C to B.
    (STICKY, [], {"A": {"t": [0, 3]}, "B": {"t": [1]}, "C": {"t": [2, 4]}}),
    (STICKY, ["--kafka-version", "4.0.0"], {"A": {"t": [0, 3]}, "B": {"t": [1, 4]}, "C": {"t": [2]}}),
])
def test_server_assign_kafka_version(tmp_path, capsys, doc, version, expected):
    path = tmp_path / "group.json"
    path.write_text(json.dumps(doc))
    assert main(["server-assign", str(path), *version]) == 0
    assert json.loads(capsys.readouterr().out) == {"assignment": expected}


@pytest.mark.parametrize(("version", "names"), [
    ("4.x", "Invalid --kafka-version '4.x'"), ("04.1", "'04.1'"), ("4.3.0.0", "'4.3.0.0'"),
    ("5.0", "Unknown --kafka-version '5.0'"), ("3.6", "does not exist in --kafka-version '3.6'"),
    ("3.8", "not known to kpart for --kafka-version '3.8'"),
    ("4.0", "--kafka-version '4.0' is ambiguous"),
])
def test_server_assign_bad_kafka_version_is_one_line_exit_2(tmp_path, capsys, version, names):
    path = tmp_path / "group.json"
    path.write_text(json.dumps(THREE))
    out = tmp_path / "out.json"
    assert main(["server-assign", str(path), "--kafka-version", version, "-o", str(out)]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("kpart: error: ") and names in err[0]
    assert captured.out == "" and not out.exists()


def test_server_assign_cli_bad_assignor_exits_2(tmp_path, capsys):
    case = load_golden("server_range")[0]
    path = tmp_path / "group.json"
    path.write_text(json.dumps(case["input"]))
    assert main(["server-assign", str(path), "--assignor", "sticky"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'sticky'" in err[0]


def test_server_assign_cli_malformed_json_exits_2(tmp_path, capsys):
    path = tmp_path / "group.json"
    path.write_text("{not json")
    assert main(["server-assign", str(path)]) == 2
    assert "malformed JSON" in capsys.readouterr().err
