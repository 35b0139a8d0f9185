"""Catalogue cases of ``kpart report --compare-version V`` on a topic's producer (ids
``cmpv-producer-*``): a ``V`` without the topic's ``RoundRobinPartitioner`` (2.3), or a release
line whose releases differ on it (3.9: KAFKA-17632 in 3.9.2), on a single-topic report and on a
cluster report. Every one is refused before Spark starts, nothing written."""

from __future__ import annotations

from bad_inputs.case import Case

DATA = "k,v\na,1\nb,2\n,3\n"

TOPIC = """[topic]
name = "t"
partitions = 3
key = "k"
client_version = "3.9.0"
null_key_strategy = "round-robin"
"""

CLUSTER = """[cluster]
brokers = [0, 1, 2]

[[topics]]
name = "t"
data = "d.csv"
partitions = 3
replication_factor = 1
key = "k"
client_version = "3.9.0"
null_key_strategy = "round-robin"

[[topics]]
name = "u"
data = "d.csv"
partitions = 2
replication_factor = 1
key = "k"
"""


def _case(cid: str, names: str, version: str, topology: str = TOPIC,
          data: tuple[str, ...] = ("d.csv",)) -> Case:
    return Case(id=f"cmpv-producer-{cid}", names=names,
                argv=("report", *data, "--topology", "t.toml", "-o", "out",
                      "--compare-version", version),
                files={"d.csv": DATA, "t.toml": topology})


CASES = [
    _case("round-robin-absent", "--compare-version '2.3'", "2.3"),
    _case("round-robin-ambiguous", "--compare-version '3.9'", "3.9"),
    _case("cluster-round-robin-absent", "--compare-version '2.3'", "2.3", CLUSTER, ()),
]
