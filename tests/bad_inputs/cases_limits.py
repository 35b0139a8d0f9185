"""Bad-input cases of issue 10 point 3: huge counts are refused with one line naming the value,
the limit and why, before anything large is allocated (limits in :mod:`kpart.limits`)."""

from __future__ import annotations

import json

from bad_inputs.case import Case
from kpart.topology import DEFAULT_TOPOLOGY_TEXT

_PLACE = ("place", "--brokers", "0,1,2")


def _group(topics: dict[str, int], members: int = 1) -> str:
    names = list(topics)[:1]
    return json.dumps({"topics": topics,
                       "members": [{"id": f"m{i}", "topics": names} for i in range(members)]})


def _topology(old: str, new: str) -> str:
    assert old in DEFAULT_TOPOLOGY_TEXT, old
    return DEFAULT_TOPOLOGY_TEXT.replace(old, new, 1)


_SERVER = json.dumps({"topics": [{"name": "t", "id": "AAAAAAAAAAAAAAAAAAAAAg",
                                  "partitions": 1000000000}],
                      "members": [{"id": "a", "topics": ["t"]}]})
_SCENARIO = json.dumps({"topics": {"t0": 2}, "steps": [
    {"join": [{"id": "C0", "topics": ["t0"]}]}, {"add_partitions": {"t0": 1000000000}}]})
# every step keeps its assignment: 1,000 steps of a 1,048,576-partition group need ~1 TB
_LONG_SCENARIO = json.dumps({"topics": {"t0": 1 << 20}, "steps": [
    {"join": [{"id": f"C{i}", "topics": ["t0"]}]} for i in range(1000)]})
_DESCRIBE = ("Topic: t\tPartitionCount: 1\tReplicationFactor: 2\tConfigs: \n"
             "Topic: t\tPartition: 0\tLeader: 0\tReplicas: 0,1\tIsr: 0,1\n")

CASES = [
    Case("limits-place-partitions-1e9",
         (*_PLACE, "--partitions", "1000000000", "--replication-factor", "3"), "1,048,576"),
    Case("limits-place-partitions-above-int32",
         (*_PLACE, "--partitions", "3000000000", "--replication-factor", "3"), "INT32"),
    Case("limits-place-rf-above-int16",
         (*_PLACE, "--partitions", "6", "--replication-factor", "40000"), "INT16"),
    Case("limits-place-replicas-total",
         ("place", "--brokers", ",".join(map(str, range(17))), "--partitions", "1000000",
          "--replication-factor", "17"), "16,777,216 replicas"),
    Case("limits-place-striped-partitions",
         (*_PLACE, "--placer", "striped", "--partitions", "2000000", "--replication-factor", "3"),
         "2000000"),
    Case("limits-place-broker-id-above-int32",
         ("place", "--brokers", "0,1,3000000000", "--partitions", "3",
          "--replication-factor", "3"), "3000000000"),
    Case("limits-partition-n-above-int32", ("partition", "k", "-n", "3000000000"), "3000000000"),
    Case("limits-whatif-partitions", ("whatif", "-n", "1000000000", "--to", "12", "--keys", "a,b"),
         "1000000000"),
    Case("limits-whatif-to", ("whatif", "-n", "12", "--to", "16,2000000", "--keys", "a"),
         "2000000"),
    Case("limits-whatif-search-total",
         ("whatif", "-n", "12", "--to", "16", "--search", "1000000-1004000", "--keys", "a"),
         "16,777,216"),
    Case("limits-compat-partitions", ("compat", "-n", "1000000000", "--keys", "a,b"),
         "1000000000"),
    Case("limits-simulate-records", ("simulate", "-n", "1000000000"), "10,000,000"),
    Case("limits-simulate-partitions", ("simulate", "-p", "1000000000", "-n", "10"),
         "1000000000"),
    Case("limits-simulate-brokers", ("simulate", "--brokers", "1000000000", "-n", "10"),
         "65,536"),
    Case("limits-assign-topic-partitions", ("assign", "g.json"), "1000000000",
         files={"g.json": _group({"t": 1000000000})}),
    Case("limits-assign-group-partitions", ("assign", "g.json", "-s", "cooperative-sticky"),
         "4,194,304", files={"g.json": _group({f"t{i}": 1000000 for i in range(5)})}),
    Case("limits-assign-members", ("assign", "g.json"), "131,072",
         files={"g.json": _group({"t": 6}, members=131073)}),
    Case("limits-server-assign-partitions", ("server-assign", "s.json"), "1000000000",
         files={"s.json": _SERVER}),
    Case("limits-rebalance-add-partitions", ("rebalance", "sc.json", "-s", "range"),
         "1000000000", files={"sc.json": _SCENARIO}),
    Case("limits-rebalance-memory", ("rebalance", "sc.json", "-s", "range"),
         "of memory, more than the", files={"sc.json": _LONG_SCENARIO}),
    Case("limits-report-topology-partitions", ("report", "--topology", "t.toml"), "1000000000",
         files={"t.toml": _topology("partitions = 12", "partitions = 1000000000")}),
    Case("limits-report-topology-rf", ("report", "--topology", "t.toml"), "INT16",
         files={"t.toml": _topology("replication_factor = 3", "replication_factor = 40000")}),
    Case("limits-report-topology-broker-id", ("report", "--topology", "t.toml"), "3000000000",
         files={"t.toml": _topology("id = 0,", "id = 3000000000,")}),
    Case("limits-report-whatif", ("report", "--whatif", "16,2000000"), "2000000"),
    Case("limits-plan-broker-range",
         ("plan", "--current", "d.txt", "--brokers", "0-2000000000"), "65,536",
         files={"d.txt": _DESCRIBE}),
]
