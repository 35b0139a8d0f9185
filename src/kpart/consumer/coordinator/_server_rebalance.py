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
from its name (:func:`~kpart.consumer.coordinator.server_spec.derived_topic_id`, a version-4-shaped
``Uuid`` from SHA-256), so runs are reproducible. The Uniform assignor's ties can depend on
the ids, as in Kafka.

>>> from kpart.consumer import get_strategy
>>> from kpart.consumer.spec import GroupSpec, Member
>>> g = GroupSpec.from_json({"topics": {"t0": 4}, "members": [{"id": "A", "topics": ["t0"]}]})
>>> b_joins = g.with_members([*g.members, Member("B", ("t0",))])
>>> rounds = simulate_server_rounds([g, b_joins], get_strategy("uniform"))
>>> [r.assignment.as_dict() for r in rounds], rounds[1].revoked
([{'A': {'t0': [0, 1, 2, 3]}}, {'A': {'t0': [0, 1]}, 'B': {'t0': [2, 3]}}], (('A', (('t0', 2), ('t0', 3))),))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from kpart.consumer import Strategy
from kpart.consumer._rounds import Pair, Round
from kpart.consumer._scenario import StepChange
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.coordinator.server_simulation import read_back, with_current_assignments
from kpart.consumer.coordinator.server_spec import (
    DELETED_PREFIX,
    ServerGroupSpec,
    Target,
    derived_topic_id,
    server_group,
)
from kpart.consumer.spec import GroupSpec, Member
from kpart.errors import KpartError

__all__ = ["simulate_server_rounds"]


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


def _members_seen(spec: ServerGroupSpec, step: int) -> tuple[Member, ...]:
    """The step's members as a round records them: their current targets (topics that still
    exist) as owned partitions, the step index as generation."""
    return tuple(
        Member(
            member_id=m.member_id,
            topics=m.topics,
            rack=m.rack,
            group_instance_id=m.instance_id,
            generation=step,
            owned_partitions=tuple(
                (t, ps) for t, ps in m.assignment if not t.startswith(DELETED_PREFIX)
            ),
        )
        for m in spec.members
    )


def _revoked(
    spec: ServerGroupSpec, result: GroupAssignment, names: Mapping[int, str]
) -> tuple[tuple[str, tuple[Pair, ...]], ...]:
    """Per member, the partitions of its current target it loses in ``result``, counting only
    topics it still subscribes to (``names``: every topic id seen, deleted ones included)."""
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
    return tuple(revoked)


def simulate_server_rounds(
    steps: Sequence[GroupSpec],
    strategy: Strategy,
    *,
    topic_ids: Mapping[str, str] | None = None,
    changes: Sequence[StepChange] | None = None,
    on_step: Callable[[], None] | None = None,
    times: Sequence[int] | None = None,
    interval_ms: int = 0,
) -> tuple[Round, ...]:
    """One :class:`~kpart.consumer.rebalance.Round` per step under the KIP-848 ``strategy``:
    the target the coordinator computes from each member's current target (the previous
    step's, read back in Java's iteration order as
    :func:`~kpart.consumer.coordinator.server_simulation.simulate_server_group` does).
    ``revoked``: per member still in the group, the partitions it gives up (of topics it still
    subscribes to, deleted topics included). ``changes`` (the scenario's) tell when a deleted
    topic is created again, with a new id. An assignor error is recorded in its round and
    leaves the targets unchanged.

    KIP-1263 (Kafka 4.3, ``GroupMetadataManager.canComputeNextTargetAssignment``): with
    ``times`` (each step's time, ms) and ``interval_ms`` > 0, a step less than ``interval_ms``
    after the previous target computes none: its round is ``deferred`` (members keep their
    targets; a new member has none yet). The waiting changes are assigned together by the
    first heartbeat once the interval has elapsed: the next step's, when it comes at that
    moment or sooner, else a second round of the waiting step at exactly the end of the
    interval (in a group, some member's heartbeat, every ``heartbeat.interval.ms``, arrives
    about then; kpart takes that moment)."""
    run = strategy.load_server()
    current: Target = {}
    names: dict[int, str] = {}  # every topic id seen → its name (deleted topics included)
    rounds: list[Round] = []
    last_ms: int | None = None  # when the last target was computed (None: never)
    waiting: tuple[int, ServerGroupSpec] | None = None  # a deferred step: (index, its spec)

    def compute(s: int, r: int, spec: ServerGroupSpec, at: int | None) -> None:
        nonlocal current, last_ms
        seen = _members_seen(spec, s)
        try:
            raw = run(spec, True)
        except KpartError as e:
            rounds.append(Round(step=s, round=r, generation=s + 1, leader="", members=seen,
                                assignment=None, error=e, at_ms=at))
            current = {m.member_id: current.get(m.member_id, []) for m in spec.members}
        else:
            result = spec.to_group_assignment(raw)
            rounds.append(Round(step=s, round=r, generation=s + 1, leader="", members=seen,
                                assignment=result, revoked=_revoked(spec, result, names),
                                at_ms=at))
            current = read_back(spec, raw)
        last_ms = at

    for s, (step, ids) in enumerate(zip(steps, _ids_per_step(steps, topic_ids, changes),
                                        strict=True)):
        at = None if times is None else int(times[s])
        if waiting is not None and last_ms is not None and at is not None \
                and at > last_ms + interval_ms:
            w, wspec = waiting  # the waiting changes, assigned when the interval ended
            compute(w, 1, with_current_assignments(wspec, current), last_ms + interval_ms)
        waiting = None
        base = server_group(step, ids)  # the scenario's members own nothing themselves
        names.update((t.uuid, t.name) for t in base.topics)
        spec = with_current_assignments(base, current)
        if at is not None and last_ms is not None and interval_ms > 0 \
                and at < last_ms + interval_ms:
            kept = {m.member_id: current.get(m.member_id, []) for m in spec.members}
            rounds.append(Round(step=s, round=0, generation=s + 1, leader="",
                                members=_members_seen(spec, s),
                                assignment=spec.to_group_assignment(kept), at_ms=at,
                                deferred=True))
            current = kept
            waiting = (s, base)
        else:
            compute(s, 0, spec, at)
        if on_step is not None:
            on_step()
    if waiting is not None and last_ms is not None:
        w, wspec = waiting
        compute(w, 1, with_current_assignments(wspec, current), last_ms + interval_ms)
    return tuple(rounds)
