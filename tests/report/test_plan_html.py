"""plan.html from a plan summary: sections, figures, missing parts, bad fields, atomic write;
and report.html's cluster sections (the same functions)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _tools.plan_sample import plan_summary
from kpart.errors import ConfigError
from kpart.report._cluster_html import failures_section, parse_brokers
from kpart.report.html import render_report
from kpart.report.plan_html import render_plan, write_plan_html

BROKER_CHARTS = ["chart-broker-disk", "chart-broker-nw-in", "chart-broker-nw-out",
                 "chart-broker-leaders"]


@pytest.fixture(scope="module")
def summary() -> dict:
    return plan_summary(brokers=12, added=2, removed=1, batches=8)


@pytest.fixture(scope="module")
def page(summary: dict) -> str:
    return render_plan(summary)


def section_ids(page: str) -> list[str]:
    return re.findall(r'<section id="([^"]+)"', page)


def chart_ids(page: str) -> list[str]:
    return re.findall(r'<div id="(chart-[^"]+)"', page)


def table_rows(page: str, table_id: str) -> list[list[str]]:
    """The cells (text, tags stripped) of each body row of ``table_id``."""
    table = re.search(rf'<table id="{table_id}">.*?</table>', page, re.S)
    assert table is not None, f"no table {table_id}"
    body = table.group(0).split("<tbody>", 1)[1]
    return [[re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)]


def card(page: str, label: str) -> str:
    m = re.search(rf'<div class="label">{re.escape(label)}</div><div class="value">([^<]*)<',
                  page)
    assert m is not None, f"no card {label!r}"
    return m.group(1)


def figure(page: str, chart_id: str) -> list[dict]:
    """The traces Plotly is given for ``chart_id`` (the JSON of its ``newPlot`` call)."""
    m = re.search(rf'Plotly\.newPlot\(\s*"{chart_id}",\s*(\[.*?\]),\s*\{{', page, re.S)
    assert m is not None, f"no figure {chart_id}"
    return json.loads(m.group(1))


def test_sections_and_charts_in_order(page: str) -> None:
    assert section_ids(page) == ["moves", "broker-load", "goals", "schedule", "failures"]
    assert chart_ids(page) == [*BROKER_CHARTS, "chart-schedule"]
    assert page.startswith("<!DOCTYPE html>") and page.count("Plotly.newPlot(") == 5


def test_broker_charts_pair_before_and_after_with_capacity_lines(page: str,
                                                                  summary: dict) -> None:
    brokers = summary["brokers"]
    disk = figure(page, "chart-broker-disk")
    bars = [t for t in disk if t["type"] == "bar"]
    assert [t["name"] for t in bars] == ["before", "after"]
    assert bars[0]["x"] == [str(b["broker"]) for b in brokers]
    assert bars[0]["y"] == [b["before"]["disk_bytes"] for b in brokers]
    assert bars[1]["y"] == [b["after"]["disk_bytes"] for b in brokers]
    lines = {t["name"]: t["y"] for t in disk if t["type"] == "scatter" and t.get("mode") == "lines"}
    assert lines["capacity"] == [1e13] * len(brokers)
    assert lines["capacity threshold"] == [0.8e13] * len(brokers)  # capacity_threshold 0.8
    leaders = figure(page, "chart-broker-leaders")
    assert [t["name"] for t in leaders if t["type"] == "scatter"] == ["added broker",
                                                                       "removed broker"]
    # the hover says which brokers are added / removed and how full they are after
    hover = bars[1]["hovertext"]
    added = next(i for i, b in enumerate(brokers) if b["added"])
    assert "added" in hover[added] and "used)" in hover[added]


def test_added_and_removed_brokers_are_marked(page: str, summary: dict) -> None:
    rows = table_rows(page, "table-broker-load")
    assert len(rows) == len(summary["brokers"])
    status = {int(r[0]): r[2] for r in rows}
    assert {b for b, s in status.items() if s == "added"} == set(summary["added_brokers"])
    assert {b for b, s in status.items() if s == "removed"} == set(summary["removed_brokers"])
    # one band per run of consecutive added (resp. removed) brokers, in every broker chart
    shapes = re.findall(r'"fillcolor":"(#54A24B|#E45756)"', page)
    assert shapes.count("#54A24B") == shapes.count("#E45756") == len(BROKER_CHARTS)
    first = summary["brokers"][0]
    assert rows[0][3] == f"{first['before']['replicas']:,} → {first['after']['replicas']:,}"


def test_headline_moves(page: str, summary: dict) -> None:
    moves = summary["moves"]
    assert card(page, "replica moves") == f"{moves['replica_moves']:,}"
    assert card(page, "moved / lower bound") == (
        f"{moves['bytes_moved'] / moves['lower_bound_bytes']:.2f}×")
    added = summary["added_brokers"]
    assert len(added) > 1
    assert card(page, f"{len(added)} brokers added") == "ids " + ", ".join(map(str, added))
    assert card(page, "bytes moved").endswith("TiB")


def test_goal_table(page: str, summary: dict) -> None:
    rows = table_rows(page, "table-goals")
    goals = summary["goals"]
    assert [r[1] for r in rows] == [g["goal"] for g in goals]
    assert [r[2] for r in rows] == ["hard" if g["hard"] else "soft" for g in goals]
    assert [r[3] for r in rows] == [f"{g['before']} → {g['after']}" for g in goals]
    assert [r[4] for r in rows] == ["—" if g.get("floor") is None else str(g["floor"])
                                    for g in goals]
    assert [r[5] for r in rows] == ["✓" if g["ok"] else "✗" for g in goals]
    assert "✓ verified" in page


def test_goal_table_shows_the_floor_when_the_summary_has_one(summary: dict) -> None:
    # version-1 summaries written before the floor existed lack the key: "—" as for null
    s = copy.deepcopy(summary)
    for i, g in enumerate(s["goals"]):
        if i % 3 == 0:
            g["floor"] = i
        elif i % 3 == 1:
            g["floor"] = None
        else:
            g.pop("floor", None)
    rows = table_rows(render_plan(s), "table-goals")
    assert [r[4] for r in rows] == [str(i) if i % 3 == 0 else "—" for i in range(len(rows))]
    s["goals"][0]["floor"] = "x"
    with pytest.raises(ConfigError, match=r"goals\[0\]\.floor: expected a number or null"):
        render_plan(s)


@pytest.mark.parametrize(("verified", "errors", "text"), [
    (None, [], "Not verified: pass --verify"),
    (False, ["t-0: replica set [1, 1] repeats broker 1"], "✗ not verified"),
])
def test_verifier_outcome(summary: dict, verified, errors, text: str) -> None:
    page = render_plan({**summary, "verified": verified, "errors": errors})
    assert text in page and "✓ verified" not in page
    for e in errors:
        assert f"<li>{e}</li>" in page


def test_timeline_one_bar_per_batch_in_time(page: str, summary: dict) -> None:
    sched = summary["schedule"]
    (bars,) = figure(page, "chart-schedule")
    hours = [b["seconds"] / 3600 for b in sched["batches"]]  # 8 batches over > 3 h: in hours
    assert bars["x"] == pytest.approx(hours)
    assert bars["base"] == pytest.approx([sum(hours[:i]) for i in range(len(hours))])
    assert bars["y"] == [f"batch {b['batch']}" for b in sched["batches"]]
    assert len(table_rows(page, "table-schedule")) == len(sched["batches"])
    assert card(page, "throttle") == "47.7 MiB/s (--throttle 50000000)"
    assert "No throttle was given" not in page


def test_timeline_without_throttle_is_by_bytes() -> None:
    s = plan_summary(throttle=None, batches=5)
    page = render_plan(s)
    assert 'id="no-throttle"' in page and card(page, "throttle") == "none given"
    assert card(page, "estimated duration") == "—"
    (bars,) = figure(page, "chart-schedule")
    assert bars["x"] == [b["bytes"] for b in s["schedule"]["batches"]]


def test_missing_parts_say_how_to_compute_them() -> None:
    page = render_plan(plan_summary(batches=0, failures=False))  # schedule and failures null
    assert section_ids(page) == ["moves", "broker-load", "goals", "schedule", "failures"]
    assert "Not computed: pass --throttle BYTES_PER_S" in page
    assert "Not computed: pass --failures" in page
    assert chart_ids(page) == BROKER_CHARTS
    s = plan_summary()
    s["schedule"]["batches"] = []
    del s["failures"]  # absent is as null
    page = render_plan(s)
    assert "No batch: the plan moves no replica." in page and "chart-schedule" not in page


def test_unknown_loads_are_a_note_not_a_chart(summary: dict) -> None:
    s = copy.deepcopy(summary)
    for b in s["brokers"]:
        for when in ("before", "after"):
            b[when]["nw_in_bytes_per_s"] = b[when]["nw_out_bytes_per_s"] = None
        b["capacity"] = None
    page = render_plan(s)
    assert chart_ids(page) == ["chart-broker-disk", "chart-broker-leaders", "chart-schedule"]
    assert "Network in: not known (no per-partition rates were given)." in page
    assert all(t["name"] != "capacity" for t in figure(page, "chart-broker-disk"))


def test_failure_table_keeps_the_ranking(page: str, summary: dict) -> None:
    rows = table_rows(page, "table-failures")
    failures = summary["failures"]
    assert [int(r[0]) for r in rows] == list(range(1, len(failures) + 1))
    for row, f in zip(rows, failures, strict=True):
        down = (f"rack {f['rack']} ({len(f['down'])} brokers)" if f["rack"]
                else ", ".join(map(str, f["down"])))
        assert row[1] == down and row[2] == str(f["offline_partitions"])
        assert row[-1] == f"{f['max_bytes_in_per_s'] / f['mean_bytes_in_per_s']:.2f}"


@settings(max_examples=30)
@given(st.lists(st.tuples(
    st.lists(st.integers(0, 300), min_size=1, max_size=4), st.none() | st.sampled_from("ab"),
    st.integers(0, 9), st.none() | st.floats(0, 1e9), st.none() | st.floats(1, 1e9)),
    max_size=12))
def test_failure_rows_any_failures(failures) -> None:
    docs = [{"down": d, "rack": r, "offline_partitions": o, "under_min_isr": 0,
             "max_leaders": 3, "max_bytes_in_per_s": top, "mean_bytes_in_per_s": mean}
            for d, r, o, top, mean in failures]
    html = failures_section(docs, "failures", missing="?")
    if not docs:
        assert "No failure to rank." in html
        return
    rows = table_rows(html, "table-failures")
    assert len(rows) == len(docs)
    for row, (d, r, o, top, mean) in zip(rows, failures, strict=True):
        assert row[1] == (f"rack {r} ({len(d)} brokers)" if r else ", ".join(map(str, d)))
        assert row[2] == f"{o:,}"
        assert row[-1] == ("—" if top is None or not mean else f"{top / mean:.2f}")


@settings(max_examples=25)
@given(brokers=st.integers(1, 30), racks=st.integers(1, 4), added=st.integers(0, 5),
       removed=st.integers(0, 5), batches=st.integers(0, 12),
       throttle=st.none() | st.sampled_from([1e6, 5e7]), failures=st.booleans(),
       verified=st.none() | st.booleans(), seed=st.integers(0, 99))
def test_any_plan_renders_every_part(brokers, racks, added, removed, batches, throttle,
                                     failures, verified, seed) -> None:
    added = min(added, brokers - 1)
    removed = min(removed, brokers - added - 1)
    s = plan_summary(brokers, racks=racks, added=added, removed=removed, batches=batches,
                     throttle=throttle, failures=failures, verified=verified, seed=seed)
    page = render_plan(s)
    assert section_ids(page) == ["moves", "broker-load", "goals", "schedule", "failures"]
    assert chart_ids(page) == BROKER_CHARTS + ["chart-schedule"] * bool(batches)
    assert len(table_rows(page, "table-broker-load")) == brokers
    assert len(table_rows(page, "table-goals")) == len(s["goals"])
    if s["failures"]:  # (one live broker: no failure leaves a survivor to rank)
        assert len(table_rows(page, "table-failures")) == len(s["failures"])
    else:
        assert ("No failure to rank." if failures else "Not computed: pass --failures") in page
    if batches:
        (bars,) = figure(page, "chart-schedule")
        assert len(bars["x"]) == batches and bars["base"][0] == 0
    assert ("No throttle was given" in page) == (throttle is None and batches > 0)
    for chart in BROKER_CHARTS:
        bands = [t["name"] for t in figure(page, chart) if t.get("mode") == "markers"]
        assert bands == ["added broker"] * bool(added) + ["removed broker"] * bool(removed)


def test_the_documented_summary_renders() -> None:
    """The example of docs/plan-html.md is a summary render_plan reads."""
    doc = (Path(__file__).parents[2] / "docs" / "plan-html.md").read_text(encoding="utf-8")
    example = json.loads(re.search(r"```json\n(.*?)```", doc, re.S).group(1))
    page = render_plan(example)
    assert chart_ids(page) == [*BROKER_CHARTS, "chart-schedule"]
    assert len(table_rows(page, "table-failures")) == 1


def test_225_brokers(summary: dict) -> None:
    s = plan_summary(brokers=225, racks=6, added=10, removed=5, batches=60)
    page = render_plan(s)
    assert len(table_rows(page, "table-broker-load")) == 225
    assert len(table_rows(page, "table-failures")) == 220 + 6
    bars = [t for t in figure(page, "chart-broker-nw-out") if t["type"] == "bar"]
    assert [len(t["x"]) for t in bars] == [225, 225]


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda s: s.pop("format"), "plan summary: missing field 'format'"),
    (lambda s: s.update(format="kpart-cluster"), "field 'format' must be 'kpart-plan-summary'"),
    (lambda s: s.update(version=2), "field 'version' must be 1, got 2"),
    (lambda s: s.pop("brokers"), "plan summary: missing field 'brokers'"),
    (lambda s: s.update(brokers=[]), "brokers: expected a non-empty list"),
    (lambda s: s["brokers"][3].pop("before"), "brokers[3]: missing field 'before'"),
    (lambda s: s["brokers"][2]["after"].update(disk_bytes="x"),
     "brokers[2].after.disk_bytes: expected a number or null, got 'x'"),
    (lambda s: s["brokers"][2]["after"].update(leaders=float("nan")),
     "brokers[2].after.leaders: expected a number or null, got nan"),
    (lambda s: s["brokers"][1]["after"].pop("replicas"),
     "brokers[1].after: missing field 'replicas'"),
    (lambda s: s["brokers"][0].update(broker="7"), "brokers[0].broker: expected a broker id"),
    (lambda s: s["brokers"][0].update(added="yes"), "brokers[0].added: expected true or false"),
    (lambda s: s["brokers"][0].update(capacity=[1]), "brokers[0].capacity: expected an object"),
    (lambda s: s["brokers"][0]["capacity"].update(disk_bytes=True),
     "brokers[0].capacity.disk_bytes: expected a number or null, got True"),
    (lambda s: s["moves"].pop("bytes_moved"), "moves: missing field 'bytes_moved'"),
    (lambda s: s["goals"][4].pop("ok"), "goals[4]: missing field 'ok'"),
    (lambda s: s["goals"][0].update(hard="yes"), "goals[0].hard: expected true or false"),
    (lambda s: s.update(goals={}), "plan summary.goals: expected a list, got dict"),
    (lambda s: s.update(verified="yes"), "verified: expected true, false or null"),
    (lambda s: s["schedule"]["batches"][5].update(seconds=None),
     "schedule.batches[5].seconds: expected a number (a throttle is given)"),
    (lambda s: s["schedule"]["batches"][2].update(batch=2),
     "schedule.batches[2].batch: expected a whole number above the previous batch's, got 2"),
    (lambda s: s["schedule"]["batches"][0].update(batch=None),
     "schedule.batches[0].batch: expected a whole number above the previous batch's, got None"),
    (lambda s: s["brokers"][5].update(broker=2), "brokers[5].broker: broker 2 is also brokers[2]"),
    (lambda s: s.update(partitions="many"), "partitions: expected a number or null, got 'many'"),
    (lambda s: s["schedule"].pop("throttle_bytes_per_s"),
     "schedule: missing field 'throttle_bytes_per_s'"),
    (lambda s: s.update(schedule=[]), "schedule: expected an object or null"),
    (lambda s: s["failures"][3].pop("under_min_isr"), "failures[3]: missing field 'under_min_isr'"),
    (lambda s: s["failures"][0].update(down=[]), "failures[0].down: expected a non-empty list"),
    (lambda s: s.update(failures={"down": [1]}), "failures: expected a list or null"),
])
def test_bad_summary_names_the_field(summary: dict, mutate, message: str) -> None:
    s = copy.deepcopy(summary)
    mutate(s)
    with pytest.raises(ConfigError, match=re.escape(message)):
        render_plan(s)


def test_not_a_dict() -> None:
    with pytest.raises(ConfigError, match="plan summary: expected an object, got list"):
        render_plan([])  # type: ignore[arg-type]


def test_untrusted_strings_are_escaped(summary: dict) -> None:
    s = copy.deepcopy(summary)
    s["brokers"][0]["rack"] = "</script><script>alert(1)</script>"
    s["goals"][0]["goal"] = "<img src=x onerror=alert(2)>"
    s["errors"] = ["<b>bad</b>"]
    s["failures"][0]["rack"] = "<i>r</i>"
    page = render_plan(s)
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "<b>bad</b>" not in page and "<i>r</i>" not in page
    assert "&lt;img src=x onerror=alert(2)&gt;" in page
    assert len(re.findall(r"<script\b", page)) == page.count("</script>")


def test_write_is_atomic_and_never_overwrites_an_input(tmp_path, summary: dict,
                                                       page: str) -> None:
    out = write_plan_html(summary, tmp_path / "plan.html", option="--html-out")
    assert out.read_text(encoding="utf-8") == page
    assert out.stat().st_mode & 0o044 == 0o044  # not mkstemp's 0600
    with pytest.raises(ConfigError, match="version"):  # a bad summary writes nothing
        write_plan_html({"format": "x"}, tmp_path / "bad.html")
    summary = plan_summary(brokers=3, added=0, removed=0, batches=0, failures=False)
    current = tmp_path / "describe.txt"
    current.write_text("Topic: t\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\n")
    with pytest.raises(ConfigError, match=r"--html-out: cannot write .*it is the input given as "
                                          r"--current"):
        write_plan_html(summary, current, option="--html-out", inputs={"--current": current})
    assert current.read_text().startswith("Topic: t")
    with pytest.raises(ConfigError, match="--html-out: cannot write .*is a directory"):
        write_plan_html(summary, tmp_path, option="--html-out")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["describe.txt", "plan.html"]


def test_render_is_deterministic(summary: dict, page: str) -> None:
    assert render_plan(copy.deepcopy(summary)) == page


# -- report.html with a cluster: the same sections ----------------------------------------


def cluster_of(plan: dict, *, before: bool) -> dict:
    brokers = [{k: v for k, v in b.items() if before or k != "before"} for b in plan["brokers"]]
    return {"brokers": brokers, "failures": plan["failures"],
            "capacity_threshold": plan["capacity_threshold"]}


@pytest.fixture(scope="module")
def report() -> dict:
    """A report with one chart of its own (the cluster sections are what these tests check)."""
    return {"topic": "t", "num_partitions": 3, "records": 60,
            "partitions": [{"partition": p, "records": 10 * (p + 1)} for p in range(3)]}


def test_report_with_a_cluster_has_the_plan_sections(report: dict, summary: dict) -> None:
    page = render_report({**report, "cluster": cluster_of(summary, before=False)})
    assert section_ids(page)[-2:] == ["broker-load", "failures"]
    assert chart_ids(page)[-4:] == BROKER_CHARTS
    assert [t["name"] for t in figure(page, "chart-broker-disk") if t["type"] == "bar"] == ["now"]
    rows = table_rows(page, "table-broker-load")
    assert rows[0][3] == f"{summary['brokers'][0]['after']['replicas']:,}"  # no arrow: no before
    assert len(table_rows(page, "table-failures")) == len(summary["failures"])
    assert '<a href="#broker-load">' in page and '<a href="#failures">' in page
    # the same section as plan.html's, byte for byte, when the brokers have a before
    both = render_report({**report, "cluster": cluster_of(summary, before=True)})
    section = re.search(r'<section id="broker-load">.*?</section>', render_plan(summary), re.S)
    assert section is not None and section.group(0) in both


def test_report_cluster_without_failures_and_bad_fields(report: dict, summary: dict) -> None:
    cluster = {"brokers": cluster_of(summary, before=False)["brokers"], "failures": None}
    page = render_report({**report, "cluster": cluster})
    assert "Not computed: the report&#x27;s cluster has no failure what-ifs." in page
    assert "broker-load" not in section_ids(render_report(report))
    mixed = copy.deepcopy(cluster)
    mixed["brokers"][4]["before"] = mixed["brokers"][4]["after"]
    with pytest.raises(ConfigError, match=re.escape(
            "cluster.brokers[4]: field 'before' given, but not for cluster.brokers[0]")):
        render_report({**report, "cluster": mixed})
    with pytest.raises(ConfigError, match=re.escape("cluster: missing field 'brokers'")):
        render_report({**report, "cluster": {"failures": None}})
    with pytest.raises(ConfigError, match="field 'cluster' must be an object"):
        render_report({**report, "cluster": [1]})


def test_parse_brokers_columns(summary: dict) -> None:
    b = parse_brokers(summary["brokers"], "brokers", before_required=True)
    assert b.ids == tuple(r["broker"] for r in summary["brokers"])
    assert b.before is not None
    assert b.before["leaders"] == tuple(r["before"]["leaders"] for r in summary["brokers"])
    assert b.capacity["nw_in_bytes_per_s"] == (1e8,) * len(b.ids)


@pytest.mark.parametrize("row", [None, 3, "b1", []])
@pytest.mark.parametrize("before_required", [True, False])
def test_a_broker_row_that_is_not_an_object_is_one_line(row: object,
                                                        before_required: bool) -> None:
    with pytest.raises(ConfigError, match=r"^brokers\[0\]: expected a broker object, got ") as e:
        parse_brokers([row], "brokers", before_required=before_required)
    assert "\n" not in str(e.value)
