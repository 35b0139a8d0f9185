"""What moves between two assignments of one consumer group: on a Kafka upgrade, or on a switch
of rebalance protocol (classic ↔ consumer, KIP-848).

One concept: the comparison of two :class:`~kpart.consumer.assignment.GroupAssignment` values of
the same group, :func:`compare` → :class:`AssignmentChange` (the partitions that change owner,
per partition and per member, and each side's balance). Two compositions build the pair:

- :func:`upgrade_change`: the same group computed by the assignor of two Kafka releases: the
  group coordinator's (KIP-848, the brokers' version) or a classic client-side one (the
  consumers' version; rules ``classic_range``, ``classic_round_robin``, ``cooperative_sticky``,
  ``classic_sticky`` of :mod:`kpart.versions`). Both sides answer the same group state, as the
  file gives it: the difference is what an assignment computed after the upgrade differs by
  from one computed before. A version where kpart does not model the assignor is an error naming
  the version and the assignor, never another version's answer.
- :func:`protocol_change`: a classic group moved to the consumer protocol (``"consumer"``), or a
  KIP-848 group moved back (``"classic"``). Kafka's consumer rebalance protocol documentation
  (``docs/operations/consumer-rebalance-protocol.md``, section "Migrating from Client-side
  Assignors", https://kafka.apache.org/43/operations/consumer-rebalance-protocol/) maps them:
  "The following table shows the mapping from client-side assignors to the new server-side
  assignors: RangeAssignor → range; CooperativeStickyAssignor → uniform; StickyAssignor →
  uniform; RoundRobinAssignor → uniform" (:data:`SERVER_EQUIVALENT`). Its "Upgrade & Downgrade"
  section: online, "when the first consumer using the new Consumer rebalance protocol joins the
  group, the group is converted from Classic to Consumer", and back "when the last consumer
  using the new Consumer rebalance protocol leaves the group". The conversion keeps each
  member's assignment as its current one (``ConsumerGroup.fromClassicGroup`` takes the previous
  generation's assignments as the target, KAFKA-21582), so the server side is computed with the
  members owning the classic side's answer; on a downgrade the members rejoin owning the
  consumer group's target (their ``ownedPartitions``, generation 1). Offline (the "Offline"
  section: the group emptied first, then converted), the new side starts from no assignment:
  ``online=False``.

Shapes: a partition is ``(topic, partition)``; members appear in the first assignment's order,
then members only the second has. A partition that no member owns on one side (no subscriber,
or withheld by a cooperative revocation) changes owner from or to ``None``. The cooperative
assignor's answer is taken once settled: when its first round revokes partitions, a follow-up
round (members owning what the first gave them) hands them out, as the protocol does.

>>> from kpart.consumer.assignment import GroupAssignment
>>> before = GroupAssignment.from_pairs(["m1", "m2"], {"m1": [("t", 0), ("t", 1)],
...                                                    "m2": [("t", 2)]})
>>> after = GroupAssignment.from_pairs(["m1", "m2"], {"m1": [("t", 0)],
...                                                   "m2": [("t", 1), ("t", 2)]})
>>> c = compare(before, after)
>>> c.moved, c.moves
(1, (PartitionMove(topic='t', partition=1, from_member='m1', to_member='m2'),))
>>> [(m.member_id, m.lost, m.gained) for m in c.members]
[('m1', (('t', 1),), ()), ('m2', (), (('t', 1),))]
>>> c.before_balance, c.after_balance
(Balance(members=2, min_partitions=1, max_partitions=2), Balance(members=2, min_partitions=1, max_partitions=2))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from kpart.consumer import (
    CONSUMER,
    COOPERATIVE,
    Strategy,
    assign,
    get_strategy,
    server_assign,
    server_strategy,
)
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.coordinator.server_spec import ServerGroupSpec, server_group
from kpart.consumer.spec import GroupSpec, Member, Topic
from kpart.errors import ConfigError
from kpart.versions import KafkaVersion, behaviour, kafka_version

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa

__all__ = [
    "CLASSIC_EQUIVALENT",
    "PROTOCOLS",
    "SERVER_EQUIVALENT",
    "AssignmentChange",
    "Balance",
    "MemberChange",
    "PartitionMove",
    "compare",
    "protocol_change",
    "upgrade_change",
]

#: Classic assignor → the KIP-848 assignor it becomes under ``group.protocol=consumer`` (Kafka's
#: consumer rebalance protocol documentation, "Migrating from Client-side Assignors").
SERVER_EQUIVALENT: Mapping[str, str] = {
    "range": "server-range",
    "sticky": "uniform",
    "cooperative-sticky": "uniform",
    "roundrobin": "uniform",
}

#: KIP-848 assignor → the classic assignor a downgraded group runs by default (the reverse of
#: :data:`SERVER_EQUIVALENT`; ``uniform`` goes back to the cooperative sticky assignor, the
#: incremental one, unless another is named).
CLASSIC_EQUIVALENT: Mapping[str, str] = {
    "server-range": "range",
    "uniform": "cooperative-sticky",
}

#: The values of ``group.protocol``.
PROTOCOLS = ("consumer", "classic")

Partition = tuple[str, int]


@dataclass(frozen=True, slots=True)
class PartitionMove:
    """A partition whose owner differs: ``from_member`` on the first side, ``to_member`` on
    the second (``None``: nobody owns it there)."""

    topic: str
    partition: int
    from_member: str | None
    to_member: str | None


@dataclass(frozen=True, slots=True)
class MemberChange:
    """One member's side of the change: ``before``/``after`` (partitions owned, counts),
    ``lost`` (owned first, by someone else or nobody second) and ``gained`` (the reverse),
    each sorted by (topic, partition)."""

    member_id: str
    before: int
    after: int
    lost: tuple[Partition, ...]
    gained: tuple[Partition, ...]


@dataclass(frozen=True, slots=True)
class Balance:
    """``members`` and the fewest/most partitions one of them owns (0, 0 for no member)."""

    members: int
    min_partitions: int
    max_partitions: int

    @property
    def spread(self) -> int:
        """``max_partitions - min_partitions`` (0 or 1: balanced)."""
        return self.max_partitions - self.min_partitions

    @classmethod
    def of(cls, assignment: GroupAssignment) -> Balance:
        """The balance of ``assignment`` (every member it lists, with nothing or not)."""
        counts = list(assignment.partition_counts().values())
        return cls(len(counts), min(counts, default=0), max(counts, default=0))


@dataclass(frozen=True, slots=True)
class AssignmentChange:
    """Two assignments of one group and what differs: ``moves`` (sorted by topic, partition),
    ``members`` (:class:`MemberChange`, first side's order then new members) and each side's
    :class:`Balance`. ``labels`` name the sides in :meth:`to_json` (``("4.0.0", "4.3")``,
    ``("cooperative-sticky", "uniform")``)."""

    before: GroupAssignment
    after: GroupAssignment
    moves: tuple[PartitionMove, ...]
    members: tuple[MemberChange, ...]
    before_balance: Balance
    after_balance: Balance
    labels: tuple[str, str] = ("before", "after")

    @property
    def moved(self) -> int:
        """How many partitions change owner."""
        return len(self.moves)

    def to_arrow(self) -> pa.Table:
        """One row per partition owned on either side, sorted by topic and partition: ``topic``
        (string), ``partition`` (int32), ``before`` and ``after`` (string, the owning member;
        null: nobody), ``moved`` (bool: the owner differs). The schema's metadata holds
        ``kpart.labels`` (a JSON list of the two sides' labels).

        >>> a = GroupAssignment.from_pairs(["m1", "m2"], {"m1": [("t", 0), ("t", 1)]})
        >>> b = GroupAssignment.from_pairs(["m1", "m2"], {"m1": [("t", 0)], "m2": [("t", 1)]})
        >>> compare(a, b).to_arrow().to_pylist()  # doctest: +NORMALIZE_WHITESPACE
        [{'topic': 't', 'partition': 0, 'before': 'm1', 'after': 'm1', 'moved': False},
         {'topic': 't', 'partition': 1, 'before': 'm1', 'after': 'm2', 'moved': True}]
        """
        import json

        import pyarrow as pa

        first, second = _owners(self.before), _owners(self.after)
        keys = sorted(first.keys() | second.keys())
        before = [first.get(k) for k in keys]
        after = [second.get(k) for k in keys]
        table = pa.table({
            "topic": pa.array([t for t, _ in keys], pa.string()),
            "partition": pa.array([p for _, p in keys], pa.int32()),
            "before": pa.array(before, pa.string()),
            "after": pa.array(after, pa.string()),
            "moved": pa.array([x != y for x, y in zip(before, after, strict=True)], pa.bool_()),
        })
        return table.replace_schema_metadata({"kpart.labels": json.dumps(list(self.labels))})

    def to_json(self) -> dict[str, Any]:
        """``{"before": {label, assignment, balance}, "after": {...}, "moved": n,
        "moves": [{topic, partition, from, to}], "members": {id: {before, after, lost, gained}}}``
        (``lost``/``gained`` as ``{topic: [partitions]}``)."""

        def side(label: str, a: GroupAssignment, b: Balance) -> dict[str, Any]:
            return {"label": label, "assignment": a.as_dict(),
                    "balance": {"members": b.members, "min_partitions": b.min_partitions,
                                "max_partitions": b.max_partitions}}

        return {
            "before": side(self.labels[0], self.before, self.before_balance),
            "after": side(self.labels[1], self.after, self.after_balance),
            "moved": self.moved,
            "moves": [{"topic": m.topic, "partition": m.partition, "from": m.from_member,
                       "to": m.to_member} for m in self.moves],
            "members": {m.member_id: {"before": m.before, "after": m.after,
                                      "lost": _by_topic(m.lost), "gained": _by_topic(m.gained)}
                        for m in self.members},
        }


def _by_topic(parts: Iterable[Partition]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for t, p in parts:
        out.setdefault(t, []).append(p)
    return out


def _owners(a: GroupAssignment) -> dict[Partition, str]:
    return {(t, p): m for m, owned in a.assignment for t, ps in owned for p in ps}


def compare(before: GroupAssignment, after: GroupAssignment,
            labels: tuple[str, str] = ("before", "after")) -> AssignmentChange:
    """What changes from ``before`` to ``after`` (two assignments of one group): see
    :class:`AssignmentChange` and the module's example. Pure; linear in the partitions."""
    first, second = _owners(before), _owners(after)
    moves = tuple(
        PartitionMove(t, p, first.get((t, p)), second.get((t, p)))
        for t, p in sorted(first.keys() | second.keys())
        if first.get((t, p)) != second.get((t, p))
    )
    lost: dict[str, list[Partition]] = {}
    gained: dict[str, list[Partition]] = {}
    for mv in moves:
        if mv.from_member is not None:
            lost.setdefault(mv.from_member, []).append((mv.topic, mv.partition))
        if mv.to_member is not None:
            gained.setdefault(mv.to_member, []).append((mv.topic, mv.partition))
    counts_before, counts_after = before.partition_counts(), after.partition_counts()
    ids = dict.fromkeys((*before.member_ids, *after.member_ids))
    members = tuple(
        MemberChange(m, counts_before.get(m, 0), counts_after.get(m, 0),
                     tuple(lost.get(m, ())), tuple(gained.get(m, ())))
        for m in ids
    )
    return AssignmentChange(before, after, moves, members, Balance.of(before),
                            Balance.of(after), labels)


def _at(strategy: Strategy, version: str | KafkaVersion | None, what: str) -> Strategy:
    """``strategy`` at ``version``, errors naming the parameter ``what``: an unknown version,
    a version without the assignor or where kpart does not model it, or a strategy that follows
    no rule of :mod:`kpart.versions` (one built by hand)."""
    v = kafka_version(version, what)
    if not strategy.rules:
        raise ConfigError.about(
            what, "{param} {value!r}: kpart does not model the {name} assignor by Kafka "
            "version (a strategy without rules of kpart.versions), so it cannot say what "
            "changes across versions", value=str(v), name=strategy.name)
    for rule in strategy.rules:
        behaviour(rule, v, what)
    return strategy.at_version(v)


def _settled(group: GroupSpec, strategy: Strategy) -> GroupAssignment:
    """The classic ``strategy``'s answer on ``group``; a cooperative one settled by a follow-up
    round when its first round revokes partitions (members then own the first round's answer,
    one generation later)."""
    first = assign(group, strategy)
    if strategy.protocol != COOPERATIVE or not first.revoked:
        return first
    generation = max((m.generation for m in group.members), default=-1) + 1
    owned = dict(first.assignment)
    members = [replace(m, owned_partitions=owned[m.member_id], generation=generation)
               for m in group.members]
    return assign(group.with_members(members), strategy)


def upgrade_change(spec: ServerGroupSpec | GroupSpec, assignor: str | Strategy,
                   from_version: str | KafkaVersion, to_version: str | KafkaVersion
                   ) -> AssignmentChange:
    """The same group's assignment by ``assignor`` as Kafka ``from_version`` and ``to_version``
    compute it (labels: the two versions). ``spec``: a KIP-848 group (``uniform``, ``range`` /
    ``server-range``) or a classic group file's group, run by a classic assignor (``range``,
    ``roundrobin``, ``sticky``, ``cooperative-sticky``: the consumers' versions; a cooperative
    answer taken once settled, as :func:`protocol_change` does) or by a KIP-848 one (its members'
    owned partitions as their current targets: the brokers' versions). Raises
    :class:`~kpart.errors.ConfigError` about ``from_version`` or ``to_version``: unparseable,
    unknown, a version without the assignor (``cooperative-sticky`` before 2.4.0) or where kpart
    does not model it.

    >>> g = ServerGroupSpec.from_json({
    ...     "topics": [{"name": "t", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 3}],
    ...     "members": [{"id": "m1", "topics": ["t"]}, {"id": "m2", "topics": ["t"]}]})
    >>> c = upgrade_change(g, "uniform", "4.0.0", "4.3")
    >>> c.before.as_dict(), c.after.as_dict(), c.moved
    ({'m1': {'t': [0, 1]}, 'm2': {'t': [2]}}, {'m1': {'t': [0]}, 'm2': {'t': [1, 2]}}, 1)

    A static member ``b`` among dynamic ones: from 2.4.0 (KIP-345) the range assignor puts it
    first.

    >>> g = GroupSpec.from_json({"topics": {"t": 3}, "members": [
    ...     {"id": "a", "topics": ["t"]}, {"id": "b", "topics": ["t"], "instance_id": "i"}]})
    >>> upgrade_change(g, "range", "2.3", "2.4").moves[0]
    PartitionMove(topic='t', partition=0, from_member='a', to_member='b')
    """
    strategy = (get_strategy(assignor) if isinstance(spec, GroupSpec)
                else server_strategy(assignor))
    old = _at(strategy, from_version, "from_version")
    new = _at(strategy, to_version, "to_version")
    if isinstance(spec, GroupSpec) and strategy.protocol != CONSUMER:
        before, after = _settled(spec, old), _settled(spec, new)
    elif isinstance(spec, GroupSpec):
        before, after = assign(spec, old), assign(spec, new)
    else:
        before, after = server_assign(spec, old), server_assign(spec, new)
    return compare(before, after, (str(old.kafka_version), str(new.kafka_version)))


def protocol_change(group: GroupSpec | ServerGroupSpec, assignor: str | Strategy, to_protocol: str,
                    *, kafka_version: str | KafkaVersion | None = None,
                    to_assignor: str | None = None, online: bool = True) -> AssignmentChange:
    """``group`` moved to ``group.protocol`` ``to_protocol`` (labels: the two assignors).

    - ``"consumer"``: ``group`` is a classic group run by the classic ``assignor``; the server
      side runs ``to_assignor`` (default :data:`SERVER_EQUIVALENT`) as the brokers'
      ``kafka_version`` computes it (default: the newest release, 4.3), the members owning the
      classic answer.
    - ``"classic"``: ``group`` is a KIP-848 group whose target ``assignor`` (``uniform``,
      ``range``) computes at ``kafka_version``; the members then rejoin a classic group owning
      it, run by ``to_assignor`` (default :data:`CLASSIC_EQUIVALENT`).
    - ``online=False``: the group is emptied and restarted with the new protocol, so the new
      side is computed with no member owning anything (no generation).

    Raises :class:`~kpart.errors.ConfigError`: ``to_protocol`` not ``consumer``/``classic``,
    an assignor of the wrong family or unknown, a group of the wrong kind, a bad version.

    >>> g = GroupSpec.from_json({"topics": {"t": 4}, "members": [
    ...     {"id": "C0", "topics": ["t"]}, {"id": "C1", "topics": ["t"]}]})
    >>> c = protocol_change(g, "roundrobin", "consumer")
    >>> c.labels, c.before.as_dict(), c.moved
    (('classic roundrobin', 'consumer uniform'), {'C0': {'t': [0, 2]}, 'C1': {'t': [1, 3]}}, 0)
    """
    if to_protocol not in PROTOCOLS:
        raise ConfigError.about("to_protocol", "{param} {value!r}: expected consumer or classic "
                                "(the values of group.protocol)", value=to_protocol)
    if to_protocol == "consumer":
        if not isinstance(group, GroupSpec):
            raise ConfigError.about(
                "to_protocol", "{param} {value!r} starts from a classic group (a group file "
                "whose topics are {{name: partitions}}), not a KIP-848 one", value=to_protocol)
        classic = _family(assignor, classic=True)
        server = _family(to_assignor or SERVER_EQUIVALENT[classic.name], classic=False)
        server = server.at_version(kafka_version)
        before = _settled(group, classic)
        owned = dict(before.assignment)
        current = group.with_members(
            replace(m, owned_partitions=owned[m.member_id] if online else ())
            for m in group.members)
        after = server_assign(server_group(current), server)
        return compare(before, after, (f"classic {classic.name}", f"consumer {server.config_name}"))
    if not isinstance(group, ServerGroupSpec):
        raise ConfigError.about(
            "to_protocol", "{param} {value!r} starts from a KIP-848 group (a group file whose "
            "topics are [{{name, id, partitions}}]), not a classic one", value=to_protocol)
    server = _family(assignor, classic=False).at_version(kafka_version)
    classic = _family(to_assignor or CLASSIC_EQUIVALENT[server.name], classic=True)
    before = server_assign(group, server)
    owned = dict(before.assignment)
    rejoined = GroupSpec(
        tuple(Topic(t.name, t.num_partitions) for t in group.topics),
        tuple(Member(m.member_id, m.topics, m.rack, m.instance_id,
                     generation=1 if online else -1,
                     owned_partitions=owned[m.member_id] if online else ())
              for m in group.members),
    )
    after = _settled(rejoined, classic)
    return compare(before, after, (f"consumer {server.config_name}", f"classic {classic.name}"))


def _family(name: str | Strategy, *, classic: bool) -> Strategy:
    """The strategy called ``name``, checked to be classic (client-side) or KIP-848."""
    if not classic and name in ("range", "uniform"):  # Kafka's group.remote.assignor values
        return server_strategy(name)
    s = get_strategy(name)
    if (s.protocol == CONSUMER) == classic:
        kind = "a classic (client-side) assignor" if classic else "a KIP-848 (server-side) one"
        raise ConfigError(f"Assignor {s.name!r} is not {kind} here: expected one of "
                          f"{sorted(SERVER_EQUIVALENT if classic else CLASSIC_EQUIVALENT)}.")
    return s
