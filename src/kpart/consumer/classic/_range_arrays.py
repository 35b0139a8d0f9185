"""``org.apache.kafka.clients.consumer.RangeAssignor`` (with KIP-881 rack awareness) on numpy
arrays, for large groups.

The same decisions as :mod:`kpart.consumer.classic.range_assignor` (its object path,
``_assign_range_objects``, stays the reference), computed on partition indices: partition
``(topic, p)`` is index ``offsets[topic] + p``, topics in code-point order, members by rank in
``MemberInfo`` order (:class:`~kpart.consumer.classic._member_info.SubscriberClasses`). The
result is :meth:`GroupAssignment.from_columns`: every partition's owner as one int.

- **Plain ranges** are a closed form: partition ``p`` of a topic with ``P`` partitions and
  ``C`` subscribers goes to subscriber ``p // (per + 1)`` while ``p < extra * (per + 1)``,
  else ``extra + (p - extra * (per + 1)) // per`` (``per, extra = divmod(P, C)``). Topics with
  the same subscribers and partition count share one pattern, so equal subscriptions cost one
  pattern tiled over the topics; unequal ones are handled per subscriber set the same way.
- **KIP-881 rack matching** runs on the racks of each partition as one bit mask per
  partition (a bit per member rack). Topics of a co-partitioned group (same subscribers, same
  partition count) evolve identically in Kafka's pass, so the group is solved once, on the
  intersection of its topics' racks, and copied to every topic of the group: partition by
  partition, the first member (in order) with quota left among the heads of the member queues
  its racks allow (members without a rack always qualify). A single topic needing rack
  awareness is solved member by member, each taking the next partitions with a replica on its
  rack, with one pointer per rack. Both are Python loops over the partitions of *one* group or
  topic (not over all copies). What is left is cut into consecutive chunks: the first
  ``extra`` members still at or below ``per`` fill up to ``per + 1``, the others to ``per``.

Declines (returns ``None``, the caller then runs the object path): more than 62 distinct
member racks (the bit masks are int64), and groups whose distinct subscriptions × topics
exceed :data:`~kpart.consumer.classic._member_info.MAX_SUBSCRIPTION_CELLS`. Range never
depends on the Java order of topic names, so supplementary characters are no reason to
decline. Groups below :data:`ARRAY_THRESHOLD` partitions take the object path (faster there).

>>> from kpart.consumer.spec import GroupSpec
>>> g = GroupSpec.from_json({"topics": {"t0": 3, "t1": 3},
...                          "members": [{"id": "C0", "topics": ["t0", "t1"]},
...                                      {"id": "C1", "topics": ["t0", "t1"]}]})
>>> range_columns(g).as_dict()
{'C0': {'t0': [0, 1], 't1': [0, 1]}, 'C1': {'t0': [2], 't1': [2]}}
"""

from __future__ import annotations

import numpy as np

from kpart.consumer._columns import AssignmentColumns
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.classic._member_info import SubscriberClasses, subscriber_classes
from kpart.consumer.classic._rack_arrays import replica_rack_sets
from kpart.consumer.spec import GroupSpec

__all__ = ["ARRAY_THRESHOLD", "MAX_MEMBER_RACKS", "range_columns", "try_range_columns"]

#: Below this many partitions in the metadata the object path is faster.
ARRAY_THRESHOLD = 2048
#: Distinct member racks the bit masks hold (int64 without its sign bit).
MAX_MEMBER_RACKS = 62


def try_range_columns(group: GroupSpec) -> GroupAssignment | None:
    """:func:`range_columns` for a group of at least :data:`ARRAY_THRESHOLD` partitions in
    its metadata, else ``None`` (the caller runs the object path)."""
    if sum(t.num_partitions for t in group.topics) < ARRAY_THRESHOLD:
        return None
    return range_columns(group)


def range_columns(group: GroupSpec) -> GroupAssignment | None:
    """Kafka's ``RangeAssignor`` result for ``group`` as columns (every member of the group,
    in group order), or ``None`` when the array form declines (see the module docstring).
    Never raises."""
    view = subscriber_classes(group)
    if view is None:
        return None
    ranks = _plain_ranks(view)
    if any(m.rack for m in group.members) and not _rack_matching(group, view, ranks):
        return None
    owner = view.order[ranks] if len(ranks) else ranks
    columns = AssignmentColumns(
        [m.member_id for m in group.members], view.topics, view.counts, owner
    )
    return GroupAssignment.from_columns(columns)


