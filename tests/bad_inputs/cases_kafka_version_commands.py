"""Catalogue cases of ``--kafka-version`` on the commands that took it last (ids
``kv-command-*``): an unparseable or unknown version is refused in one line naming it, before
any file is read or written; a Java client version with another client's partitioner too."""

from __future__ import annotations

from bad_inputs.case import Case

DESCRIBE = """Topic: t\tTopicId: AAAAAAAAAAAAAAAAAAAAAA\tPartitionCount: 1\tReplicationFactor: 1\tConfigs:
\tTopic: t\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1
"""

CASES = [
    Case(id="kv-command-partitioners", names="'4.x'",
         argv=("partitioners", "--kafka-version", "4.x")),
    Case(id="kv-command-compat", names="'9.9'",
         argv=("compat", "--keys", "a,b", "-p", "3", "--kafka-version", "9.9")),
    Case(id="kv-command-whatif", names="'04.1'",
         argv=("whatif", "--keys", "a,b", "-p", "3", "--to", "4", "--kafka-version", "04.1")),
    Case(id="kv-command-whatif-other-client", names="'sarama:hash'",
         argv=("whatif", "--keys", "a,b", "-p", "3", "--to", "4", "--partitioner",
               "sarama:hash", "--kafka-version", "3.6")),
    Case(id="kv-command-describe", names="'4.3.0.0'",
         argv=("describe", "--current", "d.txt", "--kafka-version", "4.3.0.0"),
         files={"d.txt": DESCRIBE}),
    Case(id="kv-command-cluster", names="'5.0'",
         argv=("cluster", "--current", "d.txt", "--out", "c.json", "--kafka-version", "5.0"),
         files={"d.txt": DESCRIBE}),
    Case(id="kv-command-snapshot", names="'x'",
         argv=("snapshot", "--bootstrap-server", "127.0.0.1:1", "--out", "c.json",
               "--kafka-version", "x")),
    Case(id="kv-command-snapshot-group", names="'0.9'",
         argv=("snapshot-group", "c.json", "g", "--kafka-version", "0.9"),
         files={"c.json": "{}"}),
]
