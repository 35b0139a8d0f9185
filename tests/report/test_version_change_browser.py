"""report.html with ``kpart report --compare-version``'s section, in headless Chromium: the
section sits after the cross-client one, its tables have one row per group and per member that
moves, the nav links to it, and no JavaScript error (single-topic and cluster pages).

Needs Debian's ``chromium`` (``make browser``); skipped without it unless ``CI=true``.
"""

from __future__ import annotations

from _tools.browser import inspect_report
from _tools.cluster_report_sample import cluster_report_summary
from _tools.sample import sample_summary
from kpart.analysis.layout import resolve_topology
from kpart.analysis.version_change import version_change
from kpart.report.html import write_report_html
from kpart.topology import parse_topology

TOPOLOGY = """kafka_version = "4.0.0"
[topic]
name = "t"
partitions = 5
key = "k"
[[groups]]
name = "fresh"
strategy = "uniform"
members = ["A", "B", "C"]
[[groups]]
name = "legacy"
strategy = "range"
members = ["c1", "c2"]
"""


def _section() -> dict:
    t = parse_topology(TOPOLOGY)
    return version_change(t, [resolve_topology(t)], "4.3").to_json()


def test_the_version_section_renders(tmp_path, chromium: str) -> None:
    doc = _section()
    moving = sum(1 for g in doc["groups"] for m in (g.get("members") or {}).values()
                 if m["lost"] or m["gained"])
    assert moving == 3  # A loses 1 to B, B loses 3 to C (a fresh group, 4.0.0 -> 4.3)
    summary = {**sample_summary(num_partitions=5, records=1_000,
                                groups=(("g", "range", 2),), seed=3), "version_change": doc}
    report = inspect_report(write_report_html(summary, tmp_path / "r.html"), binary=chromium)
    assert report.errors == []
    assert report.sections[-3:] == ["whatif", "compat", "version-change"]
    assert report.tables["table-version-change"] == 2
    assert report.tables["table-version-change-members"] == moving
    assert 'href="#version-change"' in (tmp_path / "r.html").read_text()


def test_the_version_section_renders_on_the_cluster_page(tmp_path, chromium: str) -> None:
    summary = {**cluster_report_summary(hot_key_topic=2), "version_change": _section()}
    report = inspect_report(write_report_html(summary, tmp_path / "c.html"), binary=chromium)
    assert report.errors == []
    i = report.sections.index("version-change")
    assert report.sections[i - 1] == "partition-count"
    assert report.tables["table-version-change"] == 2
