"""The Kafka-shaped placement API (issue 11): ``ReplicaPlacer.place(PlacementSpec,
ClusterDescriber) -> TopicAssignment`` for both placers, values with value equality, the old
functions as thin wrappers, ``Plan`` compared by value, errors naming library parameters."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import FrozenInstanceError

import pytest

import kpart
import kpart.placement as placement
from kpart._java.random import JavaRandom
from kpart.cli import main
from kpart.errors import ConfigError, InvalidPartitionsError
from kpart.placement.admin_utils import AdminUtilsReplicaPlacer, assign_replicas_to_brokers
from kpart.placement.planner import plan, plan_reassignment
from kpart.placement.spec import (
    Broker,
    PlacementSpec,
    ReplicaPlacer,
    StaticCluster,
    TopicAssignment,
)
from kpart.placement.striped_replica_placer import StripedReplicaPlacer

RACKS = ["rack1", "rack3", "rack3", "rack2", "rack2", "rack1"]


class ListCluster:
    """A describer that is not kpart's: anything with ``usable_brokers()`` will do."""

    def __init__(self, brokers: list[Broker]) -> None:
        self.brokers = brokers

    def usable_brokers(self) -> Iterator[Broker]:
        return iter(self.brokers)


def test_placement_spec_is_a_frozen_validated_value() -> None:
    spec = PlacementSpec(6, 3, start_partition=2, fixed_start_index=1)
    assert spec == PlacementSpec(6, 3, 2, 1) and hash(spec) == hash(PlacementSpec(6, 3, 2, 1))
    with pytest.raises(FrozenInstanceError):
        spec.num_partitions = 7  # type: ignore[misc]
    with pytest.raises(ConfigError, match=r"^Invalid fixed_start_index -1: ") as info:
        PlacementSpec(1, 1, fixed_start_index=-1)
    assert info.value.parameter == "fixed_start_index"
    with pytest.raises(ConfigError, match=r"^Invalid start_partition 2147483648: "):
        PlacementSpec(1, 1, start_partition=2**31)


def test_topic_assignment_has_value_equality_and_numbering() -> None:
    a = TopicAssignment(((0, 1), (1, 2)), start_partition=3)
    assert a == TopicAssignment(((0, 1), (1, 2)), 3) != TopicAssignment(((0, 1), (1, 2)))
    assert hash(a) == hash(TopicAssignment(((0, 1), (1, 2)), 3))
    assert a.partitions == range(3, 5) and a.replicas(4) == (1, 2)
    assert a.to_dict() == {3: (0, 1), 4: (1, 2)}
    with pytest.raises(KeyError):
        a.replicas(0)


@pytest.mark.parametrize("racks", [None, RACKS])
@pytest.mark.parametrize(("fixed", "start"), [(0, 0), (2, 0), (1, 7), (None, 5)])
def test_adminutils_placer_equals_the_wrapper(racks: list[str] | None, fixed: int | None,
                                              start: int) -> None:
    brokers = [Broker(i, None if racks is None else racks[i]) for i in range(6)]
    spec = PlacementSpec(13, 3, start_partition=start, fixed_start_index=fixed)
    got = AdminUtilsReplicaPlacer(JavaRandom(9)).place(spec, ListCluster(brokers))
    expected = assign_replicas_to_brokers(brokers, 13, 3, fixed_start_index=fixed,
                                          start_partition_id=start or None, seed=9)
    assert got.to_dict() == expected and got.start_partition == start


def test_rack_aware_false_is_a_cluster_without_racks() -> None:
    brokers = [Broker(0, "a"), Broker(1), Broker(2, "b")]  # partial racks
    spec = PlacementSpec(4, 2, fixed_start_index=0)
    got = AdminUtilsReplicaPlacer().place(spec, StaticCluster(tuple(brokers)).without_racks())
    assert got.to_dict() == assign_replicas_to_brokers(brokers, 4, 2, fixed_start_index=0,
                                                       rack_aware=False)


