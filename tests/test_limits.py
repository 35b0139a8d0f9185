"""Issue 10 point 3: every count a user gives is bounded (kpart.limits) before anything large is
allocated; the error is one line naming the value, the limit and why; the largest allowed
values still work; an estimate of memory is checked before large allocations."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from kpart import limits
from kpart.cli import main
from kpart.errors import ConfigError, InvalidPartitionsError, InvalidReplicationFactorError
from kpart.topology import DEFAULT_TOPOLOGY_TEXT, parse_topology

SRC = str(Path(__file__).resolve().parents[1] / "src")

# -- the check functions ------------------------------------------------------------------------


@pytest.mark.parametrize(("call", "error", "words"), [
    (lambda: limits.check_partitions(limits.MAX_PARTITIONS_PER_TOPIC + 1, "--partitions"),
     InvalidPartitionsError, ["--partitions", "1048577", "kpart's limit of 1,048,576",
                              "partitions per topic", "would be needed"]),
    (lambda: limits.check_partitions(2**31, "-n"), InvalidPartitionsError,
     ["-n", "2147483648", "Kafka's limit of 2,147,483,647", "INT32"]),
    (lambda: limits.check_replication_factor(2**15, "rf"), InvalidReplicationFactorError,
     ["rf", "32768", "Kafka's limit of 32,767", "INT16 in CreateTopicsRequest"]),
    (lambda: limits.check_replication_factor(17, "rf", num_partitions=1 << 20),
     InvalidReplicationFactorError, ["17", "17,825,792 replicas", "16,777,216 replicas"]),
    (lambda: limits.check_brokers(limits.MAX_BROKERS + 1, "--brokers"), ConfigError,
     ["--brokers", "65537", "65,536 brokers"]),
    (lambda: limits.check_broker_id(2**31, "id"), ConfigError,
     ["2147483648", "Kafka's limit of 2,147,483,647", "BrokerId is an INT32"]),
    (lambda: limits.check_members(limits.MAX_MEMBERS + 1, "group members"), ConfigError,
     ["131073", "131,072 members per group", "10,000"]),
    (lambda: limits.check_topics(limits.MAX_TOPICS + 1, "group topics"), ConfigError,
     ["65537", "65,536 topics"]),
    (lambda: limits.check_records(limits.MAX_SIMULATED_RECORDS + 1, "--records"), ConfigError,
     ["--records", "10000001", "10,000,000 simulated records", "record by record"]),
    (lambda: limits.check_group([1 << 20] * 4 + [1], 2), InvalidPartitionsError,
     ["4194305", "4,194,304 partitions in total"]),
    (lambda: limits.check_whatif([1 << 20] * 17), InvalidPartitionsError,
     ["17825792", "16,777,216 partitions summed"]),
    (lambda: limits.check_cluster(10, limits.MAX_REPLICAS_TOTAL + 1, 3),
     InvalidReplicationFactorError, ["16777217", "16,777,216 replicas"]),
])
def test_a_check_names_the_value_the_limit_and_why(call, error, words) -> None:
    with pytest.raises(error) as e:
        call()
    message = str(e.value)
    assert "\n" not in message
    for w in words:
        assert w in message, (w, message)


def test_kafkas_largest_shapes_stay_within_the_limits(monkeypatch) -> None:
    monkeypatch.setattr(limits, "available_memory", lambda: 64 << 30)
    assert limits.check_group([2_000] * 500, 2_000) == 1_000_000  # assignor benchmarks
    assert limits.check_members(10_000) == 10_000  # KIP-848 benchmarks
    limits.check_cluster(933_334, 2_800_002, 215)  # a 2.8M-replica cluster plan
    limits.check_placement(limits.MAX_PARTITIONS_PER_TOPIC, 16)
    assert limits.check_partitions(limits.MAX_PARTITIONS_PER_TOPIC) == 1 << 20
    assert limits.check_replication_factor(limits.KAFKA_MAX_REPLICATION_FACTOR) == 32767
    assert limits.check_broker_id(2**31 - 1) == 2**31 - 1


def test_placement_at_the_per_topic_limit_works_and_one_more_is_refused() -> None:
    from kpart.placement.admin_utils import assign_replicas_to_brokers_array
    from kpart.placement.spec import Broker

    brokers = [Broker(i) for i in range(6)]
    a = assign_replicas_to_brokers_array(brokers, limits.MAX_PARTITIONS_PER_TOPIC, 1, seed=1)
    assert a.shape == (1 << 20, 1)
    with pytest.raises(InvalidPartitionsError, match="1,048,576 partitions per topic"):
        assign_replicas_to_brokers_array(brokers, limits.MAX_PARTITIONS_PER_TOPIC + 1, 1)


def test_the_core_functions_check_too() -> None:
    from kpart._java.random import JavaRandom
    from kpart.consumer.spec import GroupSpec, Member, Topic
    from kpart.placement.spec import Broker
    from kpart.placement.striped_replica_placer import StripedReplicaPlacer
    from kpart.producer.whatif import whatif_counts

    with pytest.raises(InvalidPartitionsError, match="1000000000"):
        Topic("t", 1_000_000_000)
    with pytest.raises(ConfigError, match="131,072 members"):
        GroupSpec((Topic("t", 1),), tuple(Member(f"m{i}", ("t",)) for i in range(131_073)))
    with pytest.raises(InvalidPartitionsError, match="2000000"):
        StripedReplicaPlacer(JavaRandom(1)).place(
            brokers=[Broker(0), Broker(1)], num_partitions=2_000_000, replication_factor=1)
    with pytest.raises(InvalidPartitionsError, match="16,777,216"):
        whatif_counts(12, [16], (1_000_000, 1_004_000))


def test_the_topology_refuses_huge_counts_naming_the_field() -> None:
    text = DEFAULT_TOPOLOGY_TEXT.replace("partitions = 12", "partitions = 1000000000")
    with pytest.raises(ConfigError, match=r"^topic\.partitions: 1000000000 is above kpart's "):
        parse_topology(text)
    members = ", ".join(f'"c{i}"' for i in range(limits.MAX_MEMBERS + 1))
    text = DEFAULT_TOPOLOGY_TEXT + f'\n[[groups]]\nname = "big"\nstrategy = "range"\n' \
        f"members = [{members}]\n"
    with pytest.raises(ConfigError, match=r"groups\[2\]\.members: 131073 is above"):
        parse_topology(text)


# -- memory -------------------------------------------------------------------------------------


def test_the_memory_estimate_refuses_what_the_machine_cannot_hold(monkeypatch, capfd) -> None:
    monkeypatch.setattr(limits, "available_memory", lambda: 100 << 20)
    code = main(["place", "--brokers", "0,1,2", "--partitions", "1048576",
                 "--replication-factor", "3"])
    err = capfd.readouterr().err.strip()
    assert code == 2
    assert err == ("kpart: error: placing 1,048,576 partitions with replication factor 3 needs "
                   "~768 MiB of memory, more than the 100 MiB available")
    # small work is never checked (no /proc reads): an estimate below MEMORY_CHECK_FROM passes
    assert limits.check_memory(limits.MEMORY_CHECK_FROM - 1, "x") == limits.MEMORY_CHECK_FROM - 1


def test_available_memory_is_bounded_by_meminfo_and_rlimit() -> None:
    free = limits.available_memory()
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        line = next(x for x in meminfo.read_text().splitlines() if x.startswith("MemAvailable"))
        assert free is not None and free <= int(line.split()[1]) * 1024 * 2  # moves meanwhile
    code = ("import resource; resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31)); "
            "from kpart.limits import available_memory; print(available_memory())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": SRC}, check=True).stdout
    assert 0 < int(out) < 1 << 31


def test_a_cgroup_limit_counts_reclaimable_page_cache_as_free(tmp_path) -> None:
    assert limits._cgroup_available(tmp_path) is None  # no cgroup files: no limit known
    (tmp_path / "memory.max").write_text("max\n")
    (tmp_path / "memory.current").write_text("100\n")
    assert limits._cgroup_available(tmp_path) is None  # v2 without a limit
    (tmp_path / "memory.max").write_text(f"{8 << 30}\n")
    (tmp_path / "memory.current").write_text(f"{7 << 30}\n")
    (tmp_path / "memory.stat").write_text(f"anon 1\ninactive_file {2 << 30}\n")
    assert limits._cgroup_available(tmp_path) == 3 << 30
    v1 = tmp_path / "v1"
    (v1 / "memory").mkdir(parents=True)
    (v1 / "memory" / "memory.limit_in_bytes").write_text(f"{4 << 30}\n")
    (v1 / "memory" / "memory.usage_in_bytes").write_text(f"{1 << 30}\n")
    assert limits._cgroup_available(v1) == 3 << 30


# -- entry points fail fast, without allocating -------------------------------------------------

_HUGE = [
    ["place", "--brokers", "0,1,2", "--partitions", "1000000000", "--replication-factor", "3"],
    ["place", "--brokers", "0,1,2", "--placer", "striped", "--partitions", "1000000000",
     "--replication-factor", "3"],
    ["simulate", "-n", "1000000000"],
    ["simulate", "-p", "1000000000", "-n", "1"],
    ["whatif", "-n", "1000000000", "--to", "12", "--keys", "a"],
    ["compat", "-n", "1000000000", "--keys", "a"],
    ["plan", "--current", "{d}/d.txt", "--brokers", "0-2000000000"],
    ["assign", "{d}/g.json"],
    ["rebalance", "{d}/sc.json", "-s", "sticky"],
    ["report", "--topology", "{d}/t.toml", "--out", "{d}/out"],
]


def _files(d: Path) -> None:
    (d / "d.txt").write_text("Topic: t\tPartitionCount: 1\tReplicationFactor: 2\tConfigs: \n"
                             "Topic: t\tPartition: 0\tLeader: 0\tReplicas: 0,1\tIsr: 0,1\n")
    (d / "g.json").write_text(json.dumps(
        {"topics": {"t": 1_000_000_000}, "members": [{"id": "a", "topics": ["t"]}]}))
    (d / "sc.json").write_text(json.dumps({"topics": {"t": 1_000_000_000},
                                           "steps": [{"join": [{"id": "a", "topics": ["t"]}]}]}))
    (d / "t.toml").write_text(DEFAULT_TOPOLOGY_TEXT.replace("partitions = 12",
                                                            "partitions = 1000000000"))


@pytest.mark.parametrize("argv", _HUGE, ids=lambda a: "-".join(a[:2]))
def test_a_huge_count_fails_fast_without_allocating(argv, tmp_path, capfd) -> None:
    _files(tmp_path)
    main(["version"])  # commands registered, their modules imported outside the measure
    capfd.readouterr()
    tracemalloc.start()
    try:
        code = main([a.replace("{d}", str(tmp_path)) for a in argv])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    err = capfd.readouterr().err
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("kpart: error: "), err
    assert "limit of" in lines[0], lines[0]
    assert peak < 64 << 20, f"{peak / 2**20:.0f} MiB traced before the error"
    assert not (tmp_path / "out").exists()


def test_report_checks_the_topology_before_spark_starts(tmp_path) -> None:
    _files(tmp_path)
    code = ("import sys; from kpart.cli import main; "
            f"rc = main(['report', '--topology', {str(tmp_path / 't.toml')!r}]); "
            "print('pyspark.sql' in sys.modules); sys.exit(rc)")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": SRC}, cwd=tmp_path)
    assert p.returncode == 2, p.stderr
    assert p.stdout.strip() == "False"  # Spark was never imported, let alone started
    assert p.stderr.startswith("kpart: error: ") and "1,048,576 partitions per topic" in p.stderr


def _limited(gib: float):
    limit = int(gib * 2**30)

    def set_limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return set_limit


@pytest.mark.parametrize("argv", [
    ["place", "--brokers", "0,1,2", "--partitions", "1000000000", "--replication-factor", "3"],
    ["simulate", "-n", "1000000000", "-s", "sticky"],
], ids=["place", "simulate"])
def test_under_a_1_gib_address_space_a_huge_count_is_one_line(argv) -> None:
    """Before the limits, these ended in numpy's _ArrayMemoryError traceback / MemoryError."""
    p = subprocess.run([sys.executable, "-m", "kpart.cli", *argv], capture_output=True,
                       text=True, env={**os.environ, "PYTHONPATH": SRC},
                       preexec_fn=_limited(1))
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert "1000000000 is above kpart's limit" in p.stderr


