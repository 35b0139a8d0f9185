"""KIP-848 (``group.protocol=consumer``) groups in the classic-group tools: ``kpart.assign``
and the rebalance simulator run the group coordinator's ``uniform`` and ``range`` assignors
(``org.apache.kafka.coordinator.group.assignor.UniformAssignor`` / ``RangeAssignor`` behind
``TargetAssignmentBuilder``) on a :class:`~kpart.consumer.spec.GroupSpec`.

Under the consumer protocol there are no JoinGroup rounds: on every change the coordinator
computes a new target assignment from each member's current one, and members reconcile
towards it. A partition moving to another member is first revoked by its owner and assigned
once released (as with the cooperative protocol, but without follow-up rebalances: one target
per change). So a simulated step has one round, ``revoked`` counts the partitions members
still in the group give up, and only those (plus a departed member's) pause.

Topic ids: KIP-848 assignors see topics by ``Uuid``. Kafka draws them at random when a topic
is created; here a topic's id is the one the scenario gives (``topic_ids``), else one derived
from its name (:func:`derived_topic_id`, a version-4-shaped ``Uuid`` from SHA-256), so runs
are reproducible. The Uniform assignor's ties can depend on the ids, as in Kafka.

>>> from kpart.consumer.spec import GroupSpec
>>> g = GroupSpec.from_json({"topics": {"t0": 4}, "members": [
...     {"id": "A", "topics": ["t0"], "owned": [["t0", [0, 1, 2, 3]]]},
...     {"id": "B", "topics": ["t0"]}]})
>>> assign_server_uniform(g).as_dict()
{'A': {'t0': [0, 1]}, 'B': {'t0': [2, 3]}}
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from kpart._java.uuid import uuid_to_string
from kpart.consumer._scenario import StepChange
from kpart.consumer.server_simulation import read_back, with_current_assignments
from kpart.consumer.server_spec import ServerGroupSpec, ServerMember, ServerTopic
from kpart.consumer.spec import GroupAssignment, GroupSpec, Member
from kpart.consumer.uniform_assignor import server_assign, server_target
from kpart.errors import KpartError

if TYPE_CHECKING:
    from kpart.consumer.rebalance import Round

__all__ = [
    "assign_server_range",
    "assign_server_uniform",
    "derived_topic_id",
    "server_group",
    "simulate_server_rounds",
]

#: Strategy name → server-side assignor name (``group.remote.assignor``).
SERVER_STRATEGIES = {"uniform": "uniform", "server-range": "range"}


def derived_topic_id(name: str) -> str:
    """A reproducible topic id for ``name``: SHA-256 of the name, shaped like the version-4
    ``Uuid`` Kafka draws (never one Kafka reserves, never starting with ``-``).

    >>> derived_topic_id("t0") == derived_topic_id("t0") != derived_topic_id("t1")
    True
    """
    counter = 0
    while True:
        digest = bytearray(hashlib.sha256(f"{counter}:{name}".encode()).digest()[:16])
        digest[6] = (digest[6] & 0x0F) | 0x40  # version 4
        digest[8] = (digest[8] & 0x3F) | 0x80  # IETF variant
        text = uuid_to_string(int.from_bytes(digest, "big"))
        if not text.startswith("-"):
            return text
        counter += 1


def server_group(
    group: GroupSpec, topic_ids: Mapping[str, str] | None = None
) -> ServerGroupSpec:
    """``group`` as the coordinator's assignor sees it: topics with ids (``topic_ids`` or
    :func:`derived_topic_id`), each member's ``owned_partitions`` as its current assignment
    (in the given order), topics the metadata lacks dropped from it."""
    ids = topic_ids or {}
    topics = tuple(
        ServerTopic(t.name, ids.get(t.name) or derived_topic_id(t.name), t.num_partitions)
        for t in group.topics
    )
    known = {t.name for t in group.topics}
    members = tuple(
        ServerMember(
            m.member_id,
            tuple(sorted(m.topics)),
            m.group_instance_id,
            m.rack,
            tuple((t, ps) for t, ps in m.owned_partitions if t in known and ps),
        )
        for m in group.members
    )
    return ServerGroupSpec(topics, members)


def assign_server_uniform(group: GroupSpec) -> GroupAssignment:
    """The KIP-848 ``uniform`` assignor on ``group`` (members' ``owned_partitions`` = their
    current target assignment). Errors: ``PartitionAssignorError`` as Kafka's."""
    return server_assign(server_group(group), "uniform")