def _plain_ranks(view: SubscriberClasses) -> np.ndarray:
    """The member rank owning each partition with plain ranges (int64, shape ``(total,)``):
    one pattern per distinct (subscriber class, partition count), made by one ``repeat`` of
    the subscribers getting partitions (the first ``extra`` get ``per + 1``, the others
    ``per``; with fewer partitions than subscribers only the first ``P`` get one)."""
    counts, n_topics = view.counts, len(view.topics)
    if not n_topics:
        return np.zeros(0, dtype=np.int64)
    key = view.topic_class * (int(counts.max()) + 1) + counts
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    cls, n = view.topic_class[first], counts[first]
    per, extra = np.divmod(n, view.sizes[cls])
    takers = np.minimum(view.sizes[cls], n)  # subscribers getting at least one partition
    which = np.repeat(np.arange(len(first)), takers)
    local = np.arange(len(which)) - np.repeat(np.cumsum(takers) - takers, takers)
    taker = view.members[view.starts[cls][which] + local]
    pattern = np.repeat(taker, per[which] + (local < extra[which]))
    if len(first) == 1:
        return np.tile(pattern, n_topics)
    starts = np.cumsum(n) - n
    shift = np.repeat(starts[inverse.reshape(-1)] - view.offsets, counts)
    shift += np.arange(view.total)
    return pattern[shift]  # type: ignore[no-any-return]


def _rack_matching(group: GroupSpec, view: SubscriberClasses, ranks: np.ndarray) -> bool:
    """``RangeAssignor.assignWithRackMatching`` over ``ranks`` (plain ranges, overwritten for
    the topics it touches). ``False``: too many member racks, the caller declines."""
    by_rank = [group.members[i].rack for i in view.order.tolist()]
    member_racks = [r for r in dict.fromkeys(by_rank) if r]
    if len(member_racks) > MAX_MEMBER_RACKS:
        return False
    bit = {r: 1 << i for i, r in enumerate(member_racks)}
    rank_bits = np.array([bit.get(r, 0) if r else 0 for r in by_rank], dtype=np.int64)
    class_bits = np.bitwise_or.reduceat(rank_bits[view.members], view.starts[:-1])
    racked = np.flatnonzero(class_bits[view.topic_class] != 0)  # a subscriber has a rack
    if not len(racked):
        return True
    counts = view.counts[racked]
    offsets = np.zeros(len(racked), dtype=np.int64)
    np.cumsum(counts[:-1], out=offsets[1:])
    codes, sets = replica_rack_sets(group, [view.topics[t] for t in racked.tolist()])
    set_bits = np.array([sum(bit.get(r, 0) for r in s) for s in sets], dtype=np.int64)
    bits = set_bits[codes]
    union = np.bitwise_or.reduceat(bits, offsets)
    mixed = np.minimum.reduceat(codes, offsets) != np.maximum.reduceat(codes, offsets)
    needs = ((union & class_bits[view.topic_class[racked]]) != 0) & mixed
    if not needs.any():
        return True
    groups: dict[tuple[int, int], list[int]] = {}
    for j, (k, n) in enumerate(zip(view.topic_class[racked].tolist(), counts.tolist(),
                                   strict=True)):
        groups.setdefault((k, n), []).append(j)
    for (k, n), js in groups.items():
        if len(js) == 1 and not needs[js[0]]:
            continue
        rows = offsets[js][:, None] + np.arange(n)
        members = view.class_members(k)
        owner = _rack_pass(np.bitwise_and.reduce(bits[rows], axis=0), rank_bits[members],
                           co_partitioned=len(js) > 1)
        ranks[view.offsets[racked[js]][:, None] + np.arange(n)] = members[owner]
    return True


