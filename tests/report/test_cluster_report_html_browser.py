"""report.html of a whole cluster in headless Chromium: every chart renders with one bar per
datum, the heat map has one row per partition and one column per time step, the topic
buttons switch the bars, no JavaScript error, nothing fetched from the network.

As ``tests/report/test_html_browser.py``: needs Debian's ``chromium`` (``make browser``); skipped
without it, except under ``CI=true``, where a missing browser is a failure. Two Chromium starts.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from _tools.browser import PageReport, open_page
from _tools.cluster_report_sample import cluster_report_summary
from kpart.report.html import write_report_html

#: After the page rendered: the heat map's computed grid, then the topic chart's bars once its
#: "bytes" button was clicked.
_HEATMAP = """(() => {
  const gd = document.getElementById('chart-heatmap');
  if (!gd) return JSON.stringify(null);
  const cd = gd.calcdata[0][0];
  return JSON.stringify({rows: cd.z.length, columns: cd.z[0].length,
                         images: gd.querySelectorAll('g.hm image').length});
})()"""
_CLICK_BYTES = """(() => {
  const gd = document.getElementById('chart-topic-0');
  gd.setAttribute('data-clicked', '0');
  gd.on('plotly_buttonclicked', () => setTimeout(
    () => gd.setAttribute('data-clicked', '1'), 0));
  const button = Array.from(gd.querySelectorAll('g.updatemenu-button'))
    .find(b => b.textContent === 'bytes');
  button.dispatchEvent(new MouseEvent('click', {bubbles: true}));
  return 'ok';
})()"""
_AFTER_CLICK = """(() => {
  const gd = document.getElementById('chart-topic-0');
  return JSON.stringify({clicked: gd.getAttribute('data-clicked'),
    bars: gd.querySelectorAll('g.trace.bars g.point').length,
    visible: gd.data.map(t => t.visible), title: gd.layout.yaxis.title.text});
})()"""


def inspect(html: Path, binary: str, *, click: bool) -> tuple[PageReport, Any, Any]:
    """As :func:`_tools.browser.inspect_report`, plus the heat map's grid and (``click``) the
    first topic chart after its "bytes" button."""
    with open_page(html, binary=binary, timeout=90) as page:
        heat = page.evaluate(_HEATMAP)
        after = None
        if click:
            deadline = time.monotonic() + 90
            page.pipe.send("Runtime.evaluate", {"expression": _CLICK_BYTES}, session=page.sid)
            while (after := page.evaluate(_AFTER_CLICK))["clicked"] != "1":
                assert time.monotonic() < deadline, f"the button did nothing: {after}"
                time.sleep(0.1)
        return page.report(), heat, after


BROKER_LOAD = ("chart-broker-disk", "chart-broker-nw-in", "chart-broker-nw-out",
               "chart-broker-leaders")


def test_a_timed_cluster_of_225_brokers(tmp_path, chromium: str) -> None:
    partitions = (12, 3, 30, 6, 1, 9)
    s = cluster_report_summary(partitions=partitions, brokers=225, racks=6, windows=960,
                               columns=480, members=(4, 7), hot_key_topic=4)
    report, heat, after = inspect(write_report_html(s, tmp_path / "report.html"), chromium,
                                  click=True)
    assert report.errors == [], f"JavaScript errors: {report.errors}"
    assert report.external_requests == [], "the page fetched from the network"
    assert report.sections == ["overview", "topics", "partitions", "heatmap", "brokers",
                               "racks", "consumers", "hot-keys", "partition-count",
                               "broker-load", "failures"]
    assert all(c["rendered"] for c in report.charts)
    recommended = sum(t["partition_count"]["recommended"] is not None for t in s["topics"])
    assert report.bars() == {
        **{f"chart-topic-{i}": n for i, n in enumerate(partitions)},
        "chart-heatmap": 0,
        "chart-brokers-bytes": 2 * 225,  # as leader, as replica
        "chart-brokers-network": 4 * 225,  # produce + replication in, consumers + replication out
        "chart-brokers-peak": 225,
        "chart-group-0": 4, "chart-group-1": 7,
        "chart-partition-count": len(partitions) + recommended,  # no bar where none works
        **dict.fromkeys(BROKER_LOAD, 225),
    }
    assert heat == {"rows": sum(partitions), "columns": 480, "images": 1}
    assert after["bars"] == partitions[0] and after["title"] == "bytes"
    assert after["visible"] == [False, True, False, False, False]
    assert report.tables["table-topics"] == len(partitions)
    assert report.tables["table-brokers"] == report.tables["table-broker-load"] == 225


def test_a_cluster_without_timestamps_or_capacities(tmp_path, chromium: str) -> None:
    s = cluster_report_summary(partitions=(4, 2), brokers=3, racks=0, timed=False,
                               capacity=False, members=(2,))
    report, heat, _ = inspect(write_report_html(s, tmp_path / "report.html"), chromium,
                              click=False)
    assert report.errors == [] and report.external_requests == []
    assert heat is None
    assert report.bars() == {"chart-topic-0": 4, "chart-topic-1": 2, "chart-brokers-bytes": 6,
                             "chart-group-0": 2, "chart-broker-disk": 3,
                             "chart-broker-leaders": 3}
    assert "racks" not in report.sections and "heatmap" in report.sections
