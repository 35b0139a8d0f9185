"""Review of issue 14's cluster report (no Spark): the heat map capped to the busiest
partitions, the report's consumer groups in cluster.json (read back as a snapshot's), the
partition-count wording at small rates, the page and terminal on an empty topic."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from _tools.cluster_standin import BROKERS, cluster, group, measure, topic, windows
from kpart.analysis.cluster_model import report_groups
from kpart.analysis.cluster_summary import build_cluster_summary, report_cluster_model
from kpart.analysis.cluster_windows import HEATMAP_ROWS
from kpart.cli import main
from kpart.cluster.cluster_json import cluster_from_json, cluster_to_json, groups_from_json


def test_heatmap_keeps_the_busiest_partitions_and_counts_the_others() -> None:
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 50, (150, 4)), rng.integers(0, 50, (120, 4))
    a[17, 2], b[5, 0] = 10_000, 9_000  # two obvious peaks that must stay
    c = cluster([topic("a", 150, rf=1), topic("b", 120, rf=1, seed=2)])
    h = build_cluster_summary(c, [measure("a", windows(a)), measure("b", windows(b))],
                              failures=False)["heatmap"]
    assert len(h["rows"]) == HEATMAP_ROWS == 200
    assert h["partitions"] == 270 and h["rows_omitted"] == 70 and h["max_rows"] == 200
    kept = [(r["topic"], r["partition"]) for r in h["rows"]]
    assert kept == sorted(kept, key=lambda tp: ("ab".index(tp[0]), tp[1]))  # topic order
    assert ("a", 17) in kept and ("b", 5) in kept
    peaks = {("a", p): a[p].max() for p in range(150)} | {("b", p): b[p].max()
                                                           for p in range(120)}
    left_out = set(peaks) - set(kept)
    assert max(peaks[x] for x in left_out) <= min(peaks[x] for x in kept)
    row = next(r for r in h["rows"] if (r["topic"], r["partition"]) == ("a", 17))
    assert row["bytes_per_s"][2] == pytest.approx(10_000 * 10 / 60, rel=1e-3)


def test_a_small_heatmap_omits_nothing() -> None:
    c = cluster([topic("a", 3)])
    h = build_cluster_summary(c, [measure("a", windows(np.ones((3, 2), np.int64)))],
                              failures=False)["heatmap"]
    assert len(h["rows"]) == 3 and h["rows_omitted"] == 0


def test_the_page_says_how_many_heatmap_rows_are_left_out() -> None:
    from kpart.report.html import render_report

    rng = np.random.default_rng(1)
    c = cluster([topic("a", 230, rf=1)])
    s = build_cluster_summary(c, [measure("a", windows(rng.integers(0, 9, (230, 3))))],
                              failures=False)
    page = render_report(s)
    assert "Only the 200 partitions with the highest peak window are drawn; 30 more are " \
           "left out" in page


def test_report_groups_round_trip_through_cluster_json(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    c = cluster([topic("a", 4), topic("b", 3, rf=2, seed=3)],
                [group("g", 2, "cooperative-sticky"), group("h", 3, "uniform")], {"h": ("a",)})
    ms = [measure("a", windows(np.ones((4, 2), np.int64))),
          measure("b", windows(np.ones((3, 2), np.int64)))]
    groups = report_groups(c)
    assert [(g.group_id, g.type, g.assignor, g.state) for g in groups] == [
        ("g", "classic", "cooperative-sticky", "STABLE"), ("h", "consumer", "uniform", "STABLE")]
    owned = {(m.member_id, t, p) for g in groups for m in g.members
             for t, ps in m.assignment for p in ps}
    for _, ga in c.assignments:
        assert {(m, t, p) for m, parts in ga.assignment for t, ps in parts for p in ps} <= owned
    g = groups[0]
    assert [m.rack for m in g.members] == ["r0", "r1"]
    assert sorted((t, p) for m in g.members for t, ps in m.assignment for p in ps) == (
        [("a", p) for p in range(4)] + [("b", p) for p in range(3)])
    doc = cluster_to_json(report_cluster_model(c, ms), groups)
    assert groups_from_json(json.loads(json.dumps(doc))) == groups
    assert cluster_from_json(doc).num_partitions == 7
    path = tmp_path / "cluster.json"
    path.write_text(json.dumps(doc))
    # what kpart snapshot-group does with a snapshot's groups, it does with the report's
    assert main(["snapshot-group", str(path), "g", "--leave", "g-0"]) == 0
    spec = json.loads(capsys.readouterr().out)
    assert [m["id"] for m in spec["members"]] == ["g-1"] and spec["topics"] == {"a": 4, "b": 3}
    group_file = tmp_path / "group.json"
    group_file.write_text(json.dumps(spec))
    assert main(["assign", str(group_file), "-s", "cooperative-sticky"]) == 0
    assert "g-1" in capsys.readouterr().out


def test_hot_key_reason_keeps_small_rates_and_limits_readable() -> None:
    from kpart.producer.partition_count import HotKeyWindow, PartitionLimits, search_partition_count
    from test_partition_count import NumpyEvaluator, question

    ev = NumpyEvaluator(np.array([1]), np.array([0]), np.array([48]), np.array([2688]),
                        np.zeros(1), np.zeros(1), 6, asked=[])
    hot = HotKeyWindow("u1", 48, 2688, 0)
    result = search_partition_count(question(ev, PartitionLimits(1_000.0, 0.5, 4000), hot), ev)
    assert result.recommended is None
    # was "carries 1 records/s ... over consumer_records_per_s = 0"
    assert "'u1' alone carries 0.8 records/s in the window starting 1970-01-01T00:00:00Z, " \
           "over consumer_records_per_s = 0.5:" in result.reason


def test_an_empty_timed_topic_is_not_said_to_lack_a_timestamp_column() -> None:
    from kpart.analysis.cluster_loads import TopicMeasure
    from kpart.analysis.layout import resolve_cluster
    from kpart.analysis.loads import Loads
    from kpart.report._cluster_doc import read_cluster_summary
    from kpart.report._terminal_cluster import partition_count_lines
    from kpart.report.html import render_report
    from kpart.topology import topology_from_dict

    c = resolve_cluster(topology_from_dict({
        "cluster": {"brokers": [{"id": 1}, {"id": 2}]},
        "topics": [{"name": "a", "partitions": 2, "replication_factor": 1, "key": "k",
                    "timestamp": "ts", "placement_seed": 1},
                   {"name": "b", "partitions": 2, "replication_factor": 1, "key": "k",
                    "placement_seed": 2}]}))
    empty = TopicMeasure("a", Loads((0, 0), (0, 0), (0, 0), 0, 0, ()))
    s = build_cluster_summary(c, [empty, measure("b", None, partitions=2)], failures=False)
    lines = partition_count_lines(read_cluster_summary(s))
    assert "no records, partition count not computed" in lines[0]
    assert "no timestamp column, partition count not computed" in lines[1]
    page = render_report(s)
    assert ("Not computed for b: the partition count needs the peak window, so a timestamp "
            "column; for a: no record to time.") in page


def test_broker_network_in_and_records_over_time_by_brute_force() -> None:
    rng = np.random.default_rng(5)
    c = cluster([topic("a", 4), topic("b", 3, rf=2, seed=3)], [group("g", 2)])
    wa, wb = rng.integers(0, 9, (4, 5)), rng.integers(0, 9, (3, 3))
    s = build_cluster_summary(c, [measure("a", windows(wa)),
                                  measure("b", windows(wb, start=2, size=7), size=7)],
                              failures=False)
    grid_b = {b["broker"]: np.zeros(5) for b in s["brokers"]}
    grid_r = {b["broker"]: np.zeros(5) for b in s["brokers"]}
    for t, w, size, start in (("a", wa, 10, 0), ("b", wb, 7, 2)):
        rows = next(x for x in s["topics"] if x["topic"] == t)["partitions"]
        for p, row in enumerate(rows):
            for r in row["replicas"]:  # leader and followers take the bytes in
                grid_b[r][start:start + w.shape[1]] += w[p] * size
            grid_r[row["leader"]][start:start + w.shape[1]] += w[p]
    for b in s["brokers"]:
        nw, rec = grid_b[b["broker"]] / 60, grid_r[b["broker"]] / 60
        assert b["peak_nw_in_bytes_per_s"] == pytest.approx(nw.max())
        assert b["p99_nw_in_bytes_per_s"] == pytest.approx(np.percentile(nw, 99,
                                                                         method="higher"))
        assert b["peak_records_per_s"] == pytest.approx(rec.max())
        assert b["mean_records_per_s"] == pytest.approx(rec.sum() / 5)
        assert b["peak_nw_in_bytes_per_s"] >= b["peak_bytes_in_per_s"]
    part = s["topics"][0]["partitions"][1]
    assert part["records_per_s"] == pytest.approx(wa[1].sum() / 300)
    assert part["p99_records_per_s"] == pytest.approx(np.percentile(wa[1] / 60, 99,
                                                                    method="higher"))
    member = s["groups"][0]["members"][0]
    assert member["mean_records_per_s"] <= member["p99_records_per_s"] <= \
        member["peak_records_per_s"]


def test_capacity_is_weighed_against_the_peak_network_in() -> None:
    """Cruise Control's NW_IN bounds produce + replication bytes in: a broker whose produce
    peak fits but whose network-in peak does not is over its capacity."""
    from io import StringIO

    from rich.console import Console

    from kpart.cluster.model import Capacity
    from kpart.report._cluster_doc import read_cluster_summary
    from kpart.report._terminal_cluster import _brokers
    from kpart.report.html import render_report

    c = cluster([topic("a", 3, rf=3)], brokers=BROKERS[:3])  # every broker: 1 leader, 3 copies
    base = build_cluster_summary(c, [measure("a", windows(np.full((3, 2), 6)))],
                                 failures=False)["brokers"][0]
    cap = (base["peak_bytes_in_per_s"] + base["peak_nw_in_bytes_per_s"]) / 2
    assert base["peak_bytes_in_per_s"] < cap < base["peak_nw_in_bytes_per_s"]
    s = build_cluster_summary(c, [measure("a", windows(np.full((3, 2), 6)))],
                              capacity={b.id: Capacity(network_in=cap)
                                        for b in c.topology.brokers}, failures=False)
    doc = read_cluster_summary(s)
    assert all(b.capacity_used is not None and b.capacity_used > 1 for b in doc.brokers)
    out = StringIO()
    Console(file=out, width=200).print(_brokers(doc))
    assert "peak net in" in out.getvalue()
    page = render_report(s)
    assert "exceed their network-in capacity at the peak" in page
    assert "peak network in" in page


def test_keys_placed_at_random_spread_evenly_in_the_windows_not_like_null_keys() -> None:
    """librdkafka:random draws a partition per record: its windows split evenly (they
    followed the null-key placement, all on one partition when the sticky rule put the few
    null keys there)."""
    from kpart.analysis.cluster_loads import TopicMeasure, TopicWindows
    from kpart.analysis.cluster_model import placed_cluster
    from kpart.analysis.loads import Loads

    c = cluster([topic("a", 4)])
    zeros = np.zeros((4, 3), np.int64)
    w = TopicWindows(60_000, 0, zeros, zeros, np.array([2, 0, 0]), np.array([20, 0, 0]),
                     random_key_records=np.array([400, 8, 3]),
                     random_key_bytes=np.array([4000, 80, 30]))
    m = TopicMeasure("a", Loads((103, 103, 102, 103), (1030,) * 4, (1,) * 4, 2, 20, ()), w)
    t = placed_cluster(c, [m]).topics[0]
    assert t.window_records is not None and t.window_bytes is not None
    assert t.window_records.sum(axis=0).tolist() == [402, 8, 3]  # every window kept exactly
    random_part = t.window_records - null_part(t)
    assert random_part[:, 0].tolist() == [100] * 4 and random_part[:, 1].tolist() == [2] * 4
    assert sorted(random_part[:, 2].tolist()) == [0, 1, 1, 1]
    assert t.window_bytes.sum(axis=0).tolist() == [4020, 80, 30]


def null_part(t: object) -> np.ndarray:
    from kpart.analysis.cluster_model import null_windows

    placed = t.placed  # type: ignore[attr-defined]
    return null_windows(np.array([2, 0, 0]), placed.null_keys.records)


def test_topics_timed_years_apart_are_refused_before_the_grid_is_allocated() -> None:
    from kpart.errors import ConfigError

    c = cluster([topic("old", 2), topic("new", 2, seed=2)])
    years = 11 * 365 * 24 * 60  # eleven years of one-minute windows apart
    ms = [measure("old", windows(np.ones((2, 3), np.int64))),
          measure("new", windows(np.ones((2, 3), np.int64), start=years))]
    with pytest.raises(ConfigError) as e:
        build_cluster_summary(c, ms, failures=False)
    assert e.value.naming("--window").startswith(
        "--window: the topics' windows lie on one grid from 1970-01-01T00:00:00Z (topic 'old') "
        "to 1980-12-29T00:03:00Z (topic 'new'): 5,781,603 windows of 60,000 ms")


@pytest.mark.parametrize("offset", [0, 1, 2, 5, 7])
@pytest.mark.parametrize("per", [1, 3, 4])
def test_heatmap_fold_equals_folding_the_whole_grid(offset: int, per: int) -> None:
    from kpart.analysis.cluster_windows import _fold

    rng = np.random.default_rng(offset * 10 + per)
    rates = rng.random((3, 6))
    grid_windows = offset + 6 + 2
    cols = -(-grid_windows // per)
    grid = np.zeros((3, cols * per))
    grid[:, offset:offset + 6] = rates
    expected = grid.reshape(3, cols, per).max(axis=2)
    assert np.array_equal(_fold(rates, offset, per, cols), expected)


def test_a_lower_bound_over_the_practical_limit_says_so() -> None:
    from kpart.producer.partition_count import PartitionLimits, search_partition_count
    from test_partition_count import NumpyEvaluator, question

    ev = NumpyEvaluator(np.arange(50), np.zeros(50, np.int64), np.full(50, 60),
                        np.full(50, 60), np.zeros(1), np.zeros(1), 4, asked=[])
    result = search_partition_count(question(ev, PartitionLimits(1e9, 1.0, 16)), ev)
    # 3,000 records in a minute: 50 records/s, 50 partitions at 1 record/s each
    assert result.recommended is None and ev.asked == []
    assert result.reason == ("the busiest window alone needs 50 partitions at the mean rate, "
                             "over max_partitions = 16")


def test_existing_topics_keep_their_isr_and_min_insync_replicas() -> None:
    from kpart.analysis.layout import resolve_cluster
    from kpart.cluster.model import ClusterBroker, ClusterModel, PartitionState, TopicInfo
    from kpart.topology import topology_from_dict

    topo = topology_from_dict({
        "cluster": {"brokers": [{"id": 1}, {"id": 2}, {"id": 3}]},
        "topics": [{"name": "a", "partitions": 2, "replication_factor": 3, "key": "k",
                    "placement_seed": 1},
                   {"name": "b", "partitions": 1, "replication_factor": 2, "key": "k",
                    "placement_seed": 2}]})
    existing = ClusterModel.from_partitions(
        [ClusterBroker(1), ClusterBroker(2), ClusterBroker(3)],
        [PartitionState("a", 0, (1, 2, 3), leader=1, isr=(1,)),
         PartitionState("a", 1, (2, 3, 1), leader=2, isr=(2, 3, 1))],
        [TopicInfo("a", 2)])
    c = resolve_cluster(topo, existing=existing)
    ms = [measure("a", windows(np.ones((2, 2), np.int64))),
          measure("b", windows(np.ones((1, 2), np.int64)))]
    model = report_cluster_model(c, ms, existing=existing)
    assert [model.partition_state(r).isr for r in range(3)] == [
        (1,), (2, 3, 1), model.partition_state(2).replicas]  # b is new: ISR = replicas
    assert [t.min_insync_replicas for t in model.topics] == [2, None]
    assert report_cluster_model(c, ms).partition_state(0).isr == (1, 2, 3)  # not given
    s = build_cluster_summary(c, ms, existing=existing)
    down_1 = next(f for f in s["cluster"]["failures"] if f["down"] == [1])
    assert down_1["offline_partitions"] == 1  # a-0's only in-sync replica is broker 1
