"""A share group (KIP-932) over successive states: ``TargetAssignmentBuilder.
ShareTargetAssignmentBuilder`` run by the group coordinator, one target after another.

Each step is one target computation on the step's metadata, initialized partitions and
members (in the order they were put into the coordinator's member map). A member's current
assignment is its target of the previous step as the group stores it: when that target
changed, ``Assignment.fromRecord`` of the target record (a fresh ``HashMap`` of ``new
HashSet<>(partitions)``, topics in the builder's iteration order, empty topics kept); when it
did not, the previous object with its own iteration order. A new member starts with nothing;
a member absent from a step has left. A step where Kafka's assignor fails
(``java.util.NoSuchElementException``) leaves every current assignment as it was. This is the
simulation rule of Kafka 4.3's golden sequences (``tests/golden/4.3/FORMAT.md``), all of whose
rounds it reproduces, the members' current assignments in their recorded order included.

>>> from kpart.consumer.share import ShareGroupSpec
>>> t = [{"name": "t", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 2}]
>>> one = ShareGroupSpec.from_json({"topics": t, "members": [{"id": "A", "topics": ["t"]}]})
>>> two = ShareGroupSpec.from_json({"topics": t, "members": [{"id": "A", "topics": ["t"]},
...                                                          {"id": "B", "topics": ["t"]}]})
>>> [r.assignment.as_dict() for r in simulate_share_group([one, two])]
[{'A': {'t': [0, 1]}}, {'A': {'t': [1]}, 'B': {'t': [0]}}]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from kpart._java.collections import JavaHashMap, JavaHashSet
from kpart._java.uuid import uuid_hash_code
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.coordinator.server_simulation import with_current_assignments
from kpart.consumer.coordinator.server_spec import Target
from kpart.consumer.share.share_group_spec import ShareGroupSpec
from kpart.consumer.share.simple_assignor import simple_target
from kpart.errors import NoSuchElementError
from kpart.versions import KafkaVersion

__all__ = ["ShareRound", "simulate_share_group"]


@dataclass(frozen=True, slots=True)
class ShareRound:
    """One target computation: the ``step`` index, the ``spec`` the assignor saw (members
    with their current assignments in Java's order) and the ``assignment`` it produced, or
    the ``error`` Kafka's assignor raised (``assignment`` is then ``None``)."""

    step: int
    spec: ShareGroupSpec
    assignment: GroupAssignment | None
    error: NoSuchElementError | None = None


def _from_record(parts: list[tuple[int, list[int]]]) -> list[tuple[int, list[int]]]:
    """``Assignment.fromRecord``: a default ``HashMap`` filled in the record's topic order,
    ``new HashSet<>(partitions)`` per topic (an empty topic kept)."""
    read: JavaHashMap[int, JavaHashSet[int]] = JavaHashMap(hash_of=uuid_hash_code)
    for tid, ps in parts:
        read.put(tid, JavaHashSet.copy_of(ps))
    return [(tid, list(ps)) for tid, ps in read.items()]


def _same(a: list[tuple[int, list[int]]], b: list[tuple[int, list[int]]]) -> bool:
    """``Assignment.equals``: the same topics (empty ones count) with the same partitions."""
    return {t: frozenset(ps) for t, ps in a} == {t: frozenset(ps) for t, ps in b}


def simulate_share_group(
    steps: Iterable[ShareGroupSpec], kafka_version: str | KafkaVersion | None = None,
) -> tuple[ShareRound, ...]:
    """Run Kafka ``kafka_version``'s ``SimpleAssignor`` (default 4.3) over successive
    share-group states (see the module docstring): one :class:`ShareRound` per step. The
    steps' own ``assignment`` fields are ignored. Errors: :class:`~kpart.errors.ConfigError`
    for a version without share groups; Kafka's ``NoSuchElementException`` is recorded in its
    round, not raised."""
    current: Target = {}
    rounds: list[ShareRound] = []
    for index, step in enumerate(steps):
        spec = ShareGroupSpec(with_current_assignments(step.group, current), step.assignable)
        try:
            raw = simple_target(spec, kafka_version)
        except NoSuchElementError as e:
            rounds.append(ShareRound(index, spec, None, e))
            current = {m.member_id: current.get(m.member_id, []) for m in step.members}
            continue
        rounds.append(ShareRound(index, spec, spec.group.to_group_assignment(raw)))
        nxt: Target = {}
        for m in step.members:
            new = [(t, list(ps)) for t, ps in raw.get(m.member_id, [])]
            old = current.get(m.member_id)
            nxt[m.member_id] = old if old is not None and _same(new, old) else _from_record(new)
        current = nxt
    return tuple(rounds)
