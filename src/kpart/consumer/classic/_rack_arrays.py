"""The racks of every partition's replicas as one boolean matrix, for the rack-aware (KIP-881)
array paths of the classic assignors.

Kafka's classic assignors read ``PartitionInfo.replicas()[i].rack()`` partition by partition
(``AbstractPartitionAssignor.partitionInfosWithoutRacks`` / ``RackInfo``); at a million
partitions that is a million sets. Here the racks a group's members use are numbered and each
partition gets one row of a ``bool`` matrix: ``mask[offsets[t] + p, r]`` is true when a replica
of ``topics[t]``-``p`` lives on ``racks[r]``. Racks no member uses are left out (they can never
match a member), and so are replicas on brokers without a rack.

:func:`replica_rack_sets` numbers the distinct rack *sets* instead (all racks, also those no
member uses, as KIP-881's "every partition has replicas on all racks" test needs): one int per
partition, read at about 150 ns a partition (replica lists repeat: each distinct one is looked
at once).

>>> from kpart.consumer.spec import GroupSpec
>>> g = GroupSpec.from_json({"topics": {"t": 2},
...                          "partition_racks": {"t": [["a", "b"], ["c", None]]},
...                          "members": [{"id": "C0", "topics": ["t"], "rack": "a"},
...                                      {"id": "C1", "topics": ["t"], "rack": "c"}]})
>>> replica_rack_mask(g, ["t"], ["a", "c"]).astype(int).tolist()
[[1, 0], [0, 1]]
>>> codes, sets = replica_rack_sets(g, ["t"])
>>> codes.tolist(), [sorted(s) for s in sets]
([1, 2], [[], ['a', 'b'], ['c']])
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, repeat

import numpy as np

from kpart.consumer.spec import GroupSpec

__all__ = ["replica_rack_mask", "replica_rack_sets"]


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


class _SetIds(dict[tuple[str | None, ...], int]):
    """Replica rack list → id of its set of racks (``None`` dropped), numbering new sets as
    they are met (``sets[id]``; id 0 is the empty set)."""

    def __init__(self) -> None:
        super().__init__()
        self.sets: list[frozenset[str]] = [frozenset()]
        self._ids: dict[frozenset[str], int] = {frozenset(): 0}

    def __missing__(self, replicas: tuple[str | None, ...]) -> int:
        racks = frozenset(r for r in replicas if r is not None)
        found = self._ids.setdefault(racks, len(self.sets))
        if found == len(self.sets):
            self.sets.append(racks)
        self[replicas] = found
        return found


def replica_rack_sets(
    group: GroupSpec, topics: Sequence[str]
) -> tuple[np.ndarray, list[frozenset[str]]]:
    """``(codes, sets)``: ``codes`` (int32, shape ``(sum of the topics' partition counts,)``,
    topics in the given order, each taking ``num_partitions`` entries) holds for each
    partition the index in ``sets`` of the racks of its replicas, as
    :meth:`~kpart.consumer.spec.GroupSpec.racks_for_partition` gives them (brokers without a
    rack left out); ``sets[0]`` is the empty set (also for a topic without replica racks in
    the metadata, or missing from it). Never raises."""
    counts = [group.num_partitions(t) or 0 for t in topics]
    codes = np.zeros(sum(counts), dtype=np.int32)
    ids = _SetIds()
    start = 0
    for name, n in zip(topics, counts, strict=True):
        topic = group.topic(name)
        replica_racks = None if topic is None else topic.replica_racks
        if replica_racks:
            codes[start : start + n] = np.fromiter(map(ids.__getitem__, replica_racks),
                                                   np.int32, n)
        start += n
    return codes, ids.sets
