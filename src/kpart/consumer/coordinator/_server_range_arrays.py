"""``org.apache.kafka.coordinator.group.assignor.RangeAssignor`` on arrays (KIP-848 server-side "range").

The array form of :mod:`kpart.consumer.coordinator.server_range_assignor` (the reference).
Members are ordered as Kafka orders them (static members by ``group.instance.id``, then
dynamic members by member id, ``String.compareTo``); a topic with ``n`` partitions and ``k``
subscribers gives its ``j``-th subscriber (in that order) the next ``n // k`` partitions, plus
one while ``j < n % k``: one ``np.repeat`` of the subscriber list by those quotas, computed once
per distinct (partition count, subscriber list) and copied into each topic's slice of the
owner array. Subscriber lists are built per set of subscription classes (one list for a
homogeneous group), never per (member, topic) pair.
The current assignment has no effect, nor has the rack.
"""

from __future__ import annotations

import numpy as np

from kpart._java.arrays import java_sorted_positions
from kpart.consumer._columns import AssignmentColumns
from kpart.consumer.coordinator._spec_arrays import SpecArrays

__all__ = ["range_columns"]


def _member_order(arrays: SpecArrays) -> np.ndarray:
    """Spec positions of the members in Kafka's order: static members by instance id, then
    dynamic members by member id."""
    members = arrays.spec.members
    instance_ids = [m.instance_id for m in members]
    if instance_ids.count(None) == len(members):  # no static member
        return np.array(java_sorted_positions(arrays.member_ids), dtype=np.int64)
    static = [i for i, x in enumerate(instance_ids) if x is not None]
    dynamic = [i for i, x in enumerate(instance_ids) if x is None]
    static_keys = [instance_ids[i] or "" for i in static]
    ordered = [static[j] for j in java_sorted_positions(static_keys)]
    dynamic_keys = [arrays.member_ids[i] for i in dynamic]
    ordered.extend(dynamic[j] for j in java_sorted_positions(dynamic_keys))
    return np.array(ordered, dtype=np.int64)


def _subscriber_lists(
    arrays: SpecArrays, order: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(topics, base, k, flat)``: the subscribed topics (positions, ascending), where each
    one's subscriber list starts in ``flat`` and its length; ``flat`` holds spec positions in
    Kafka's member order."""
    member_class = arrays.member_class[order]
    classes_of: dict[int, list[int]] = {}
    for c, subscribed in enumerate(arrays.class_topics):
        for t in subscribed.tolist():
            classes_of.setdefault(t, []).append(c)
    lists: dict[tuple[int, ...], tuple[int, np.ndarray]] = {}
    pieces: list[np.ndarray] = []
    filled = 0
    topics = sorted(classes_of)
    base = np.empty(len(topics), dtype=np.int64)
    k = np.empty(len(topics), dtype=np.int64)
    for i, t in enumerate(topics):
        key = tuple(classes_of[t])
        found = lists.get(key)
        if found is None:
            subs = order if len(arrays.class_topics) == 1 else order[np.isin(member_class, key)]
            found = lists[key] = (filled, subs)
            pieces.append(subs)
            filled += len(subs)
        base[i], k[i] = found[0], len(found[1])
    flat = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int64)
    return np.array(topics, dtype=np.int64), base, k, flat


def _ranges(subs: np.ndarray, n: int) -> np.ndarray:
    """Owner of each of a topic's ``n`` partitions when its subscribers are ``subs``: the
    ``j``-th takes ``n // k`` partitions, plus one while ``j < n % k``."""
    k = len(subs)
    q, r = divmod(n, k)
    if q == 0:
        return subs[:r]
    quota = np.full(k, q, dtype=np.int64)
    quota[:r] += 1
    return np.repeat(subs, quota)


def range_columns(arrays: SpecArrays) -> AssignmentColumns:
    """The coordinator's range assignment of ``arrays.spec`` as columns."""
    order = _member_order(arrays).astype(np.int32)
    topics, base, k, flat = _subscriber_lists(arrays, order)
    counts = arrays.counts.tolist()
    patterns: dict[tuple[int, int, int], np.ndarray] = {}
    pieces = []
    for t, b, size in zip(topics.tolist(), base.tolist(), k.tolist(), strict=True):
        n = counts[t]
        pattern = patterns.get((n, b, size))
        if pattern is None:
            pattern = patterns[(n, b, size)] = _ranges(flat[b : b + size], n)
        pieces.append(pattern)
    if len(topics) == len(arrays.topics):  # every topic subscribed: the pieces tile the layout
        owner = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int32)
    else:
        owner = np.full(arrays.total, -1, dtype=np.int32)
        offsets = arrays.offsets.tolist()
        for t, pattern in zip(topics.tolist(), pieces, strict=True):
            owner[offsets[t] : offsets[t] + len(pattern)] = pattern
    return arrays.columns(owner)
