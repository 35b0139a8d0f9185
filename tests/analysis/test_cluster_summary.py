"""The cluster report's summary (issue 14 §2, §3): loads summed over topics with Cruise
Control's model, window statistics, members across topics, the heat map (no Spark; the
resolved cluster is a stand-in of CONTRACT14 §1, tests/_tools/cluster_standin.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _tools.cluster_standin import (
    StandInCluster,
    cluster,
    group,
    measure,
    topic,
    windows,
)
from kpart.analysis.cluster_loads import TopicMeasure
from kpart.analysis.cluster_model import null_windows, placed_cluster
from kpart.analysis.cluster_summary import build_cluster_summary, report_cluster_model
from kpart.analysis.cluster_windows import HEATMAP_COLUMNS
from kpart.analysis.loads import HotKey
from kpart.cluster.model import Capacity
from kpart.errors import ConfigError
from kpart.producer.null_keys import apportion


def _two_topics(null: bool = True) -> tuple[StandInCluster, list[TopicMeasure]]:
    c = cluster([topic("a", 4), topic("b", 3, rf=2, seed=3)], [group("g", 2), group("h", 1)],
                {"h": ("a",)})
    rng = np.random.default_rng(0)
    wa = windows(rng.integers(0, 9, (4, 5)), null_records=rng.integers(0, 4, 5) if null
                 else None)
    wb = windows(rng.integers(0, 9, (3, 3)), start=2, size=7)
    return c, [measure("a", wa), measure("b", wb, size=7)]


def test_broker_sums_are_topic_totals_times_replication_factor() -> None:
    c, ms = _two_topics()
    s = build_cluster_summary(c, ms, failures=False)
    by_topic = {t["topic"]: t for t in s["topics"]}
    rf = {"a": 3, "b": 2}
    brokers = s["brokers"]
    assert sum(b["leader_records"] for b in brokers) == s["records"]
    assert sum(b["leader_bytes"] for b in brokers) == s["bytes"]
    assert sum(b["replica_bytes"] for b in brokers) == sum(
        by_topic[n]["bytes"] * rf[n] for n in rf)
    assert sum(b["replica_records"] for b in brokers) == sum(
        by_topic[n]["records"] * rf[n] for n in rf)
    assert [b["disk_bytes"] for b in brokers] == [float(b["replica_bytes"]) for b in brokers]
    assert sum(b["leaders"] for b in brokers) == 7
    assert sum(b["replicas"] for b in brokers) == 4 * 3 + 3 * 2
    for rack in s["racks"]:
        mine = [b for b in brokers if b["rack"] == rack["rack"]]
        assert rack["replica_bytes"] == sum(b["replica_bytes"] for b in mine)
        assert rack["nw_in_bytes_per_s"] == pytest.approx(
            sum(b["nw_in_bytes_per_s"] for b in mine))


def test_produce_bytes_in_is_bytes_over_span_and_the_load_model_holds() -> None:
    c, ms = _two_topics()
    s = build_cluster_summary(c, ms, failures=False)
    spans = {t["topic"]: t["span_s"] for t in s["topics"]}
    assert spans == {"a": 300.0, "b": 180.0}
    rate = {t["topic"]: t["bytes"] / t["span_s"] for t in s["topics"]}
    brokers = s["brokers"]
    assert sum(b["produce_bytes_in_per_s"] for b in brokers) == pytest.approx(sum(rate.values()))
    # Cruise Control: leader out = consumers (one read per group) + replication (RF - 1)
    readers, rf = {"a": 2, "b": 1}, {"a": 3, "b": 2}
    assert sum(b["consumer_bytes_out_per_s"] for b in brokers) == pytest.approx(
        sum(rate[t] * readers[t] for t in rate))
    assert sum(b["replication_bytes_out_per_s"] for b in brokers) == pytest.approx(
        sum(rate[t] * (rf[t] - 1) for t in rate))
    assert sum(b["nw_in_bytes_per_s"] for b in brokers) == pytest.approx(
        sum(rate[t] * rf[t] for t in rate))
    for b in brokers:
        assert b["nw_out_bytes_per_s"] == pytest.approx(
            b["consumer_bytes_out_per_s"] + b["replication_bytes_out_per_s"])
        assert b["nw_in_bytes_per_s"] == pytest.approx(
            b["produce_bytes_in_per_s"] + b["replication_bytes_in_per_s"])
        assert b["mean_bytes_in_per_s"] <= b["peak_bytes_in_per_s"] + 1e-9
    # the page's section: the same loads, as plan_summary's rows
    rows = s["cluster"]["brokers"]
    assert [r["broker"] for r in rows] == [b["broker"] for b in brokers]
    assert all("before" not in r for r in rows)
    assert [r["after"]["nw_out_bytes_per_s"] for r in rows] == pytest.approx(
        [b["nw_out_bytes_per_s"] for b in brokers])
    assert s["cluster"]["failures"] is None and s["cluster"]["capacity_threshold"] == 0.8


def test_peak_p99_mean_on_hand_made_windows() -> None:
    # one partition, 200 one-minute windows: 0, 1, ..., 199 records of 10 bytes
    counts = np.arange(200, dtype=np.int64)[None, :]
    c = cluster([topic("t", 1, rf=1)], brokers=cluster([topic("t", 1)]).topology.brokers[:1])
    s = build_cluster_summary(c, [measure("t", windows(counts))], failures=False)
    p = s["topics"][0]["partitions"][0]
    assert p["peak_bytes_in_per_s"] == pytest.approx(1990 / 60)
    # numpy "higher": index ceil(0.99 × 199) = 198 of the sorted windows
    assert p["p99_bytes_in_per_s"] == pytest.approx(1980 / 60)
    assert p["bytes_in_per_s"] == pytest.approx(sum(range(200)) * 10 / (200 * 60))
    assert p["peak_records_per_s"] == pytest.approx(199 / 60)
    b = s["brokers"][0]
    assert (b["peak_bytes_in_per_s"], b["p99_bytes_in_per_s"]) == (
        p["peak_bytes_in_per_s"], p["p99_bytes_in_per_s"])
    assert b["mean_bytes_in_per_s"] == pytest.approx(p["bytes_in_per_s"])


def test_empty_windows_count_and_brokers_add_topics_on_the_common_grid() -> None:
    # topic a: windows 0..3, topic b: windows 2..5; one broker leads everything
    one = cluster([topic("a", 1, rf=1)]).topology.brokers[:1]
    c = cluster([topic("a", 1, rf=1), topic("b", 1, rf=1)], brokers=one)
    wa = windows(np.array([[6, 0, 60, 0]]))
    wb = windows(np.array([[0, 0, 60, 6]]), start=2)
    s = build_cluster_summary(c, [measure("a", wa), measure("b", wb)], failures=False)
    b = s["brokers"][0]
    # grid windows 0..5: bytes 60, 0, 600, 0, 600, 60 (10 bytes a record)
    assert b["peak_bytes_in_per_s"] == pytest.approx(600 / 60)
    assert b["mean_bytes_in_per_s"] == pytest.approx(1320 / (6 * 60))
    assert b["p99_bytes_in_per_s"] == pytest.approx(10.0)
    assert s["window_s"] == 60.0
    assert s["heatmap"]["start"] == "1970-01-01T00:00:00Z"
    assert len(s["heatmap"]["columns"]) == 6
    assert s["heatmap"]["rows"][1] == {"topic": "b", "partition": 0,
                                       "bytes_per_s": [0.0, 0.0, 0.0, 0.0, 10.0, 1.0]}


def test_members_across_two_topics() -> None:
    c, ms = _two_topics()
    s = build_cluster_summary(c, ms, failures=False)
    g = next(x for x in s["groups"] if x["group"] == "g")
    assert g["topics"] == ["a", "b"] and g["strategy"] == "range"
    parts = {(p["topic"], p["partition"]) for m in g["members"] for p in m["partitions"]}
    assert parts == {("a", p) for p in range(4)} | {("b", p) for p in range(3)}
    assert {p["topic"] for p in g["members"][0]["partitions"]} == {"a", "b"}
    assert sum(m["records"] for m in g["members"]) == s["records"]
    totals = {(t["topic"], p["partition"]): p["records"] for t in s["topics"]
              for p in t["partitions"]}
    for m in g["members"]:
        assert m["records"] == sum(totals[p["topic"], p["partition"]] for p in m["partitions"])
    # the member's peak: its partitions' records added window by window on the common grid
    placed = placed_cluster(c, ms)
    m0 = g["members"][0]
    grid = np.zeros(placed.grid_windows)
    for i, t in enumerate(placed.topics):
        o = placed.offset(i)
        for p in m0["partitions"]:
            if p["topic"] == t.name:
                assert t.window_records is not None
                grid[o:o + t.window_records.shape[1]] += t.window_records[p["partition"]]
    assert m0["peak_records_per_s"] == pytest.approx(grid.max() / 60)
    h = next(x for x in s["groups"] if x["group"] == "h")
    assert h["topics"] == ["a"]
    assert all(p["topic"] == "a" for m in h["members"] for p in m["partitions"])
    b0 = s["topics"][1]["partitions"][0]
    assert set(b0["consumers"]) == {"g"}  # h does not read b


def test_null_key_windows_follow_the_placement() -> None:
    c, ms = _two_topics()
    placed = placed_cluster(c, ms)
    a = placed.topics[0]
    w = ms[0].windows
    assert w is not None and a.window_records is not None
    # every window keeps its records: keyed + null-key
    assert a.window_records.sum(axis=0).tolist() == (
        w.records.sum(axis=0) + w.null_key_records).tolist()
    # null-key records go where the null-key rule placed them
    nulls = np.array(a.placed.null_keys.records)
    extra = (a.window_records - w.records).sum(axis=1)
    assert extra.tolist() == nulls.tolist()


def test_separate_null_keys_stay_out_of_the_loads() -> None:
    c = cluster([topic("a", 2, null_key_strategy="separate")], [group("g", 1)])
    w = windows(np.array([[1, 2], [3, 4]]), null_records=np.array([5, 5]))
    s = build_cluster_summary(c, [measure("a", w)], failures=False)
    t = s["topics"][0]
    assert t["null_keys_included"] is False
    assert sum(p["records"] for p in t["partitions"]) == 10
    assert t["records"] == 20 and s["records"] == 20
    assert sum(b["leader_records"] for b in s["brokers"]) == 10


def test_topic_without_windows_has_null_rates() -> None:
    c = cluster([topic("a", 2), topic("b", 2, seed=1)], [group("g", 1)])
    wa = windows(np.array([[1, 2], [3, 4]]))
    s = build_cluster_summary(c, [measure("a", wa), measure("b", None, partitions=2)],
                              failures=False)
    b = s["topics"][1]
    assert b["span_s"] is None
    assert {p["bytes_in_per_s"] for p in b["partitions"]} == {None}
    assert {p["peak_bytes_in_per_s"] for p in b["partitions"]} == {None}
    assert s["topics"][0]["partitions"][0]["bytes_in_per_s"] is not None
    assert len(s["heatmap"]["rows"]) == 2  # only the timed topic
    s2 = build_cluster_summary(cluster([topic("b", 2)]), [measure("b", None, partitions=2)],
                               failures=False)
    assert s2["window_s"] is None and s2["heatmap"] is None
    assert {b["peak_bytes_in_per_s"] for b in s2["brokers"]} == {None}
    assert {b["nw_in_bytes_per_s"] for b in s2["brokers"]} == {None}
    assert s2["brokers"][0]["disk_bytes"] is not None
    assert np.isnan(report_cluster_model(cluster([topic("b", 2)]),
                                         [measure("b", None, partitions=2)]).bytes_in_per_s).all()


def test_heatmap_folds_long_series_keeping_peaks() -> None:
    n = 1000
    counts = np.zeros((1, n), dtype=np.int64)
    counts[0, 777] = 600
    c = cluster([topic("t", 1, rf=1)], brokers=cluster([topic("t", 1)]).topology.brokers[:1])
    s = build_cluster_summary(c, [measure("t", windows(counts))], failures=False)
    h = s["heatmap"]
    assert len(h["columns"]) <= HEATMAP_COLUMNS
    assert h["column_windows"] == 3 and len(h["columns"]) == 334
    row = h["rows"][0]["bytes_per_s"]
    assert max(row) == pytest.approx(6000 / 60) and row.index(max(row)) == 777 // 3
    assert h["columns"][1] == "1970-01-01T00:03:00Z"


def test_capacity_and_failures() -> None:
    c, ms = _two_topics()
    cap = {b.id: Capacity(disk_bytes=1e6, network_in=1e3, network_out=2e3)
           for b in c.topology.brokers}
    s = build_cluster_summary(c, ms, capacity=cap, capacity_threshold=0.7)
    assert s["brokers"][0]["capacity"] == {"disk_bytes": 1e6, "nw_in_bytes_per_s": 1e3,
                                           "nw_out_bytes_per_s": 2e3}
    assert s["cluster"]["brokers"][0]["capacity"]["nw_in_bytes_per_s"] == 1e3
    assert s["cluster"]["capacity_threshold"] == 0.7
    failures = s["cluster"]["failures"]
    assert len(failures) == 6 + 3  # every broker, every rack
    assert [f["max_bytes_in_per_s"] for f in failures] == sorted(
        (f["max_bytes_in_per_s"] for f in failures), reverse=True)


def test_hot_keys_merge_topics() -> None:
    c = cluster([topic("a", 2), topic("b", 2, seed=1)])
    wa, wb = windows(np.array([[10, 0], [5, 5]])), windows(np.array([[30, 0], [0, 1]]))
    ms = [measure("a", wa, hot=(HotKey("x", 9, 90, 0), HotKey("y", 5, 50, 1))),
          measure("b", wb, hot=(HotKey("z", 30, 300, 0),))]
    s = build_cluster_summary(c, ms, failures=False)
    assert [(h["topic"], h["key"], h["rank"]) for h in s["hot_keys"]] == [
        ("b", "z", 1), ("a", "x", 2)]
    assert s["hot_keys"][0]["share"] == round(30 / 51, 6)
    assert s["topics"][0]["hot_keys"][0]["share"] == round(9 / 20, 6)


def test_summary_is_json_and_deterministic() -> None:
    c, ms = _two_topics()
    one = json.dumps(build_cluster_summary(c, ms, analysed_at="2026-01-01T00:00:00Z"),
                     allow_nan=False, sort_keys=False)
    two = json.dumps(build_cluster_summary(c, ms, analysed_at="2026-01-01T00:00:00Z"),
                     allow_nan=False, sort_keys=False)
    assert one == two
    doc = json.loads(one)
    assert (doc["format"], doc["format_version"], doc["kind"]) == ("kpart-report", 1, "cluster")
    assert doc["analysed"]["time"] == "2026-01-01T00:00:00Z"
    assert doc["topics"][0]["input"] == {"path": "/data/a.csv", "format": "csv"}
    # placing once and passing the placed cluster gives the same document
    placed = placed_cluster(c, ms)
    assert json.dumps(build_cluster_summary(c, placed, analysed_at="2026-01-01T00:00:00Z"),
                      allow_nan=False) == one


def test_sources_override_the_measures() -> None:
    c, ms = _two_topics()
    s = build_cluster_summary(c, ms, sources={"b": {"path": "/x/b.parquet",
                                                    "format": "parquet"}}, failures=False)
    assert s["topics"][1]["input"] == {"path": "/x/b.parquet", "format": "parquet"}
    assert s["analysed"]["input"] == "/data/a.csv, /x/b.parquet"


def test_bad_measures() -> None:
    c, ms = _two_topics()
    with pytest.raises(ConfigError, match=r"measures\[0\]: topic 'b'"):
        build_cluster_summary(c, ms[::-1])
    with pytest.raises(ConfigError, match="1 topics measured, the topology has 2"):
        build_cluster_summary(c, ms[:1])
    odd = measure("b", windows(np.ones((3, 2), np.int64), window_ms=1000), size=7)
    with pytest.raises(ConfigError, match="1000 ms windows"):
        build_cluster_summary(c, [ms[0], odd])


@given(st.lists(st.integers(0, 50), min_size=1, max_size=6),
       st.lists(st.integers(0, 10**15), min_size=0, max_size=6),
       st.integers(1, 10**6))
def test_null_windows_is_apportion_per_window(weights: list[int], counts: list[int],
                                              scale: int) -> None:
    w = [x * scale for x in weights]
    out = null_windows(np.array(counts, dtype=np.int64), w)
    assert out.shape == (len(w), len(counts))
    for j, c in enumerate(counts):
        assert tuple(out[:, j].tolist()) == apportion(c, w)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 5), st.integers(1, 4), st.integers(1, 12), st.integers(0, 3),
       st.integers(0, 2**32 - 1))
def test_brokers_add_up_whatever_the_windows(pa: int, pb: int, w: int, shift: int,
                                             seed: int) -> None:
    rng = np.random.default_rng(seed)
    c = cluster([topic("a", pa), topic("b", pb, rf=2, seed=3)], [group("g", 2)])
    ms = [measure("a", windows(rng.integers(0, 9, (pa, w)),
                               null_records=rng.integers(0, 3, w))),
          measure("b", windows(rng.integers(0, 9, (pb, w + shift)), start=shift, size=7),
                  size=7)]
    s = build_cluster_summary(c, ms, failures=False)
    placed = placed_cluster(c, ms)
    grid = placed.grid_windows
    assert grid == max(w, w + 2 * shift)
    assert sum(b["leader_bytes"] for b in s["brokers"]) == s["bytes"]
    assert sum(b["mean_bytes_in_per_s"] for b in s["brokers"]) == pytest.approx(
        s["bytes"] / (grid * 60))
    for b in s["brokers"]:
        assert b["p99_bytes_in_per_s"] <= b["peak_bytes_in_per_s"]
        assert b["mean_bytes_in_per_s"] <= b["peak_bytes_in_per_s"] + 1e-9
    peaks = [p["peak_bytes_in_per_s"] for t in s["topics"] for p in t["partitions"]]
    assert max(peaks) == pytest.approx(max(max(r["bytes_per_s"]) for r in s["heatmap"]["rows"]),
                                       rel=1e-3)


def test_the_page_reader_takes_the_document() -> None:
    """report.html's cluster reader takes this document as it is: every field of the
    format, no ConfigError."""
    from kpart.report import _cluster_doc as doc_reader

    c, ms = _two_topics()
    cap = {b.id: Capacity(disk_bytes=1e6, network_in=1e3, network_out=2e3)
           for b in c.topology.brokers}
    s = json.loads(json.dumps(build_cluster_summary(c, ms, capacity=cap)))
    doc = doc_reader.read_cluster_summary(s)
    assert doc.timed and len(doc.topics) == 2 and len(doc.brokers) == 6
    assert doc.brokers[0].peak_in == s["brokers"][0]["peak_bytes_in_per_s"]
    assert doc.heatmap is not None and len(doc.heatmap.labels) == 7
