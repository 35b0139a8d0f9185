"""Golden vectors of replica placement per Kafka release (``tests/golden/<version>/``
``replicas_striped``, ``replicas_adminutils`` and ``add_partitions_adminutils``, made by
``tools/golden``'s ``StripedDriver`` and ``AdminUtilsDriver`` from each release's own classes; see
``tests/golden/FORMAT.md``, section "Per-release placement vectors").

Every case is run on kpart with that release: ``StripedReplicaPlacer(..., kafka_version=release)``
(its error messages changed in 4.3, KIP-1066), ``add_partitions(..., kafka_version=release)``, and
``assign_replicas_to_brokers`` for a release whose rule ``adminutils_placer`` has AdminUtils (the
function has no version argument: its answer is the same in every release that has it). Compared
exactly, errors by Java class and message."""

from __future__ import annotations

import pytest

import kpart
from golden_vectors import load_golden
from kpart import Broker, assign_replicas_to_brokers
from kpart.errors import KpartError
from kpart.placement.manual import add_partitions
from kpart.placement.striped_replica_placer import StripedReplicaPlacer
from kpart.versions import behaviour

FILES = {
    # file: (releases, cases)
    "replicas_striped": (("3.0.2", "3.6.2", "4.0.0", "4.3"), 286),
    "replicas_adminutils": (("3.6.2", "3.9.0", "4.0.0"), 348),
    "add_partitions_adminutils": (("3.6.2", "3.9.0"), 140),
}
_BASE = {name: {c["id"]: c for c in load_golden(name)}
         for name in ("replicas_striped", "replicas_adminutils")}


def _cases(name: str) -> list:
    releases, _ = FILES[name]
    return [pytest.param(v, c, id=f"{v}-{c['id']}")
            for v in releases for c in load_golden(f"{v}/{name}")]


@pytest.mark.parametrize("name", FILES)
def test_release_files_are_complete(name: str) -> None:
    releases, count = FILES[name]
    ids = None
    for v in releases:
        cases = load_golden(f"{v}/{name}")
        assert len(cases) == count
        assert {c["source"]["kafka_version"] for c in cases} == {v}
        assert ids is None or [c["id"] for c in cases] == ids
        ids = [c["id"] for c in cases]
    if name in _BASE:
        assert ids == list(_BASE[name])


def test_4_3_striped_messages_name_cordoned_log_dirs() -> None:
    moved = [c for c in load_golden("4.3/replicas_striped") if c["differs_from_4_0_0"]]
    assert len(moved) == 31
    for c in moved:
        messages = [r["error"]["message"] for r in c["expected"]["results"] if "error" in r]
        assert any("cordoned" in m for m in messages)


def _check_error(info: pytest.ExceptionInfo, err: dict) -> None:
    assert info.value.java_class == err["class"]
    assert str(info.value) == err["message"]


@pytest.mark.parametrize("version,case", _cases("replicas_striped"))
def test_striped_equals_the_release(version: str, case: dict) -> None:
    inp = _BASE["replicas_striped"][case["id"]]["input"]
    brokers = [Broker(b["id"], b["rack"], b["fenced"]) for b in inp["brokers"]]
    placer = StripedReplicaPlacer(kpart.JavaRandom(inp["seed"]), kafka_version=version)
    for spec, expected in zip(inp["placements"], case["expected"]["results"], strict=True):
        kw = {"brokers": brokers, "start_partition": spec["start_partition"],
              "num_partitions": spec["partitions"],
              "replication_factor": spec["replication_factor"]}
        if "error" in expected:
            with pytest.raises(KpartError) as info:
                placer.place(**kw)
            _check_error(info, expected["error"])
        else:
            assert [list(r) for r in placer.place(**kw)] == expected["assignment"]


@pytest.mark.parametrize("version,case", _cases("replicas_adminutils"))
def test_adminutils_equals_the_release(version: str, case: dict) -> None:
    assert behaviour("adminutils_placer", version) == "adminutils"
    inp = _BASE["replicas_adminutils"][case["id"]]["input"]
    brokers = [Broker(b["id"], b["rack"]) for b in inp["brokers"]]
    kw = {"fixed_start_index": inp["fixed_start_index"],
          "start_partition_id": None if inp["start_partition_id"] < 0
          else inp["start_partition_id"]}
    expected = case["expected"]
    if "error" in expected:
        with pytest.raises(KpartError) as info:
            assign_replicas_to_brokers(brokers, inp["partitions"], inp["replication_factor"], **kw)
        _check_error(info, expected["error"])
    else:
        got = assign_replicas_to_brokers(brokers, inp["partitions"], inp["replication_factor"],
                                         **kw)
        assert got == {int(p): tuple(r) for p, r in expected["assignment"].items()}


@pytest.mark.parametrize("version,case", _cases("add_partitions_adminutils"))
def test_add_partitions_equals_the_release(version: str, case: dict) -> None:
    inp = case["input"]
    brokers = [Broker(b["id"], b["rack"]) for b in inp["brokers"]]
    # the existing partitions: only partition 0's replicas matter (the rest are placeholders)
    existing = {p: tuple(inp["partition0"]) for p in range(inp["existing_partitions"])}
    expected = case["expected"]
    if "error" in expected:
        with pytest.raises(KpartError) as info:
            add_partitions(existing, brokers, inp["new_total"], kafka_version=version)
        _check_error(info, expected["error"])
    else:
        got = add_partitions(existing, brokers, inp["new_total"], kafka_version=version)
        assert got == {int(p): tuple(r) for p, r in expected["assignment"].items()}
