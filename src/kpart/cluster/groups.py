"""Consumer groups as a snapshot sees them: Kafka's ``ConsumerGroupDescription`` and
``MemberDescription`` (``org.apache.kafka.clients.admin``, KIP-848 for ``type``), as frozen
values, and the bridge to kpart's assignors: :func:`group_spec_json` turns a described group into
kpart's group file (``docs/formats/group.md``) for ``kpart assign`` what-ifs.

A described member tells its current assignment, not its subscription (the classic protocol's
``DescribeGroups`` returns the subscription bytes only to the group leader's assignor; the Admin
API decodes the assignment). So in :func:`group_spec_json` each member subscribes to the topics
it is assigned — or, when it holds nothing, to every topic the group holds — and owns its current
assignment (what ``ConsumerProtocolSubscription.ownedPartitions`` carries for the cooperative
protocol and the sticky assignor's user data for the eager one).

>>> g = ConsumerGroup("g", state="STABLE", assignor="range", members=(
...     GroupMember("m-1", group_instance_id="a", assignment=(("t", (0, 1)),)),
...     GroupMember("m-2", group_instance_id="b", assignment=(("t", (2,)),))))
>>> doc = group_spec_json(g, {"t": 3}, leave=["a"])
>>> [(m["id"], m["topics"], m["owned"]) for m in doc["members"]], doc["topics"]
([('m-2', ['t'], [['t', [2]]])], {'t': 3})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kpart.errors import ConfigError

__all__ = ["ConsumerGroup", "GroupMember", "group_spec_json"]

#: Partitions grouped by topic: ``(("t0", (0, 2)), ("t1", (1,)))``.
Assignment = tuple[tuple[str, tuple[int, ...]], ...]


@dataclass(frozen=True, slots=True)
class GroupMember:
    """One member (Kafka's ``MemberDescription``): ``member_id``, ``group_instance_id``
    (``group.instance.id``, ``None`` = dynamic member), ``client_id``, ``host``, ``rack``
    (``client.rack``; only KIP-848 groups report it, else ``None``) and ``assignment`` (its
    current partitions, by topic)."""

    member_id: str
    group_instance_id: str | None = None
    client_id: str | None = None
    host: str | None = None
    rack: str | None = None
    assignment: Assignment = ()


@dataclass(frozen=True, slots=True)
class ConsumerGroup:
    """One group (Kafka's ``ConsumerGroupDescription``): ``group_id``, ``type`` (``"classic"``
    or ``"consumer"`` (KIP-848), ``None`` = unknown), ``state`` (``ConsumerGroupState`` /
    ``GroupState`` name, e.g. ``"STABLE"``), ``assignor`` (``partitionAssignor``: ``"range"``,
    ``"cooperative-sticky"``, ...; ``None`` = unknown or none yet), ``simple``
    (``isSimpleConsumerGroup``: only committed offsets, no members), ``coordinator`` (broker id)
    and ``members`` in the order the coordinator listed them."""

    group_id: str
    type: str | None = None
    state: str | None = None
    assignor: str | None = None
    simple: bool = False
    coordinator: int | None = None
    members: tuple[GroupMember, ...] = ()

    def member(self, name: str) -> GroupMember:
        """The member whose ``member_id`` or ``group_instance_id`` is ``name``;
        :class:`ConfigError` naming the group's members otherwise."""
        for m in self.members:
            if name in (m.member_id, m.group_instance_id):
                return m
        known = [m.group_instance_id or m.member_id for m in self.members]
        raise ConfigError(f"Group {self.group_id!r} has no member {name!r} (members: "
                          f"{', '.join(known) or 'none'}).")


def group_spec_json(group: ConsumerGroup, num_partitions: Mapping[str, int], *,
                    leave: Iterable[str] = (),
                    partition_racks: Mapping[str, Sequence[Sequence[str | None]]] | None = None,
                    ) -> dict[str, Any]:
    """kpart's group file (``docs/formats/group.md``, read by ``kpart assign``) of ``group``:
    each remaining member subscribes to the topics it is assigned (every topic the group holds
    when it holds none), owns its current assignment, keeps its ``group.instance.id`` and
    ``client.rack``; ``topics`` gives each such topic's partition count from
    ``num_partitions`` (the snapshot's topics); ``partition_racks`` (the racks of each
    partition's replicas, from the snapshot) is copied for the rack-aware assignors.

    ``leave``: member ids or group instance ids of members to drop first ("what if member X
    leaves"). Raises :class:`ConfigError` for an unknown member or a topic the snapshot lacks.
    """
    gone = {group.member(name).member_id for name in leave}
    members = [m for m in group.members if m.member_id not in gone]
    held = list(dict.fromkeys(t for m in group.members for t, _ in m.assignment))
    for t in held:
        if t not in num_partitions:
            raise ConfigError(f"Group {group.group_id!r} holds partitions of topic {t!r}, "
                              "which the snapshot does not list.")
    doc_members = []
    for m in members:
        topics = [t for t, _ in m.assignment] or held
        entry: dict[str, Any] = {"id": m.member_id, "topics": topics}
        if m.rack is not None:
            entry["rack"] = m.rack
        if m.group_instance_id is not None:
            entry["instance_id"] = m.group_instance_id
        entry["owned"] = [[t, list(parts)] for t, parts in m.assignment]
        doc_members.append(entry)
    doc: dict[str, Any] = {"topics": {t: num_partitions[t] for t in held}}
    if partition_racks is not None:
        doc["partition_racks"] = {t: [list(r) for r in partition_racks[t]] for t in held
                                  if t in partition_racks}
    doc["members"] = doc_members
    return doc
