"""report.html in headless Chromium: every chart renders with the right number of bars, no JS error.

Needs Debian's ``chromium`` (``make browser``). Without it the tests are skipped, except under
``CI=true`` (``make test`` installs it there), where a missing browser is a failure.
"""

from __future__ import annotations

import os
import struct

import pytest

from _tools.browser import find_chromium, inspect_report, screenshot_report
from _tools.sample import sample_summary
from kpart.report.html import write_report_html

CHROMIUM = find_chromium()
IN_CI = os.environ.get("CI", "").lower() == "true"


def png_size(path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def expected_bars(summary: dict) -> dict[str, int]:
    n = summary["num_partitions"]
    bars = {
        "chart-partition-records": n,
        "chart-partition-bytes": n,
        "chart-brokers": 2 * len(summary["brokers"]),  # leader + replica per broker
    }
    for i, g in enumerate(summary["groups"]):
        bars[f"chart-group-{i}"] = len(g["members"])
    if "whatif" in summary:
        bars["chart-whatif"] = bars["chart-whatif-moved"] = len(summary["whatif"]["scenarios"])
    if "compat" in summary:
        clients = summary["compat"]["clients"]
        bars["chart-compat"] = len(clients)
        if all("records_per_partition" in c for c in clients):  # one bar per client × partition
            bars["chart-compat-loads"] = len(clients) * summary["compat"]["num_partitions"]
    return bars


def check_page(report, summary: dict) -> None:
    assert report.errors == [], f"JavaScript errors: {report.errors}"
    assert report.external_requests == [], "the page fetched from the network"
    assert all(c["rendered"] for c in report.charts)
    assert report.bars() == expected_bars(summary)
    assert report.tables["table-hot-keys"] == len(summary["hot_keys"])
    assert report.tables["table-brokers"] == len(summary["brokers"])
    for i, g in enumerate(summary.get("groups") or []):  # member → partitions, one row each
        assert report.tables[f"table-group-{i}"] == len(g["members"])
    if "analysed" in summary:  # what was analysed: one row per fact
        assert report.tables["table-analysed"] == 14
    sections = {c["id"]: c["section"] for c in report.charts}
    assert sections["chart-brokers"] == "brokers"
    assert {sections[f"chart-group-{i}"] for i in range(len(summary["groups"]))} == {"consumers"}


@pytest.mark.parametrize(
    ("partitions", "groups"),
    [
        (12, (("dashboard", "range", 5), ("audit", "roundrobin", 4))),
        (7, (("solo", "range", 1), ("many", "roundrobin", 9), ("sticky", "sticky", 3))),
    ],
    ids=["p12-two-groups", "p7-three-groups"],
)
def test_report_renders_every_chart(tmp_path, chromium: str, partitions: int, groups) -> None:
    summary = sample_summary(num_partitions=partitions, records=20_000, groups=groups, seed=11)
    html = write_report_html(summary, tmp_path / "report.html")
    png = tmp_path / "report.png"
    report = screenshot_report(html, png, binary=chromium)
    check_page(report, summary)
    assert report.sections == [
        "overview", "partitions", "brokers", "consumers", "hot-keys", "skew", "whatif", "compat",
    ]
    width, height = png_size(png)
    assert width == 1280 and height > 2000  # the full page, not just the first screen


def test_minimal_summary_renders_partition_chart_only(tmp_path, chromium: str) -> None:
    summary = {
        "topic": "t", "num_partitions": 3, "records": 6,
        "partitions": [{"partition": p, "records": p * 2} for p in range(3)],
    }
    report = inspect_report(write_report_html(summary, tmp_path / "r.html"), binary=chromium)
    assert report.errors == [] and report.sections == ["overview", "partitions"]
    assert report.bars() == {"chart-partition-records": 3}


def test_a_javascript_error_is_reported(tmp_path, chromium: str) -> None:
    # the checker itself must be able to fail: a page with a broken script
    page = tmp_path / "broken.html"
    page.write_text("<!DOCTYPE html><html><body><script>undefinedFunction();</script>"
                    "<script>console.error('boom')</script></body></html>")
    report = inspect_report(page, binary=chromium)
    assert any("undefinedFunction" in e for e in report.errors)
    assert any("boom" in e for e in report.errors)


@pytest.mark.spark
def test_real_pipeline_summary_renders(tmp_path, spark) -> None:
    """The summary of the real Spark pipeline (5,000 flights) renders, in a browser if present."""
    from kpart.spark.datasets import write_flights_parquet
    from kpart.spark.inputs import resolve_input
    from kpart.spark.pipeline import run_report
    from kpart.topology import default_topology

    topology = default_topology()
    data = write_flights_parquet(tmp_path, limit=5_000)
    summary = run_report(spark, topology, resolve_input(data, None, topology.topic.key))
    html = write_report_html(summary, tmp_path / "report.html")
    page = html.read_text(encoding="utf-8")
    assert page.count('class="kpart-chart"') == len(expected_bars(summary))
    if CHROMIUM is None and not IN_CI:
        pytest.skip("chromium not installed: run `make browser` to check the page in a browser")
    if CHROMIUM is None:
        pytest.fail("CI=true but chromium is missing: `make browser` must install it")
    check_page(inspect_report(html, binary=CHROMIUM), summary)
