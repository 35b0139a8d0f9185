"""One topic's report from its measures (kpart.analysis.topic_report, no Spark): the summary is
build_summary's, with the what-if counted as the report counts, the measured sections and the
malformed records when counted; the placing step is announced."""

from __future__ import annotations

from dataclasses import replace

from kpart.analysis.layout import resolve_topology
from kpart.analysis.loads import Loads, count_whatif_like_report
from kpart.analysis.summary import build_summary
from kpart.analysis.topic_report import MeasuredTopic, placing_step, topic_summary
from kpart.producer.whatif import partition_count_whatif
from kpart.topology import default_topology, parse_topology

LOADS = Loads(tuple(range(12)), tuple(10 * r for r in range(12)), (1,) * 12, 6, 60, ())
SOURCE = {"path": "f.csv", "format": "csv"}


def _measured(**kw: object) -> MeasuredTopic:
    resolved = resolve_topology(default_topology().with_topic(placement_seed=3))
    return replace(MeasuredTopic(resolved, LOADS, source=SOURCE, analysed_at="2026-11-28T00:00:00Z"),
                   **kw)


def test_the_summary_is_build_summarys_without_sections() -> None:
    m = _measured()
    assert topic_summary(m) == build_summary(m.resolved, LOADS, source=SOURCE,
                                             analysed_at="2026-11-28T00:00:00Z")
    assert "malformed_records" not in topic_summary(m)


def test_the_whatif_is_counted_as_the_report_counts_and_compat_kept() -> None:
    whatif = partition_count_whatif([f"k{i}" for i in range(24)], 12, [6]).to_json()
    m = _measured(sections={"whatif": whatif, "compat": {"as": "measured"}})
    s = topic_summary(m)
    assert s["whatif"] == count_whatif_like_report(whatif, m.resolved, LOADS)
    assert s["whatif"]["null_key_records"] == 6 and s["compat"] == {"as": "measured"}
    assert m.sections["whatif"] is whatif  # the measures are not changed


def test_malformed_records_only_when_counted_and_the_step_announced() -> None:
    steps: list[str] = []
    s = topic_summary(_measured(malformed_records=0), steps.append)
    assert s["malformed_records"] == 0
    assert steps == ["placing replicas and assigning 2 consumer group(s)"]
    producer_view = resolve_topology(parse_topology('[topic]\nname = "t"\npartitions = 4\n'
                                                    'key = "k"\n'))
    assert placing_step(producer_view) is None
