"""plan.html (and report.html's cluster sections) in headless Chromium: every chart renders
with the right number of bars, no JavaScript error, nothing fetched from the network.

As ``tests/report/test_html_browser.py``: needs Debian's ``chromium`` (``make browser``); skipped
without it, except under ``CI=true``, where a missing browser is a failure. Two Chromium starts.
"""

from __future__ import annotations

from _tools.browser import inspect_report
from _tools.plan_sample import plan_summary
from kpart.report.html import write_report_html
from kpart.report.plan_html import write_plan_html

BROKER_CHARTS = ("chart-broker-disk", "chart-broker-nw-in", "chart-broker-nw-out",
                 "chart-broker-leaders")


def test_plan_page_at_225_brokers(tmp_path, chromium: str) -> None:
    """Cruise Control's #1592 broker count: 2 bars per broker in each of the 4 broker charts,
    1 per batch in the timeline; every table row there."""
    summary = plan_summary(brokers=225, racks=6, added=10, removed=5, batches=40)
    report = inspect_report(write_plan_html(summary, tmp_path / "plan.html"), binary=chromium)
    assert report.errors == [], f"JavaScript errors: {report.errors}"
    assert report.external_requests == [], "the page fetched from the network"
    assert report.sections == ["moves", "broker-load", "goals", "schedule", "failures"]
    assert all(c["rendered"] for c in report.charts)
    assert report.bars() == {**dict.fromkeys(BROKER_CHARTS, 2 * 225), "chart-schedule": 40}
    assert {c["id"]: c["section"] for c in report.charts} == {
        **dict.fromkeys(BROKER_CHARTS, "broker-load"), "chart-schedule": "schedule"}
    assert report.tables == {"table-broker-load": 225, "table-goals": len(summary["goals"]),
                             "table-schedule": 40, "table-failures": len(summary["failures"])}


def test_report_page_with_a_cluster(tmp_path, chromium: str) -> None:
    """report.html with a cluster (loads now, no before; no disk sizes; failures not computed):
    one bar per broker in the three known charts, the notes instead of the rest."""
    plan = plan_summary(brokers=9, added=0, removed=0, batches=0, failures=False)
    brokers = [{k: v for k, v in b.items() if k != "before"} for b in plan["brokers"]]
    for b in brokers:
        b["after"] = {**b["after"], "disk_bytes": None}
    summary = {"topic": "t", "num_partitions": 3, "records": 60,
               "partitions": [{"partition": p, "records": 10 * (p + 1)} for p in range(3)],
               "cluster": {"brokers": brokers, "failures": None}}
    report = inspect_report(write_report_html(summary, tmp_path / "report.html"),
                            binary=chromium)
    assert report.errors == [] and report.external_requests == []
    assert report.sections == ["overview", "partitions", "broker-load", "failures"]
    assert report.bars() == {"chart-partition-records": 3,
                             **dict.fromkeys(BROKER_CHARTS[1:], 9)}
    assert report.tables["table-broker-load"] == 9 and "table-failures" not in report.tables
