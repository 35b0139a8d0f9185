"""``ConsumerPartitionAssignor.GroupAssignment``: an assignor's result, member → partitions.

The output of ``org.apache.kafka.clients.consumer.ConsumerPartitionAssignor#assign`` (each
member's ``Assignment``) as an immutable value, shared by both families of assignors: the
classic client-side ones (:mod:`kpart.consumer.classic`) return it directly, and KIP-848's
group-coordinator targets (:mod:`kpart.consumer.coordinator`) are read back into it
(``ServerGroupSpec.to_group_assignment``) so that both compare, print and serialise alike.
Its inputs are the values of :mod:`kpart.consumer.spec`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from kpart.consumer.spec import OwnedPartitions

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa

__all__ = ["GroupAssignment"]

#: Members with their partitions: ``(("C0", OwnedPartitions), ...)``.
MemberPartitions = tuple[tuple[str, OwnedPartitions], ...]


class GroupAssignment:
    """The result of an assignor: for every member, its partitions grouped by topic.

    ``assignment`` maps member id → ((topic, (partition, ...)), ...), topics and partitions
    sorted; every member of the group appears, with ``()`` when it got nothing.
    ``revoked`` (cooperative protocol only) maps member id → partitions it must revoke before
    they can be given out in a follow-up rebalance. Values compare, hash and pickle by these
    two fields.

    Large results (the array form of the sticky assignors: a million partitions) are built
    *deferred*: the assignor decides every partition's owner on arrays and hands over a
    function that groups them into tuples on first access of ``assignment``/``revoked``
    (``partition_counts()`` and ``member_ids`` need no tuples). Immutable either way.

    >>> a = GroupAssignment.from_pairs(["C0", "C1"], {"C0": [("t", 1), ("t", 0)]})
    >>> a.assignment, a.partition_counts()
    ((('C0', (('t', (0, 1)),)), ('C1', ())), {'C0': 2, 'C1': 0})
    """

    __slots__ = ("_assignment", "_counts", "_deferred", "_member_ids", "_revoked")
    __match_args__ = ("assignment", "revoked")

    _assignment: tuple[tuple[str, OwnedPartitions], ...] | None
    _revoked: tuple[tuple[str, OwnedPartitions], ...] | None
    _deferred: Callable[[], tuple[MemberPartitions, MemberPartitions]] | None
    _member_ids: tuple[str, ...]
    _counts: dict[str, int] | None

    def __init__(
        self,
        assignment: tuple[tuple[str, OwnedPartitions], ...],
        revoked: tuple[tuple[str, OwnedPartitions], ...] = (),
    ) -> None:
        self._assignment = tuple(assignment)
        self._revoked = tuple(revoked)
        self._deferred = None
        self._member_ids = tuple(m for m, _ in self._assignment)
        self._counts = None

    @classmethod
    def deferred(
        cls,
        member_ids: Iterable[str],
        counts: Iterable[int],
        build: Callable[[], tuple[MemberPartitions, MemberPartitions]],
    ) -> GroupAssignment:
        """An assignment whose tuples ``build()`` makes on first use: ``member_ids`` in
        output order, ``counts`` their partition counts, ``build() -> (assignment, revoked)``
        (a pure function: called on first access, and again only if two threads race to
        it, with equal results)."""
        self = cls.__new__(cls)
        self._assignment = None
        self._revoked = None
        self._deferred = build
        self._member_ids = tuple(member_ids)
        self._counts = dict(zip(self._member_ids, counts, strict=True))
        return self

    def _materialise(self) -> None:
        build = self._deferred
        if build is not None:
            self._assignment, self._revoked = build()
            self._deferred = None

    @property
    def assignment(self) -> tuple[tuple[str, OwnedPartitions], ...]:
        """``((member, ((topic, (partition, ...)), ...)), ...)``, members in group order."""
        if self._assignment is None:
            self._materialise()
        assert self._assignment is not None
        return self._assignment

    @property
    def revoked(self) -> tuple[tuple[str, OwnedPartitions], ...]:
        """``((member, ((topic, (partition, ...)), ...)), ...)``: only members revoking."""
        if self._revoked is None:
            self._materialise()
        assert self._revoked is not None
        return self._revoked

    @property
    def member_ids(self) -> tuple[str, ...]:
        """Every member of the group, in output order."""
        return self._member_ids

    def partition_counts(self) -> dict[str, int]:
        """``{member: number of partitions assigned}`` (without building the tuples of a
        deferred result)."""
        if self._counts is None:
            self._counts = {
                m: sum(len(ps) for _, ps in owned) for m, owned in self.assignment
            }
        return dict(self._counts)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GroupAssignment):
            return NotImplemented
        return self.assignment == other.assignment and self.revoked == other.revoked

    def __hash__(self) -> int:
        return hash((self.assignment, self.revoked))

    def __repr__(self) -> str:
        return f"GroupAssignment(assignment={self.assignment!r}, revoked={self.revoked!r})"

    def __reduce__(
        self,
    ) -> tuple[type[GroupAssignment], tuple[MemberPartitions, MemberPartitions]]:
        return (GroupAssignment, (self.assignment, self.revoked))

    @classmethod
    def from_pairs(
        cls,
        member_ids: Iterable[str],
        pairs: Mapping[str, Iterable[tuple[str, int]]],
        revoked: Mapping[str, Iterable[tuple[str, int]]] | None = None,
    ) -> GroupAssignment:
        """Canonical assignment from ``member → iterable of (topic, partition)``."""

        def group(tps: Iterable[tuple[str, int]]) -> OwnedPartitions:
            by_topic: dict[str, list[int]] = {}
            for t, p in tps:
                by_topic.setdefault(t, []).append(p)
            return tuple((t, tuple(sorted(ps))) for t, ps in sorted(by_topic.items()))

        ids = list(member_ids)
        rev = revoked or {}
        return cls(
            tuple((m, group(pairs.get(m, ()))) for m in ids),
            tuple((m, group(rev[m])) for m in ids if rev.get(m)),
        )

    def partitions_of(self, member_id: str) -> tuple[tuple[str, int], ...]:
        """``(topic, partition)`` pairs assigned to ``member_id``."""
        for m, owned in self.assignment:
            if m == member_id:
                return tuple((t, p) for t, ps in owned for p in ps)
        raise KeyError(member_id)

    def as_dict(self) -> dict[str, dict[str, list[int]]]:
        """``{member: {topic: [partitions]}}`` (topics and partitions sorted)."""
        return {m: {t: list(ps) for t, ps in owned} for m, owned in self.assignment}

    def to_arrow(self) -> pa.Table:
        """The assignment as an Arrow table, one row per assigned partition: ``member``
        (string), ``topic`` (string), ``partition`` (int32), in ``assignment`` order (members in
        group order, topics and partitions sorted). Members with no partitions have no row
        (:attr:`member_ids` lists every member); ``revoked`` is not included.

        Built from the tuple view today (issue 12: the array paths will hand their arrays over
        directly); the flattening itself is vectorised (one ``take`` per string column).

        >>> a = GroupAssignment.from_pairs(["C0", "C1", "C2"],
        ...                                {"C0": [("t", 1), ("t", 0)], "C1": [("u", 0)]})
        >>> a.to_arrow().to_pylist()  # doctest: +NORMALIZE_WHITESPACE
        [{'member': 'C0', 'topic': 't', 'partition': 0},
         {'member': 'C0', 'topic': 't', 'partition': 1},
         {'member': 'C1', 'topic': 'u', 'partition': 0}]
        """
        import numpy as np
        import pyarrow as pa

        members: list[str] = []
        topics: list[str] = []
        counts: list[int] = []
        partitions: list[int] = []
        for m, owned in self.assignment:
            for t, ps in owned:
                members.append(m)
                topics.append(t)
                counts.append(len(ps))
                partitions.extend(ps)
        rows = pa.array(np.repeat(np.arange(len(counts), dtype=np.int64), counts))
        return pa.table({
            "member": pa.array(members, pa.string()).take(rows),
            "topic": pa.array(topics, pa.string()).take(rows),
            "partition": pa.array(partitions, pa.int32()),
        })

    def to_json(self) -> dict[str, Any]:
        """``{"assignment": {member: {topic: [partitions]}}}`` as in the golden vectors."""
        return {"assignment": self.as_dict()}
