"""``kpart assign`` and ``kpart rebalance`` through ``kpart.cli.main``."""

from __future__ import annotations

import json

import pytest

from golden_vectors import load_golden
from kpart.cli import main

SEED_GROUP = {
    "topics": {"t0": 3, "t1": 3},
    "members": [{"id": "C0", "topics": ["t0", "t1"]}, {"id": "C1", "topics": ["t0", "t1"]}],
}
SCENARIO_TOML = """
name = "seed 003, C1 leaves"
topics = { t0 = 2, t1 = 2, t2 = 2, t3 = 2 }
[[steps]]
join = [{ id = "C0", topics = ["t0", "t1", "t2", "t3"] },
        { id = "C1", topics = ["t0", "t1", "t2", "t3"] },
        { id = "C2", topics = ["t0", "t1", "t2", "t3"] }]
[[steps]]
leave = ["C1"]
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def group_file(tmp_path):
    p = tmp_path / "group.json"
    p.write_text(json.dumps(SEED_GROUP), encoding="utf-8")
    return p


def test_assign_json(capsys, group_file) -> None:
    code, out, err = run(capsys, "assign", str(group_file), "--strategy", "range")
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "assignment": {"C0": {"t0": [0, 1], "t1": [0, 1]}, "C1": {"t0": [2], "t1": [2]}}
    }
    code, out, _ = run(capsys, "assign", str(group_file), "--strategy", "roundrobin")
    assert json.loads(out)["assignment"]["C0"] == {"t0": [0, 2], "t1": [1]}


def test_assign_golden_input(capsys, tmp_path) -> None:
    case = next(c for c in load_golden("assign_range") if c["rack_mode"] == "mismatch")
    p = tmp_path / "case.json"
    p.write_text(json.dumps(case["input"]), encoding="utf-8")
    code, out, _ = run(capsys, "assign", str(p))
    assert code == 0 and json.loads(out) == case["expected"]


def test_assign_table_and_out(capsys, group_file, tmp_path) -> None:
    code, out, _ = run(capsys, "assign", str(group_file), "--format", "table")
    assert code == 0
    assert "t0[0,1] t1[0,1]" in out and "t0[2] t1[2]" in out
    target = tmp_path / "a.json"
    code, out, _ = run(capsys, "assign", str(group_file), "--out", str(target))
    assert (code, out) == (0, "")
    assert json.loads(target.read_text())["assignment"]["C1"] == {"t0": [2], "t1": [2]}


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ("{not json", "malformed JSON"),
        (json.dumps({"topics": {"t": -1}, "members": []}), "Invalid partition count -1"),
        (
            json.dumps(
                {
                    "topics": {"t": 1},
                    "members": [{"id": "C0", "topics": ["t"], "owned": [["ghost", [0]]]}],
                }
            ),
            "group.members[0].owned[0]: owned partition of an unknown topic 'ghost'",
        ),
    ],
)
def test_assign_bad_input_exits_2(capsys, tmp_path, doc: str, message: str) -> None:
    p = tmp_path / "bad.json"
    p.write_text(doc, encoding="utf-8")
    code, out, err = run(capsys, "assign", str(p))
    assert (code, out) == (2, "")
    assert message in err and len(err.strip().splitlines()) == 1


def test_assign_unknown_strategy_and_format(capsys, group_file) -> None:
    code, out, err = run(capsys, "assign", str(group_file), "--strategy", "bogus")
    assert (code, out) == (2, "") and "'bogus'" in err
    code, out, err = run(capsys, "assign", str(group_file), "--format", "xml")
    assert (code, out) == (2, "") and "'xml'" in err


def test_rebalance_side_by_side(capsys, tmp_path) -> None:
    p = tmp_path / "s.toml"
    p.write_text(SCENARIO_TOML, encoding="utf-8")
    code, out, err = run(capsys, "rebalance", str(p), "-s", "range", "-s", "roundrobin")
    assert (code, err) == (0, "")
    assert "step 1: leave C1" in out and "range" in out and "roundrobin" in out
    code, out, _ = run(capsys, "rebalance", str(p), "-s", "range", "-s", "roundrobin", "--json")
    doc = json.loads(out)
    assert doc["strategies"] == ["range", "roundrobin"]
    rr = doc["steps"][1]["results"]["roundrobin"]
    assert rr["assignment"] == {
        "C0": {"t0": [0], "t1": [0], "t2": [0], "t3": [0]},
        "C2": {"t0": [1], "t1": [1], "t2": [1], "t3": [1]},
    }
    assert (rr["rounds"], rr["moved"], rr["paused"], rr["balance"]) == (1, 5, 8, 0)


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("a.toml", "topics = {", "malformed TOML"),
        ("b.json", "[", "malformed JSON"),
        (
            "c.toml",
            'topics = { t = 1 }\n[[steps]]\nleave = ["X"]\n',
            "steps[0].leave: unknown member 'X'",
        ),
        (
            "d.json",
            json.dumps({"topics": {"t": 1}, "steps": [{"add_partitions": {"t": -3}}]}),
            "steps[0].add_partitions.t: invalid partition count -3",
        ),
    ],
)
def test_rebalance_bad_input_exits_2(capsys, tmp_path, name, text, message) -> None:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "rebalance", str(p))
    assert (code, out) == (2, "")
    assert message in err and len(err.strip().splitlines()) == 1
    assert err.count(name) == 1 and err.startswith(f"kpart: error: {p}: ")  # named once


def test_rebalance_unknown_strategy(capsys, tmp_path) -> None:
    p = tmp_path / "s.toml"
    p.write_text(SCENARIO_TOML, encoding="utf-8")
    code, out, err = run(capsys, "rebalance", str(p), "--strategy", "nope")
    assert (code, out) == (2, "") and "'nope'" in err
