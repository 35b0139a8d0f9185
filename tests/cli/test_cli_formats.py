"""``--format parquet|arrow`` of ``kpart assign``, ``server-assign`` and ``rebalance``: what is
written reads back (pyarrow) equal to the JSON output of the same command, binary formats go
to ``--out`` only, and bad formats are one-line errors (exit 2) that write nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from golden_vectors import load_golden
from kpart.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
MAGIC = {"parquet": b"PAR1", "arrow": b"ARROW1"}

#: C0 owns all of t; C1 joins: cooperative-sticky revokes half of C0's partitions.
COOPERATIVE = {
    "topics": {"t": 6, "u": 2},
    "members": [
        {"id": "C0", "topics": ["t", "u"], "generation": 1,
         "owned": [["t", [0, 1, 2, 3, 4, 5]], ["u", [0, 1]]]},
        {"id": "C1", "topics": ["t", "u"]},
    ],
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def read(path: Path, fmt: str) -> pa.Table:
    data = path.read_bytes()
    assert data[: len(MAGIC[fmt])] == MAGIC[fmt] and data.endswith(MAGIC[fmt]), "not a whole file"
    if fmt == "parquet":
        return pq.read_table(path)
    return pa.ipc.open_file(pa.BufferReader(data)).read_all()


def as_json(rows: list[dict]) -> dict[str, dict[str, list[int]]]:
    """Rows of one assignment → ``{member: {topic: [p, ...]}}`` (row order kept)."""
    out: dict[str, dict[str, list[int]]] = {}
    for r in rows:
        out.setdefault(r["member"], {}).setdefault(r["topic"], []).append(r["partition"])
    return out


def nonempty(assignment: dict) -> dict:
    return {m: ts for m, ts in assignment.items() if ts}


def write(tmp_path: Path, name: str, doc: object) -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(doc), encoding="utf-8")
    return p


# -- kpart assign ----------------------------------------------------------------------------


def _cli_reads(group: dict) -> bool:
    """Whether ``kpart assign`` takes the group (it refuses an owned partition of a topic the
    group does not list, which Kafka's test vectors include)."""
    return all(t in group["topics"] for m in group["members"] for t, _ in m.get("owned", []))


def _golden_groups() -> list[tuple[str, str, dict]]:
    cases = []
    for name, strategy in (("assign_range", "range"), ("assign_roundrobin", "roundrobin"),
                           ("assign_sticky", "sticky"),
                           ("assign_cooperative_sticky", "cooperative-sticky")):
        singles = [c for c in load_golden(name)
                   if c["kind"] == "single" and "assignment" in c["expected"]
                   and _cli_reads(c["input"])]
        cases += [(c["id"], strategy, c["input"]) for c in singles[:: max(1, len(singles) // 3)]]
    return cases


@pytest.mark.parametrize(("case_id", "strategy", "group"), _golden_groups(),
                         ids=[c[0] for c in _golden_groups()])
@pytest.mark.parametrize("fmt", ["parquet", "arrow"])
def test_assign_table_reads_back_as_the_json(capsys, tmp_path, case_id, strategy, group,
                                             fmt) -> None:
    src = write(tmp_path, "group.json", group)
    code, out, err = run(capsys, "assign", str(src), "-s", strategy)
    assert code == 0 and "error" not in err  # warnings (a topic no group lists) may be said
    expected = json.loads(out)["assignment"]
    target = tmp_path / f"a.{fmt}"
    code, out, err2 = run(capsys, "assign", str(src), "-s", strategy, "--format", fmt,
                          "--out", str(target))
    assert (code, out, err2) == (0, "", err)
    table = read(target, fmt)
    assert table.schema == pa.schema([("member", pa.string()), ("topic", pa.string()),
                                      ("partition", pa.int32()), ("revoked", pa.bool_())])
    rows = table.to_pylist()
    assigned = [r for r in rows if not r["revoked"]]
    assert rows[: len(assigned)] == assigned  # the assignment first, then what is revoked
    assert as_json(assigned) == nonempty(expected)
    # same order as the JSON: members in group order, topics and partitions sorted
    assert list(as_json(assigned)) == list(nonempty(expected))


def test_assign_cooperative_revoked_rows(capsys, tmp_path) -> None:
    from kpart.consumer import assign
    from kpart.consumer.spec import GroupSpec

    src = write(tmp_path, "group.json", COOPERATIVE)
    result = assign(GroupSpec.from_json(COOPERATIVE), "cooperative-sticky")
    assert result.revoked, "the case must revoke something"
    target = tmp_path / "a.parquet"
    assert main(["assign", str(src), "-s", "cooperative-sticky", "-o", str(target)]) == 0
    rows = pq.read_table(target).to_pylist()
    revoked = [r for r in rows if r["revoked"]]
    assert {(r["member"], r["topic"], r["partition"]) for r in revoked} == {
        (m, t, p) for m, owned in result.revoked for t, ps in owned for p in ps}
    assert as_json([r for r in rows if not r["revoked"]]) == nonempty(result.as_dict())
    # the library contract stays three columns; the file's first three are that table
    assert pq.read_table(target).filter(pa.compute.invert(
        pa.compute.field("revoked"))).drop_columns(["revoked"]).equals(result.to_arrow())


@pytest.mark.parametrize(("name", "fmt"), [("x.parquet", "parquet"), ("x.arrow", "arrow"),
                                           ("X.PARQUET", "parquet"), ("x.json", None)])
def test_assign_format_follows_the_out_name(capsys, tmp_path, name, fmt) -> None:
    src = EXAMPLES / "range-roundrobin.json"
    target = tmp_path / name
    assert main(["assign", str(src), "-o", str(target)]) == 0
    if fmt is None:
        assert json.loads(target.read_text())["assignment"]["C1"] == {"t0": [2], "t1": [2]}
    else:
        assert read(target, fmt).num_rows == 6
    # an explicit --format wins over the name
    assert main(["assign", str(src), "-o", str(target), "-f", "json"]) == 0
    assert json.loads(target.read_text())["assignment"]


@pytest.mark.parametrize("fmt", ["parquet", "arrow"])
def test_assign_binary_without_out_is_one_line_exit_2(capsys, tmp_path, monkeypatch, fmt) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "assign", str(EXAMPLES / "range-roundrobin.json"),
                         "--format", fmt)
    assert (code, out) == (2, "")
    assert err == (f"kpart: error: --format {fmt} writes a binary file: give -o/--out FILE "
                   f"(e.g. --out result.{fmt}); kpart does not print binary data\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["assign", "server-assign"])
def test_unknown_format_is_one_line_exit_2(capsys, tmp_path, command) -> None:
    target = tmp_path / "a.parquet"
    code, out, err = run(capsys, command, str(EXAMPLES / "range-roundrobin.json"), "-f", "orc",
                         "-o", str(target))
    assert (code, out) == (2, "")
    assert err == ("kpart: error: --format: unknown format 'orc' (expected one of json, table, "
                   "parquet, arrow)\n")
    assert not target.exists()


def test_assign_binary_out_never_overwrites_the_input(capsys, tmp_path) -> None:
    src = tmp_path / "group.parquet"  # an odd name for a JSON input, but possible
    src.write_text(json.dumps(COOPERATIVE), encoding="utf-8")
    before = src.read_bytes()
    code, _, err = run(capsys, "assign", str(src), "-o", str(src))
    assert code == 2 and "it is the input given as FILE" in err
    assert src.read_bytes() == before


def test_assign_bad_group_writes_nothing(capsys, tmp_path) -> None:
    src = write(tmp_path, "bad.json", {"topics": {"t": -1}, "members": []})
    target = tmp_path / "a.arrow"
    code, _, err = run(capsys, "assign", str(src), "-o", str(target))
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json"]


# -- kpart server-assign ---------------------------------------------------------------------


@pytest.mark.parametrize(("name", "assignor"), [("uniform_assignor", "uniform"),
                                                ("server_range", "range")])
@pytest.mark.parametrize("fmt", ["parquet", "arrow"])
def test_server_assign_table_reads_back_as_the_json(capsys, tmp_path, name, assignor,
                                                    fmt) -> None:
    # (these golden files are Kafka 4.0.0's answers)
    cases = [c for c in load_golden(name)
             if c["kind"] == "single" and "assignment" in c["expected"]]
    for case in cases[:: max(1, len(cases) // 3)]:
        src = write(tmp_path, "group.json", case["input"])
        target = tmp_path / f"s.{fmt}"
        assert main(["server-assign", str(src), "-a", assignor, "-f", fmt, "-o",
                     str(target), "--kafka-version", "4.0.0"]) == 0
        rows = read(target, fmt).to_pylist()
        assert not any(r["revoked"] for r in rows)
        assert as_json(rows) == nonempty(case["expected"]["assignment"]), case["id"]


def test_server_assign_table_format(capsys, tmp_path) -> None:
    case = next(c for c in load_golden("uniform_assignor")
                if c["kind"] == "single" and "assignment" in c["expected"])
    src = write(tmp_path, "group.json", case["input"])
    code, out, err = run(capsys, "server-assign", str(src), "--format", "table")
    assert (code, err) == (0, "")
    assert "uniform (KIP-848) assignment of group.json" in out
    for member in case["expected"]["assignment"]:
        assert member in out


# -- kpart rebalance -------------------------------------------------------------------------


def _by_step(rows: list[dict]) -> dict[tuple[int, str], list[dict]]:
    out: dict[tuple[int, str], list[dict]] = {}
    for r in rows:
        out.setdefault((r["step"], r["strategy"]), []).append(r)
    return out


FIGURES = ("rounds", "moved", "revoked", "paused", "balance", "settled", "pending", "cycle")


def _check_against_json(rows: list[dict], doc: dict) -> None:
    groups = _by_step(rows)
    expected_keys = [(s["step"], name) for s in doc["steps"] for name in doc["strategies"]]
    assert list(groups) == expected_keys  # steps in order, strategies in the given order
    for step in doc["steps"]:
        for name, res in step["results"].items():
            group = groups[(step["step"], name)]
            assert {r["change"] for r in group} == {step["change"]}
            for f in FIGURES:
                assert {r[f"step_{f}"] for r in group} == {res[f]}, (step["step"], name, f)
            error = res.get("error")
            assert {r["step_error"] for r in group} == {
                None if error is None else f"{error['class']}: {error['message']}"}
            held = [r for r in group if r["member"] is not None]
            assigned = [r for r in held if not r["revoked"]]
            assert as_json(assigned) == nonempty(res["assignment"] or {})
            assert sum(bool(r["revoked"]) for r in held) == res["pending"]
            if not held:
                assert len(group) == 1 and group[0]["partition"] is None


@pytest.mark.parametrize(("scenario", "strategies"), [
    ("sticky-four-topics.json", ["range", "roundrobin", "sticky", "cooperative-sticky",
                                 "uniform", "server-range"]),
    ("sticky-uneven.json", ["roundrobin", "sticky"]),
    ("cooperative-racks-loop.json", ["sticky", "cooperative-sticky"]),
])
@pytest.mark.parametrize("fmt", ["parquet", "arrow"])
def test_rebalance_table_reads_back_as_the_json(capsys, tmp_path, scenario, strategies,
                                                fmt) -> None:
    src = EXAMPLES / scenario
    flags = [a for s in strategies for a in ("-s", s)]
    code, out, err = run(capsys, "rebalance", str(src), *flags, "--json")
    assert (code, err) == (0, "")
    doc = json.loads(out)
    target = tmp_path / f"r.{fmt}"
    code, out, err = run(capsys, "rebalance", str(src), *flags, "--format", fmt, "-o",
                         str(target))
    assert (code, out, err) == (0, "", "")
    table = read(target, fmt)
    assert table.column_names == [
        "strategy", "step", "change", "member", "topic", "partition", "revoked",
        *(f"step_{f}" for f in ("rounds", "moved", "revoked", "paused", "balance", "pending",
                                "settled", "cycle", "error"))]
    meta = table.schema.metadata
    assert json.loads(meta[b"kpart.strategies"]) == strategies
    if doc["scenario"] is not None:
        assert meta[b"kpart.scenario"].decode() == doc["scenario"]
    _check_against_json(table.to_pylist(), doc)


def test_rebalance_unsettled_step_has_its_pending_partitions(capsys, tmp_path) -> None:
    target = tmp_path / "r.parquet"
    assert main(["rebalance", str(EXAMPLES / "cooperative-racks-loop.json"), "-s",
                 "cooperative-sticky", "-o", str(target)]) == 0
    rows = pq.read_table(target).to_pylist()
    pending = [r for r in rows if r["revoked"]]
    assert len(pending) == 2 and {r["step"] for r in pending} == {1}
    assert {(r["step_settled"], r["step_cycle"]) for r in rows if r["step"] == 1} == {(False, 2)}


def test_rebalance_empty_group_keeps_a_row(capsys, tmp_path) -> None:
    src = write(tmp_path, "s.json", {"topics": {"t": 4}, "steps": [
        {"join": [{"id": "A", "topics": ["t"]}, {"id": "B", "topics": ["t"]}]},
        {"leave": ["A", "B"]}]})
    target = tmp_path / "r.arrow"
    assert main(["rebalance", str(src), "-s", "range", "-s", "uniform", "-o",
                 str(target)]) == 0
    rows = read(target, "arrow").to_pylist()
    last = [r for r in rows if r["step"] == 1]
    assert [(r["strategy"], r["member"], r["partition"], r["revoked"]) for r in last] == [
        ("range", None, None, None), ("uniform", None, None, None)]
    assert [r["step_moved"] for r in last] == [0, 0] and last[0]["step_paused"] == 4


def test_rebalance_table_of_a_failed_step() -> None:
    from kpart.cli.consumer import rebalance_table
    from kpart.consumer._rounds import Simulation, StepReport
    from kpart.consumer._scenario import as_scenario
    from kpart.errors import ConfigError

    scenario = as_scenario({"topics": {"t": 2}, "steps": [{"join": [{"id": "A",
                                                                      "topics": ["t"]}]}]})
    failed = StepReport(step=0, change=scenario.changes[0], rounds=1, assignment=None, moved=0,
                        revoked=0, paused=0, balance=0, error=ConfigError("no way"))
    rows = rebalance_table({"range": Simulation("range", (), (failed,))}, scenario).to_pylist()
    assert len(rows) == 1 and rows[0]["member"] is None
    assert rows[0]["step_error"] == "org.apache.kafka.common.config.ConfigException: no way"


def test_rebalance_json_and_out_keep_working(capsys, tmp_path) -> None:
    src = str(EXAMPLES / "sticky-four-topics.json")
    code, printed, _ = run(capsys, "rebalance", src, "--json")
    assert code == 0
    target = tmp_path / "r.json"  # --out without --format: JSON, as before
    assert main(["rebalance", src, "-o", str(target)]) == 0
    assert json.loads(target.read_text()) == json.loads(printed)
    code, same, _ = run(capsys, "rebalance", src, "--format", "json")
    assert (code, same) == (0, printed)


def test_rebalance_table_to_out(capsys, tmp_path) -> None:
    src = str(EXAMPLES / "sticky-four-topics.json")
    code, printed, _ = run(capsys, "rebalance", src, "-s", "sticky")
    assert code == 0 and "step 1: leave C1" in printed
    target = tmp_path / "r.txt"
    assert main(["rebalance", src, "-s", "sticky", "-f", "table", "-o", str(target)]) == 0
    assert target.read_text().split() == printed.split()


@pytest.mark.parametrize(("argv", "message"), [
    (["--json", "-f", "parquet", "-o", "r.parquet"],
     "--json means --format json; it cannot be combined with --format parquet"),
    (["-f", "arrow"], "--format arrow writes a binary file: give -o/--out FILE"),
    (["-f", "csv", "-o", "r.csv"],
     "--format: unknown format 'csv' (expected one of table, json, parquet, arrow)"),
])
def test_rebalance_format_errors(capsys, tmp_path, monkeypatch, argv, message) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "rebalance", str(EXAMPLES / "sticky-four-topics.json"), *argv)
    assert (code, out) == (2, "")
    assert err.startswith(f"kpart: error: {message}") and len(err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []
