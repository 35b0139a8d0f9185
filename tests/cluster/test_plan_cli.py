"""``kpart plan`` in load-aware mode (kpart.cli._plan_cluster): the mode rule, the summary
(PLAN_SUMMARY contract), the outputs (all or none) and bad input (one line, exit 2, nothing
written). The count-based mode's own tests are in tests/placement."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from kpart.cli import main
from kpart.cluster.goals import DEFAULT_GOALS, GOALS
from kpart.placement.reassign import parse_reassignment_json, read_current

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "docs" / "examples"
DESCRIBE = str(EX / "cluster.describe.txt")
SIZES = str(EX / "cluster.log-dirs.txt")
CAPACITY = str(EX / "capacity.json")
RATES = str(EX / "rates.csv")
SNAPSHOT = str(EX / "outage-cluster.json")
BASE = ["plan", "--current", DESCRIBE, "--sizes", SIZES, "--capacity", CAPACITY, "--loads",
        RATES, "--brokers", "1:a,2:b,3:c,4:a"]


def _summary(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main([*argv, "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def _one_line_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert captured.out == ""
    assert len(err.splitlines()) == 1 and err.startswith("kpart: error: "), err
    assert "Traceback" not in err
    return err


def test_summary_follows_the_contract(tmp_path: Path, capsys) -> None:
    out, rollback = tmp_path / "plan.json", tmp_path / "rollback.json"
    s = _summary([*BASE, "--add-brokers", "5:b", "--out", str(out), "--rollback-out",
                  str(rollback)], capsys)
    assert (s["format"], s["version"]) == ("kpart-plan-summary", 1)
    assert (s["partitions"], s["replicas"]) == (5, 13)
    assert s["added_brokers"] == [5] and s["removed_brokers"] == []
    assert [g["goal"] for g in s["goals"]] == [g.name for g in DEFAULT_GOALS]
    assert all(g["before"] is not None and g["after"] is not None for g in s["goals"])
    assert s["verified"] is None and s["errors"] == []
    assert s["schedule"] is None and s["failures"] is None
    assert [b["broker"] for b in s["brokers"]] == [1, 2, 3, 4, 5]
    new = s["brokers"][-1]
    assert new["added"] and new["rack"] == "b" and new["before"]["replicas"] == 0
    # the new broker takes the capacity.json default; broker 4 its own entry (JBOD 200,000 MB)
    assert new["capacity"]["disk_bytes"] == 200_000 * 2**20
    assert s["brokers"][3]["capacity"]["nw_in_bytes_per_s"] == 25_000 * 1024
    # the reassignment JSON holds exactly the changed partitions, the rollback their current
    current = read_current(Path(DESCRIBE).read_text())
    plan = parse_reassignment_json(out.read_text())
    back = parse_reassignment_json(rollback.read_text())
    assert s["moves"]["partitions"] == sum(len(p) for p in plan.values())
    for t, parts in plan.items():
        for p, reps in parts.items():
            assert tuple(reps) != current[t][p] and tuple(back[t][p]) == current[t][p]
    # moves and per-broker loads agree with the files
    sizes = {("orders", 0): 40, ("orders", 1): 38, ("orders", 2): 41, ("clicks", 0): 3,
             ("clicks", 1): 2}
    moved = sum(sizes[(t, p)] for t, ps in plan.items() for p, reps in ps.items()
                for b in reps if b not in current[t][p])
    assert s["moves"]["bytes_moved"] == moved * 2**30
    after = {b["broker"]: b["after"]["replicas"] for b in s["brokers"]}
    target = {t: {**current[t], **plan.get(t, {})} for t in current}
    counts = np.bincount([b for ps in target.values() for r in ps.values() for b in r])
    assert after == {b: int(counts[b]) for b in after}


def test_sizes_of_the_example_are_as_the_test_assumes() -> None:
    from kpart.placement.balance import parse_partition_sizes

    sizes = parse_partition_sizes(Path(SIZES).read_text())
    assert {k: v // 2**30 for k, v in sizes.items()} == {
        ("orders", 0): 40, ("orders", 1): 38, ("orders", 2): 41, ("clicks", 0): 3,
        ("clicks", 1): 2}
    assert all(v % 2**30 == 0 for v in sizes.values())


def test_terminal_summary(capsys) -> None:
    assert main([*BASE, "--add-brokers", "5:b", "--verify"]) == 0
    out = capsys.readouterr().out
    for text in ("RackAwareGoal", "LeaderBytesInDistributionGoal", "✓", "+5", "max/mean",
                 "moves:", "verified"):
        assert text in out, text


def test_goals_pick_and_order(capsys) -> None:
    s = _summary([*BASE, "--brokers", "1:a,2:b,3:c,4:d", "--goals",
                  "DiskUsageDistributionGoal,RackAwareGoal", "--add-brokers", "5:b"], capsys)
    assert [(g["goal"], g["hard"]) for g in s["goals"]] == [
        ("DiskUsageDistributionGoal", False), ("RackAwareGoal", True)]


def test_unknown_goal_lists_the_goals(capsys) -> None:
    err = _one_line_error([*BASE, "--goals", "RackAwareGoal,DiskGoal"], capsys)
    assert "'DiskGoal'" in err and all(g.name in err for g in GOALS)


@pytest.mark.parametrize("extra", [["--remove-brokers", "1"], ["--add-brokers", "5:b"]])
def test_verify_refuses_exactly_what_the_verifier_refuses(extra, tmp_path, capsys) -> None:
    out = tmp_path / "plan.json"
    s = _summary([*BASE, *extra], capsys)
    ok = all(g["ok"] for g in s["goals"]) and not s["errors"]
    rc = main([*BASE, *extra, "--verify", "--out", str(out)])
    captured = capsys.readouterr()
    if ok:
        assert rc == 0 and out.exists() and "verified" in captured.out
    else:
        bad = next(g for g in s["goals"] if not g["ok"])
        assert rc == 2 and not out.exists()
        assert captured.err.strip() == (
            f"kpart: error: --verify: {bad['goal']} (soft goal got worse): {bad['before']} -> "
            f"{bad['after']} violations; nothing written")


def test_verify_line_of_a_real_bad_plan() -> None:
    from kpart.cli._plan_cluster import _verify_line
    from kpart.cluster.goals import goals_by_name
    from kpart.cluster.model import ClusterBroker, ClusterModel, PartitionState
    from kpart.cluster.verifier import verify

    m = ClusterModel.from_partitions([ClusterBroker(i, f"r{i % 2}") for i in range(3)],
                                     [PartitionState("t", 0, (0, 1), size_bytes=1.0)])
    assert _verify_line(verify(m, np.array([[0, 2]]), goals_by_name("RackAwareGoal"))) == (
        "--verify: RackAwareGoal (hard goal still violated): 0 -> 1 violations; nothing written")
    assert _verify_line(verify(m, np.array([[1, 1]]), ())).startswith(
        "Invalid plan (the verifier refuses its replica set): partition t-0: broker 1 twice")


def test_verified_summary(capsys) -> None:
    s = _summary([*BASE, "--add-brokers", "5:b", "--verify"], capsys)
    assert s["verified"] is True and all(g["ok"] for g in s["goals"])


def test_failures_are_ranked_on_the_target(capsys) -> None:
    from kpart.cli._cluster_inputs import read_snapshot
    from kpart.cluster.broker_outage import outage_all, ranked
    from kpart.cluster.plan_summary import failure_rows

    s = _summary(["plan", "--snapshot", SNAPSHOT, "--add-brokers", "9:us-east-1a", "--failures"],
                 capsys)
    racks = {b["rack"] for b in s["brokers"] if b["rack"] is not None}
    assert len(s["failures"]) == len(s["brokers"]) + len(racks)
    # the same figures as kpart outage --all on the target (its describe view)
    model = read_snapshot(Path(SNAPSHOT))
    assert s["failures"][0]["down"]
    keys = [(-r["max_bytes_in_per_s"], -r["max_leaders"], r["down"]) for r in s["failures"]]
    assert keys == sorted(keys)
    assert failure_rows(ranked(outage_all(model)))[0].keys() == s["failures"][0].keys()


def test_snapshot_with_capacity_and_parquet(tmp_path, capsys) -> None:
    import pyarrow.parquet as pq

    cap = tmp_path / "capacity.json"
    cap.write_text(json.dumps({"brokerCapacities": [
        {"brokerId": "-1", "capacity": {"DISK": "1000000", "NW_IN": "100000",
                                        "NW_OUT": "100000"}},
        {"brokerId": "9", "capacity": {"DISK": "2000000"}}]}))
    out = tmp_path / "plan.parquet"
    s = _summary(["plan", "--snapshot", SNAPSHOT, "--capacity", str(cap), "--add-brokers",
                  "9:us-east-1a", "--out", str(out)], capsys)
    by_id = {b["broker"]: b for b in s["brokers"]}
    assert by_id[9]["capacity"] == {"disk_bytes": 2_000_000 * 2**20,
                                    "nw_in_bytes_per_s": None, "nw_out_bytes_per_s": None}
    assert by_id[1]["capacity"]["nw_in_bytes_per_s"] == 100_000 * 1024
    rows = pq.read_table(out).to_pylist()
    assert len(rows) == s["partitions"]
    assert sum(r["changed"] for r in rows) == s["moves"]["partitions"]
    assert sum(r["replica_moves"] for r in rows) == s["moves"]["replica_moves"]
    assert sum(r["leader_change"] for r in rows) == s["moves"]["leader_changes"]
    assert all(r["batch"] is None for r in rows)
    keys = [(r["topic"], r["partition"]) for r in rows]
    assert keys == sorted(keys)


def test_snapshot_of_kpart_cluster_plans_as_its_files(tmp_path, capsys) -> None:
    snap = tmp_path / "cluster.json"
    argv = ["--current", DESCRIBE, "--sizes", SIZES, "--capacity", CAPACITY, "--loads", RATES,
            "--brokers", "1:a,2:b,3:c,4:d"]
    assert main(["cluster", *argv, "--out", str(snap)]) == 0
    capsys.readouterr()
    # cluster.json holds the capacities; an added broker needs one too
    err = _one_line_error(["plan", "--snapshot", str(snap), "--add-brokers", "5:b"], capsys)
    assert "--add-brokers: broker 5 has no capacity" in err
    from_snapshot = _summary(["plan", "--snapshot", str(snap), "--capacity", CAPACITY,
                              "--add-brokers", "5:b"], capsys)
    from_files = _summary(["plan", *argv, "--add-brokers", "5:b"], capsys)
    assert from_snapshot == from_files


def test_describe_and_topics_outputs(tmp_path, capsys) -> None:
    d, t, plan = tmp_path / "d.txt", tmp_path / "t.json", tmp_path / "p.json"
    assert main([*BASE, "--add-brokers", "5:b", "--describe-out", str(d), "--topics-out",
                 str(t), "--out", str(plan)]) == 0
    target = read_current(d.read_text())
    moved = parse_reassignment_json(plan.read_text())
    for topic, parts in moved.items():
        for p, reps in parts.items():
            assert target[topic][p] == tuple(reps)
    assert {x["topic"] for x in json.loads(t.read_text())["topics"]} == set(moved)


def test_summary_out_equals_json(tmp_path, capsys) -> None:
    path = tmp_path / "summary.json"
    s = _summary([*BASE, "--add-brokers", "5:b", "--summary-out", str(path)], capsys)
    assert json.loads(path.read_text()) == s


# -- the mode rule ------------------------------------------------------------------------
@pytest.mark.parametrize(("extra", "named"), [
    (["--failures"], "--failures"),
    (["--summary-out", "s.json"], "--summary-out"),
    (["--max-replicas-per-broker", "5"], "--max-replicas-per-broker"),
    (["--balance-threshold", "1.2"], "--balance-threshold"),
    (["--html-out", "plan.html"], "--html-out"),
    (["--throttle", "1000"], "--throttle"),
])
def test_count_mode_refuses_load_aware_options(extra, named, tmp_path, capsys,
                                               monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    err = _one_line_error(["plan", "--current", DESCRIBE, "--add-brokers", "5", *extra],
                          capsys)
    assert err.startswith(f"kpart: error: {named} only goes with the load-aware mode")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("extra", "named"), [
    (["--max-moves", "3"], "--max-moves does not go"),
    (["--seed", "3"], "--seed does not go"),
    (["--no-leaders"], "--leaders/--no-leaders does not go"),
    (["--rebalance"], "--rebalance/--no-rebalance does not go"),
    (["--max-concurrent-moves-per-broker", "0"], "Invalid --max-concurrent-moves-per-broker 0"),
])
def test_load_aware_mode_refuses_count_options(extra, named, capsys) -> None:
    err = _one_line_error([*BASE, "--add-brokers", "5", *extra], capsys)
    assert named in err


@pytest.mark.parametrize("chooser", [["--verify"], ["--goals", "RackAwareGoal"],
                                     ["--capacity", CAPACITY], ["--loads", RATES]])
def test_each_chooser_selects_the_load_aware_mode(chooser, capsys) -> None:
    s = _summary(["plan", "--current", DESCRIBE, "--add-brokers", "5", *chooser], capsys)
    assert s["format"] == "kpart-plan-summary"


def test_count_mode_output_is_unchanged(capsys) -> None:
    argv = ["plan", "--current", DESCRIBE, "--add-brokers", "5", "--json"]
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    assert "generate_replica_moves" in doc and "format" not in doc


# -- bad input: one line, exit 2, nothing written -----------------------------------------
def _log_dirs(entries: dict[int, list[tuple[str, int]]], error: str | None = None) -> str:
    brokers = [{"broker": b, "logDirs": [{"logDir": "/k", "error": error if b == 1 else None,
                                          "partitions": [{"partition": p, "size": s,
                                                          "offsetLag": 0, "isFuture": False}
                                                         for p, s in parts]}]}
               for b, parts in entries.items()]
    return json.dumps({"version": 1, "brokers": brokers})


_SIZED = {1: [("orders-0", 1), ("orders-2", 1), ("clicks-0", 1), ("clicks-1", 1)],
          2: [("orders-0", 1), ("orders-1", 1), ("clicks-1", 1)],
          3: [("orders-0", 1), ("orders-1", 1), ("orders-2", 1)],
          4: [("orders-1", 1), ("orders-2", 1), ("clicks-0", 1)]}


@pytest.mark.parametrize(("files", "message"), [
    ({"sizes": _log_dirs({**_SIZED, 2: [*_SIZED[2], ("orders-7", 5)]})},
     "--sizes: partition orders-7 is not in the cluster's assignment"),
    ({"sizes": _log_dirs({**_SIZED, 1: _SIZED[1][:-1], 2: _SIZED[2][:-1]})},
     "--sizes: no size for partition clicks-1"),
    ({"sizes": _log_dirs(_SIZED, error="KafkaStorageException")},
     "reports error 'KafkaStorageException'"),
    ({"capacity": json.dumps({"brokerCapacities": [{"brokerId": "-1", "capacity": {
        "DISK": "0"}}]})}, "brokerCapacities[0].capacity.DISK: invalid capacity '0'"),
    ({"loads": "topic,partition,bytes_in_per_s,bytes_out_per_s,messages_in_per_s\n"
               "orders,0,-5,1,1\n"}, "bytes_in_per_s"),
    ({"sizes": "{not json"}, "Malformed partition sizes JSON"),
])
def test_bad_input(files, message, tmp_path, capsys) -> None:
    paths = {}
    for name, text in files.items():
        paths[name] = tmp_path / name
        paths[name].write_text(text)
    out = tmp_path / "plan.json"
    argv = ["plan", "--current", DESCRIBE, "--sizes", str(paths.get("sizes", SIZES)),
            "--capacity", str(paths.get("capacity", CAPACITY)), "--loads",
            str(paths.get("loads", RATES)), "--add-brokers", "5", "--out", str(out),
            "--summary-out", str(tmp_path / "s.json")]
    err = _one_line_error(argv, capsys)
    assert message in err
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(files)


@pytest.mark.parametrize(("argv", "message"), [
    (["plan", "--verify"], "Give the cluster as one of --current"),
    (["plan", "--verify", "--current", DESCRIBE, "--snapshot", SNAPSHOT],
     "Give the cluster as one of --current"),
    (["plan", "--snapshot", SNAPSHOT, "--sizes", SIZES], "--sizes goes with --current"),
    (["plan", "--snapshot", SNAPSHOT, "--brokers", "1:a"], "--brokers goes with --current"),
    (["plan", "--add-brokers", "5"], "Missing option '--current'"),
    ([*BASE, "--add-brokers", "5,5"], "--add-brokers: broker 5 is listed twice"),
    ([*BASE, "--add-brokers", "4"], "Invalid broker 4 to add: the cluster already has it"),
    ([*BASE, "--remove-brokers", "1,2,3,4"], "no broker would be left"),
    ([*BASE, "--remove-brokers", "99"], "--remove-brokers: unknown broker 99: the cluster has "
                                        "brokers [1, 2, 3, 4]"),
    ([*BASE, "--max-replicas-per-broker", "2", "--goals", "ReplicaCapacityGoal"],
     "Infeasible ReplicaCapacityGoal: 13 replicas over 4 brokers"),
    ([*BASE, "--brokers", "1:a,2:a,3:a,4:a"], "Infeasible RackAwareGoal"),
    ([*BASE, "--capacity-threshold", "1.5"], "Invalid capacity threshold 1.5"),
    ([*BASE, "--out", CAPACITY], "it is the input given as --capacity"),
    ([*BASE, "--goals", ""], "--goals: no goal given"),
])
def test_bad_requests(argv, message, tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    err = _one_line_error(argv, capsys)
    assert message in err, err
    assert list(tmp_path.iterdir()) == []


def test_a_plan_the_cluster_cannot_hold_writes_nothing(tmp_path, capsys) -> None:
    # RF 3 on the two brokers left: refused (by the optimizer as infeasible, or by the verifier
    # as an invalid replica set), with or without --verify
    out = tmp_path / "plan.json"
    for extra in ([], ["--verify"]):
        err = _one_line_error([*BASE, "--brokers", "1:a,2:b,3:c,4:d", "--remove-brokers", "2,3",
                               "--out", str(out), *extra], capsys)
        assert "Infeasible" in err or "Invalid plan" in err
        assert not out.exists()


def test_infeasible_writes_nothing(tmp_path, capsys) -> None:
    out = tmp_path / "plan.json"
    _one_line_error([*BASE, "--max-replicas-per-broker", "2", "--out", str(out), "--rollback-out",
                     str(tmp_path / "r.json")], capsys)
    assert list(tmp_path.iterdir()) == []
    assert not out.exists()


# -- the schedule and the page ----------------------------------------------------------------
def test_schedule_batches_throttle_and_page(tmp_path: Path, capsys) -> None:
    """K and --throttle give the summary's schedule, one reassignment JSON per batch (together
    exactly the plan's partitions, no broker in more than K moves of a batch) and plan.html."""
    from kpart.placement.reassign import Move

    out, page = tmp_path / "plan.json", tmp_path / "plan.html"
    s = _summary([*BASE, "--add-brokers", "5:b", "--remove-brokers", "4",
                  "--max-concurrent-moves-per-broker", "1", "--throttle", "50000000",
                  "--out", str(out), "--html-out", str(page)], capsys)
    sched = s["schedule"]
    assert (sched["max_moves_per_broker"], sched["throttle_bytes_per_s"]) == (1, 50_000_000)
    batches = sorted(tmp_path.glob("plan.batch-*.json"))
    assert len(batches) == len(sched["batches"]) > 1
    current = read_current(Path(DESCRIBE).read_text())
    whole = parse_reassignment_json(out.read_text())
    seen: dict[str, dict[int, tuple[int, ...]]] = {}
    for path, row in zip(batches, sched["batches"], strict=True):
        batch = parse_reassignment_json(path.read_text())
        moves = [Move(t, p, current[t][p], tuple(r)) for t, ps in batch.items()
                 for p, r in ps.items()]
        assert row["partitions"] == len(moves)
        takers = [b for m in moves for b in m.brokers]
        assert all(takers.count(b) <= 1 for b in takers), path.name
        for t, ps in batch.items():
            for p, r in ps.items():
                assert p not in seen.setdefault(t, {})
                seen[t][p] = tuple(r)
    assert seen == {t: {p: tuple(r) for p, r in ps.items()} for t, ps in whole.items()}
    assert sched["total_seconds"] == pytest.approx(sum(b["seconds"] for b in sched["batches"]))
    assert sum(b["bytes"] for b in sched["batches"]) == s["moves"]["bytes_moved"]
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>") and 'id="schedule"' in html


