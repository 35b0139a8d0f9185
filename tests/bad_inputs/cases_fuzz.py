"""Bad-input cases found by the fuzz tests (``tests/fuzz``): each was a Python traceback
(``TypeError``/``AttributeError`` inside a parser or an assignor) before its fix and is now one
line naming the value. Ids start with ``fuzz-``.
"""

from __future__ import annotations

import json

from bad_inputs.case import Case

_UUID = "TiSarLlxTTgvi602tDaz1Q"


def _group(member: dict, **extra: object) -> str:
    return json.dumps({"topics": {"t0": 2}, **extra,
                       "members": [{"id": "C0", "topics": ["t0"], **member}]})


def _kip848(member: dict) -> str:
    return json.dumps({"topics": [{"name": "t0", "id": _UUID, "partitions": 2}],
                       "members": [{"id": "m1", "topics": ["t0"], **member}]})


def _scenario(member: dict, **extra: object) -> str:
    return json.dumps({"topics": {"t0": 2}, **extra,
                       "steps": [{"join": [{"id": "C0", "topics": ["t0"], **member}]}]})


_CURRENT = ('{"version":1,"partitions":[{"topic":"foo","partition":0,"replicas":[1,2]},'
            '{"topic":"foo","partition":1,"replicas":[2,1]}]}')


def _describe(partition: str = "0", leader: str = "1") -> str:
    return (f"\tTopic: foo\tPartition: {partition}\tLeader: {leader}\tReplicas: 1,2\tIsr: 1,2\n"
            "\tTopic: foo\tPartition: 1\tLeader: 2\tReplicas: 2,1\tIsr: 2,1\n")


CASES = [
    # group JSON (kpart assign)
    Case("fuzz-group-partition-racks-null-entry", ("assign", "g.json"), "partition_racks.t0",
         {"g.json": _group({}, partition_racks={"t0": [None, ["a"]]})}),
    Case("fuzz-group-partition-racks-number-rack", ("assign", "g.json", "-s", "sticky"),
         "partition_racks.t0", {"g.json": _group({}, partition_racks={"t0": [[1], ["a"]]})}),
    Case("fuzz-group-owned-number", ("assign", "g.json", "-s", "cooperative-sticky"),
         "group.members[0].owned", {"g.json": _group({"owned": 5})}),
    Case("fuzz-group-owned-list-topic", ("assign", "g.json", "-s", "cooperative-sticky"),
         "group.members[0].owned", {"g.json": _group({"owned": [[["t0"], [0]]]})}),
    Case("fuzz-group-rack-list", ("assign", "g.json"), "Invalid rack ['r1']",
         {"g.json": _group({"rack": ["r1"]}, partition_racks={"t0": [["r1"], ["r2"]]})}),
    Case("fuzz-group-instance-id-number", ("assign", "g.json"), "Invalid instance id 7",
         {"g.json": _group({"instance_id": 7})}),
    # KIP-848 group JSON (kpart server-assign)
    Case("fuzz-kip848-assignment-nested-list", ("server-assign", "k.json"),
         "invalid partition []", {"k.json": _kip848({"assignment": [["t0", [[], 1]]]})}),
    Case("fuzz-kip848-assignment-number", ("server-assign", "k.json"),
         "group.members[0].assignment", {"k.json": _kip848({"assignment": 5})}),
    Case("fuzz-kip848-rack-list", ("server-assign", "k.json", "-a", "range"),
         "Invalid rack ['r1']", {"k.json": _kip848({"rack": ["r1"]})}),
    # rebalance scenarios (kpart rebalance)
    Case("fuzz-scenario-owned-number", ("rebalance", "s.json"), "steps[0].join[0].owned",
         {"s.json": _scenario({"owned": 5})}),
    Case("fuzz-scenario-owned-list-topic", ("rebalance", "s.json"), "steps[0].join[0].owned[0]",
         {"s.json": _scenario({"owned": [[["t0"], [0]]]})}),
    Case("fuzz-scenario-partition-racks-number", ("rebalance", "s.json", "-s", "sticky"),
         "scenario.partition_racks.t0",
         {"s.json": _scenario({"rack": "a"}, partition_racks={"t0": [[1], ["a"]]})}),
    # --describe text: digits str.isdigit() accepts and int() refuses (were ValueError)
    Case("fuzz-describe-partition-superscript", ("describe", "--current", "d.txt"),
         "invalid partition '²'", {"d.txt": _describe(partition="²")}),
    Case("fuzz-describe-leader-superscript", ("describe", "--current", "d.txt"),
         "invalid leader '²'", {"d.txt": _describe(leader="²")}),
    # --sizes (kafka-log-dirs JSON or {partition: bytes})
    Case("fuzz-sizes-partition-superscript",
         ("plan", "--current", "c.json", "--add-brokers", "3", "--sizes", "s.json"), "foo-²",
         {"c.json": _CURRENT, "s.json": '{"foo-²": 10}'}),
    Case("fuzz-sizes-topic-partition-superscript",
         ("plan", "--current", "c.json", "--add-brokers", "3", "--sizes", "s.json"), "'²'",
         {"c.json": _CURRENT, "s.json": '{"foo": {"²": 10}}'}),
    Case("fuzz-sizes-log-dirs-null",
         ("plan", "--current", "c.json", "--add-brokers", "3", "--sizes", "s.json"), "'logDirs'",
         {"c.json": _CURRENT,
          "s.json": '{"version":1,"brokers":[{"broker":1,"logDirs":null}]}'}),
    # pools JSON: a topic mapped to a list instead of a pool name (was TypeError)
    Case("fuzz-pools-topic-pool-list", ("describe", "--current", "c.json", "--pools", "p.json"),
         "Unknown pool []",
         {"c.json": _CURRENT, "p.json": '{"pools": {"a": [1, 2]}, "topics": {"foo": []}}'}),
]
