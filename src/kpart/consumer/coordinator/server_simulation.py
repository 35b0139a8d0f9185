"""``org.apache.kafka.coordinator.group.modern.TargetAssignmentBuilder`` over successive group states.

Reproduces how ``org.apache.kafka.coordinator.group.GroupMetadataManager`` feeds its
assignor (``TargetAssignmentBuilder``) from one target assignment to the next: at each step
every member's *current* assignment is the target the assignor produced for it at the
previous step (nothing for a member that just joined); members absent from a step have left
and their partitions are free. A topic that disappeared from the metadata stays in a member's
current assignment, referenced by id (``"id:<uuid>"``), until the assignor drops it.

Between steps the coordinator persists each target as records and reads it back into fresh
Java collections: a ``HashMap<Uuid, Set<Integer>>`` filled in the target's topic order and, per
topic, ``new HashSet<>(partitions)``. The next step's member input lists topics and partitions
in that emulated iteration order (exact whenever the assignor's own order of colliding keys is
reproduced; sets are always exact).

>>> from kpart.consumer.coordinator.server_spec import ServerGroupSpec
>>> t = [{"name": "t0", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 4}]
>>> s1 = ServerGroupSpec.from_json({"topics": t, "members": [{"id": "A", "topics": ["t0"]}]})
>>> s2 = ServerGroupSpec.from_json({"topics": t, "members": [{"id": "A", "topics": ["t0"]},
...                                                          {"id": "B", "topics": ["t0"]}]})
>>> rounds = simulate_server_group([s1, s2], "uniform")
>>> rounds[1].spec.members[0].assignment, rounds[1].assignment.as_dict()
((('t0', (0, 1, 2, 3)),), {'A': {'t0': [0, 1]}, 'B': {'t0': [2, 3]}})
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from kpart._java.collections import JavaHashMap, JavaHashSet
from kpart._java.uuid import uuid_hash_code
from kpart.consumer import Strategy, server_strategy, server_target
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.coordinator.server_spec import ServerGroupSpec, ServerMember, Target
from kpart.versions import KafkaVersion

__all__ = [
    "ServerRound",
    "read_back",
    "replay_order",
    "simulate_server_group",
    "with_current_assignments",
]

@dataclass(frozen=True, slots=True)
class ServerRound:
    """One assignor run: ``step`` index, the ``spec`` the assignor saw (members with their
    current assignments) and the ``assignment`` it produced (``target`` keeps topic ids and
    the emulated Java order)."""

    step: int
    spec: ServerGroupSpec
    assignment: GroupAssignment
    target: tuple[tuple[str, tuple[tuple[int, tuple[int, ...]], ...]], ...]

    @property
    def subscription_type(self) -> str:
        return self.spec.subscription_type


def replay_order(parts: Iterable[tuple[int, Iterable[int]]]) -> list[tuple[int, list[int]]]:
    """Iteration order of a target assignment read back into fresh Java collections: a
    default ``HashMap<Uuid, ...>`` filled in ``parts`` order, and ``new HashSet<>(ps)`` per
    topic (empty topics dropped)."""
    by_topic = {tid: list(ps) for tid, ps in parts if ps}
    replayed: JavaHashMap[int, JavaHashSet[int]] = JavaHashMap(hash_of=uuid_hash_code)
    for tid, ps in by_topic.items():
        replayed.put(tid, JavaHashSet.copy_of(ps))
    return [(tid, list(ps)) for tid, ps in replayed.items()]


def with_current_assignments(step: ServerGroupSpec, current: Target) -> ServerGroupSpec:
    """``step``'s members with their current assignments taken from ``current`` (the
    previous targets, read back; nothing for a new member)."""
    members = tuple(
        ServerMember(
            m.member_id, m.topics, m.instance_id, m.rack,
            tuple((step.topic_name(tid), tuple(ps)) for tid, ps in current.get(m.member_id, [])),
        )
        for m in step.members
    )
    return ServerGroupSpec(step.topics, members)


def read_back(spec: ServerGroupSpec, raw: Target) -> Target:
    """Every member's new target as the next step reads it (:func:`replay_order`)."""
    return {m.member_id: replay_order(raw.get(m.member_id, [])) for m in spec.members}


def simulate_server_group(
    steps: Iterable[ServerGroupSpec], assignor: str | Strategy = "uniform", *,
    kafka_version: str | KafkaVersion | None = None,
) -> tuple[ServerRound, ...]:
    """Run ``assignor`` (``"uniform"`` or ``"range"``, see
    :func:`kpart.consumer.server_strategy`) over successive group states, as the brokers'
    ``kafka_version`` computes them (default: the newest release, 4.3; see
    :mod:`kpart.versions`).

    ``steps``: each step's metadata and members (their ``assignment`` fields are ignored:
    the current assignments come from the previous step's targets). Returns one
    :class:`ServerRound` per step. Errors: :class:`~kpart.errors.ConfigError` for an unknown
    assignor or a version without it, and whatever the assignor raises.
    """
    strategy = server_strategy(assignor)
    if kafka_version is not None:
        strategy = strategy.at_version(kafka_version)
    current: Target = {}
    rounds: list[ServerRound] = []
    for index, step in enumerate(steps):
        spec = with_current_assignments(step, current)
        raw = server_target(spec, strategy)
        pairs = {
            member_id: [(spec.topic_name(tid), p) for tid, ps in parts for p in ps]
            for member_id, parts in raw.items()
        }
        result = GroupAssignment.from_pairs([m.member_id for m in spec.members], pairs)
        current = read_back(spec, raw)
        rounds.append(
            ServerRound(
                index,
                spec,
                result,
                tuple(
                    (mid, tuple((tid, tuple(ps)) for tid, ps in parts))
                    for mid, parts in current.items()
                ),
            )
        )
    return tuple(rounds)
