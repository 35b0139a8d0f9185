"""``kpart plan``, ``kpart pools`` and ``kpart describe`` through ``kpart.cli.main``."""

from __future__ import annotations

import json

import pytest

from kpart.cli import main
from kpart.placement.admin_utils import assign_replicas_to_brokers
from kpart.placement.formats import format_describe, parse_describe
from kpart.placement.reassign import parse_reassignment_json, reassignment_json
from kpart.placement.spec import Broker

TOPIC_TEST4 = {0: (2, 0, 1), 1: (0, 1, 2), 2: (1, 2, 0), 3: (2, 1, 0), 4: (0, 2, 1), 5: (1, 0, 2)}


@pytest.fixture
def describe_file(tmp_path):
    brokers = [Broker(i) for i in range(6)]
    text = format_describe(TOPIC_TEST4, "topic-test4") + format_describe(
        dict(assign_replicas_to_brokers(brokers, 24, 2, fixed_start_index=1)), "events"
    )
    path = tmp_path / "describe.txt"
    path.write_text(text)
    return path


def test_plan_writes_plan_rollback_describe_and_batches(describe_file, tmp_path, capsys):
    out = tmp_path / "out" / "plan.json"
    out.parent.mkdir()  # a missing directory is an error (kpart creates no directories)
    rc = main([
        "plan", "--current", str(describe_file), "--add-brokers", "6,7",
        "--out", str(out), "--rollback", str(tmp_path / "rollback.json"),
        "--describe-out", str(tmp_path / "proposal.txt"), "--topics-out", str(tmp_path / "t.json"),
        "--max-concurrent-moves-per-broker", "2", "--seed", "3", "--json",
    ])
    assert rc == 0
    summary = json.loads(capsys.readouterr().out)
    current = parse_describe(describe_file.read_text())
    plan = parse_reassignment_json(out.read_text())
    rollback = parse_reassignment_json((tmp_path / "rollback.json").read_text())
    for t, parts in plan.items():
        for p in parts:
            assert rollback[t][p] == current[t][p]
    proposal = parse_describe((tmp_path / "proposal.txt").read_text())
    for t, parts in current.items():
        for p, reps in parts.items():
            assert proposal[t][p] == plan.get(t, {}).get(p, reps)
    moved = sum(len(set(r) - set(current[t][p])) for t, ps in plan.items() for p, r in ps.items())
    assert summary["replica_moves"] == moved > 0
    assert summary["generate_replica_moves"] >= moved
    assert summary["after"]["replicas_per_broker"]["6"] > 0
    batches = sorted(tmp_path.glob("out/plan.batch-*.json"))
    assert len(batches) == summary["batches"] >= 2
    merged = {}
    for b in batches:
        for t, ps in parse_reassignment_json(b.read_text()).items():
            merged.setdefault(t, {}).update(ps)
    assert merged == plan
    topics = json.loads((tmp_path / "t.json").read_text())
    assert {x["topic"] for x in topics["topics"]} == set(plan)


def test_plan_accepts_a_reassignment_json_and_prints_a_table(describe_file, tmp_path, capsys):
    cur = tmp_path / "current.json"
    cur.write_text(reassignment_json(parse_describe(describe_file.read_text())))
    sizes = tmp_path / "sizes.json"
    sizes.write_text(json.dumps({f"events-{p}": 1000 for p in range(24)}))
    rc = main(["plan", "--current", str(cur), "--remove-brokers", "5", "--sizes", str(sizes)])
    assert rc == 0
    text = capsys.readouterr().out
    assert "replicas moved" in text and "bytes to move" in text and "--generate" in text


def test_describe_reports_balance(describe_file, capsys):
    rc = main(["describe", "--current", str(describe_file), "--json",
               "--brokers", "0:a,1:a,2:b,3-5:c"])
    assert rc == 0
    report = json.loads(capsys.readouterr().out)
    assert report["partitions"] == 30 and report["replicas"] == 66
    assert sum(report["replicas_per_rack"].values()) == 66
    rc = main(["describe", "--current", str(describe_file)])
    assert rc == 0 and "max/min replicas" in capsys.readouterr().out


