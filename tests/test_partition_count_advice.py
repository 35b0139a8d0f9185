"""The partition-count advice never shrinks a topic (issue 24, point 5): Kafka cannot reduce a
topic's partition count, and a member of a group without a partition idles, so the count advised
is never below the current count nor below the members of the largest group reading the topic;
it says which limit set it, and the load's own smallest count is a fact apart. Through the
search, the keyless verdict, summary.json, the terminal line, the page and the docs' worked
example; end to end on Spark from a topology with groups."""

from __future__ import annotations

import doctest
import io
import json
import re
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from kpart.errors import ConfigError
from kpart.producer import partition_count
from kpart.producer.partition_count import (
    CountQuestion,
    PartitionLimits,
    keyless_partition_count,
    search_partition_count,
)
from test_partition_count import NumpyEvaluator, question


def ConsumerParallelism(group: str, members: int):  # noqa: N802 - the value, looked up late
    return partition_count.ConsumerParallelism(group, members)


def advise_count(*args, **kwargs):
    return partition_count.advise_count(*args, **kwargs)


def largest_groups(groups):
    return partition_count.largest_groups(groups)

ROOT = Path(__file__).resolve().parent.parent


def spread_evaluator(current: int) -> NumpyEvaluator:
    """60 keys of 1 record each in one minute: 1 record/s in all, any count fits at 1 record/s."""
    rng = np.random.default_rng(7)
    return NumpyEvaluator(rng.integers(0, 2**32, 60), np.zeros(60, np.int64),
                          np.ones(60, np.int64), np.full(60, 100), np.zeros(1), np.zeros(1),
                          current, asked=[])


def with_group(q: CountQuestion, group: object) -> CountQuestion:
    from dataclasses import replace

    return replace(q, largest_group=group)


# ---- the rule -------------------------------------------------------------------------------


def test_a_topic_that_fits_in_fewer_partitions_keeps_its_count() -> None:
    ev = spread_evaluator(12)
    q = with_group(question(ev, PartitionLimits(1e12, 1.0, 4000)),
                   ConsumerParallelism("billing", 3))
    r = search_partition_count(q, ev)
    # was "12 → 1": one partition carries the load, but Kafka cannot reduce 12
    assert (r.recommended, r.recommended_by, r.smallest_fitting) == (12, "current", 1)
    assert r.moved_keys_share == r.moved_records_share == 0.0
    assert r.reason.startswith("12 partitions (keep: Kafka cannot reduce a topic's partition "
                               "count); the smallest count within the limits is 1")
    j = r.to_json()
    assert (j["recommended"], j["recommended_by"], j["smallest_fitting"]) == (12, "current", 1)
    assert j["largest_group"] == {"group": "billing", "members": 3}


def test_consumer_parallelism_sets_the_count_when_the_group_is_larger() -> None:
    ev = spread_evaluator(2)
    q = with_group(question(ev, PartitionLimits(1e12, 1.0, 4000)),
                   ConsumerParallelism("billing", 5))
    r = search_partition_count(q, ev)
    assert (r.recommended, r.recommended_by, r.smallest_fitting) == (5, "consumers", 1)
    assert "5 members in group billing" in r.reason
    # the figures are those of the count advised, moved from the current one
    assert r.peak_records_per_s == pytest.approx(ev.exact_peaks(5).records / 60)
    assert r.moved_records_share == ev.moved(5)[1] > 0
    assert r.skew == ev.skew_at(5)


def test_a_current_count_over_the_limits_grows_to_the_next_fitting_count() -> None:
    # two keys of 60 records in one minute (1 record/s each, the limit): a count fits when
    # their hashes 0 and 4 fall apart, under 3 and 5 but not under 4
    hashes = np.array([0, 4], dtype=np.int64)
    ev = NumpyEvaluator(hashes, np.zeros(2, np.int64), np.array([60, 60]), np.array([1, 1]),
                        np.zeros(1), np.zeros(1), 4, asked=[])
    limits = PartitionLimits(1e12, 1.0, 40)  # 60 records in a minute: 1/s, one key per partition
    fits = [m for m in range(1, 41) if ev.exact_peaks(m).records / 60 <= 1.0]
    assert fits[0] == 3 and 4 not in fits and 5 in fits  # 0 and 4 collide under 4 (and 2)
    r = search_partition_count(question(ev, limits), ev)
    assert (r.smallest_fitting, r.recommended, r.recommended_by) == (3, 5, "load")
    assert "4 partitions exceed the limits, 5 is the smallest count from 4 within them" \
        in r.reason


