"""The ``groups`` section of cluster.json: reader, writer, errors naming the field, and the
shipped example of docs/snapshot.md."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from kpart.cluster.cluster_json import (
    cluster_from_json,
    cluster_to_json,
    groups_from_json,
    groups_to_json,
)
from kpart.cluster.groups import ConsumerGroup, GroupMember, group_spec_json
from kpart.consumer.spec import GroupSpec
from kpart.errors import ConfigError

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "snapshot" / "cluster-snapshot.json"


def _doc() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(EXAMPLE.read_text())
    return doc


def test_the_example_loads_and_round_trips() -> None:
    doc = _doc()
    model = cluster_from_json(doc)
    groups = groups_from_json(doc)
    assert groups is not None and groups[0].group_id == "billing"
    assert [m.group_instance_id for m in groups[0].members] == ["billing-0", "billing-1",
                                                                  "billing-2"]
    again = cluster_to_json(model, groups)
    assert again["groups"] == doc["groups"]
    assert cluster_from_json(again).num_partitions == 4


def test_absent_null_and_empty_groups() -> None:
    doc = _doc()
    assert groups_from_json({**doc, "groups": []}) == ()
    assert groups_from_json({**doc, "groups": None}) is None
    doc.pop("groups")
    assert groups_from_json(doc) is None
    assert "groups" not in cluster_to_json(cluster_from_json(doc))


@pytest.mark.parametrize(("path", "value", "message"), [
    (("groups",), {}, "cluster.groups: expected a list or null"),
    (("groups", 0, "group_id"), "", "cluster.groups[0].group_id: expected a non-empty string"),
    (("groups", 0, "simple"), "no", "cluster.groups[0].simple: expected true or false"),
    (("groups", 0, "coordinator"), -2, "cluster.groups[0].coordinator: expected an integer"),
    (("groups", 0, "members", 1, "host"), 7, "cluster.groups[0].members[1].host: expected a"),
    (("groups", 0, "members", 2, "assignment"), [["orders", 3]],
     r"cluster.groups\[0\].members\[2\].assignment\[0\]: expected \[topic, \[partitions\]\]"),
    (("groups", 0, "members", 0, "rak"), "a", r"members\[0\].rak: unknown field"),
])
def test_bad_group_fields_are_named(path: tuple[Any, ...], value: Any, message: str) -> None:
    doc = copy.deepcopy(_doc())
    target: Any = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(ConfigError, match=message if "\\[" in message else re.escape(message)):
        cluster_from_json(doc)


def test_a_group_listed_twice() -> None:
    doc = _doc()
    doc["groups"] = doc["groups"] * 2
    with pytest.raises(ConfigError, match=r"groups\[1\].group_id: group 'billing' is listed"):
        groups_from_json(doc)


def test_group_spec_of_members_without_partitions() -> None:
    g = ConsumerGroup("g", members=(GroupMember("a", assignment=(("t", (0, 1)), ("u", (0,)))),
                                    GroupMember("b")))
    doc = group_spec_json(g, {"t": 2, "u": 1, "other": 5})
    assert doc["topics"] == {"t": 2, "u": 1}
    assert [m["topics"] for m in doc["members"]] == [["t", "u"], ["t", "u"]]
    assert GroupSpec.from_json(doc).num_partitions("u") == 1
    with pytest.raises(ConfigError, match="topic 'u', which the snapshot does not list"):
        group_spec_json(g, {"t": 2})


def test_writer_keeps_member_order_and_fields() -> None:
    g = ConsumerGroup("g", "consumer", "STABLE", "uniform", False, 3, (
        GroupMember("z", "i-z", "c", "/h", "r1", (("t", (2,)),)), GroupMember("a")))
    out = groups_to_json([g])
    assert [m["member_id"] for m in out[0]["members"]] == ["z", "a"]
    assert groups_from_json({"groups": out}) == (g,)
