"""Issue 25, point 4 on the report: ``kpart report --compare-version V`` compares every topic's
producer too (:func:`kpart.analysis.version_change.producer_changes`, reusing
:func:`kpart.producer.upgrade.producer_upgrade` through
:func:`~kpart.producer.upgrade.null_key_upgrade`): keyed records by the key partitioner rule
(none moves), records without a key by the null-key rule (the expected share) or
``RoundRobinPartitioner`` (per record), rendered on the terminal, in ``summary.json`` and on the
page. The command-line runs read an empty dataset (no Spark) except the one marked ``spark``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kpart.analysis.layout import resolve_topology
from kpart.analysis.version_change import TopicRecords, measured_records, version_change
from kpart.cli import main
from kpart.errors import ConfigError
from kpart.producer.upgrade import NO_WRAP_RECORDS, null_key_upgrade, producer_upgrade
from kpart.report._version_change import version_change_html, version_change_lines
from kpart.topology import parse_topology

TOPIC = """[topic]
name = "t"
partitions = {partitions}
key = "k"
{extra}
"""


def topo(extra: str = "", partitions: int = 4):
    return parse_topology(TOPIC.format(partitions=partitions, extra=extra))


def change(t, to: str, records: int = 0, null: int = 0):
    return version_change(t, [resolve_topology(t)], to).with_records(
        t, {"t": TopicRecords(records, null)})


def test_kip480_and_kip794_null_key_change_from_client_2_3():
    t = topo('client_version = "2.3"')
    p = change(t, "4.3", records=10, null=4).producers[0]
    assert (p.topic, p.from_version, p.to_version) == ("t", "2.3", "4.3")
    assert p.keyed_records == 6 and p.moved == 0
    assert p.null_keys is not None
    assert p.null_keys.null_key_strategies == ("legacy", "builtin")
    assert p.null_keys.expected_before == p.null_keys.expected_after == (1.0,) * 4
    doc = p.to_json()
    assert doc["compared"] and doc["keyed_moved"] == 0 and doc["moved"] == 0
    assert doc["null_keys"]["null_key_strategy"] == {"from": "legacy", "to": "builtin"}
    # the KIP-480 line itself: 2.3 -> 2.8.2 is legacy -> sticky
    assert change(t, "2.8.2", 10, 4).producers[0].null_keys.null_key_strategies == (
        "legacy", "sticky")


def test_round_robin_partitioner_3_9_0_to_4_0_0_per_record():
    t = topo('client_version = "3.9.0"\nnull_key_strategy = "round-robin"')
    p = change(t, "4.0.0", records=12, null=10).producers[0]
    u = p.null_keys
    assert u is not None and u.per_record
    assert u.null_key_strategies == ("kafka-9965", "kafka-17632")
    # p1, p3, p1, p3, ... -> p0, p1, p2, p3, ...: 8 of the 10 records change partition
    assert p.moved == 8 and p.keyed_records == 2
    assert u.expected_before == (0.0, 5.0, 0.0, 5.0)
    assert u.expected_after == (3.0, 3.0, 2.0, 2.0)
    assert u.moved == producer_upgrade([None] * 10, 4, "3.9.0", "4.0.0",
                                       partitioner="round-robin").moved


@pytest.mark.parametrize("partitioner", ["default", "round-robin"])
@pytest.mark.parametrize("n", [1, 3, 4, 7])
@pytest.mark.parametrize("k", [0, 1, 5, 13, 28])
def test_null_key_upgrade_is_producer_upgrade_on_that_many_records(partitioner, n, k):
    full = producer_upgrade([None] * k, n, "3.9.0", "4.3", partitioner=partitioner, limit=0)
    counted = null_key_upgrade(k, n, "3.9.0", "4.3", partitioner=partitioner)
    assert counted is not None
    assert (counted.moved, counted.records, counted.null_key_records, counted.per_record) == (
        full.moved, full.records, full.null_key_records, full.per_record)
    assert counted.expected_before == pytest.approx(full.expected_before)
    assert counted.expected_after == pytest.approx(full.expected_after)


def test_round_robin_past_the_counter_wrap_is_not_compared():
    t = topo('client_version = "3.9.0"\nnull_key_strategy = "round-robin"')
    p = change(t, "4.3", records=NO_WRAP_RECORDS, null=NO_WRAP_RECORDS).producers[0]
    assert p.null_keys is None and "wraps past 2**30" in (p.reason or "")
    assert null_key_upgrade(NO_WRAP_RECORDS - 1, 4, "3.9.0", "4.3",
                            partitioner="round-robin") is not None


@pytest.mark.parametrize(("extra", "reason"), [
    ('partitioner = "librdkafka:consistent_random"', "is not the Java client's"),
    ('null_key_strategy = "builtin"', "null_key_strategy 'builtin' names the strategy"),
])
def test_producers_kpart_cannot_compare_say_why(extra, reason):
    p = change(topo(extra), "4.3", records=3, null=1).producers[0]
    assert p.null_keys is None and reason in (p.reason or "")
    assert version_change_lines(change(topo(extra), "4.3").to_json())[-1].endswith(
        p.reason or "")


def test_a_version_without_round_robin_partitioner_is_refused_before_any_record():
    t = topo('client_version = "3.9.0"\nnull_key_strategy = "round-robin"')
    with pytest.raises(ConfigError) as e:
        version_change(t, [resolve_topology(t)], "2.3")
    assert e.value.parameter == "compare_version"
    assert "RoundRobinPartitioner does not exist in compare_version '2.3'" in str(e.value)


def test_not_covered_is_gone_and_the_renderings_show_producers():
    t = topo('client_version = "3.9.0"\nnull_key_strategy = "round-robin"')
    doc = change(t, "4.3", records=10, null=10).to_json()
    assert doc["not_covered"] == []
    lines = version_change_lines(doc)
    assert lines[-1] == (
        "  topic t (java:default, null_key_strategy round-robin, client 3.9.0 -> 4.3): 0 keyed "
        "records, none moves; 10 without a key (RoundRobinPartitioner kafka-9965 -> "
        "kafka-17632): 8 change partition (per record, each in a new batch)")
    assert not any("producers" in x for x in lines)
    page = version_change_html({"version_change": doc})
    assert 'id="table-version-change-producers"' in page and "kafka-9965 → kafka-17632" in page


def test_measured_records_single_and_cluster_summaries():
    assert measured_records({"topic": "a", "records": 3, "null_key_records": 1}) == {
        "a": TopicRecords(3, 1)}
    assert measured_records({"topics": [{"topic": "a", "records": 3, "null_key_records": 0},
                                        {"topic": "b", "records": 9, "null_key_records": 2}]}
                            ) == {"a": TopicRecords(3, 0), "b": TopicRecords(9, 2)}


# -- the command line ------------------------------------------------------------------------------


def _files(tmp_path: Path, extra: str, rows: str = "") -> None:
    (tmp_path / "t.toml").write_text(TOPIC.format(partitions=4, extra=extra))
    (tmp_path / "e.csv").write_text("k,v\n" + rows)


def test_report_compare_version_producer_section(tmp_path, capsys, monkeypatch):
    _files(tmp_path, 'client_version = "2.3"')
    monkeypatch.chdir(tmp_path)
    assert main(["report", "e.csv", "--topology", "t.toml", "--compare-version", "4.3",
                 "-o", "out"]) == 0
    out = capsys.readouterr().out
    assert ("topic t (java:default, null_key_strategy client, client 2.3 -> 4.3): 0 keyed "
            "records, none moves; 0 without a key (null-key strategy legacy -> builtin)") in out
    assert "not compared: producers" not in out
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    (p,) = summary["version_change"]["producers"]
    assert p["compared"] and p["null_keys"]["null_key_strategy"] == {"from": "legacy",
                                                                     "to": "builtin"}
    assert summary["version_change"]["not_covered"] == []


@pytest.mark.spark
def test_report_compare_version_counts_the_records_spark_read(spark, tmp_path, capsys,
                                                              monkeypatch):
    # 2 keyed records and 6 without a key (an empty CSV field is null) on 4 partitions
    _files(tmp_path, 'client_version = "3.9.0"\nnull_key_strategy = "round-robin"',
           "a,1\nb,2\n,3\n,4\n,5\n,6\n,7\n,8\n")
    monkeypatch.chdir(tmp_path)
    assert main(["report", "e.csv", "--topology", "t.toml", "--compare-version", "4.0.0",
                 "-o", "out"]) == 0
    out = capsys.readouterr().out
    # records 0..5: p1 p3 p1 p3 p1 p3 -> p0 p1 p2 p3 p0 p1: all but record 3 move
    assert "2 keyed records, none moves; 6 without a key" in out and "5 change partition" in out
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    (p,) = summary["version_change"]["producers"]
    assert (p["keyed_records"], p["moved"], p["null_keys"]["records"]) == (2, 5, 6)
    page = (tmp_path / "out" / "report.html").read_text()
    assert 'id="table-version-change-producers"' in page


@pytest.mark.spark
def test_cluster_report_compares_every_topic_on_its_own_records(spark, tmp_path, capsys,
                                                                monkeypatch):
    (tmp_path / "d.csv").write_text("k,v\na,1\nb,2\n,3\n,4\n,5\n,6\n,7\n,8\n")
    (tmp_path / "c.toml").write_text("""[cluster]
