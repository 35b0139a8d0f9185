"""``org.apache.kafka.coordinator.group.assignor.UniformHomogeneousAssignmentBuilder`` on arrays (KIP-848).

The array form of :mod:`kpart.consumer.coordinator._uniform_homogeneous` (the reference): the
same four steps, on one integer per partition.

1. The subscribed topics in ``HashSet<Uuid>`` order; their partitions nobody currently owns,
   in topic then partition order, start the *unassigned* list.
2. Quotas: ``total // members`` each, one more for ``total % members`` members of
   ``GroupSpec.memberIds()`` order: the first ones up to Kafka 4.0.0; from 4.0.1
   (KAFKA-18688) those whose current partitions fill the extra slot, then the last ones
   (:func:`_extra_to_last`).
3. ``maybeRevokePartitions``: walking a member's current topics (its map's order) and their
   partitions (set order), it keeps whole topics while they fit in its remaining quota and
   cuts the first one that does not: it keeps exactly the first ``quota`` partitions of that
   flattened list, and the rest join the unassigned list in that order.
4. ``assignRemainingPartitions``: the unassigned list is dealt out in order, each member below
   quota (member order) taking its remaining quota.

Steps 3 and 4 are one pass of a compiled (numba, cached) kernel,
:func:`kpart.consumer.coordinator._uniform_homogeneous_kernels.deal_owners`. Declines (``None``: the object path runs) when a
partition is owned twice or a deleted-topic reference names a topic of the metadata.
"""

from __future__ import annotations

import numpy as np

from kpart._java.arrays import SMALL_MAP, hashmap_key_order, string_hash_codes
from kpart._java.hashing import hashset_copy_capacity
from kpart.consumer._columns import AssignmentColumns
from kpart.consumer.coordinator._spec_arrays import SpecArrays
from kpart.consumer.coordinator._uniform_homogeneous import subscribed_topic_ids
from kpart.consumer.coordinator.server_spec import ServerMember
from kpart.errors import PartitionAssignorError

__all__ = ["homogeneous_columns"]


def _subscribed_topics(arrays: SpecArrays, first: ServerMember,
                       copied_names: bool = False) -> np.ndarray:
    """``subscribed_topic_ids`` of the reference for member ``first``, as positions in
    ``arrays.topics``: ``new HashSet<>(subscribedTopicIds())`` in iteration order (the view
    iterates the member's ``HashSet<String>`` of names; its ``size()``, which presizes the
    copy, counts names missing from the metadata too). Large sets are ordered on arrays: the
    names by ``String.hashCode`` buckets, then the ids by ``Uuid.hashCode`` buckets (the
    bucket model of :func:`kpart._java.hashing.hashmap_order`)."""
    spec, index = arrays.spec, arrays.index
    unique = list(dict.fromkeys(first.topics))
    if len(unique) <= SMALL_MAP or first.topic_regex:  # (a regex: the reference's order)
        ids = subscribed_topic_ids(spec, first, copied_names)
        return np.array([index[spec.topic_name(tid)] for tid in ids], dtype=np.int64)
    if copied_names:  # new HashSet<>(list): the table starts at its final length
        h = string_hash_codes(unique)
        bucket = (h ^ (h >> 16)) & (hashset_copy_capacity(len(unique)) - 1)
        names_order = np.argsort(bucket, kind="stable").tolist()
    else:
        names_order = hashmap_key_order(unique).tolist()
    found = [index.get(unique[i]) for i in names_order]
    positions = np.array([t for t in found if t is not None], dtype=np.int64)
    h = arrays.uuid_hash_codes[positions]  # the copy: new HashSet<Uuid>, ids in that order
    bucket = (h ^ (h >> 16)) & (hashset_copy_capacity(len(unique)) - 1)
    ordered: np.ndarray = positions[np.argsort(bucket, kind="stable")]
    return ordered


def _topic_positions(arrays: SpecArrays, copied_names: bool = False) -> np.ndarray:
    """The subscribed topics (positions in ``arrays.topics``) in ``HashSet<Uuid>`` order,
    from the first member of ``GroupSpec.memberIds()`` order, as Kafka reads them."""
    spec = arrays.spec
    memo = spec.memo()
    key = f"homogeneous_topics_{'copied' if copied_names else 'filled'}"
    found = memo.get(key)
    if not isinstance(found, np.ndarray):
        first = spec.members[int(arrays.map_order()[0])]
        found = memo[key] = _subscribed_topics(arrays, first, copied_names)
    return found


def _extra_to_last(held: np.ndarray, min_quota: int, extra: int) -> np.ndarray:
    """Which members (``GroupSpec.memberIds()`` order) take the ``extra`` extra partitions
    in Kafka 4.0.1+ (KAFKA-18688), given how many subscribed partitions each holds: walking
    the members, one offered a slot (some are left) keeps it if it holds more than
    ``min_quota``, or if no more members than slots remain; from the first such forced member
    on, every member takes one."""
    n = len(held)
    want = held > min_quota
    before: np.ndarray = np.cumsum(want) - want  # wanting members before each: they took a slot
    left = np.maximum(extra - before, 0)  # slots left when each member is reached
    take = want & (before < extra)
    forced = np.flatnonzero(n - np.arange(n) <= left)
    if len(forced):
        take[int(forced[0]):] = True
    return take


def homogeneous_columns(arrays: SpecArrays, extra_to_last: bool = False,
                        copied_names: bool = False) -> AssignmentColumns | None:
    """The homogeneous builder's result as columns, or ``None`` to decline; ``extra_to_last``
    as :func:`~kpart.consumer.coordinator._uniform_homogeneous.build_homogeneous` (Kafka 4.0.1+).
    Raises :class:`~kpart.errors.PartitionAssignorError` as Kafka does."""
    order = arrays.map_order()
    n_members = len(order)
    owner = np.full(arrays.total, -1, dtype=np.int32)  # spec positions
    topics = _topic_positions(arrays, copied_names)
    if not len(topics):
        return arrays.columns(owner)
    current = arrays.current_owned(order, arrays.class_topics)
    if current is None:
        return None
    member, owned = current
    lengths = arrays.counts[topics]
    total = int(lengths.sum())
    min_quota, extra = divmod(total, n_members)
    quota = np.full(n_members, min_quota, dtype=np.int64)
    held = np.bincount(member, minlength=n_members) if len(owned) else np.zeros(
        n_members, dtype=np.int64)
    if extra_to_last:
        quota += _extra_to_last(held, min_quota, extra)
    else:
        quota[:extra] += 1
    # maybeRevokePartitions and assignRemainingPartitions: one compiled pass
    from kpart.consumer.coordinator._uniform_homogeneous_kernels import deal_owners

    if deal_owners(topics, arrays.offsets, arrays.counts, order, quota, member, owned, owner):
        raise PartitionAssignorError("Partitions were left unassigned")
    return arrays.columns(owner)
