"""Group JSON files: a misspelled field is an error, input Kafka accepts but that is probably a
mistake is a :class:`KpartWarning` (issue 10, point 11). The result stays Kafka's."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path
from typing import Any

import pytest

from kpart.cli import main
from kpart.consumer import assign
from kpart.consumer.coordinator.server_spec import ServerGroupSpec
from kpart.consumer.spec import GroupSpec, Member, Topic
from kpart.errors import ConfigError, KpartWarning

GOOD: dict[str, Any] = {
    "topics": {"t0": 3},
    "partition_racks": {"t0": [["a"], ["b"], ["a"]]},
    "members": [
        {"id": "C0", "topics": ["t0"], "rack": "a", "instance_id": None, "generation": 1,
         "owned": [["t0", [0]]], "has_user_data": True, "user_data_hex": None},
        {"id": "C1", "topics": ["t0"]},
    ],
}

SERVER_GOOD: dict[str, Any] = {
    "topics": [{"name": "t0", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 3}],
    "members": [{"id": "m1", "topics": ["t0"], "instance_id": None, "rack": None,
                 "assignment": [["t0", [2, 0]]]}],
}


def _with(doc: dict[str, Any], path: tuple[Any, ...], key: str, value: Any) -> dict[str, Any]:
    """A deep copy of ``doc`` with ``key: value`` added to the object at ``path``."""
    doc = json.loads(json.dumps(doc))
    target = doc
    for p in path:
        target = target[p]
    target[key] = value
    return doc


def test_every_known_field_is_accepted_without_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        GroupSpec.from_json(GOOD)
        ServerGroupSpec.from_json(SERVER_GOOD)


@pytest.mark.parametrize(("path", "field", "where"), [
    ((), "memebrs", "group.memebrs"),
    ((), "partition_rack", "group.partition_rack"),
    (("members", 0), "rak", "group.members[0].rak"),
    (("members", 1), "owned_partitions", "group.members[1].owned_partitions"),
    (("members", 1), "generaton", "group.members[1].generaton"),
])
def test_a_misspelled_group_field_is_an_error(path: tuple[Any, ...], field: str,
                                              where: str) -> None:
    with pytest.raises(ConfigError, match=f"^{re.escape(where)}: unknown field"):
        GroupSpec.from_json(_with(GOOD, path, field, "a"))


@pytest.mark.parametrize(("path", "field", "where"), [
    ((), "member", "group.member"),
    (("topics", 0), "partition", "group.topics[0].partition"),
    (("members", 0), "rak", "group.members[0].rak"),
    (("members", 0), "assignments", "group.members[0].assignments"),
])
def test_a_misspelled_kip848_group_field_is_an_error(path: tuple[Any, ...], field: str,
                                                     where: str) -> None:
    with pytest.raises(ConfigError, match=f"^{re.escape(where)}: unknown field"):
        ServerGroupSpec.from_json(_with(SERVER_GOOD, path, field, "a"))


def test_a_misspelled_required_topic_field_is_named() -> None:
    doc = json.loads(json.dumps(SERVER_GOOD))
    doc["topics"][0]["partitons"] = doc["topics"][0].pop("partitions")
    with pytest.raises(ConfigError, match="partitons"):
        ServerGroupSpec.from_json(doc)


UNUSUAL = [
    ({"topics": {"t0": 2}, "members": [{"id": "C0", "topics": ["t0", "t9"]}]},
     "subscribes to topic 't9'"),
    ({"topics": {"t0": 2}, "members": [{"id": "C0", "topics": ["t0"], "owned": [["t0", [5]]]}]},
     "owns partition t0-5"),
    ({"topics": {"t0": 2}, "members": [{"id": "C0", "topics": ["t0"], "generation": -7}]},
     "negative generation -7"),
]
# A topic deleted since the member got it: Kafka's input too (its sticky assignors drop the
# partitions; golden vectors have such members), a warning for library users; ``kpart assign``
# refuses it (test_consumer_cli.py), as ``unknown_owned="error"`` does.
OWNED_UNKNOWN = {"topics": {"t0": 2},
                 "members": [{"id": "C0", "topics": ["t0"], "owned": [["t9", [0]]]},
                             {"id": "C1", "topics": ["t0"]}]}


def test_owned_partitions_of_an_unknown_topic_warn_and_the_result_is_kafkas() -> None:
    with pytest.warns(KpartWarning, match="owns partitions of topic 't9'") as caught:
        group = GroupSpec.from_json(OWNED_UNKNOWN)
    assert len(caught) == 1
    assert group.members[0].owned_partitions == (("t9", (0,)),)
    for strategy in ("range", "roundrobin", "sticky", "cooperative-sticky"):
        assert sum(assign(group, strategy).partition_counts().values()) == 2


def test_owned_partitions_of_an_unknown_topic_can_be_refused() -> None:
    with pytest.raises(ConfigError, match=re.escape(
            "group.members[0].owned[0]: owned partition of an unknown topic 't9'")):
        GroupSpec.from_json(OWNED_UNKNOWN, unknown_owned="error")


@pytest.mark.parametrize(("doc", "named"), UNUSUAL)
def test_unusual_input_warns_and_the_result_is_kafkas(doc: dict[str, Any], named: str) -> None:
    with pytest.warns(KpartWarning, match=named) as caught:
        group = GroupSpec.from_json(doc)
    assert len(caught) == 1
    # the group is exactly what the value types build, so every assignor gives Kafka's result
    m = doc["members"][0]
    want = GroupSpec(
        tuple(Topic(t, n) for t, n in doc["topics"].items()),
        (Member(m["id"], tuple(m["topics"]), generation=m.get("generation", -1),
                owned_partitions=tuple((t, tuple(ps)) for t, ps in m.get("owned", []))),),
    )
    assert group == want
    for strategy in ("range", "roundrobin", "sticky", "cooperative-sticky"):
        assert assign(group, strategy) == assign(want, strategy)


def test_generation_minus_one_is_kafkas_default_and_does_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        GroupSpec.from_json({"topics": {"t0": 1},
                             "members": [{"id": "C0", "topics": ["t0"], "generation": -1}]})


@pytest.mark.parametrize(("doc", "named"), UNUSUAL)
def test_library_users_can_silence_the_warnings(doc: dict[str, Any], named: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", category=KpartWarning)
        GroupSpec.from_json(doc)
    assert caught == []


@pytest.mark.parametrize(("doc", "named"), UNUSUAL)
def test_the_warning_points_at_the_callers_line(doc: dict[str, Any], named: str) -> None:
    with pytest.warns(KpartWarning) as caught:
        GroupSpec.from_json(doc)
    assert caught[0].filename == __file__


@pytest.mark.parametrize(("doc", "named"), UNUSUAL)
def test_cli_assign_prints_one_warning_line_and_the_assignment(
    doc: dict[str, Any], named: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "group.json"
    path.write_text(json.dumps(doc))
    assert main(["assign", str(path), "--strategy", "range"]) == 0
    out = capsys.readouterr()
    assert [line for line in out.err.splitlines() if line] == [
        line for line in out.err.splitlines() if line.startswith("kpart: warning: ")]
    assert named in out.err and len(out.err.splitlines()) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", KpartWarning)
        want = assign(GroupSpec.from_json(doc), "range").to_json()
    assert json.loads(out.out) == want


def test_cli_assign_refuses_a_misspelled_field(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "group.json"
    path.write_text(json.dumps(_with(GOOD, ("members", 0), "rak", "a")))
    assert main(["assign", str(path)]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.strip().splitlines() == [
        f"kpart: error: {path}: group.members[0].rak: unknown field (expected one of id, "
        "topics, rack, instance_id, generation, owned, has_user_data, user_data_hex)"]


def test_kip848_member_subscribed_to_an_unlisted_topic_warns() -> None:
    doc = _with(SERVER_GOOD, ("members", 0), "topics", ["t0", "gone"])
    with pytest.warns(KpartWarning, match="subscribes to topic 'gone'") as caught:
        group = ServerGroupSpec.from_json(doc)
    assert len(caught) == 1 and caught[0].filename == __file__
    assert group.members[0].topics == ("t0", "gone")  # kept: the coordinator skips it itself
