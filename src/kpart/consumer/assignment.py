"""``ConsumerPartitionAssignor.GroupAssignment``: an assignor's result, member → partitions.

The output of ``org.apache.kafka.clients.consumer.ConsumerPartitionAssignor#assign`` (each
member's ``Assignment``) as an immutable value, shared by both families of assignors: the
classic client-side ones (:mod:`kpart.consumer.classic`) return it directly, and KIP-848's
group-coordinator targets (:mod:`kpart.consumer.coordinator`) are read back into it
(``ServerGroupSpec.to_group_assignment``) so that both compare, print and serialise alike.
Its inputs are the values of :mod:`kpart.consumer.spec`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from kpart._arrow import int32_array, string_array
from kpart.consumer._columns import AssignmentColumns, MemberPartitions, SharedColumns
from kpart.consumer.spec import OwnedPartitions

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa

__all__ = ["GroupAssignment"]


class GroupAssignment:
    """The result of an assignor: for every member, its partitions grouped by topic.

    ``assignment`` maps member id → ((topic, (partition, ...)), ...), topics and partitions
    sorted; every member of the group appears, with ``()`` when it got nothing.
    ``revoked`` (cooperative protocol only) maps member id → partitions it must revoke before
    they can be given out in a follow-up rebalance. Values compare, hash and pickle by these
    two fields.

    Large results (the array paths of the assignors: a million partitions) are *columnar*
    (:meth:`from_columns`): the assignor hands over every partition's owner as an array
    (:class:`~kpart.consumer._columns.AssignmentColumns`); :meth:`to_arrow` and
    :meth:`partition_counts` read the arrays, and the ``(topic, (partition, ...))`` tuples are
    built on first access of ``assignment``/``revoked``. Immutable either way.

    >>> a = GroupAssignment.from_pairs(["C0", "C1"], {"C0": [("t", 1), ("t", 0)]})
    >>> a.assignment, a.partition_counts()
    ((('C0', (('t', (0, 1)),)), ('C1', ())), {'C0': 2, 'C1': 0})
    """

    __slots__ = ("_assignment", "_columns", "_counts", "_member_ids", "_revoked",
                 "_revoked_columns")
    __match_args__ = ("assignment", "revoked")

    _assignment: tuple[tuple[str, OwnedPartitions], ...] | None
    _revoked: tuple[tuple[str, OwnedPartitions], ...] | None
    _columns: AssignmentColumns | SharedColumns | None
    _revoked_columns: AssignmentColumns | None
    _member_ids: tuple[str, ...]
    _counts: dict[str, int] | None

    def __init__(
        self,
        assignment: tuple[tuple[str, OwnedPartitions], ...],
        revoked: tuple[tuple[str, OwnedPartitions], ...] = (),
    ) -> None:
        self._assignment = tuple(assignment)
        self._revoked = tuple(revoked)
        self._columns = self._revoked_columns = None
        self._member_ids = tuple(m for m, _ in self._assignment)
        self._counts = None

    @classmethod
    def from_columns(
        cls, columns: AssignmentColumns | SharedColumns, revoked: AssignmentColumns | None = None
    ) -> GroupAssignment:
        """The assignment held in ``columns`` (members in ``columns.member_ids`` order; a
        :class:`~kpart.consumer._columns.SharedColumns` for a share group, where several
        members may hold one partition) and,
        cooperative protocol, the partitions each member must revoke in ``revoked`` (same
        members). No per-partition Python object is made until the tuples are asked for.

        >>> import numpy as np
        >>> from kpart.consumer._columns import AssignmentColumns
        >>> cols = AssignmentColumns(["C0", "C1"], ["t"], [3], np.array([1, 0, 1]))
        >>> a = GroupAssignment.from_columns(cols)
        >>> a.partition_counts(), a.as_dict()
        ({'C0': 1, 'C1': 2}, {'C0': {'t': [1]}, 'C1': {'t': [0, 2]}})
        """
        if revoked is not None and revoked.member_ids != columns.member_ids:
            raise ValueError("revoked columns must list the same members")
        self = cls.__new__(cls)
        self._assignment = self._revoked = None
        self._columns = columns
        self._revoked_columns = revoked
        self._member_ids = columns.member_ids
        self._counts = None  # read from the arrays when asked for
        return self

    @property
    def columns(self) -> AssignmentColumns | SharedColumns | None:
        """The arrays of a columnar result (:meth:`from_columns`), else ``None``."""
        return self._columns

    @property
    def assignment(self) -> tuple[tuple[str, OwnedPartitions], ...]:
        """``((member, ((topic, (partition, ...)), ...)), ...)``, members in group order."""
        if self._assignment is None:
            assert self._columns is not None
            self._assignment = self._columns.member_partitions()
        return self._assignment

    @property
    def revoked(self) -> tuple[tuple[str, OwnedPartitions], ...]:
        """``((member, ((topic, (partition, ...)), ...)), ...)``: only members revoking."""
        if self._revoked is None:
            cols = self._revoked_columns
            self._revoked = () if cols is None else tuple(
                (m, ps) for m, ps in cols.member_partitions() if ps)
        return self._revoked

    @property
    def member_ids(self) -> tuple[str, ...]:
        """Every member of the group, in output order."""
        return self._member_ids

    def partition_counts(self) -> dict[str, int]:
        """``{member: number of partitions assigned}`` (read from the arrays of a columnar
        result, without building its tuples)."""
        if self._counts is None and self._columns is not None:
            self._counts = dict(zip(self._columns.member_ids, self._columns.partition_counts(),
                                    strict=True))
        elif self._counts is None:
            self._counts = {
                m: sum(len(ps) for _, ps in owned) for m, owned in self.assignment
            }
        return dict(self._counts)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GroupAssignment):
            return NotImplemented
        if (self._columns is not None and other._columns is not None
                and (self._revoked_columns is None) == (other._revoked_columns is None)):
            return self._columns == other._columns and (
                self._revoked_columns is None or self._revoked_columns == other._revoked_columns)
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
        (:attr:`member_ids` lists every member); ``revoked`` is not included
        (:meth:`revoked_to_arrow`).

        A columnar result (the array paths) is read straight from its arrays, with no
        per-partition Python object: about 60 ms for a million partitions.

        >>> a = GroupAssignment.from_pairs(["C0", "C1", "C2"],
        ...                                {"C0": [("t", 1), ("t", 0)], "C1": [("u", 0)]})
        >>> a.to_arrow().to_pylist()  # doctest: +NORMALIZE_WHITESPACE
        [{'member': 'C0', 'topic': 't', 'partition': 0},
         {'member': 'C0', 'topic': 't', 'partition': 1},
         {'member': 'C1', 'topic': 'u', 'partition': 0}]
        """
        if self._columns is not None:
            return self._columns.to_arrow()
        return _tuples_to_arrow(self.assignment)

    def revoked_to_arrow(self) -> pa.Table:
        """``revoked`` as an Arrow table with the columns of :meth:`to_arrow`: one row per
        partition a member must revoke (cooperative protocol; empty otherwise)."""
        if self._columns is not None:
            if self._revoked_columns is None:
                return _tuples_to_arrow(())
            return self._revoked_columns.to_arrow()
        return _tuples_to_arrow(self.revoked)

    def to_json(self) -> dict[str, Any]:
        """``{"assignment": {member: {topic: [partitions]}}}`` as in the golden vectors."""
        return {"assignment": self.as_dict()}


def _tuples_to_arrow(assignment: MemberPartitions) -> pa.Table:
    """:meth:`GroupAssignment.to_arrow` of the tuple view (the flattening is vectorised: one
    ``take`` per string column)."""
    import numpy as np
    import pyarrow as pa

    members: list[str] = []
    topics: list[str] = []
    counts: list[int] = []
    partitions: list[int] = []
    for m, owned in assignment:
        for t, ps in owned:
            members.append(m)
            topics.append(t)
            counts.append(len(ps))
            partitions.extend(ps)
    rows = int32_array(np.repeat(np.arange(len(counts), dtype=np.int32), counts))
    return pa.table({
        "member": string_array(members).take(rows),
        "topic": string_array(topics).take(rows),
        "partition": int32_array(np.array(partitions, dtype=np.int32)),
    })
