"""Share groups (``[[share_groups]]``) and Streams groups (``[[streams_groups]]``) in the
topology and the report: validated like ``[[groups]]`` (one line naming the field; an unknown
topic a member or subtopology reads: a warning), refused at brokers without them, and shown per
member — a share member's partitions with the records of a partition shared by ``k`` members
counted ``records / k`` (the expected share), a Streams member's active and standby tasks and
the records its active tasks read — in ``summary.json`` (single-topic and cluster), the
terminal and the page (headless Chromium)."""

from __future__ import annotations

import io
import json
import warnings
from fractions import Fraction

import pytest
from rich.console import Console

from kpart.analysis.cluster_loads import TopicMeasure
from kpart.analysis.cluster_summary import build_cluster_summary
from kpart.analysis.layout import resolve_cluster
from kpart.analysis.share_stream_loads import share_streams_sections
from kpart.analysis.summary import Loads, build_summary
from kpart.consumer.coordinator.server_spec import (
    ServerGroupSpec,
    ServerMember,
    ServerTopic,
    derived_topic_id,
)
from kpart.consumer.share import ShareGroupSpec, assign_simple
from kpart.consumer.streams import StreamsGroupSpec
from kpart.consumer.streams import assign as streams_assign
from kpart.errors import ConfigError, KpartWarning
from kpart.report.html import render_report
from kpart.report.terminal import print_summary
from kpart.topology import parse_topology

SINGLE = """{top}
[cluster]
brokers = [0, 1, 2]

[topic]
name = "orders"
partitions = 4
replication_factor = 2
key = "customer"
placement_seed = 1

[[groups]]
name = "billing"
strategy = "range"
members = ["c1", "c2"]

[[share_groups]]
name = "workers"
members = ["w1", "w2", "w3", "w4", "w5", "w6"]

[[streams_groups]]
name = "app"
num_standby_replicas = 1
subtopologies = [{{ source_topics = ["orders"], stateful = true }}]
members = [{{ id = "a", process_id = "p1" }}, {{ id = "b", process_id = "p2" }},
           {{ id = "c", process_id = "p2" }}]
"""

CLUSTER = """
[cluster]
brokers = [0, 1, 2]

[[topics]]
name = "clicks"
key = "user"
partitions = 4
replication_factor = 2
placement_seed = 3

[[topics]]
name = "stock"
key = "sku"
partitions = 2
replication_factor = 2
placement_seed = 4

[[share_groups]]
name = "workers"
topics = ["clicks"]
members = ["w1", "w2", { id = "w3", topics = ["clicks", "stock"] }, "w4", "w5"]

[[streams_groups]]
name = "app"
num_standby_replicas = 1
subtopologies = [
  { source_topics = ["clicks", "stock"], stateful = true },
  { id = "1", source_topics = ["stock"] },
]
members = [{ id = "a", process_id = "p1" }, { id = "b", process_id = "p2" },
           { id = "c", process_id = "p2" }]
"""

RECORDS = (10, 21, 30, 47)
BYTES = (100, 210, 300, 470)


def _single(top: str = ""):
    return parse_topology(SINGLE.format(top=top))


def _summary(top: str = "", streams: bool = True) -> dict:
    loads = Loads(RECORDS, BYTES, (1, 1, 1, 1), 0, 0, ())
    text = SINGLE.format(top=top)
    if not streams:
        text = text.split("[[streams_groups]]")[0]
    return build_summary(parse_topology(text), loads)


# -- the topology -------------------------------------------------------------------------------


def test_topology_reads_both_sections_and_writes_them_back() -> None:
    t = parse_topology(CLUSTER)
    share, streams = t.share_groups[0], t.streams_groups[0]
    assert (share.name, share.topics, share.assignor) == ("workers", ("clicks",), "simple")
    assert [m.topics for m in share.members] == [None, None, ("clicks", "stock"), None, None]
    assert [(s.id, s.source_topics, s.stateful) for s in streams.subtopologies] == [
        ("0", ("clicks", "stock"), True), ("1", ("stock",), False)]
    assert streams.num_standby_replicas == 1
    assert [(m.id, m.process_id) for m in streams.members] == [("a", "p1"), ("b", "p2"),
                                                               ("c", "p2")]
    assert parse_topology(t.to_toml()) == t
    assert "[[share_groups]]" in t.to_toml() and "[[streams_groups]]" in t.to_toml()


