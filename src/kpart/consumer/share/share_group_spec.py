"""A share group (KIP-932) as its assignor sees it: ``GroupSpec`` with ``isPartitionAssignable``.

Reproduces the inputs of ``org.apache.kafka.coordinator.group.api.assignor.
ShareGroupPartitionAssignor#assign(GroupSpec, SubscribedTopicDescriber)`` as the group
coordinator builds them (``TargetAssignmentBuilder.ShareTargetAssignmentBuilder``):

- the topics of the metadata image and the members, exactly the KIP-848 values of
  :mod:`kpart.consumer.coordinator.server_spec` (:class:`ServerTopic`, :class:`ServerMember`):
  subscribed topic *names* (a ``HashSet`` built as ``new HashSet<>(list)``), the current
  target assignment in Java iteration order (``"id:<uuid>"`` for a deleted topic), members in
  the order they were put into the coordinator's member ``HashMap``;
- ``assignable``: the partitions whose share-group state is initialized
  (``GroupSpec.isPartitionAssignable``): ``((topic, (partition, ...)), ...)``; a partition not
  listed, or a topic absent, is not assignable. ``None`` (a file without ``"assignable"``):
  every partition is (as once the coordinator has initialized them all).

Errors: :class:`~kpart.errors.ConfigError` naming the bad value (those of
:class:`ServerGroupSpec`; an ``assignable`` topic the topics do not list, a partition beyond
its count). :meth:`ShareGroupSpec.from_json` warns (:class:`~kpart.errors.KpartWarning`) for a
member subscribed to a topic the file does not list, as consumer groups do.

>>> g = ShareGroupSpec.from_json({
...     "topics": [{"name": "t", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 3}],
...     "assignable": {"t": [0, 2]},
...     "members": [{"id": "m1", "topics": ["t"]}, {"id": "m2", "topics": ["t"]}]})
>>> g.is_partition_assignable(g.topic_uuid("t"), 1), g.subscription_type
(False, 'HOMOGENEOUS')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kpart._json_fields import check_fields
from kpart.consumer.coordinator.server_spec import ServerGroupSpec, ServerMember, ServerTopic
from kpart.errors import ConfigError

__all__ = ["ShareGroupSpec"]


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


@dataclass(frozen=True, slots=True)
class ShareGroupSpec:
    """A share group: ``group`` (topics and members, :class:`ServerGroupSpec`) and
    ``assignable`` (``((topic name, (partition, ...)), ...)``, or ``None``: all)."""

    group: ServerGroupSpec
    assignable: tuple[tuple[str, tuple[int, ...]], ...] | None = None
    _allowed: dict[int, frozenset[int]] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        allowed: dict[int, frozenset[int]] | None = None
        if self.assignable is not None:
            allowed = {}
            for topic, parts in self.assignable:
                known = next((t for t in self.group.topics if t.name == topic), None)
                if known is None:
                    raise ConfigError(f"assignable: topic {topic!r} is not one of the group's "
                                      "topics.")
                for p in parts:
                    if not _is_int(p) or not 0 <= p < known.num_partitions:
                        raise ConfigError(
                            f"assignable: partition {p!r} of topic {topic!r} is not one of its "
                            f"{known.num_partitions} partitions.")
                allowed[known.uuid] = frozenset(parts)
        object.__setattr__(self, "_allowed", allowed)

    @property
    def topics(self) -> tuple[ServerTopic, ...]:
        return self.group.topics

    @property
    def members(self) -> tuple[ServerMember, ...]:
        return self.group.members

    @property
    def subscription_type(self) -> str:
        """``"HOMOGENEOUS"`` iff every member subscribes to the same topic names."""
        return self.group.subscription_type

    def topic_uuid(self, ref: str) -> int:
        """Topic id of a name or ``"id:<uuid>"`` (``KeyError`` if unknown)."""
        return self.group.topic_uuid(ref)

    def is_partition_assignable(self, topic_id: int, partition: int) -> bool:
        """``GroupSpec.isPartitionAssignable(topicId, partitionId)``."""
        if self._allowed is None:
            return True
        parts = self._allowed.get(topic_id)
        return parts is not None and partition in parts

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> ShareGroupSpec:
        """A share group from a golden case's ``input`` object (``tests/golden/4.3/FORMAT.md``,
        ``share_assignor.jsonl.gz``): ``{"topics": [{"name", "id", "partitions"}],
        "assignable"?: {"topic": [p, ...]}, "members": [{"id", "topics", "instance_id"?,
        "rack"?, "assignment"?: [["topic", [p, ...]], ...]}]}``. Raises
        :class:`~kpart.errors.ConfigError` naming the bad field."""
        if not isinstance(doc, Mapping):
            raise ConfigError("group: expected a JSON object with 'topics' and 'members'.")
        check_fields(doc, ("topics", "assignable", "members"), "group")
        raw = doc.get("assignable")
        assignable: tuple[tuple[str, tuple[int, ...]], ...] | None = None
        if raw is not None:
            if not isinstance(raw, Mapping) or not all(
                    isinstance(v, list) for v in raw.values()):
                raise ConfigError("group.assignable: expected an object {topic: [partition, "
                                  "...]}.")
            assignable = tuple((str(t), tuple(ps)) for t, ps in raw.items())
        group = ServerGroupSpec.from_json({k: v for k, v in doc.items() if k != "assignable"})
        return cls(group, assignable)
