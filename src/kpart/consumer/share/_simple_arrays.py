"""The array path of Kafka 4.2+'s ``SimpleHomogeneousAssignmentBuilder`` and
``SimpleHeterogeneousAssignmentBuilder`` (KIP-932): the same steps as the object builders
(:mod:`~kpart.consumer.share._simple_homogeneous`, :mod:`~kpart.consumer.share._simple_heterogeneous`),
on arrays, for groups of thousands of members.

What the steps read in Java's iteration orders, and how this path gets each order:

- ``assignRemainingPartitions`` walks ``finalAssignmentByPartition`` (a presized ``HashMap``
  filled by ``computeIfAbsent``, which links a new key at the head of its bucket): the key order
  is emulated on integers by a numba kernel (:func:`_head_inserted_order`), with the same
  resize rules as :class:`~kpart._java.collections.JavaHashMap`; the walk itself, with its
  member iterator over the ascending ``HashSet<Integer>`` of unfilled members, is the numba
  kernel :func:`_assign_remaining`;
- ``revokeOverfilledMembers`` and ``revokeOversharedPartitions`` iterate one member's or one
  partition's ``HashSet``: only for the few members and partitions over their share, replayed
  with :class:`~kpart._java.collections.JavaHashSet` (adds, then the removals before it); the
  order in which members or partitions are visited there does not change the result (each
  trims only its own set).

The result is a :class:`~kpart.consumer._columns.SharedColumns`. :func:`share_columns` returns
``None`` for what it does not take (a member holding one topic under its name and its
``"id:<uuid>"``): the object builders answer then. Property tests check
that both paths agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np
from numba import njit

from kpart._java.arrays import hashmap_key_order
from kpart._java.hashing import table_size_for
from kpart._java.topic_id_partition import assignor_helpers_capacity
from kpart._java.uuid import uuid_hash_code
from kpart.consumer._columns import SharedColumns
from kpart.consumer.coordinator.server_spec import ServerMember
from kpart.consumer.share._assignment_maps import MemberIterator
from kpart.consumer.share.share_group_spec import ShareGroupSpec

__all__ = ["ARRAY_THRESHOLD", "share_columns", "use_arrays"]

#: Members plus partitions from which :func:`use_arrays` picks this path (tests set it to 0 to
#: run the golden vectors through it).
ARRAY_THRESHOLD = 2000


def use_arrays(spec: ShareGroupSpec) -> bool:
    """Whether ``spec`` is large enough for the array path (``ARRAY_THRESHOLD``)."""
    g = spec.group
    return len(g.members) + sum([t.num_partitions for t in g.topics]) >= ARRAY_THRESHOLD


@dataclass(frozen=True, slots=True)
class _Old:
    """The members' current assignments as pairs, in the builders' walk order (members in map
    order, each member's topics and partitions in its recorded order): ``member`` (map-order
    index), ``topic`` (dense index: the metadata's topics in spec order, then the deleted
    topics members still hold), ``partition``; ``uuids`` / ``names`` per dense topic."""

    member: np.ndarray
    topic: np.ndarray
    partition: np.ndarray
    uuids: list[int]
    names: list[str]


def _old_pairs(spec: ShareGroupSpec, members: Sequence[ServerMember]) -> _Old | None:
    g = spec.group
    uuids = [t.uuid for t in g.topics]
    topic_of_ref: dict[str, int | None] = {t.name: k for k, t in enumerate(g.topics)}
    holders = [(i, a) for i, m in enumerate(members) if (a := m.assignment)]
    entries = [e for _, a in holders for e in a]
    refs = [ref for ref, _ in entries]
    chunks = [ps for _, ps in entries]
    lengths = np.fromiter(map(len, chunks), dtype=np.int64, count=len(chunks))
    topic_list = list(map(topic_of_ref.get, refs))
    by_id = None in topic_list
    if by_id:  # deleted topics' "id:<uuid>" (or names the spec lacks)
        index = {u: k for k, u in enumerate(uuids)}
        for j, ref in enumerate(refs):
            if topic_list[j] is None:
                uuid = g.topic_uuid(ref)
                if uuid not in index:
                    index[uuid] = len(uuids)
                    uuids.append(uuid)
                topic_list[j] = index[uuid]
    per_member = np.fromiter((len(a) for _, a in holders), dtype=np.int64, count=len(holders))
    entry_member = np.repeat(np.array([i for i, _ in holders], dtype=np.int64), per_member)
    entry_topic = np.array(topic_list, dtype=np.int64)
    # (the spec refuses a topic listed twice by the same reference: only a name beside an
    # "id:<uuid>" of the same topic can repeat one, so only then is it looked for)
    if by_id and len(np.unique(entry_member * (len(uuids) + 1) + entry_topic)) \
            != len(entry_topic):
        return None  # one topic twice in a member's assignment (by name and by "id:<uuid>")
    partition = np.fromiter(chain.from_iterable(chunks), dtype=np.int64,
                            count=int(lengths.sum()))
    names = [g.topic_name(u) for u in uuids]
    return _Old(np.repeat(entry_member, lengths), np.repeat(entry_topic, lengths), partition,
                uuids, names)


def _desired_counts(sharing: int, num_partitions: int, num_members: int) -> np.ndarray:
    """``desiredAssignmentCount`` (Java ``double`` arithmetic, as
    :func:`~kpart.consumer.share._assignment_maps.desired_counts`)."""
    precise = sharing * num_partitions / float(num_members)
    edges = np.ceil(precise * np.arange(num_members + 1, dtype=np.float64))
    return np.diff(edges).astype(np.int64)


def _head_inserted_order(calls: np.ndarray, spread: np.ndarray, initial: int) -> np.ndarray:
    """Key order of a ``HashMap`` after ``computeIfAbsent`` of each of ``calls`` (see
    :func:`_head_inserted`): by bucket, then most recently linked first."""
    present, pos, cap = _head_inserted(calls, spread, initial)
    keys = np.flatnonzero(present)
    return keys[np.lexsort((pos[keys], spread[keys] & (cap - 1)))]


@njit(cache=True)
def _head_inserted(calls: np.ndarray, spread: np.ndarray,
                   initial: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Key order of a ``HashMap`` (table length ``initial`` once allocated) after
    ``computeIfAbsent(key)`` for each of ``calls`` (key ids into ``spread``, each key's
    ``hash ^ hash >>> 16``): a new key goes to the head of its bucket; the resize check runs
    before the lookup; a 9th key in a bucket resizes a table under 64 (larger tree bins are
    not emulated, as in :class:`~kpart._java.collections.JavaHashMap`). Returns which keys
    are present, their link positions (more negative: linked later, so first in the bucket)
    and the final table length."""
    n = len(spread)
    present = np.zeros(n, dtype=np.bool_)
    pos = np.zeros(n, dtype=np.int64)
    cap = 0
    size = 0
    head = 0
    counts = np.zeros(1, dtype=np.int64)
    for c in calls:
        if cap == 0 or size > (cap * 3) // 4:
            cap = initial if cap == 0 else cap * 2
            counts = np.zeros(cap, dtype=np.int64)
            for k in range(n):
                if present[k]:
                    counts[spread[k] & (cap - 1)] += 1
        if present[c]:
            continue
        head -= 1
        present[c] = True
        pos[c] = head
        size += 1
        b = spread[c] & (cap - 1)
        counts[b] += 1
        if counts[b] - 1 >= 7 and cap < 64:
            cap *= 2
            counts = np.zeros(cap, dtype=np.int64)
            for k in range(n):
                if present[k]:
                    counts[spread[k] & (cap - 1)] += 1
    return present, pos, cap