def _rack_pass(bits: np.ndarray, member_bits: np.ndarray, co_partitioned: bool) -> np.ndarray:
    """One topic (or co-partitioned group) of ``len(bits)`` partitions, replica racks as bit
    masks, subscribers' rack bits in order (0: no rack): rack matching then the ranges of what
    is left. Returns each partition's subscriber index."""
    n, c = len(bits), len(member_bits)
    per, extra = divmod(n, c)
    run = _co_partitioned_pass if co_partitioned else _per_topic_pass
    owner_list, taken, left_extra = run(bits, member_bits.tolist(), per, extra)
    owner = np.array(owner_list, dtype=np.int64)
    _assign_ranges(owner, np.array(taken, dtype=np.int64), per, left_extra)
    return owner


def _co_partitioned_pass(
    bits: np.ndarray, member_bits: list[int], per: int, extra: int
) -> tuple[list[int], list[int], int]:
    """``assignCoPartitionedWithRackMatching`` on one group: partition by partition, the
    first member in order whose rack holds a replica (or who has no rack) and who still has
    quota. Members are kept in one queue per rack; a full member stays full (counts only grow,
    the quota only shrinks), so each queue's head only moves forward.
    Returns ``(owner or -1 per partition, count per member, extra quota left)``."""
    c = len(member_bits)
    queues: dict[int, list[int]] = {}
    for i, b in enumerate(member_bits):
        queues.setdefault(b, []).append(i)
    heads = dict.fromkeys(queues, 0)
    candidates: dict[int, list[int]] = {}
    taken = [0] * c
    owner = [-1] * len(bits)
    quota = per + 1 if extra else per
    for p, b in enumerate(bits.tolist()):
        allowed = candidates.get(b)
        if allowed is None:
            allowed = candidates[b] = [q for q in queues if q == 0 or q & b]
        best = c
        for q in allowed:
            queue, h = queues[q], heads[q]
            while h < len(queue) and taken[queue[h]] >= quota:
                h += 1
            heads[q] = h
            if h < len(queue) and queue[h] < best:
                best = queue[h]
        if best == c:
            continue
        owner[p] = best
        taken[best] += 1
        if taken[best] > per:
            extra -= 1
            if not extra:
                quota = per
    return owner, taken, extra


def _per_topic_pass(
    bits: np.ndarray, member_bits: list[int], per: int, extra: int
) -> tuple[list[int], list[int], int]:
    """``assignRanges`` with ``racksMatch`` on one topic: member by member, the first
    unassigned partitions with a replica on its rack (any, without a rack) up to its quota.
    One pointer per rack into its partitions: those before it are all assigned.
    Returns ``(owner or -1 per partition, count per member, extra quota left)``."""
    n = len(bits)
    slot_of = {b: i for i, b in enumerate(dict.fromkeys(member_bits))}
    lists = [np.flatnonzero(bits & b).tolist() if b else list(range(n)) for b in slot_of]
    ends = list(map(len, lists))
    pointer = [0] * len(lists)
    owner = [-1] * n
    taken = [0] * len(member_bits)
    left = n
    for i, slot in enumerate(map(slot_of.__getitem__, member_bits)):
        limit = per + 1 if extra else per
        candidates, j, end, got = lists[slot], pointer[slot], ends[slot], 0
        while got < limit and j < end:
            p = candidates[j]
            j += 1
            if owner[p] < 0:
                owner[p] = i
                got += 1
        pointer[slot] = j
        if got:
            taken[i] = got
            left -= got
            if got > per:
                extra -= 1
            if not left:
                break
    return owner, taken, extra


def _assign_ranges(owner: np.ndarray, taken: np.ndarray, per: int, extra: int) -> None:
    """``assignRanges`` without rack matching on what is left (in place): member by member,
    the next unassigned partitions up to its quota. Every member ends at ``per`` or ``per +
    1`` and exactly all partitions are handed out, so the sizes are a closed form: the first
    ``extra`` members at or below ``per`` fill up to ``per + 1``, the others to ``per``."""
    left = np.flatnonzero(owner < 0)
    if not len(left):
        return
    under = np.flatnonzero(taken <= per)
    target = np.full(len(under), per, dtype=np.int64)
    target[:extra] += 1
    owner[left] = np.repeat(under, target - taken[under])
