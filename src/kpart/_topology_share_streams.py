"""A topology's share groups (KIP-932, ``[[share_groups]]``) and Streams groups (KIP-1071,
``[[streams_groups]]``): their values and the validation of their TOML tables, each error a
one-line :class:`~kpart.errors.ConfigError` naming the field. Read them through
:mod:`kpart.topology`, which re-exports the public names.

Both kinds of group are assigned by the group coordinator, so both follow the brokers' Kafka
version (the topology's ``kafka_version``): share groups exist from 4.0.0 (rule
``share_simple``), Streams groups' server-side assignor as kpart models it from 4.2.0 (rule
``streams_sticky_assignor``); :func:`check_versions` refuses a topology with such a group at
an earlier version, in one line.

A member may subscribe to a topic the topology does not list, and a subtopology may read one:
a warning (:class:`~kpart.errors.KpartWarning`), as for a consumer group's member in a group
file. Kafka ignores the share member's unknown topic; a Streams group with a missing source
topic is refused by the coordinator (``Source topics ... are missing``), and none of its
members is given a task.

>>> g = parse_share_groups([{"name": "w", "members": ["a", {"id": "b", "topics": ["t"]}]}],
...                        ("t", "u"))
>>> [(m.id, m.topics) for m in g[0].members], g[0].topics, g[0].assignor
([('a', None), ('b', ('t',))], None, 'simple')
>>> s = parse_streams_groups([{"name": "app", "num_standby_replicas": 1,
...     "subtopologies": [{"source_topics": ["t"], "stateful": True}],
...     "members": [{"id": "a", "process_id": "p1"}]}], ("t",))
>>> s[0].subtopologies[0]
StreamsSubtopologyConfig(id='0', source_topics=('t',), stateful=True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kpart._topology_tables import choice, no_unknown, table
from kpart._warnings import kpart_warn
from kpart.errors import ConfigError
from kpart.limits import check_members

__all__ = [
    "SHARE_ASSIGNORS",
    "STREAMS_ASSIGNORS",
    "ShareGroupConfig",
    "ShareMemberConfig",
    "StreamsGroupConfig",
    "StreamsMemberConfig",
    "StreamsSubtopologyConfig",
    "check_versions",
    "parse_share_groups",
    "parse_streams_groups",
    "share_groups_to_toml",
    "share_groups_to_dict",
    "streams_groups_to_dict",
    "streams_groups_to_toml",
]

#: ``group.share.assignors``: the share-group assignors kpart models (Kafka's default).
SHARE_ASSIGNORS = ("simple",)
#: ``group.streams.assignors``: the Streams-group assignors kpart models (Kafka's default).
STREAMS_ASSIGNORS = ("sticky",)


@dataclass(frozen=True, slots=True)
class ShareMemberConfig:
    """A share consumer: ``id`` (member id), ``rack`` (``client.rack``) and its own
    ``topics`` (``None``: the group's)."""

    id: str
    rack: str | None = None
    topics: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class ShareGroupConfig:
    """A share group: ``name``, its ``members`` (in the order they joined: the coordinator's
    member map), the ``topics`` they subscribe to unless a member names its own (``None``:
    every topic of the topology) and the ``assignor`` (``simple``)."""

    name: str
    members: tuple[ShareMemberConfig, ...]
    topics: tuple[str, ...] | None = None
    assignor: str = "simple"


@dataclass(frozen=True, slots=True)
class StreamsSubtopologyConfig:
    """A subtopology of a Streams application: ``id`` (Kafka's subtopology id, a string),
    the ``source_topics`` it reads and whether it is ``stateful`` (has state stores, so
    standby replicas). Its task count is derived from the topics (the largest partition count
    of its source topics, as the coordinator's ``InternalTopicManager`` computes it)."""

    id: str
    source_topics: tuple[str, ...]
    stateful: bool = False


@dataclass(frozen=True, slots=True)
class StreamsMemberConfig:
    """A Streams client thread: ``id`` (member id), ``process_id`` (the Streams instance it
    runs in; members of one process never hold the same task twice), ``rack`` and
    ``instance_id`` (``group.instance.id``)."""

    id: str
    process_id: str
    rack: str | None = None
    instance_id: str | None = None


@dataclass(frozen=True, slots=True)
class StreamsGroupConfig:
    """A Streams group: ``name`` (``application.id``), ``subtopologies``,
    ``num_standby_replicas``, ``members`` (in the order they joined) and the ``assignor``
    (``sticky``)."""

    name: str
    subtopologies: tuple[StreamsSubtopologyConfig, ...]
    members: tuple[StreamsMemberConfig, ...]
    num_standby_replicas: int = 0
    assignor: str = "sticky"


# -- parsing ------------------------------------------------------------------------------------


def _text(doc: Mapping[str, Any], name: str, where: str, *, required: bool = True) -> str | None:
    v = doc.get(name)
    if v is None and not required:
        return None
    if not isinstance(v, str) or not v:
        raise ConfigError(f"{where}.{name}: expected a non-empty string, got {v!r}")
    return v


def _names(doc: Mapping[str, Any], name: str, where: str) -> tuple[str, ...]:
    """A non-empty list of distinct strings at ``where.name``."""
    v = doc.get(name)
    if not isinstance(v, list) or not v:
        raise ConfigError(f"{where}.{name}: expected a non-empty list of topic names, got {v!r}")
    for j, x in enumerate(v):
        if not isinstance(x, str) or not x:
            raise ConfigError(f"{where}.{name}[{j}]: expected a topic name, got {x!r}")
        if x in v[:j]:
            raise ConfigError(f"{where}.{name}[{j}]: topic {x!r} is listed twice")
    return tuple(v)


def _warn_unknown(names: tuple[str, ...], topics: tuple[str, ...], where: str,
                  consequence: str) -> None:
    for j, x in enumerate(names):
        if x not in topics:
            kpart_warn(f"{where}[{j}]: no topic {x!r} in the topology (topics: "
                       f"{', '.join(topics)}); {consequence}")


def _entries(doc: Mapping[str, Any], name: str, where: str) -> list[Any]:
    v = doc.get(name)
    if not isinstance(v, list) or not v:
        raise ConfigError(f"{where}.{name}: expected a non-empty list, got {v!r}")
    return v


def _unique(ids: list[str], where: str, what: str, field: str = "id") -> None:
    for j, x in enumerate(ids):
        if x in ids[:j]:
            raise ConfigError(f"{where}[{j}].{field}: {what} {x!r} is listed twice")


def _group_list(doc: Any, key: str) -> list[Any]:
    if not isinstance(doc, list):
        raise ConfigError(f"{key}: expected [[{key}]] tables, got {doc!r}")
    return doc


def _share_member(entry: Any, where: str, topics: tuple[str, ...]) -> ShareMemberConfig:
    m = table({"id": entry} if isinstance(entry, str) else entry, where)
    no_unknown(m, ("id", "rack", "topics"), where)
    own = None
    if "topics" in m:
        own = _names(m, "topics", where)
        _warn_unknown(own, topics, f"{where}.topics",
                      "Kafka ignores it (the member gets none of its partitions)")
    return ShareMemberConfig(str(_text(m, "id", where)), _text(m, "rack", where, required=False),
                             own)


def parse_share_groups(doc: Any, topics: tuple[str, ...]) -> tuple[ShareGroupConfig, ...]:
    """The ``[[share_groups]]`` tables (names unique, members unique; a group's ``topics``
    among ``topics``, the topology's; a member's own unknown topic: a warning)."""
    groups: list[ShareGroupConfig] = []
    for i, entry in enumerate(_group_list(doc, "share_groups")):
        where = f"share_groups[{i}]"
        g = table(entry, where)
        no_unknown(g, ("name", "topics", "assignor", "members"), where)
        name = str(_text(g, "name", where))
        if name in (x.name for x in groups):
            raise ConfigError(f"{where}.name: share group {name!r} is listed twice")
        assignor = choice(_text(g, "assignor", where, required=False) or "simple",
                          SHARE_ASSIGNORS, f"{where}.assignor")
        subscribed = None
        if "topics" in g:
            subscribed = _names(g, "topics", where)
            for j, x in enumerate(subscribed):
                if x not in topics:
                    raise ConfigError(f"{where}.topics[{j}]: no topic {x!r} in the topology "
                                      f"(topics: {', '.join(topics)})")
        entries = _entries(g, "members", where)
        check_members(len(entries), f"{where}.members")
        members = tuple(_share_member(m, f"{where}.members[{j}]", topics)
                        for j, m in enumerate(entries))
        _unique([m.id for m in members], f"{where}.members", "member")
        groups.append(ShareGroupConfig(name, members, subscribed, assignor))
    return tuple(groups)


def _subtopology(entry: Any, j: int, where: str, topics: tuple[str, ...]
                 ) -> StreamsSubtopologyConfig:
    s = table(entry, where)
    no_unknown(s, ("id", "source_topics", "stateful"), where)
    sid = _text(s, "id", where, required=False) or str(j)
    sources = _names(s, "source_topics", where)
    _warn_unknown(sources, topics, f"{where}.source_topics",
                  "Kafka's coordinator refuses the group's topology while a source topic is "
                  "missing: no member gets a task")
    stateful = s.get("stateful", False)
    if not isinstance(stateful, bool):
        raise ConfigError(f"{where}.stateful: expected true or false, got {stateful!r}")
    return StreamsSubtopologyConfig(sid, sources, stateful)


def _streams_member(entry: Any, where: str) -> StreamsMemberConfig:
    m = table(entry, where)
    no_unknown(m, ("id", "process_id", "rack", "instance_id"), where)
    return StreamsMemberConfig(str(_text(m, "id", where)), str(_text(m, "process_id", where)),
                               _text(m, "rack", where, required=False),
                               _text(m, "instance_id", where, required=False))


def parse_streams_groups(doc: Any, topics: tuple[str, ...]) -> tuple[StreamsGroupConfig, ...]:
    """The ``[[streams_groups]]`` tables (names, subtopology ids and member ids unique; the
    members of one process on one rack; ``num_standby_replicas`` ≥ 0; a source topic the
    topology lacks: a warning)."""
    groups: list[StreamsGroupConfig] = []
    for i, entry in enumerate(_group_list(doc, "streams_groups")):
        where = f"streams_groups[{i}]"
        g = table(entry, where)
        no_unknown(g, ("name", "assignor", "num_standby_replicas", "subtopologies", "members"),
                   where)
        name = str(_text(g, "name", where))
        if name in (x.name for x in groups):
            raise ConfigError(f"{where}.name: Streams group {name!r} is listed twice")
        assignor = choice(_text(g, "assignor", where, required=False) or "sticky",
                          STREAMS_ASSIGNORS, f"{where}.assignor")
        standby = g.get("num_standby_replicas", 0)
        if not isinstance(standby, int) or isinstance(standby, bool) or standby < 0:
            raise ConfigError(f"{where}.num_standby_replicas: expected an integer >= 0, got "
                              f"{standby!r}")
        subs = tuple(_subtopology(s, j, f"{where}.subtopologies[{j}]", topics)
                     for j, s in enumerate(_entries(g, "subtopologies", where)))
        _unique([s.id for s in subs], f"{where}.subtopologies", "subtopology")
        entries = _entries(g, "members", where)
        check_members(len(entries), f"{where}.members")
        members = tuple(_streams_member(m, f"{where}.members[{j}]")
                        for j, m in enumerate(entries))
        _unique([m.id for m in members], f"{where}.members", "member")
        racks: dict[str, StreamsMemberConfig] = {}
        for j, m in enumerate(members):
            first = racks.setdefault(m.process_id, m)
            if first.rack != m.rack:
                raise ConfigError(
                    f"{where}.members[{j}].rack: process {m.process_id!r} runs member "
                    f"{first.id!r} on rack {first.rack!r} and {m.id!r} on {m.rack!r} (one "
                    "process, one rack)")
        groups.append(StreamsGroupConfig(name, subs, members, standby, assignor))
    return tuple(groups)


def check_versions(share: tuple[ShareGroupConfig, ...],
                   streams: tuple[StreamsGroupConfig, ...], brokers: str | None) -> None:
    """Refuse share or Streams groups at brokers (``brokers``: the topology's
    ``kafka_version``; ``None``: kpart's default) without them: one line naming the group and
    the version."""
    from kpart.versions import behaviour

    checks: tuple[tuple[str, tuple[ShareGroupConfig | StreamsGroupConfig, ...], str], ...] = (
        ("share_groups", share, "share_simple"),
        ("streams_groups", streams, "streams_sticky_assignor"))
    for kind, groups, rule in checks:
        for i, g in enumerate(groups):
            try:
                behaviour(rule, brokers, "kafka_version")
            except ConfigError as e:
                raise ConfigError(f"{kind}[{i}] ({g.name}): {e}") from None


# -- back to TOML -------------------------------------------------------------------------------


def _clean(d: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None}


def share_groups_to_dict(groups: tuple[ShareGroupConfig, ...]) -> list[dict[str, Any]]:
    """The ``share_groups`` tables as the TOML document holds them (defaults left out)."""
    return [
        {"name": g.name,
         **({} if g.topics is None else {"topics": list(g.topics)}),
         **({} if g.assignor == "simple" else {"assignor": g.assignor}),
         "members": [_clean({"id": m.id, "rack": m.rack,
                             "topics": None if m.topics is None else list(m.topics)})
                     for m in g.members]}
        for g in groups
    ]


def streams_groups_to_dict(groups: tuple[StreamsGroupConfig, ...]) -> list[dict[str, Any]]:
    """The ``streams_groups`` tables as the TOML document holds them."""
    return [
        {"name": g.name,
         **({} if g.assignor == "sticky" else {"assignor": g.assignor}),
         "num_standby_replicas": g.num_standby_replicas,
         "subtopologies": [{"id": s.id, "source_topics": list(s.source_topics),
                            "stateful": s.stateful} for s in g.subtopologies],
         "members": [_clean({"id": m.id, "process_id": m.process_id, "rack": m.rack,
                             "instance_id": m.instance_id}) for m in g.members]}
        for g in groups
    ]


def _toml_value(v: Any) -> str:
    import json

    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + " }"
    return json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f")


def _tables(header: str, docs: list[dict[str, Any]]) -> list[str]:
    lines: list[str] = []
    for d in docs:
        lines += ["", header]
        for k, v in d.items():
            if k in ("members", "subtopologies"):
                lines += [f"{k} = ["] + [f"  {_toml_value(x)}," for x in v] + ["]"]
            else:
                lines += [f"{k} = {_toml_value(v)}"]
    return lines


def share_groups_to_toml(groups: tuple[ShareGroupConfig, ...]) -> list[str]:
    """TOML lines of the ``[[share_groups]]`` tables (each after an empty line)."""
    return _tables("[[share_groups]]", share_groups_to_dict(groups))


def streams_groups_to_toml(groups: tuple[StreamsGroupConfig, ...]) -> list[str]:
    """TOML lines of the ``[[streams_groups]]`` tables (each after an empty line)."""
    return _tables("[[streams_groups]]", streams_groups_to_dict(groups))
