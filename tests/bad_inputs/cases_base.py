"""The base of the bad-input catalogue: input every ``kpart`` command already refuses with one
line naming the value (exit 2, nothing written). Ids start with ``base-``.

One or more cases per command of ``kpart --help`` (partition, partitioners, compat, whatif,
simulate, place, plan, pools, describe, assign, server-assign, rebalance, report, version):
bad numbers, unknown strategies/partitioners/serializers, malformed files of every input
format (topology TOML, group JSON, KIP-848 group JSON, scenario JSON/TOML, pools JSON,
``--sizes`` log-dirs JSON, ZooKeeper node, reassignment JSON, ``--describe`` text), unknown
fields and missing required options. None of them needs Spark: ``report``, ``compat`` and
``whatif`` refuse these before a session starts.
"""

from __future__ import annotations

from bad_inputs.case import Case

_TOPOLOGY = """\
[cluster]
brokers = [{ id = 0, rack = "a" }, { id = 1, rack = "b" }, { id = 2, rack = "c" }]

[topic]
name = "orders"
partitions = 6
replication_factor = 2
key = "tailnum"

[[groups]]
name = "g"
strategy = "range"
members = ["c1", "c2"]
"""

_GROUP = '{"topics": {"t0": 3}, "members": [{"id": "C0", "topics": ["t0"]}]}'
_KIP848 = ('{"topics": [{"name": "t0", "id": "TiSarLlxTTgvi602tDaz1Q", "partitions": 3}], '
           '"members": [{"id": "m1", "topics": ["t0"]}]}')
_SCENARIO = '{"topics": {"t0": 2}, "steps": [{"join": [{"id": "C0", "topics": ["t0"]}]}]}'
_DESCRIBE = (
    "Topic: t\tPartitionCount: 2\tReplicationFactor: 2\tConfigs: \n"
    "\tTopic: t\tPartition: 0\tLeader: 0\tReplicas: 0,1\tIsr: 0,1\n"
    "\tTopic: t\tPartition: 1\tLeader: 1\tReplicas: 1,0\tIsr: 1,0\n"
)
_CSV = "tailnum,dest\nN1,BOS\nN2,LAX\n"


def _topo(old: str, new: str) -> dict[str, str]:
    assert old in _TOPOLOGY
    return {"t.toml": _TOPOLOGY.replace(old, new)}


