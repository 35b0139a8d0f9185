"""Catalogue cases of issue 25 on the topology's versions (ids ``topology-versions-*``): the
brokers' ``kafka_version`` and a group's or topic's ``client_version`` in a topology file
(unparseable, unknown, newer than any release kpart knows, a version without the placer or
the KIP-848 assignor), ``kpart report --kafka-version`` conflicting with the file's, and
``--compare-version`` (unparseable, a release line the uniform assignor is ambiguous on). Every
one is refused before Spark starts, nothing written."""

from __future__ import annotations

from bad_inputs.case import Case

DATA = "k,v\na,1\nb,2\n,3\n"

TOPOLOGY = """{top}
[cluster]
brokers = [0, 1, 2]

[topic]
name = "t"
partitions = 3
replication_factor = 1
key = "k"
null_key_strategy = "builtin"
{topic}
[[groups]]
name = "g"
strategy = "uniform"
members = ["m1", "m2"]
{group}"""


def _topology(top: str = "", topic: str = "", group: str = "") -> str:
    return TOPOLOGY.format(top=top, topic=topic, group=group)


def _case(cid: str, names: str, *extra: str, top: str = "", topic: str = "",
          group: str = "") -> Case:
    return Case(id=f"topology-versions-{cid}", names=names,
                argv=("report", "d.csv", "--topology", "t.toml", "-o", "out", *extra),
                files={"d.csv": DATA, "t.toml": _topology(top, topic, group)})


CASES = [
    _case("unparseable", "kafka_version '4.x'", top='kafka_version = "4.x"'),
    _case("leading-zero", "kafka_version '04.1'", top='kafka_version = "04.1"'),
    _case("not-a-string", "kafka_version: expected a Kafka version", top="kafka_version = 4.3"),
    _case("unknown", "kafka_version '5.0'", top='kafka_version = "5.0"'),
    _case("group-client-newer", "groups[0].client_version '9.9'",
          group='client_version = "9.9"'),
    _case("topic-client-newer", "topic.client_version '4.5'", topic='client_version = "4.5"'),
    _case("topic-client-four-parts", "topic.client_version '4.3.0.0'",
          topic='client_version = "4.3.0.0"'),
    _case("kip848-absent", "kafka_version '3.6.2'", top='kafka_version = "3.6.2"'),
    _case("uniform-ambiguous-line", "kafka_version '4.0'", top='kafka_version = "4.0"'),
    _case("adminutils-gone", "kafka_version '4.1.0'",
          top='kafka_version = "4.1.0"\nplacer = "admin-utils"'),
    _case("striped-before-kraft", "kafka_version '2.8'",
          top='kafka_version = "2.8"\nplacer = "kraft"'),
    _case("flag-conflicts", "--kafka-version '4.1.0' conflicts with the topology's "
          "kafka_version '4.0.0'", "--kafka-version", "4.1.0", top='kafka_version = "4.0.0"'),
    _case("flag-unknown", "--kafka-version '4.0.9'", "--kafka-version", "4.0.9"),
    _case("flag-ambiguous", "--kafka-version '4.0'", "--kafka-version", "4.0"),
    _case("compare-unparseable", "--compare-version '4.x'", "--compare-version", "4.x"),
    _case("compare-ambiguous", "--compare-version '4.0'", "--compare-version", "4.0"),
    _case("compare-before-kip848", "--compare-version '3.6'", "--compare-version", "3.6"),
]
