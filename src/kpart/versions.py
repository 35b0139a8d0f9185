"""Kafka versions, and the one table of versioned behaviour (rule → releases → behaviour).

kpart reproduces decisions Kafka changed between releases. The Kafka version is an input of
each of them, and this module is the only place that relates versions to behaviour: an
algorithm asks :func:`behaviour` for its rule's answer (a short string naming the behaviour)
and never compares versions itself. The brokers' version drives the group coordinator's
assignors (KIP-848); the client's version drives partitioners and classic assignors.

- :class:`KafkaVersion`: a parsed, known version. ``4.3`` names a release line (every patch
  release of 4.3), ``4.3.1`` one release; before 1.0 Kafka numbered with four parts, so
  ``0.10.2`` is a line and ``0.10.2.1`` a release. Parsing is strict (decimal numbers without
  leading zeros, the number of parts above) and only versions kpart knows are accepted:
  :data:`RELEASES` (Apache Kafka 0.10.0.0 to 4.3.1, as listed by Kafka's own system tests,
  ``tests/kafkatest/version.py``) and the unreleased line :data:`UNRELEASED` (4.4).
- :data:`RULES`: ``name → Rule``; each :class:`Rule` lists spans of releases with their
  behaviour and the JIRA/KIP. A version outside every span is not known to kpart; a span whose
  behaviour is ``None`` means the feature does not exist in those releases. A release line
  resolves only where all its patch releases agree (``4.0`` for the uniform assignor is
  ambiguous: 4.0.0 and 4.0.1 differ); give the patch release then.

Default version: :data:`DEFAULT_KAFKA_VERSION`, the newest release line, ``"4.3"``.
Errors: :class:`~kpart.errors.ConfigError` about the parameter ``kafka_version`` (the command
line names ``--kafka-version``), one line naming the value.

>>> KafkaVersion.parse("4.0.1") > KafkaVersion.parse("4.0.0")
True
>>> behaviour("uniform_homogeneous", "4.0.0"), behaviour("uniform_homogeneous", "4.3")
('extra-to-first', 'extra-to-last')
>>> behaviour("uniform_homogeneous", "4.x")
Traceback (most recent call last):
...
kpart.errors.ConfigError: Invalid kafka_version '4.x': expected MAJOR.MINOR or MAJOR.MINOR.PATCH, decimal numbers without leading zeros (4.3, 3.9.1; before 1.0: 0.10.2 or 0.10.2.1)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import total_ordering

from kpart.errors import ConfigError

__all__ = [
    "DEFAULT_KAFKA_VERSION",
    "RELEASES",
    "RULES",
    "UNRELEASED",
    "KafkaVersion",
    "Rule",
    "Span",
    "behaviour",
    "kafka_version",
    "releases_with",
]

#: The newest release line: the version every ``kafka_version=`` defaults to.
DEFAULT_KAFKA_VERSION = "4.3"

_PARAM = "kafka_version"
_NUMBER = re.compile(r"0|[1-9][0-9]{0,3}")


def _releases(text: str) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(p) for p in v.split(".")) for v in text.split())


#: Every Apache Kafka release kpart knows, oldest first (source: Kafka's system-test version
#: list, ``tests/kafkatest/version.py`` on branch 4.4, and on 3.9 for 0.10 to 2.0).
RELEASES: tuple[tuple[int, ...], ...] = _releases("""
    0.10.0.0 0.10.0.1 0.10.1.0 0.10.1.1 0.10.2.0 0.10.2.1 0.10.2.2
    0.11.0.0 0.11.0.1 0.11.0.2 0.11.0.3 1.0.0 1.0.1 1.0.2 1.1.0 1.1.1 2.0.0 2.0.1
    2.1.0 2.1.1 2.2.0 2.2.1 2.2.2 2.3.0 2.3.1 2.4.0 2.4.1 2.5.0 2.5.1
    2.6.0 2.6.1 2.6.2 2.6.3 2.7.0 2.7.1 2.7.2 2.8.0 2.8.1 2.8.2
    3.0.0 3.0.1 3.0.2 3.1.0 3.1.1 3.1.2 3.2.0 3.2.1 3.2.2 3.2.3 3.3.0 3.3.1 3.3.2
    3.4.0 3.4.1 3.5.0 3.5.1 3.5.2 3.6.0 3.6.1 3.6.2 3.7.0 3.7.1 3.7.2 3.8.0 3.8.1
    3.9.0 3.9.1 3.9.2 4.0.0 4.0.1 4.1.0 4.1.1 4.1.2 4.2.0 4.2.1 4.3.0 4.3.1