def assign_server_range(group: GroupSpec) -> GroupAssignment:
    """The KIP-848 server-side ``range`` assignor on ``group`` (see
    :func:`assign_server_uniform`)."""
    return server_assign(server_group(group), "range")


def _ids_per_step(
    steps: Sequence[GroupSpec],
    topic_ids: Mapping[str, str] | None,
    changes: Sequence[StepChange] | None,
) -> list[dict[str, str]]:
    """Each step's ``name → topic id``: the scenario's id (or the derived one) for a topic's
    first incarnation; a topic created again after being deleted gets a new id, as Kafka
    gives it."""
    ids = dict(topic_ids or {})
    incarnation: dict[str, int] = {}
    out = []
    for s, step in enumerate(steps):
        change = changes[s] if changes is not None else None
        for name in change.created if change is not None else ():
            if name in incarnation:
                incarnation[name] += 1
                ids[name] = derived_topic_id(f"{name}#{incarnation[name]}")
        for t in step.topics:
            incarnation.setdefault(t.name, 0)
            ids.setdefault(t.name, derived_topic_id(t.name))
        out.append({t.name: ids[t.name] for t in step.topics})
    return out


def simulate_server_rounds(
    steps: Sequence[GroupSpec],
    strategy: str,
    *,
    topic_ids: Mapping[str, str] | None = None,
    changes: Sequence[StepChange] | None = None,
    on_step: Callable[[], None] | None = None,
) -> tuple[Round, ...]:
    """One :class:`~kpart.consumer.rebalance.Round` per step: the target the coordinator
    computes from each member's current target (the previous step's, read back in Java's
    iteration order as :func:`~kpart.consumer.server_simulation.simulate_server_group` does).
    ``revoked``: per member still in the group, the partitions it gives up (of topics it
    still subscribes to, deleted topics included). ``changes`` (the scenario's) tell when a
    deleted topic is created again, with a new id. An assignor error is recorded in its
    round and leaves the targets unchanged."""
    from kpart.consumer.rebalance import Round  # noqa: F811 -- rebalance imports this module

    assignor = SERVER_STRATEGIES[strategy]
    current: dict[str, list[tuple[int, list[int]]]] = {}
    names: dict[int, str] = {}  # every topic id seen → its name (deleted topics included)
    rounds = []
    for s, (step, ids) in enumerate(zip(steps, _ids_per_step(steps, topic_ids, changes),
                                        strict=True)):
        base = server_group(step, ids)  # the scenario's members own nothing themselves
        names.update((t.uuid, t.name) for t in base.topics)
        spec = with_current_assignments(base, current)
        seen = tuple(
            Member(m.member_id, m.topics, m.rack, m.instance_id, s,
                   tuple((t, ps) for t, ps in m.assignment if not t.startswith("id:")))
            for m in spec.members
        )
        try:
            raw = server_target(spec, assignor)
        except KpartError as e:
            rounds.append(Round(s, 0, s + 1, "", seen, None, e))
            current = {m.member_id: current.get(m.member_id, []) for m in spec.members}
        else:
            result = spec.to_group_assignment(raw)
            got = dict(result.assignment)
            revoked = []
            for m in spec.members:
                subscribed = set(m.topics)
                kept = {(t, p) for t, ps in got[m.member_id] for p in ps}
                lost = tuple(
                    (t, p)
                    for t, ps in m.assignment
                    if names.get(spec.topic_uuid(t), t) in subscribed
                    for p in ps
                    if (t, p) not in kept
                )
                if lost:
                    revoked.append((m.member_id, lost))
            rounds.append(Round(s, 0, s + 1, "", seen, result, None, tuple(revoked)))
            current = read_back(spec, raw)
        if on_step is not None:
            on_step()
    return tuple(rounds)

