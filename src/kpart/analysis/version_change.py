"""What changes in a topology's computed decisions when its Kafka moves to another version:
``kpart report --compare-version V``'s section ("what changes at Kafka V").

One concept: the topology's decisions at its own versions (:meth:`Topology.version_of
<kpart.topology.Topology.version_of>`: the brokers' ``kafka_version``, each group's and topic's
``client_version``, each kpart's default 4.3 when not given) beside the same decisions with
brokers *and* clients at ``V`` (a whole-fleet upgrade or downgrade). Existing replicas do not
move on an upgrade, so both sides assign the partitions as the report placed them.

- Consumer groups: each group's assignment on both sides
  (:func:`kpart.consumer.migration.compare`: the partitions changing owner, per member, and each
  side's balance). A KIP-848 group (``uniform``, ``server-range``) follows the brokers' version,
  a classic one its clients'. A classic assignor kpart does not model by version yet is listed
  as not compared, with the reason (unless ``V`` is on its clients' release line: the
  same answer, nothing moves); never the same answer printed twice as if nothing moved.
- Producers: each topic's records, from its producer's client version
  (:meth:`Topology.version_of <kpart.topology.Topology.version_of>`: the topic's
  ``client_version``, else 4.3) to ``V``, as ``kpart upgrade --keys`` compares them
  (:func:`kpart.producer.upgrade.null_key_upgrade`, on the counts the report measured:
  :func:`measured_records`). Keyed records follow the key partitioner rule
  (``toPositive(murmur2(key)) % n`` in every version: none moves, both versions checked).
  Records without a key follow the null-key strategy: the client's own (``null_key_strategy =
  "client"`` or ``"separate"``: legacy round robin, KIP-480 sticky, KIP-794 built-in by
  version; random in Java on both sides, so their expected share, ``1/n`` per partition, is
  given and none is counted as moved) or ``RoundRobinPartitioner`` (``"round-robin"``,
  ``"round-robin-fixed"``: per record in send order, KAFKA-9965 up to 3.9.1, KAFKA-17632 from
  3.9.2 (rule ``round_robin_partitioner``), assuming each record needs a new batch). A topic whose partitioner is not the Java
  client's, or whose ``null_key_strategy`` names a strategy whatever the version
  (``builtin``, ``sticky``, ...), is listed as not compared, with the reason.

Errors: :class:`~kpart.errors.ConfigError` about ``compare_version`` (the command line names
``--compare-version``): not a version, unknown, or a version where a KIP-848 group's assignor
or a topic's ``RoundRobinPartitioner`` does not exist, or is ambiguous (``4.0`` for
``uniform``: 4.0.0 and 4.0.1 differ; ``3.9`` for ``RoundRobinPartitioner``).

>>> from kpart.analysis.layout import resolve_cluster
>>> from kpart.topology import parse_topology
>>> t = parse_topology('''kafka_version = "4.0.0"
... [topic]
... name = "t"
... partitions = 3
... key = "k"
... [[groups]]
... name = "g"
... strategy = "uniform"
... members = ["m1", "m2"]''')
>>> change = version_change(t, resolve_cluster(t).topics, "4.3")
>>> g = change.groups[0]
>>> g.from_version, g.to_version, g.change.moved, g.change.moves[0]
('4.0.0', '4.3', 1, PartitionMove(topic='t', partition=1, from_member='m1', to_member='m2'))
>>> p = change.with_records(t, {"t": TopicRecords(records=10, null_key_records=4)}).producers[0]
>>> p.from_version, p.keyed_records, p.null_keys.null_key_strategies, p.null_keys.moved
('4.3', 6, ('builtin', 'builtin'), 0)
>>> version_change(t, resolve_cluster(t).topics, "4.0")
Traceback (most recent call last):
...
kpart.errors.ConfigError: compare_version '4.0' is ambiguous for the KIP-848 uniform assignor: 4.0.0 extra-to-first, 4.0.1 extra-to-last (KAFKA-18688, PR #19677); give the patch release
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from kpart.consumer import CONSUMER, assign, get_strategy
from kpart.consumer.migration import AssignmentChange, compare
from kpart.producer.upgrade import ProducerUpgrade, null_key_upgrade
from kpart.versions import DEFAULT_KAFKA_VERSION, KafkaVersion, behaviour

if TYPE_CHECKING:  # pragma: no cover
    from kpart.analysis.layout import ResolvedTopology
    from kpart.topology import TopicConfig, Topology

__all__ = ["GroupVersionChange", "ProducerVersionChange", "TopicRecords", "VersionChange",
           "measured_records", "producer_changes", "version_change"]

_WHAT = "compare_version"


@dataclass(frozen=True, slots=True)
class GroupVersionChange:
    """One group on both sides: ``group``, ``strategy``, whose version it ``follows``
    (``"brokers"``: a KIP-848 assignor; ``"clients"``: a classic one), ``from_version`` (the
    topology's) and ``to_version``; ``change`` the comparison (``None``: not compared, see
    ``reason``)."""

    group: str
    strategy: str
    follows: str
    from_version: str
    to_version: str
    change: AssignmentChange | None
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"group", "strategy", "follows", "from_version", "to_version", "compared": bool}``
        and, compared, the fields of :meth:`AssignmentChange.to_json
        <kpart.consumer.migration.AssignmentChange.to_json>` (``before``/``after`` each with
        its ``label``, the version; ``moved``, ``moves``, ``members``); else ``"reason"``."""
        doc: dict[str, Any] = {"group": self.group, "strategy": self.strategy,
                               "follows": self.follows, "from_version": self.from_version,
                               "to_version": self.to_version,
                               "compared": self.change is not None}
        if self.change is None:
            doc["reason"] = self.reason
        else:
            doc.update(self.change.to_json())
        return doc


