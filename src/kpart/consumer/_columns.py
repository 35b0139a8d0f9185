"""An assignor's result as arrays: every partition's owner, the form the array paths hand over.

Kafka's assignors (``ConsumerPartitionAssignor.GroupAssignment`` on the client side, the
KIP-848 coordinator's ``GroupAssignment`` on the server side) give every partition of the
subscribed topics to at most one member. At Kafka's largest shapes (a million partitions,
thousands of members) that result is held here as one integer per partition instead of a
million Python tuples:

- ``topics``: the topic names in sorted (code point) order, the canonical order of
  :class:`~kpart.consumer.assignment.GroupAssignment`; ``counts[t]``: the partitions of
  ``topics[t]`` (partition ``(topics[t], p)`` is index ``offsets[t] + p``);
- ``owner[i]``: the position in ``member_ids`` of the member holding partition index ``i``,
  ``-1`` when no member holds it.

:meth:`AssignmentColumns.to_arrow` turns it into the user's table without per-partition Python
objects; :meth:`AssignmentColumns.member_partitions` builds the tuple view on demand.

>>> import numpy as np
>>> c = AssignmentColumns(("C0", "C1"), ("t0", "t1"), np.array([2, 1]),
...                       np.array([1, 0, 1], dtype=np.int32))
>>> c.member_partitions()
(('C0', (('t0', (1,)),)), ('C1', (('t0', (0,)), ('t1', (0,)))))
>>> c.to_arrow().to_pylist()  # doctest: +NORMALIZE_WHITESPACE
[{'member': 'C0', 'topic': 't0', 'partition': 1},
 {'member': 'C1', 'topic': 't0', 'partition': 0},
 {'member': 'C1', 'topic': 't1', 'partition': 0}]
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from operator import itemgetter
from typing import TYPE_CHECKING

import numpy as np

from kpart._arrow import int32_array, string_array
from kpart.consumer.spec import OwnedPartitions
from kpart.errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa

__all__ = ["AssignmentColumns", "MemberPartitions", "SharedColumns", "no_gc"]

#: Members with their partitions: ``(("C0", OwnedPartitions), ...)``.
MemberPartitions = tuple[tuple[str, OwnedPartitions], ...]


@contextmanager
def no_gc() -> Iterator[None]:
    """Garbage collection off for a block that makes millions of small tuples (none can form
    a cycle; full collections over the input's objects would otherwise run again and again)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class AssignmentColumns:
    """Partition → member as arrays (see the module docstring).

    ``member_ids``: every member, in output order (length ``M``); ``topics``: sorted names
    (length ``T``); ``counts``: int, shape ``(T,)``, ≥ 0; ``owner``: int, shape
    ``(counts.sum(),)``, values in ``[-1, M)``. The arrays are copied to read-only int64 /
    int32 arrays. Raises :class:`~kpart.errors.ConfigError` when the shapes disagree.
    """

    __slots__ = ("counts", "member_ids", "offsets", "owner", "topics")

    member_ids: tuple[str, ...]
    topics: tuple[str, ...]
    counts: np.ndarray
    offsets: np.ndarray
    owner: np.ndarray

    def __init__(
        self,
        member_ids: Sequence[str],
        topics: Sequence[str],
        counts: np.ndarray | Sequence[int],
        owner: np.ndarray,
    ) -> None:
        self.member_ids = tuple(member_ids)
        self.topics = tuple(topics)
        self.counts = np.array(counts, dtype=np.int64)
        self.offsets = np.zeros(len(self.topics), dtype=np.int64)
        if len(self.topics) > 1:
            np.cumsum(self.counts[:-1], out=self.offsets[1:])
        self.owner = np.array(owner, dtype=np.int32)
        if self.counts.shape != (len(self.topics),) or self.owner.shape != (
            int(self.counts.sum()),
        ):
            raise ConfigError(
                f"Assignment columns disagree: {len(self.topics)} topics, {len(self.counts)} "
                f"counts summing to {int(self.counts.sum())}, {len(self.owner)} owners."
            )
        for a in (self.counts, self.offsets, self.owner):
            a.flags.writeable = False

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AssignmentColumns):
            return NotImplemented
        return (
            self.member_ids == other.member_ids
            and self.topics == other.topics
            and np.array_equal(self.counts, other.counts)
            and np.array_equal(self.owner, other.owner)
        )

    __hash__ = None  # type: ignore[assignment]  # mutable-looking arrays: equality only

    def partition_counts(self) -> list[int]:
        """Partitions held by each member, in ``member_ids`` order."""
        held = np.bincount(self.owner + 1, minlength=len(self.member_ids) + 1)  # [nobody, ...]
        return held[1:].tolist()  # type: ignore[no-any-return]

    def rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(member position, topic index, partition)``, int32 arrays of one length: one
        entry per held partition, sorted by member position, then topic, then partition (the
        order of :meth:`member_partitions`)."""
        from kpart.consumer._columns_kernels import owner_rows  # numba: imported on use

        return owner_rows(self.owner, len(self.member_ids), self.counts)

    def to_arrow(self) -> pa.Table:
        """One row per held partition: ``member`` (string), ``topic`` (string), ``partition``
        (int32), sorted by member (``member_ids`` order), topic, partition."""
        import pyarrow as pa

        member, tid, partition = self.rows()
        return pa.table({
            "member": string_array(self.member_ids).take(int32_array(member)),
            "topic": string_array(self.topics).take(int32_array(tid)),
            "partition": int32_array(partition),
        })

    def member_partitions(self) -> MemberPartitions:
        """``((member, ((topic, (partition, ...)), ...)), ...)`` for every member of
        ``member_ids`` (``()`` when it holds nothing): the tuple view."""
        with no_gc():
            member, tid, partition = self.rows()
            grouped = _grouped(self.topics, member, tid, partition, len(self.member_ids))
            return tuple(zip(self.member_ids, grouped, strict=True))


class SharedColumns:
    """An assignment where several members may hold one partition (a share group's, KIP-932)
    as rows: ``member`` (positions in ``member_ids``), ``topic`` (positions in ``topics``,
    sorted names) and ``partition``, int32 arrays of one length, one row per (member,
    partition) held, sorted by member, topic, partition. The same views as
    :class:`AssignmentColumns` (:meth:`to_arrow`, :meth:`member_partitions`,
    :meth:`partition_counts`).

    >>> c = SharedColumns(("A", "B"), ("t",), np.array([0, 1, 1]), np.array([0, 0, 0]),
    ...                   np.array([0, 0, 1]))
    >>> c.member_partitions()
    (('A', (('t', (0,)),)), ('B', (('t', (0, 1)),)))
    """

    __slots__ = ("member", "member_ids", "partition", "topic", "topics")

    def __init__(self, member_ids: Sequence[str], topics: Sequence[str], member: np.ndarray,
                 topic: np.ndarray, partition: np.ndarray) -> None:
        self.member_ids = tuple(member_ids)
        self.topics = tuple(topics)
        self.member = np.asarray(member, dtype=np.int32)
        self.topic = np.asarray(topic, dtype=np.int32)
        self.partition = np.asarray(partition, dtype=np.int32)
        if not self.member.shape == self.topic.shape == self.partition.shape:
            raise ConfigError("Shared assignment columns disagree: rows of different lengths.")
        for a in (self.member, self.topic, self.partition):
            a.flags.writeable = False

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SharedColumns):
            return NotImplemented
        return (self.member_ids == other.member_ids and self.topics == other.topics
                and all(np.array_equal(a, b) for a, b in zip(self.rows(), other.rows(),
                                                              strict=True)))

    __hash__ = None  # type: ignore[assignment]

    def partition_counts(self) -> list[int]:
        """Partitions held by each member, in ``member_ids`` order."""
        return np.bincount(self.member, minlength=len(self.member_ids)).tolist()  # type: ignore[no-any-return]

    def rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(member position, topic index, partition)`` (see the class docstring)."""
        return self.member, self.topic, self.partition

    def to_arrow(self) -> pa.Table:
        """One row per (member, partition) held: ``member``, ``topic``, ``partition`` (int32)."""
        import pyarrow as pa

        return pa.table({
            "member": string_array(self.member_ids).take(int32_array(self.member)),
            "topic": string_array(self.topics).take(int32_array(self.topic)),
            "partition": int32_array(self.partition),
        })

    def member_partitions(self) -> MemberPartitions:
        """``((member, ((topic, (partition, ...)), ...)), ...)`` for every member."""
        with no_gc():
            grouped = _grouped(self.topics, self.member, self.topic, self.partition,
                               len(self.member_ids))
            return tuple(zip(self.member_ids, grouped, strict=True))


def _grouped(
    topics: Sequence[str], member: np.ndarray, tid: np.ndarray, ps: np.ndarray, n: int
) -> list[OwnedPartitions]:
    """Rows sorted by (member, topic, partition) → per member ``((topic, (p, ...)), ...)``.

    Tuples are built by C-level ``zip`` where groups have equal sizes (the common case of
    large balanced groups), by slicing otherwise."""
    if not len(member):
        return [()] * n
    new_group = np.ones(len(member), dtype=bool)
    new_group[1:] = (tid[1:] != tid[:-1]) | (member[1:] != member[:-1])
    starts = np.flatnonzero(new_group)
    sizes = np.diff(np.append(starts, len(member)))
    names = np.array(topics, dtype=object)[tid[starts]].tolist()
    groups = _group_tuples(names, ps, starts, sizes)
    cuts = np.searchsorted(member[starts], np.arange(n + 1)).tolist()
    return [tuple(groups[cuts[i] : cuts[i + 1]]) for i in range(n)]


def _group_tuples(
    names: list[str], ps: np.ndarray, starts: np.ndarray, sizes: np.ndarray
) -> Sequence[tuple[str, tuple[int, ...]]]:
    """``(names[g], tuple(ps[starts[g]:starts[g] + sizes[g]]))`` for every group ``g``: groups
    of one size at a time through C-level ``zip`` (slices for large groups), then put back in
    order."""
    present = np.flatnonzero(np.bincount(sizes)).tolist()
    flat: list[int] | None = ps.tolist() if present[-1] > 8 else None  # once, for slicing
    if len(present) == 1:  # the common case of large balanced groups: one size, no reorder
        return _same_size(names, ps, starts, present[0], flat)
    names_arr = np.array(names, dtype=object)
    pieces: list[tuple[str, tuple[int, ...]]] = []
    where: list[np.ndarray] = []
    for k in present:
        idx = np.flatnonzero(sizes == k)
        pieces.extend(_same_size(names_arr[idx].tolist(), ps, starts[idx], k, flat))
        where.append(idx)
    inverse = np.argsort(np.concatenate(where)).tolist()
    return itemgetter(*inverse)(pieces) if len(inverse) > 1 else [pieces[0]]


def _same_size(
    names: list[str], ps: np.ndarray, starts: np.ndarray, k: int, flat: list[int] | None
) -> list[tuple[str, tuple[int, ...]]]:
    """``(names[g], tuple(ps[starts[g]:starts[g] + k]))`` for groups all of size ``k``
    (``flat``: ``ps.tolist()``, needed when ``k > 8``)."""
    if k == 1:  # one ``(p,)`` per partition number, shared (tuples are immutable)
        firsts = ps[starts]
        singles = np.fromiter(((p,) for p in range(int(firsts.max()) + 1)), dtype=object)
        return list(zip(names, singles[firsts].tolist(), strict=True))
    if k <= 8:
        cols = [ps[starts + i].tolist() for i in range(k)]
        return list(zip(names, zip(*cols, strict=True), strict=True))
    assert flat is not None
    return [(t, tuple(flat[a : a + k])) for t, a in zip(names, starts.tolist(), strict=True)]
