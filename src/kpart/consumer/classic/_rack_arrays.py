"""The racks of every partition's replicas as one boolean matrix, for the rack-aware (KIP-881)
array paths of the classic assignors.

Kafka's classic assignors read ``PartitionInfo.replicas()[i].rack()`` partition by partition
(``AbstractPartitionAssignor.partitionInfosWithoutRacks`` / ``RackInfo``); at a million
partitions that is a million sets. Here the racks a group's members use are numbered and each
partition gets one row of a ``bool`` matrix: ``mask[offsets[t] + p, r]`` is true when a replica
of ``topics[t]``-``p`` lives on ``racks[r]``. Racks no member uses are left out (they can never
match a member), and so are replicas on brokers without a rack.

>>> from kpart.consumer.spec import GroupSpec
>>> g = GroupSpec.from_json({"topics": {"t": 2},
...                          "partition_racks": {"t": [["a", "b"], ["c", None]]},
...                          "members": [{"id": "C0", "topics": ["t"], "rack": "a"},
...                                      {"id": "C1", "topics": ["t"], "rack": "c"}]})
>>> replica_rack_mask(g, ["t"], ["a", "c"]).astype(int).tolist()
[[1, 0], [0, 1]]
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, repeat

import numpy as np

from kpart.consumer.spec import GroupSpec

__all__ = ["replica_rack_mask"]


def replica_rack_mask(group: GroupSpec, topics: Sequence[str], racks: Sequence[str]) -> np.ndarray:
    """``bool`` array of shape ``(sum of the topics' partition counts, len(racks))``: row
    ``offset + p`` (topics in the given order, each taking ``num_partitions`` rows) has
    ``True`` at ``r`` when a replica of that partition is on rack ``racks[r]``. A topic
    without replica racks in the metadata, or missing from it, has all-``False`` rows (Kafka:
    no rack information, nothing matches). Never raises."""
    index: dict[str | None, int] = {r: i for i, r in enumerate(racks)}
    counts = [group.num_partitions(t) or 0 for t in topics]
    mask = np.zeros((sum(counts), len(racks)), dtype=bool)
    start = 0
    for name, n in zip(topics, counts, strict=True):
        topic = group.topic(name)
        replica_racks = None if topic is None else topic.replica_racks
        if replica_racks and racks:
            sizes = np.fromiter(map(len, replica_racks), np.int64, n)
            flat = np.fromiter(
                map(index.get, chain.from_iterable(replica_racks), repeat(-1)),
                np.int64, int(sizes.sum()),
            )
            rows = np.repeat(np.arange(start, start + n), sizes)
            known = flat >= 0
            mask[rows[known], flat[known]] = True
        start += n
    return mask
