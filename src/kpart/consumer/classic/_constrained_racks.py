"""``AbstractStickyAssignor.RackInfo`` and ``ConstrainedAssignmentBuilder.assignRackAwareRoundRobin``
(KIP-881) on numpy arrays: the rack-aware part of the sticky assignors' array form.

The object-based port (:mod:`kpart.consumer.classic._sticky_rack`,
:mod:`kpart.consumer.classic._constrained_builder`) stays the reference. Here:

- :func:`rack_view` is ``RackInfo``: every member's rack as a small code, every partition's
  number of same-rack members (``numConsumersByPartition``, the sort key of the unassigned
  partitions) and, when rack-aware assignment is used (``useRackAwareAssignment``), which
  member racks hold a replica of each partition (``racksMismatch``, ``nextRackConsumer``);
- :func:`rack_aware_round_robin` is Kafka's step 2: each unassigned partition (in the sorted
  order) goes to the next member below ``minQuota`` on one of its replica racks, cyclically
  from where the previous one stopped, else to the first member at ``minQuota`` on such a rack
  (which then reaches ``maxQuota``), else it is left for the plain round robin.

Step 2 is one pass over the partitions, as in Kafka, but each step is a few list lookups:
the member list below ``minQuota`` only ever loses members, so Java's "index into the shrinking
list" is a position in the initial list ("the first live member at or after it, cyclically"),
and for every distinct set of replica racks (few: one per combination of member racks) an array
gives, from each position, the next member on one of those racks. Members that leave the list
are skipped lazily (path compression).

>>> from kpart.consumer.spec import GroupSpec
>>> g = GroupSpec.from_json({"topics": {"t": 3}, "partition_racks": {"t": [["a"], ["b"], []]},
...     "members": [{"id": "C0", "topics": ["t"], "rack": "a"},
...                 {"id": "C1", "topics": ["t"], "rack": "b"}]})
>>> v = rack_view(g, list(g.members), ["t"], 3)
>>> v.aware, v.member_rack.tolist(), v.consumers.tolist(), v.code.tolist(), v.set_id.tolist()
(True, [0, 1], [1, 1, 0], [1, 2, 0], [0, 1, -1])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kpart.consumer.classic._rack_arrays import replica_rack_sets
from kpart.consumer.spec import GroupSpec, Member

__all__ = ["RackView", "StepTwo", "rack_aware_round_robin", "rack_view"]

#: At most this many distinct member racks (a partition's rack set is a bit mask).
MAX_RACKS = 62
#: At most this many ``(rack set, member)`` entries in step 2's lookup arrays.
MAX_LOOKUP = 8_000_000


@dataclass(frozen=True, slots=True)
class RackView:
    """``RackInfo`` of one group, as arrays (``n`` members in subscription-map order, ``P``
    partitions in the array form's index order, ``k`` member racks).

    ``member_rack``: int64 ``(n,)``, the member's rack code in ``[0, k)``, ``-1`` without
    rack; ``consumers``: int64 ``(P,)``, members sharing a rack with the partition's replicas
    (``numConsumersByPartition``); ``aware``: ``useRackAwareAssignment``; ``code``: int64
    ``(P,)``, bit ``r`` set when a replica of the partition is on member rack ``r``;
    ``set_id``: int64 ``(P,)``, index of the partition's ``code`` in ``set_racks`` (bool
    ``(S, k)``: the distinct non-empty codes), ``-1`` for code 0."""

    member_rack: np.ndarray
    consumers: np.ndarray
    aware: bool
    code: np.ndarray
    set_id: np.ndarray
    set_racks: np.ndarray

    def mismatch(self, mem: np.ndarray, gid: np.ndarray) -> np.ndarray:
        """``racksMismatch`` of each claim (member ``mem[i]`` owning partition ``gid[i]``):
        the member has a rack and no replica of the partition is on it (rack-aware only)."""
        if not self.aware:
            return np.zeros(len(mem), dtype=bool)
        rack = self.member_rack[mem]
        out: np.ndarray = (rack >= 0) & ((self.code[gid] >> np.maximum(rack, 0)) & 1 == 0)
        return out


def rack_view(
    group: GroupSpec, members: Sequence[Member], topics: Sequence[str], total: int
) -> RackView | None:
    """``RackInfo`` of ``group`` over ``topics`` (``total`` partitions), or ``None`` when no
    member has a rack (Kafka then ignores racks entirely). Raises ``ValueError`` (the caller
    declines) past :data:`MAX_RACKS` member racks."""
    bit: dict[str, int] = {}
    member_rack = np.array(
        [bit.setdefault(m.rack, len(bit)) if m.rack else -1 for m in members], dtype=np.int64
    )
    if not bit:
        return None
    k = len(bit)
    if k > MAX_RACKS:
        raise ValueError("too many racks for the array form")
    which, sets = replica_rack_sets(group, topics)
    per_rack = np.bincount(member_rack[member_rack >= 0], minlength=k)
    set_code = np.array([sum(1 << bit[r] for r in s if r in bit) for s in sets], dtype=np.int64)
    set_consumers = np.array([sum(int(per_rack[bit[r]]) for r in s if r in bit) for s in sets],
                             dtype=np.int64)
    consumers = set_consumers[which] if total else np.zeros(0, dtype=np.int64)
    every = frozenset().union(*sets)
    used = np.bincount(which, minlength=len(sets)) > 0
    aware = bool(set_code[used].any()) and not all(
        s == every for s, u in zip(sets, used.tolist(), strict=True) if u
    )
    if not aware:
        empty = np.zeros(0, dtype=np.int64)
        return RackView(member_rack, consumers, False, empty, empty, np.zeros((0, k), bool))
    code = set_code[which]
    codes, inverse = np.unique(set_code, return_inverse=True)
    set_racks = ((codes[:, None] >> np.arange(k, dtype=np.int64)) & 1).astype(bool)
    set_id = inverse.astype(np.int64)[which]
    if codes[0] == 0:  # no replica on a member rack: never matched
        set_id -= 1
        set_racks = set_racks[1:]
    return RackView(member_rack, consumers, True, code, set_id, set_racks)


@dataclass(frozen=True, slots=True)
class StepTwo:
    """Outcome of :func:`rack_aware_round_robin`: ``gid``/``mem``, the partitions it assigned
    and to whom, in Kafka's order; ``left``: the partitions left for the plain round robin (in
    order); ``under``/``exact``: the members still below / at ``minQuota``, in list order."""

    gid: np.ndarray
    mem: np.ndarray
    left: np.ndarray
    under: list[int]
    exact: list[int]


@dataclass(slots=True)
class _Quota:
    """The quota counters of ``ConstrainedAssignmentBuilder``."""

    min_q: int
    max_q: int
    expected_over: int
    current_over: int


def _lookup(view: RackView, urack: np.ndarray) -> tuple[list[list[int]], list[int]]:
    """For every rack set: from each position ``c`` of the member list below ``minQuota``
    (racks ``urack``), the first position at or after ``c`` (cyclically) of a member on one of
    its racks, with one extra entry for ``c = len(urack)`` (= 0); ``[]`` when no member is on
    those racks. Second value: how many members are."""
    u = len(urack)
    if len(view.set_racks) * (u + 1) > MAX_LOOKUP:
        raise ValueError("too many rack sets for the array form")
    has = urack >= 0
    nxts: list[list[int]] = []
    live: list[int] = []
    start = np.arange(u + 1)
    start[u] = 0
    for racks in view.set_racks:
        on = np.flatnonzero(has & racks[np.where(has, urack, 0)])
        live.append(len(on))
        if len(on) == 0:
            nxts.append([])
            continue
        at = np.searchsorted(on, start)
        at[at == len(on)] = 0
        nxts.append(on[at].tolist())
    return nxts, live


def rack_aware_round_robin(
    view: RackView,
    order: np.ndarray,
    under: list[int],
    exact: list[int],
    count: np.ndarray,
    quota: tuple[int, int, int, int],
) -> StepTwo:
    """Kafka's ``assignRackAwareRoundRobin`` over the unassigned partitions ``order`` (sorted
    by ``sortPartitionsByRackConsumers``), ``under``/``exact`` (member indices in Kafka's list
    order), ``count`` (each member's assignment size; updated in place) and ``quota`` =
    ``(minQuota, maxQuota, expected, current members over minQuota)``. Raises ``ValueError``
    (the caller declines) when the lookup arrays would be too large."""
    under_arr = np.array(under, dtype=np.int64)
    walk = _Walk(view, under_arr, exact, count, _Quota(*quota))
    sid = view.set_id[order]
    todo = sid >= 0
    got = np.full(len(order), -1, dtype=np.int64)
    got[todo] = walk.run(sid[todo].tolist())
    at_under = got >= 0  # a position in `under`; -2 - m: member m at minQuota
    got[at_under] = under_arr[got[at_under]]
    got[got < -1] = -2 - got[got < -1]
    done = got >= 0
    count[:] = walk.cnt
    alive = np.array(walk.alive, dtype=bool)
    count[under_arr[alive]] = walk.min_q - np.array(walk.need, dtype=np.int64)[alive]
    return StepTwo(order[done], got[done], order[~done], walk.under_after(), walk.exact_after())


class _Walk:
    """The state of ``assignRackAwareRoundRobin``: the members below ``minQuota`` by position
    (``need``: partitions each still needs to reach it, ``alive``: still in the list), the
    ``minQuota`` list (``e_list``/``e_alive``, one scan pointer per rack set) and the quota."""

    def __init__(
        self, view: RackView, under: np.ndarray, exact: list[int], count: np.ndarray, q: _Quota
    ) -> None:
        urack = view.member_rack[under]
        self.nxts, self.live = _lookup(view, urack)
        self.urack = urack.tolist()
        self.with_rack = [np.flatnonzero(view.set_racks[:, r]).tolist()
                          for r in range(view.set_racks.shape[1])]
        self.in_set = [[*r.tolist(), False] for r in view.set_racks]  # index -1: no rack
        self.mrack = view.member_rack.tolist()
        self.under = under.tolist()
        self.min_q = q.min_q
        self.need = (q.min_q - count[under]).tolist()
        self.alive = [True] * len(under)
        self.cnt = count.tolist()
        self.e_list = list(exact)
        self.e_alive = [True] * len(exact)
        self.e_ptr = [0] * len(self.nxts)
        #: per rack set: no member below or at ``minQuota`` can ever take its partitions
        self.gone = [False] * len(self.nxts)
        self.q = q

    def run(self, sids: list[int]) -> list[int]:
        """One step per partition (rack set ids ``sids``, in order): its position in the
        ``under`` list, ``-2 - m`` for member ``m`` of the ``minQuota`` list, ``-1`` for
        none."""
        nxts, live, alive, need, gone = self.nxts, self.live, self.alive, self.need, self.gone
        out: list[int] = []
        put = out.append
        c = 0
        for s in sids:
            if live[s]:
                nx = nxts[s]
                y = nx[c]
                if not alive[y]:
                    y = nx[c] = _next_alive(nx, alive, y)
                need[y] -= 1
                if not need[y]:
                    self._filled(y)
                c = y + 1
                put(y)
            elif gone[s]:
                put(-1)
            else:
                put(self._exact(s))
        return out

    def _filled(self, y: int) -> None:
        """The member at position ``y`` reached ``minQuota``: out of the list; into the
        ``minQuota`` list while members over ``minQuota`` are still expected."""
        self.alive[y] = False
        for s in self.with_rack[self.urack[y]]:
            self.live[s] -= 1
        q = self.q
        m = self.under[y]
        self.cnt[m] = q.min_q
        if q.min_q < q.max_q and q.current_over < q.expected_over:
            self.e_list.append(m)
            self.e_alive.append(True)

    def _exact(self, s: int) -> int:
        """The first member of the ``minQuota`` list on a rack of set ``s`` (``-2 - m``; it
        reaches ``maxQuota`` and leaves the list), or ``-1``."""
        e_list, e_alive, ins, mrack = self.e_list, self.e_alive, self.in_set[s], self.mrack
        p, ne = self.e_ptr[s], len(e_list)
        while p < ne and not (e_alive[p] and ins[mrack[e_list[p]]]):
            p += 1
        self.e_ptr[s] = p
        if p == ne:  # nobody below minQuota on these racks either: later members neither
            self.gone[s] = True
            return -1
        m = e_list[p]
        q = self.q
        self.cnt[m] += 1
        if self.cnt[m] == q.max_q:
            e_alive[p] = False
            q.current_over += 1
            if q.current_over == q.expected_over:
                for i in range(ne):
                    e_alive[i] = False
        return -2 - m

    def under_after(self) -> list[int]:
        return [m for m, a in zip(self.under, self.alive, strict=True) if a]

    def exact_after(self) -> list[int]:
        return [m for m, a in zip(self.e_list, self.e_alive, strict=True) if a]


def _next_alive(nx: list[int], alive: list[bool], y: int) -> int:
    """The first live position at or after dead position ``y`` on the rack set of ``nx``
    (one exists), compressing the followed links."""
    path = []
    while not alive[y]:
        path.append(y + 1)
        y = nx[y + 1]
    for i in path:
        nx[i] = y
    return y