@njit(cache=True)
def _assign_remaining(korder: np.ndarray, kcount: np.ndarray, kptr: np.ndarray,
                      kmembers: np.ndarray, unfilled: np.ndarray, mcount: np.ndarray,
                      desired: np.ndarray, sharing: int) -> tuple[np.ndarray, np.ndarray, bool]:
    """``assignRemainingPartitions``: for each key of ``korder`` shared by fewer than
    ``sharing`` members (``kcount``; its members ``kmembers[kptr[k]:kptr[k + 1]]``), members
    from the iterator over the ascending unfilled members, restarted while a round assigned
    something; as Kafka, a member handed the partition in this walk is not added to its set.
    Returns the new ``(key, member)`` pairs and whether Kafka's ``next()`` found no element."""
    m = len(unfilled)
    left = 0
    for i in range(m):
        if unfilled[i]:
            left += 1
    old_mark = np.full(m, -1, dtype=np.int64)
    new_mark = np.full(m, -1, dtype=np.int64)
    out_k = np.empty(16, dtype=np.int64)
    out_m = np.empty(16, dtype=np.int64)
    n_out = 0
    it = np.flatnonzero(unfilled)
    at = 0
    round_assigned = False
    for k in korder:
        if left == 0:
            break
        if kcount[k] >= sharing:
            continue
        for j in range(kptr[k], kptr[k + 1]):
            old_mark[kmembers[j]] = k
        to_make = sharing - kcount[k]
        while to_make > 0:
            if at >= len(it):
                if not round_assigned:
                    break
                it = np.flatnonzero(unfilled)
                at = 0
                round_assigned = False
                if len(it) == 0:
                    return out_k[:n_out], out_m[:n_out], True
            i = it[at]
            at += 1
            if old_mark[i] == k:
                continue
            if new_mark[i] != k:
                new_mark[i] = k
                if n_out == len(out_k):
                    out_k = np.concatenate((out_k, np.empty(n_out, dtype=np.int64)))
                    out_m = np.concatenate((out_m, np.empty(n_out, dtype=np.int64)))
                out_k[n_out] = k
                out_m[n_out] = i
                n_out += 1
                mcount[i] += 1
            to_make -= 1
            round_assigned = True
            if mcount[i] >= desired[i] and unfilled[i]:
                unfilled[i] = False
                left -= 1
    return out_k[:n_out], out_m[:n_out], False