@dataclass(frozen=True, slots=True)
class TopicRecords:
    """A topic's records as the report measured them: ``records`` (all, with and without a
    key) and ``null_key_records`` (without a key)."""

    records: int
    null_key_records: int


@dataclass(frozen=True, slots=True)
class ProducerVersionChange:
    """One topic's producer on both sides: ``topic``, its ``partitioner`` id and configured
    ``null_key_strategy``, ``from_version`` (its client's) and ``to_version``;
    ``keyed_records`` (none moves: the key partitioner rule is the same on both sides) and
    ``null_keys``: the records without a key compared
    (:func:`kpart.producer.upgrade.null_key_upgrade`; ``None``: not compared, see
    ``reason``)."""

    topic: str
    partitioner: str
    null_key_strategy: str
    from_version: str
    to_version: str
    keyed_records: int
    null_keys: ProducerUpgrade | None
    reason: str | None = None

    @property
    def moved(self) -> int:
        """Records that change partition (keyed: none; without a key: per record under
        ``RoundRobinPartitioner``, none counted under the default partitioner)."""
        return 0 if self.null_keys is None else self.null_keys.moved

    def to_json(self) -> dict[str, Any]:
        """``{"topic", "partitioner", "null_key_strategy", "from_version", "to_version",
        "compared": bool, "keyed_records", "keyed_moved": 0}`` and, compared, ``"moved"`` and
        ``"null_keys"``: :meth:`ProducerUpgrade.to_json
        <kpart.producer.upgrade.ProducerUpgrade.to_json>` of the records without a key
        (``partitioner``: ``default`` or ``round-robin``; ``null_key_strategy`` ``{"from",
        "to"}``; ``per_record``; ``moved``; ``records_per_partition``; ``note``); else
        ``"reason"``."""
        doc: dict[str, Any] = {"topic": self.topic, "partitioner": self.partitioner,
                               "null_key_strategy": self.null_key_strategy,
                               "from_version": self.from_version,
                               "to_version": self.to_version,
                               "compared": self.null_keys is not None,
                               "keyed_records": self.keyed_records, "keyed_moved": 0}
        if self.null_keys is None:
            doc["reason"] = self.reason
        else:
            doc["moved"] = self.moved
            doc["null_keys"] = self.null_keys.to_json()
        return doc


@dataclass(frozen=True, slots=True)
class VersionChange:
    """The section: ``to_version`` (``V`` as given), the brokers' version ``brokers_version``
    (the topology's), one :class:`GroupVersionChange` per group (topology order), one
    :class:`ProducerVersionChange` per topic (``producers``: empty until the records are
    measured, :meth:`with_records`) and ``not_covered``: the decisions the section does not
    compare (one line each; none today)."""

    to_version: str
    brokers_version: str
    groups: tuple[GroupVersionChange, ...]
    not_covered: tuple[str, ...]
    producers: tuple[ProducerVersionChange, ...] = ()

    def with_records(self, topology: Topology,
                     records: Mapping[str, TopicRecords]) -> VersionChange:
        """A copy with its producers compared on ``records`` (per topic name; a topic left out:
        no records) by :func:`producer_changes`."""
        return replace(self, producers=producer_changes(topology, self.to_version, records))

    def for_summary(self, topology: Topology, summary: Mapping[str, Any]) -> dict[str, Any]:
        """The section as JSON, its producers compared on the records of ``summary`` (the
        report's, measured by the Spark job: :func:`measured_records`)."""
        return self.with_records(topology, measured_records(summary)).to_json()

    def to_json(self) -> dict[str, Any]:
        """``summary.json``'s ``"version_change"`` key: ``{"to_version", "brokers_version",
        "groups": [GroupVersionChange.to_json()], "producers":
        [ProducerVersionChange.to_json()], "not_covered": [str]}``."""
        return {"to_version": self.to_version, "brokers_version": self.brokers_version,
                "groups": [g.to_json() for g in self.groups],
                "producers": [p.to_json() for p in self.producers],
                "not_covered": list(self.not_covered)}


#: What the section does not compare: nothing (kept as a list for the key's shape).
NOT_COVERED: tuple[str, ...] = ()