CASES: list[Case] = [
    # -- kpart partition ------------------------------------------------------------------------
    Case("base-partition-count-zero", ("partition", "k", "--partitions", "0"), "0"),
    Case("base-partition-count-text", ("partition", "k", "--partitions", "six"), "six"),
    Case("base-partition-count-negative", ("partition", "k", "--partitions", "-3"), "-3"),
    Case("base-partition-missing-count", ("partition", "k"), "--partitions"),
    Case("base-partition-unknown-partitioner",
         ("partition", "k", "--partitions", "6", "--partitioner", "java:nope"), "java:nope"),
    Case("base-partition-unknown-serializer",
         ("partition", "k", "--partitions", "6", "--serializer", "float"), "float"),
    Case("base-partition-int-not-a-number",
         ("partition", "abc", "--partitions", "6", "--serializer", "int"), "abc"),
    Case("base-partition-int-out-of-range",
         ("partition", "4294967296", "--partitions", "6", "--serializer", "int"), "4294967296"),
    Case("base-partition-short-out-of-range",
         ("partition", "70000", "--partitions", "6", "--serializer", "short"), "70000"),
    Case("base-partition-bad-uuid",
         ("partition", "not-a-uuid", "--partitions", "6", "--serializer", "uuid"), "not-a-uuid"),
    Case("base-partition-bad-hex",
         ("partition", "zz", "--partitions", "6", "--serializer", "hex"), "zz"),
    Case("base-partition-bad-seed",
         ("partition", "k", "--partitions", "6", "--partitioner", "librdkafka:random",
          "--seed", "x1"), "x1"),
    Case("base-partition-count-given-twice",
         ("partition", "k", "-p", "6", "-n", "7"), "--partitions"),
    Case("base-partition-unknown-option", ("partition", "k", "--partitions", "6", "--bogus"),
         "--bogus"),
    # -- kpart partitioners / version ------------------------------------------------------------
    Case("base-partitioners-extra-argument", ("partitioners", "java"), "java"),
    Case("base-version-extra-argument", ("version", "now"), "now"),
    Case("base-unknown-command", ("partitoin", "k"), "partitoin"),
    # -- kpart compat ----------------------------------------------------------------------------
    Case("base-compat-count-text", ("compat", "--keys", "a,b", "--partitions", "x"), "x"),
    Case("base-compat-unknown-partitioner",
         ("compat", "--keys", "a", "--partitions", "6", "--partitioners", "java:default,nope"),
         "nope"),
    Case("base-compat-unknown-serializer",
         ("compat", "--keys", "a", "--partitions", "6", "--serializer", "float"), "float"),
    Case("base-compat-examples-negative",
         ("compat", "--keys", "a", "--partitions", "6", "--examples", "-1"), "-1"),
    Case("base-compat-keys-and-data",
         ("compat", "data.csv", "--keys", "a", "--partitions", "6"), "data.csv",
         files={"data.csv": _CSV}),
    Case("base-compat-int-key-not-a-number",
         ("compat", "--keys", "1,x2", "--partitions", "6", "--serializer", "int"), "x2"),
    Case("base-compat-out-missing-directory",
         ("compat", "--keys", "a", "--partitions", "6", "--out", "nodir/c.json"), "nodir"),
    Case("base-compat-missing-data", ("compat", "nothere.parquet", "--partitions", "6"),
         "nothere.parquet"),
    # -- kpart whatif ----------------------------------------------------------------------------
    Case("base-whatif-to-zero", ("whatif", "--keys", "a", "--partitions", "6", "--to", "0"),
         "0"),
    Case("base-whatif-to-text", ("whatif", "--keys", "a", "--partitions", "6", "--to", "8,x"),
         "x"),
    Case("base-whatif-missing-to", ("whatif", "--keys", "a", "--partitions", "6"), "--to"),
    Case("base-whatif-search-reversed",
         ("whatif", "--keys", "a", "--partitions", "6", "--to", "8", "--search", "20-10"),
         "20-10"),
    Case("base-whatif-search-no-range",
         ("whatif", "--keys", "a", "--partitions", "6", "--to", "8", "--search", "13"), "13"),
    Case("base-whatif-keyless-partitioner",
         ("whatif", "--keys", "a", "--partitions", "6", "--to", "8",
          "--partitioner", "java:round_robin"), "java:round_robin"),
    Case("base-whatif-unknown-format",
         ("whatif", "data.csv", "--partitions", "6", "--to", "8", "--format", "xlsx"), "xlsx",
         files={"data.csv": _CSV}),
    Case("base-whatif-missing-key-column",
         ("whatif", "data.csv", "--key", "user", "--partitions", "6", "--to", "8"), "user",
         files={"data.csv": _CSV}),
    # -- kpart simulate --------------------------------------------------------------------------
    Case("base-simulate-unknown-strategy", ("simulate", "-s", "sticky,stiky"), "stiky"),
    Case("base-simulate-partitions-zero", ("simulate", "--partitions", "0"), "0"),
    Case("base-simulate-brokers-zero", ("simulate", "--brokers", "0"), "0"),
    Case("base-simulate-unavailable-out-of-range",
         ("simulate", "--partitions", "4", "--unavailable", "9"), "9"),
    Case("base-simulate-bad-rack", ("simulate", "--rack", "zero=a"), "zero=a"),
    Case("base-simulate-bad-config", ("simulate", "--config", "novalue"), "novalue"),
    Case("base-simulate-records-text", ("simulate", "--records", "many"), "many"),
    Case("base-simulate-input-missing-column", ("simulate", "-i", "r.csv"), "size",
         files={"r.csv": "timestamp_ms,key\n1,a\n"}),
    Case("base-simulate-input-bad-json-line", ("simulate", "-i", "r.jsonl"), "r.jsonl",
         files={"r.jsonl": '{"timestamp_ms": 1, "size": 10}\n{oops\n'}),
    Case("base-simulate-input-missing-file", ("simulate", "-i", "none.csv"), "none.csv"),
    # -- kpart place -----------------------------------------------------------------------------
    Case("base-place-rf-too-large",
         ("place", "--brokers", "0,1,2", "--partitions", "3", "--replication-factor", "4"), "4"),
    Case("base-place-bad-broker-id",
         ("place", "--brokers", "0,x,2", "--partitions", "3", "--replication-factor", "2"),
         "'x'"),
    Case("base-place-duplicate-broker",
         ("place", "--brokers", "0,1,1", "--partitions", "3", "--replication-factor", "2"),
         "1"),
    Case("base-place-racks-count",
         ("place", "--brokers", "0,1,2", "--racks", "a,b", "--partitions", "3",
          "--replication-factor", "2"), "a,b"),
    Case("base-place-unknown-placer",
         ("place", "--brokers", "0,1,2", "--partitions", "3", "--replication-factor", "2",
          "--placer", "kraft"), "kraft"),
    Case("base-place-unknown-format",
         ("place", "--brokers", "0,1,2", "--partitions", "3", "--replication-factor", "2",
          "--format", "yaml"), "yaml"),
    Case("base-place-partitions-text",
         ("place", "--brokers", "0,1,2", "--partitions", "ten", "--replication-factor", "2"),
         "ten"),
    Case("base-place-missing-brokers", ("place", "--partitions", "3",
                                         "--replication-factor", "2"), "--brokers"),
    Case("base-place-fenced-unknown",
         ("place", "--placer", "striped", "--brokers", "0,1,2", "--fenced", "7",
          "--partitions", "3", "--replication-factor", "2"), "7"),
    Case("base-place-start-index-striped",
         ("place", "--placer", "striped", "--brokers", "0,1,2", "--start-index", "1",
          "--partitions", "3", "--replication-factor", "2"), "--start-index"),
    Case("base-place-empty-topic",
         ("place", "--brokers", "0,1,2", "--partitions", "3", "--replication-factor", "2",
          "--topic", ""), "--topic"),
    Case("base-place-seed-beyond-java-long",
         ("place", "--brokers", "0,1,2", "--partitions", "3", "--replication-factor", "2",
          "--seed", "99999999999999999999999"), "99999999999999999999999"),
    Case("base-place-out-given-twice",
         ("place", "--brokers", "0,1,2", "--partitions", "3", "--replication-factor", "2",
          "--out", "a.txt", "--output", "b.txt"), "--out"),
    # were bugs: `-o .` ended in an OSError traceback, and a missing directory was named by the
    # hidden temporary file (issue 10, points 1-2: one writer, kpart._files)
    Case("base-place-out-is-cwd",
         ("place", "--brokers", "0,1,2", "--partitions", "3", "--replication-factor", "2",
          "-o", "."), "'.'"),
    Case("base-place-out-missing-directory",
         ("place", "--brokers", "0,1,2", "--partitions", "3", "--replication-factor", "2",
          "-o", "nodir/x.txt"), "nodir/x.txt"),
    # -- kpart plan / pools / describe: --describe text, reassignment JSON, ZK node, sizes, pools
    Case("base-plan-missing-current", ("plan", "--add-brokers", "3"), "--current"),
    Case("base-plan-current-not-found", ("plan", "--current", "none.txt"), "none.txt"),
    Case("base-plan-describe-bad-replicas", ("plan", "--current", "d.txt"), "0,x",
         files={"d.txt": "\tTopic: t\tPartition: 0\tLeader: 0\tReplicas: 0,x\tIsr: 0\n"}),
    Case("base-plan-describe-no-partitions", ("plan", "--current", "d.txt"),
         "No partitions", files={"d.txt": "nothing to see here\n"}),
    Case("base-plan-describe-duplicate-partition", ("plan", "--current", "d.txt"), "t-0",
         files={"d.txt": _DESCRIBE + "\tTopic: t\tPartition: 0\tLeader: 0\tReplicas: 0,1\n"}),
    Case("base-plan-reassignment-bad-version", ("plan", "--current", "r.json"), "2",
         files={"r.json": '{"version": 2, "partitions": '
                          '[{"topic": "t", "partition": 0, "replicas": [0]}]}'}),
    Case("base-plan-reassignment-missing-replicas", ("plan", "--current", "r.json"),
         "'replicas'", files={"r.json": '{"version": 1, "partitions": '
                                       '[{"topic": "t", "partition": 0}]}'}),
    Case("base-plan-reassignment-malformed", ("plan", "--current", "r.json"), "Malformed",
         files={"r.json": '{"version": 1, "partitions": [}'}),
    Case("base-plan-zk-node-without-topic", ("plan", "--current", "zk.json"), "--topic",
         files={"zk.json": '{"version":1,"partitions":{"0":[0,1],"1":[1,0]}}'}),
    Case("base-plan-zk-node-bad-partition-id",
         ("plan", "--current", "zk.json", "--topic", "t"), "'x'",
         files={"zk.json": '{"version":1,"partitions":{"x":[0,1]}}'}),
    Case("base-plan-bad-add-brokers",
         ("plan", "--current", "d.txt", "--add-brokers", "3,four"), "four",
         files={"d.txt": _DESCRIBE}),
    Case("base-plan-sizes-malformed",
         ("plan", "--current", "d.txt", "--add-brokers", "2", "--sizes", "s.json"),
         "Malformed", files={"d.txt": _DESCRIBE, "s.json": "{\"t-0\": }"}),
    Case("base-plan-sizes-negative",
         ("plan", "--current", "d.txt", "--add-brokers", "2", "--sizes", "s.json"), "-5",
         files={"d.txt": _DESCRIBE, "s.json": '{"t-0": -5}'}),
    Case("base-plan-sizes-log-dirs-bad-size",
         ("plan", "--current", "d.txt", "--add-brokers", "2", "--sizes", "s.json"), "'big'",
         files={"d.txt": _DESCRIBE,
                "s.json": '{"version":1,"brokers":[{"broker":0,"logDirs":[{"logDir":"/k",'
                          '"error":null,"partitions":[{"partition":"t-0","size":"big",'
                          '"offsetLag":0,"isFuture":false}]}]}]}'}),
    Case("base-plan-broker-range-reversed",
         ("plan", "--current", "d.txt", "--add-brokers", "5-3"), "5-3",
         files={"d.txt": _DESCRIBE}),
    Case("base-plan-seed-beyond-java-long",
         ("plan", "--current", "d.txt", "--add-brokers", "2", "--seed=-99999999999999999999"),
         "-99999999999999999999", files={"d.txt": _DESCRIBE}),
    Case("base-plan-max-moves-text",
         ("plan", "--current", "d.txt", "--max-moves", "lots"), "lots",
         files={"d.txt": _DESCRIBE}),
    Case("base-pools-missing-pools", ("pools", "--current", "d.txt"), "--pools",
         files={"d.txt": _DESCRIBE}),
    Case("base-pools-malformed", ("pools", "--current", "d.txt", "--pools", "p.json"),
         "Malformed", files={"d.txt": _DESCRIBE, "p.json": '{"pools": '}),
    Case("base-pools-unknown-key", ("pools", "--current", "d.txt", "--pools", "p.json"),
         "'brokres'", files={"d.txt": _DESCRIBE,
                             "p.json": '{"pools": {"p1": {"brokres": [0, 1]}}}'}),
    Case("base-pools-unknown-pool", ("pools", "--current", "d.txt", "--pools", "p.json"),
         "'p9'", files={"d.txt": _DESCRIBE,
                        "p.json": '{"pools": {"p1": [0, 1]}, "topics": {"t": "p9"}}'}),
    Case("base-pools-unknown-strategy",
         ("pools", "--current", "d.txt", "--pools", "p.json", "--strategy", "fast"), "fast",
         files={"d.txt": _DESCRIBE, "p.json": '{"pools": {"p1": [0, 1]}}'}),
    Case("base-describe-topic-with-describe-text",
         ("describe", "--current", "d.txt", "--topic", "t"), "'t'", files={"d.txt": _DESCRIBE}),
    Case("base-describe-bad-leader", ("describe", "--current", "d.txt"), "'leader0'",
         files={"d.txt": "\tTopic: t\tPartition: 0\tLeader: leader0\tReplicas: 0,1\tIsr: 0\n"}),
    Case("base-describe-bad-brokers", ("describe", "--current", "d.txt", "--brokers", "0:a,b"),
         "'b'", files={"d.txt": _DESCRIBE}),
    # -- kpart assign / server-assign / rebalance ------------------------------------------------
    Case("base-assign-unknown-strategy", ("assign", "g.json", "-s", "sticky2"), "sticky2",
         files={"g.json": _GROUP}),
    Case("base-assign-unknown-format", ("assign", "g.json", "--format", "yaml"), "yaml",
         files={"g.json": _GROUP}),
    Case("base-assign-malformed-json", ("assign", "g.json"), "g.json",
         files={"g.json": '{"topics": {"t0": 3}, '}),
    Case("base-assign-not-utf8", ("assign", "g.json"), "g.json",
         files={"g.json": b'{"topics": {"t\xff": 3}}'}),
    Case("base-assign-missing-members", ("assign", "g.json"), "group.members",
         files={"g.json": '{"topics": {"t0": 3}}'}),
    Case("base-assign-member-without-id", ("assign", "g.json"), "group.members[0].id",
         files={"g.json": '{"topics": {"t0": 3}, "members": [{"topics": ["t0"]}]}'}),
    Case("base-assign-bad-generation", ("assign", "g.json"), "'two'",
         files={"g.json": '{"topics": {"t0": 3}, "members": '
                          '[{"id": "C0", "topics": ["t0"], "generation": "two"}]}'}),
    Case("base-assign-racks-unknown-topic", ("assign", "g.json"), "'t9'",
         files={"g.json": '{"topics": {"t0": 1}, "partition_racks": {"t9": [["a"]]}, '
                          '"members": [{"id": "C0", "topics": ["t0"]}]}'}),
    Case("base-assign-owned-unknown-topic", ("assign", "g.json"), "'t9'",
         files={"g.json": '{"topics": {"t0": 1}, "members": [{"id": "C0", "topics": ["t0"], '
                          '"owned": [["t9", [0]]]}]}'}),
    # a string where a topic's rack lists belong (was read as one rack per character)
    Case("base-assign-racks-not-a-list", ("assign", "g.json"), "'abc'",
         files={"g.json": '{"topics": {"t0": 3}, "partition_racks": {"t0": "abc"}, '
                          '"members": [{"id": "C0", "topics": ["t0"]}]}'}),
    Case("base-assign-missing-file", ("assign", "none.json"), "none.json"),
    Case("base-server-assign-unknown-assignor", ("server-assign", "g.json", "-a", "sticky"),
         "sticky", files={"g.json": _KIP848}),
    Case("base-server-assign-topic-without-id", ("server-assign", "g.json"), "group.topics[0]",
         files={"g.json": '{"topics": [{"name": "t0", "partitions": 3}], "members": []}'}),
    Case("base-server-assign-bad-topic-id", ("server-assign", "g.json"), "not-an-id",
         files={"g.json": _KIP848.replace("TiSarLlxTTgvi602tDaz1Q", "not-an-id")}),
    Case("base-server-assign-partition-beyond-count", ("server-assign", "g.json"), "7",
         files={"g.json": _KIP848.replace('"topics": ["t0"]}',
                                          '"topics": ["t0"], "assignment": [["t0", [7]]]}')}),
    Case("base-server-assign-malformed", ("server-assign", "g.json"), "g.json",
         files={"g.json": "[1, 2"}),
    Case("base-rebalance-unknown-strategy", ("rebalance", "s.json", "-s", "fair"), "fair",
         files={"s.json": _SCENARIO}),
    Case("base-rebalance-unknown-field", ("rebalance", "s.json"), "steps[0].jion",
         files={"s.json": _SCENARIO.replace('"join"', '"jion"')}),
    Case("base-rebalance-unknown-top-field", ("rebalance", "s.json"), "scenario.topcs",
         files={"s.json": _SCENARIO.replace('"topics": {"t0": 2}', '"topcs": {"t0": 2}')}),
    Case("base-rebalance-leave-unknown-member", ("rebalance", "s.json"), "'C9'",
         files={"s.json": _SCENARIO.replace("}]}]}", '}]}, {"leave": ["C9"]}]}')}),
    Case("base-rebalance-negative-count", ("rebalance", "s.json"), "-2",
         files={"s.json": _SCENARIO.replace('"t0": 2', '"t0": -2')}),
    Case("base-rebalance-malformed-toml", ("rebalance", "s.toml"), "s.toml",
         files={"s.toml": "topics = { t0 = 2\n"}),
    Case("base-rebalance-toml-shrink", ("rebalance", "s.toml"), "cannot shrink",
         files={"s.toml": 'topics = { t0 = 4 }\n[[steps]]\njoin = [{ id = "C0", topics = '
                          '["t0"] }]\n[[steps]]\nadd_partitions = { t0 = 2 }\n'}),
    Case("base-rebalance-no-steps", ("rebalance", "s.json"), "scenario.steps",
         files={"s.json": '{"topics": {"t0": 2}, "steps": []}'}),
    # -- kpart report: topology TOML and options, refused before Spark starts ---------------------
    Case("base-report-topology-negative-partitions", ("report", "--topology", "t.toml"), "-3",
         files=_topo("partitions = 6", "partitions = -3")),
    Case("base-report-topology-unknown-field", ("report", "--topology", "t.toml"),
         "topic.partition", files=_topo("partitions = 6", "partition = 6")),
    Case("base-report-topology-rf-above-brokers", ("report", "--topology", "t.toml"),
         "topic.replication_factor", files=_topo("replication_factor = 2",
                                                 "replication_factor = 4")),
    Case("base-report-topology-bad-serializer", ("report", "--topology", "t.toml"), "'float'",
         files=_topo('key = "tailnum"', 'key = "tailnum"\nkey_serializer = "float"')),
    Case("base-report-topology-bad-strategy", ("report", "--topology", "t.toml"), "'fair'",
         files=_topo('strategy = "range"', 'strategy = "fair"')),
    Case("base-report-topology-bad-topic-name", ("report", "--topology", "t.toml"), "'a/b'",
         files=_topo('name = "orders"', 'name = "a/b"')),
    Case("base-report-topology-duplicate-broker", ("report", "--topology", "t.toml"),
         "cluster.brokers[1].id", files=_topo('{ id = 1, rack = "b" }', '{ id = 0, rack = "b" }')),
    Case("base-report-topology-malformed", ("report", "--topology", "t.toml"), "invalid TOML",
         files={"t.toml": "[cluster\n"}),
    Case("base-report-topology-missing", ("report", "--topology", "none.toml"), "none.toml"),
    Case("base-report-unknown-serializer", ("report", "--serializer", "float"), "float"),
    Case("base-report-unknown-partitioner", ("report", "--partitioner", "java:nope"),
         "java:nope"),
    Case("base-report-unknown-null-keys", ("report", "--null-keys", "spread"), "spread"),
    Case("base-report-whatif-zero", ("report", "--whatif", "16,0"), "0"),
    Case("base-report-unknown-compat", ("report", "--compat", "java:default,nope"), "nope"),
    Case("base-report-missing-data", ("report", "none.parquet"), "none.parquet"),
    Case("base-report-unknown-format", ("report", "data.csv", "--format", "xlsx"), "xlsx",
         files={"data.csv": _CSV}),
    Case("base-report-missing-key-column", ("report", "data.csv", "--key", "user"), "user",
         files={"data.csv": _CSV}),
    Case("base-report-out-parent-missing",
         ("report", "data.csv", "--key", "tailnum", "--out", "nodir/report"), "nodir",
         files={"data.csv": _CSV}),
    Case("base-report-out-is-a-file",
         ("report", "data.csv", "--key", "tailnum", "--out", "data.csv"), "data.csv",
         files={"data.csv": _CSV}),
]
