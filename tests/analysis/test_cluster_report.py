"""A cluster report from its measures (kpart.analysis.cluster_report, no Spark): the summary,
the windows table, the cluster model and the groups the report directory holds, computed once
from the topics' measures; malformed records counted per topic; the producer view has no model."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from _tools.cluster_standin import cluster, group, measure, topic, windows
from kpart.analysis.cluster_model import report_cluster_model, report_groups
from kpart.analysis.cluster_report import cluster_report, placing_step
from kpart.analysis.cluster_summary import build_cluster_summary, cluster_windows_table
from kpart.analysis.layout import resolve_cluster
from kpart.cluster.cluster_json import cluster_to_json
from kpart.topology import parse_topology

AT = "2026-11-28T00:00:00Z"


def _inputs():  # noqa: ANN202 - the stand-in cluster and its measures
    c = cluster([topic("a", 4), topic("b", 3, rf=2, seed=3)], [group("g", 2)])
    wa = windows(np.array([[1, 2], [0, 3], [4, 0], [2, 2]]), null_records=np.array([1, 0]))
    wb = windows(np.array([[5, 0], [0, 0], [1, 1]]))
    return c, [measure("a", wa), measure("b", wb)]


def test_the_report_is_the_summary_windows_model_and_groups_of_its_measures() -> None:
    c, ms = _inputs()
    steps: list[str] = []
    r = cluster_report(c, ms, analysed_at=AT, on_step=steps.append)
    assert r.summary == build_cluster_summary(c, ms, analysed_at=AT)
    assert r.windows is not None and r.windows.equals(cluster_windows_table(c, ms))
    assert r.model is not None
    assert cluster_to_json(r.model) == cluster_to_json(report_cluster_model(c, ms))
    assert r.groups == report_groups(c) and r.measures == tuple(ms)
    assert steps == ["placing replicas and assigning 1 consumer group(s)"]


def test_malformed_records_counted_go_to_their_topic_row_only() -> None:
    c, ms = _inputs()
    ms[1] = replace(ms[1], source={**ms[1].source, "malformed_records": 4})
    rows = cluster_report(c, ms, analysed_at=AT).summary["topics"]
    assert "malformed_records" not in rows[0] and rows[1]["malformed_records"] == 4
    assert rows[1]["records"] == int(ms[1].windows.records.sum())  # in no figure


def test_the_producer_view_has_no_model() -> None:
    resolved = resolve_cluster(parse_topology(
        '[topic]\nname = "user"\npartitions = 2\nkey = "k"\ntimestamp = "ts"\n'
        "placement_seed = 1\n"))
    r = cluster_report(resolved, [measure("user", windows(np.array([[1, 2], [3, 0]])))],
                       analysed_at=AT)
    assert r.model is None and r.summary["cluster"] is None
    assert placing_step(resolved.topology) == "placing null keys"