def test_the_floor_over_max_partitions_is_still_judged() -> None:
    ev = spread_evaluator(50)
    r = search_partition_count(question(ev, PartitionLimits(1e12, 1.0, 16)), ev)
    assert (r.recommended, r.recommended_by, r.smallest_fitting) == (50, "current", 1)


def test_keyless_partitioners_keep_the_current_count_too() -> None:
    r = keyless_partition_count(current=12, limits=PartitionLimits(1e9, 2.0, 100), window_s=60,
                                window_records=np.array([600, 120]),
                                window_bytes=np.array([0, 0]), partitioner="librdkafka:random",
                                largest_group=ConsumerParallelism("g", 3))
    assert (r.recommended, r.recommended_by, r.smallest_fitting) == (12, "current", 5)
    assert r.peak_records_per_s == pytest.approx(600 / 12 / 60)
    r = keyless_partition_count(current=3, limits=PartitionLimits(1e9, 2.0, 100), window_s=60,
                                window_records=np.array([600, 120]),
                                window_bytes=np.array([0, 0]), partitioner="librdkafka:random",
                                largest_group=ConsumerParallelism("g", 8))
    assert (r.recommended, r.recommended_by, r.smallest_fitting) == (8, "consumers", 5)


def test_advise_count_names_what_set_it() -> None:
    def from_4(m: int) -> int:
        return max(m, 4)

    assert advise_count(from_4, 12).by == "current"
    assert advise_count(from_4, 4).by == "load"
    assert advise_count(from_4, 2, ConsumerParallelism("b", 4)).by == "load"  # both say 4
    assert advise_count(from_4, 2, ConsumerParallelism("b", 9)).by == "consumers"
    assert advise_count(lambda m: None, 2) is None


def test_the_largest_group_reading_each_topic() -> None:
    from kpart.topology import default_topology, demo_topology

    t = default_topology()  # delay-analytics (3 members) and billing (5) read flights
    got = largest_groups((g.name, len(g.members), t.group_topics(g)) for g in t.groups)
    assert got == {"flights": ConsumerParallelism("billing", 5)}
    t = demo_topology()  # ops (3) reads flights and weather, delay-analytics (3) flights
    got = largest_groups((g.name, len(g.members), t.group_topics(g)) for g in t.groups)
    # a tie keeps the first group in topology order
    assert got == {"flights": ConsumerParallelism("ops", 3),
                   "weather": ConsumerParallelism("ops", 3)}
    assert largest_groups([("a", 2, ["t"]), ("b", 4, ["u", "t"])]) == {
        "t": ConsumerParallelism("b", 4), "u": ConsumerParallelism("b", 4)}


# ---- summary.json, the terminal and the page ------------------------------------------------


def _summary(counts: list[dict]) -> dict:
    from _tools.cluster_report_sample import cluster_report_summary

    s = cluster_report_summary(partitions=tuple(c["current"] for c in counts), hot_key_topic=-1)
    for t, c in zip(s["topics"], counts, strict=True):
        t["partition_count"].update(c)
    return s


COUNTS = [
    {"current": 12, "current_ok": True, "recommended": 12, "recommended_by": "current",
     "smallest_fitting": 1, "largest_group": {"group": "billing", "members": 5},
     "moved_keys_share": 0.0, "moved_records_share": 0.0},
    {"current": 3, "current_ok": True, "recommended": 5, "recommended_by": "consumers",
     "smallest_fitting": 1, "largest_group": {"group": "billing", "members": 5},
     "moved_keys_share": 0.4, "moved_records_share": 0.5},
    {"current": 4, "current_ok": False, "recommended": 8, "recommended_by": "load",
     "smallest_fitting": 8, "largest_group": None,
     "moved_keys_share": 0.5, "moved_records_share": 0.48},
]


def test_the_terminal_line_says_which_limit_set_the_count() -> None:
    from kpart.report.terminal import print_summary

    buf = io.StringIO()
    print_summary(_summary(COUNTS), Console(file=buf, width=250, force_terminal=False))
    lines = buf.getvalue().split("Partition count\n")[1].splitlines()
    assert lines == [
        "topic-0: 12 partitions (keep: Kafka cannot reduce a topic's partition count); the load "
        "alone fits in 1 partition; busiest partition's peak 488 KiB/s, 400 records/s at 12",
        "topic-1: 3 → 5 partitions (5 members in group billing); the load alone fits in 1 "
        "partition; busiest partition's peak 488 KiB/s, 400 records/s at 5; 40.0% of keys and "
        "50.0% of records change partition",
        "topic-2: 4 → 8 partitions (the load: the smallest count within the limits); busiest "
        "partition's peak 488 KiB/s, 400 records/s at 8; 50.0% of keys and 48.0% of records "
        "change partition",
    ]