brokers = [0, 1, 2]
[[topics]]
name = "rr"
data = "d.csv"
key = "k"
partitions = 4
replication_factor = 1
client_version = "3.9.0"
null_key_strategy = "round-robin"
[[topics]]
name = "old"
data = "d.csv"
key = "k"
partitions = 2
replication_factor = 1
client_version = "2.3"
""")
    monkeypatch.chdir(tmp_path)
    assert main(["report", "--topology", "c.toml", "--compare-version", "4.0.0",
                 "-o", "out"]) == 0
    out = capsys.readouterr().out
    assert "6 without a key (RoundRobinPartitioner kafka-9965 -> kafka-17632): 5 change" in out
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    rr, old = summary["version_change"]["producers"]
    assert (rr["topic"], rr["keyed_records"], rr["moved"]) == ("rr", 2, 5)
    assert (old["topic"], old["from_version"], old["keyed_records"], old["moved"]) == (
        "old", "2.3", 2, 0)
    assert old["null_keys"]["null_key_strategy"] == {"from": "legacy", "to": "builtin"}
    assert 'id="table-version-change-producers"' in (
        tmp_path / "out" / "report.html").read_text()


def test_the_producer_table_renders_in_chromium(tmp_path, chromium: str) -> None:
    from _tools.browser import inspect_report
    from _tools.sample import sample_summary
    from kpart.report.html import write_report_html

    t = topo('client_version = "3.9.0"\nnull_key_strategy = "round-robin"')
    doc = change(t, "4.3", records=10, null=10).to_json()
    summary = {**sample_summary(num_partitions=4, records=1_000, groups=(), seed=3),
               "version_change": doc}
    report = inspect_report(write_report_html(summary, tmp_path / "r.html"), binary=chromium)
    assert report.errors == []
    assert report.sections[-1] == "version-change"
    assert report.tables["table-version-change-producers"] == 1
