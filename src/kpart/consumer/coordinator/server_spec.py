"""``org.apache.kafka.coordinator.group.api.assignor.GroupSpec`` and friends as frozen values (KIP-848).

Reproduces the inputs of ``org.apache.kafka.coordinator.group.api.assignor.
ConsumerGroupPartitionAssignor#assign(GroupSpec, SubscribedTopicDescriber)`` (KIP-848):

- :class:`ServerTopic`: a topic of the metadata image: name, ``Uuid`` (base64) and partition
  count;
- :class:`ServerMember`: ``MemberSubscriptionAndAssignment``: subscribed topic *names*,
  ``group.instance.id``, rack, and the member's current target assignment in the order the
  Java ``HashMap<Uuid, Set<Integer>>`` yields it (a topic that no longer exists is written
  ``"id:<uuid>"``), and its regex subscription (``subscribed_topic_regex``, Kafka 4.0+:
  ``subscribe(SubscriptionPattern)``), which the spec resolves against its topics as the
  coordinator does (:mod:`~kpart.consumer.coordinator.topic_regex_resolver`: RE2/J, full
  match on each name);
- :class:`ServerGroupSpec`: the topics and the members, in the order they were put into the
  coordinator's member ``HashMap``; :meth:`ServerGroupSpec.members_in_map_order` derives
  ``GroupSpec.memberIds()`` (the map's iteration order) from the member ids'
  ``String.hashCode``. It is also the ``SubscribedTopicDescriber``:
  :meth:`ServerGroupSpec.num_partitions` by topic id.

Subscribed names absent from the metadata are ignored by the assignors (the coordinator maps
names to ids through the metadata image). A member's subscription is its names, its regex's
topics, or both (``TargetAssignmentBuilder``'s ``UnionSet``). ``subscription_type`` is
``"HOMOGENEOUS"`` iff every member subscribes to the same topic names, or, with regexes, every
member uses the same single regex and none subscribes by name (KAFKA-17593, Kafka 4.0+; see
:mod:`~kpart.consumer.coordinator.subscription_type`).

>>> g = ServerGroupSpec.from_json({
...     "topics": [{"name": "t0", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 3}],
...     "members": [{"id": "m1", "topics": ["t0"], "assignment": [["t0", [2, 0]]]},
...                 {"id": "m2", "topics": ["t0"]}]})
>>> g.subscription_type, g.num_partitions(2), g.members[0].assignment
('HOMOGENEOUS', 3, (('t0', (2, 0)),))
>>> r = ServerGroupSpec.from_json({
...     "topics": [{"name": "t0", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 3}],
...     "members": [{"id": "m1", "subscribed_topic_regex": "t.*"}, {"id": "m2", "topics": ["t0"]}]})
>>> r.subscribed_names(r.members[0]), r.subscription_type
(('t0',), 'HETEROGENEOUS')
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kpart._java.collections import JavaHashSet
from kpart._java.hashing import hashset_copy_capacity
from kpart._java.uuid import uuid_from_string, uuid_to_string
from kpart._json_fields import check_fields
from kpart._warnings import kpart_warn
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.coordinator.subscription_type import subscription_type, subscription_type_at
from kpart.consumer.coordinator.topic_regex_resolver import check_regex, resolve_regexes
from kpart.consumer.spec import (
    GroupSpec,
    check_subscription,
    check_unique_member_ids,
    topic_partitions_from_json,
)
from kpart.errors import ConfigError
from kpart.limits import BYTES_PER_ASSIGNED_PARTITION, check_group, check_partitions
from kpart.versions import KafkaVersion

__all__ = [
    "ServerGroupSpec",
    "ServerMember",
    "ServerTopic",
    "Target",
    "derived_topic_id",
    "server_group",
]

#: A raw KIP-848 target: member id → ``[(topic id, [partition, ...]), ...]``, in the Java
#: iteration order of the assignor's result maps.
Target = dict[str, list[tuple[int, list[int]]]]

#: Prefix of a topic reference by id (a deleted topic still present in an assignment).
DELETED_PREFIX = "id:"


@functools.lru_cache(maxsize=65536)
def _uuid(text: str) -> int:
    return uuid_from_string(text)


@functools.lru_cache(maxsize=4096)
def _names_set_order(names: tuple[str, ...], copied: bool = False) -> tuple[str, ...]:
    """Iteration order of a ``HashSet<String>`` filled with ``names`` in order (``copied``:
    ``new HashSet<>(list)``, sized for the list as Java 17 sizes it)."""
    return _set_order(names, hashset_copy_capacity(len(set(names))) if copied else None)


@functools.lru_cache(maxsize=1024)
def _set_order(keys: tuple[str, ...], capacity: int | None = None) -> tuple[str, ...]:
    """Iteration order of a ``new HashSet<>()`` / ``HashMap<>()`` filled with ``keys``
    (``capacity``: the table length it starts with)."""
    s: JavaHashSet[str] = JavaHashSet() if capacity is None else JavaHashSet(capacity)
    for k in keys:
        s.add(k)
    return tuple(s)


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


@dataclass(frozen=True, slots=True)
class ServerTopic:
    """A topic of the metadata image: ``name``, ``topic_id`` (Kafka ``Uuid`` in URL-safe
    base64, 22 characters) and ``num_partitions`` (≥ 0)."""

    name: str
    topic_id: str
    num_partitions: int

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ConfigError(f"Invalid topic name {self.name!r}: must be a non-empty string.")
        uuid_from_string(self.topic_id)
        if not _is_int(self.num_partitions) or self.num_partitions < 0:
            raise ConfigError(
                f"Invalid partition count {self.num_partitions!r} for topic {self.name!r}: "
                "must be an integer >= 0."
            )
        check_partitions(self.num_partitions, f"partition count of topic {self.name!r}",
                         bytes_each=BYTES_PER_ASSIGNED_PARTITION)

    @property
    def uuid(self) -> int:
        """The topic id as a 128-bit int (see :mod:`kpart._java.uuid`)."""
        return _uuid(self.topic_id)


@dataclass(frozen=True, slots=True)
class ServerMember:
    """One member as the KIP-848 assignor sees it (``MemberSubscriptionAndAssignment``).

    - ``member_id``; ``topics``: subscribed topic names (names missing from the metadata are
      allowed and ignored); ``instance_id``: ``group.instance.id`` or ``None``; ``rack``.
    - ``assignment``: current target assignment, ``((topic, (partition, ...)), ...)`` in Java
      map/set iteration order; ``topic`` is a name, or ``"id:<uuid>"`` for a deleted topic.
    - ``topic_regex``: the regex subscription (``subscribedTopicRegex``, Kafka 4.0+) or
      ``None``; an empty string is none, as Kafka reads it. Errors: a regex the broker's RE2/J
      refuses (or kpart's RE2 cannot run), naming the member and the regex
      (:func:`~kpart.consumer.coordinator.topic_regex_resolver.check_regex`).
    """

    member_id: str
    topics: tuple[str, ...]
    instance_id: str | None = None
    rack: str | None = None
    assignment: tuple[tuple[str, tuple[int, ...]], ...] = ()
    topic_regex: str | None = None

    def __post_init__(self) -> None:
        check_subscription(self.member_id, self.topics, self.rack, self.instance_id)
        if self.topic_regex == "":
            object.__setattr__(self, "topic_regex", None)
        elif self.topic_regex is not None:
            try:
                check_regex(self.topic_regex)
            except ConfigError as e:
                raise ConfigError(f"Member {self.member_id!r}: {e}") from None
        seen: set[str] = set()
        for topic, parts in self.assignment:
            if not isinstance(topic, str) or not topic or topic in seen:
                raise ConfigError(
                    f"Member {self.member_id!r} has an invalid or repeated assigned topic "
                    f"{topic!r}."
                )
            seen.add(topic)
            if all(_is_int(p) for p in parts) and len(set(parts)) != len(parts):
                raise ConfigError(
                    f"Member {self.member_id!r} lists a partition of topic {topic!r} twice."
                )
            for p in parts:
                if not _is_int(p) or p < 0:
                    raise ConfigError(
                        f"Member {self.member_id!r} is assigned invalid partition {p!r} "
                        f"of topic {topic!r}."
                    )


@dataclass(frozen=True, slots=True)
class ServerGroupSpec:
    """A KIP-848 group: ``topics`` (the metadata image) and ``members`` in the order they were
    put into the coordinator's member map. Errors: :class:`~kpart.errors.ConfigError` naming the bad
    value (a duplicate topic name or id, a duplicate member, an assigned partition beyond the
    topic's partition count)."""

    topics: tuple[ServerTopic, ...]
    members: tuple[ServerMember, ...]
    _by_name: dict[str, ServerTopic] = field(init=False, repr=False, compare=False)
    _by_uuid: dict[int, ServerTopic] = field(init=False, repr=False, compare=False)
    _memo: dict[str, Any] = field(init=False, repr=False, compare=False)
    _resolved: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_group((t.num_partitions for t in self.topics), len(self.members))
        by_name: dict[str, ServerTopic] = {}
        by_uuid: dict[int, ServerTopic] = {}
        for t in self.topics:
            if t.name in by_name:
                raise ConfigError(f"Topic {t.name!r} is listed twice.")
            if t.uuid in by_uuid:
                raise ConfigError(f"Topic id {t.topic_id!r} is listed twice.")
            by_name[t.name] = t
            by_uuid[t.uuid] = t
        check_unique_member_ids(m.member_id for m in self.members)
        for m in self.members:
            for topic, parts in m.assignment:
                if topic.startswith(DELETED_PREFIX):
                    uuid_from_string(topic[len(DELETED_PREFIX) :])
                    continue
                known = by_name.get(topic)
                if known is None:
                    raise ConfigError(
                        f"Member {m.member_id!r} is assigned unknown topic {topic!r} "
                        f"(write a deleted topic as 'id:<uuid>')."
                    )
                bad = [p for p in parts if p >= known.num_partitions]
                if bad:
                    raise ConfigError(
                        f"Member {m.member_id!r} is assigned partition {bad[0]} of topic "
                        f"{topic!r}, which has {known.num_partitions} partitions."
                    )
        object.__setattr__(self, "_by_name", by_name)
        object.__setattr__(self, "_by_uuid", by_uuid)
        object.__setattr__(self, "_memo", {})
        regexes = [m.topic_regex for m in self.members if m.topic_regex]
        object.__setattr__(self, "_resolved", resolve_regexes(
            regexes, [t.name for t in self.topics]) if regexes else {})

    def memo(self) -> dict[str, Any]:
        """Values derived from this (frozen) spec, computed once by the assignors that need
        them (member map order, subscription type, the array paths' layout)."""
        return self._memo

    # -- SubscribedTopicDescriber ---------------------------------------------------------
    def num_partitions(self, topic_id: int) -> int:
        """Partition count of the topic with this id, ``-1`` when unknown (as Kafka)."""
        t = self._by_uuid.get(topic_id)
        return -1 if t is None else t.num_partitions

    def topic_name(self, topic_id: int) -> str:
        """Name of a topic id, or ``"id:<uuid>"`` when it is not in the metadata."""
        t = self._by_uuid.get(topic_id)
        return DELETED_PREFIX + uuid_to_string(topic_id) if t is None else t.name

    def topic_uuid(self, ref: str) -> int:
        """Topic id of a name or of an ``"id:<uuid>"`` reference (``KeyError`` if unknown)."""
        if ref.startswith(DELETED_PREFIX):
            return uuid_from_string(ref[len(DELETED_PREFIX) :])
        return self._by_name[ref].uuid

    def subscribed_topic_ids(self, member: ServerMember,
                             copied_names: bool = False) -> tuple[int, ...]:
        """``MemberSubscription.subscribedTopicIds()`` in iteration order.

        The coordinator's ``TopicIds`` view iterates the member's ``HashSet<String>`` of
        subscribed names (filled in sorted order; ``copied_names``: built as
        ``new HashSet<>(list)``, rule ``subscription_names_set`` of :mod:`kpart.versions`) and
        maps each name to its id, skipping names missing from the metadata; its ``size()``
        still counts them (see :attr:`ServerMember.topics`).
        """
        by_name = self._by_name
        if not member.topic_regex:
            return tuple(by_name[n].uuid for n in _names_set_order(member.topics, copied_names)
                         if n in by_name)
        return tuple(by_name[n].uuid for n in self._subscription_order(member, copied_names)
                     if n in by_name)

    def _subscription_order(self, member: ServerMember, copied_names: bool) -> tuple[str, ...]:
        # The regex's topics: ResolvedRegularExpression's HashSet<String>, filled as the
        # resolver walks the metadata image (here: the order of ``topics``). With names too,
        # TargetAssignmentBuilder iterates a UnionSet: the larger set (the regex's on a tie),
        # then the other's names the larger lacks.
        assert member.topic_regex is not None
        regex = _set_order(self._resolved[member.topic_regex])
        if not member.topics:
            return regex
        names = _names_set_order(member.topics, copied_names)
        if not regex:
            return names
        large, small = (names, regex) if len(set(names)) > len(regex) else (regex, names)
        seen = set(large)
        return large + tuple(n for n in small if n not in seen)

    @property
    def has_regex(self) -> bool:
        """Whether a member subscribes with a regex."""
        return bool(self._resolved)

    def resolved_topics(self, regex: str) -> tuple[str, ...]:
        """The topics (in ``topics`` order) a member's ``regex`` resolves to (``KeyError``
        for a regex no member uses)."""
        return self._resolved[regex]

    def subscribed_names(self, member: ServerMember) -> tuple[str, ...]:
        """The names ``member`` is subscribed to: its ``topics`` (the same tuple) without a
        regex, else its names then its regex's topics, once each (members subscribing alike
        share one tuple)."""
        if not member.topic_regex:
            return member.topics
        cache: dict[tuple[tuple[str, ...], str], tuple[str, ...]] = self._memo.setdefault(
            "subscribed_names", {})
        key = (member.topics, member.topic_regex)
        found = cache.get(key)
        if found is None:
            found = cache[key] = tuple(dict.fromkeys(
                member.topics + self._resolved[member.topic_regex]))
        return found

    def subscription_size(self, member: ServerMember) -> int:
        """``subscribedTopicIds().size()``: the member's distinct subscribed names, those
        missing from the metadata included."""
        return len(set(self.subscribed_names(member)))

    def to_group_assignment(
        self, target: Mapping[str, Iterable[tuple[int, Iterable[int]]]]
    ) -> GroupAssignment:
        """Canonical :class:`~kpart.consumer.assignment.GroupAssignment` of a raw result (member id
        → ``[(topic id, partitions)]``): every member in ``members`` order, topics by name,
        topics and partitions sorted."""
        out = []
        for m in self.members:
            parts = [
                (self.topic_name(tid), tuple(sorted(ps))) for tid, ps in target.get(m.member_id, ())
            ]
            out.append((m.member_id, tuple(sorted(e for e in parts if e[1]))))
        return GroupAssignment(tuple(out))

    def members_in_map_order(self) -> tuple[ServerMember, ...]:
        """``GroupSpec.memberIds()`` order: the iteration order of the coordinator's
        ``HashMap<String, ...>`` of members, filled in ``members`` order (emulated from the
        member ids' ``String.hashCode``). Computed once per spec."""
        found = self._memo.get("map_order")
        if found is None:
            by_id = {m.member_id: m for m in self.members}
            found = self._memo["map_order"] = tuple(by_id[i] for i in _set_order(tuple(by_id)))
        return found

    @property
    def subscription_type(self) -> str:
        """``"HOMOGENEOUS"`` iff every member subscribes to the same topic names, or, with
        regexes, every member uses the same single regex and none subscribes by name (Kafka
        4.0 to 4.3, see :mod:`~kpart.consumer.coordinator.subscription_type`; computed once
        per spec; members sharing one tuple of names are compared once)."""
        found = self._memo.get("subscription_type")
        if found is None:
            found = self._memo["subscription_type"] = subscription_type(
                [(m.topics, m.topic_regex) for m in self.members])
        return found

    def subscription_type_at(self, kafka_version: str | KafkaVersion | None = None) -> str:
        """:attr:`subscription_type` as the brokers of ``kafka_version`` compute it, after
        checking they take the members' regexes (:class:`~kpart.errors.ConfigError`
        otherwise; see :func:`~kpart.consumer.coordinator.subscription_type.
        subscription_type_at`)."""
        if not self._resolved:  # no regex: the same answer in every version with assignors
            subscription_type_at((), kafka_version)
            return self.subscription_type
        return subscription_type_at([(m.topics, m.topic_regex) for m in self.members],
                                    kafka_version)

    # -- loading --------------------------------------------------------------------------
    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> ServerGroupSpec:
        """Build a group from golden-vector JSON (``tests/golden/FORMAT.md``):
        ``{"topics": [{"name", "id", "partitions"}], "members": [{"id", "topics",
        "subscribed_topic_regex"?, "instance_id"?, "rack"?, "assignment"?: [["topic",
        [p, ...]], ...]}]}``. Raises :class:`ConfigError` naming the bad field, also a field
        it does not know (``"rak"``), and a regex the broker's RE2/J refuses (naming the
        member and the regex). Warns (:class:`~kpart.errors.KpartWarning`) for each member
        subscribed to a topic ``topics`` does not list, or to a regex matching none of them
        (the coordinator assigns nothing for it; the group is still built)."""
        if not isinstance(doc, Mapping):
            raise ConfigError("group: expected a JSON object with 'topics' and 'members'.")
        check_fields(doc, ("topics", "members"), "group")
        topics_doc = doc.get("topics")
        if not isinstance(topics_doc, list):
            raise ConfigError("group.topics: expected a list of {name, id, partitions}.")
        topics = []
        for i, t in enumerate(topics_doc):
            if isinstance(t, Mapping):
                check_fields(t, ("name", "id", "partitions"), f"group.topics[{i}]")
            if not isinstance(t, Mapping) or not {"name", "id", "partitions"} <= set(t):
                raise ConfigError(f"group.topics[{i}]: expected {{name, id, partitions}}.")
            topics.append(ServerTopic(t["name"], t["id"], t["partitions"]))
        members_doc = doc.get("members")
        if not isinstance(members_doc, list):
            raise ConfigError("group.members: expected a list of members.")
        group = cls(tuple(topics), tuple(_member_from_json(m, i) for i, m in enumerate(members_doc)))
        for i, m in enumerate(group.members):
            for t in dict.fromkeys(m.topics):
                if t not in group._by_name:
                    kpart_warn(f"group.members[{i}].topics: member {m.member_id!r} subscribes to "
                               f"topic {t!r}, which the group's topics do not list (the "
                               "coordinator assigns no partition of it)")
            if m.topic_regex and not group._resolved[m.topic_regex]:
                kpart_warn(f"group.members[{i}].subscribed_topic_regex: member {m.member_id!r} "
                           f"subscribes to regex {m.topic_regex!r}, which matches none of the "
                           "group's topics (in full, as the broker's RE2/J matches)")
        return group


def _member_from_json(m: Any, i: int) -> ServerMember:
    where = f"group.members[{i}]"
    if isinstance(m, Mapping):
        check_fields(m, ("id", "topics", "subscribed_topic_regex", "instance_id", "rack",
                         "assignment"), where)
    if not isinstance(m, Mapping) or "id" not in m:
        raise ConfigError(f"{where}: expected an object with an 'id'.")
    topics = m.get("topics", [])
    if not isinstance(topics, list):
        raise ConfigError(f"{where}.topics: expected a list of topic names.")
    regex = m.get("subscribed_topic_regex")
    if regex is not None and not isinstance(regex, str):
        raise ConfigError(f"{where}.subscribed_topic_regex: expected a string (an RE2/J "
                          f"regular expression) or null, got {regex!r}.")
    assignment = topic_partitions_from_json(m.get("assignment"), f"{where}.assignment")
    try:
        return ServerMember(
            member_id=m["id"],
            topics=tuple(topics),
            instance_id=m.get("instance_id"),
            rack=m.get("rack"),
            assignment=assignment,
            topic_regex=regex,
        )
    except ConfigError as e:
        if regex and "subscribed_topic_regex" in str(e):
            raise ConfigError(f"{where}: {e}") from None
        raise


# -- a classic group seen by the coordinator ---------------------------------------------
def derived_topic_id(name: str) -> str:
    """A reproducible topic id for ``name``: SHA-256 of the name, shaped like the version-4
    ``Uuid`` Kafka draws (never one Kafka reserves, never starting with ``-``).

    >>> derived_topic_id("t0") == derived_topic_id("t0") != derived_topic_id("t1")
    True
    """
    counter = 0
    while True:
        digest = bytearray(hashlib.sha256(f"{counter}:{name}".encode()).digest()[:16])
        digest[6] = (digest[6] & 0x0F) | 0x40  # version 4
        digest[8] = (digest[8] & 0x3F) | 0x80  # IETF variant
        text = uuid_to_string(int.from_bytes(digest, "big"))
        if not text.startswith("-"):
            return text
        counter += 1


def server_group(
    group: GroupSpec, topic_ids: Mapping[str, str] | None = None
) -> ServerGroupSpec:
    """``group`` as the coordinator's assignor sees it: topics with ids (``topic_ids`` or
    :func:`derived_topic_id`), each member's ``owned_partitions`` as its current assignment
    (in the given order), topics the metadata lacks dropped from it."""
    ids = topic_ids or {}
    topics = tuple(
        ServerTopic(t.name, ids.get(t.name) or derived_topic_id(t.name), t.num_partitions)
        for t in group.topics
    )
    known = {t.name for t in group.topics}
    members = tuple(
        ServerMember(
            m.member_id,
            tuple(sorted(m.topics)),
            m.group_instance_id,
            m.rack,
            tuple((t, ps) for t, ps in m.owned_partitions if t in known and ps),
        )
        for m in group.members
    )
    return ServerGroupSpec(topics, members)
