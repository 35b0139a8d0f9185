"""Rebalance scenarios: a consumer group's history as steps of events (JSON or TOML).

A scenario document::

    name = "C1 leaves"                       # optional
    strategies = ["range", "sticky"]          # optional (the CLI's --strategy wins)
    topics = { t0 = 2, t1 = 2 }               # initial metadata: topic -> partition count
    [partition_racks]                         # optional: racks of each partition's replicas
    t0 = [["a", "b"], ["b", "c"]]
    [topic_ids]                               # optional: KIP-848 topic ids (base64 Uuid);
    t0 = "TiSarLlxTTgvi602tDaz1Q"             # default: derived from the name

    [[steps]]                                 # step 0: three consumers join
    join = [{ id = "C0", topics = ["t0", "t1"], rack = "a" },
            { id = "C1", topics = ["t0", "t1"], instance_id = "i1" },
            { id = "C2", topics = ["t0", "t1"] }]
    [[steps]]
    name = "C1 leaves"
    leave = ["C1"]

The same structure in JSON (``{"topics": {...}, "steps": [{"join": [...]}, ...]}``). Each
step applies its events to the previous step's state, in this order, then the group
rebalances:

- ``delete_topics = [topic]``; ``create_topics = {topic = n}``;
- ``add_partitions = {topic = new_total}`` (Kafka only grows a topic);
- ``partition_racks = {topic = [[rack, ...] per partition]}`` (replaces a topic's racks);
- ``leave = [id]`` (clean ``LeaveGroup``), ``crash = [id]`` (session timeout; the same
  group change, reported separately);
- ``subscribe = {id = [topics]}`` (a member changes its subscription);
- ``join = [{id, topics, rack?, instance_id?}]`` (new members, appended in order).

A step may instead give the whole membership, like the golden sequence vectors:
``{"topics": {...}, "partition_racks"?: {...}, "members": [{id, topics, rack?, instance_id?}]}``.
Members are kept in join order: the first is the longest-standing member, the leader.

Errors: :class:`~kpart.errors.ConfigError` naming the step and the field
(``steps[2].leave: unknown member 'C9'``).

>>> sc = as_scenario({"topics": {"t0": 2}, "steps": [
...     {"join": [{"id": "C0", "topics": ["t0"]}, {"id": "C1", "topics": ["t0"]}]},
...     {"leave": ["C0"], "add_partitions": {"t0": 4}}]})
>>> [m.member_id for m in sc.groups[1].members], sc.groups[1].num_partitions("t0")
(['C1'], 4)
>>> sc.changes[1].describe()
'leave C0; t0: 2→4 partitions'
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kpart.consumer.spec import GroupSpec, Member, Topic
from kpart.errors import ConfigError, KpartError, Param

__all__ = ["Scenario", "StepChange", "as_scenario", "load_scenario", "parse_scenario"]

_SCENARIO_KEYS = ("name", "strategies", "topics", "partition_racks", "topic_ids",
                  "assignment_interval_ms", "steps")
_EVENT_KEYS = (
    "name",
    "delete_topics",
    "create_topics",
    "add_partitions",
    "partition_racks",
    "leave",
    "crash",
    "subscribe",
    "join",
    "at_ms",
)
_ABSOLUTE_KEYS = ("name", "topics", "partition_racks", "members", "at_ms")
_MEMBER_KEYS = ("id", "topics", "rack", "instance_id", "generation", "owned", "has_user_data")


@dataclass(frozen=True, slots=True)
class StepChange:
    """What happened in a step (for reports): member ids and topic changes (``topics``: one
    note per change; ``deleted``/``created``: topic names, in that order within the step)."""

    name: str | None = None
    joined: tuple[str, ...] = ()
    left: tuple[str, ...] = ()
    crashed: tuple[str, ...] = ()
    resubscribed: tuple[str, ...] = ()
    topics: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    created: tuple[str, ...] = ()

    def describe(self) -> str:
        """One line, e.g. ``'join C0, C1; t0: 2→4 partitions'``."""
        parts = []
        for verb, ids in (
            ("join", self.joined),
            ("leave", self.left),
            ("crash", self.crashed),
            ("resubscribe", self.resubscribed),
        ):
            if ids:
                parts.append(f"{verb} {', '.join(ids)}")
        parts.extend(self.topics)
        text = "; ".join(parts) or "no change"
        return f"{self.name}: {text}" if self.name else text


@dataclass(frozen=True, slots=True)
class Scenario:
    """Resolved scenario: the absolute group of every step and what changed in it."""

    groups: tuple[GroupSpec, ...]
    changes: tuple[StepChange, ...]
    strategies: tuple[str, ...] = ()
    name: str | None = None
    topic_ids: dict[str, str] = field(default_factory=dict, compare=False)
    #: When each step happens (``at_ms`` of every step, ms, non-decreasing), or ``None``:
    #: steps far enough apart that each gets its own target (KIP-1263 batches nothing).
    times: tuple[int, ...] | None = None
    #: ``group.consumer.assignment.interval.ms`` the scenario sets (KIP-1263), or ``None``:
    #: the brokers' default at the simulated Kafka version.
    assignment_interval_ms: int | None = None


def _fail(where: str, msg: str) -> ConfigError:
    return ConfigError(f"{where}: {msg}")


def _count(where: str, n: Any) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise _fail(where, f"invalid partition count {n!r}: must be an integer >= 0")
    return n


def _topic_id(where: str, v: Any) -> str:
    """A Kafka topic ``Uuid`` (22-character URL-safe base64), for the KIP-848 strategies."""
    from kpart._java.uuid import uuid_from_string

    if not isinstance(v, str):
        raise _fail(where, f"expected a topic id (base64 Uuid), got {v!r}")
    try:
        uuid_from_string(v)
    except ConfigError as e:
        raise _fail(where, str(e)) from None
    return v


def _str_list(where: str, v: Any) -> list[str]:
    if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v):
        raise _fail(where, f"expected a list of names, got {v!r}")
    return list(v)


def _mapping(where: str, v: Any) -> Mapping[str, Any]:
    if not isinstance(v, Mapping):
        raise _fail(where, f"expected a table/object, got {v!r}")
    return v


#: Replica racks of a topic's partitions (``Topic.replica_racks``).
Racks = tuple[tuple[str | None, ...], ...]


def _racks(where: str, topic: str, n: int, v: Any) -> Racks:
    if not isinstance(v, list) or not all(
        isinstance(r, list) and all(x is None or isinstance(x, str) for x in r) for r in v
    ):
        raise _fail(where, f"expected a list of rack lists (rack names or null) for topic {topic!r}")
    if len(v) != n:
        raise _fail(where, f"topic {topic!r} has {n} partitions but racks for {len(v)}")
    return tuple(tuple(r) for r in v)


def _member(where: str, doc: Any, topics: Mapping[str, Any]) -> Member:
    m = _mapping(where, doc)
    for k in m:
        if k not in _MEMBER_KEYS:
            raise _fail(f"{where}.{k}", "unknown field")
    mid = m.get("id")
    if not isinstance(mid, str) or not mid:
        raise _fail(f"{where}.id", f"expected a non-empty member id, got {mid!r}")
    subs = _str_list(f"{where}.topics", m.get("topics", []))
    for k in ("rack", "instance_id"):
        if m.get(k) is not None and not isinstance(m[k], str):
            raise _fail(f"{where}.{k}", f"expected a string, got {m[k]!r}")
    owned = m.get("owned") or []
    if not isinstance(owned, list):
        raise _fail(f"{where}.owned", f"expected [[topic, [partitions]], ...], got {owned!r}")
    for i, entry in enumerate(owned):
        if (not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[0], str)
                or entry[0] not in topics):
            raise _fail(f"{where}.owned[{i}]", f"owned partition of an unknown topic: {entry!r}")
    return Member(mid, tuple(subs), m.get("rack"), m.get("instance_id"))


class _Builder:
    """Mutable state while resolving event steps (private; the result is immutable)."""

    def __init__(self, topics: Mapping[str, int], racks: Mapping[str, Racks]) -> None:
        self.topics: dict[str, int] = dict(topics)
        self.racks: dict[str, Racks] = dict(racks)
        self.members: dict[str, Member] = {}

    def group(self, where: str) -> GroupSpec:
        try:
            ts = tuple(Topic(t, n, self.racks.get(t)) for t, n in self.topics.items())
            return GroupSpec(ts, tuple(self.members.values()))
        except KpartError as e:
            raise _fail(where, str(e)) from None

    def apply(self, where: str, step: Mapping[str, Any]) -> StepChange:
        """Apply one event step, in the documented order: topic changes, then members."""
        topic_notes: list[str] = []
        _mapping(f"{where}.create_topics", step.get("create_topics", {}))  # checked first
        deleted = self._delete_topics(where, step, topic_notes)
        created = self._create_topics(where, step, topic_notes)
        self._add_partitions(where, step, topic_notes)
        self._set_partition_racks(where, step, topic_notes)
        left, crashed = (self._remove_members(where, step, verb) for verb in ("leave", "crash"))
        resubscribed = self._resubscribe(where, step)
        joined = self._join(where, step)
        return StepChange(
            step.get("name"),
            tuple(joined),
            tuple(left),
            tuple(crashed),
            tuple(resubscribed),
            tuple(topic_notes),
            tuple(deleted),
            tuple(created),
        )

    def _delete_topics(self, where: str, step: Mapping[str, Any], notes: list[str]) -> list[str]:
        deleted = _str_list(f"{where}.delete_topics", step.get("delete_topics", []))
        for t in deleted:
            if t not in self.topics:
                raise _fail(f"{where}.delete_topics", f"unknown topic {t!r}")
            del self.topics[t]
            self.racks.pop(t, None)
            notes.append(f"-{t}")
        return deleted

    def _create_topics(self, where: str, step: Mapping[str, Any], notes: list[str]) -> list[str]:
        created = _mapping(f"{where}.create_topics", step.get("create_topics", {}))
        for t, n in created.items():
            if t in self.topics:
                raise _fail(f"{where}.create_topics.{t}", "topic already exists")
            self.topics[t] = _count(f"{where}.create_topics.{t}", n)
            notes.append(f"+{t} ({n} partitions)")
        return list(created)

    def _add_partitions(self, where: str, step: Mapping[str, Any], notes: list[str]) -> None:
        for t, n in _mapping(f"{where}.add_partitions", step.get("add_partitions", {})).items():
            w = f"{where}.add_partitions.{t}"
            if t not in self.topics:
                raise _fail(w, f"unknown topic {t!r}")
            n = _count(w, n)
            if n < self.topics[t]:
                raise _fail(w, f"cannot shrink topic {t!r} from {self.topics[t]} to {n} partitions")
            if t in self.racks and n != self.topics[t]:
                raise _fail(w, f"give partition_racks for the new partitions of {t!r}")
            notes.append(f"{t}: {self.topics[t]}→{n} partitions")
            self.topics[t] = n

    def _set_partition_racks(self, where: str, step: Mapping[str, Any], notes: list[str]) -> None:
        for t, v in _mapping(f"{where}.partition_racks", step.get("partition_racks", {})).items():
            if t not in self.topics:
                raise _fail(f"{where}.partition_racks.{t}", f"unknown topic {t!r}")
            self.racks[t] = _racks(f"{where}.partition_racks.{t}", t, self.topics[t], v)
            notes.append(f"{t}: new replica racks")

    def _remove_members(self, where: str, step: Mapping[str, Any], verb: str) -> list[str]:
        """``leave`` or ``crash``: the members removed."""
        gone = []
        for mid in _str_list(f"{where}.{verb}", step.get(verb, [])):
            if mid not in self.members:
                raise _fail(f"{where}.{verb}", f"unknown member {mid!r}")
            del self.members[mid]
            gone.append(mid)
        return gone

    def _resubscribe(self, where: str, step: Mapping[str, Any]) -> list[str]:
        resubscribed = []
        for mid, subs in _mapping(f"{where}.subscribe", step.get("subscribe", {})).items():
            if mid not in self.members:
                raise _fail(f"{where}.subscribe", f"unknown member {mid!r}")
            old = self.members[mid]
            new_topics = tuple(_str_list(f"{where}.subscribe.{mid}", subs))
            self.members[mid] = Member(mid, new_topics, old.rack, old.group_instance_id)
            resubscribed.append(mid)
        return resubscribed

    def _join(self, where: str, step: Mapping[str, Any]) -> list[str]:
        joins = step.get("join", [])
        if not isinstance(joins, list):
            raise _fail(f"{where}.join", "expected a list of members")
        joined = []
        for i, doc in enumerate(joins):
            m = _member(f"{where}.join[{i}]", doc, self.topics)
            if m.member_id in self.members:
                raise _fail(
                    f"{where}.join[{i}].id", f"member {m.member_id!r} is already in the group"
                )
            self.members[m.member_id] = m
            joined.append(m.member_id)
        return joined


def _absolute(where: str, step: Mapping[str, Any], prev: list[str]) -> tuple[GroupSpec, StepChange]:
    topics = _mapping(f"{where}.topics", step.get("topics"))
    for t, n in topics.items():
        _count(f"{where}.topics.{t}", n)
    racks = _mapping(f"{where}.partition_racks", step.get("partition_racks") or {})
    for t, v in racks.items():
        if t not in topics:
            raise _fail(f"{where}.partition_racks.{t}", f"unknown topic {t!r}")
        _racks(f"{where}.partition_racks.{t}", t, topics[t], v)
    docs = step.get("members")
    if not isinstance(docs, list):
        raise _fail(f"{where}.members", "expected a list of members")
    members = [_member(f"{where}.members[{i}]", d, topics) for i, d in enumerate(docs)]
    try:
        group = GroupSpec(
            tuple(
                Topic(t, n, None if t not in racks else tuple(map(tuple, racks[t])))
                for t, n in topics.items()
            ),
            tuple(members),
        )
    except KpartError as e:
        raise _fail(where, str(e)) from None
    ids = [m.member_id for m in members]
    change = StepChange(
        step.get("name"),
        joined=tuple(i for i in ids if i not in prev),
        left=tuple(i for i in prev if i not in ids),
    )
    return group, change


def parse_scenario(doc: Any) -> Scenario:
    """Resolve a scenario document (see the module docstring) into absolute steps."""
    if isinstance(doc, list):
        doc = {"steps": doc}
    doc = _mapping("scenario", doc)
    for k in doc:
        if k not in _SCENARIO_KEYS:
            raise _fail(f"scenario.{k}", "unknown field")
    strategies = tuple(_str_list("scenario.strategies", doc.get("strategies", [])))
    topics = {
        t: _count(f"scenario.topics.{t}", n)
        for t, n in _mapping("scenario.topics", doc.get("topics", {})).items()
    }
    racks = {
        t: _racks(f"scenario.partition_racks.{t}", t, topics.get(t, -1), v)
        for t, v in _mapping("scenario.partition_racks", doc.get("partition_racks", {})).items()
    }
    topic_ids = {
        t: _topic_id(f"scenario.topic_ids.{t}", v)
        for t, v in _mapping("scenario.topic_ids", doc.get("topic_ids", {})).items()
    }
    steps = doc.get("steps")
    if not isinstance(steps, list) or not steps:
        raise _fail("scenario.steps", "expected a non-empty list of steps")
    b = _Builder(topics, racks)
    groups, changes = [], []
    for i, step in enumerate(steps):
        where = f"steps[{i}]"
        step = _mapping(where, step)
        absolute = "members" in step
        for k in step:
            if k not in (_ABSOLUTE_KEYS if absolute else _EVENT_KEYS):
                raise _fail(f"{where}.{k}", "unknown field")
        if absolute:
            group, change = _absolute(where, step, list(b.members))
            b = _Builder(
                {t.name: t.num_partitions for t in group.topics},
                {t.name: t.replica_racks for t in group.topics if t.replica_racks},
            )
            b.members = {m.member_id: m for m in group.members}
        else:
            change = b.apply(where, step)
            group = b.group(where)
        groups.append(group)
        changes.append(change)
    _check_topic_ids(topic_ids, groups)
    interval = doc.get("assignment_interval_ms")
    if interval is not None:
        interval = _millis("scenario.assignment_interval_ms", interval)
    return Scenario(tuple(groups), tuple(changes), strategies, doc.get("name"), topic_ids,
                    _times(steps), interval)


def _millis(where: str, v: Any) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise _fail(where, f"expected milliseconds, an integer >= 0, got {v!r}")
    return v


def _times(steps: Sequence[Mapping[str, Any]]) -> tuple[int, ...] | None:
    """Every step's ``at_ms`` (non-decreasing), or ``None`` when no step has one; a scenario
    timing some steps only is refused."""
    given = [i for i, step in enumerate(steps) if "at_ms" in step]
    if not given:
        return None
    if len(given) != len(steps):
        missing = next(i for i in range(len(steps)) if i not in given)
        raise _fail(f"steps[{missing}].at_ms", "missing: give every step a time, or none")
    times = [_millis(f"steps[{i}].at_ms", step["at_ms"]) for i, step in enumerate(steps)]
    for i in range(1, len(times)):
        if times[i] < times[i - 1]:
            raise _fail(f"steps[{i}].at_ms", f"{times[i]} is before the previous step's "
                        f"{times[i - 1]}: steps are in time order")
    return tuple(times)


def _check_topic_ids(topic_ids: Mapping[str, str], groups: Sequence[GroupSpec]) -> None:
    """Each id names a topic of some step, once; none is one Kafka reserves (``Uuid.ZERO``,
    ``Uuid.ONE``)."""
    from kpart._java.uuid import uuid_from_string

    known = {t.name for g in groups for t in g.topics}
    owner: dict[int, str] = {}
    for name, text in topic_ids.items():
        where = f"scenario.topic_ids.{name}"
        if name not in known:
            raise _fail(where, f"unknown topic {name!r}")
        uuid = uuid_from_string(text)
        if uuid in (0, 1):
            raise _fail(where, f"{text!r} is reserved by Kafka (Uuid.ZERO / Uuid.ONE)")
        if uuid in owner:
            raise _fail(where, f"{text!r} is already the id of topic {owner[uuid]!r}")
        owner[uuid] = name


def load_scenario(path: str | Path, *, option: str = Param("path")) -> Scenario:
    """Read a scenario file: TOML when the name ends in ``.toml``, JSON otherwise. Errors
    (:class:`ConfigError`) start with the file name, then the step and field; an unreadable file
    is named as ``option`` (the name the caller gives ``path``; the CLI's is ``SCENARIO_FILE``)."""
    from kpart._files import read_text

    p = Path(path)
    toml = p.suffix.lower() == ".toml"
    text = read_text(p, option)
    try:
        doc = tomllib.loads(text) if toml else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as e:
        raise ConfigError(f"{p}: malformed {'TOML' if toml else 'JSON'}: {e}") from None
    try:
        return parse_scenario(doc)
    except ConfigError as e:
        raise ConfigError(f"{p}: {e}") from None


def as_scenario(steps: Any) -> Scenario:
    """A :class:`Scenario` from a scenario, a document, or a sequence of :class:`GroupSpec`."""
    if isinstance(steps, Scenario):
        return steps
    if isinstance(steps, Sequence) and steps and all(isinstance(s, GroupSpec) for s in steps):
        prev: list[str] = []
        changes = []
        for g in steps:
            ids = [m.member_id for m in g.members]
            changes.append(
                StepChange(
                    joined=tuple(i for i in ids if i not in prev),
                    left=tuple(i for i in prev if i not in ids),
                )
            )
            prev = ids
        return Scenario(tuple(steps), tuple(changes))
    return parse_scenario(steps)