def test_striped_placer_numbers_from_start_partition_as_kafka_callers_do() -> None:
    brokers = [Broker(i, f"r{i % 3}") for i in range(6)]
    legacy = StripedReplicaPlacer(JavaRandom(4)).place(
        brokers=brokers, start_partition=5, num_partitions=4, replication_factor=3)
    got = StripedReplicaPlacer(JavaRandom(4)).place(PlacementSpec(4, 3, start_partition=5),
                                                    StaticCluster(tuple(brokers)))
    assert list(got.assignments) == legacy  # the replicas do not depend on start_partition
    assert got.partitions == range(5, 9)
    assert got == StripedReplicaPlacer(JavaRandom(4)).place(
        PlacementSpec(4, 3, start_partition=5), ListCluster(brokers))


def test_striped_placer_refuses_a_start_index() -> None:
    placer = StripedReplicaPlacer(JavaRandom(1))
    with pytest.raises(ConfigError, match="fixed_start_index 0: the striped placer") as info:
        placer.place(PlacementSpec(1, 1, fixed_start_index=0), StaticCluster.of([0]))
    assert info.value.parameter == "fixed_start_index"
    with pytest.raises(InvalidPartitionsError):
        placer.place(PlacementSpec(-1, 1), StaticCluster.of([0]))
    with pytest.raises(TypeError):
        placer.place(PlacementSpec(1, 1))  # type: ignore[call-overload]


def test_both_placers_are_replica_placers() -> None:
    placers: list[ReplicaPlacer] = [AdminUtilsReplicaPlacer(JavaRandom(1)),
                                    StripedReplicaPlacer(JavaRandom(1))]
    for p in placers:
        got = p.place(PlacementSpec(3, 2), StaticCluster.of([0, 1, 2]))
        assert isinstance(got, TopicAssignment) and len(got.assignments) == 3
    assert {p.name for p in placers} == {"adminutils", "striped"}


def test_names_are_exported_from_kpart_placement() -> None:
    for name in ("PlacementSpec", "ClusterDescriber", "StaticCluster", "TopicAssignment",
                 "ReplicaPlacer", "AdminUtilsReplicaPlacer", "StripedReplicaPlacer", "Plan",
                 "PlanOptions", "place_in_pools", "plan_reassignment"):
        assert getattr(placement, name) is not None
    with pytest.raises(AttributeError):
        placement.nothing  # noqa: B018


def test_plan_compares_and_hashes_by_value() -> None:
    cur = {"t": {0: (0, 1), 1: (1, 0), 2: (0, 1)}}
    a = plan(cur, add_brokers=[Broker(2)])
    b = plan(cur, add_brokers=[Broker(2)])
    assert a is not b and a == b and hash(a) == hash(b)
    assert a != plan(cur)
    assert len({a, b}) == 1


def test_plan_errors_name_library_parameters_and_the_cli_names_flags(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    cur = {"t": {0: (0, 1), 1: (1, 0)}}
    with pytest.raises(ConfigError, match=r"^Invalid max_moves -1: must be >= 0$"):
        kpart.plan_reassignment(cur, max_moves=-1)
    with pytest.raises(ConfigError, match=r"^Unknown broker id 7 in remove_brokers$"):
        plan_reassignment(cur, remove_brokers=[7])
    with pytest.raises(ConfigError, match=r"^Broker list contains duplicate entries in "
                                          r"add_brokers$"):
        plan_reassignment(cur, add_brokers=[Broker(5), Broker(5)])
    with pytest.raises(ConfigError,
                       match=r"^Invalid max_concurrent_moves_per_broker 0: must be >= 1$"):
        plan_reassignment(cur, max_concurrent_moves_per_broker=0)
    with pytest.raises(TypeError, match="max_move"):
        plan_reassignment(cur, max_move=1)  # type: ignore[call-arg]
    from pathlib import Path

    path = Path(str(tmp_path)) / "cur.json"
    path.write_text('{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[0,1]}]}')
    for args, line in [
        (["--max-moves", "-1"], "kpart: error: Invalid --max-moves -1: must be >= 0"),
        (["--remove-brokers", "7"], "kpart: error: Unknown broker id 7 in --remove-brokers"),
        (["--add-brokers", "5,5"],
         "kpart: error: Broker list contains duplicate entries in --add-brokers"),
        (["--max-concurrent-moves-per-broker", "0"],
         "kpart: error: Invalid --max-concurrent-moves-per-broker 0: must be >= 1"),
    ]:
        assert main(["plan", "--current", str(path), *args]) == 2
        assert capsys.readouterr().err.strip() == line