def test_schedule_in_the_parquet_table(tmp_path: Path, capsys) -> None:
    import pyarrow.parquet as pq

    out = tmp_path / "plan.parquet"
    s = _summary([*BASE, "--add-brokers", "5:b", "--max-concurrent-moves-per-broker", "1",
                  "--out", str(out)], capsys)
    rows = pq.read_table(out).to_pylist()
    assert {r["batch"] for r in rows if r["changed"]} == set(
        range(1, len(s["schedule"]["batches"]) + 1))
    assert all(r["batch"] is None for r in rows if not r["changed"])
    assert s["schedule"]["throttle_bytes_per_s"] is None
    assert s["schedule"]["total_seconds"] is None


def test_stale_batch_files_are_refused_in_load_aware_mode(tmp_path: Path, capsys) -> None:
    stale = tmp_path / "plan.batch-007.json"
    stale.write_text("{}")
    out = tmp_path / "plan.json"
    err = _one_line_error([*BASE, "--add-brokers", "5:b", "--max-concurrent-moves-per-broker",
                           "1", "--out", str(out)], capsys)
    assert "plan.batch-007.json" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan.batch-007.json"]


def test_pools_keep_each_topic_on_its_brokers(tmp_path: Path, capsys) -> None:
    """--pools in load-aware mode: BrokerSetAwareGoal joins the goals (after RackAwareGoal),
    the verifier checks it, and every target replica of a pooled topic is in its pool."""
    pools = tmp_path / "pools.json"
    pools.write_text(json.dumps({"pools": {"big": [1, 2, 3], "small": [4, 5]},
                                 "topics": {"orders": "big", "clicks": "small"}}))
    out = tmp_path / "plan.json"
    s = _summary([*BASE[:-2], "--brokers", "1:a,2:b,3:c,4:a", "--add-brokers", "5:b",
                  "--goals", "RackAwareGoal,DiskUsageDistributionGoal", "--pools", str(pools),
                  "--out", str(out)], capsys)
    assert [g["goal"] for g in s["goals"]] == ["RackAwareGoal", "BrokerSetAwareGoal",
                                               "DiskUsageDistributionGoal"]
    pool_goal = s["goals"][1]
    assert pool_goal["hard"] and pool_goal["before"] > 0 and pool_goal["after"] == 0
    current = read_current(Path(DESCRIBE).read_text())
    target = {t: {**current[t], **parse_reassignment_json(out.read_text()).get(t, {})}
              for t in current}
    assert all(set(r) <= {4, 5} for r in target["clicks"].values())
    assert all(set(r) <= {1, 2, 3} for r in target["orders"].values())


