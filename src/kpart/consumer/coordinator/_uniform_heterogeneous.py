"""``org.apache.kafka.coordinator.group.assignor.UniformHeterogeneousAssignmentBuilder`` (KIP-848).

The uniform assignor's builder for a group whose members subscribe to different topics.
Balance first, then stickiness:

1. ``maybeRevokePartitions``: each member keeps its current partitions of topics it still
   subscribes to (it drops the others).
2. ``assignRemainingPartitions``: topics are sorted by partitions per subscriber (descending),
   then subscriber count (ascending), then topic id (``Uuid.compareTo``); each topic's
   unowned partitions go, in ascending order, to its least loaded subscribers
   (:class:`_MemberAssignmentBalancer`).
3. ``balance``: topics with two or more subscribers are visited in the same order, repeatedly
   (at most 16 passes, stopping after a full pass without moves); in each, partitions move
   from the most to the least loaded subscribers until their counts differ by at most one.

Members are numbered in ``GroupSpec.memberIds()`` order (ties in load are broken by that
number), so the result depends on the member order only.
"""

from __future__ import annotations

from kpart._java.hashing import presized_capacity
from kpart._java.uuid import uuid_compare_key
from kpart.consumer.coordinator._target_maps import TargetMap
from kpart.consumer.coordinator.server_spec import ServerGroupSpec

MAX_ITERATION_COUNT = 16


class _MemberAssignmentBalancer:
    """Two ranges over the subscribers sorted by load: the least loaded range (growing to the
    right) receives partitions, the most loaded range (growing to the left) gives them up."""

    __slots__ = (
        "least_count",
        "least_end",
        "most_count",
        "most_end",
        "most_start",
        "next_least",
        "next_most",
        "sizes",
        "sorted",
    )

    def __init__(self, sizes: list[int]) -> None:
        self.sizes = sizes
        self.sorted: list[int] = []

    def initialize(self, members: list[int]) -> int:
        sizes = self.sizes
        self.sorted = sorted(members, key=lambda i: (sizes[i], i))
        s = self.sorted
        self.least_end = 0
        self.least_count = sizes[s[0]] - 1
        self.next_least = 0
        self.most_start = len(s)
        self.most_end = len(s)
        self.most_count = sizes[s[-1]] + 1
        self.next_most = len(s) - 1
        return sizes[s[-1]] - sizes[s[0]]

    def next_least_loaded_member(self) -> int:
        s, sizes = self.sorted, self.sizes
        if self.next_least >= self.least_end:
            self.least_count += 1
            while self.least_end < len(s) and sizes[s[self.least_end]] == self.least_count:
                self.least_end += 1
            self.next_least = 0
        member = s[self.next_least]
        self.next_least += 1
        return member

    def next_most_loaded_member(self) -> int:
        s, sizes = self.sorted, self.sizes
        if self.next_most < self.most_start:
            if self.most_end <= self.most_start and self.most_start > 0:
                self.most_count = sizes[s[self.most_start - 1]]
            else:
                self.most_count -= 1
            while self.most_start > 0 and sizes[s[self.most_start - 1]] == self.most_count:
                self.most_start -= 1
            self.next_most = self.most_end - 1
        if self.next_most < 0:
            return -1
        member = s[self.next_most]
        self.next_most -= 1
        return member

    def exclude_most_loaded_member(self) -> None:
        s = self.sorted
        i = self.next_most + 1
        s[i], s[self.most_end - 1] = s[self.most_end - 1], s[i]
        self.most_end -= 1

    def is_balanced(self) -> bool:
        return self.most_count - self.least_count <= 1