def test_pools_command_on_seed_002(tmp_path, capsys):
    brokers = [Broker(i) for i in range(1, 10)]
    text = "".join(
        format_describe(dict(assign_replicas_to_brokers(brokers, 9, 1, fixed_start_index=i)),
                        f"t{i}")
        for i in range(1, 10)
    )
    (tmp_path / "cur.txt").write_text(text)
    pools = {"pools": {"pool1": [1, 2, 3], "pool2": [4, 5, 6], "pool3": [7, 8, 9]},
             "topics": {f"t{i}": f"pool{(i + 2) // 3}" for i in range(1, 10)}}
    (tmp_path / "pools.json").write_text(json.dumps(pools))
    out = tmp_path / "plan.json"
    rc = main(["pools", "--current", str(tmp_path / "cur.txt"), "--pools",
               str(tmp_path / "pools.json"), "--out", str(out), "--json"])
    assert rc == 0
    assert json.loads(capsys.readouterr().out)["replica_moves"] == 54
    plan = parse_reassignment_json(out.read_text())
    for t, parts in plan.items():
        pool = set(pools["pools"][pools["topics"][t]])
        assert all(set(r) <= pool for r in parts.values())


@pytest.mark.parametrize(
    ("args", "current", "message"),
    [
        (["--add-brokers", "x"], None, "Invalid broker 'x' in --add-brokers"),
        (["--remove-brokers", "42"], None, "Unknown broker id 42"),
        (["--brokers", "0,1,2"], None, "Unknown broker id 3"),
        ([], '{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[1,1]}]}',
         "t-0 contains multiple entries for 1"),
        ([], '{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[1,2]},'
             '{"topic":"t","partition":1,"replicas":[1]}]}', "Uneven replication factor"),
        ([], '{"version":1,"partitions":[', "Malformed reassignment JSON"),
        (["--pools", "POOLS:{\"pools\": {\"p\": []}}"], None, "Pool 'p' has no brokers"),
        (["--pools", "POOLS:{\"pools\": {\"p\": {\"brokers\": [0], \"topics\": [\"t\"]}, "
          "\"q\": {\"brokers\": [1], \"topics\": [\"t\"]}}}"], None,
         "Topic 't' is in two pools"),
        (["--max-concurrent-moves-per-broker", "0"], None, "must be >= 1"),
    ],
)
def test_bad_input_exits_2_without_output(args, current, message, describe_file, tmp_path,
                                          capsys):
    cur = describe_file
    if current is not None:
        cur = tmp_path / "bad.json"
        cur.write_text(current)
    fixed = []
    for a in args:
        if a.startswith("POOLS:"):
            (tmp_path / "pools.json").write_text(a[6:])
            a = str(tmp_path / "pools.json")
        fixed.append(a)
    out = tmp_path / "plan.json"
    rc = main(["plan", "--current", str(cur), "--out", str(out), *fixed])
    err = capsys.readouterr().err
    assert rc == 2
    assert message in err and err.count("\n") == 1
    assert not out.exists()
    assert not list(tmp_path.glob(".plan.json.*"))


def test_missing_current_file_exits_2(tmp_path, capsys):
    rc = main(["plan", "--current", str(tmp_path / "nope.txt")])
    assert rc == 2
    assert "nope.txt" in capsys.readouterr().err


def test_pools_command_generate_strategy_and_bad_strategy(tmp_path, capsys):
    brokers = [Broker(i) for i in range(6)]
    text = format_describe(dict(assign_replicas_to_brokers(brokers, 6, 2, fixed_start_index=0)),
                           "x")
    (tmp_path / "cur.txt").write_text(text)
    (tmp_path / "pools.json").write_text('{"pools": {"p": {"brokers": [0, 1, 2], '
                                         '"topics": ["x"]}, "q": [3, 4, 5]}}')
    base = ["pools", "--current", str(tmp_path / "cur.txt"), "--pools",
            str(tmp_path / "pools.json")]
    out = tmp_path / "plan.json"
    assert main([*base, "--strategy", "generate", "--seed", "5", "--out", str(out)]) == 0
    assert "replicas moved" in capsys.readouterr().out
    for reps in parse_reassignment_json(out.read_text())["x"].values():
        assert set(reps) <= {0, 1, 2}
    out.unlink()
    assert main([*base, "--strategy", "bogus", "--out", str(out)]) == 2
    assert "Unknown --strategy 'bogus'" in capsys.readouterr().err
    assert not out.exists()


