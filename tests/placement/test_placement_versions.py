"""Placement by Kafka version (issue 25, the placement rows): ``--generate``'s placer
(AdminUtils to 4.0.x, ``StripedReplicaPlacer`` from 4.1.0, KAFKA-18798), the striped placer
(none before 3.0.0; 4.3.0's KIP-1066 messages), ZooKeeper's partition additions (KAFKA-2146,
0.10.0 to 3.9) and cordoned brokers (KIP-1066, 4.3.0)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kpart import Broker, JavaRandom, StripedReplicaPlacer, assign_replicas_to_brokers
from kpart.cli import main
from kpart.errors import AdminOperationError, ConfigError, InvalidReplicationFactorError
from kpart.placement.cordon import cordoned_brokers, usable_brokers
from kpart.placement.formats import parse_describe
from kpart.placement.manual import add_partitions
from kpart.placement.planner import place_in_pools, plan
from kpart.placement.pools import parse_pools
from kpart.placement.reassign import generate_assignment
from kpart.placement.spec import PlacementSpec, StaticCluster
from kpart.versions import behaviour

ROOT = Path(__file__).resolve().parents[2]
BROKERS = [Broker(i, f"r{i % 3}") for i in range(6)]
CURRENT = {"b": {p: (0, 1) for p in range(4)}, "a": {p: (0, 1, 2) for p in range(5)}}


def test_the_table_says_which_placer_generate_uses() -> None:
    assert [behaviour("generate_placer", v) for v in ("0.10.0.0", "3.9", "4.0.1")] == \
        ["adminutils"] * 3
    assert [behaviour("generate_placer", v) for v in ("4.1.0", "4.2", "4.3", None)] == \
        ["striped"] * 4


@pytest.mark.parametrize("version", ["0.10.2.1", "2.8", "3.9.1", "4.0.0", "4.0"])
def test_generate_before_4_1_is_adminutils_with_one_random(version: str) -> None:
    rnd = JavaRandom(42)
    expected = {"a": dict(assign_replicas_to_brokers(BROKERS, 5, 3, random=rnd)),
                "b": dict(assign_replicas_to_brokers(BROKERS, 4, 2, random=rnd))}
    assert generate_assignment(CURRENT, BROKERS, seed=42, kafka_version=version) == expected


@pytest.mark.parametrize("version", ["4.1.0", "4.2.1", "4.3", None])
def test_generate_from_4_1_is_the_striped_placer_with_one_random(version: str | None) -> None:
    placer = StripedReplicaPlacer(JavaRandom(42))
    cluster = StaticCluster(tuple(BROKERS))
    expected = {t: dict(enumerate(placer.place(PlacementSpec(n, rf), cluster).assignments))
                for t, n, rf in (("a", 5, 3), ("b", 4, 2))}
    got = generate_assignment(CURRENT, BROKERS, seed=42, kafka_version=version)
    assert got == expected
    assert got != generate_assignment(CURRENT, BROKERS, seed=42, kafka_version="4.0")


def test_generate_striped_without_racks_and_with_partial_racks() -> None:
    plain = generate_assignment(CURRENT, BROKERS, seed=7, rack_aware=False)
    placer = StripedReplicaPlacer(JavaRandom(7))
    cluster = StaticCluster(tuple(BROKERS)).without_racks()
    assert plain["a"] == dict(enumerate(placer.place(PlacementSpec(5, 3), cluster).assignments))
    partial = [Broker(0, "r0"), Broker(1), Broker(2, "r1")]
    with pytest.raises(AdminOperationError, match="^Not all brokers have rack information. "
                       "Add --disable-rack-aware in command line"):
        generate_assignment({"t": {0: (0, 1)}}, partial, seed=1)


def test_pools_generate_follows_the_version() -> None:
    spec = parse_pools('{"pools": {"p": [3, 4, 5]}, "topics": {"a": "p", "b": "p"}}')
    for version, striped in (("4.0.1", False), ("4.1.0", True)):
        target = place_in_pools(CURRENT, BROKERS, spec, strategy="generate", seed=3,
                                kafka_version=version).target
        pool = [b for b in BROKERS if b.id >= 3]
        rnd = JavaRandom(3)
        if striped:
            placer = StripedReplicaPlacer(rnd)
            first = dict(enumerate(placer.place(PlacementSpec(5, 3),
                                                StaticCluster(tuple(pool))).assignments))
        else:
            first = dict(assign_replicas_to_brokers(pool, 5, 3, random=rnd))
        assert dict(target["a"]) == first


def test_plan_and_pools_compare_with_the_versions_generate(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """docs' pools example: --generate moves 70 replicas at 4.3 (striped), 69 at 4.0."""
    monkeypatch.chdir(ROOT)
    base = ["pools", "--current", "docs/examples/pools-current.json", "--pools",
            "docs/examples/pools.json", "--seed", "0", "--json"]
    moves = {}
    for version in ("4.0", "4.1.0", None):
        assert main(base + (["--kafka-version", version] if version else [])) == 0
        moves[version] = json.loads(capsys.readouterr().out)["generate_replica_moves"]
    assert moves == {"4.0": 69, "4.1.0": 70, None: 70}


