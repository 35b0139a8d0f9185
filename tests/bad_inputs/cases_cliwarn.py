"""Catalogue cases of issue 10, points 6, 8 and 11 (ids ``cliwarn-*``).

* Command-line keys that are not UTF-8 under the string serializer (``os.fsdecode`` of the raw
  bytes is what Python gives a real process for them): refused, naming the bytes in hex.
* Malformed or unreachable ``--master`` URLs: one line before Spark starts.
* Group JSON / KIP-848 group JSON with a misspelled field at every level: an error naming it.
* Input Kafka accepts but that is probably a mistake (unknown subscribed topic, owned partition
  beyond the count, negative generation, ``--describe`` leader outside the replicas or
  ``PartitionCount`` disagreeing with the rows): a warning and the Kafka-faithful result.
"""

from __future__ import annotations

import json
import os
from typing import Any

from bad_inputs.case import Case

NOT_UTF8 = os.fsdecode(b"\xff\xfeabc")  # what sys.argv holds for $'\xff\xfeabc'
STRAY_BYTE = os.fsdecode(b"abc\x80")

# --- group files ---------------------------------------------------------------------------

GROUP: dict[str, Any] = {
    "topics": {"t0": 3, "t1": 2},
    "partition_racks": {"t0": [["a"], ["b"], ["a"]]},
    "members": [
        {"id": "C0", "topics": ["t0", "t1"], "rack": "a", "instance_id": None, "generation": 2,
         "owned": [["t0", [0]]], "has_user_data": True, "user_data_hex": None},
        {"id": "C1", "topics": ["t0"]},
    ],
}

SERVER_GROUP: dict[str, Any] = {
    "topics": [{"name": "t0", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 3}],
    "members": [{"id": "m1", "topics": ["t0"], "instance_id": None, "rack": None,
                 "assignment": [["t0", [2, 0]]]},
                {"id": "m2", "topics": ["t0"]}],
}


def _edit(doc: dict[str, Any], path: tuple[Any, ...], key: str, value: Any = "a",
          rename: str | None = None) -> str:
    """JSON of ``doc`` with ``key: value`` set in the object at ``path`` (or the existing field
    ``rename`` renamed to ``key``)."""
    doc = json.loads(json.dumps(doc))
    target = doc
    for p in path:
        target = target[p]
    if rename is not None:
        value = target.pop(rename)
    target[key] = value
    return json.dumps(doc)


def _misspelled(field: str, path: tuple[Any, ...], rename: str | None = None) -> Case:
    return Case(id=f"cliwarn-group-field-{'-'.join(map(str, path)) or 'top'}-{field}",
                argv=("assign", "group.json", "--strategy", "range"), names=f".{field}: unknown",
                files={"group.json": _edit(GROUP, path, field, rename=rename)})


def _server_misspelled(field: str, path: tuple[Any, ...], rename: str | None = None) -> Case:
    return Case(id=f"cliwarn-kip848-field-{'-'.join(map(str, path)) or 'top'}-{field}",
                argv=("server-assign", "group.json"), names=f".{field}: unknown",
                files={"group.json": _edit(SERVER_GROUP, path, field, rename=rename)})


def _group_warning(cid: str, edit: tuple[tuple[Any, ...], str, Any], names: str,
                   strategy: str = "range") -> Case:
    path, key, value = edit
    return Case(id=f"cliwarn-warn-{cid}", argv=("assign", "group.json", "--strategy", strategy),
                names=names, expect="warning",
                files={"group.json": _edit(GROUP, path, key, value)})


# --- --describe text -------------------------------------------------------------------------

def _describe(count: int, rows: list[tuple[int, int, str]]) -> str:
    head = f"Topic: t\tPartitionCount: {count}\tReplicationFactor: 2\tConfigs: \n"
    return head + "".join(f"\tTopic: t\tPartition: {p}\tLeader: {leader}\tReplicas: {r}\t"
                          f"Isr: {r}\n" for p, leader, r in rows)


LEADER_OUTSIDE = _describe(2, [(0, 5, "1,2"), (1, 2, "2,1")])
TOO_FEW_ROWS = _describe(3, [(0, 1, "1,2"), (1, 2, "2,1")])

