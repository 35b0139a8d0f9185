"""Bad-input cases of ``kpart report``'s topology options (``--topic``, ``-p/--partitions``,
``--replication-factor``, ``--brokers``, ``--racks``) and topology files: each fails before Spark
starts, with one line naming the option or field and its value."""

from __future__ import annotations

from bad_inputs.case import Case

_TOPOLOGY_NO_GROUPS = """\
[cluster]
brokers = [{ id = 0, rack = "a" }, { id = 1, rack = "b" }]

[topic]
name = "orders"
partitions = 4
replication_factor = 2
key = "tailnum"
"""


def _report(*args: str) -> tuple[str, ...]:
    return ("report", *args, "--out", "out")


CASES = [
    Case("report-partitions-zero", _report("-p", "0"), "--partitions: expected a positive "
         "integer, got 0"),
    Case("report-partitions-negative", _report("--partitions", "-3"), "got -3"),
    Case("report-partitions-not-int", _report("--partitions", "twelve"), "'twelve'"),
    Case("report-partitions-float", _report("-p", "1.5"), "'1.5'"),
    Case("report-partitions-above-limit", _report("-p", "1000000000"),
         "--partitions: 1000000000"),
    Case("report-rf-above-kafka-limit", _report("--replication-factor", "40000"),
         "--replication-factor: 40000"),
    Case("report-rf-zero", _report("--replication-factor", "0"), "--replication-factor"),
    Case("report-rf-above-brokers", _report("--replication-factor", "7"),
         "--replication-factor: 7 is larger than the number of brokers (6)"),
    Case("report-rf-above-given-brokers",
         _report("--replication-factor", "4", "--brokers", "0,1,2"),
         "--replication-factor: 4 is larger than the number of brokers (3)"),
    Case("report-brokers-below-topology-rf", _report("--brokers", "0,1"), "--brokers '0,1'"),
    Case("report-brokers-not-int", _report("--brokers", "0,one,2"), "'one'"),
    Case("report-brokers-negative", _report("--brokers", "0,-1"), "'-1'"),
    Case("report-brokers-empty", _report("--brokers", ""), "--brokers"),
    Case("report-brokers-duplicate", _report("--brokers", "3,4,3"), "Duplicate broker id 3"),
    Case("report-racks-count-mismatch", _report("--brokers", "0,1,2", "--racks", "a,b"),
         "--racks 'a,b'"),
    Case("report-racks-partial", _report("--brokers", "0,1,2", "--racks", "a,,b"),
         "--racks 'a,,b'"),
    Case("report-racks-without-brokers", _report("--racks", "a,b,c"), "--racks 'a,b,c'"),
    Case("report-topic-illegal", _report("--topic", "my topic"), "'my topic'"),
    Case("report-topic-empty", _report("--topic", ""), "--topic"),
    Case("report-topic-dot", _report("--topic", ".."), "'..'"),
    Case("report-topic-too-long", _report("--topic", "t" * 250), "--topic"),
    Case("report-topology-no-groups-bad-rf", _report("--topology", "t.toml",
                                                     "--replication-factor", "3"),
         "--replication-factor: 3 is larger than the number of brokers (2)",
         files={"t.toml": _TOPOLOGY_NO_GROUPS}),
    Case("report-topology-groups-not-tables", _report("--topology", "t.toml"),
         "groups: expected [[groups]] tables",
         files={"t.toml": _TOPOLOGY_NO_GROUPS.replace("[cluster]", 'groups = "g"\n[cluster]')}),
]
