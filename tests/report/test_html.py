"""report.html from a summary dict: sections, self-containment, escaping, errors, atomic write."""

from __future__ import annotations

import copy
import re

import pytest

from _tools.sample import sample_summary
from kpart.errors import ConfigError
from kpart.report.html import HOT_FACTOR, render_report, write_report_html


@pytest.fixture(scope="module")
def summary() -> dict:
    s = sample_summary(num_partitions=12, records=20_000, seed=3)
    return s


@pytest.fixture(scope="module")
def page(summary: dict) -> str:
    return render_report(summary)


def section_ids(page: str) -> list[str]:
    return re.findall(r'<section id="([^"]+)"', page)


def test_all_sections_in_order(page: str) -> None:
    assert section_ids(page) == [
        "overview", "partitions", "brokers", "consumers", "hot-keys", "skew", "whatif", "compat",
    ]


def test_one_chart_div_per_view(page: str, summary: dict) -> None:
    charts = re.findall(r'<div id="(chart-[^"]+)"', page)
    groups = [f"chart-group-{i}" for i in range(len(summary["groups"]))]
    assert charts == [
        "chart-partition-records", "chart-partition-bytes", "chart-brokers", *groups,
        "chart-whatif", "chart-whatif-moved", "chart-compat", "chart-compat-loads",
    ]


def test_optional_sections_absent_without_their_keys(summary: dict) -> None:
    minimal = {k: summary[k] for k in ("topic", "num_partitions", "records", "partitions")}
    page = render_report(minimal)
    assert section_ids(page) == ["overview", "partitions"]
    rest = {k: v for k, v in summary.items() if k not in ("whatif", "compat")}
    assert "whatif" not in section_ids(render_report(rest))
    assert "compat" not in section_ids(render_report(rest))


def test_self_contained_no_network_reference(page: str) -> None:
    # plotly.js is inlined once; no script, stylesheet or image is fetched from anywhere
    assert len(re.findall(r"<script\b", page)) == page.count("</script>")
    assert not re.search(r"<script[^>]+\bsrc=", page)
    assert not re.search(r"<link\b", page)
    markup = re.sub(r"<script\b[^>]*>.*?</script>", "", page, flags=re.S)
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", markup)
    # (what the library itself requests at view time is checked in the browser test)
    assert page.count("Plotly.newPlot(") >= 8
    assert len(page) > 3_000_000  # the library itself, not a CDN tag


def test_hot_partitions_named_in_overview(page: str, summary: dict) -> None:
    recs = [p["records"] for p in summary["partitions"]]
    mean = sum(recs) / len(recs)
    hot = [p["partition"] for p in summary["partitions"] if p["records"] > HOT_FACTOR * mean]
    assert hot, "the Zipf sample must have at least one hot partition"
    card = re.search(r'hot partitions</div><div class="value">([^<]*)<', page)
    assert card is not None and card.group(1) == ", ".join(map(str, hot))


def test_hot_partitions_listed_by_skew_win(summary: dict) -> None:
    s = copy.deepcopy(summary)
    s["skew"]["hot_partitions"] = [3, 4]
    card = re.search(r'hot partitions</div><div class="value">([^<]*)<', render_report(s))
    assert card is not None and card.group(1) == "3, 4"


def test_tables_carry_the_figures(page: str, summary: dict) -> None:
    hot = re.search(r'<table id="table-hot-keys">.*?</table>', page, re.S).group(0)
    assert hot.count("<tr>") == len(summary["hot_keys"]) + 1
    top = summary["hot_keys"][0]
    assert f"<td>{top['key']}</td><td>{top['records']:,}</td>" in hot
    skew = re.search(r'<table id="table-skew">.*?</table>', page, re.S).group(0)
    ratio = summary["skew"]["partition_records"]["max_over_mean"]
    assert re.search(rf"<td>records per partition</td>(<td>[^<]*</td>)*<td>{ratio:.4g}</td>",
                     skew)
    assert f"{summary['records']:,}" in page


def test_untrusted_strings_are_escaped(summary: dict) -> None:
    s = copy.deepcopy(summary)
    s["topic"] = "t<script>alert(1)</script>"
    s["hot_keys"][0]["key"] = "</table><img src=x onerror=alert(1)>"
    s["groups"][0]["members"][0]["member"] = "</script><script>alert(2)</script>"
    page = render_report(s)
    assert "<script>alert" not in page
    assert "<img src=x" not in page
    assert "&lt;/table&gt;&lt;img src=x onerror=alert(1)&gt;" in page
    assert len(re.findall(r"<script\b", page)) == page.count("</script>")


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda s: s.pop("partitions"), "'partitions'"),
        (lambda s: s.pop("topic"), "'topic'"),
        (lambda s: s["partitions"][0].pop("records"), "'records'"),
        (lambda s: s["partitions"][2].update(records="many"), "'many'"),
        (lambda s: s["brokers"][0].pop("leader_records"), "'leader_records'"),
        (lambda s: s["groups"][1].pop("members"), "'members'"),
        (lambda s: s["whatif"]["scenarios"][0].pop("max_over_mean"), "'max_over_mean'"),
        (lambda s: s["compat"]["clients"][1].pop("same_fraction"), "'same_fraction'"),
        (lambda s: s.update(partitions=[]), "'partitions'"),
    ],
)
def test_bad_summary_names_the_field(summary: dict, mutate, field: str) -> None:
    s = copy.deepcopy(summary)
    mutate(s)
    with pytest.raises(ConfigError, match=re.escape(field)):
        render_report(s)


def test_write_is_atomic_and_readable(tmp_path, summary: dict) -> None:
    out = write_report_html(summary, tmp_path / "report.html")
    assert out.read_text(encoding="utf-8") == render_report(summary)
    assert out.stat().st_mode & 0o044 == 0o044  # not mkstemp's 0600
    with pytest.raises(ConfigError):
        write_report_html({"topic": "x"}, tmp_path / "bad.html")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]


def test_render_is_deterministic(summary: dict) -> None:
    assert render_report(summary) == render_report(copy.deepcopy(summary))


def test_renders_the_pipeline_summary_builder_output() -> None:
    """The summary as kpart.analysis.summary builds it (what `kpart report` writes), no Spark."""
    from kpart.analysis.summary import HotKey, Loads, build_summary
    from kpart.topology import default_topology

    topology = default_topology()
    n = topology.topic.partitions
    records = tuple(1_000 + 40 * p + (900 if p == 3 else 0) for p in range(n))
    loads = Loads(records, tuple(150 * r for r in records), (7,) * n, 25, 2_500,
                  (HotKey("N725MQ", 575, 175_565, 3), HotKey("N722MQ", 513, 156_509, 7)))
    summary = build_summary(topology, loads)
    page = render_report(summary)
    assert section_ids(page) == [
        "overview", "partitions", "brokers", "consumers", "hot-keys", "skew",
    ]
    charts = re.findall(r'<div id="(chart-[^"]+)"', page)
    assert charts[:3] == ["chart-partition-records", "chart-partition-bytes", "chart-brokers"]
    assert len(charts) == 3 + len(topology.groups)
    card = re.search(r'hot partitions</div><div class="value">([^<]*)<', page)
    assert card is not None and card.group(1) == "3"
    assert page.count("<td>N725MQ</td>") == 1
    dist = summary["null_key_distribution"]
    assert dist["included_in_totals"] == ("Records without a key are included" in page)
    apart = render_report(build_summary(topology.with_topic(null_key_strategy="separate"), loads))
    assert "Records without a key are not hashed by Kafka and are counted apart." in apart