def test_broker_set_goal_needs_pools(capsys) -> None:
    err = _one_line_error([*BASE, "--goals", "BrokerSetAwareGoal"], capsys)
    assert "BrokerSetAwareGoal needs --pools" in err


@pytest.mark.parametrize("other", ["--rollback-out", "--summary-out", "--html-out",
                                   "--describe-out", "--topics-out"])
def test_an_output_named_as_a_batch_file_is_refused(other, tmp_path: Path, capsys) -> None:
    """Another output named <stem>.batch-NNN.json would silently replace a batch: refused
    before planning, nothing written."""
    err = _one_line_error([*BASE, "--add-brokers", "5:b", "--max-concurrent-moves-per-broker",
                           "1", "--out", str(tmp_path / "z.json"), other,
                           str(tmp_path / "z.batch-001.json")], capsys)
    assert f"{other}: cannot write" in err and "batch file of --out" in err
    assert list(tmp_path.iterdir()) == []


def test_count_mode_refuses_an_output_named_as_a_batch_file(tmp_path: Path, capsys) -> None:
    err = _one_line_error(["plan", "--current", DESCRIBE, "--add-brokers", "5",
                           "--max-concurrent-moves-per-broker", "1", "--out",
                           str(tmp_path / "c.json"), "--rollback-out",
                           str(tmp_path / "c.batch-002.json")], capsys)
    assert "batch file of --out" in err and list(tmp_path.iterdir()) == []