def test_under_600_mib_the_memory_estimate_refuses_an_allowed_but_too_large_placement() -> None:
    p = subprocess.run([sys.executable, "-m", "kpart.cli", "place", "--brokers", "0,1,2",
                        "--partitions", "1048576", "--replication-factor", "3"],
                       capture_output=True, text=True, env={**os.environ, "PYTHONPATH": SRC},
                       preexec_fn=_limited(600 / 1024))
    assert p.returncode == 2, p.stderr
    assert p.stderr.startswith("kpart: error: placing 1,048,576 partitions with replication "
                               "factor 3 needs ~768 MiB of memory, more than the "), p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


def test_the_docs_page_lists_every_limit_with_its_value() -> None:
    """docs/limits.md cannot drift from kpart.limits: every constant, with its value."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "limits.md").read_text()
    rows = {line.split("|")[1].strip(" `"): line.split("|")[2].strip()
            for line in page.splitlines() if line.startswith("| `")}
    names = [n for n in limits.__all__ if n.startswith(("MAX_", "KAFKA_"))]
    assert sorted(rows) == sorted(names)
    for name in names:
        assert rows[name] == f"{getattr(limits, name):,}", name


def test_simulate_counts_an_input_files_records_before_parsing_it(
        monkeypatch, tmp_path, capfd) -> None:
    monkeypatch.setattr(limits, "MAX_SIMULATED_RECORDS", 5)
    f = tmp_path / "records.csv"
    f.write_text("timestamp_ms,size\n" + "".join(f"{i},100\n" for i in range(10)))
    assert main(["simulate", "-i", str(f), "-n", "1"]) == 2
    err = capfd.readouterr().err.strip()
    assert err == (f"kpart: error: {f}: 11 is above kpart's limit of 5 simulated records (the "
                   "simulation runs record by record in Python: ~5.5 KiB would be needed)")


def test_an_input_file_named_like_a_parameter_is_still_named_as_a_file(
        monkeypatch, tmp_path, capfd) -> None:
    monkeypatch.setattr(limits, "MAX_SIMULATED_RECORDS", 5)
    monkeypatch.chdir(tmp_path)
    Path("records").write_text("timestamp_ms,size\n" + "".join(f"{i},100\n" for i in range(10)))
    assert main(["simulate", "-i", "records", "-n", "1"]) == 2
    err = capfd.readouterr().err.strip()
    assert err.startswith("kpart: error: records: 11 is above kpart's limit"), err  # not --records


def test_a_files_argument_name_is_printed_as_it_is(tmp_path, capfd) -> None:
    """``FILE``/``SCENARIO_FILE`` are argument names, not library parameters (no ``--FILE``)."""
    missing = tmp_path / "nope.json"
    assert main(["assign", str(missing)]) == 2
    assert capfd.readouterr().err.startswith("kpart: error: FILE: cannot read ")


# -- what the errors name (issue 11, point 6) ---------------------------------------------------


def test_a_library_parameter_is_carried_and_the_cli_names_its_flag(capfd) -> None:
    from kpart.cli._flags import flag_for
    from kpart.placement.admin_utils import assign_replicas_to_brokers

    with pytest.raises(InvalidPartitionsError) as e:
        assign_replicas_to_brokers(list(range(3)), 2_000_000, 1)
    assert e.value.parameter == "num_partitions"
    assert str(e.value).startswith("num_partitions: 2000000 is above kpart's limit")
    assert e.value.naming(flag_for(e.value.parameter)).startswith("--partitions: 2000000 ")
    with pytest.raises(InvalidReplicationFactorError) as e:
        limits.check_placement(12, 40_000)
    assert e.value.parameter == "replication_factor"
    assert str(e.value).startswith("replication_factor: 40000 is above Kafka's limit")
    # the command line names its flags, as before
    assert main(["place", "--brokers", "0,1,2", "--partitions", "2000000",
                 "--replication-factor", "1"]) == 2
    assert capfd.readouterr().err.startswith("kpart: error: --partitions: 2000000 is above ")


def test_a_description_is_printed_as_it_is_and_names_no_parameter() -> None:
    for what in ("topic.partitions", "partition count of topic 't'", "--partitions"):
        with pytest.raises(InvalidPartitionsError) as e:
            limits.check_partitions(2_000_000, what)
        assert e.value.parameter is None and str(e.value).startswith(f"{what}: 2000000 ")


def test_no_library_caller_passes_a_command_line_flag() -> None:
    """Only kpart.cli names flags: a library caller of a kpart.limits check names its parameter
    (the CLI maps it to the flag) or a description."""
    import ast

    checks = {name for name in limits.__all__ if name.startswith("check_")}
    package = Path(SRC) / "kpart"
    found = []
    for path in sorted(package.rglob("*.py")):
        if path.parent.name == "cli" or path.name == "limits.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name not in checks:
                continue
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                first = arg.values[0] if isinstance(arg, ast.JoinedStr) and arg.values else arg
                if isinstance(first, ast.Constant) and str(first.value).startswith("-"):
                    found.append(f"{path.relative_to(package)}:{node.lineno}")
    assert found == []
