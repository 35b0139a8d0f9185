"""The values a rebalance simulation produces: rounds, step reports, a whole run.

Both simulators build them: :mod:`kpart.consumer.rebalance` (the classic protocol's
JoinGroup/SyncGroup rounds, ``ConsumerCoordinator``) and
:mod:`kpart.consumer.coordinator._server_rebalance` (KIP-848: one target assignment per change,
``TargetAssignmentBuilder``). Frozen values, built with keywords; :mod:`kpart.consumer.rebalance`
documents the simulation rules.

>>> from kpart.consumer.spec import Member
>>> r = Round(step=0, round=0, generation=1, leader="C0",
...           members=(Member("C0", ("t0",)),), assignment=None)
>>> r.revoked, r.error is None
((), True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kpart.consumer._scenario import StepChange
from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.spec import Member
from kpart.errors import KpartError

__all__ = ["Pair", "Round", "Simulation", "StepReport"]

#: A partition: ``(topic, partition)``.
Pair = tuple[str, int]


@dataclass(frozen=True, slots=True, kw_only=True)
class Round:
    """One JoinGroup/SyncGroup round (KIP-848: one target computation): what the assignor
    saw and what it returned.

    ``step``/``round``: indexes (a KIP-848 step has one round); ``generation``: the group
    generation the round produces (KIP-848: the group epoch); ``leader``: the classic group's
    leader (``""`` under KIP-848: the coordinator assigns). ``members``: the subscriptions
    (generation, owned partitions, user data flag) in the step's order; ``assignment`` is
    ``None`` when the assignor raised ``error``; ``revoked``: member → partitions it owned when
    joining and lost in this round.

    Shapes: ``members`` one :class:`~kpart.consumer.spec.Member` per member present;
    ``revoked`` ``((member id, ((topic, partition), ...)), ...)``, only members that lost
    something, in ``members`` order. Under the cooperative protocol a step whose assignment
    takes partitions away runs a second round (the follow-up rebalance), as below: round 0
    revokes ``t-2`` and ``t-3`` from ``A``, round 1 gives them to ``B``.

    >>> from kpart.consumer.rebalance import simulate
    >>> sim = simulate({"topics": {"t": 4}, "steps": [
    ...     {"join": [{"id": "A", "topics": ["t"]}]}, {"join": [{"id": "B", "topics": ["t"]}]}]},
    ...     strategy="cooperative-sticky")
    >>> [(r.step, r.round, r.generation, r.leader, r.revoked) for r in sim.rounds]
    [(0, 0, 1, 'A', ()), (1, 0, 2, 'A', (('A', (('t', 2), ('t', 3))),)), (1, 1, 3, 'A', ())]
    >>> sim.rounds[2].assignment.as_dict()
    {'A': {'t': [0, 1]}, 'B': {'t': [2, 3]}}
    """

    step: int
    round: int
    generation: int
    leader: str
    members: tuple[Member, ...]
    assignment: GroupAssignment | None
    error: KpartError | None = None
    revoked: tuple[tuple[str, tuple[Pair, ...]], ...] = ()
    #: KIP-848 with timed steps: when the target was computed (ms), else ``None``.
    at_ms: int | None = None
    #: KIP-1263: no target was computed (the assignment interval had not elapsed since the
    #: previous one); ``assignment`` is the previous target of the members still present
    #: (nothing yet for those who just joined).
    deferred: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class StepReport:
    """What one step did to the group under one strategy.

    ``moved``: partitions whose owner after the step differs from their owner before it (a
    partition of a member that left counts); ``revoked``: partitions members gave up
    (``onPartitionsRevoked``) during the step's rounds, all owned ones for eager protocols;
    ``paused``: partitions not consumed during the rebalance (eager: every partition that was
    owned; cooperative: only the moved ones); ``balance``: max − min partitions per member.

    ``settled``: ``False`` when the cooperative protocol was still revoking partitions in the
    step's last round, i.e. the group had not converged after
    :data:`~kpart.consumer.rebalance.MAX_ROUNDS_PER_STEP` rounds (Kafka would keep running
    follow-up rebalances); ``assignment`` is then the last round's, and ``pending`` partitions
    (revoked in it) are owned by nobody. ``cycle``: when the follow-up rounds of an unsettled
    step repeat (a round's subscriptions equal an earlier follow-up round's, so the
    deterministic assignor answers the same again), their period in rounds: the group would
    rebalance forever.

    Units: ``rounds`` counts the step's rounds (JoinGroup/SyncGroup, or KIP-848 target
    computations); ``moved``, ``revoked``, ``paused``, ``balance`` and ``pending`` count
    partitions (``(topic, partition)`` pairs, summed over topics). ``step``: the index into the
    scenario's steps; ``change``: what the step did (joined, left, crashed, ... members);
    ``assignment``: the group's assignment after the step (``None`` when the assignor raised
    ``error``, the members then keep their previous partitions).

    >>> from kpart.consumer.rebalance import simulate
    >>> sim = simulate({"topics": {"t": 4}, "steps": [
    ...     {"join": [{"id": "A", "topics": ["t"]}]}, {"join": [{"id": "B", "topics": ["t"]}]}]},
    ...     strategy="cooperative-sticky")
    >>> s = sim.steps[1]
    >>> s.change.joined, s.rounds, s.moved, s.revoked, s.paused, s.balance, s.settled
    (('B',), 2, 2, 2, 2, 0, True)
    """

    step: int
    change: StepChange
    rounds: int
    assignment: GroupAssignment | None
    moved: int
    revoked: int
    paused: int
    balance: int
    error: KpartError | None = None
    settled: bool = True
    pending: int = 0
    cycle: int | None = None


@dataclass(frozen=True, slots=True)
class Simulation:
    """A whole run under one strategy (``strategy``: its name, e.g. ``"range"``): every
    round in the order it ran (``rounds``: all steps' rounds, each step's ``round`` 0 first),
    and one report per step (``steps[i]`` for step ``i``; ``len(steps)`` = the scenario's
    steps). Built by :func:`kpart.consumer.rebalance.simulate`.

    >>> from kpart.consumer.rebalance import simulate
    >>> sim = simulate({"topics": {"t": 4}, "steps": [
    ...     {"join": [{"id": "A", "topics": ["t"]}]}, {"join": [{"id": "B", "topics": ["t"]}]}]},
    ...     strategy="range")
    >>> sim.strategy, len(sim.rounds), len(sim.steps), sim.steps[1].paused
    ('range', 2, 2, 4)
    """

    strategy: str
    rounds: tuple[Round, ...]
    steps: tuple[StepReport, ...] = field(default=())
