"""Rebalance simulator: a consumer group through a sequence of membership and metadata
changes, run the way real Kafka consumers (``ConsumerCoordinator``) run the classic protocol.

Simulation rules (``tests/golden/FORMAT.md``, "Simulation rules"):

* a step lists the group's members, longest-standing first; the first is the leader; members
  absent from a step left the group; new members start at generation ``-1``, own nothing and
  send no sticky user data;
* each round produces generation ``g`` (1, 2, ... over the whole run); afterwards every member
  records ``g`` and the assignment it received, partitions grouped by topic as the consumer
  protocol delivers them;
* ``EAGER`` strategies (range, roundrobin, sticky): every member revokes all it owns before
  joining; the eager sticky assignor still sends its previous assignment (and generation) as
  user data, topics in ``java.util.HashMap`` order as ``StickyAssignor`` serialises them;
* ``COOPERATIVE`` strategies (cooperative-sticky): a member keeps what it owns, dropping only
  partitions of topics it no longer subscribes to before joining, and sends them as
  ``ownedPartitions`` (sorted by topic, partition); if any member loses an owned partition in
  a round, a follow-up round runs at once with the same membership, until none does (at most
  :data:`MAX_ROUNDS_PER_STEP` rounds: a step still revoking then is reported as not settled);
* ``CONSUMER`` strategies (KIP-848 ``uniform``, ``server-range``): no rounds of joins; each
  change makes the coordinator compute one new target from every member's current one
  (:mod:`kpart.consumer.coordinator._server_rebalance`); members give up, as with the cooperative
  protocol, only the partitions that move.

The simulator is strategy-generic: it runs the strategy's function and reads the protocol
from the :class:`~kpart.consumer.Strategy`, a registry entry (:data:`kpart.consumer.ASSIGNORS`)
or a value the caller builds (tests run Range under the cooperative protocol that way).

Scenarios (events such as ``join``/``leave``/``crash``/``subscribe``/``add_partitions``, in
JSON or TOML) are described in :mod:`kpart.consumer._scenario`; :func:`simulate` accepts a
scenario, a path-free scenario document, or a list of absolute steps (:class:`GroupSpec`).

Seed 003, RoundRobin: three consumers on three topics with 1/2/3 partitions subscribed
unevenly, then ``C0`` leaves (Kafka trunk gives the same as the seed):

>>> sim = simulate({"topics": {"t0": 1, "t1": 2, "t2": 3}, "steps": [
...     {"join": [{"id": "C0", "topics": ["t0"]}, {"id": "C1", "topics": ["t0", "t1"]},
...               {"id": "C2", "topics": ["t0", "t1", "t2"]}]},
...     {"leave": ["C0"]}]}, strategy="roundrobin")
>>> sim.steps[1].assignment.as_dict()
{'C1': {'t0': [0], 't1': [1]}, 'C2': {'t1': [0], 't2': [0, 1, 2]}}
>>> sim.steps[1].moved, sim.steps[1].paused, sim.steps[1].balance   # t0p0, t1p0, t1p1 moved
(3, 6, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from kpart._java.collections import JavaHashMap
from kpart.consumer import CONSUMER, COOPERATIVE, EAGER, JavaOrder, Strategy, get_strategy
from kpart.consumer._rounds import Pair, Round, Simulation, StepReport
from kpart.consumer._scenario import Scenario, as_scenario
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.coordinator._server_rebalance import simulate_server_rounds
from kpart.consumer.spec import GroupSpec, Member, OwnedPartitions
from kpart.errors import ConfigError, KpartError
from kpart.limits import check_assignment
from kpart.versions import behaviour

__all__ = [
    "MAX_ROUNDS_PER_STEP",
    "Round",
    "Simulation",
    "StepReport",
    "compare",
    "member_input_json",
    "simulate",
    "simulate_rounds",
]

#: Rounds run in one step at most. Kafka's cooperative protocol usually converges in two, but
#: Kafka does not promise that it converges (KAFKA-8767): the golden vectors' generator stopped
#: a step after 10 rounds (vector ``cooperative-sticky-1003-238`` still revokes in its tenth;
#: Kafka settles it after 38), and with rack-aware assignment the follow-up rounds can even
#: loop forever. The simulator stops there too and reports the step as not settled
#: (:attr:`StepReport.settled`), with the partitions still pending and the loop's period.
MAX_ROUNDS_PER_STEP = 10

#: ``(group, step index, round index) -> (assignment, Java list order or None)``.
AssignFn = Callable[[GroupSpec, int, int], tuple[GroupAssignment, JavaOrder | None]]


@dataclass(slots=True)
class _MemberState:
    generation: int = -1
    owned: OwnedPartitions = ()  # as the member will send it (protocol-specific order)
    has_user_data: bool = False


def _sticky_user_data(pairs: Sequence[Pair]) -> OwnedPartitions:
    """The eager sticky user data as the leader decodes it.

    ``StickyAssignor`` serialises the member's partitions (in the assignor's list order)
    grouped by ``CollectionUtils.groupPartitionsByTopic``: a ``HashMap`` filled by
    ``computeIfAbsent`` (:meth:`kpart._java.collections.JavaHashMap.compute_if_absent`:
    a new topic is linked at the head of its bucket, and the table resizes *before* a call
    once the size exceeds the threshold). Topics come out in that map's order, partitions in
    list order.
    """
    by_topic: JavaHashMap[str, list[int]] = JavaHashMap()
    for t, p in pairs:
        by_topic.compute_if_absent(t, list).append(p)
    return tuple((t, tuple(ps)) for t, ps in by_topic.items())


def _sorted_owned(pairs: Iterable[Pair]) -> OwnedPartitions:
    by_topic: dict[str, list[int]] = {}
    for t, p in pairs:
        by_topic.setdefault(t, []).append(p)
    return tuple((t, tuple(sorted(ps))) for t, ps in sorted(by_topic.items()))


def _default_assign_fn(strategy: Strategy) -> AssignFn:
    ordered = strategy.load_ordered()
    plain = strategy.load()

    def run(group: GroupSpec, step: int, rnd: int) -> tuple[GroupAssignment, JavaOrder | None]:
        if ordered is not None:
            return ordered(group)
        return plain(group), None

    return run


def _join(step: GroupSpec, states: dict[str, _MemberState], cooperative: bool) -> None:
    """Before a step's first round: members absent from it have left; new members start
    with nothing; a cooperative member drops the partitions of topics it no longer
    subscribes to (``ConsumerCoordinator.onJoinPrepare``)."""
    present = {m.member_id for m in step.members}
    for gone in [mid for mid in states if mid not in present]:
        del states[gone]
    for m in step.members:
        st = states.setdefault(m.member_id, _MemberState())
        if cooperative:
            subscribed = set(m.topics)
            st.owned = tuple((t, ps) for t, ps in st.owned if t in subscribed)


def _sync(
    members: Sequence[Member],
    states: dict[str, _MemberState],
    assignment: GroupAssignment,
    order: JavaOrder | None,
    generation: int,
    strat: Strategy,
) -> tuple[tuple[str, tuple[Pair, ...]], ...]:
    """After a round (SyncGroup): every member records the generation and what it received
    (``ConsumerCoordinator.onJoinComplete``); returns, for the cooperative protocol, the
    partitions each member owned and lost (``onPartitionsRevoked``)."""
    revoked: dict[str, tuple[Pair, ...]] = {}
    canonical: dict[str, OwnedPartitions] | None = None  # built once, if needed
    for m in members:
        got = order.get(m.member_id) if order is not None else None
        if got is not None:
            pairs = tuple(got)
        else:
            if canonical is None:
                canonical = dict(assignment.assignment)
            pairs = tuple((t, p) for t, ps in canonical[m.member_id] for p in ps)
        st = states[m.member_id]
        if strat.protocol == COOPERATIVE:
            kept = set(pairs)
            lost = tuple(tp for tp in m.owned_pairs if tp not in kept)
            if lost:
                revoked[m.member_id] = lost
            st.owned = _sorted_owned(pairs)
        elif strat.user_data:
            st.owned = _sticky_user_data(pairs)
        st.generation = generation
        st.has_user_data = True
    return tuple(revoked.items())


def simulate_rounds(
    steps: Sequence[GroupSpec],
    strategy: str | Strategy,
    *,
    assign_fn: AssignFn | None = None,
    max_rounds: int = MAX_ROUNDS_PER_STEP,
    on_step: Callable[[], None] | None = None,
) -> tuple[Round, ...]:
    """Run the group through ``steps`` (absolute memberships) and return every round.

    ``steps[i]``: the metadata and the members present at step ``i`` (ids, topics, racks,
    instance ids; generations and owned partitions are ignored: the simulator tracks them).
    ``strategy``: a name in :data:`~kpart.consumer.ASSIGNORS` or a
    :class:`~kpart.consumer.Strategy` value. ``assign_fn`` replaces the assignor (tests replay
    recorded assignments with it); a step runs at most ``max_rounds`` rounds; ``on_step()`` is
    called after each step (progress). An assignor error ends its step (recorded in the
    round) and members keep their previous state. Raises :class:`~kpart.errors.ConfigError`
    for an unknown strategy.
    """
    strat = get_strategy(strategy)
    if strat.protocol == CONSUMER and assign_fn is None:  # no join rounds: targets
        return simulate_server_rounds(steps, strat, on_step=on_step)
    run = assign_fn or _default_assign_fn(strat)
    states: dict[str, _MemberState] = {}
    rounds: list[Round] = []
    generation = 0
    for s, step in enumerate(steps):
        _join(step, states, strat.protocol == COOPERATIVE)
        leader = step.members[0].member_id if step.members else ""
        for r in range(max_rounds):
            members = tuple(_member_input(m, states[m.member_id], strat) for m in step.members)
            generation += 1
            try:
                assignment, order = run(step.with_members(members), s, r)
            except KpartError as e:
                rounds.append(Round(step=s, round=r, generation=generation, leader=leader,
                                    members=members, assignment=None, error=e))
                break
            revoked = _sync(members, states, assignment, order, generation, strat)
            rounds.append(Round(step=s, round=r, generation=generation, leader=leader,
                                members=members, assignment=assignment, revoked=revoked))
            if not revoked:
                break
        if on_step is not None:
            on_step()
    return tuple(rounds)


def _member_input(m: Member, st: _MemberState, strat: Strategy) -> Member:
    carries = strat.protocol == COOPERATIVE or strat.user_data
    return Member(
        member_id=m.member_id,
        topics=m.topics,
        rack=m.rack,
        group_instance_id=m.group_instance_id,
        generation=st.generation,
        owned_partitions=st.owned if carries else (),
        has_user_data=st.has_user_data if strat.user_data else True,
    )


def member_input_json(member: Member, strategy: str | Strategy) -> dict[str, Any]:
    """A round's member as the golden vectors record it ("member input" of FORMAT.md);
    ``has_user_data`` only for strategies sending sticky user data."""
    doc: dict[str, Any] = {
        "id": member.member_id,
        "topics": list(member.topics),
        "rack": member.rack,
        "instance_id": member.group_instance_id,
        "generation": member.generation,
        "owned": [[t, list(ps)] for t, ps in member.owned_partitions],
    }
    if get_strategy(strategy).user_data:
        doc["has_user_data"] = member.has_user_data
    return doc


def _owners(a: GroupAssignment | None) -> dict[Pair, str]:
    if a is None:
        return {}
    return {(t, p): m for m, owned in a.assignment for t, ps in owned for p in ps}


def _cycle(rounds: Sequence[Round]) -> int | None:
    """Period of a loop among a step's follow-up rounds, or ``None``.

    From the second round on every member carries the previous round's generation, so two
    follow-up rounds whose members own the same partitions are the same input to the
    (deterministic) assignor: everything after the first repeats forever.
    """
    seen: dict[tuple[tuple[str, OwnedPartitions], ...], int] = {}
    for r in rounds:
        if r.round == 0:
            continue
        key = tuple((m.member_id, m.owned_partitions) for m in r.members)
        if key in seen:
            return r.round - seen[key]
        seen[key] = r.round
    return None


def _reports(
    scenario: Scenario, rounds: Sequence[Round], strat: Strategy
) -> tuple[StepReport, ...]:
    by_step: dict[int, list[Round]] = {}
    for r in rounds:
        by_step.setdefault(r.step, []).append(r)
    cooperative = strat.protocol != EAGER  # CONSUMER: revokes only what moves, too
    reports = []
    before: dict[Pair, str] = {}
    for s, (change, group) in enumerate(zip(scenario.changes, scenario.groups, strict=True)):
        rs = by_step.get(s, [])
        last = rs[-1] if rs else None
        final = last.assignment if last is not None else None
        after = _owners(final) if final is not None else before
        moved = sum(1 for tp, owner in before.items() if tp in after and after[tp] != owner)
        topics_of = {m.member_id: set(m.topics) for m in group.members}
        if cooperative:
            dropped = sum(
                1
                for (t, _), owner in before.items()
                if owner in topics_of and t not in topics_of[owner]
            )
            revoked = dropped + sum(len(lost) for r in rs for _, lost in r.revoked)
            paused = moved
        else:
            revoked = sum(1 for owner in before.values() if owner in topics_of)
            paused = len(before)
        counts = list(final.partition_counts().values()) if final else []
        balance = max(counts) - min(counts) if counts else 0
        error = last.error if last is not None else None
        pending = 0
        if strat.protocol == COOPERATIVE and last is not None and error is None:
            pending = sum(len(lost) for _, lost in last.revoked)
        period = _cycle(rs) if pending else None
        reports.append(
            StepReport(
                step=s, change=change, rounds=len(rs), assignment=final, moved=moved,
                revoked=revoked, paused=paused, balance=balance, error=error,
                settled=not pending, pending=pending, cycle=period,
            )
        )
        before = after
    return tuple(reports)


def assignment_interval(scenario: Scenario, strategy: Strategy,
                        given: int | None = None) -> int:
    """``group.consumer.assignment.interval.ms`` for a KIP-848 ``strategy`` (KIP-1263):
    ``given`` (the command line), else the scenario's ``assignment_interval_ms``, else the
    brokers' default at the strategy's Kafka version (rule ``consumer_assignment_interval``:
    1,000 ms from 4.3, 0 before). A positive interval at a version without KIP-1263 is a
    :class:`~kpart.errors.ConfigError` naming it. Only timed steps (``at_ms``) are batched.

    >>> from kpart.consumer import get_strategy
    >>> sc = as_scenario({"topics": {"t": 2}, "steps": [{"join": [{"id": "A", "topics": ["t"]}]}]})
    >>> assignment_interval(sc, get_strategy("uniform")), assignment_interval(
    ...     sc, get_strategy("uniform").at_version("4.2.0"))
    (1000, 0)
    """
    default = int(behaviour("consumer_assignment_interval", strategy.kafka_version))
    value = given if given is not None else scenario.assignment_interval_ms
    if value is None:
        return default
    if value > 0 and default == 0:
        why = ("target assignment batching (KIP-1263) starts in Kafka 4.3.0; at "
               f"{strategy.kafka_version} every change computes a new target (give 0)")
        if given is None:
            raise ConfigError(f"scenario.assignment_interval_ms {value}: {why}")
        raise ConfigError.about("assignment_interval_ms", "{param} {value}: {why}",
                                value=value, why=why)
    return value


def simulate(
    steps: Any, strategy: str | Strategy = "range", *, on_step: Callable[[], None] | None = None,
    assignment_interval_ms: int | None = None,
) -> Simulation:
    """Simulate a scenario under ``strategy`` (a name in :data:`~kpart.consumer.ASSIGNORS` or
    a :class:`~kpart.consumer.Strategy` value) and report every step (``on_step()`` is called
    after each, for progress).

    ``steps``: a :class:`~kpart.consumer._scenario.Scenario`, a scenario document (dict, see
    :mod:`kpart.consumer._scenario`) or a sequence of absolute steps (:class:`GroupSpec`, or
    golden-style ``{"topics", "partition_racks"?, "members"}`` dicts). Raises
    :class:`~kpart.errors.ConfigError` naming the step and field of a bad scenario.

    Seed 003: three consumers, four topics × 2 partitions, then ``C1`` leaves (RoundRobin as
    in the seed; for the sticky assignors Kafka trunk, the oracle, differs from the seed's
    older Kafka: C0 ``t0p0, t0p1, t1p1, t3p0``, C2 ``t1p0, t2p0, t2p1, t3p1``):

    >>> four = ["t0", "t1", "t2", "t3"]
    >>> sim = simulate({"topics": dict.fromkeys(four, 2), "steps": [
    ...     {"join": [{"id": c, "topics": four} for c in ("C0", "C1", "C2")]},
    ...     {"leave": ["C1"]}]}, strategy="roundrobin")
    >>> sim.steps[0].assignment.as_dict()["C1"]
    {'t0': [1], 't2': [0], 't3': [1]}
    >>> sim.steps[1].assignment.as_dict()
    {'C0': {'t0': [0], 't1': [0], 't2': [0], 't3': [0]}, 'C2': {'t0': [1], 't1': [1], 't2': [1], 't3': [1]}}
    """
    scenario = as_scenario(steps)
    check_assignment(2 * sum(t.num_partitions for g in scenario.groups for t in g.topics),
                     f"simulating {len(scenario.groups):,} steps (every round's assignment kept)")
    strat = get_strategy(strategy)
    if strat.protocol == CONSUMER:
        rounds = simulate_server_rounds(
            scenario.groups, strat, topic_ids=scenario.topic_ids, changes=scenario.changes,
            on_step=on_step, times=scenario.times,
            interval_ms=assignment_interval(scenario, strat, assignment_interval_ms),
        )
    else:
        rounds = simulate_rounds(scenario.groups, strat, on_step=on_step)
    return Simulation(strat.name, rounds, _reports(scenario, rounds, strat))


def compare(
    steps: Any,
    strategies: Sequence[str | Strategy],
    *,
    on_step: Callable[[], None] | None = None,
    assignment_interval_ms: int | None = None,
) -> dict[str, Simulation]:
    """:func:`simulate` under several strategies (same scenario), keyed by strategy name."""
    scenario = as_scenario(steps)
    sims = (simulate(scenario, s, on_step=on_step, assignment_interval_ms=assignment_interval_ms)
            for s in strategies)
    return {sim.strategy: sim for sim in sims}
