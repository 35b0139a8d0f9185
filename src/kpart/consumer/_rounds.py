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
    """

    step: int
    round: int
    generation: int
    leader: str
    members: tuple[Member, ...]
    assignment: GroupAssignment | None
    error: KpartError | None = None
    revoked: tuple[tuple[str, tuple[Pair, ...]], ...] = ()


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
    """A whole run under one strategy (``strategy``: its name): every round, and one report
    per step."""

    strategy: str
    rounds: tuple[Round, ...]
    steps: tuple[StepReport, ...] = field(default=())
