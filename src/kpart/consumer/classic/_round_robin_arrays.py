"""``org.apache.kafka.clients.consumer.RoundRobinAssignor`` on numpy arrays, for large groups.

The same decisions as :mod:`kpart.consumer.classic.round_robin_assignor` (its object path,
``_assign_round_robin_objects``, stays the reference), with every partition's owner as one int
(:meth:`GroupAssignment.from_columns`).

Kafka deals the partitions (topics in ``String.compareTo`` order) one by one to the members in
``MemberInfo`` order, cycling, and skips a member not subscribed to the partition's topic. The
skipping looks sequential, but within one topic it is not: the topic's subscribers take its
partitions in turn, starting with the first subscriber at or after the cursor (cyclically), so
partition ``p`` goes to subscriber ``(start + p) % C``, and the cursor ends one past the last
taker. Only that start is carried from topic to topic: a Python loop over the *topics* (a
bisection in the subscriber list when not everyone subscribes), then one vectorised pass over
the partitions. Equal subscriptions are the special case ``start = cursor``: a stride.

Nothing is declined for reasons of order (the Java order of the topic names is followed even
where it differs from Python's). Declines (returns ``None``, the caller then runs the object
path): groups whose distinct subscriptions × topics exceed
:data:`~kpart.consumer.classic._member_info.MAX_SUBSCRIPTION_CELLS`. Groups below
:data:`ARRAY_THRESHOLD` partitions take the object path (faster there).

>>> from kpart.consumer.spec import GroupSpec
>>> uneven = {"topics": {"t0": 1, "t1": 2, "t2": 3},
...           "members": [{"id": "C0", "topics": ["t0"]}, {"id": "C1", "topics": ["t0", "t1"]},
...                       {"id": "C2", "topics": ["t0", "t1", "t2"]}]}
>>> round_robin_columns(GroupSpec.from_json(uneven)).as_dict()
{'C0': {'t0': [0]}, 'C1': {'t1': [0]}, 'C2': {'t1': [1], 't2': [0, 1, 2]}}
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

import numpy as np

from kpart._java.strings import java_string_key
from kpart.consumer._columns import AssignmentColumns
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.classic._member_info import SubscriberClasses, subscriber_classes
from kpart.consumer.spec import GroupSpec

__all__ = ["ARRAY_THRESHOLD", "round_robin_columns", "try_round_robin_columns"]

#: Below this many partitions in the metadata the object path is faster.
ARRAY_THRESHOLD = 2048


def try_round_robin_columns(group: GroupSpec) -> GroupAssignment | None:
    """:func:`round_robin_columns` for a group of at least :data:`ARRAY_THRESHOLD`
    partitions in its metadata, else ``None`` (the caller runs the object path)."""
    if sum(t.num_partitions for t in group.topics) < ARRAY_THRESHOLD:
        return None
    return round_robin_columns(group)


def round_robin_columns(group: GroupSpec) -> GroupAssignment | None:
    """Kafka's ``RoundRobinAssignor`` result for ``group`` as columns (every member of the
    group, in group order), or ``None`` when the array form declines (see the module
    docstring). Never raises."""
    view = subscriber_classes(group)
    if view is None:
        return None
    first = _first_takers(view)
    counts, sizes, starts = view.counts, view.sizes, view.starts
    # Partition p of topic t: subscriber (first[t] + p) % C of its class.
    index = np.repeat(first - view.offsets, counts)
    index += np.arange(view.total)
    if len(sizes) == 1:  # one class (equal subscriptions): scalar arithmetic
        index %= sizes[0]
        if sizes[0] != len(view.order):
            index = view.members[index]
    else:
        index %= np.repeat(sizes[view.topic_class], counts)
        index += np.repeat(starts[view.topic_class], counts)
        index = view.members[index]
    owner = view.order[index]
    columns = AssignmentColumns(
        [m.member_id for m in group.members], view.topics, counts, owner
    )
    return GroupAssignment.from_columns(columns)


def _first_takers(view: SubscriberClasses) -> np.ndarray:
    """For each topic (in ``view.topics`` order), the index among its subscribers of the one
    taking its partition 0: topics visited in ``String.compareTo`` order, the cursor (a member
    rank) moving to one past each topic's last taker."""
    topics = view.topics
    order: Sequence[int] = range(len(topics))
    if not all(t.isascii() for t in topics):  # Java and Python orders may differ
        order = sorted(order, key=lambda t: java_string_key(topics[t]))
    n_members = len(view.order)
    sizes = view.sizes.tolist()
    starts = view.starts.tolist()
    cls = view.topic_class.tolist()
    counts = view.counts.tolist()
    members: list[int] | None = None  # view.members as a list, made when first needed
    first = [0] * len(topics)
    cursor = 0
    for t in order:
        k, n = cls[t], counts[t]
        size = sizes[k]
        if size == n_members:  # everyone subscribes: a stride from the cursor
            first[t] = cursor
            cursor = (cursor + n) % n_members
            continue
        if members is None:
            members = view.members.tolist()
        lo = starts[k]
        start = bisect_left(members, cursor, lo, lo + size) - lo
        if start == size:
            start = 0
        first[t] = start
        cursor = (members[lo + (start + n - 1) % size] + 1) % n_members
    return np.array(first, dtype=np.int64)
