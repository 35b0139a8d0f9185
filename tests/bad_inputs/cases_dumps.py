"""Catalogue cases for ``kafka-topics.sh --describe`` dumps and ``kafka-reassign-partitions.sh``
transcripts (issue 24, points 3, 4(d) and 9): partial dumps refused unless ``--partial``, a
transcript without its current assignment, a transcript given to ``kpart outage``, a broker
absent from the cluster leading a partition, a reassignment in progress named, a broker absent
from the cluster taken as down. Ids start with ``dumps-``."""

from __future__ import annotations

from bad_inputs.case import Case

HEADER = "Topic: t\tPartitionCount: {n}\tReplicationFactor: 2\tConfigs: \n"
LINE = "\tTopic: t\tPartition: {p}\tLeader: {ld}\tReplicas: {r}\tIsr: {i}\n"
UNDER_REPLICATED = LINE.format(p=1, ld=2, r="2,3", i="2")
MISSING = (HEADER.format(n=3) + LINE.format(p=0, ld=1, r="1,2", i="1,2")
           + LINE.format(p=1, ld=2, r="2,3", i="2,3"))
PROPOSED = ('Proposed partition reassignment configuration\n{"version":1,"partitions":'
            '[{"topic":"t","partition":0,"replicas":[3,1],"log_dirs":["any","any"]}]}\n')
GENERATED = ('Current partition replica assignment\n{"version":1,"partitions":[{"topic":"t",'
             '"partition":0,"replicas":[1,2],"log_dirs":["any","any"]}]}\n\n' + PROPOSED)
REASSIGNING = (HEADER.format(n=2) + LINE.format(p=0, ld=1, r="1,2", i="1,2")
               + "\tTopic: t\tPartition: 1\tLeader: 2\tReplicas: 3,2,1\tIsr: 2,1\t"
                 "Adding Replicas: 3\tRemoving Replicas: 1\n")
LEADERLESS = (HEADER.format(n=2) + LINE.format(p=0, ld=1, r="1,2", i="1,2")
              + LINE.format(p=1, ld="none", r="6,1", i="6"))
ABSENT_LEADER = HEADER.format(n=1) + LINE.format(p=0, ld=6, r="6,1", i="6,1")

_COMMANDS = {
    "outage": ("outage", "--current", "dump.txt", "--down", "2"),
    "plan": ("plan", "--current", "dump.txt", "--add-brokers", "4"),
    "plan-load": ("plan", "--current", "dump.txt", "--goals", "ReplicaDistributionGoal"),
    "describe": ("describe", "--current", "dump.txt"),
    "pools": ("pools", "--current", "dump.txt", "--pools", "pools.json"),
    "cluster": ("cluster", "--current", "dump.txt"),
}
_POOLS = '{"pools": {"all": [1, 2, 3]}, "topics": {"t": "all"}}'


def _partial() -> list[Case]:
    out = []
    for name, argv in _COMMANDS.items():
        for kind, text, names in (("no-header", UNDER_REPLICATED, "no header line"),
                                  ("short", MISSING, "partition t-2 is missing")):
            out.append(Case(id=f"dumps-{name}-partial-{kind}", argv=argv, names=names,
                            files={"dump.txt": text, "pools.json": _POOLS}))
    return out


CASES = [
    *_partial(),
    Case(id="dumps-plan-proposed-only", argv=_COMMANDS["plan"],
         names="Current partition replica assignment", files={"dump.txt": PROPOSED}),
    Case(id="dumps-describe-proposed-only", argv=_COMMANDS["describe"],
         names="Current partition replica assignment", files={"dump.txt": PROPOSED}),
    Case(id="dumps-outage-transcript", argv=_COMMANDS["outage"],
         names="transcript holds no leader or ISR", files={"dump.txt": GENERATED}),
    Case(id="dumps-outage-absent-leader",
         argv=("outage", "--current", "dump.txt", "--brokers", "1", "--down", "1"),
         names="broker 6, the leader of partition t-0", files={"dump.txt": ABSENT_LEADER}),
    Case(id="dumps-outage-partial-with-snapshot",
         argv=("outage", "--snapshot", "cluster.json", "--down", "1", "--partial"),
         names="--partial goes with --current", files={"cluster.json": "{}"}),
    # warnings: read, and said so
    Case(id="dumps-warn-plan-reassigning", argv=("plan", "--current", "dump.txt",
                                                 "--add-brokers", "4"),
         names="partition t-1 is being reassigned", expect="warning",
         files={"dump.txt": REASSIGNING}),
    Case(id="dumps-warn-outage-reassigning", argv=("outage", "--current", "dump.txt",
                                                   "--down", "1"),
         names="partition t-1 is being reassigned", expect="warning",
         files={"dump.txt": REASSIGNING}),
    Case(id="dumps-warn-outage-absent-broker",
         argv=("outage", "--current", "dump.txt", "--brokers", "1:a,2:b", "--down", "1"),
         names="broker 6 of the assignment is not one of the cluster's brokers",
         expect="warning", files={"dump.txt": LEADERLESS}),
    Case(id="dumps-warn-describe-partial", argv=("describe", "--current", "dump.txt",
                                                 "--partial"),
         names="PartitionCount 3 but 2", expect="warning", files={"dump.txt": MISSING}),
]
