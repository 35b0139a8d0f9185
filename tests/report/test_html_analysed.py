"""What a user expects of the report (issue 10, points 15 and 16), without Spark: the page and
the terminal say what was analysed; groups get a member → partitions table; headers in words,
percentages as the CLI prints them, "as replica" explained, no green for a cost; the what-if's
"now" is the report's own skew figure and "best" is never worse; a topology without groups
renders with no group section."""

from __future__ import annotations

import io
import json
import re

import pytest
from rich.console import Console

from kpart import __version__
from kpart.analysis.loads import count_whatif_like_report
from kpart.analysis.summary import HotKey, Loads, build_summary
from kpart.producer.builtin import partition_for_key
from kpart.producer.whatif import partition_count_whatif
from kpart.report._format import percent
from kpart.report.html import render_report
from kpart.report.output import write_report
from kpart.report.terminal import print_summary
from kpart.topology import default_topology, parse_topology

_NO_GROUPS = """\
[cluster]
brokers = [{ id = 10, rack = "a" }, { id = 11, rack = "b" }, { id = 12, rack = "a" }]

[topic]
name = "orders"
partitions = 5
replication_factor = 2
key = "customer"
placement_seed = 3
null_key_seed = 3
"""

# keys with repeats, and records without key
_KEYS = [f"cust-{i % 37}" for i in range(900)] + [f"vip-{i % 3}" for i in range(300)]
_NULLS = 120


def _loads(n: int) -> tuple[Loads, list[str]]:
    recs, byts, keys = [0] * n, [0] * n, [set() for _ in range(n)]
    for k in _KEYS:
        p = partition_for_key(k.encode(), n)
        recs[p] += 1
        byts[p] += len(k) + 50
        keys[p].add(k)
    top = sorted({k: _KEYS.count(k) for k in set(_KEYS)}.items(), key=lambda kv: (-kv[1], kv[0]))
    hot = tuple(HotKey(k, c, c * (len(k) + 50), partition_for_key(k.encode(), n))
                for k, c in top[:3])
    loads = Loads(tuple(recs), tuple(byts), tuple(len(s) for s in keys), _NULLS, _NULLS * 50, hot)
    return loads, _KEYS


@pytest.fixture(scope="module")
def summary() -> dict:
    topo = default_topology()
    loads, keys = _loads(topo.topic.partitions)
    s = build_summary(topo, loads, source={"path": "data/flights.csv", "format": "csv"},
                      analysed_at="2026-11-23T22:00:00Z")
    whatif = partition_count_whatif(keys, 12, [5, 16, 24], records=[1] * len(keys),
                                    bytes_=[len(k) + 50 for k in keys]).to_json()
    s["whatif"] = count_whatif_like_report(whatif, topo, loads)
    return s


def _terminal(summary: dict) -> str:
    buf = io.StringIO()
    print_summary(summary, Console(file=buf, width=200, force_terminal=False))
    return buf.getvalue()


def test_summary_says_what_was_analysed(summary: dict) -> None:
    a = summary["analysed"]
    assert a["input"] == "data/flights.csv" and a["format"] == "csv"
    assert a["records"] == summary["records"] == len(_KEYS) + _NULLS
    assert (a["key"], a["key_serializer"], a["partitioner"], a["null_key_strategy"]) == (
        "tailnum", "string", "java:default", "client")
    assert (a["partitions"], a["replication_factor"]) == (12, 3)
    assert a["brokers"] == [0, 1, 2, 3, 4, 5] and a["racks"] == ["us-east-1a", "us-east-1b",
                                                                  "us-east-1c"]
    assert a["kpart_version"] == __version__ and a["time"] == "2026-11-23T22:00:00Z"
    json.dumps(summary)


def test_page_and_terminal_show_what_was_analysed(summary: dict) -> None:
    page = render_report(summary)
    table = re.search(r'<table id="table-analysed".*?</table>', page, re.S).group(0)
    shown = _terminal(summary)
    for needle in ("data/flights.csv", f"{len(_KEYS) + _NULLS:,}", "tailnum", "string",
                   "java:default", "client", "12", "0 (us-east-1a)", "us-east-1c",
                   __version__, "2026-11-23T22:00:00Z", "delay-analytics"):
        assert needle in table, needle
        assert needle in shown, needle
    for label in ("input", "key column", "key serializer", "partitioner", "null-key strategy",
                  "replication factor", "brokers", "racks", "kpart version", "time (UTC)"):
        assert f"<th>{label}</th>" in table and label in shown, label


