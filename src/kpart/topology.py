"""The layout file: a cluster (brokers with racks), a topic and the consumer groups reading it.

A topology is TOML, validated on load; every error is a :class:`~kpart.errors.ConfigError`
whose message names the bad field (``topic.partitions: expected a positive integer, got -3``)::

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

    [[groups]]                        # optional: none = producer and broker view only
    name = "analytics"
    strategy = "range"                # partition.assignment.strategy: range, roundrobin, ...
    members = [{ id = "c1", rack = "a" }, { id = "c2", instance_id = "host-2" }, "c3"]

The default topology ships with kpart (``kpart/data/default_topology.toml``):
:func:`default_topology`.

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
from dataclasses import dataclass
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
)
from kpart.placement.spec import Broker
from kpart.producer.null_keys import DEFAULT_BATCH_SIZE, NULL_KEY_STRATEGIES
from kpart.producer.serializers import SERIALIZERS

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "DEFAULT_TOPOLOGY_TEXT",
    "KEY_SERIALIZERS",
    "NULL_KEY_STRATEGIES",
    "ConsumerGroupConfig",
    "GroupMemberConfig",
    "TopicConfig",
    "Topology",
    "default_topology",
    "load_topology",
    "parse_topology",
    "topology_from_dict",
]

#: Key serializers a topology may name (Kafka's String/Integer/Long/Short/UUID/ByteArray;
#: ``hex``: a text column of hex digits, its decoded bytes sent by ByteArraySerializer).
KEY_SERIALIZERS = SERIALIZERS

DEFAULT_TOPOLOGY_TEXT: str = (
    resources.files("kpart") / "data" / "default_topology.toml"
).read_text(encoding="utf-8")

_TOPIC_NAME = re.compile(r"^[a-zA-Z0-9._-]{1,249}$")
_JAVA_LONG = 2**63


@dataclass(frozen=True, slots=True)
class TopicConfig:
    """The topic: ``name``, ``partitions`` (> 0), ``replication_factor`` (> 0), the ``key`` column,
    its ``key_serializer``, the producer ``partitioner`` id, the ``null_key_strategy``, the
    ``placement_seed`` of ``AdminUtils`` (``None`` = random like Kafka), ``rack_aware``, the
    ``null_key_seed`` of the null-key model and the producer's ``batch_size`` (bytes)."""

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
    """A consumer group reading the topic: ``name``, ``strategy`` (an assignor name) and its
    ``members`` in join order (the order the group leader sees them)."""

    name: str
    strategy: str
    members: tuple[GroupMemberConfig, ...]


@dataclass(frozen=True, slots=True)
class Topology:
    """A validated layout: ``brokers`` (in the order Kafka lists them), ``topic``, ``groups``."""

    brokers: tuple[Broker, ...]
    topic: TopicConfig
    groups: tuple[ConsumerGroupConfig, ...]

    @property
    def racks(self) -> tuple[str, ...]:
        """Distinct broker racks, sorted (empty when brokers have no rack)."""
        return tuple(sorted({b.rack for b in self.brokers if b.rack is not None}))

    def with_topic(self, **changes: Any) -> Topology:
        """A copy with topic fields replaced (e.g. ``key="dest"``), validated again; an error
        about a replaced field names it as the parameter (``partitioner: unknown value ...``).

        >>> default_topology().with_topic(partitioner="java:nope")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        kpart.errors.ConfigError: partitioner: unknown value 'java:nope' (expected one of ...)
        """
        doc = self.to_dict()
        return topology_from_dict({**doc, "topic": {**doc["topic"], **changes}},
                                  parameters={f"topic.{k}": k for k in changes})

    def to_dict(self) -> dict[str, Any]:
        """The topology as the TOML document it loads from (``None`` fields left out)."""

        def clean(d: Mapping[str, Any]) -> dict[str, Any]:
            return {k: v for k, v in d.items() if v is not None}

        return {
            "cluster": {"brokers": [clean({"id": b.id, "rack": b.rack}) for b in self.brokers]},
            "topic": clean({f: getattr(self.topic, f) for f in TopicConfig.__slots__}),
            "groups": [
                {"name": g.name, "strategy": g.strategy,
                 "members": [clean({"id": m.id, "rack": m.rack, "instance_id": m.instance_id})
                             for m in g.members]}
                for g in self.groups
            ],
        }

    def to_toml(self) -> str:
        """TOML text that :func:`parse_topology` loads back to an equal topology."""
        doc = self.to_dict()
        lines = ["[cluster]", "brokers = ["]
        lines += [f"  {_inline(b)}," for b in doc["cluster"]["brokers"]]
        lines += ["]", "", "[topic]"]
        lines += [f"{k} = {_value(v)}" for k, v in doc["topic"].items()]
        for g in doc["groups"]:
            lines += ["", "[[groups]]", f"name = {_value(g['name'])}",
                      f"strategy = {_value(g['strategy'])}", "members = ["]
            lines += [f"  {_inline(m)}," for m in g["members"]]
            lines += ["]"]
        return "\n".join(lines) + "\n"


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return json.dumps(v, ensure_ascii=False)  # a JSON string is a TOML basic string


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


