"""Issue 25 on the topology: the brokers' ``kafka_version`` and the clients' ``client_version``
(per topic and per group) are read, checked and threaded into what the report computes (the
KIP-848 assignors and the striped placer follow the brokers, classic assignors their clients);
``kpart report --kafka-version`` agrees with the file or is refused; ``--compare-version V`` adds
the section "what changes at Kafka V" (:mod:`kpart.analysis.version_change`, rendered by
:mod:`kpart.report._version_change`).

No Spark: the command-line runs read an empty dataset (no Spark job) or fail before one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kpart.analysis.layout import layout_for, resolve_cluster, resolve_topology
from kpart.analysis.version_change import version_change
from kpart.cli import main
from kpart.errors import ConfigError
from kpart.report._version_change import version_change_html, version_change_lines
from kpart.report.html import render_report
from kpart.topology import default_topology, demo_topology, parse_topology

# The three-partition example: members [m1, m2], one topic of 3 partitions.
BASE = """{top}
[cluster]
brokers = [{{ id = 0, rack = "a" }}, {{ id = 1, rack = "b" }}, {{ id = 2, rack = "a" }}]

[topic]
name = "t"
partitions = 3
replication_factor = 2
key = "k"
placement_seed = 7
null_key_strategy = "builtin"
{topic}
[[groups]]
name = "g"
strategy = "uniform"
members = ["m1", "m2"]