def test_terminal_names_the_schedule(tmp_path: Path, capsys) -> None:
    out = tmp_path / "w.json"
    assert main([*BASE, "--add-brokers", "5:b", "--max-concurrent-moves-per-broker", "1",
                 "--throttle", "50000000", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    n = len(list(tmp_path.glob("w.batch-*.json")))
    assert f"schedule: {n} batches, at most 1 move per broker each" in text
    assert "--execute --throttle 50000000" in text and "in all, longest batch" in text


def test_summary_carries_the_capacity_threshold(capsys) -> None:
    s = _summary([*BASE, "--add-brokers", "5:b", "--capacity-threshold", "0.7"], capsys)
    assert s["capacity_threshold"] == 0.7


def test_an_infinite_balance_threshold_is_one_line(capsys) -> None:
    err = _one_line_error([*BASE, "--balance-threshold", "inf"], capsys)
    assert "threshold inf" in err


def test_a_rate_beyond_a_long_is_one_line(tmp_path: Path, capsys) -> None:
    rates = tmp_path / "r.csv"
    rates.write_text("topic,partition,bytes_in_per_s,bytes_out_per_s,messages_in_per_s\n"
                     "orders,0,1e308,1,1\n")
    err = _one_line_error(["plan", "--current", DESCRIBE, "--loads", str(rates)], capsys)
    assert "line 2, column bytes_in_per_s" in err and "2^63 - 1" in err


def test_a_leaderless_reassigned_partition_is_warned_about(tmp_path: Path, capsys) -> None:
    describe = tmp_path / "d.txt"
    describe.write_text(Path(DESCRIBE).read_text().replace(
        "Partition: 0\tLeader: 1\tReplicas: 1,2,3\tIsr: 1,2,3",
        "Partition: 0\tLeader: none\tReplicas: 1,2,3\tIsr: "))
    assert main(["plan", "--current", str(describe), "--sizes", SIZES, "--capacity", CAPACITY,
                 "--brokers", "1:a,2:b,3:c,4:a", "--remove-brokers", "1", "--json"]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["kpart: warning: 1 reassigned partition(s) have no leader (first: orders-0): "
                   "a new replica copies from the leader, so their reassignment cannot complete "
                   "until one is elected"]


def test_summary_out_cannot_overwrite_a_report_read_as_loads(tmp_path: Path, capsys) -> None:
    """--loads DIR reads DIR/summary.json: no output may replace it."""
    report = tmp_path / "report"
    report.mkdir()
    (report / "summary.json").write_text("{}")
    err = _one_line_error([*BASE[:-2], "--loads", str(report), "--brokers", "1:a,2:b,3:c,4:a",
                           "--summary-out", str(report / "summary.json")], capsys)
    assert "--summary-out" in err and "--loads" in err
    assert (report / "summary.json").read_text() == "{}"