def test_place_adminutils_by_version(capsys: pytest.CaptureFixture[str]) -> None:
    """AdminUtils is gone in 4.1.0 (KAFKA-18799): kpart place's default placer with a 4.1+
    --kafka-version is an error naming it; up to 4.0 (or with no version) the same answer."""
    args = ["place", "--brokers", "0,1,2", "--partitions", "2", "--replication-factor", "2",
            "--seed", "1"]
    assert main(args) == 0
    plain = capsys.readouterr().out
    assert main([*args, "--kafka-version", "0.10.0.0"]) == 0
    assert capsys.readouterr().out == plain
    assert main([*args, "--kafka-version", "4.1.0"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["kpart: error: The AdminUtils placer does not exist in --kafka-version "
                   "'4.1.0': AdminUtils is removed in 4.1.0 (KAFKA-18799); the controller and "
                   "--generate place with the striped placer; kpart supports it for 0.10.0.0 "
                   "to 4.0.1"]


def test_the_striped_placer_does_not_exist_before_3_0() -> None:
    with pytest.raises(ConfigError, match=r"^The KRaft striped placer does not exist in "
                       r"kafka_version '2\.8\.2'.*3\.0\.0 to 4\.3\.1$"):
        StripedReplicaPlacer(JavaRandom(1), kafka_version="2.8.2")
    StripedReplicaPlacer(JavaRandom(1), kafka_version="3.0.0")


@pytest.mark.parametrize(("version", "fenced", "too_few"), [
    ("4.2.1", "All brokers are currently fenced.",
     "The target replication factor of 3 cannot be reached because only 2 broker(s) are "
     "registered."),
    ("4.3.0", "All brokers are currently fenced, or have all their log directories cordoned.",
     "The target replication factor of 3 cannot be reached because only 2 broker(s) are "
     "registered or some brokers have all their log directories cordoned."),
])
def test_the_striped_messages_follow_the_version(version: str, fenced: str,
                                                 too_few: str) -> None:
    placer = StripedReplicaPlacer(JavaRandom(1), kafka_version=version)
    with pytest.raises(InvalidReplicationFactorError) as info:
        placer.place(PlacementSpec(1, 1), StaticCluster((Broker(0, fenced=True),)))
    assert str(info.value) == fenced
    with pytest.raises(InvalidReplicationFactorError) as info:
        placer.place(PlacementSpec(1, 3), StaticCluster.of([0, 1]))
    assert str(info.value) == too_few


def test_adding_partitions_in_zookeeper_mode_by_version() -> None:
    """KAFKA-2146: the new partitions start at the first broker with id >= partition 0's
    first replica, 0.10.0 to 3.9; ZooKeeper mode is gone in 4.0."""
    existing = {0: (2, 0, 1), 1: (0, 1, 2)}
    expected = {2: (1, 2, 0), 3: (2, 1, 0)}
    for version in (None, "0.10.0.0", "2.8.2", "3.9"):
        assert add_partitions(existing, [0, 1, 2], 4, kafka_version=version) == expected
    with pytest.raises(ConfigError, match="does not exist in kafka_version '4.0.0'"):
        add_partitions(existing, [0, 1, 2], 4, kafka_version="4.0.0")


def test_cordoned_brokers_by_version() -> None:
    assert cordoned_brokers("3,5") == frozenset({3, 5})
    assert cordoned_brokers([3], kafka_version="4.3.0") == frozenset({3})
    assert cordoned_brokers(None, kafka_version="2.8") == frozenset()
    for version in ("4.2.1", "3.9", "0.10.0.0"):
        with pytest.raises(ConfigError, match=f"does not exist in kafka_version '{version}'"):
            cordoned_brokers("3", kafka_version=version)
    assert [b.id for b in usable_brokers(BROKERS, frozenset({1, 4}))] == [0, 2, 3, 5]
    with pytest.raises(ConfigError, match="Unknown broker id 9 in cordoned"):
        usable_brokers(BROKERS, frozenset({9}))


def test_place_skips_cordoned_brokers(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["place", "--brokers", "0,1,2,3,4,5", "--partitions", "12", "--replication-factor",
            "3", "--placer", "striped", "--seed", "5"]
    assert main([*args, "--cordoned", "3,5"]) == 0
    placed = parse_describe(capsys.readouterr().out)["topic"]
    assert {b for r in placed.values() for b in r} == {0, 1, 2, 4}
    placer = StripedReplicaPlacer(JavaRandom(5))
    expected = placer.place(PlacementSpec(12, 3), StaticCluster.of([0, 1, 2, 4]))
    assert placed == expected.to_dict()


def test_create_topics_with_more_replicas_than_usable_brokers(
        capsys: pytest.CaptureFixture[str]) -> None:
    args = ["place", "--brokers", "0,1,2,3", "--partitions", "1", "--replication-factor", "3",
            "--placer", "striped", "--cordoned", "1,2"]
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["kpart: error: cannot place 1 partition(s) with replication factor 3 on "
                   "brokers 0,1,2,3: The target replication factor of 3 cannot be reached "
                   "because only 2 broker(s) are registered or some brokers have all their "
                   "log directories cordoned."]


def test_cordoned_before_4_3_is_one_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["place", "--brokers", "0,1,2,3", "--partitions", "1", "--replication-factor", "2",
            "--placer", "striped", "--cordoned", "1", "--kafka-version", "4.2"]
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--cordoned" not in err[0]
    assert err[0].startswith("kpart: error: Cordoning log dirs (cordoned.log.dirs) does not "
                             "exist in --kafka-version '4.2'")


def test_plan_never_moves_a_replica_to_a_cordoned_broker() -> None:
    current = {"t": {p: (p % 3, (p + 1) % 3) for p in range(12)}}
    new = [Broker(3), Broker(4), Broker(5)]
    free = plan(current, [Broker(0), Broker(1), Broker(2)], add_brokers=new)
    assert any(4 in r for r in free.target["t"].values())
    held = plan(current, [Broker(0), Broker(1), Broker(2)], add_brokers=new, cordoned=[4])
    assert all(4 not in r for r in held.target["t"].values())
    assert any(3 in r for r in held.target["t"].values())
    # a cordoned broker keeps its replicas (it is not drained)
    kept = plan(current, [Broker(0), Broker(1), Broker(2)], add_brokers=new, cordoned=[0])
    assert sum(0 in r for r in kept.target["t"].values()) > 0
    assert all(0 not in r for (p, r) in kept.target["t"].items() if 0 not in current["t"][p])
    with pytest.raises(ConfigError, match="kafka_version '4.2'"):
        plan(current, add_brokers=new, cordoned=[4], kafka_version="4.2")


def test_plan_command_cordoned(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    out = tmp_path / "plan.json"
    assert main(["plan", "--current", "docs/examples/topic-test4.describe.txt",
                 "--add-brokers", "4,5,6", "--cordoned", "5", "-o", str(out)]) == 0
    capsys.readouterr()
    moves = json.loads(out.read_text())["partitions"]
    assert moves and all(5 not in m["replicas"] for m in moves)


def test_plan_with_no_uncordoned_broker_left_is_one_error() -> None:
    with pytest.raises(InvalidReplicationFactorError, match=r"^No broker can take a replica "
                       r"of t-0: the brokers it may use hold it already or are cordoned \(2\)"):
        plan({"t": {0: (0, 1)}}, [Broker(0), Broker(1), Broker(2)], remove_brokers=[0],
             cordoned=[2])