@pytest.mark.parametrize(("version", "field", "says"), [
    ("3.9.1", "share_groups[0] (workers)", "share groups start with KIP-932's early access"),
    ("4.1.0", "streams_groups[0] (app)", "not known to kpart for kafka_version '4.1.0'"),
    ("4.0.1", "streams_groups[0] (app)", "Streams groups start with KIP-1071"),
])
def test_brokers_without_the_group_kind_are_refused(version: str, field: str,
                                                    says: str) -> None:
    with pytest.raises(ConfigError) as e:
        _single(f'kafka_version = "{version}"')
    assert str(e.value).startswith(field) and says in str(e.value)
    assert "\n" not in str(e.value)


def test_unknown_topics_warn_and_read_nothing() -> None:
    text = CLUSTER.replace('topics = ["clicks", "stock"] }', 'topics = ["clicks", "nope"] }')
    text = text.replace('{ id = "1", source_topics = ["stock"] }',
                        '{ id = "1", source_topics = ["gone"] }')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t = parse_topology(text)
    messages = [str(w.message) for w in caught if issubclass(w.category, KpartWarning)]
    assert any(m.startswith("share_groups[0].members[2].topics[1]: no topic 'nope'")
               for m in messages)
    assert any(m.startswith("streams_groups[0].subtopologies[1].source_topics[0]: no topic "
                            "'gone'") for m in messages)
    records = {"clicks": (1, 2, 3, 4), "stock": (5, 6)}
    out = share_streams_sections(t, records, records)
    w3 = out["share_groups"][0]["members"][2]
    assert w3["topics"] == ["clicks", "nope"]
    assert {p["topic"] for p in w3["partitions"]} == {"clicks"}
    streams = out["streams_groups"][0]
    assert streams["missing_source_topics"] == ["gone"]  # Kafka refuses the whole topology
    assert all(m["active_tasks"] == [] == m["standby_tasks"] and m["records"] == 0
               for m in streams["members"])


# -- share groups -------------------------------------------------------------------------------


def _kafka_share(t, version: str | None = None):
    topics = tuple(ServerTopic(x.name, derived_topic_id(x.name), x.partitions)
                   for x in t.topics)
    g = t.share_groups[0]
    members = tuple(ServerMember(m.id, tuple(sorted(m.topics or g.topics or t.topic_names)))
                    for m in g.members)
    return assign_simple(ShareGroupSpec(ServerGroupSpec(topics, members)),
                         kafka_version=version)


def test_share_members_get_the_assignors_partitions_and_records_over_sharers() -> None:
    s = _summary()
    (row,) = s["share_groups"]
    expected = _kafka_share(_single())
    sharers: dict[int, int] = {}
    for _, owned in expected.assignment:
        for _, ps in owned:
            for p in ps:
                sharers[p] = sharers.get(p, 0) + 1
    assert max(sharers.values()) == 2  # 6 members on 4 partitions: some are shared
    for m in row["members"]:
        parts = [p for _, p in expected.partitions_of(m["member"])]
        assert [p["partition"] for p in m["partitions"]] == parts
        assert [p["shared_by"] for p in m["partitions"]] == [sharers[p] for p in parts]
        exact = sum(Fraction(RECORDS[p], sharers[p]) for p in parts)
        assert m["expected_records"] == round(float(exact), 6)
        assert m["expected_bytes"] == round(float(sum(Fraction(BYTES[p], sharers[p])
                                                      for p in parts)), 6)
    # every record of an assigned partition is counted once, split among its sharers
    assert sum(Fraction(m["expected_records"]).limit_denominator(100)
               for m in row["members"]) == sum(RECORDS[p] for p in sharers)
    assert row["kafka_version"] == "4.3" and row["assignor"] == "simple"
    assert row["unassigned"] == []


