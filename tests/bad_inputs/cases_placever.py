"""Catalogue cases of issue 25's placement rows (ids ``placever-*``): ``--kafka-version`` on
``kpart place``/``plan``/``pools``, the striped placer before 3.0, ``--cordoned`` before 4.3,
on the AdminUtils placer, with a broker that is not in the cluster, and CreateTopics asking
for more replicas than usable brokers (Kafka 4.3's ``InvalidReplicationFactorException``)."""

from __future__ import annotations

from bad_inputs.case import Case

_PLACE = ("place", "--brokers", "0,1,2,3", "--partitions", "3", "--replication-factor", "3")
_STRIPED = (*_PLACE, "--placer", "striped")
_DESCRIBE = """Topic: t\tPartitionCount: 2\tReplicationFactor: 2\tConfigs:
\tTopic: t\tPartition: 0\tLeader: 0\tReplicas: 0,1\tIsr: 0,1
\tTopic: t\tPartition: 1\tLeader: 1\tReplicas: 1,2\tIsr: 1,2
"""
_POOLS = '{"pools": {"p": [0, 1, 2]}, "topics": {"t": "p"}}'
_PLAN = ("plan", "--current", "cur.txt", "--add-brokers", "3", "-o", "plan.json")

CASES: list[Case] = [
    *(Case(id=f"placever-place-version-{v}", argv=(*_STRIPED, "--kafka-version", v), names=v)
      for v in ("4.x", "04.1", "4.3.0.0", "5.0", "4.0.9")),
    Case(id="placever-striped-before-3.0", argv=(*_STRIPED, "--kafka-version", "2.8.2"),
         names="'2.8.2'"),
    Case(id="placever-adminutils-after-4.0", argv=(*_PLACE, "--kafka-version", "4.3"),
         names="'4.3'"),
    Case(id="placever-cordoned-before-4.3",
         argv=(*_STRIPED, "--cordoned", "3", "--kafka-version", "4.2.1"), names="'4.2.1'"),
    Case(id="placever-cordoned-adminutils", argv=(*_PLACE, "--cordoned", "3"), names="'3'"),
    Case(id="placever-cordoned-unknown-broker", argv=(*_STRIPED, "--cordoned", "7"),
         names="7"),
    Case(id="placever-cordoned-not-ids", argv=(*_STRIPED, "--cordoned", "3,b"), names="'b'"),
    Case(id="placever-cordoned-twice", argv=(*_STRIPED, "--cordoned", "3,3"), names="3"),
    Case(id="placever-cordoned-too-few-usable", argv=(*_STRIPED, "--cordoned", "1,3"),
         names="only 2 broker(s) are registered or some brokers have all their log "
               "directories cordoned"),
    Case(id="placever-plan-version", argv=(*_PLAN, "--kafka-version", "4.x"),
         files={"cur.txt": _DESCRIBE}, names="'4.x'"),
    Case(id="placever-plan-cordoned-before-4.3",
         argv=(*_PLAN, "--cordoned", "2", "--kafka-version", "4.1"),
         files={"cur.txt": _DESCRIBE}, names="'4.1'"),
    Case(id="placever-plan-cordoned-unknown", argv=(*_PLAN, "--cordoned", "9"),
         files={"cur.txt": _DESCRIBE}, names="9"),
    Case(id="placever-pools-version",
         argv=("pools", "--current", "cur.txt", "--pools", "pools.json", "--strategy",
               "generate", "--kafka-version", "0.9.0.1", "-o", "plan.json"),
         files={"cur.txt": _DESCRIBE, "pools.json": _POOLS}, names="'0.9.0.1'"),
]
