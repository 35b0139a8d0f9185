"""`kpart server-assign`: the KIP-848 assignors from the command line, on golden cases."""

import json

import pytest

from golden_vectors import load_golden
from kpart.cli import main


@pytest.mark.parametrize(("name", "assignor"), [("uniform_assignor", "uniform"), ("server_range", "range")])
def test_server_assign_cli_reproduces_golden_single(tmp_path, capsys, name, assignor):
    case = next(c for c in load_golden(name) if c["kind"] == "single" and "assignment" in c["expected"])
    path = tmp_path / "group.json"
    path.write_text(json.dumps(case["input"]))
    assert main(["server-assign", str(path), "--assignor", assignor]) == 0
    assert json.loads(capsys.readouterr().out) == case["expected"]


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