[[groups]]
name = "r"
strategy = "range"
members = ["c1", "c2"]
{group}"""


def topo(top: str = "", topic: str = "", group: str = ""):
    return parse_topology(BASE.format(top=top, topic=topic, group=group))


def _uniform(t) -> dict:
    return dict(layout_for(t).assignments)["g"].as_dict()


# -- the file's fields ----------------------------------------------------------------------------


def test_brokers_version_drives_the_kip848_group_of_the_report():
    assert _uniform(topo()) == {"m1": {"t": [0]}, "m2": {"t": [1, 2]}}  # 4.3, the default
    assert _uniform(topo('kafka_version = "4.0.0"')) == {"m1": {"t": [0, 1]}, "m2": {"t": [2]}}
    assert _uniform(topo('kafka_version = "4.0.1"')) == {"m1": {"t": [0]}, "m2": {"t": [1, 2]}}
    # the cluster resolution (several topics) follows it too
    c = resolve_cluster(topo('kafka_version = "4.0.0"'))
    assert dict(c.assignments)["g"].as_dict() == {"m1": {"t": [0, 1]}, "m2": {"t": [2]}}


def test_versions_are_kept_as_written_and_round_trip():
    t = topo('kafka_version = "4.0.1"\nplacer = "kraft"', 'client_version = "3.6.2"',
             'client_version = "4.3.0"')
    assert (t.kafka_version, t.topic.client_version, t.groups[0].client_version,
            t.groups[1].client_version) == ("4.0.1", "3.6.2", None, "4.3.0")
    assert str(t.brokers_version) == "4.0.1"
    assert parse_topology(t.to_toml()) == t
    assert t.to_dict()["kafka_version"] == "4.0.1"
    # for_topic keeps the brokers' version
    assert t.for_topic("t").kafka_version == "4.0.1"


def test_which_version_each_decision_follows():
    t = topo('kafka_version = "4.0.0"\nplacer = "kraft"', group='client_version = "4.3.1"')
    uniform, rng = t.groups
    assert str(t.version_of()) == "4.0.0"             # placement, elections
    assert str(t.version_of(uniform)) == "4.0.0"      # KIP-848: the brokers'
    assert str(t.version_of(t.topic)) == "4.3"        # a producer without client_version
    assert t.version_kwargs() == {"kafka_version": "4.0.0"}
    assert t.version_kwargs(uniform) == {"kafka_version": "4.0.0"}
    assert t.version_kwargs(t.topic) == {}  # the null-key rule as named (client: 4.3's)
    # a classic assignor without client_version: the default client, 4.3 (range is versioned)
    assert topo().version_kwargs(topo().groups[1]) == {"kafka_version": "4.3"}
    assert str(topo().version_of(topo().groups[1])) == "4.3"


def test_a_classic_group_client_version_is_not_silently_ignored():
    """Passed through when the assignor follows versions; refused while it does not (never
    the newest answer presented as an older client's)."""
    from kpart.consumer import get_strategy

    group = 'client_version = "2.8"'
    if get_strategy("range").versioned:
        assert topo(group=group).version_kwargs(topo(group=group).groups[1]) == {
            "kafka_version": "2.8"}
    else:
        with pytest.raises(ConfigError, match=r"groups\[1\]\.client_version '2\.8'"):
            topo(group=group)


def test_kip848_group_at_a_version_without_it_or_ambiguous_is_refused_on_load():
    with pytest.raises(ConfigError, match=r"groups\[0\] \(g\): .*'3\.6\.2'"):
        topo('kafka_version = "3.6.2"')
    with pytest.raises(ConfigError, match="'4.0' is ambiguous"):
        topo('kafka_version = "4.0"')


@pytest.mark.parametrize(("top", "topic", "group", "message"), [
    ('kafka_version = "4.x"', "", "", "Invalid kafka_version '4.x'"),
    ("kafka_version = 4", "", "", "kafka_version: expected a Kafka version as a string"),
    ('kafka_version = "5.0"', "", "", "Unknown kafka_version '5.0'"),
    ("", 'client_version = "4.5"', "", "Unknown topic.client_version '4.5'"),
    ("", "", 'client_version = "04.1"', "Invalid groups[1].client_version '04.1'"),
    ("", "", 'client_version = "9.0"', "Unknown groups[1].client_version '9.0'"),
])
def test_bad_versions_name_the_field_and_value(top, topic, group, message):
    with pytest.raises(ConfigError) as e:
        topo(top, topic, group)
    assert str(e.value).startswith(message)
    assert "\n" not in str(e.value)


def test_placement_follows_the_brokers_version():
    import kpart.topology as topology_module

    # no ZooKeeper mode from 4.0.0 (KIP-833): topics are created by the controller's striped
    # placer, so a topology naming no placer places with it
    assert topo('kafka_version = "4.1.0"').placer == topo('kafka_version = "4.0.0"').placer \
        == "kraft"
    assert topology_module._default_placer("3.9.0") == topo().placer == "admin-utils"
    for v in ("4.0.0", "4.1.0"):
        with pytest.raises(ConfigError, match=rf"placer 'admin-utils': .*'{v}'.*placer = \"kraft\""):
            topo(f'kafka_version = "{v}"\nplacer = "admin-utils"')
    # the striped placer starts in 3.0.0
    with pytest.raises(ConfigError, match=r"placer 'kraft': .*'2\.8'"):
        topo('kafka_version = "2.8"\nplacer = "kraft"')
    # the same placement as without a version where the placer did not change
    assert (layout_for(topo('kafka_version = "4.0.0"\nplacer = "kraft"')).replicas
            == layout_for(topo('placer = "kraft"')).replicas)


def test_producer_client_version_picks_its_null_key_rule():
    """A topic's client_version is its Java producer's: the ``client`` null-key rule is that
    client's (per-topic round robin before 2.4, KIP-480 sticky to 3.2, KIP-794 built-in
    from 3.3); a rule the client lacks is refused, naming the field and the value."""
    from kpart.analysis.layout import resolve_topology

    def rule(topic_fields: str) -> str:
        text = BASE.format(top="", topic=topic_fields, group="").replace(
            'null_key_strategy = "builtin"\n', "")
        return resolve_topology(parse_topology(text)).null_keys.strategy

    assert rule('client_version = "2.8"') == "sticky"
    assert rule('client_version = "2.3.1"') == "legacy"  # DefaultPartitioner's round robin
    assert rule('client_version = "3.3.2"') == rule("") == "builtin"
    with pytest.raises(ConfigError, match=r"topic\.client_version '4\.1'"):
        rule('client_version = "4.1"\nnull_key_strategy = "sticky"')


def test_with_kafka_version():
    t = topo('kafka_version = "4.0.0"')
    assert t.with_kafka_version(None) is t
    assert t.with_kafka_version("4.0.0") is t
    with pytest.raises(ConfigError) as e:
        t.with_kafka_version("4.1.0")
    assert e.value.parameter == "kafka_version"
    assert "'4.1.0'" in str(e.value) and "'4.0.0'" in str(e.value)
    assert str(topo().with_kafka_version("4.0.0").brokers_version) == "4.0.0"
    with pytest.raises(ConfigError, match="'4.x'"):
        topo().with_kafka_version("4.x")
    with pytest.raises(ConfigError, match=r"kafka_version '4\.0'"):  # uniform: ambiguous
        topo().with_kafka_version("4.0")


# -- the comparison --------------------------------------------------------------------------------


def test_version_change_of_the_report_groups():
    t = topo('kafka_version = "4.0.0"')
    change = version_change(t, [resolve_topology(t)], "4.3")
    g, r = change.groups
    assert (g.follows, g.from_version, g.to_version) == ("brokers", "4.0.0", "4.3")
    assert g.change is not None and g.change.moved == 1
    assert [(m.topic, m.partition, m.from_member, m.to_member) for m in g.change.moves] == [
        ("t", 1, "m1", "m2")]
    # range follows the clients, at 4.3 on both sides: nothing moves
    assert r.follows == "clients" and r.change is not None and r.change.moved == 0
    doc = change.to_json()
    assert json.loads(json.dumps(doc)) == doc
    assert doc["groups"][0]["members"]["m1"]["lost"] == {"t": [1]}
    assert doc["brokers_version"] == "4.0.0" and doc["not_covered"] == []  # producers compared too


def test_version_change_of_an_unmodelled_classic_group_says_so():
    from kpart.consumer import get_strategy

    t = topo()
    change = version_change(t, [resolve_topology(t)], "4.0.0")
    r = change.groups[1]
    if get_strategy("range").versioned:
        assert r.change is not None
    else:
        assert r.change is None and "range" in (r.reason or "")
        assert change.to_json()["groups"][1]["compared"] is False


def test_version_change_of_the_pr_19677_sticky_case():
    """PR #19677's testReassignmentStickinessWhenAlreadyBalanced, through a topology of
    several groups: a fresh group of 5 partitions and 3 members at 4.0.0 and 4.3."""
    t = parse_topology("""kafka_version = "4.0.0"
[topic]
name = "t"
partitions = 5
key = "k"
[[groups]]
name = "g"
strategy = "uniform"
members = ["A", "B", "C"]
""")
    c = version_change(t, resolve_cluster(t).topics, "4.3").groups[0].change
    assert c is not None
    assert c.before.as_dict() == {"A": {"t": [0, 1]}, "B": {"t": [2, 3]}, "C": {"t": [4]}}
    assert c.after.as_dict() == {"A": {"t": [0]}, "B": {"t": [1, 2]}, "C": {"t": [3, 4]}}
    assert c.moved == 2


@pytest.mark.parametrize(("version", "message"), [
    ("4.x", "Invalid compare_version '4.x'"),
    ("4.0", "compare_version '4.0' is ambiguous"),
    ("3.6", "does not exist in compare_version '3.6'"),
])
def test_version_change_refuses_a_version_it_cannot_answer(version, message):
    t = topo()
    with pytest.raises(ConfigError) as e:
        version_change(t, [resolve_topology(t)], version)
    assert message in str(e.value) and e.value.parameter == "compare_version"


def test_rendering_lines_and_page():
    t = topo('kafka_version = "4.0.0"')
    doc = version_change(t, [resolve_topology(t)], "4.3").to_json()
    lines = version_change_lines(doc)
    assert lines[0] == "What changes at Kafka 4.3 (brokers now 4.0.0):"
    assert "    m1: 2 -> 1 partitions, loses t[1]" in lines
    assert any(x.startswith("  group r (range, follows the clients") for x in lines)
    page = version_change_html({"version_change": doc})
    assert page.startswith('<section id="version-change">')
    assert 'id="table-version-change-members"' in page and "t[1]" in page
    assert version_change_html({}) == ""
    summary = {"topic": "t", "num_partitions": 1, "records": 1,
               "partitions": [{"partition": 0, "records": 1}], "version_change": doc}
    full = render_report(summary)
    assert '<section id="version-change">' in full and 'href="#version-change"' in full
    with pytest.raises(ConfigError, match="version_change: missing field 'groups'"):
        version_change_lines({"to_version": "4.3", "brokers_version": "4.3"})


# -- the command line ------------------------------------------------------------------------------


def _files(tmp_path: Path, top: str = 'kafka_version = "4.0.0"') -> None:
    (tmp_path / "t.toml").write_text(BASE.format(top=top, topic="", group=""))
    (tmp_path / "e.csv").write_text("k,v\n")  # no records: the report runs without Spark


def test_report_compare_version_writes_the_section(tmp_path, capsys, monkeypatch):
    _files(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["report", "e.csv", "--topology", "t.toml", "--compare-version", "4.3",
                 "-o", "out"]) == 0
    out = capsys.readouterr().out
    assert "What changes at Kafka 4.3 (brokers now 4.0.0):" in out
    assert "m2: 1 -> 2 partitions, gains t[1]" in out
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["version_change"]["groups"][0]["moved"] == 1
    # the groups of the report itself are the topology's version's (4.0.0)
    members = {m["member"]: m["partitions"] for g in summary["groups"] if g["group"] == "g"
               for m in g["members"]}
    assert members == {"m1": [0, 1], "m2": [2]}


def test_report_kafka_version_flag(tmp_path, capsys, monkeypatch):
    _files(tmp_path)
    monkeypatch.chdir(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main(["report", "e.csv", "--topology", "t.toml", "--kafka-version", "4.1.0"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("kpart: error: --kafka-version '4.1.0' conflicts with the topology's "
                   "kafka_version '4.0.0' (give one, or the same)")
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    # the same value: fine; the topology shown carries it
    assert main(["report", "e.csv", "--topology", "t.toml", "--kafka-version", "4.0.0",
                 "--show-topology"]) == 0
    assert 'kafka_version = "4.0.0"' in capsys.readouterr().out
    # a topology without one takes the flag's
    _files(tmp_path, top="")
    assert main(["report", "e.csv", "--topology", "t.toml", "--kafka-version", "4.0.0",
                 "-o", "out"]) == 0
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    members = {m["member"]: m["partitions"] for g in summary["groups"] if g["group"] == "g"
               for m in g["members"]}
    assert members == {"m1": [0, 1], "m2": [2]}


def test_default_topologies_are_unchanged():
    """No version given: kpart's default and demo topologies compute what they did."""
    assert default_topology().kafka_version is None and default_topology().placer == "admin-utils"
    assert demo_topology().version_kwargs() == {"kafka_version": "4.3"}


def test_cluster_page_has_the_section_after_partition_count():
    from _tools.cluster_report_sample import cluster_report_summary

    t = topo('kafka_version = "4.0.0"')
    doc = version_change(t, [resolve_topology(t)], "4.3").to_json()
    summary = {**cluster_report_summary(hot_key_topic=2), "version_change": doc}
    page = render_report(summary)
    ids = [s for s in page.split('<section id="')[1:]]
    order = [s.split('"', 1)[0] for s in ids]
    assert "version-change" in order
    assert order.index("version-change") == order.index("partition-count") + 1
    assert 'href="#version-change"' in page
    # without the key: the page as before
    assert '<section id="version-change"' not in render_report(cluster_report_summary(
        hot_key_topic=2))


@pytest.mark.spark
def test_cluster_report_compare_version(spark, tmp_path, capsys, monkeypatch):
    """The cluster report (two topics sharing the brokers) carries the section too: groups
    assigned over all their topics, as the report resolved them."""
    (tmp_path / "a.csv").write_text("k,v\na,1\nb,2\n")
    (tmp_path / "c.toml").write_text("""kafka_version = "4.0.0"
[cluster]
brokers = [0, 1, 2]
[[topics]]
name = "a"
data = "a.csv"
key = "k"
partitions = 3
replication_factor = 1
null_key_strategy = "builtin"
[[topics]]
name = "b"
data = "a.csv"
key = "k"
partitions = 2
replication_factor = 1
null_key_strategy = "builtin"
[[groups]]
name = "g"
strategy = "uniform"
members = ["m1", "m2"]
""")
    monkeypatch.chdir(tmp_path)
    assert main(["report", "--topology", "c.toml", "--compare-version", "4.3", "-o", "out"]) == 0
    assert "What changes at Kafka 4.3 (brokers now 4.0.0):" in capsys.readouterr().out
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    g = summary["version_change"]["groups"][0]
    resolved = resolve_cluster(parse_topology((tmp_path / "c.toml").read_text()))
    expected = version_change(resolved.topology, resolved.topics, "4.3").to_json()["groups"][0]
    assert g == expected and g["moved"] >= 1
    assert '<section id="version-change">' in (tmp_path / "out" / "report.html").read_text()


def test_the_striped_placer_is_built_at_the_brokers_version(monkeypatch):
    """``placer = "kraft"``: the report's StripedReplicaPlacer runs as the brokers' version
    (its InvalidReplicationFactorException messages changed in 4.3.0, KIP-1066)."""
    from kpart.placement import striped_replica_placer

    seen = []
    original = striped_replica_placer.StripedReplicaPlacer.__init__

    def spy(self, random, kafka_version=None):
        seen.append(kafka_version)
        original(self, random, kafka_version=kafka_version)

    monkeypatch.setattr(striped_replica_placer.StripedReplicaPlacer, "__init__", spy)
    layout_for(topo('kafka_version = "4.2.0"\nplacer = "kraft"'))
    resolve_cluster(topo('kafka_version = "4.0.1"\nplacer = "kraft"'))
    layout_for(topo('placer = "kraft"'))
    assert seen == ["4.2.0", "4.0.1", "4.3"]