#: The topology's null-key strategy → the Java partitioner :func:`kpart.producer.upgrade.
#: producer_upgrade` compares (the others name a strategy whatever the client version).
_JAVA_PARTITIONER = {"client": "default", "separate": "default",
                     "round-robin": "round-robin", "round-robin-fixed": "round-robin"}


def _not_compared(topic: TopicConfig) -> str | None:
    """Why a topic's producer is not compared (``None``: it is)."""
    from kpart.producer.clients import get_partitioner

    spec = get_partitioner(topic.partitioner)
    if spec.id != "java:default":
        return (f"partitioner {spec.id} is not the Java client's: kpart compares the Java "
                "producer's versions")
    if topic.null_key_strategy not in _JAVA_PARTITIONER:
        return (f"null_key_strategy {topic.null_key_strategy!r} names the strategy whatever the "
                "client version (set \"client\" to follow the version)")
    return None


def producer_changes(topology: Topology, to_version: str | KafkaVersion,
                     records: Mapping[str, TopicRecords]) -> tuple[ProducerVersionChange, ...]:
    """Each topic's producer from its client version to ``to_version`` (see the module
    docstring), on ``records`` (per topic name; a topic left out: no records). Pure; time
    O(partitions) per topic. Errors: ``ConfigError`` about ``compare_version`` (a version
    where the topic's ``RoundRobinPartitioner`` does not exist, or is ambiguous)."""
    target = KafkaVersion.parse(to_version, _WHAT)
    out = []
    for topic in topology.topics:
        measured = records.get(topic.name, TopicRecords(0, 0))
        now = topology.version_of(topic)
        entry = ProducerVersionChange(
            topic.name, topic.partitioner, topic.null_key_strategy, str(now), str(target),
            measured.records - measured.null_key_records, None)
        reason = _not_compared(topic)
        if reason is not None:
            out.append(replace(entry, reason=reason))
            continue
        u = null_key_upgrade(measured.null_key_records, topic.partitions, now, target,
                             partitioner=_JAVA_PARTITIONER[topic.null_key_strategy],
                             names=("client_version", _WHAT))
        out.append(replace(entry, null_keys=u) if u is not None else replace(entry, reason=(
            f"{measured.null_key_records:,} records without a key: RoundRobinPartitioner's "
            "counter wraps past 2**30 records, kpart counts exactly below")))
    return tuple(out)


def measured_records(summary: Mapping[str, Any]) -> dict[str, TopicRecords]:
    """The records per topic of a report's ``summary.json`` (a single-topic report's
    ``topic``/``records``/``null_key_records``, or a cluster report's ``topics`` rows): what
    the Spark job measured, for :meth:`VersionChange.with_records`.

    >>> measured_records({"topic": "t", "records": 5, "null_key_records": 2})
    {'t': TopicRecords(records=5, null_key_records=2)}
    """
    rows = summary.get("topics", [summary])
    return {r["topic"]: TopicRecords(int(r["records"]), int(r["null_key_records"]))
            for r in rows}


def version_change(topology: Topology, resolved: Sequence[ResolvedTopology],
                   to_version: str | KafkaVersion) -> VersionChange:
    """Each group of ``topology`` assigned at the topology's versions and with brokers and
    clients at ``to_version`` (see the module docstring); ``resolved``: the topology's topics
    as the report placed them (:func:`kpart.analysis.layout.resolve_cluster`'s ``topics``, or the one
    :class:`~kpart.analysis.layout.ResolvedTopology` of a single-topic report). The producers are
    checked here (their errors) and compared once the records are measured
    (:meth:`VersionChange.with_records`). Pure. Errors: see the module docstring; the
    assignors' own errors."""
    from kpart.analysis.layout import group_specs

    target = KafkaVersion.parse(to_version, _WHAT)
    groups = []
    for cfg, spec in group_specs(topology, resolved):
        strategy = get_strategy(cfg.strategy)
        server = strategy.protocol == CONSUMER
        now = topology.version_of(cfg)
        entry = GroupVersionChange(cfg.name, strategy.name, "brokers" if server else "clients",
                                   str(now), str(target), None)
        if not strategy.versioned and now.line != target.line:
            groups.append(replace(entry, reason=(
                f"kpart does not model the {strategy.name} assignor by Kafka version yet (it "
                f"computes Kafka {DEFAULT_KAFKA_VERSION}'s answer)")))
            continue
        for rule in strategy.rules:
            behaviour(rule, target, _WHAT)
        before = assign(spec, strategy, **topology.version_kwargs(cfg))
        after = (assign(spec, strategy, kafka_version=target) if strategy.versioned
                 else before)  # an unversioned assignor at its own version: the same answer
        groups.append(replace(entry, change=compare(before, after, (str(now), str(target)))))
    producer_changes(topology, target, {})  # its errors before any record is read
    return VersionChange(str(target), str(topology.brokers_version), tuple(groups),
                         NOT_COVERED)

