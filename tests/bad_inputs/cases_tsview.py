"""Bad-input cases of the producer view over time (issue 24, point 2): ``kpart report DATA
--key K --timestamp TS`` without ``--brokers``, or a ``[topic]`` with a ``timestamp`` and no
``[cluster]``. It runs without brokers, but what it cannot honour is refused before Spark
starts, in one line: a missing timestamp column, a capacity or an existing cluster
(``--current``) for brokers it does not have, a replication factor or a placer with nothing to
place on."""

from __future__ import annotations

from bad_inputs.case import Case

_EVENTS = {"events.csv": "user_id,amount,ts\nu1,3,2024-05-01T10:00:00Z\n"}
_TOPIC = ('[topic]\nname = "events"\npartitions = 3\nkey = "user_id"\ndata = "events.csv"\n'
          'timestamp = "ts"\n')


def _report(*args: str) -> tuple[str, ...]:
    return ("report", *args, "--out", "out")


CASES = [
    Case("tsview-timestamp-column-missing",
         _report("events.csv", "--key", "user_id", "--timestamp", "when"),
         "column 'when' not found in 'events.csv'",
         files=_EVENTS),
    Case("tsview-capacity-without-brokers",
         _report("events.csv", "--key", "user_id", "--timestamp", "ts", "--capacity",
                 "capacity.json"), "--capacity 'capacity.json'",
         files={**_EVENTS, "capacity.json": '{"brokerCapacities": []}'}),
    Case("tsview-topology-capacity-without-cluster",
         _report("--topology", "t.toml", "--capacity", "capacity.json"), "--capacity",
         files={**_EVENTS, "t.toml": _TOPIC, "capacity.json": '{"brokerCapacities": []}'}),
    Case("tsview-current-without-brokers",
         _report("events.csv", "--key", "user_id", "--timestamp", "ts", "--current", "d.txt"),
         "--current 'd.txt'",
         files={**_EVENTS, "d.txt": "Topic: events\tPartitionCount: 1\tReplicationFactor: 1\n"
                "\tTopic: events\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\n"}),
    Case("tsview-topology-replication-factor-without-cluster",
         _report("--topology", "t.toml"), "replication_factor",
         files={**_EVENTS, "t.toml": _TOPIC + "replication_factor = 2\n"}),
    Case("tsview-topology-placer-without-cluster", _report("--topology", "t.toml"), "placer",
         files={**_EVENTS, "t.toml": 'placer = "kraft"\n' + _TOPIC}),
    Case("tsview-timestamp-with-whatif",
         _report("events.csv", "--key", "user_id", "--timestamp", "ts", "--whatif", "6"),
         "--whatif", files=_EVENTS),
]