class HeterogeneousBuilder:
    """State of one heterogeneous build (method names follow Kafka's)."""

    def __init__(self, spec: ServerGroupSpec) -> None:
        self.spec = spec
        self.members = spec.members_in_map_order()
        self.member_ids = [m.member_id for m in self.members]
        self.subscriptions = [frozenset(spec.subscribed_topic_ids(m)) for m in self.members]
        self.topic_subscribers: dict[int, list[int]] = {}
        for index, m in enumerate(self.members):
            for tid in spec.subscribed_topic_ids(m):
                self.topic_subscribers.setdefault(tid, []).append(index)
        self.sizes = [0] * len(self.member_ids)
        self.owners: dict[int, list[int]] = {
            tid: [-1] * spec.num_partitions(tid) for tid in self.topic_subscribers
        }
        # member index → its target map (copy-on-write, Java iteration order)
        self.target: list[TargetMap] = []

    def _topic_key(self, tid: int) -> tuple[float, int, int]:
        n = self.spec.num_partitions(tid)
        k = len(self.topic_subscribers[tid])
        return (-(n / k), k, uuid_compare_key(tid))

    def build(self) -> list[TargetMap]:
        if not self.topic_subscribers:
            return [TargetMap([]) for _ in self.member_ids]
        self.maybe_revoke_partitions()
        self.assign_remaining_partitions(self.compute_unassigned_partitions())
        self.balance()
        return self.target

    def maybe_revoke_partitions(self) -> None:
        spec = self.spec
        for index, m in enumerate(self.members):
            current = TargetMap([(spec.topic_uuid(t), list(ps)) for t, ps in m.assignment])
            subs = self.subscriptions[index]
            for tid, ps in current.parts():
                if tid not in subs:
                    current.remove_topic(tid)
                    continue
                self.sizes[index] += len(ps)
                owners = self.owners[tid]
                for p in ps:
                    owners[p] = index
            self.target.append(current)

    def compute_unassigned_partitions(self) -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for tid, owners in self.owners.items():
            free = [p for p, o in enumerate(owners) if o == -1]
            if free:
                out[tid] = free
        return out

    def assign_remaining_partitions(self, partitions: dict[int, list[int]]) -> None:
        balancer = _MemberAssignmentBalancer(self.sizes)
        for tid in sorted(partitions, key=self._topic_key):
            balancer.initialize(self.topic_subscribers[tid])
            for p in partitions[tid]:
                self.assign_partition(tid, p, balancer.next_least_loaded_member())

    def balance(self) -> None:
        topic_ids = [tid for tid, subs in self.topic_subscribers.items() if len(subs) >= 2]
        if topic_ids:
            self.balance_topics(topic_ids)

    def balance_topics(self, topic_ids: list[int]) -> None:
        ordered = sorted(topic_ids, key=self._topic_key)
        last_rebalanced = -1
        balancer = _MemberAssignmentBalancer(self.sizes)
        for _ in range(MAX_ITERATION_COUNT):
            for topic_index, tid in enumerate(ordered):
                if topic_index == last_rebalanced:
                    return
                moved = self.balance_topic(tid, balancer)
                if moved > 0 or last_rebalanced == -1:
                    last_rebalanced = topic_index

    def balance_topic(self, tid: int, balancer: _MemberAssignmentBalancer) -> int:
        moved = 0
        owners = self.owners[tid]
        if balancer.initialize(self.topic_subscribers[tid]) <= 1:
            return moved
        # Partitions grouped by owner (owner index, then partition id).
        partitions = sorted(range(len(owners)), key=lambda p: (owners[p], p))
        start: dict[int, int] = {}
        end: dict[int, int] = {}
        for i, p in enumerate(partitions):
            start.setdefault(owners[p], i)
            end[owners[p]] = i + 1
        while not balancer.is_balanced():
            most = -1
            while True:
                most = balancer.next_most_loaded_member()
                if most == -1:
                    break
                if most not in end or end[most] - start[most] <= 0:
                    balancer.exclude_most_loaded_member()
                    continue
                break
            if most == -1:
                break
            p = partitions[end[most] - 1]
            end[most] -= 1
            least = balancer.next_least_loaded_member()
            if balancer.is_balanced():
                break
            self.assign_partition(tid, p, least)
            moved += 1
        return moved

    def assign_partition(self, tid: int, p: int, index: int) -> None:
        owners = self.owners[tid]
        old = owners[p]
        if old != -1:
            self.target[old].remove(tid, p)
            owners[p] = -1
            self.sizes[old] -= 1
        self.target[index].add(tid, p, self.new_set_capacity(tid))
        owners[p] = index
        self.sizes[index] += 1

    def new_set_capacity(self, tid: int) -> int:
        """A new partition set is presized for the topic's expected share."""
        n = self.spec.num_partitions(tid)
        k = len(self.topic_subscribers[tid])
        return presized_capacity((n + k - 1) // k)


def build_heterogeneous(spec: ServerGroupSpec) -> dict[str, list[tuple[int, list[int]]]]:
    """Run the heterogeneous builder; returns member → [(topic id, partitions)] in the Java
    iteration order of the map Kafka returns for the member."""
    builder = HeterogeneousBuilder(spec)
    target = builder.build()
    return {m.member_id: parts.parts() for m, parts in zip(builder.members, target, strict=True)}