def test_groups_get_a_member_partitions_table(summary: dict) -> None:
    page = render_report(summary)
    shown = _terminal(summary)
    for i, g in enumerate(summary["groups"]):
        table = re.search(rf'<table id="table-group-{i}">.*?</table>', page, re.S).group(0)
        assert table.count("<tr>") == len(g["members"]) + 1
        for m in g["members"]:
            row = f"<td>{m['member']}</td><td>{m['rack'] or '—'}</td>" \
                  f"<td>{m['instance_id'] or '—'}</td>" \
                  f"<td>{', '.join(map(str, m['partitions'])) or 'none'}</td>"
            assert row in table, row
            if m["instance_id"]:
                assert m["instance_id"] in shown
    assert "billing-host-3" in shown and "instance id" in shown


def test_headers_in_words_and_as_replica_explained(summary: dict) -> None:
    page = render_report(summary)
    headers = re.findall(r"<th[^>]*>([^<]*)</th>", page)
    assert not [h for h in headers if "_" in h], [h for h in headers if "_" in h]
    assert "bytes as replica" in headers and "records as leader" in headers
    assert re.search(r'<th title="as replica: what a broker stores, as leader or as follower',
                     page)
    assert "As replica: what a broker stores" in page
    assert "as replica: what a broker stores" in _terminal(summary)


def test_percentages_are_printed_as_the_cli_prints_them(summary: dict) -> None:
    page = render_report(summary)
    shown = _terminal(summary)
    share = summary["hot_keys"][0]["share"]
    assert percent(share) in shown
    hot = re.search(r'<table id="table-hot-keys">.*?</table>', page, re.S).group(0)
    assert f"<td>{percent(share)}</td>" in hot
    whatif = re.search(r'<table id="table-whatif">.*?</table>', page, re.S).group(0)
    moved = summary["whatif"]["scenarios"][1]["moved_fraction"]
    assert f"<td>{percent(moved)}</td>" in whatif


def test_no_green_for_moved_records(summary: dict) -> None:
    page = render_report(summary)
    assert "#54A24B" not in page.upper()  # the old "alternative" green of every scenario bar
    moved = re.search(r'id="chart-whatif-moved".*?</script>', page, re.S).group(0)
    assert "#F58518" in moved


def test_whatif_now_is_the_report_skew_and_best_is_never_worse(summary: dict) -> None:
    w = summary["whatif"]
    now = next(s for s in w["scenarios"] if s["num_partitions"] == summary["num_partitions"])
    for f in ("max_over_mean", "cv"):
        assert now[f] == summary["skew"]["partition_records"][f], f
    assert w["loads"][0]["records"] == [p["records"] for p in summary["partitions"]]
    assert sum(w["loads"][1]["records"]) == summary["records"]  # null keys counted at 5 too
    best = next(s for s in w["scenarios"] if s["num_partitions"] == w["best"])
    assert (best["max_over_mean"], best["cv"]) <= (now["max_over_mean"], now["cv"])
    page = render_report(summary)
    note = re.search(r'<section id="whatif">.*?</p>', page, re.S).group(0)
    assert f"records without a key ({_NULLS:,})" in note and "null-key model" in note


def test_a_topology_without_groups_renders_no_group_section(tmp_path) -> None:
    topo = parse_topology(_NO_GROUPS)
    loads, _ = _loads(5)
    s = build_summary(topo, loads, source={"path": "x.parquet", "format": "parquet"})
    assert s["groups"] == [] and s["analysed"]["groups"] == []
    page = render_report(s)
    assert '<section id="consumers"' not in page and "chart-group" not in page
    assert "table-group" not in page
    shown = _terminal(s)
    assert "Group " not in shown and "orders" in shown
    write_report(s, tmp_path / "r")
    assert (tmp_path / "r" / "summary.json").exists()
