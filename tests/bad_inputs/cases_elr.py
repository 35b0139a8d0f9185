"""Catalogue cases of issue 26, point 4 (ids ``elr-*``): ``kpart outage`` with ordered events:
``--up`` of a broker that is not down, an event naming an unknown broker, ELR asked of a
version without it, a broker downed twice, events with --all/--down-rack, --elr without
events, --kafka-version without events."""

from __future__ import annotations

from bad_inputs.case import Case

DUMP = ("Topic: orders\tPartitionCount: 1\tReplicationFactor: 3\tConfigs: "
        "min.insync.replicas=2\n"
        "\tTopic: orders\tPartition: 0\tLeader: 1\tReplicas: 1,2,3\tIsr: 1,2,3\n")


def _outage(cid: str, names: str, *argv: str) -> Case:
    return Case(id=f"elr-{cid}", argv=("outage", "--current", "c.txt", *argv, "-o", "out.json"),
                names=names, files={"c.txt": DUMP})


CASES = [
    _outage("up-not-down", "--up 2", "--down", "1", "--up", "2"),
    _outage("up-unclean-not-down", "--up-unclean 3", "--up-unclean", "3"),
    _outage("unknown-broker-down", "--down 9", "--down", "1", "--down", "9"),
    _outage("unknown-broker-up", "--up 7", "--down", "1", "--up", "7"),
    _outage("elr-before-3.7", "'3.6.2'", "--down", "1", "--down", "2", "--elr",
            "--kafka-version", "3.6.2"),
    _outage("unknown-version", "'5.0'", "--down", "1", "--up", "1", "--kafka-version", "5.0"),
    _outage("down-twice", "--down 1", "--down", "1", "--down", "1"),
    _outage("bad-id", "'x'", "--down", "1", "--up", "x"),
    _outage("events-with-all", "--all", "--all", "--down", "1", "--up", "1"),
    _outage("elr-without-events", "--elr", "--elr"),
    _outage("version-without-events", "--kafka-version", "--down", "1", "--kafka-version",
            "4.3"),
]