@dataclass
class _Walk:
    """One builder's state on a key space (homogeneous: every subscribed partition; one topic
    of the heterogeneous builder): the old pairs on it (``key``, ``member``, ``alive``) and the
    Java hash of each key (``key_hash``: ``hashCode()`` as an unsigned 32-bit value)."""

    key: np.ndarray
    member: np.ndarray
    alive: np.ndarray
    key_hash: np.ndarray


@njit(cache=True)
def _set_order(spread: np.ndarray) -> np.ndarray:
    """Iteration order of a default ``new HashSet<>()`` after ``add`` of elements with these
    spread hashes, in order (distinct elements): positions into ``spread``. Tail insertion;
    a resize past 3/4 full; a 9th element in a bucket resizes a table under 64 (as
    :class:`~kpart._java.collections.JavaHashSet`)."""
    n = len(spread)
    cap = 16
    counts = np.zeros(cap, dtype=np.int64)
    for j in range(n):
        b = spread[j] & (cap - 1)
        before = counts[b]
        counts[b] += 1
        grow = before >= 8 and cap < 64
        if grow or j + 1 > (cap * 3) // 4:
            cap *= 2
            counts = np.zeros(cap, dtype=np.int64)
            for q in range(j + 1):
                counts[spread[q] & (cap - 1)] += 1
    key = (spread & (cap - 1)) * n + np.arange(n)
    return np.argsort(key)


