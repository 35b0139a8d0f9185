"""Catalogue cases of issue 26, point 2 (ids ``streams-*``): ``kpart streams-assign`` on bad
Streams groups: members of one process on different racks (conflicting state), a duplicate
member id, a negative partition, a sequence with no steps or asked for as a table, task offsets (Kafka 4.4),
versions without the assignor (before 4.1), not modelled (4.1) or unknown; and a current task
beyond its subtopology's task count, which is a warning (Kafka ignores stale tasks, as kpart
warns of an owned partition beyond a topic's count in consumer groups)."""

from __future__ import annotations

import json
from typing import Any

from bad_inputs.case import Case

SUBS = [{"id": "0", "tasks": 4, "stateful": True}]


def _group(*members: dict[str, Any], **extra: Any) -> str:
    return json.dumps({"subtopologies": SUBS, "num_standby_replicas": 1,
                       "members": list(members), **extra})


A = {"id": "a", "process_id": "p1", "active": {"0": [0, 1]}, "standby": {}}
B = {"id": "b", "process_id": "p2", "active": {}, "standby": {}}


def _case(cid: str, names: str, group: str, *extra: str) -> Case:
    return Case(id=f"streams-{cid}", argv=("streams-assign", "group.json", "--json", *extra),
                names=names, files={"group.json": group})


def _loads(text: str) -> object:
    return json.loads(text)


CASES = [
    _case("process-racks", "'p1'", _group(
        {**A, "rack": "r1"}, {**B, "process_id": "p1", "rack": "r2"}), "-o", "out.json"),
    _case("duplicate-member", "'a'", _group(A, {**B, "id": "a"})),
    _case("negative-partition", "0_-1", _group({**A, "standby": {"0": [-1]}}, B)),
    _case("negative-tasks", "-2", json.dumps({"subtopologies": [{"id": "0", "tasks": -2}],
                                                "num_standby_replicas": 0, "members": [B]})),
    _case("sequence-no-steps", "steps", json.dumps({"kind": "sequence", "input": {"steps": []}})),
    Case(id="streams-sequence-as-table", names="add --json",
         argv=("streams-assign", "group.json"),
         files={"group.json": json.dumps({"steps": [_loads(_group(A, B))]})}),
    _case("task-offsets", "'a'", _group({**A, "task_offsets": {"0_0": 5}}, B)),
    _case("before-4.1", "'4.0.1'", _group(A, B), "--kafka-version", "4.0.1"),
    _case("not-modelled-4.1", "'4.1'", _group(A, B), "--kafka-version", "4.1", "-o", "o.json"),
    _case("unknown-version", "'4.9'", _group(A, B), "--kafka-version", "4.9"),
    Case(id="streams-task-beyond-count", expect="warning", names="0_7",
         argv=("streams-assign", "group.json", "--json"),
         files={"group.json": _group({**A, "active": {"0": [0, 7]}}, B)}),
]