CASES = [
    # point 6: command-line keys keep their bytes
    Case(id="cliwarn-partition-key-not-utf8", argv=("partition", NOT_UTF8, "-n", "6"),
         names="fffe616263"),
    Case(id="cliwarn-partition-key-not-utf8-string",
         argv=("partition", NOT_UTF8, "-n", "6", "--serializer", "string"), names="fffe616263"),
    Case(id="cliwarn-partition-key-not-utf8-java-name",
         argv=("partition", NOT_UTF8, "-n", "6", "--serializer",
               "org.apache.kafka.common.serialization.StringSerializer"), names="fffe616263"),
    Case(id="cliwarn-partition-later-key-not-utf8",
         argv=("partition", "fine", STRAY_BYTE, "-n", "6"), names="61626380"),
    Case(id="cliwarn-partition-key-not-utf8-hints-hex", argv=("partition", STRAY_BYTE, "-n", "6"),
         names="--serializer hex"),
    Case(id="cliwarn-compat-keys-not-utf8", argv=("compat", "--keys", f"a,{NOT_UTF8}", "-n", "6"),
         names="fffe616263"),
    Case(id="cliwarn-whatif-keys-not-utf8",
         argv=("whatif", "--keys", f"{STRAY_BYTE},b", "-n", "6", "--to", "8"), names="61626380"),
    Case(id="cliwarn-whatif-keys-not-utf8-json",
         argv=("whatif", "--keys", NOT_UTF8, "-n", "6", "--to", "8", "--json", "--out", "w.json"),
         names="fffe616263"),
    # point 8: masters, checked before Spark starts
    *[Case(id=f"cliwarn-report-master-{i}", argv=("report", "--master", m, "--out", "out"),
           names=m) for i, m in enumerate([
               "spark://127.0.0.1:1", "spark:/x", "local[0]", "foo://", "local[2,0]",
               "spark://host", "spark://127.0.0.1:99999", "mesos://127.0.0.1:5050",
               "sc://localhost:15002", "k8s://", "local[*", "spark://127.0.0.1:1,127.0.0.1:2"])],
    Case(id="cliwarn-report-master-unreachable-says-why",
         argv=("report", "--master", "spark://127.0.0.1:1"), names="cannot connect to 127.0.0.1:1"),
    Case(id="cliwarn-compat-master-malformed",
         argv=("compat", "-n", "6", "--master", "local[0]"), names="local[0]"),
    Case(id="cliwarn-whatif-master-unreachable",
         argv=("whatif", "-n", "6", "--to", "8", "--master", "spark://127.0.0.1:1"),
         names="spark://127.0.0.1:1"),
    Case(id="cliwarn-report-master-timeout-zero",
         argv=("report", "--master", "spark://127.0.0.1:1", "--master-timeout", "0"),
         names="--master-timeout: expected a number of seconds"),
    Case(id="cliwarn-report-master-timeout-word", argv=("report", "--master-timeout", "soon"),
         names="'soon'"),
    # point 11: misspelled fields are errors, at every level
    _misspelled("memebrs", (), rename="members"),
    _misspelled("topic", (), rename="topics"),
    _misspelled("partition_rack", (), rename="partition_racks"),
    _misspelled("version", ()),
    _misspelled("rak", ("members", 0), rename="rack"),
    _misspelled("instanceId", ("members", 0), rename="instance_id"),
    _misspelled("generaton", ("members", 0), rename="generation"),
    _misspelled("owned_partitions", ("members", 0), rename="owned"),
    _misspelled("has_userdata", ("members", 0), rename="has_user_data"),
    _misspelled("topcs", ("members", 1), rename="topics"),
    Case(id="cliwarn-group-field-golden-wrapped",
         argv=("assign", "case.json"), names=".rak: unknown",
         files={"case.json": json.dumps({"id": "x", "input": json.loads(
             _edit(GROUP, ("members", 1), "rak"))})}),
    _server_misspelled("member", (), rename="members"),
    _server_misspelled("topic", (), rename="topics"),
    _server_misspelled("partition", ("topics", 0), rename="partitions"),
    _server_misspelled("topic_id", ("topics", 0)),
    _server_misspelled("rak", ("members", 0), rename="rack"),
    _server_misspelled("assignments", ("members", 0), rename="assignment"),
    _server_misspelled("generation", ("members", 1)),
    # point 11: warnings, and the Kafka-faithful result still printed
    _group_warning("unknown-topic", (("members", 1), "topics", ["t0", "t9"]), "'t9'"),
    _group_warning("owned-beyond", (("members", 0), "owned", [["t1", [0, 4]]]), "t1-4",
                   "cooperative-sticky"),
    _group_warning("negative-generation", (("members", 0), "generation", -3), "generation -3",
                   "sticky"),
    _group_warning("unknown-topic-table", (("members", 0), "topics", ["t0", "nope"]), "'nope'",
                   "roundrobin"),
    Case(id="cliwarn-warn-kip848-unknown-topic", argv=("server-assign", "group.json"),
         names="'gone'", expect="warning",
         files={"group.json": _edit(SERVER_GROUP, ("members", 1), "topics", ["t0", "gone"])}),
    Case(id="cliwarn-warn-describe-leader", argv=("describe", "--current", "current.txt"),
         names="leader 5 of partition t-0", expect="warning",
         files={"current.txt": LEADER_OUTSIDE}),
    Case(id="cliwarn-warn-describe-count", argv=("describe", "--current", "current.txt",
                                                 "--json", "--partial"),
         names="PartitionCount 3 but 2", expect="warning", files={"current.txt": TOO_FEW_ROWS}),
    Case(id="cliwarn-warn-plan-describe-leader",
         argv=("plan", "--current", "current.txt", "--add-brokers", "3"),
         names="leader 5", expect="warning", files={"current.txt": LEADER_OUTSIDE}),
]
