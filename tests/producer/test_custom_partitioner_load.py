"""Custom partitioners: loading by import path, the shipped geography sample, the checks on
returned partitions, and ``kpart simulate --partitioner`` (exit 2 on bad input)."""

from __future__ import annotations

import json
import sys
import textwrap

import pytest

from kpart.cli import main
from kpart.errors import ConfigError, InvalidPartitionError
from kpart.producer.cluster import Cluster
from kpart.producer.custom import Partitioner, check_partition, load_partitioner
from kpart.producer.geography_partitioner import GeographyPartitioner
from kpart.producer.simulate import ProducerConfig, Record, generate_records, simulate

GEO = "kpart.producer.geography_partitioner:GeographyPartitioner"

# Two data centres: brokers 1, 3 in the north, 2, 4 in the south (seed 004's example).
RACKS = {1: "north-a", 2: "south-a", 3: "north-b", 4: "south-b"}
CLUSTER = Cluster.of("signup", [1, 2, 3, 4, 1, 2], racks=RACKS)
SOUTH = {1, 3, 5}


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    """Write a module of custom partitioners on sys.path; return its name."""
    name = "kpart_test_user_partitioners"
    (tmp_path / f"{name}.py").write_text(
        textwrap.dedent(
            """
            class Seven:
                def partition(self, topic, key, key_bytes, value, value_bytes, cluster):
                    return 7

            class Minus:
                def partition(self, topic, key, key_bytes, value, value_bytes, cluster):
                    return -1

            class LastAvailable:
                def __init__(self):
                    self.configs = None
                def configure(self, configs):
                    self.configs = configs
                def partition(self, topic, key, key_bytes, value, value_bytes, cluster):
                    return cluster.available_partitions_for_topic(topic)[-1].partition

            class NotAPartitioner:
                pass
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name
    sys.modules.pop(name, None)


def _users(n: int) -> list[Record]:
    regions = ["south", "north", "south", "south", "north"]
    return [Record(i, 100, f"{regions[i % 5]}:{i}".encode()) for i in range(n)]


def test_custom_partitioner_geography_loads_by_import_path():
    g = load_partitioner(GEO)
    assert isinstance(g, GeographyPartitioner) and isinstance(g, Partitioner)
    # also the dotted form Kafka's partitioner.class uses
    assert isinstance(load_partitioner(GEO.replace(":", ".")), GeographyPartitioner)


def test_custom_partitioner_geography_keeps_regions_apart_in_a_simulation():
    recs = _users(500)
    r = simulate(recs, load_partitioner(GEO), CLUSTER, ProducerConfig(linger_ms=5), seed=1)
    for rec, p in zip(recs, r.partitions, strict=True):
        south = rec.key.startswith(b"south:")
        assert (p in SOUTH) == south, (rec.key, p)
    # spread over every partition of each region (its onNewBatch avoids the KAFKA-9965 skip)
    assert all(n > 0 for n in r.records)
    south_counts = [r.records[p] for p in sorted(SOUTH)]
    assert max(south_counts) - min(south_counts) <= 1


def test_custom_partitioner_geography_value_region_and_configure():
    g = load_partitioner(GEO, {"geo.south.racks": "north-b", "geo.south.regions": "cold"})
    assert g.partition("signup", None, None, {"region": "cold"}, None, CLUSTER) == 2
    assert g.partition("signup", None, b"south:1", None, None, CLUSTER) in {0, 1, 3, 4, 5}


def test_custom_partitioner_geography_without_southern_leader_names_topic():
    north_only = Cluster.of("signup", [1, 3], racks={1: "north-a", 3: "north-b"})
    with pytest.raises(ConfigError, match="'signup'.*southern"):
        GeographyPartitioner().partition("signup", None, b"south:1", None, None, north_only)


def test_custom_partitioner_out_of_range_is_an_error_naming_the_value(user_module):
    six = Cluster.round_robin("t", 6, 2)
    with pytest.raises(InvalidPartitionError, match=r"record: 7 is not in the range \[0\.\.\.6\)"):
        simulate(generate_records(3, 10, 10), load_partitioner(f"{user_module}:Seven"), six)
    with pytest.raises(InvalidPartitionError, match="invalid partition number: -1"):
        simulate(generate_records(3, 10, 10), load_partitioner(f"{user_module}:Minus"), six)
    with pytest.raises(InvalidPartitionError, match="'2'"):
        check_partition("2", "t", 6)


def test_custom_partitioner_configure_and_cluster_view(user_module):
    p = load_partitioner(f"{user_module}:LastAvailable", {"a": "b"})
    assert p.configs == {"a": "b"}
    cluster = Cluster.of("t", [0, 1, None], racks={0: None})
    r = simulate(generate_records(20, 100, 10), p, cluster, seed=0)
    assert r.records == (0, 20, 0)


@pytest.mark.parametrize(
    "spec, fragment",
    [
        ("no_such_module_xyz:Part", "no module 'no_such_module_xyz'"),
        ("kpart.producer.custom:NoSuchClass", "has no attribute 'NoSuchClass'"),
        ("justaname", "expected module:ClassName"),
    ],
)
def test_custom_partitioner_unknown_import_path_names_it(spec, fragment):
    with pytest.raises(ConfigError) as e:
        load_partitioner(spec)
    assert f"Invalid value {spec} for configuration partitioner.class" in str(e.value)
    assert fragment in str(e.value)


def test_custom_partitioner_object_without_partition_method(user_module):
    with pytest.raises(ConfigError, match="NotAPartitioner is not an instance of"):
        load_partitioner(f"{user_module}:NotAPartitioner")


# --- CLI ---------------------------------------------------------------------------------------


def test_custom_partitioner_cli_runs_the_geography_sample(capsys, tmp_path):
    out = tmp_path / "sim.json"
    argv = ["simulate", "--partitioner", GEO, "-p", "4", "--brokers", "2", "--rack", "1=south",
            "-n", "40", "--seed", "1", "--json", "-o", str(out)]  # fmt: skip
    assert main(argv) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(out.read_text())
    (result,) = printed
    assert result["strategy"] == GEO
    assert result["records"] == [20, 0, 20, 0]  # no region -> the northern partitions 0, 2


def test_custom_partitioner_cli_compares_strategies_side_by_side(capsys):
    argv = ["simulate", "-s", "legacy,sticky", "-s", "builtin", "-n", "500", "--seed", "3",
            "--linger-ms", "10"]  # fmt: skip
    assert main(argv) == 0
    text = capsys.readouterr().out
    for name in ("legacy", "sticky", "builtin", "per partition"):
        assert name in text


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["--partitioner", "no_such_module_xyz:P"], "no_such_module_xyz:P"),
        (["--partitioner", "{mod}:Seven", "-p", "6"], "7 is not in the range [0...6)"),
        (["-s", "bogus"], "'bogus'"),
        (["--linger-ms", "-5"], "-5.0"),
        (["--broker-latency", "2:300"], "'2:300'"),
        (["--unavailable", "9"], "9"),
    ],
)
def test_custom_partitioner_cli_bad_input_exits_2(argv, fragment, user_module, capsys, tmp_path):
    out = tmp_path / "never.json"
    argv = [a.replace("{mod}", user_module) for a in argv]
    assert main(["simulate", "-n", "20", "-o", str(out), *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and fragment in err[0]
    assert not out.exists()


def test_custom_partitioner_cli_reads_a_record_file(tmp_path, capsys):
    f = tmp_path / "records.csv"
    f.write_text("timestamp_ms,size,key,region\n0,100,,south\n1,100,,north\n2,100,,south\n")
    argv = ["simulate", "--input", str(f), "--partitioner", GEO, "-p", "2", "--brokers", "2",
            "--rack", "1=south", "--json"]  # fmt: skip
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)[0]["records"] == [1, 2]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"timestamp_ms": 0, "size": "big"}\n')
    assert main(["simulate", "--input", str(bad)]) == 2
    assert "bad.jsonl:1" in capsys.readouterr().err