@njit(cache=True)
def _revoke_over(group_ptr: np.ndarray, group_rows: np.ndarray, element_spread: np.ndarray,
                 alive: np.ndarray, limit: np.ndarray, owner_count: np.ndarray,
                 row_owner: np.ndarray, unfilled: np.ndarray) -> None:
    """Both revoke steps on rows grouped by set (group ``g``: its rows
    ``group_rows[group_ptr[g]:group_ptr[g + 1]]`` in the order their elements were added):
    a set holding more than ``limit[g]`` live elements drops live ones in its ``HashSet``'s
    iteration order (all adds, then the earlier removals) until it holds ``limit[g]``.
    ``element_spread[r]``: row ``r``'s element's spread hash in this set; dropping row ``r``
    also lowers ``owner_count[row_owner[r]]`` and marks that member in ``unfilled``."""
    for g in range(len(group_ptr) - 1):
        rows = group_rows[group_ptr[g]:group_ptr[g + 1]]
        live = 0
        for r in rows:
            if alive[r]:
                live += 1
        if live <= limit[g]:
            continue
        for q in _set_order(element_spread[rows]):
            r = rows[q]
            if not alive[r]:
                continue
            alive[r] = False
            owner_count[row_owner[r]] -= 1
            unfilled[row_owner[r]] = True
            live -= 1
            if live <= limit[g]:
                break


