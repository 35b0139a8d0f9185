"""Catalogue cases of issue 26, point 1 (ids ``share-*``): ``kpart share-assign`` on a share
group with a member subscribed to an unknown topic (a warning, as consumer groups warn), a
group on which Kafka 4.3's ``SimpleAssignor`` itself throws ``NoSuchElementException`` (an
error naming it), versions without a known share assignor (3.9: no share groups; 4.4: unreleased), a sequence asked for as a table, and bad ``assignable`` values; ``--out`` is
never written after an error."""

from __future__ import annotations

import json

from bad_inputs.case import Case
from golden_vectors import load_golden

TOPIC = {"name": "t", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 2}
GROUP = json.dumps({"topics": [TOPIC], "assignable": {"t": [0, 1]},
                    "members": [{"id": "m1", "topics": ["t"]}, {"id": "m2", "topics": ["t"]}]})
UNKNOWN_TOPIC = json.dumps({"topics": [TOPIC], "assignable": {"t": [0, 1]},
                            "members": [{"id": "m1", "topics": ["t", "ghost"]},
                                        {"id": "m2", "topics": ["t"]}]})
# Kafka 4.3 throws java.util.NoSuchElementException on this group (golden case
# share-simple-9302-32: 5 members, 2 topics).
KAFKA_FAILS = json.dumps(next(c["input"] for c in load_golden("4.3/share_assignor")
                              if c["id"] == "share-simple-9302-32"))


def _group(**changes: object) -> str:
    doc = json.loads(GROUP)
    doc.update(changes)
    return json.dumps(doc)


CASES = [
    Case(id="share-unknown-topic", names="'ghost'", expect="warning",
         files={"g.json": UNKNOWN_TOPIC}, argv=("share-assign", "g.json", "--json")),
    Case(id="share-kafka-throws", names="java.util.NoSuchElementException",
         files={"g.json": KAFKA_FAILS}, argv=("share-assign", "g.json", "-o", "out.json")),
    Case(id="share-before-4.0", names="'3.9.2'", files={"g.json": GROUP},
         argv=("share-assign", "g.json", "--kafka-version", "3.9.2", "-o", "out.json")),
    Case(id="share-4.4-unreleased", names="'4.4'", files={"g.json": GROUP},
         argv=("share-assign", "g.json", "--kafka-version", "4.4")),
    Case(id="share-sequence-case-as-table", names="--format table", files={"g.json": json.dumps(
        {"kind": "sequence", "input": {"steps": [json.loads(GROUP)]}})},
         argv=("share-assign", "g.json", "--format", "table")),
    Case(id="share-assignable-unknown-topic", names="'u'",
         files={"g.json": _group(assignable={"u": [0]})}, argv=("share-assign", "g.json")),
    Case(id="share-assignable-partition-beyond", names="partition 7",
         files={"g.json": _group(assignable={"t": [0, 7]})}, argv=("share-assign", "g.json")),
    Case(id="share-assignable-not-a-map", names="group.assignable",
         files={"g.json": _group(assignable=[0, 1])}, argv=("share-assign", "g.json")),
    Case(id="share-unknown-field", names="assignables",
         files={"g.json": _group(assignables={"t": [0]})}, argv=("share-assign", "g.json")),
]
