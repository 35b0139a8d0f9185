"""Issue 24 point 2: the load over time of the user's own dataset without brokers
(``kpart report DATA --key K --timestamp TS``, or a ``[topic]`` with ``timestamp`` and no
``[cluster]``) is the producer view over time: windows, heat map, hot keys, null keys and the
partition count, and no broker, rack, replica, leader, consumer or cluster-model section —
nothing invented. No Spark: the summary, page and terminal built from a measure."""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest
from rich.console import Console

from _tools.cluster_standin import measure, windows
from kpart.analysis.cluster_summary import build_cluster_summary, cluster_windows_table
from kpart.analysis.layout import resolve_cluster
from kpart.analysis.loads import HotKey
from kpart.errors import ConfigError
from kpart.report.html import render_report
from kpart.report.terminal import print_summary
from kpart.topology import parse_topology

TOML = """
[topic]
name = "user"
partitions = 4
key = "k"
timestamp = "ts"
placement_seed = 1
"""


def _summary() -> dict[str, Any]:
    resolved = resolve_cluster(parse_topology(TOML))
    recs = np.array([[3, 0, 1], [0, 0, 0], [5, 9, 2], [1, 1, 1]], np.int64)
    w = windows(recs, null_records=np.array([2, 0, 1], np.int64))
    m = measure("user", w, hot=(HotKey("u9", 9, 90, 2), HotKey("u1", 3, 30, 0)))
    return build_cluster_summary(resolved, [m], analysed_at="2026-11-28T00:00:00Z")


def test_a_timed_topic_without_cluster_is_a_brokerless_cluster_report() -> None:
    topo = parse_topology(TOML)  # refused before: "cluster: missing section"
    assert topo.is_cluster and topo.brokers == () and topo.groups == ()
    resolved = resolve_cluster(topo)
    assert resolved.topics[0].layout.replicas == ((),) * 4
    assert tuple(resolved.leaders[0]) == (-1,) * 4  # no leader invented
    # several topics share brokers: without [cluster] they are still refused
    text = ('[[topics]]\nname = "a"\npartitions = 2\nkey = "k"\n'
            '[[topics]]\nname = "b"\npartitions = 2\nkey = "k"\n')
    with pytest.raises(ConfigError, match="cluster: missing section"):
        parse_topology(text)


def test_the_summary_of_the_producer_view_over_time() -> None:
    s = _summary()
    assert s["kind"] == "cluster" and s["window_s"] == 60.0
    assert s["brokers"] == [] and s["racks"] == [] and s["groups"] == []
    assert s["cluster"] is None  # no model, no failure what-ifs
    a = s["analysed"]
    assert a["brokers"] == [] and a["racks"] == [] and a["groups"] == []
    assert a["placer"] is None  # nothing placed
    (t,) = s["topics"]
    assert t["topic"] == "user" and t["timestamp"] == "ts" and t["replication_factor"] is None
    assert t["null_key_records"] == 3
    assert [p["leader"] for p in t["partitions"]] == [None] * 4
    assert [p["replicas"] for p in t["partitions"]] == [[]] * 4
    assert [p["consumers"] for p in t["partitions"]] == [{}] * 4
    # every record counted once, null keys placed; the busiest partition's peak window
    assert sum(p["records"] for p in t["partitions"]) == 23 + 3
    assert t["partitions"][2]["peak_records_per_s"] == pytest.approx(9 / 60, abs=1 / 60)
    assert [h["key"] for h in s["hot_keys"]] == ["u9", "u1"]
    assert "partition_count" in t  # the Spark job measures it (tests/spark/test_report_producer_view_spark.py)
    assert s["heatmap"] is not None and len(s["heatmap"]["rows"]) == 4


def test_the_windows_table_of_the_producer_view() -> None:
    resolved = resolve_cluster(parse_topology(TOML))
    w = windows(np.array([[3, 0, 1], [0, 0, 0], [5, 9, 2], [1, 1, 1]], np.int64))
    table = cluster_windows_table(resolved, [measure("user", w)])
    assert table is not None
    assert set(table.column("topic").to_pylist()) == {"user"}
    assert sum(table.column("records").to_pylist()) == 23


def test_the_page_of_the_producer_view_has_no_broker_section() -> None:
    page = render_report(_summary())
    assert "kpart report — producer view: 1 topic (user)" in page
    for section in ("overview", "topics", "partitions", "heatmap", "hot-keys",
                    "partition-count"):
        assert f'<section id="{section}"' in page
    for section in ("brokers", "racks", "consumers", "broker-load", "failures"):
        assert f'<section id="{section}"' not in page
    assert "none (producer view)" in page
    assert "leader (broker)" not in page and "replication factor" not in page
    assert "consumer groups" not in page and "placer" not in page
    assert 'id="chart-heatmap"' in page


def test_the_terminal_of_the_producer_view() -> None:
    out = io.StringIO()
    print_summary(_summary(), Console(file=out, width=160, color_system=None))
    text = out.getvalue()
    assert "4 partitions (producer view: no brokers, nothing placed)" in text
    assert "0 brokers" not in text and "rack" not in text
    assert "user: 3 null-key records" in text
    assert "user: hottest key u9, 9 records" in text and "partition 2" in text
    assert "Partition count" in text