def _groups(by: np.ndarray, num_groups: int, select: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """CSR of the rows ``select`` grouped by ``by`` (rows in order within a group)."""
    rows = select[np.argsort(by[select], kind="stable")]
    ptr = np.zeros(num_groups + 1, dtype=np.int64)
    np.cumsum(np.bincount(by[select], minlength=num_groups), out=ptr[1:])
    return ptr, rows


def _revoke_overfilled(w: _Walk, desired: np.ndarray, count: np.ndarray) -> None:
    """``revokeOverfilledMembers``: each member over its count gives up partitions in its
    ``HashSet``'s order (of ``TopicIdPartition`` or ``Integer``, by the keys' hashes) until it
    holds its count. The order members are visited in does not matter: each trims its own
    set."""
    over = count > desired
    if not over.any():
        return
    m = len(count)
    ptr, rows = _groups(w.member, m, np.flatnonzero(over[w.member]))
    _revoke_over(ptr, rows, _spread(w.key_hash[w.key]), w.alive, desired, count, w.member,
                 np.zeros(m, dtype=np.bool_))  # (who is unfilled is counted afterwards)


def _revoke_overshared(w: _Walk, num_keys: int, sharing: int, count: np.ndarray,
                       unfilled: np.ndarray | None) -> None:
    """``revokeOversharedPartitions``: each partition shared by more than ``sharing``
    members drops members in its ``HashSet<Integer>``'s order (the adds of the first step,
    then the removals of the second) until it is shared by ``sharing``; a member dropped
    becomes unfilled (homogeneous builder: ``unfilled`` given). Partitions are independent."""
    shared = np.bincount(w.key[w.alive], minlength=num_keys)
    over = shared > sharing
    if not over.any():
        return
    ptr, rows = _groups(w.key, num_keys, np.flatnonzero(over[w.key]))
    _revoke_over(ptr, rows, _spread(w.member), w.alive, np.full(num_keys, sharing), count,
                 w.member, unfilled if unfilled is not None else np.zeros(len(count), dtype=np.bool_))


def _spread(h: np.ndarray) -> np.ndarray:
    h = h & 0xFFFFFFFF
    return h ^ (h >> 16)


def _walk(w: _Walk, num_keys: int, targets: np.ndarray, sharing: int, desired: np.ndarray,
          count: np.ndarray, unfilled: np.ndarray, where: str) -> tuple[np.ndarray, np.ndarray]:
    """``assignRemainingPartitions`` on the state after the revoke steps (the map of
    partitions presized for the ``targets``, as ``AssignorHelpers.newHashMap``): the new
    ``(key, member)`` pairs. Raises Kafka's ``NoSuchElementException`` where it throws."""
    calls = np.concatenate((w.key, targets))
    korder = _head_inserted_order(calls, _spread(w.key_hash),
                                  table_size_for(assignor_helpers_capacity(len(targets))))
    alive_key, alive_member = w.key[w.alive], w.member[w.alive]
    order = np.argsort(alive_key, kind="stable")
    kcount = np.bincount(alive_key, minlength=num_keys)
    kptr = np.zeros(num_keys + 1, dtype=np.int64)
    np.cumsum(kcount, out=kptr[1:])
    new_key, new_member, failed = _assign_remaining(
        korder, kcount, kptr, alive_member[order], unfilled, count, desired, sharing)
    if failed:
        MemberIterator(set()).next(where)
    return new_key, new_member


def _homogeneous(spec: ShareGroupSpec, members: Sequence[ServerMember], old: _Old
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """``SimpleHomogeneousAssignmentBuilder.build()`` as ``(member, topic, partition)`` rows
    (map-order members, dense topics), or ``None`` to leave the group to the object builder."""
    g = spec.group
    first = members[0]
    if not first.topics:
        return _empty()
    m = len(members)
    sub = g.subscribed_topic_ids(first, copied_names=True)
    index = {u: k for k, u in enumerate(old.uuids)}
    sub_t = [index[u] for u in sub]
    nparts = np.array([g.num_partitions(u) for u in old.uuids], dtype=np.int64)
    base = np.full(len(old.uuids), -1, dtype=np.int64)
    offset = 0
    for t in sub_t:
        base[t] = offset
        offset += int(nparts[t])
    in_sub = base[old.topic] >= 0  # (the spec keeps partitions within their topic's count)
    key_topic = np.repeat(np.array(sub_t, dtype=np.int64), nparts[sub_t]) if sub_t else \
        np.zeros(0, dtype=np.int64)
    key_part = np.arange(offset, dtype=np.int64) - base[key_topic] if offset else key_topic
    targets = np.array([base[index[u]] + p for u in sub for p in range(g.num_partitions(u))
                        if spec.is_partition_assignable(u, p)], dtype=np.int64)
    t = len(targets)
    sharing = 0 if t == 0 else (m + t - 1) // t
    desired = _desired_counts(sharing, t, m)
    uuid_hash = np.array([uuid_hash_code(u) for u in old.uuids], dtype=np.int64)
    key_hash = (31 * uuid_hash[key_topic] + key_part) & 0xFFFFFFFF
    w = _Walk(base[old.topic[in_sub]] + old.partition[in_sub], old.member[in_sub],
              np.ones(int(in_sub.sum()), dtype=np.bool_), key_hash)
    count = np.bincount(w.member, minlength=m)
    unfilled = count < desired
    _revoke_overfilled(w, desired, count)
    _revoke_overshared(w, offset, sharing, count, unfilled)
    new_key, new_member = _walk(w, offset, targets, sharing, desired, count, unfilled,
                                "SimpleHomogeneousAssignmentBuilder.assignRemainingPartitions")
    key = np.concatenate((w.key[w.alive], new_key))
    return (np.concatenate((w.member[w.alive], new_member)), key_topic[key], key_part[key])


def _heterogeneous(spec: ShareGroupSpec, members: Sequence[ServerMember], old: _Old
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """``SimpleHeterogeneousAssignmentBuilder.build()`` as rows (see :func:`_homogeneous`)."""
    g = spec.group
    index = {u: k for k, u in enumerate(old.uuids)}
    # members subscribing alike share a class: subscriptions resolved once per class
    classes: dict[tuple[object, object], int] = {}
    class_topics: list[list[int]] = []
    member_class = np.empty(len(members), dtype=np.int64)
    for i, mem in enumerate(members):
        how = (mem.topics, mem.topic_regex)
        c = classes.get(how)
        if c is None:
            c = classes[how] = len(class_topics)
            class_topics.append([index[u] for u in g.subscribed_topic_ids(
                mem, copied_names=True)])
        member_class[i] = c
    by_topic: dict[int, np.ndarray] = {}
    for ts in class_topics:  # the topics in the order their first subscriber lists them
        for t in ts:
            if t not in by_topic:
                having = [k for k, tk in enumerate(class_topics) if t in tk]
                by_topic[t] = np.flatnonzero(np.isin(member_class, having))
    if not by_topic:
        return _empty()
    m = len(members)
    rows_member, rows_topic, rows_part = [], [], []
    kept = np.ones(len(old.member), dtype=np.bool_)  # old pairs of topics nobody visits stay
    for t, subscribed in by_topic.items():
        u = old.uuids[t]
        n = g.num_partitions(u)
        mine = np.flatnonzero(old.topic == t)
        kept[mine] = False
        targets = np.array([p for p in range(n) if spec.is_partition_assignable(u, p)],
                           dtype=np.int64)
        s, tt = len(subscribed), len(targets)
        sharing = 0 if tt == 0 else (s + tt - 1) // tt
        desired = np.zeros(m, dtype=np.int64)
        desired[subscribed] = _desired_counts(sharing, tt, s)
        w = _Walk(old.partition[mine], old.member[mine], np.ones(len(mine), dtype=np.bool_),
                  np.arange(n, dtype=np.int64))
        count = np.bincount(w.member, minlength=m)
        _revoke_overfilled(w, desired, count)
        _revoke_overshared(w, n, sharing, count, None)
        unfilled = np.zeros(m, dtype=np.bool_)
        unfilled[subscribed] = count[subscribed] < desired[subscribed]
        new_key, new_member = _walk(
            w, n, targets, sharing, desired, count, unfilled,
            "SimpleHeterogeneousAssignmentBuilder.assignRemainingPartitions")
        rows_member += [w.member[w.alive], new_member]
        rows_part += [w.key[w.alive], new_key]
        rows_topic.append(np.full(int(w.alive.sum()) + len(new_key), t, dtype=np.int64))
    return (np.concatenate([old.member[kept], *rows_member]),
            np.concatenate([old.topic[kept], *rows_topic]),
            np.concatenate([old.partition[kept], *rows_part]))


def _empty() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``Map.of()``: every member gets nothing."""
    z = np.zeros(0, dtype=np.int64)
    return z, z, z


def share_columns(spec: ShareGroupSpec) -> SharedColumns | None:
    """The target assignment of Kafka 4.2+'s ``SimpleAssignor`` on ``spec`` as
    :class:`~kpart.consumer._columns.SharedColumns` (members in spec order, topics by name),
    or ``None`` when the array path leaves the group to the object builders (see the module
    docstring). Raises :class:`~kpart.errors.NoSuchElementError` where Kafka throws."""
    g = spec.group
    spec_pos = hashmap_key_order([m.member_id for m in g.members])
    members = [g.members[k] for k in spec_pos.tolist()]
    old = _old_pairs(spec, members)
    if old is None:
        return None
    build = _homogeneous if spec.subscription_type == "HOMOGENEOUS" else _heterogeneous
    rows = build(spec, members, old)
    if rows is None:
        return None
    member, topic, partition = rows
    held = np.flatnonzero(np.bincount(topic, minlength=len(old.names)))
    names = sorted({old.names[t] for t in held.tolist()})
    rank = {n: k for k, n in enumerate(names)}
    topic_rank = np.array([rank.get(n, -1) for n in old.names], dtype=np.int64)
    member, topic = spec_pos[member], topic_rank[topic]
    width = int(partition.max(initial=0)) + 1
    order = np.argsort((member * (len(names) + 1) + topic) * width + partition)
    return SharedColumns([mm.member_id for mm in g.members], names, member[order],
                         topic[order], partition[order])