def test_share_group_follows_the_brokers_version() -> None:
    s = _summary('kafka_version = "4.0.1"', streams=False)  # every member, every partition
    for m in s["share_groups"][0]["members"]:
        assert [p["partition"] for p in m["partitions"]] == [0, 1, 2, 3]
        assert all(p["shared_by"] == 6 for p in m["partitions"])
        assert m["expected_records"] == round(sum(RECORDS) / 6, 6)
    assert s["share_groups"][0]["kafka_version"] == "4.0.1"


# -- Streams groups -----------------------------------------------------------------------------


def test_streams_members_get_the_assignors_tasks_and_their_records() -> None:
    t = parse_topology(CLUSTER)
    records = {"clicks": (1, 2, 3, 4), "stock": (50, 60)}
    byts = {"clicks": (10, 20, 30, 40), "stock": (500, 600)}
    (row,) = share_streams_sections(t, records, byts)["streams_groups"]
    assert [(s["id"], s["tasks"]) for s in row["subtopologies"]] == [("0", 4), ("1", 2)]
    spec = StreamsGroupSpec.from_json({
        "subtopologies": [{"id": "0", "tasks": 4, "stateful": True},
                          {"id": "1", "tasks": 2, "stateful": False}],
        "num_standby_replicas": 1,
        "members": [{"id": "a", "process_id": "p1"}, {"id": "b", "process_id": "p2"},
                    {"id": "c", "process_id": "p2"}]})
    kafka = streams_assign(spec).to_json()["assignment"]
    sources = {"0": ("clicks", "stock"), "1": ("stock",)}
    for m in row["members"]:
        mine = kafka[m["member"]]
        assert m["active_tasks"] == [{"subtopology": s, "partition": p}
                                     for s, ps in mine["active"].items() for p in ps]
        assert m["standby_tasks"] == [{"subtopology": s, "partition": p}
                                      for s, ps in mine["standby"].items() for p in ps]
        # task i reads partition i of each source topic that has one
        assert m["records"] == sum(records[x][p] for s, ps in mine["active"].items()
                                   for p in ps for x in sources[s] if p < len(records[x]))
        assert m["bytes"] == sum(byts[x][p] for s, ps in mine["active"].items()
                                 for p in ps for x in sources[s] if p < len(byts[x]))
    # every source record is read by exactly one active task
    assert sum(m["records"] for m in row["members"]) == (sum(records["clicks"])
                                                         + 2 * sum(records["stock"]))
    assert any(m["standby_tasks"] for m in row["members"])


# -- summary.json, terminal, page ---------------------------------------------------------------


def test_single_topic_summary_has_both_sections_only_when_configured() -> None:
    s = _summary()
    assert [g["group"] for g in s["share_groups"]] == ["workers"]
    assert [g["group"] for g in s["streams_groups"]] == ["app"]
    json.dumps(s)
    plain = parse_topology(SINGLE.format(top="").split("[[share_groups]]")[0])
    bare = build_summary(plain, Loads(RECORDS, BYTES, (1, 1, 1, 1), 0, 0, ()))
    assert "share_groups" not in bare and "streams_groups" not in bare


def test_cluster_summary_has_both_sections() -> None:
    t = parse_topology(CLUSTER)
    measures = [TopicMeasure("clicks", Loads((1, 2, 3, 4), (10, 20, 30, 40), (1,) * 4, 0, 0,
                                             ())),
                TopicMeasure("stock", Loads((50, 60), (500, 600), (1, 1), 0, 0, ()))]
    s = build_cluster_summary(resolve_cluster(t), measures, failures=False)
    records = {"clicks": (1, 2, 3, 4), "stock": (50, 60)}
    byts = {"clicks": (10, 20, 30, 40), "stock": (500, 600)}
    direct = share_streams_sections(t, records, byts)
    assert s["share_groups"] == direct["share_groups"]
    assert s["streams_groups"] == direct["streams_groups"]
    json.dumps(s)
    out = io.StringIO()
    print_summary(s, Console(file=out, width=200))
    text = out.getvalue()
    assert "Share group workers (simple, Kafka 4.3)" in text and "expected share" in text
    assert "Streams group app (sticky, Kafka 4.3, 1 standby replica)" in text
    page = render_report(s)
    assert '<section id="share-groups">' in page and '<section id="streams-groups">' in page
    assert 'href="#share-groups"' in page