def test_the_page_shows_what_set_the_count_and_the_loads_own_count() -> None:
    from kpart.report.html import render_report

    page = render_report(_summary(COUNTS))
    table = page.split('id="table-partition-count"')[1].split("</table>")[0]
    assert "set by" in table and "the load alone fits in" in table
    assert "keep: Kafka cannot reduce a topic&#x27;s partition count" in table
    assert "5 members in group billing" in table
    assert "never below the current count" in page


@pytest.mark.parametrize(("field", "value", "message"), [
    ("recommended_by", "magic", "recommended_by: expected one of load, current, consumers or "
                                "null, got 'magic'"),
    ("largest_group", {"group": "g"}, "largest_group: missing field 'members'"),
    ("smallest_fitting", "1", "smallest_fitting: expected an integer, got '1'"),
])
def test_malformed_advice_fields_are_named(field: str, value: object, message: str) -> None:
    from kpart.report.terminal import print_summary

    s = _summary(COUNTS)
    s["topics"][1]["partition_count"][field] = value
    with pytest.raises(ConfigError, match=re.escape(f"topics[1].partition_count.{message}")):
        print_summary(s, Console(file=io.StringIO(), width=200))


# ---- the docs -------------------------------------------------------------------------------


def test_the_docs_worked_example_runs() -> None:
    page = (ROOT / "docs" / "partition-count.md").read_text(encoding="utf-8")
    assert "Kafka cannot reduce a topic's partition count" in page
    blocks = re.findall(r"^```pycon\n(.*?)^```$", page, flags=re.M | re.S)
    assert blocks, "docs/partition-count.md has no worked example"
    for text in blocks:
        test = doctest.DocTestParser().get_doctest(text, {}, "partition-count.md", None, 0)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        out = io.StringIO()
        runner.run(test, out=out.write)
        assert runner.failures == 0, out.getvalue()


def test_summary_fields_are_documented() -> None:
    ev = spread_evaluator(12)
    fields = set(search_partition_count(question(ev, PartitionLimits(1e12, 1.0, 4000)),
                                        ev).to_json())
    assert {"recommended_by", "smallest_fitting", "largest_group"} <= fields
    for page in ("partition-count.md", "report-html.md"):
        text = (ROOT / "docs" / page).read_text(encoding="utf-8")
        missing = {f for f in fields if f"`{f}`" not in text}
        assert not missing, f"{page} does not document {sorted(missing)}"


# ---- end to end on Spark ---------------------------------------------------------------------


@pytest.mark.spark
def test_report_keeps_counts_and_grows_to_the_largest_group(
        spark: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from _tools.cluster_datasets import write_cluster
    from kpart.cli import main

    topology = write_cluster(tmp_path)
    six = ", ".join(f'"a{i}"' for i in range(6))
    topology.write_text(topology.read_text().replace('members = ["a1"]', f"members = [{six}]"))
    out = tmp_path / "report"
    assert main(["report", "--topology", str(topology), "--out", str(out)]) == 0
    terminal = capsys.readouterr().out
    counts = {t["topic"]: t["partition_count"]
              for t in json.loads((out / "summary.json").read_text())["topics"]}
    clicks, stock = counts["clicks"], counts["stock"]
    # both fit in one partition under the default limits; neither is advised to shrink
    assert (clicks["smallest_fitting"], clicks["recommended"], clicks["recommended_by"]) == (
        1, 4, "current")
    assert clicks["largest_group"] == {"group": "both", "members": 2}
    assert (stock["smallest_fitting"], stock["recommended"], stock["recommended_by"]) == (
        1, 6, "consumers")
    assert stock["largest_group"] == {"group": "audit", "members": 6}
    assert stock["moved_keys_share"] > 0
    assert "clicks: 4 partitions (keep: Kafka cannot reduce a topic's partition count)" \
        in terminal
    assert "stock: 3 → 6 partitions (6 members in group audit)" in terminal
    assert "→ 1 partitions" not in terminal