""")

#: Release lines that are branched but not released (known, but no rule answers for them
#: unless one of its spans names the line).
UNRELEASED: tuple[tuple[int, ...], ...] = ((4, 4),)


def _line_of(parts: tuple[int, ...]) -> tuple[int, ...]:
    return parts[:3] if parts[0] == 0 else parts[:2]


def _text(parts: tuple[int, ...]) -> str:
    return ".".join(map(str, parts))


_LINES: tuple[tuple[int, ...], ...] = tuple(dict.fromkeys(_line_of(r) for r in RELEASES))
_RANGE = (f"kpart knows Kafka {_text(RELEASES[0])} to {_text(RELEASES[-1])} "
          f"({', '.join(_text(u) for u in UNRELEASED)} unreleased)")


@total_ordering
@dataclass(frozen=True, slots=True)
class KafkaVersion:
    """A Kafka version kpart knows: a release line (``parts`` = ``(4, 3)``, or ``(0, 10, 2)``
    before 1.0) or one release (``(4, 3, 1)``, ``(0, 10, 2, 1)``). Ordered by release; a
    line sorts just before its first release. Build it with :meth:`parse`.

    >>> v = KafkaVersion.parse("3.9.1")
    >>> str(v), v.is_line, [str(r) for r in KafkaVersion.parse("4.0").releases]
    ('3.9.1', False, ['4.0.0', '4.0.1'])
    >>> KafkaVersion.parse("0.10.2.1") < KafkaVersion.parse("1.0") < KafkaVersion.parse("1.0.0")
    True
    """

    parts: tuple[int, ...]

    @classmethod
    def parse(cls, text: str | KafkaVersion, what: str = _PARAM) -> KafkaVersion:
        """``text`` as a known version (a :class:`KafkaVersion` is returned as it is).
        ``what`` names the value in errors (a library parameter, named by the command line
        as its flag). Raises :class:`~kpart.errors.ConfigError`: not a version (``4.x``,
        ``04.1``, ``4.3.0.0``), or one kpart does not know (``5.0``, ``4.0.9``, ``0.9.0.1``)."""
        if isinstance(text, KafkaVersion):
            return text
        raw = text if isinstance(text, str) else repr(text)
        pieces = raw.split(".") if isinstance(text, str) else []
        if not pieces or not all(_NUMBER.fullmatch(p) for p in pieces) or not (
            len(pieces) in (3, 4) if pieces[0] == "0" else len(pieces) in (2, 3)
        ):
            raise ConfigError.about(
                what, "Invalid {param} {value!r}: expected MAJOR.MINOR or MAJOR.MINOR.PATCH, "
                "decimal numbers without leading zeros (4.3, 3.9.1; before 1.0: 0.10.2 or "
                "0.10.2.1)", value=raw)
        parts = tuple(int(p) for p in pieces)
        line = _line_of(parts)
        known = (parts in RELEASES or (parts == line and line in _LINES)
                 or line in UNRELEASED and parts in (line, (*line, 0)))
        if not known:
            raise ConfigError.about(
                what, "Unknown {param} {value!r}: " + _RANGE.replace("{", "{{"), value=raw)
        return cls(line if line in UNRELEASED else parts)

    @property
    def is_line(self) -> bool:
        """A release line (``4.3``), standing for each of its releases."""
        return self.parts == _line_of(self.parts)

    @property
    def line(self) -> KafkaVersion:
        """The release line (``4.3`` for ``4.3.1``)."""
        return KafkaVersion(_line_of(self.parts))

    @property
    def released(self) -> bool:
        """Whether the version is released (``4.4``: no)."""
        return _line_of(self.parts) not in UNRELEASED

    @property
    def releases(self) -> tuple[KafkaVersion, ...]:
        """The releases this version stands for: itself, or every release of its line
        (an unreleased line stands for itself)."""
        if not self.is_line or not self.released:
            return (self,)
        return tuple(KafkaVersion(r) for r in RELEASES if _line_of(r) == self.parts)

    def _key(self) -> tuple[int, ...]:
        return self.parts + (-1,) * (4 - len(self.parts))

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, KafkaVersion):
            return NotImplemented
        return self._key() < other._key()

    def __str__(self) -> str:
        return _text(self.parts)


def kafka_version(value: str | KafkaVersion | None, what: str = _PARAM) -> KafkaVersion:
    """``value`` parsed (:meth:`KafkaVersion.parse`); ``None`` is
    :data:`DEFAULT_KAFKA_VERSION` (``4.3``).

    >>> str(kafka_version(None)), str(kafka_version("2.8.2"))
    ('4.3', '2.8.2')
    """
    return KafkaVersion.parse(DEFAULT_KAFKA_VERSION if value is None else value, what)


@dataclass(frozen=True, slots=True)
class Span:
    """Releases ``first`` to ``last`` (inclusive; ``last=None``: to the newest release,
    ``4.3.1``) and their ``behaviour`` (``None``: the feature does not exist there); ``ref``
    is the JIRA/KIP that starts the span, ``note`` what it does."""

    first: str
    last: str | None
    behaviour: str | None
    ref: str = ""
    note: str = ""

    def covers(self, version: KafkaVersion) -> bool:
        last = KafkaVersion.parse(self.last) if self.last else KafkaVersion(RELEASES[-1])
        return KafkaVersion.parse(self.first) <= version <= last


@dataclass(frozen=True, slots=True)
class Rule:
    """One versioned decision: what it decides, whose version drives it (``"broker"`` or
    ``"client"``), its spans (oldest first) and the feature name errors use."""

    name: str
    decision: str
    side: str
    feature: str
    spans: tuple[Span, ...]

    def span_of(self, version: KafkaVersion) -> Span | None:
        """The span holding release ``version``, or ``None`` when kpart does not know it."""
        return next((s for s in self.spans if s.covers(version)), None)


#: The table: rule name → :class:`Rule`. Behaviour names are what the algorithms dispatch on.
RULES: Mapping[str, Rule] = {r.name: r for r in (
    Rule(
        "uniform_homogeneous",
        "KIP-848 uniform assignor, homogeneous group: which members take the extra partitions "
        "when the partitions do not divide evenly",
        "broker", "the KIP-848 uniform assignor",
        (
            Span("0.10.0.0", "3.6.2", None, "KIP-848",
                 "server-side assignors start with KIP-848's early access in 3.7.0"),
            Span("4.0.0", "4.0.0", "extra-to-first", "KAFKA-16864",
                 "the first members in iteration order take the extra partitions"),
            Span("4.0.1", None, "extra-to-last", "KAFKA-18688, PR #19677",
                 "the last members take them, and a member already filling an extra slot "
                 "keeps it"),
        ),
    ),
    Rule(
        "subscription_names_set",
        "KIP-848 group coordinator: how a member's set of subscribed topic names is built, "
        "which orders the topics the homogeneous uniform builder walks when their ids share a "
        "HashSet bucket (only for 12, 24, 48, ... names)",
        "broker", "the KIP-848 uniform assignor",
        (
            Span("0.10.0.0", "3.6.2", None, "KIP-848",
                 "server-side assignors start with KIP-848's early access in 3.7.0"),
            Span("4.0.0", "4.0.0", "filled", "golden vectors (trunk 1eb7644)",
                 "a HashSet filled name by name, as the 4.0.0 golden vectors were made"),
            Span("4.0.1", None, "copied", "golden vectors (branch 4.3)",
                 "new HashSet<>(list) as ConsumerGroupMember.Builder builds it (Java 17 "
                 "sizing), as Kafka 4.3's golden vectors were made"),
        ),
    ),
    Rule(
        "uniform_heterogeneous",
        "KIP-848 uniform assignor, heterogeneous group: the balancing builder",
        "broker", "the KIP-848 uniform assignor",
        (
            Span("0.10.0.0", "3.6.2", None, "KIP-848",
                 "server-side assignors start with KIP-848's early access in 3.7.0"),
            Span("4.0.0", None, "kafka-17710", "KAFKA-17710, PR #17385",
                 "the reworked heterogeneous builder (unchanged through 4.3)"),
        ),
    ),
    Rule(
        "round_robin_partitioner",
        "RoundRobinPartitioner: the partition of a record that needs a new batch (the "
        "producer calls partition() again after onNewBatch)",
        "client", "RoundRobinPartitioner",
        (
            Span("0.10.0.0", "2.3.1", None, "KAFKA-3333",
                 "RoundRobinPartitioner was added in 2.4.0"),
            Span("2.4.0", "3.9.1", "kafka-9965", "KAFKA-9965",
                 "the second call advances the counter again: with an even partition count "
                 "records sent back to back skip every other partition (3.9.1 too: the 3.9 "
                 "backport was committed 2025-08-19, after 3.9.1)"),
            Span("3.9.2", "3.9.2", "kafka-17632", "KAFKA-17632, PR #17620",
                 "onNewBatch remembers the partition and the second call returns it"),
            Span("4.0.0", None, "kafka-17632", "KAFKA-18295",
                 "onNewBatch is gone and the producer partitions a record once: the same "
                 "partitions as 3.9.2"),
        ),
    ),
    # -- producer: where a record goes (kpart.producer) -----------------------------------
    Rule(
        "key_partitioner",
        "Java producer, record with a key (default partitioner): toPositive(murmur2(key)) % "
        "numPartitions",
        "client", "the Java producer's key partitioner",
        (
            Span("0.10.0.0", None, "murmur2", "KAFKA-1488 (0.8.2)",
                 "unchanged since 0.8.2 (Utils.abs was n & 0x7fffffff, toPositive's mask; 4.x "
                 "reads the 4-byte blocks with a VarHandle, the same hash): keyed records never "
                 "move between client versions"),
            Span("4.4", "4.4", "murmur2", "branch 4.4",
                 "the same on branch 4.4 (KIP-1123 changes records without a key only)"),
        ),
    ),
    Rule(
        "null_key_partitioner",
        "Java producer, record without a key and no partitioner.class: how its partition is "
        "chosen",
        "client", "the Java producer's null-key partitioning",
        (
            Span("0.10.0.0", "0.10.1.1", "round-robin-shared", "DefaultPartitioner",
                 "round robin over the available partitions from a random start, one counter "
                 "for every topic"),
            Span("0.10.2.0", "2.3.1", "round-robin", "KAFKA-4402",
                 "round robin with one counter per topic (random start)"),
            Span("2.4.0", "3.2.3", "sticky", "KIP-480",
                 "DefaultPartitioner + StickyPartitionCache: one random partition until a new "
                 "batch is needed"),
            Span("3.3.0", None, "builtin", "KIP-794",
                 "BuiltInPartitioner: uniform sticky by bytes (batch.size), adaptive to queue "
                 "sizes (partitioner.adaptive.partitioning.enable)"),
            Span("4.4", "4.4", "builtin", "KIP-1123",
                 "the same, and rack-aware when partitioner.rack.aware=true (rule "
                 "partitioner_rack_aware)"),
        ),
    ),
    Rule(
        "sticky_partitioner_classes",
        "Java producer: the KIP-480 partitioner classes DefaultPartitioner and "
        "UniformStickyPartitioner as partitioner.class (kpart strategies sticky, "
        "uniform-sticky)",
        "client", "sticky partitioning by partitioner.class (KIP-480's DefaultPartitioner, "
        "UniformStickyPartitioner)",
        (
            Span("0.10.0.0", "2.3.1", None, "KIP-480",
                 "sticky partitioning starts with KIP-480 in 2.4.0"),
            Span("2.4.0", "3.9.2", "kip-480", "KIP-480",
                 "StickyPartitionCache; deprecated by KIP-794 in 3.3.0"),
            Span("4.0.0", "4.4", None, "KAFKA-18262, PR #18204",
                 "DefaultPartitioner and UniformStickyPartitioner are removed in 4.0.0"),
        ),
    ),
    Rule(
        "builtin_zero_batch_size",
        "Java producer, BuiltInPartitioner with batch.size=0: what a send without a key does",
        "client", "the built-in partitioner (KIP-794)",
        (
            Span("0.10.0.0", "3.2.3", None, "KIP-794",
                 "the built-in partitioner starts with KIP-794 in 3.3.0"),
            Span("3.3.0", "3.3.1", "hangs", "KIP-794",
                 "send() never returns (an endless loop: the sticky partition never fills)"),
            Span("3.3.2", None, "one-byte", "KAFKA-14303, PR #12752",
                 "batch.size=0 is used as 1 byte"),
            Span("4.4", "4.4", "one-byte", "branch 4.4", "the same on branch 4.4"),
        ),
    ),
    Rule(
        "partitioner_rack_aware",
        "Java producer, BuiltInPartitioner with partitioner.rack.aware=true and client.rack: "
        "records without a key prefer partitions led in the producer's rack",
        "client", "rack-aware null-key partitioning (partitioner.rack.aware)",
        (
            Span("0.10.0.0", "4.3.1", None, "KIP-1123",
                 "partitioner.rack.aware starts with KIP-1123 on branch 4.4 (unreleased)"),
            Span("4.4", "4.4", "kip-1123", "KIP-1123, KAFKA-19193",
                 "the sticky partition is drawn among the available partitions led in "
                 "client.rack (all of them if none), by queue sizes in that rack when "
                 "adaptive"),
        ),
    ),
    Rule(
        "server_range",
        "KIP-848 range assignor (group coordinator's RangeAssignor)",
        "broker", "the KIP-848 range assignor",
        (
            Span("0.10.0.0", "3.6.2", None, "KIP-848",
                 "server-side assignors start with KIP-848's early access in 3.7.0"),
            Span("4.0.0", None, "co-partitioned", "KIP-848",
                 "co-partitioned ranges, sticky for the members' current ranges"),
        ),
    ),
    # -- regex subscriptions (KAFKA-17593) ----------------------------------------------
    Rule(
        "subscription_type",
        "KIP-848 group coordinator: whether a group is homogeneous (every member subscribed to "
        "the same topics: the assignors' homogeneous builders) or heterogeneous",
        "broker", "the KIP-848 subscription type",
        (
            Span("0.10.0.0", "3.6.2", None, "KIP-848",
                 "server-side assignors start with KIP-848's early access in 3.7.0"),
            Span("3.7.0", "3.9.2", "same-names", "KIP-848",
                 "homogeneous iff every member subscribes to the same topic names "
                 "(ConsumerGroupHeartbeat v0 has no regex)"),
            Span("4.0.0", None, "single-regex", "KAFKA-17593, PR #18020",
                 "with regexes, homogeneous iff every member uses the same single regex and "
                 "none subscribes by name (even to the regex's topics); without, as before"),
        ),
    ),
    Rule(
        "regex_subscription",
        "KIP-848 group coordinator: which regexes a member may subscribe with "
        "(subscribe(SubscriptionPattern), resolved by the broker with RE2/J, full match on "
        "every topic name of the metadata image)",
        "broker", "the regex subscription (subscribed_topic_regex)",
        (
            Span("0.10.0.0", "3.9.2", None, "KIP-848",
                 "the broker resolves regexes from 4.0.0 (ConsumerGroupHeartbeat v1's "
                 "SubscribedTopicRegex, KAFKA-17593)"),
            Span("4.0.0", "4.0.1", "re2j-1.7", "KAFKA-17593, PR #17864",
                 "RE2/J 1.7: (?<name>re) does not compile (write (?P<name>re))"),
            Span("4.1.0", None, "re2j-1.8", "RE2/J 1.8 (Kafka 4.1's dependency)",
                 "RE2/J 1.8: (?<name>re) compiles too"),
        ),
    ),
    # -- placement (kafka-reassign-partitions --generate, the KRaft placer, ZooKeeper's
    # -- partition additions, cordoned log dirs) ------------------------------------------
    Rule(
        "generate_placer",
        "kafka-reassign-partitions --generate: the placer that proposes each topic's replicas",
        "broker", "kafka-reassign-partitions --generate",
        (
            Span("0.10.0.0", "4.0.1", "adminutils", "AdminUtils.assignReplicasToBrokers",
                 "AdminUtils' rack-alternated placement, a random start index and shift"),
            Span("4.1.0", None, "striped", "KAFKA-18798 (PR #18914), KAFKA-18799",
                 "the KRaft controller's StripedReplicaPlacer, one Random for every topic; "
                 "AdminUtils is gone"),
        ),
    ),
    Rule(
        "adminutils_placer",
        "AdminUtils.assignReplicasToBrokers: ZooKeeper-era topic creation and --generate up "
        "to 4.0",
        "broker", "the AdminUtils placer",
        (
            Span("0.10.0.0", "4.0.1", "adminutils", "AdminUtils",
                 "rack-alternated placement from a start index and a shift"),
            Span("4.1.0", None, None, "KAFKA-18799",
                 "AdminUtils is removed in 4.1.0 (KAFKA-18799); the controller and --generate "
                 "place with the striped placer"),
        ),
    ),
    Rule(
        "zookeeper_topic_creation",
        "Topic creation in ZooKeeper mode (the brokers place new topics' replicas with "
        "AdminUtils) beside the KRaft controller's",
        "broker", "ZooKeeper mode",
        (
            Span("0.10.0.0", "3.9.2", "zookeeper-or-kraft", "KIP-500",
                 "ZooKeeper mode places new topics with AdminUtils; KRaft mode (3.0+, "
                 "production-ready in 3.3) with the striped placer: the topology says which"),
            Span("4.0.0", None, None, "KIP-833",
                 "ZooKeeper mode is removed in 4.0.0: every topic is created by the KRaft "
                 "controller's StripedReplicaPlacer"),
        ),
    ),
    Rule(
        "consumer_assignment_interval",
        "KIP-848 group coordinator: how long after a target assignment the next one may be "
        "computed (group.consumer.assignment.interval.ms): changes in between wait and are "
        "assigned together",
        "broker", "target assignment batching (KIP-1263)",
        (
            Span("0.10.0.0", "3.6.2", None, "KIP-848",
                 "the consumer rebalance protocol starts in 3.7.0"),
            Span("3.7.0", "4.2.1", "0", "KIP-848",
                 "every group change computes a new target assignment at once"),
            Span("4.3.0", None, "1000", "KIP-1263, KAFKA-20251",
                 "a new target at most every group.consumer.assignment.interval.ms (default "
                 "1,000 ms) after the previous one: changes in between are batched"),
        ),
    ),
    Rule(
        "striped_placer",
        "KRaft controller's StripedReplicaPlacer (CreateTopics, CreatePartitions): its "
        "placement and its InvalidReplicationFactorException messages",
        "broker", "the KRaft striped placer",
        (
            Span("0.10.0.0", "2.8.2", None, "KIP-500",
                 "the KRaft controller and its StripedReplicaPlacer start in 3.0.0"),
            Span("3.0.0", "4.2.1", "fenced", "KIP-631",
                 "striped placement; 'All brokers are currently fenced.'"),
            Span("4.3.0", None, "cordoned", "KIP-1066",
                 "the same placement; the messages name cordoned log directories too"),
        ),
    ),
    Rule(
        "zk_add_partitions",
        "ZooKeeper mode, kafka-topics --alter --partitions: where AdminUtils starts the new "
        "partitions (AdminZkClient.createNewPartitionsAssignment)",
        "broker", "adding partitions in ZooKeeper mode",
        (
            Span("0.10.0.0", "3.9.2", "first-at-or-above", "KAFKA-2146",
                 "the start index is the first broker whose id is >= partition 0's first "
                 "replica"),
            Span("4.0.0", None, None, "KIP-833",
                 "ZooKeeper mode is removed in 4.0.0 (KRaft adds partitions with the striped "
                 "placer)"),
        ),
    ),
    Rule(
        "cordoned_log_dirs",
        "Cordoned log dirs: a broker whose log dirs are all cordoned is not usable for "
        "placement",
        "broker", "cordoning log dirs (cordoned.log.dirs)",
        (
            Span("0.10.0.0", "4.2.1", None, "KIP-1066",
                 "cordoned.log.dirs starts with KIP-1066 in 4.3.0"),
            Span("4.3.0", None, "unusable", "KIP-1066",
                 "the controller's usable brokers skip a broker with every log dir cordoned"),
        ),
    ),
    # -- share groups (KIP-932) ------------------------------------------------------------
    Rule(
        "share_simple",
        "KIP-932 share groups: the group coordinator's SimpleAssignor (which members share "
        "which partitions)",
        "broker", "the share-group simple assignor",
        (
            Span("0.10.0.0", "3.9.2", None, "KIP-932",
                 "share groups start with KIP-932's early access in 4.0.0"),
            Span("4.0.0", "4.0.1", "every-partition", "KAFKA-16741",
                 "every member gets every partition of its subscribed topics"),
            Span("4.1.0", "4.1.2", "hash-round-robin", "KAFKA-18757, KAFKA-18901",
                 "the first full algorithm: members hashed onto partitions, the current "
                 "assignment kept where there is room, the rest round robin"),
            Span("4.2.0", None, "balanced-sharing", "KAFKA-19362, KAFKA-19363",
                 "the final homogeneous and heterogeneous builders: desired sharing "
                 "ceil(members / partitions), balance before stickiness"),
        ),
    ),
    Rule(
        "streams_sticky_assignor",
        "KIP-1071 Streams groups: the group coordinator's StickyTaskAssignor (which member "
        "takes each active and standby task)",
        "broker", "the Streams groups' sticky task assignor",
        (
            Span("0.10.0.0", "4.0.1", None, "KIP-1071",
                 "Streams groups start with KIP-1071's early access in 4.1.0"),
            # 4.1.0 to 4.1.2 (early access, before KAFKA-19478): not modelled.
            Span("4.2.0", None, "kafka-20899", "KAFKA-19478, KAFKA-19661, KAFKA-20899",
                 "heaps of processes and members, range-style order, standbys below the "
                 "quota, and KAFKA-20899's standby fix as branches 4.2 and 4.3 hold it (it "
                 "landed after 4.2.1 and 4.3.1, for 4.2.2 and 4.3.2, which kpart does not "
                 "know yet; the golden vectors come from branch 4.3 with the fix)"),
        ),
    ),
    # -- coordinators: which partition of an internal topic a key maps to ------------------
    Rule(
        "group_coordinator",
        "group coordinator: the `__consumer_offsets` partition of a group id (its leader "
        "coordinates the group)",
        "broker", "the group coordinator",
        (
            Span("0.10.0.0", None, "abs-hashcode", "KAFKA-1012",
                 "Utils.abs(groupId.hashCode()) % offsets.topic.num.partitions "
                 "(GroupMetadataManager, GroupCoordinatorService from 4.0)"),
        ),
    ),
    Rule(
        "transaction_coordinator",
        "transaction coordinator: the `__transaction_state` partition of a transactional id",
        "broker", "the transaction coordinator",
        (
            Span("0.10.0.0", "0.10.2.2", None, "KIP-98",
                 "transactions start in 0.11.0.0 (KIP-98)"),
            Span("0.11.0.0", None, "abs-hashcode", "KIP-98",
                 "Utils.abs(transactionalId.hashCode()) % transaction.state.log.num.partitions "
                 "(TransactionStateManager.partitionFor)"),
        ),
    ),
    Rule(
        "share_coordinator",
        "share coordinator: the `__share_group_state` partition of a share partition's state",
        "broker", "the share coordinator",
        (
            Span("0.10.0.0", "3.9.2", None, "KIP-932",
                 "share groups start with KIP-932's early access in 4.0.0"),
            Span("4.0.0", None, "abs-format-hashcode", "KIP-932",
                 "Utils.abs(String.format(\"%s:%s:%d\", groupId, topicId, partition)"
                 ".hashCode()) % share.coordinator.state.topic.num.partitions "
                 "(ShareCoordinatorService.partitionFor)"),
        ),
    ),
    Rule(
        "remote_log_metadata_partitioner",
        "tiered storage: the `__remote_log_metadata` partition of a topic partition's remote "
        "log metadata",
        "broker", "the topic-based remote log metadata manager",
        (
            Span("0.10.0.0", "3.5.2", None, "KIP-405",
                 "tiered storage starts with KIP-405's early access in 3.6.0"),
            Span("3.6.0", None, "murmur2-objects-hash", "KIP-405",
                 "toPositive(murmur2(Objects.hash(lsb, msb, partition) as 4 big-endian "
                 "bytes)) % remote.log.metadata.topic.num.partitions "
                 "(RemoteLogMetadataTopicPartitioner)"),
        ),
    ),
    # -- KIP-966 eligible leader replicas (kpart.cluster.partition_change) --------------------
    Rule(
        "eligible_leader_replicas",
        "KIP-966 eligible leader replicas: whether the controller can keep an ELR, and whether "
        "it is on by default (what kpart outage's events assume without --elr/--no-elr)",
        "broker", "eligible leader replicas (KIP-966)",
        (
            Span("0.10.0.0", "3.6.2", None, "KIP-966",
                 "eligible leader replicas start in 3.7.0"),
            Span("3.7.0", "3.9.2", "config-gated", "KIP-966",
                 "off unless the controllers set eligible.leader.replicas.enable=true"),
            Span("4.0.0", "4.0.1", "feature-gated", "KAFKA-18062, PR #17867",
                 "off unless the feature eligible.leader.replicas.version=1 is finalized"),
            Span("4.1.0", None, "on-for-new-clusters", "KIP-966",
                 "on for clusters created at 4.1 or later (eligible.leader.replicas.version=1); "
                 "off on upgraded clusters until the feature is finalized"),
        ),
    ),
    Rule(
        "unclean_shutdown_detection",
        "KIP-966 with ELR on: whether a broker registering after an unclean shutdown leaves "
        "every ISR and ELR it is in",
        "broker", "eligible leader replicas (KIP-966)",
        (
            Span("0.10.0.0", "3.6.2", None, "KIP-966",
                 "eligible leader replicas start in 3.7.0"),
            Span("3.7.0", "3.7.2", "clean-only", "KIP-966",
                 "not detected yet: the broker is treated as after a clean shutdown"),
            Span("3.8.0", "3.9.2", "detected", "KAFKA-15586, PR #14706",
                 "the broker leaves every ISR and ELR"),
            Span("4.0.0", "4.0.1", "clean-only", "KAFKA-18635",
                 "the detection was inadvertently removed"),
            Span("4.1.0", None, "detected", "KAFKA-18635, PR #18277",
                 "the detection is back"),
        ),
    ),
    Rule(
        "last_known_leader",
        "KIP-966 with ELR on and ISR and ELR empty: when LastKnownElr records the last leader, "
        "and whether a fenced last leader can be elected",
        "broker", "eligible leader replicas (KIP-966)",
        (
            Span("0.10.0.0", "3.6.2", None, "KIP-966",
                 "eligible leader replicas start in 3.7.0"),
            Span("3.7.0", "4.0.1", "isr-emptied-even-if-fenced", "KIP-966",
                 "recorded when the ISR becomes empty; elected even while still fenced"),
            Span("4.1.0", "4.1.0", "isr-emptied", "KAFKA-19522, PR #20200",
                 "elected only when it is an acceptable (unfenced) leader"),
            Span("4.1.1", None, "leaderless", "PR #20655 (#20629 on 4.2)",
                 "recorded when the partition first becomes leaderless, cleared once it has a "
                 "leader (PartitionChangeBuilder at 4.3)"),
        ),
    ),
    # -- classic client assignors (partition.assignment.strategy; the client's version) -------
    Rule(
        "classic_range",
        "classic RangeAssignor (client side): the order of each topic's consumers, and "
        "whether replica racks count",
        "client", "the range assignor",
        (
            Span("0.10.1.0", "2.3.1", "member-id", "KAFKA-3661",
                 "consumers sorted by member id, racks ignored (0.10.0.x, before KAFKA-3661's "
                 "handling of topics missing from the metadata, is not modelled)"),
            Span("2.4.0", "3.4.1", "static-first", "KAFKA-8355 (KIP-345)",
                 "static members first, by group.instance.id, then the others by member id; "
                 "racks ignored"),
            Span("3.5.0", None, "rack-aware", "KAFKA-14451 (KIP-881), KAFKA-14891",
                 "the same order; partitions matched to consumers on their replicas' racks "
                 "first when client.rack is set"),
        ),
    ),
    Rule(
        "classic_round_robin",
        "classic RoundRobinAssignor (client side): the order in which consumers are dealt "
        "partitions",
        "client", "the roundrobin assignor",
        (
            Span("0.10.1.0", "2.3.1", "member-id", "KAFKA-3661",
                 "consumers sorted by member id (0.10.0.x, where a topic missing from the "
                 "metadata throws, is not modelled)"),
            Span("2.4.0", None, "static-first", "KAFKA-8356 (KIP-345)",
                 "static members first, by group.instance.id, then the others by member id"),
        ),
    ),
    Rule(
        "cooperative_sticky",
        "classic CooperativeStickyAssignor (client side): whether the client has it",
        "client", "the cooperative-sticky assignor",
        (
            Span("0.10.0.0", "2.3.1", None, "KIP-429",
                 "CooperativeStickyAssignor was added in 2.4.0 (KAFKA-8179)"),
            Span("2.4.0", None, "exists", "KIP-429, KAFKA-8179",
                 "the cooperative sticky assignor (its output: rule classic_sticky)"),
        ),
    ),
    Rule(
        "default_assignment_strategy",
        "the consumer's default partition.assignment.strategy (the group runs the first, "
        "which every member supports: what kpart assign, rebalance and migrate run when no "
        "assignor is named)",
        "client", "the default partition.assignment.strategy",
        (
            Span("0.10.0.0", "2.8.2", "range", "KAFKA-2464",
                 "[RangeAssignor]"),
            Span("3.0.0", None, "range,cooperative-sticky", "KAFKA-13023 (KIP-726)",
                 "[RangeAssignor, CooperativeStickyAssignor]"),
        ),
    ),
    Rule(
        "classic_sticky",
        "Classic client StickyAssignor / CooperativeStickyAssignor (AbstractStickyAssignor): "
        "which owned partitions a member keeps and where the others go",
        "client", "the classic sticky assignors",
        (
            Span("0.10.0.0", "2.3.1", None, "KIP-429",
                 "kpart models the sticky assignors from 2.4.0 (cooperative-sticky starts "
                 "there)"),
            Span("2.4.0", "2.5.0", "2.4.0", "KIP-429",
                 "the general algorithm for every group, plus the cooperative variant"),
            Span("2.5.1", "2.8.0", "2.5.1", "KAFKA-9987",
                 "the constrained algorithm when every member subscribes to the same topics"),
            Span("2.8.1", "2.8.2", "2.8.1", "KAFKA-13081",
                 "doubly claimed partitions detected and handled (2.8 branch)"),
            Span("3.0.0", "3.4.0", "3.0.0", "KAFKA-12464, KAFKA-12675, KAFKA-12984",
                 "only the highest generation's claims count; the reworked general algorithm"),
            Span("3.4.1", "3.4.1", "3.4.1", "KAFKA-14639",
                 "claims of every generation count, the highest generation wins"),
            Span("3.5.0", "3.5.1", "3.5.0", "KIP-881 (KAFKA-14452)",
                 "rack-aware sticky assignment"),
            Span("3.5.2", "3.7.0", "3.5.2", "KAFKA-15106",
                 "the general algorithm's balance check is fixed"),
            Span("3.7.1", "4.4", "3.7.1", "KAFKA-16277, KAFKA-15170",
                 "owned partitions kept in partition order; the rack-aware round robin fixed"),
        ),
    ),
)}


def rule(name: str) -> Rule:
    """The rule called ``name`` (a ``KeyError`` for a name not in :data:`RULES`: a bug)."""
    return RULES[name]


def behaviour(rule_name: str, version: str | KafkaVersion | None = None,
              what: str = _PARAM) -> str:
    """The behaviour of rule ``rule_name`` in Kafka ``version`` (default
    :data:`DEFAULT_KAFKA_VERSION`). Raises :class:`~kpart.errors.ConfigError` naming the
    version: unparseable or unknown; kpart does not know the rule's behaviour there; the
    feature does not exist there; or a release line whose releases differ.

    >>> behaviour("uniform_homogeneous", "4.0")
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: kafka_version '4.0' is ambiguous for the KIP-848 uniform assignor: 4.0.0 extra-to-first, 4.0.1 extra-to-last (KAFKA-18688, PR #19677); give the patch release
    >>> behaviour("server_range", "3.6.2")
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: The KIP-848 range assignor does not exist in kafka_version '3.6.2': server-side assignors start with KIP-848's early access in 3.7.0; kpart supports it for 4.0.0 to 4.3.1
    """
    # (answers are cached: assignors ask once per call, simulations once per step)
    try:
        return _behaviour(rule_name, version, what)
    except TypeError:  # an unhashable value (not a version): the uncached path names it
        return _behaviour.__wrapped__(rule_name, version, what)


@functools.lru_cache(maxsize=512)
def _behaviour(rule_name: str, version: str | KafkaVersion | None, what: str) -> str:
    v = kafka_version(version, what)
    r = RULES[rule_name]
    found: dict[str, tuple[KafkaVersion, Span]] = {}
    for release in v.releases:
        span = r.span_of(release)
        if span is None:
            raise ConfigError.about(
                what, "{feature} is not known to kpart for {param} {value!r}: kpart "
                "supports it for {supported}", feature=_cap(r.feature), value=str(v),
                supported=_supported(r))
        if span.behaviour is None:
            raise ConfigError.about(
                what, "{feature} does not exist in {param} {value!r}: {note}; kpart supports "
                "it for {supported}", feature=_cap(r.feature), value=str(v), note=span.note,
                supported=_supported(r))
        found.setdefault(span.behaviour, (release, span))
    if len(found) > 1:
        listed = ", ".join(f"{rel} {b}" for b, (rel, _) in found.items())
        refs = "; ".join(s.ref for _, s in list(found.values())[1:])
        raise ConfigError.about(
            what, "{param} {value!r} is ambiguous for {feature}: {listed} ({refs}); give the "
            "patch release", value=str(v), feature=r.feature, listed=listed, refs=refs)
    return next(iter(found))


def releases_with(rule_name: str, *behaviours: str) -> str:
    """The releases where rule ``rule_name`` answers one of ``behaviours``, as ``first to
    last`` ranges (for error messages naming where a behaviour exists).

    >>> releases_with("round_robin_partitioner", "kafka-17632")
    '3.9.2 to 4.3.1'
    """
    r = RULES[rule_name]
    return _supported(Rule(r.name, r.decision, r.side, r.feature, tuple(
        s for s in r.spans if s.behaviour in behaviours)))


def first_release_with(rule_name: str, behaviour: str) -> KafkaVersion:
    """The oldest release where rule ``rule_name`` answers ``behaviour``: a release standing
    for a behaviour (a strategy named after it, a deprecated flag). ``KeyError`` for a
    behaviour the rule never answers.

    >>> str(first_release_with("round_robin_partitioner", "kafka-17632"))
    '3.9.2'
    """
    span = next((s for s in RULES[rule_name].spans if s.behaviour == behaviour), None)
    if span is None:
        raise KeyError(f"rule {rule_name!r} never answers {behaviour!r}")
    return KafkaVersion.parse(span.first)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _supported(r: Rule) -> str:
    """The releases where ``r`` has a behaviour, as ``first to last`` ranges."""
    spans = [s for s in r.spans if s.behaviour is not None]
    out: list[str] = []
    for s in spans:
        last = s.last or _text(RELEASES[-1])
        if out and _follows(out[-1].split(" to ")[-1], s.first):
            out[-1] = f"{out[-1].split(' to ')[0]} to {last}"
        else:
            out.append(s.first if s.first == last else f"{s.first} to {last}")
    return ", ".join(out)


def _follows(last: str, first: str) -> bool:
    """Whether release ``first`` comes right after release ``last`` in :data:`RELEASES`."""
    a = tuple(int(p) for p in last.split("."))
    b = tuple(int(p) for p in first.split("."))
    if b in UNRELEASED:  # an unreleased line follows the newest release
        return a == RELEASES[-1]
    return a in RELEASES and b in RELEASES and RELEASES.index(b) == RELEASES.index(a) + 1