def test_terminal_labels_the_share_as_expected() -> None:
    out = io.StringIO()
    print_summary(_summary(), Console(file=out, width=200))
    text = out.getvalue()
    assert "Share group workers (simple, Kafka 4.3): expected records per member" in text
    assert "this is the expected share, not a guarantee" in text
    assert "÷2" in text
    assert "Streams group app" in text and "0_0" in text


def test_page_has_both_sections_labelled() -> None:
    page = render_report(_summary())
    assert 'id="chart-share-group-0"' in page and 'id="table-share-group-0"' in page
    assert 'id="chart-streams-group-0"' in page and 'id="table-streams-group-0"' in page
    assert "expected share, not a guarantee" in page


def test_malformed_section_is_one_error_naming_the_field() -> None:
    s = _summary()
    s["share_groups"][0]["members"][1]["expected_records"] = "x"
    with pytest.raises(ConfigError, match=r"share_groups\[0\]\.members\[1\]\.expected_records"):
        render_report(s)


def test_page_renders_in_chromium(tmp_path, chromium: str) -> None:
    from _tools.browser import inspect_report
    from kpart.report.html import write_report_html

    s = _summary()
    report = inspect_report(write_report_html(s, tmp_path / "report.html"), binary=chromium)
    assert report.errors == [], f"JavaScript errors: {report.errors}"
    assert report.external_requests == []
    assert all(c["rendered"] for c in report.charts)
    bars = report.bars()
    assert bars["chart-share-group-0"] == 6 and bars["chart-streams-group-0"] == 3
    assert report.tables["table-share-group-0"] == 6
    assert report.tables["table-streams-group-0"] == 3
    sections = {c["id"]: c["section"] for c in report.charts}
    assert sections["chart-share-group-0"] == "share-groups"
    assert sections["chart-streams-group-0"] == "streams-groups"
    assert report.sections.index("consumers") < report.sections.index("share-groups") \
        < report.sections.index("streams-groups") < report.sections.index("skew")


@pytest.mark.spark
def test_spark_report_counts_the_measured_partitions(spark: object, tmp_path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """The real job (two topics of the docs' example, 1,000 flights each): share members'
    expected records and Streams members' records come from the partitions' measured totals."""
    from pathlib import Path

    from kpart.cli import main

    example = Path(__file__).resolve().parents[2] / "docs/examples/share-streams-topology.toml"
    out = tmp_path / "report"
    assert main(["report", "--topology", str(example), "--out", str(out), "--quiet"]) == 0, \
        capsys.readouterr().err
    s = json.loads((out / "summary.json").read_text())
    records = {t["topic"]: [p["records"] for p in t["partitions"]] for t in s["topics"]}
    assert sum(records["clicks"]) == sum(records["stock"]) == 1000
    (share,) = s["share_groups"]
    for m in share["members"]:
        assert m["expected_records"] == round(sum(
            Fraction(records[p["topic"]][p["partition"]], p["shared_by"])
            for p in m["partitions"]).__float__(), 6)
    assert round(sum(m["expected_records"] for m in share["members"]), 3) == 2000
    (streams,) = s["streams_groups"]
    sources = {x["id"]: x["source_topics"] for x in streams["subtopologies"]}
    for m in streams["members"]:
        assert m["records"] == sum(records[t][task["partition"]]
                                   for task in m["active_tasks"]
                                   for t in sources[task["subtopology"]]
                                   if task["partition"] < len(records[t]))
    assert sum(m["records"] for m in streams["members"]) == 1000 + 2 * 1000
    page = (out / "report.html").read_text()
    assert 'id="chart-share-group-0"' in page and 'id="chart-streams-group-0"' in page
