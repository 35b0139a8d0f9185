"""Catalogue cases of issue 26, points 3 and 4 (ids ``outcoord-*``): ``kpart outage`` with
``--group``/``--transactional-id``/``--groups-file``: a cluster without ``__consumer_offsets``
or ``__transaction_state`` (the leader can only come from the input: refused, never guessed),
an empty ``--groups-file``, and the event refusals (``--up`` of a broker not down, an unknown
broker, ELR at 3.6) still given first when coordinators are asked for."""

from __future__ import annotations

from bad_inputs.case import Case

DUMP = ("Topic: orders\tPartitionCount: 1\tReplicationFactor: 3\tConfigs: "
        "min.insync.replicas=2\n"
        "\tTopic: orders\tPartition: 0\tLeader: 1\tReplicas: 1,2,3\tIsr: 1,2,3\n")
OFFSETS = ("Topic: __consumer_offsets\tPartitionCount: 2\tReplicationFactor: 3\tConfigs: \n"
           "\tTopic: __consumer_offsets\tPartition: 0\tLeader: 1\tReplicas: 1,2,3\tIsr: 1,2,3\n"
           "\tTopic: __consumer_offsets\tPartition: 1\tLeader: 2\tReplicas: 2,3,1\tIsr: 2,3,1\n")


def _outage(cid: str, names: str, *argv: str, dump: str = DUMP,
            **files: str) -> Case:
    return Case(id=f"outcoord-{cid}", argv=("outage", "--current", "c.txt", *argv, "-o",
                                            "out.json"),
                names=names, files={"c.txt": dump, **files})


CASES = [
    _outage("group-without-offsets-topic", "__consumer_offsets", "--down", "1", "--down", "2",
            "--group", "orders"),
    _outage("group-without-offsets-topic-one-failure", "__consumer_offsets", "--down", "1",
            "--group", "orders"),
    _outage("txid-without-transaction-state", "__transaction_state", "--down", "1",
            "--transactional-id", "tx-1", dump=OFFSETS),
    _outage("groups-file-empty", "g.txt: no group id", "--down", "1", "--groups-file", "g.txt",
            dump=OFFSETS, **{"g.txt": "\n  \n"}),
    _outage("groups-file-missing", "g.txt", "--down", "1", "--groups-file", "g.txt",
            dump=OFFSETS),
    _outage("up-not-down-with-group", "--up 2", "--down", "1", "--up", "2", "--group", "g",
            dump=OFFSETS),
    _outage("unknown-broker-with-group", "--down 9", "--down", "1", "--down", "9",
            "--group", "g", dump=OFFSETS),
    _outage("elr-at-3.6-with-group", "'3.6.2'", "--down", "1", "--down", "2", "--elr",
            "--kafka-version", "3.6.2", "--group", "g", dump=OFFSETS),
]

FEATURES = ("Feature: eligible.leader.replicas.version  SupportedMinVersion: 0  "
            "SupportedMaxVersion: 1  FinalizedVersionLevel: {}  Epoch: 3\n")

CASES += [
    _outage("features-not-describe-output", "no 'Feature:' line", "--down", "1", "--down", "2",
            "--features", "f.txt", **{"f.txt": "eligible.leader.replicas.version=1\n"}),
    _outage("features-bad-level", "'one'", "--down", "1", "--down", "2", "--features", "f.txt",
            **{"f.txt": FEATURES.format("one")}),
    _outage("features-missing", "f.txt", "--down", "1", "--down", "2", "--features", "f.txt"),
    Case(id="outcoord-snapshot-features-bad-level", argv=(
        "outage", "--snapshot", "c.json", "--down", "1", "--down", "2", "-o", "out.json"),
        names="cluster.features.eligible.leader.replicas.version", files={"c.json": (
            '{"format": "kpart-cluster", "version": 3, "features": {'
            '"eligible.leader.replicas.version": true}, "brokers": [{"id": 1}, {"id": 2}], '
            '"topics": []}')}),
]
