"""The racks of every partition's replicas as small integers, for the rack-aware (KIP-881)
array paths of the classic assignors (Range, Sticky, CooperativeSticky).

Kafka's classic assignors read ``PartitionInfo.replicas()[i].rack()`` partition by partition
(``AbstractPartitionAssignor.partitionInfosWithoutRacks`` / ``RackInfo``); at a million
partitions that is a million sets. :func:`replica_rack_sets` numbers the distinct rack *sets*
instead (all racks, also those no member uses, as KIP-881's "every partition has replicas on
all racks" test needs): one int per partition, read at about 150 ns a partition (replica lists
repeat: each distinct one is looked at once).

>>> from kpart.consumer.spec import GroupSpec
>>> g = GroupSpec.from_json({"topics": {"t": 2},
...                          "partition_racks": {"t": [["a", "b"], ["c", None]]},
...                          "members": [{"id": "C0", "topics": ["t"], "rack": "a"},
...                                      {"id": "C1", "topics": ["t"], "rack": "c"}]})
>>> codes, sets = replica_rack_sets(g, ["t"])
>>> codes.tolist(), [sorted(s) for s in sets]
([1, 2], [[], ['a', 'b'], ['c']])
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kpart.consumer.spec import GroupSpec

__all__ = ["replica_rack_sets"]


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
