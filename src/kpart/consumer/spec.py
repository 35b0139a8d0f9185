"""Value types of a consumer group, as the classic group leader's assignor sees them.

Reproduces the inputs of ``org.apache.kafka.clients.consumer.ConsumerPartitionAssignor#assign``
(``Cluster`` metadata + ``GroupSubscription``) as frozen values; its output
(``GroupAssignment``) is :class:`kpart.consumer.assignment.GroupAssignment`. A
:class:`GroupSpec` is also the assignors' *topic describer*: it answers
``num_partitions(topic)`` and ``racks_for_partition(topic, partition)``.

Member order matters: ``GroupSpec.members`` is the order in which the leader inserted members
into its ``java.util.HashMap`` of subscriptions (FORMAT.md "Members are listed in the order they
were inserted"); assignors that depend on Java's map order derive it from this sequence.

>>> g = GroupSpec.from_json({"topics": {"t0": 3, "t1": 3},
...                          "members": [{"id": "C0", "topics": ["t0", "t1"]},
...                                      {"id": "C1", "topics": ["t0", "t1"]}]})
>>> g.num_partitions("t0"), [m.member_id for m in g.members]
(3, ['C0', 'C1'])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from kpart._json_fields import check_fields
from kpart._warnings import kpart_warn
from kpart.errors import ConfigError
from kpart.limits import BYTES_PER_ASSIGNED_PARTITION, check_group, check_partitions

__all__ = [
    "GroupSpec",
    "Member",
    "OwnedPartitions",
    "Topic",
    "TopicDescriber",
]

#: Partitions grouped by topic, in a meaningful order: ``(("t0", (0, 2)), ("t1", (1,)))``.
OwnedPartitions = tuple[tuple[str, tuple[int, ...]], ...]


class TopicDescriber(Protocol):
    """What an assignor may ask about topics (the part of ``Cluster`` metadata it uses)."""

    def num_partitions(self, topic: str) -> int | None:
        """Partition count of ``topic``, or ``None`` when the topic is not in the metadata."""
        ...

    def racks_for_partition(self, topic: str, partition: int) -> frozenset[str]:
        """Racks of the brokers holding replicas of ``topic``-``partition`` (empty if unknown)."""
        ...


def _ctx(where: str, name: str) -> str:
    return f"{where}.{name}" if where else name


@dataclass(frozen=True, slots=True)
class Topic:
    """A topic in the metadata: ``name``, ``num_partitions`` (≥ 0) and, optionally, the racks
    of each partition's replicas (``replica_racks[p]`` = racks of partition ``p``'s replicas in
    replica order, ``None`` for a broker without rack)."""

    name: str
    num_partitions: int
    replica_racks: tuple[tuple[str | None, ...], ...] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ConfigError(f"Invalid topic name {self.name!r}: must be a non-empty string.")
        if (
            not isinstance(self.num_partitions, int)
            or isinstance(self.num_partitions, bool)
            or self.num_partitions < 0
        ):
            raise ConfigError(
                f"Invalid partition count {self.num_partitions!r} for topic {self.name!r}: "
                "must be an integer >= 0."
            )
        check_partitions(self.num_partitions, f"partition count of topic {self.name!r}",
                         bytes_each=BYTES_PER_ASSIGNED_PARTITION)
        if self.replica_racks is not None and len(self.replica_racks) != self.num_partitions:
            raise ConfigError(
                f"Topic {self.name!r} has {self.num_partitions} partitions but replica racks for "
                f"{len(self.replica_racks)}."
            )


def check_unique_member_ids(member_ids: Iterable[str]) -> None:
    """``ConfigError`` naming the first member id listed twice (a group's members are unique).

    >>> check_unique_member_ids(["a", "b", "a"])
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: Member id 'a' is listed twice.
    """
    seen: set[str] = set()
    for member_id in member_ids:
        if member_id in seen:
            raise ConfigError(f"Member id {member_id!r} is listed twice.")
        seen.add(member_id)


def check_subscription(
    member_id: object, topics: Iterable[object], rack: object, instance_id: object
) -> None:
    """The checks every member value makes (classic :class:`Member` and KIP-848
    :class:`~kpart.consumer.coordinator.server_spec.ServerMember`): a string id, non-empty topic
    names, ``rack`` and ``group.instance.id`` strings or ``None``. Raises :class:`ConfigError`."""
    if not isinstance(member_id, str):
        raise ConfigError(f"Invalid member id {member_id!r}: must be a string.")
    for t in topics:
        if not isinstance(t, str) or not t:
            raise ConfigError(f"Member {member_id!r} subscribes to invalid topic {t!r}.")
    for name, v in (("rack", rack), ("instance id", instance_id)):
        if v is not None and not isinstance(v, str):
            raise ConfigError(f"Invalid {name} {v!r} of member {member_id!r}: must be "
                              "a string or null.")


@dataclass(frozen=True, slots=True)
class Member:
    """One group member's subscription as the leader's assignor sees it.

    - ``member_id``: the member id (key of the leader's subscription map).
    - ``topics``: subscribed topic names (may include topics absent from the metadata).
    - ``rack``: ``client.rack`` (``Subscription.rackId``), ``None`` when unset.
    - ``group_instance_id``: ``group.instance.id`` (static membership), ``None`` when dynamic.
    - ``generation``: ``Subscription.generationId``; ``-1`` when not present.
    - ``owned_partitions``: cooperative protocol: ``Subscription.ownedPartitions``; sticky
      (eager): the previous assignment decoded from the StickyAssignor user data, in decoded
      order; range/roundrobin: empty.
    - ``has_user_data``: sticky only: ``False`` when the member sent no user data.
    """

    member_id: str
    topics: tuple[str, ...]
    rack: str | None = None
    group_instance_id: str | None = None
    generation: int = -1
    owned_partitions: OwnedPartitions = ()
    has_user_data: bool = True

    def __post_init__(self) -> None:
        check_subscription(self.member_id, self.topics, self.rack, self.group_instance_id)
        for topic, parts in self.owned_partitions:
            for p in parts:
                if not isinstance(p, int) or isinstance(p, bool) or p < 0:
                    raise ConfigError(
                        f"Member {self.member_id!r} owns invalid partition {p!r} of topic {topic!r}."
                    )

    @property
    def owned_pairs(self) -> tuple[tuple[str, int], ...]:
        """Owned partitions flattened to ``(topic, partition)`` pairs, in order."""
        return tuple((t, p) for t, ps in self.owned_partitions for p in ps)


@dataclass(frozen=True, slots=True)
class GroupSpec:
    """A consumer group and the metadata its assignor sees.

    ``topics``: the metadata's topics; ``members``: the subscriptions in the leader's insertion
    order. Errors: :class:`~kpart.errors.ConfigError` naming the bad field.
    """

    topics: tuple[Topic, ...]
    members: tuple[Member, ...]
    _by_name: dict[str, Topic] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_group((t.num_partitions for t in self.topics), len(self.members))
        by_name: dict[str, Topic] = {}
        for t in self.topics:
            if t.name in by_name:
                raise ConfigError(f"Topic {t.name!r} is listed twice.")
            by_name[t.name] = t
        check_unique_member_ids(m.member_id for m in self.members)
        object.__setattr__(self, "_by_name", by_name)

    # -- TopicDescriber -------------------------------------------------------------------
    def num_partitions(self, topic: str) -> int | None:
        t = self._by_name.get(topic)
        return None if t is None else t.num_partitions

    def racks_for_partition(self, topic: str, partition: int) -> frozenset[str]:
        t = self._by_name.get(topic)
        if t is None or t.replica_racks is None or partition >= len(t.replica_racks):
            return frozenset()
        return frozenset(r for r in t.replica_racks[partition] if r is not None)

    def topic(self, name: str) -> Topic | None:
        """The metadata's topic called ``name``, or ``None``."""
        return self._by_name.get(name)

    # -- loading --------------------------------------------------------------------------
    @classmethod
    def from_json(
        cls, doc: Mapping[str, Any], *, unknown_owned: Literal["warn", "error"] = "warn"
    ) -> GroupSpec:
        """Build a group from the golden "member input" JSON (FORMAT.md).

        ``doc = {"topics": {name: n}, "partition_racks"?: {name: [[rack|null, ...], ...]},
        "members": [{"id", "topics", "rack"?, "instance_id"?, "generation"?, "owned"?,
        "has_user_data"?, "user_data_hex"?}, ...]}``. Raises :class:`ConfigError` naming the
        bad field, also for a field it does not know (a misspelling: ``"rak"``).

        Warns (:class:`~kpart.errors.KpartWarning`, one per finding; the group is still built
        as Kafka would see it) when a member subscribes to a topic ``topics`` does not list,
        owns partitions of such a topic or beyond its topic's partition count, or has a
        generation below -1 (Kafka's "no generation"). Silence them with the standard filters,
        e.g. ``warnings.simplefilter("ignore", KpartWarning)``.

        Owned partitions of a topic the metadata lacks are Kafka's input too (a topic deleted
        since the member got it: ``AbstractStickyAssignor`` drops them, range and roundrobin
        never read owned partitions; Kafka's golden vectors have them). ``unknown_owned="error"``
        makes them a :class:`ConfigError` instead (``kpart assign`` does: in a file a user
        writes, they are more likely a typo):

        >>> doc = {"topics": {"t0": 1},
        ...        "members": [{"id": "C0", "topics": ["t0"], "owned": [["t9", [0]]]}]}
        >>> GroupSpec.from_json(doc, unknown_owned="error")
        Traceback (most recent call last):
        ...
        kpart.errors.ConfigError: group.members[0].owned[0]: owned partition of an unknown topic 't9'
        """
        if not isinstance(doc, Mapping):
            raise ConfigError("group: expected a JSON object with 'topics' and 'members'.")
        if unknown_owned == "error":
            _reject_unknown_owned(doc)
        check_fields(doc, _GROUP_FIELDS, "group")
        topics_doc = doc.get("topics")
        if not isinstance(topics_doc, Mapping):
            raise ConfigError("group.topics: expected an object {topic: partition count}.")
        racks_doc = doc.get("partition_racks") or {}
        if not isinstance(racks_doc, Mapping):
            raise ConfigError("group.partition_racks: expected an object {topic: [[rack...]...]}.")
        topics = []
        for name, n in topics_doc.items():
            racks = racks_doc.get(name)
            if racks is not None and not (isinstance(racks, list) and all(
                    isinstance(r, list) and all(x is None or isinstance(x, str) for x in r)
                    for r in racks)):
                raise ConfigError(f"group.partition_racks.{name}: expected [[rack|null, ...], "
                                  f"...] (one list per partition), got {racks!r:.60}.")
            rr = None if racks is None else tuple(tuple(r) for r in racks)
            topics.append(Topic(name, n, rr))
        for name in racks_doc:
            if name not in topics_doc:
                raise ConfigError(f"group.partition_racks: unknown topic {name!r}.")
        members_doc = doc.get("members")
        if not isinstance(members_doc, list):
            raise ConfigError("group.members: expected a list of members.")
        members = [member_from_json(m, f"group.members[{i}]") for i, m in enumerate(members_doc)]
        group = cls(tuple(topics), tuple(members))
        for i, m in enumerate(members):
            _warn_unusual_member(group, m, f"group.members[{i}]")
        return group

    def with_members(self, members: Iterable[Member]) -> GroupSpec:
        """The same metadata with another member list."""
        return GroupSpec(self.topics, tuple(members))


def topic_partitions_from_json(doc: Any, where: str) -> OwnedPartitions:
    """``[["topic", [p, ...]], ...]`` (order kept; ``None`` = none) as ``OwnedPartitions``.
    Raises :class:`ConfigError` naming ``where`` for any other shape (values are checked by
    the value types)."""
    out: list[tuple[str, tuple[int, ...]]] = []
    if doc is not None and not isinstance(doc, list | tuple):
        raise ConfigError(f"{where}: expected [[topic, [partitions]], ...].")
    for entry in doc or []:
        if (
            not isinstance(entry, list | tuple)
            or len(entry) != 2
            or not isinstance(entry[0], str)
            or not isinstance(entry[1], list | tuple)
        ):
            raise ConfigError(f"{where}: expected [[topic, [partitions]], ...].")
        out.append((entry[0], tuple(entry[1])))
    return tuple(out)


#: Fields of a group JSON object and of one of its members (anything else is an error).
_GROUP_FIELDS = ("topics", "partition_racks", "members")
_MEMBER_FIELDS = ("id", "topics", "rack", "instance_id", "generation", "owned",
                  "has_user_data", "user_data_hex")


def _warn(message: str) -> None:
    kpart_warn(message)  # attributed to the caller's line, outside kpart


def _reject_unknown_owned(doc: Mapping[str, Any]) -> None:
    """``unknown_owned="error"``: :class:`ConfigError` naming the first owned partition of a
    topic the group's ``topics`` do not list (documents of another shape are left to the
    field checks, which name the bad field)."""
    topics, members = doc.get("topics"), doc.get("members")
    if not isinstance(topics, Mapping) or not isinstance(members, list):
        return
    for i, m in enumerate(members):
        owned = m.get("owned") if isinstance(m, Mapping) else None
        for j, entry in enumerate(owned if isinstance(owned, list) else []):
            if isinstance(entry, list) and entry and isinstance(entry[0], str) and \
                    entry[0] not in topics:
                raise ConfigError(f"group.members[{i}].owned[{j}]: owned partition of an "
                                  f"unknown topic {entry[0]!r}")


def _warn_unusual_member(group: GroupSpec, m: Member, where: str) -> None:
    """The :class:`KpartWarning` s of :meth:`GroupSpec.from_json` about one member."""
    for t in dict.fromkeys(m.topics):
        if group.topic(t) is None:
            _warn(f"{where}.topics: member {m.member_id!r} subscribes to topic {t!r}, which the "
                  "group's topics do not list (Kafka assigns it no partition of it)")
    for t in dict.fromkeys(t for t, _ in m.owned_partitions):
        if group.topic(t) is None:
            _warn(f"{where}.owned: member {m.member_id!r} owns partitions of topic {t!r}, which "
                  "the group's topics do not list (Kafka's sticky assignors drop them)")
    for t, parts in m.owned_partitions:
        n = group.num_partitions(t)
        beyond = [p for p in parts if n is not None and p >= n]
        if beyond:
            _warn(f"{where}.owned: member {m.member_id!r} owns partition {t}-{beyond[0]}, beyond "
                  f"topic {t!r}'s {n} partitions")


def member_from_json(m: Any, where: str = "member") -> Member:
    """One member from its golden "member input" JSON object (see :meth:`GroupSpec.from_json`;
    an unknown field is a :class:`ConfigError`, a generation below -1 a
    :class:`~kpart.errors.KpartWarning`)."""
    if not isinstance(m, Mapping):
        raise ConfigError(f"{where}: expected an object.")
    check_fields(m, _MEMBER_FIELDS, where)
    if "id" not in m:
        raise ConfigError(f"{where}.id: missing.")
    topics = m.get("topics", [])
    if not isinstance(topics, list):
        raise ConfigError(f"{_ctx(where, 'topics')}: expected a list of topic names.")
    owned = topic_partitions_from_json(m.get("owned"), _ctx(where, "owned"))
    generation = m.get("generation", -1)
    if not isinstance(generation, int):
        raise ConfigError(f"{_ctx(where, 'generation')}: expected an integer, got {generation!r}.")
    if generation < -1:
        _warn(f"{_ctx(where, 'generation')}: member {m['id']!r} has the negative generation "
              f"{generation} (Kafka's generations count up from 0; -1 means none)")
    return Member(
        member_id=m["id"],
        topics=tuple(topics),
        rack=m.get("rack"),
        group_instance_id=m.get("instance_id"),
        generation=generation,
        owned_partitions=owned,
        has_user_data=m.get("has_user_data", True),
    )
