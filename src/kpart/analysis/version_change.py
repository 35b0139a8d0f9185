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
- Producers (null-key and round-robin placement by client version): not computed yet: kpart's
  null-key rules do not take a Kafka version (:class:`kpart.producer.null_keys.NullKeyRule`).

Errors: :class:`~kpart.errors.ConfigError` about ``compare_version`` (the command line names
``--compare-version``): not a version, unknown, or a version where a KIP-848 group's assignor
does not exist or is ambiguous (``4.0`` for ``uniform``: 4.0.0 and 4.0.1 differ).

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
>>> version_change(t, resolve_cluster(t).topics, "4.0")
Traceback (most recent call last):
...
kpart.errors.ConfigError: compare_version '4.0' is ambiguous for the KIP-848 uniform assignor: 4.0.0 extra-to-first, 4.0.1 extra-to-last (KAFKA-18688, PR #19677); give the patch release
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from kpart.consumer import CONSUMER, assign, get_strategy
from kpart.consumer.migration import AssignmentChange, compare
from kpart.versions import DEFAULT_KAFKA_VERSION, KafkaVersion, behaviour

if TYPE_CHECKING:  # pragma: no cover
    from kpart.analysis.layout import ResolvedTopology
    from kpart.topology import Topology

__all__ = ["GroupVersionChange", "VersionChange", "version_change"]

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
class VersionChange:
    """The section: ``to_version`` (``V`` as given), the brokers' version ``brokers_version``
    (the topology's), one :class:`GroupVersionChange` per group (topology order) and
    ``not_covered``: the decisions the section does not compare yet (one line each)."""

    to_version: str
    brokers_version: str
    groups: tuple[GroupVersionChange, ...]
    not_covered: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """``summary.json``'s ``"version_change"`` key: ``{"to_version", "brokers_version",
        "groups": [GroupVersionChange.to_json()], "not_covered": [str]}``."""
        return {"to_version": self.to_version, "brokers_version": self.brokers_version,
                "groups": [g.to_json() for g in self.groups],
                "not_covered": list(self.not_covered)}


#: What the section does not compare yet, and why (kpart's producer models take no version).
NOT_COVERED = ("producers: the null-key and round-robin placement by client version is not "
               "compared (kpart's null-key rules do not follow a Kafka version yet)",)


def version_change(topology: Topology, resolved: Sequence[ResolvedTopology],
                   to_version: str | KafkaVersion) -> VersionChange:
    """Each group of ``topology`` assigned at the topology's versions and with brokers and
    clients at ``to_version`` (see the module docstring); ``resolved``: the topology's topics
    as the report placed them (:func:`kpart.analysis.layout.resolve_cluster`'s ``topics``, or the one
    :class:`~kpart.analysis.layout.ResolvedTopology` of a single-topic report). Pure. Errors: see the
    module docstring; the assignors' own errors."""
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
    return VersionChange(str(target), str(topology.brokers_version), tuple(groups),
                         NOT_COVERED)

