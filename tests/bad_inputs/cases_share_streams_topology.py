"""Catalogue cases of issue 26 on the topology's ``[[share_groups]]`` and ``[[streams_groups]]``
(ids ``share-streams-topology-*``): brokers without share or Streams groups, malformed tables,
a process on two racks — each refused in one line naming the field before Spark starts,
nothing written — and a topic the topology lacks, which a share member subscribes to or a
subtopology reads: a warning, as for a consumer group's member in a group file."""

from __future__ import annotations

from bad_inputs.case import Case

DATA = "k,v\na,1\nb,2\n"

TOPOLOGY = """{top}
[cluster]
brokers = [0, 1, 2]

[topic]
name = "t"
partitions = 3
replication_factor = 1
key = "k"

[[share_groups]]
name = "w"
{share}members = [{members}]

[[streams_groups]]
name = "app"
{streams}subtopologies = [{subs}]
members = [{streams_members}]
"""


def _topology(top: str = "", share: str = "", members: str = '"a", "b"', streams: str = "",
              subs: str = '{ source_topics = ["t"], stateful = true }',
              streams_members: str = '{ id = "x", process_id = "p1" }') -> str:
    return TOPOLOGY.format(top=top, share=share, members=members, streams=streams, subs=subs,
                           streams_members=streams_members)


def _error(cid: str, names: str, **parts: str) -> Case:
    return Case(id=f"share-streams-topology-{cid}", names=names,
                argv=("report", "d.csv", "--topology", "t.toml", "-o", "out"),
                files={"d.csv": DATA, "t.toml": _topology(**parts)})


def _warning(cid: str, names: str, **parts: str) -> Case:
    return Case(id=f"share-streams-topology-{cid}", names=names, expect="warning",
                argv=("report", "d.csv", "--topology", "t.toml", "--show-topology"),
                files={"d.csv": DATA, "t.toml": _topology(**parts)})


CASES = [
    _error("share-before-4.0", "share_groups[0] (w): The share-group simple assignor does not "
           "exist in kafka_version '3.9.1'", top='kafka_version = "3.9.1"'),
    _error("streams-early-access", "streams_groups[0] (app): The Streams groups' sticky task "
           "assignor is not known to kpart for kafka_version '4.1.0'",
           top='kafka_version = "4.1.0"'),
    _error("share-topics-unknown", "share_groups[0].topics[0]: no topic 'nope'",
           share='topics = ["nope"]\n'),
    _error("share-member-twice", "share_groups[0].members[1].id: member 'a' is listed twice",
           members='"a", "a"'),
    _error("share-member-field", "share_groups[0].members[0].instance_id: unknown field",
           members='{ id = "a", instance_id = "i" }'),
    _error("share-assignor", "share_groups[0].assignor: unknown value 'uniform'",
           share='assignor = "uniform"\n'),
    _error("streams-no-process", "streams_groups[0].members[0].process_id: expected a "
           "non-empty string", streams_members='{ id = "x" }'),
    _error("streams-process-two-racks", "streams_groups[0].members[1].rack: process 'p1'",
           streams_members='{ id = "x", process_id = "p1", rack = "a" }, '
                           '{ id = "y", process_id = "p1", rack = "b" }'),
    _error("streams-standby-negative", "streams_groups[0].num_standby_replicas: expected an "
           "integer >= 0, got -1", streams="num_standby_replicas = -1\n"),
    _error("streams-subtopology-twice", "streams_groups[0].subtopologies[1].id: subtopology "
           "'0' is listed twice", subs='{ source_topics = ["t"] }, '
                                       '{ id = "0", source_topics = ["t"] }'),
    _error("streams-stateful-text", "streams_groups[0].subtopologies[0].stateful: expected true "
           "or false, got 'yes'", subs='{ source_topics = ["t"], stateful = "yes" }'),
    _error("streams-no-sources", "streams_groups[0].subtopologies[0].source_topics: expected a "
           "non-empty list", subs="{ source_topics = [] }"),
    _warning("share-member-unknown-topic", "share_groups[0].members[1].topics[1]: no topic "
             "'nope' in the topology", members='"a", { id = "b", topics = ["t", "nope"] }'),
    _warning("streams-unknown-source", "streams_groups[0].subtopologies[0].source_topics[1]: no "
             "topic 'gone' in the topology", subs='{ source_topics = ["t", "gone"] }'),
]