def test_plan_reads_a_zookeeper_topic_node_named_by_topic(tmp_path, capsys):
    """Seed 001's ZooKeeper node format as --current: it holds no topic name, so --topic is
    required; without it the error says so and nothing is written."""
    node = tmp_path / "node.json"
    node.write_text(json.dumps({"version": 1, "partitions": {
        str(p): list(r) for p, r in TOPIC_TEST4.items()}}))
    out = tmp_path / "plan.json"
    rc = main(["plan", "--current", str(node), "--add-brokers", "3", "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 2 and "--topic" in err and "ZooKeeper topic node" in err and not out.exists()
    rc = main(["plan", "--current", str(node), "--topic", "topic-test4", "--add-brokers", "3",
               "--out", str(out), "--json"])
    assert rc == 0 and json.loads(capsys.readouterr().out)["partitions"] == 6
    plan = parse_reassignment_json(out.read_text())
    assert set(plan) == {"topic-test4"}
    assert any(3 in reps for reps in plan["topic-test4"].values())
    rc = main(["describe", "--current", str(node), "--topic", "topic-test4", "--json"])
    assert rc == 0 and json.loads(capsys.readouterr().out)["replicas"] == 18


def test_plan_rebalance_flag_overrides_the_decommission_default(describe_file, capsys):
    """Removing a broker moves only its replicas by default; --rebalance also evens out the
    rest, and --no-rebalance with added brokers leaves them empty."""
    def summary(*args):
        assert main(["plan", "--current", str(describe_file), "--json", "--no-leaders",
                     *args]) == 0
        return json.loads(capsys.readouterr().out)

    only = summary("--remove-brokers", "5")
    current = parse_describe(describe_file.read_text())
    on_5 = sum(5 in reps for ps in current.values() for reps in ps.values())
    assert only["replica_moves"] == on_5
    full = summary("--remove-brokers", "5", "--rebalance")
    assert full["replica_moves"] >= on_5
    assert full["after"]["replica_ratio"] <= only["after"]["replica_ratio"]
    idle = summary("--add-brokers", "6", "--no-rebalance")
    assert idle["replica_moves"] == 0 and idle["after"]["replicas_per_broker"].get("6", 0) == 0


@pytest.mark.parametrize(("node", "message"), [
    ({"version": 1, "partitions": {}}, "has no partitions"),
    ({"version": 1, "partitions": {"0": [0, 1], "3": [1, 0]}}, "partition ids [0, 3]"),
    ({"version": 1, "partitions": {"0": [0, 1], "1": [1]}}, "partition 1 has 1 replica"),
])
def test_irregular_zookeeper_nodes_are_refused(tmp_path, capsys, node, message):
    """What ZooKeeper lets through (seed 001's topic-test7 kind) is no base for a plan."""
    path = tmp_path / "node.json"
    path.write_text(json.dumps(node))
    rc = main(["plan", "--current", str(path), "--topic", "t", "--add-brokers", "3",
               "--out", str(tmp_path / "plan.json")])
    err = capsys.readouterr().err
    assert rc == 2 and message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "plan.json").exists()


def test_topic_name_only_goes_with_a_zookeeper_node(describe_file, capsys):
    rc = main(["describe", "--current", str(describe_file), "--topic", "x"])
    err = capsys.readouterr().err
    assert rc == 2 and "'x'" in err and "ZooKeeper topic node" in err


def test_plan_never_overwrites_its_input_with_a_batch_file(describe_file, tmp_path, capsys):
    # the --current file has the name the first batch of '-o plan.json' would get
    current = tmp_path / "plan.batch-001.json"
    current.write_text(describe_file.read_text())
    before = current.read_bytes()
    rc = main(["plan", "--current", str(current), "--add-brokers", "6,7",
               "-o", str(tmp_path / "plan.json"), "--max-concurrent-moves-per-broker", "1"])
    err = capsys.readouterr().err
    assert rc == 2 and "--current" in err and "plan.batch-001.json" in err, err
    assert current.read_bytes() == before
    assert not (tmp_path / "plan.json").exists()


def test_plan_refuses_to_leave_batches_of_an_earlier_plan(describe_file, tmp_path, capsys):
    out = tmp_path / "plan.json"
    args = ["plan", "--current", str(describe_file), "--add-brokers", "6,7", "-o", str(out),
            "--seed", "3"]
    assert main([*args, "--max-concurrent-moves-per-broker", "1"]) == 0
    batches = sorted(tmp_path.glob("plan.batch-*.json"))
    assert len(batches) >= 2
    snapshot = {p: p.read_bytes() for p in [out, *batches]}
    capsys.readouterr()
    # the same plan without batches would leave them beside a plan they no longer match
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "earlier plan" in err[0] and batches[0].name in err[0]
    assert {p: p.read_bytes() for p in snapshot} == snapshot
    # the same batching again replaces every batch: allowed
    assert main([*args, "--max-concurrent-moves-per-broker", "1"]) == 0
