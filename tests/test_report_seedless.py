"""A topology without seed: the report and its what-if use the same draws (issue 10, 16);
an input without records gets the same summary tail as one with records."""

from __future__ import annotations

import warnings

import pytest

from kpart.analysis.loads import count_whatif_like_report
from kpart.analysis.report_topology import pin_placement_seed
from kpart.analysis.summary import Loads, build_summary
from kpart.errors import KpartWarning
from kpart.producer.whatif import partition_count_whatif
from kpart.spark.inputs import resolve_input
from kpart.spark.pipeline import run_report
from kpart.topology import default_topology

_SEEDLESS = default_topology().with_topic(placement_seed=None, null_key_seed=None,
                                          null_key_strategy="random")


def _now(summary: dict) -> dict:
    return next(s for s in summary["whatif"]["scenarios"]
                if s["num_partitions"] == summary["num_partitions"])


@pytest.mark.parametrize("strategy", ["random", "sticky", "client"])
def test_a_pinned_seedless_topology_gives_the_report_skew_as_whatif_now(strategy) -> None:
    topo = pin_placement_seed(_SEEDLESS.with_topic(null_key_strategy=strategy))
    assert topo.topic.placement_seed is not None
    n = topo.topic.partitions
    keys = [f"k{i}" for i in range(40)]
    section = partition_count_whatif(keys, n, (16,), topo.topic.partitioner).to_json()
    loads = Loads(tuple(section["loads"][0]["records"]), (0,) * n, (0,) * n, 1_000, 50_000, ())
    summary = build_summary(topo, loads)
    summary["whatif"] = count_whatif_like_report(section, topo, loads)
    for f in ("max_over_mean", "cv"):
        assert _now(summary)[f] == summary["skew"]["partition_records"][f], f
    assert summary["placement_seed"] == topo.topic.placement_seed
    assert summary["null_key_distribution"]["seed"] == topo.topic.placement_seed


def test_a_seed_of_the_topology_is_kept_and_a_drawn_one_varies() -> None:
    seeded = default_topology()
    assert pin_placement_seed(seeded) is seeded
    drawn = {pin_placement_seed(_SEEDLESS).topic.placement_seed for _ in range(4)}
    assert len(drawn) > 1  # 63 random bits: four equal draws have probability 2**-189


def _empty_csv(tmp_path):
    path = tmp_path / "empty.csv"
    path.write_text("tailnum,value\n")
    return path


def test_an_empty_input_gets_the_tail_of_a_run_with_records(tmp_path) -> None:
    topo = _SEEDLESS
    spec = resolve_input(_empty_csv(tmp_path), None, topo.topic.key, topo.topic.key_serializer)
    assert spec.records == 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", KpartWarning)
        s = run_report(None, topo, spec, whatif=(12, 16), partitioner="spark:hash")
    assert s["analysed"]["time"]
    assert s["placement_seed"] is not None
    assert s["partitioner"] == s["analysed"]["partitioner"] == "spark:hash"
    assert "keyed_records" in s["whatif"]["loads"][0]  # counted like the report
    assert s["whatif"]["null_key_records"] == 0


@pytest.mark.spark
def test_report_and_whatif_now_agree_without_seed(spark, tmp_path) -> None:
    path = tmp_path / "d.csv"
    rows = [f"T{i % 17},{i}" for i in range(300)] + [f",{i}" for i in range(1_000)]
    path.write_text("tailnum,value\n" + "\n".join(rows) + "\n")
    spec = resolve_input(path, None, "tailnum", "string")
    s = run_report(spark, _SEEDLESS, spec, whatif=(16,))
    assert s["null_key_records"] == 1_000 and s["placement_seed"] is not None
    for f in ("max_over_mean", "cv"):
        assert _now(s)[f] == s["skew"]["partition_records"][f], f
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", KpartWarning)
        empty = run_report(None, _SEEDLESS, resolve_input(_empty_csv(tmp_path), None, "tailnum",
                                                          "string"), whatif=(16,))
    assert set(empty["whatif"]) == set(s["whatif"])  # the same what-if fields, counted alike
    assert [set(x) for x in empty["whatif"]["loads"]] == [set(x) for x in s["whatif"]["loads"]]
    assert [set(x) for x in empty["whatif"]["scenarios"]] == [
        set(x) for x in s["whatif"]["scenarios"]]
