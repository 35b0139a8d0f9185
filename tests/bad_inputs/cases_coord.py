"""Catalogue cases of issue 26, point 3 (ids ``coord-*``): ``kpart coordinator`` with a
partition count below 1 or beyond a Java int, empty ids, bad or zero topic ids, a partition out
of range, half-given share keys, a version without the feature, a bad snapshot; and the warning
when ``--partitions`` contradicts the snapshot's internal topic."""

from __future__ import annotations

import json

from bad_inputs.case import Case

TOPIC_ID = "TiSarLlxTTgvi602tDaz1Q"
SNAPSHOT = json.dumps({
    "format": "kpart-cluster", "version": 1, "brokers": [{"id": 1}, {"id": 2}],
    "topics": [{"name": "__consumer_offsets", "partitions": [
        {"partition": p, "replicas": [1 + p % 2], "leader": 1 + p % 2} for p in range(4)]}],
})


def _case(cid: str, names: str, *argv: str, **kw: object) -> Case:
    return Case(id=f"coord-{cid}", argv=("coordinator", *argv), names=names, **kw)  # type: ignore[arg-type]


CASES = [
    _case("partitions-zero", "--partitions 0", "--group", "g", "--partitions", "0"),
    _case("partitions-negative", "--partitions -3", "--transactional-id", "t",
          "--partitions", "-3"),
    _case("partitions-beyond-int", "--partitions 2147483648", "--group", "g",
          "--partitions", "2147483648"),
    _case("partitions-text", "'many'", "--group", "g", "--partitions", "many"),
    _case("group-empty", "''", "--group", ""),
    _case("transactional-id-empty", "''", "--transactional-id", ""),
    _case("share-group-empty", "''", "--share-group", "", "--topic-id", TOPIC_ID,
          "--partition", "0"),
    _case("topic-id-bad", "'not-a-uuid'", "--share-group", "g", "--topic-id", "not-a-uuid",
          "--partition", "0"),
    _case("topic-id-too-long", repr("A" * 30), "--remote-log-metadata", "--topic-id", "A" * 30,
          "--partition", "0"),
    _case("topic-id-zero", "'AAAAAAAAAAAAAAAAAAAAAA'", "--share-group", "g", "--topic-id",
          "AAAAAAAAAAAAAAAAAAAAAA", "--partition", "0"),
    _case("partition-negative", "--partition -1", "--remote-log-metadata", "--topic-id",
          TOPIC_ID, "--partition", "-1"),
    _case("partition-without-topic-id", "--topic-id", "--share-group", "g", "--partition", "0"),
    _case("topic-id-without-kind", "--share-group", "--topic-id", TOPIC_ID, "--partition", "0"),
    _case("rlmm-without-topic-id", "--remote-log-metadata", "--remote-log-metadata"),
    _case("nothing", "Nothing to locate"),
    _case("share-before-4.0", "'3.9.2'", "--share-group", "g", "--topic-id", TOPIC_ID,
          "--partition", "0", "--kafka-version", "3.9.2"),
    _case("transactions-before-0.11", "'0.10.2.1'", "--transactional-id", "t",
          "--kafka-version", "0.10.2.1"),
    _case("tiered-before-3.6", "'3.5'", "--remote-log-metadata", "--topic-id", TOPIC_ID,
          "--partition", "0", "--kafka-version", "3.5"),
    _case("snapshot-missing", "missing.json", "--group", "g", "--snapshot", "missing.json"),
    _case("snapshot-not-json", "--snapshot", "--group", "g", "--snapshot", "c.json",
          files={"c.json": "{nope"}),
    _case("partitions-vs-snapshot", "--partitions 50", "--group", "g", "--partitions", "50",
          "--snapshot", "c.json", files={"c.json": SNAPSHOT}, expect="warning"),
]
