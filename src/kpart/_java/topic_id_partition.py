"""``org.apache.kafka.server.common.TopicIdPartition`` (a Java record) as a hash key, and the
presized ``HashMap``/``HashSet`` of Kafka's ``AssignorHelpers``.

``TopicIdPartition`` is ``record TopicIdPartition(Uuid topicId, int partitionId)``; its
``hashCode`` is the one OpenJDK's ``java.lang.runtime.ObjectMethods`` bootstrap generates for
records: starting from 0, ``h = 31 * h + hash(component)`` for each component in declaration
order, ``Objects.hashCode`` for a reference (``Uuid.hashCode``), ``Integer.hashCode`` (the
value) for an ``int``; so ``31 * topicId.hashCode() + partitionId`` in 32-bit arithmetic
(checked against Java 17 by ``tests/consumer/test_share_java_orders.py``). kpart writes the key
as the tuple ``(uuid, partition)`` (``uuid``: the 128-bit int of :mod:`kpart._java.uuid`) and
passes :func:`topic_id_partition_hash` as the ``hash_of`` of a
:class:`~kpart._java.collections.JavaHashMap` / ``JavaHashSet``.

``AssignorHelpers.newHashMap(n)`` / ``newHashSet(n)`` presize a table with
``(int) (((n + 1) / 0.75f) + 1)`` (float arithmetic): :func:`assignor_helpers_capacity`.

>>> from kpart._java.uuid import uuid_from_string
>>> topic_id_partition_hash((uuid_from_string("AAAAAAAAAAAAAAAAAAAAAQ"), 2))
33
>>> assignor_helpers_capacity(2), assignor_helpers_capacity(10)
(5, 15)
"""

from __future__ import annotations

import struct

from kpart._java.ints import to_int32
from kpart._java.uuid import uuid_hash_code

__all__ = ["assignor_helpers_capacity", "topic_id_partition_hash"]


def topic_id_partition_hash(key: tuple[int, int]) -> int:
    """``TopicIdPartition.hashCode()`` of ``(uuid, partition)``: ``31 * Uuid.hashCode() +
    partition`` as a signed 32-bit int (a record's generated ``hashCode``)."""
    return to_int32(31 * uuid_hash_code(key[0]) + key[1])


def _f32(x: float) -> float:
    return float(struct.unpack("f", struct.pack("f", x))[0])


def assignor_helpers_capacity(num_mappings: int) -> int:
    """The initial capacity ``AssignorHelpers.newHashMap(n)`` / ``newHashSet(n)`` pass to
    ``new HashMap<>(...)``: ``(int) (((n + 1) / 0.75f) + 1)``, in ``float``."""
    return int(_f32(_f32(_f32(float(num_mappings + 1)) / _f32(0.75)) + 1.0))