def _topic(doc: Any, num_brokers: int, names: Mapping[str, str] = _NO_NAMES) -> TopicConfig:
    t = _table(doc, "topic")
    _no_unknown(t, _TOPIC_FIELDS, "topic")
    name = _str(t, "name", "topic", names)
    if not _TOPIC_NAME.match(name) or name in (".", ".."):
        raise _field_error("topic.name", names, "{param}: {name!r} is not a legal Kafka topic "
                           "name (ASCII letters, digits, '.', '_', '-'; at most 249 characters)",
                           name=name)
    partitions = check_partitions(_int(t, "partitions", "topic", names=names),
                                  _what(names, "topic.partitions"),
                                  error=ConfigError)
    rf = check_replication_factor(
        _int(t, "replication_factor", "topic", names=names),
        _what(names, "topic.replication_factor"),
        num_partitions=partitions, error=ConfigError)
    if rf > num_brokers:
        raise _field_error("topic.replication_factor", names, "{param}: {rf} is larger than the "
                           "number of brokers ({brokers})", rf=rf, brokers=num_brokers)
    serializer = _choice(_opt_str(t, "key_serializer", "topic", names) or "string",
                         KEY_SERIALIZERS, "topic.key_serializer", names)
    partitioner = _opt_str(t, "partitioner", "topic", names) or "java:default"
    from kpart.producer.clients import PARTITIONERS

    _choice(partitioner, PARTITIONERS, "topic.partitioner", names)
    null_keys = _choice(_opt_str(t, "null_key_strategy", "topic", names) or "client",
                        NULL_KEY_STRATEGIES, "topic.null_key_strategy", names)
    seed = _seed(t, "placement_seed")
    null_key_seed = _seed(t, "null_key_seed")
    batch_size = _int(t, "batch_size", "topic") if "batch_size" in t else DEFAULT_BATCH_SIZE
    rack_aware = t.get("rack_aware", True)
    if not isinstance(rack_aware, bool):
        raise ConfigError(f"topic.rack_aware: expected true or false, got {rack_aware!r}")
    return TopicConfig(name, partitions, rf, _str(t, "key", "topic", names), serializer, partitioner,
                       null_keys, seed, rack_aware, null_key_seed, batch_size)


def _seed(t: Mapping[str, Any], name: str) -> int | None:
    seed = t.get(name)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                             or not -_JAVA_LONG <= seed < _JAVA_LONG):
        raise ConfigError(f"topic.{name}: expected a 64-bit integer, got {seed!r}")
    return seed


def _member(entry: Any, where: str) -> GroupMemberConfig:
    m = _table({"id": entry} if isinstance(entry, str) else entry, where)
    _no_unknown(m, ("id", "rack", "instance_id"), where)
    return GroupMemberConfig(_str(m, "id", where), _opt_str(m, "rack", where),
                             _opt_str(m, "instance_id", where))


def _groups(doc: Any) -> tuple[ConsumerGroupConfig, ...]:
    if not isinstance(doc, list):
        raise ConfigError(f"groups: expected [[groups]] tables, got {doc!r}")
    from kpart.consumer import ASSIGNORS

    groups: list[ConsumerGroupConfig] = []
    names: set[str] = set()
    for i, entry in enumerate(doc):
        where = f"groups[{i}]"
        g = _table(entry, where)
        _no_unknown(g, ("name", "strategy", "members"), where)
        name = _str(g, "name", where)
        if name in names:
            raise ConfigError(f"{where}.name: group {name!r} is listed twice")
        names.add(name)
        strategy = _choice(_str(g, "strategy", where), ASSIGNORS, f"{where}.strategy")
        entries = g.get("members")
        if not isinstance(entries, list) or not entries:
            raise ConfigError(f"{where}.members: expected a non-empty list, got {entries!r}")
        check_members(len(entries), f"{where}.members")
        members = tuple(_member(m, f"{where}.members[{j}]") for j, m in enumerate(entries))
        ids = [m.id for m in members]
        for j, mid in enumerate(ids):
            if mid in ids[:j]:
                raise ConfigError(f"{where}.members[{j}].id: member {mid!r} is listed twice")
        groups.append(ConsumerGroupConfig(name, strategy, members))
    return tuple(groups)


def topology_from_dict(doc: Mapping[str, Any], *,
                       parameters: Mapping[str, str] = _NO_NAMES) -> Topology:
    """Validate a parsed TOML document into a :class:`Topology` (``ConfigError`` naming the field;
    ``parameters``: TOML path → the caller's parameter that set it, named instead)."""
    doc = _table(doc, "topology")
    _no_unknown(doc, ("cluster", "topic", "groups"), "")
    for section in ("cluster", "topic"):
        if section not in doc:
            raise ConfigError(f"{section}: missing section")
    brokers = _brokers(doc["cluster"])  # no [[groups]]: the producer and broker view only
    return Topology(brokers, _topic(doc["topic"], len(brokers), parameters),
                    _groups(doc.get("groups", [])))


def parse_topology(text: str) -> Topology:
    """Parse and validate topology TOML ``text``."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"topology: invalid TOML: {e}") from None
    return topology_from_dict(doc)


def load_topology(path: str | Path, *, option: str = Param("path")) -> Topology:
    """Load and validate the topology file at ``path``; errors name the file and the field
    (and ``option``, the name the caller gives ``path``, when the file cannot be read)."""
    from kpart._files import read_text

    p = Path(path)
    text = read_text(p, option)
    try:
        return parse_topology(text)
    except ConfigError as e:
        raise ConfigError(f"{p}: {e}") from None


def default_topology() -> Topology:
    """The topology shipped with kpart (12 partitions, RF 3, 6 brokers in 3 racks, 2 groups)."""
    return parse_topology(DEFAULT_TOPOLOGY_TEXT)
