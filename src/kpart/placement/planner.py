"""Minimal-movement reassignment planner (what ``kafka-reassign-partitions.sh --generate``
does not do: KAFKA-1792; the goal chain follows Cruise Control's ``GoalOptimizer``).

``plan(current, brokers, ...)`` is a pure function returning a :class:`Plan` value: the target
assignment, the :class:`~kpart.placement.reassign.Move` list (one per changed partition), the
moves ordered into batches in which no broker takes part in more than ``K`` moves, and the
counts (replicas moved, leader changes, bytes when partition sizes are known).

Phases, each moving a replica at most once:

1. **hard goals** (:data:`DEFAULT_GOALS`): replicas on removed brokers or outside their pool,
   and partitions spanning fewer racks than they could, move to the brokers furthest below
   their target;
2. **replica distribution**: brokers above their target (``q``/``q + 1`` of their pool's
   replicas, racks water-filled first) give replicas to brokers below it, nothing else moves;
3. **leader distribution**: preferred leaders swap inside partitions (no data moves).

Adding ``k`` brokers to a balanced cluster of ``B`` brokers holding ``R`` replicas moves at
most ``ceil(k * R / (B + k))`` replicas; removing a broker moves exactly its replicas.

>>> from kpart.placement.spec import Broker
>>> cur = {"t": {0: (0, 1), 1: (1, 2), 2: (2, 0), 3: (0, 1), 4: (1, 2), 5: (2, 0)}}
>>> p = plan(cur, [Broker(0), Broker(1), Broker(2)], add_brokers=[Broker(3)])
>>> p.replica_moves, sorted(n for _, n in p.replicas_per_broker())
(3, [3, 3, 3, 3])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, TypedDict, Unpack

from kpart._java.strings import java_string_key
from kpart.errors import AdminOperationError, ConfigError, OptimizationFailureError
from kpart.limits import check_cluster
from kpart.placement._goals import (
    DEFAULT_GOALS,
    BrokerSetAwareGoal,
    DistinctBrokersGoal,
    Goal,
    LeaderReplicaDistributionGoal,
    LeadershipMove,
    PlanState,
    RackAwareGoal,
    RemovedBrokersGoal,
    ReplicaDistributionGoal,
    ReplicaMove,
    ReplicationFactorGoal,
)
from kpart.placement._plan_state import State
from kpart.placement.cordon import cordoned_brokers, usable_brokers
from kpart.placement.plan import Plan, batch_moves, check_at_least_one, freeze_assignment
from kpart.placement.pools import PoolSpec
from kpart.placement.reassign import (
    ClusterAssignment,
    diff,
    generate_assignment,
    sorted_partitions,
    validate_assignment,
)
from kpart.placement.spec import Broker
from kpart.versions import KafkaVersion

#: The goals' former class names (before they took Cruise Control's): aliases.
PoolGoal = BrokerSetAwareGoal
LeaderDistributionGoal = LeaderReplicaDistributionGoal

__all__ = [
    "DEFAULT_GOALS",
    "BrokerSetAwareGoal",
    "DistinctBrokersGoal",
    "Goal",
    "LeaderDistributionGoal",
    "LeaderReplicaDistributionGoal",
    "LeadershipMove",
    "PlanOptions",
    "PlanState",
    "PoolGoal",
    "PoolPlanOptions",
    "RackAwareGoal",
    "RemovedBrokersGoal",
    "ReplicaDistributionGoal",
    "ReplicaMove",
    "ReplicationFactorGoal",
    "check_racks",
    "cluster_brokers",
    "place_in_pools",
    "plan",
    "plan_from_target",
    "plan_reassignment",
]


class _Racked(Protocol):
    """A broker as :func:`check_racks` reads it (:class:`Broker`, ``ClusterBroker``)."""

    @property
    def id(self) -> int: ...  # noqa: D102
    @property
    def rack(self) -> str | None: ...  # noqa: D102


def _ids(ids: Sequence[int], what: str = "broker") -> str:
    """``broker 5 has`` / ``brokers 5, 6 have`` (the first five, then how many more)."""
    shown = ", ".join(str(b) for b in ids[:5]) + (
        f" and {len(ids) - 5} more" if len(ids) > 5 else "")
    return f"{what} {shown} has" if len(ids) == 1 else f"{what}s {shown} have"


def check_racks(brokers: Sequence[_Racked], added: Sequence[_Racked] = (), *,
                racks_from: str = "--brokers") -> None:
    """Racks on every broker of the cluster after the change (``brokers`` and ``added``) or on
    none, as Kafka places replicas (``AdminUtils.assignReplicasToBrokers`` and KRaft's
    ``StripedReplicaPlacer`` refuse partial racks: "Not all brokers have rack information");
    with racks on some brokers only, the rackless ones would count as one rack ``null``.
    ``racks_from`` is the option that gave the cluster's racks (``--brokers``, or
    ``--snapshot`` for a cluster.json). :class:`AdminOperationError` naming the brokers
    without a rack (or the added ones with one) and how ``kpart plan`` gives racks:
    ``--add-brokers ID:RACK`` / ``--brokers ID:RACK``.

    >>> check_racks([Broker(1, "a"), Broker(2, "b")], [Broker(3)])
    Traceback (most recent call last):
    ...
    kpart.errors.AdminOperationError: --add-brokers: Not all brokers have rack information: \
added broker 3 has no rack while the cluster's brokers have racks (a, b); give each its rack \
as --add-brokers ID:RACK (e.g. --add-brokers 3:a)
    """
    added_ids = {b.id for b in added}
    every = [*brokers, *added]
    if len({b.rack is None for b in every}) < 2:
        return
    head = "Not all brokers have rack information"
    bare = sorted(b.id for b in every if b.rack is None)
    new_bare = [b for b in bare if b in added_ids]
    if new_bare:
        racks = sorted({b.rack for b in every if b.rack is not None})
        shown = ", ".join(racks[:6]) + (", ..." if len(racks) > 6 else "")
        raise AdminOperationError(
            f"--add-brokers: {head}: {_ids(new_bare, 'added broker')} no rack while the "
            f"cluster's brokers have racks ({shown}); give each its rack as "
            f"--add-brokers ID:RACK (e.g. --add-brokers {new_bare[0]}:{racks[0]})")
    if all(b.id in added_ids for b in every if b.rack is not None):
        new_racked = sorted(b.id for b in added if b.rack is not None)
        where = ("cluster.json has none" if racks_from == "--snapshot"
                 else "give theirs as --brokers ID:RACK,...")
        raise AdminOperationError(
            f"--add-brokers: {head}: {_ids(new_racked, 'added broker')} a rack while the "
            f"cluster's brokers have none ({where}); add them without a rack or give every "
            "broker its rack")
    if racks_from == "--snapshot":
        raise AdminOperationError(f"--snapshot: {head}: in cluster.json, {_ids(bare)} no rack "
                                  "while the others have one")
    raise AdminOperationError(f"--brokers: {head}: {_ids(bare)} no rack while the others "
                              "have one; give every broker its rack as --brokers ID:RACK,... "
                              "or none")


def cluster_brokers(
    current: Mapping[str, Mapping[int, Sequence[int]]],
    brokers: Sequence[Broker] | None = None,
) -> tuple[Broker, ...]:
    """The cluster: ``brokers`` (checked: unique ids, racks on all or none, every replica on
    a known broker) or, when ``None``, the brokers ``current`` uses, without racks.
    Errors: ``ConfigError``, ``AdminOperationError``, ``InvalidReplicaAssignmentError``."""
    if brokers is None:
        validate_assignment(current)
        ids = sorted({b for ps in current.values() for r in ps.values() for b in r})
        return tuple(Broker(b) for b in ids)
    seen: set[int] = set()
    for b in brokers:
        if b.id in seen:
            raise ConfigError(f"Broker list contains duplicate entries: [{b.id}]")
        seen.add(b.id)
    check_racks(brokers)
    validate_assignment(current, seen)
    return tuple(sorted(brokers, key=lambda b: b.id))


def _finish(
    current: Mapping[str, Mapping[int, Sequence[int]]],
    target: Mapping[str, Mapping[int, Sequence[int]]],
    cluster: Sequence[Broker],
    *,
    max_concurrent_moves_per_broker: int | None,
    sizes: Mapping[tuple[str, int], int] | None,
    hard_violations: tuple[tuple[str, int], ...] = (),
    max_moves_reached: bool = False,
) -> Plan:
    moves = diff(current, target)
    nbytes = None
    if sizes is not None:
        nbytes = sum(m.replica_moves * int(sizes.get((m.topic, m.partition), 0)) for m in moves)
    full = {t: dict(ps) for t, ps in current.items()}
    for t, ps in target.items():
        full[t].update(ps)
    check_at_least_one("max_concurrent_moves_per_broker", max_concurrent_moves_per_broker)
    return Plan(
        current=freeze_assignment(current),
        target=freeze_assignment(full),
        brokers=tuple(cluster),
        moves=moves,
        batches=batch_moves(moves, max_concurrent_moves_per_broker),
        replica_moves=sum(m.replica_moves for m in moves),
        leader_changes=sum(m.leader_change for m in moves),
        bytes_to_move=nbytes,
        hard_violations=hard_violations,
        max_moves_reached=max_moves_reached,
    )


def plan_from_target(
    current: Mapping[str, Mapping[int, Sequence[int]]],
    target: Mapping[str, Mapping[int, Sequence[int]]],
    brokers: Sequence[Broker],
    *,
    max_concurrent_moves_per_broker: int | None = None,
    sizes: Mapping[tuple[str, int], int] | None = None,
) -> Plan:
    """A :class:`Plan` moving ``current`` to a given ``target`` (e.g. ``--generate``'s)."""
    return _finish(
        current,
        target,
        brokers,
        max_concurrent_moves_per_broker=max_concurrent_moves_per_broker,
        sizes=sizes,
    )


class PoolPlanOptions(TypedDict, total=False):
    """The keyword options of :func:`place_in_pools`: those of :class:`PlanOptions` but
    ``pools``."""

    add_brokers: Sequence[Broker]
    remove_brokers: Iterable[int]
    max_moves: int | None
    max_concurrent_moves_per_broker: int | None
    sizes: Mapping[tuple[str, int], int] | None
    balance_leaders: bool
    rebalance: bool | None
    goals: Sequence[Goal]
    cordoned: Iterable[int]
    kafka_version: str | KafkaVersion | None


class PlanOptions(PoolPlanOptions, total=False):
    """The keyword options of :func:`plan` (all optional; defaults in brackets).

    ``add_brokers`` [``()``]: brokers joining the cluster; ``remove_brokers`` [``()``]: ids
    of brokers to empty; ``pools`` [``None``]: a :class:`~kpart.placement.pools.PoolSpec` each
    topic must end up inside; ``max_moves`` [``None``]: cap on replica moves;
    ``max_concurrent_moves_per_broker`` [``None``] (``K``): batch size per broker; ``sizes``
    [``None``]: ``{(topic, partition): bytes}``; ``balance_leaders`` [``True``]: run the
    leader phase; ``rebalance`` [``None``]: run the replica-distribution phase (``None``:
    unless the plan only removes brokers); ``goals`` [:data:`DEFAULT_GOALS`]: the goal chain;
    ``cordoned`` [``()``]: ids of brokers whose log dirs are all cordoned (KIP-1066): they keep
    their replicas and take no new one; ``kafka_version`` [``None``: the newest, 4.3]: the
    brokers' version, which must have cordoning (4.3.0+) when ``cordoned`` is given.
    """

    pools: PoolSpec | None


def _check_options(options: Mapping[str, object]) -> None:
    unknown = sorted(set(options) - PlanOptions.__optional_keys__)
    if unknown:
        raise TypeError(f"plan() got an unexpected keyword argument {unknown[0]!r}")


def _cluster_after(
    current: Mapping[str, Mapping[int, Sequence[int]]],
    base: Sequence[Broker],
    add_brokers: Sequence[Broker],
) -> tuple[Broker, ...]:
    """The cluster once ``add_brokers`` joined ``base`` (sorted by id). Errors:
    ``ConfigError`` (a broker added twice or already there), ``AdminOperationError`` (racks
    on some brokers only), kpart's size limits."""
    ids = {b.id for b in base}
    for b in add_brokers:
        if b.id in ids:
            raise ConfigError(f"Broker {b.id} is already in the cluster; it cannot be added.")
    cluster = tuple(sorted([*base, *add_brokers], key=lambda b: b.id))
    check_cluster(sum(len(ps) for ps in current.values()),
                  sum(len(r) for ps in current.values() for r in ps.values()), len(cluster))
    check_racks(base, add_brokers)
    if len({b.id for b in cluster}) != len(cluster):
        raise ConfigError.about("add_brokers", "Broker list contains duplicate entries in {param}")
    return cluster


def _removed(remove_brokers: Iterable[int], base: Sequence[Broker]) -> frozenset[int]:
    removed = frozenset(remove_brokers)
    ids = {b.id for b in base}
    for b in sorted(removed):
        if b not in ids:
            raise ConfigError.about("remove_brokers", "Unknown broker id {value} in {param}",
                                    value=b)
    return removed


def _allowed_brokers(
    current: Mapping[str, Mapping[int, Sequence[int]]],
    cluster: Sequence[Broker],
    removed: frozenset[int],
    pools: PoolSpec | None,
) -> dict[str, frozenset[int]]:
    """``{topic: brokers it may use}``: the live brokers of its pool (all live brokers
    without pools). Errors: ``ConfigError`` (a pool naming an unknown broker, every broker
    removed), ``OptimizationFailureError`` (``BrokerSetAwareGoal``: a topic whose pool, or the
    brokers outside every pool, has no broker left; ``.partition`` its first partition)."""
    live = [b.id for b in cluster if b.id not in removed]
    if pools is not None:
        pools.check_brokers(b.id for b in cluster)
        allowed_of = {t: pools.allowed(t, live) for t in current}
    else:
        every = frozenset(live)
        allowed_of = {t: every for t in current}
    pool_goal = BrokerSetAwareGoal().name
    for t in sorted(current, key=java_string_key):
        if not allowed_of[t]:
            if pools is not None and pools.pool_of(t) is None:
                raise OptimizationFailureError(
                    f"Infeasible {pool_goal}: topic {t!r} is in no pool and no broker "
                    "is left outside the pools", goal=pool_goal, partition=(t, min(current[t])))
            if pools is not None:
                raise OptimizationFailureError(
                    f"Infeasible {pool_goal}: no broker available for topic {t!r} "
                    "(empty pool after removal)", goal=pool_goal, partition=(t, min(current[t])))
            raise ConfigError(f"No broker available for topic {t!r} (empty pool after removal)")
    return allowed_of


def _optimize(state: State, max_moves: int | None, rebalance: bool,
              balance_leaders: bool) -> bool:
    """Cruise Control's goal chain on ``state``: hard goals, then replica distribution (within
    what ``max_moves`` leaves), then leader distribution. Returns whether ``max_moves``
    stopped the replica phase. Errors: ``ConfigError`` when the hard goals alone need more
    than ``max_moves`` moves."""
    hard_moves = state.fix_hard_goals()
    if max_moves is not None and hard_moves > max_moves:
        raise ConfigError.about(
            "max_moves", "{param} {value} is below the {needed} replica moves the hard goals "
            "need", value=max_moves, needed=hard_moves)
    tps = state.tps
    order = sorted(range(len(tps)), key=lambda i: (tps[i][1], java_string_key(tps[i][0])))
    budget = None if max_moves is None else max_moves - hard_moves
    if rebalance:
        state.balance_replicas(budget, order)
    if balance_leaders:
        state.balance_leaders(order)
    return budget is not None and state.soft_moves >= budget


def plan(
    current: Mapping[str, Mapping[int, Sequence[int]]],
    brokers: Sequence[Broker] | None = None,
    **options: Unpack[PlanOptions],
) -> Plan:
    """Plan a minimal-movement reassignment of ``current`` (``{topic: {partition:
    replicas}}``) on the cluster ``brokers`` (default: the brokers ``current`` uses) after
    adding ``add_brokers`` and removing ``remove_brokers``, inside ``pools`` if given (the
    keyword ``options``: :class:`PlanOptions`).

    ``max_moves`` caps the replica moves (the hard goals' moves are never cut: fewer allowed
    is an error); ``max_concurrent_moves_per_broker`` (``K``) shapes the batches; ``sizes``
    maps ``(topic, partition)`` to bytes. ``rebalance`` runs the replica-distribution phase;
    by default it runs unless the plan only removes brokers (a decommission moves exactly the
    removed brokers' replicas, to the brokers furthest below their share, as Cruise Control's
    ``remove_broker``). Errors: ``InvalidReplicaAssignmentError`` (duplicate
    replica, uneven RF, unknown broker), ``InvalidReplicationFactorError`` (a pool or the
    cluster too small), ``ConfigError`` (unknown broker to remove, broker added twice, bad
    option, naming the option: ``max_moves``, ...), ``AdminOperationError`` (racks on some
    brokers only); ``TypeError`` for an unknown option.

    >>> cur = {"t": {0: (0, 1), 1: (1, 0)}}
    >>> plan(cur, add_brokers=[Broker(2)]) == plan(cur, add_brokers=[Broker(2)])
    True
    >>> plan(cur, max_moves=-1)
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: Invalid max_moves -1: must be >= 0
    """
    _check_options(options)
    add_brokers = tuple(options.get("add_brokers", ()))
    max_moves = options.get("max_moves")
    base = cluster_brokers(current, brokers)
    cluster = _cluster_after(current, base, add_brokers)
    removed = _removed(options.get("remove_brokers", ()), base)
    if max_moves is not None and max_moves < 0:
        raise ConfigError.about("max_moves", "Invalid {param} {value}: must be >= 0",
                                value=max_moves)
    allowed_of = _allowed_brokers(current, cluster, removed, options.get("pools"))
    tps = sorted_partitions(current)
    reps = [list(current[t][p]) for t, p in tps]
    cordoned = cordoned_brokers(options.get("cordoned"), options.get("kafka_version"))
    usable_brokers(cluster, cordoned)  # every cordoned id is a broker of the cluster
    state = State(tps, reps, cluster, removed, allowed_of, options.get("goals", DEFAULT_GOALS),
                  cordoned)
    rebalance = options.get("rebalance")
    if rebalance is None:
        rebalance = not (removed and not add_brokers)
    reached = _optimize(state, max_moves, rebalance, options.get("balance_leaders", True))
    target: ClusterAssignment = {}
    for i, (t, p) in enumerate(tps):
        target.setdefault(t, {})[p] = tuple(state.reps[i])
    violations = tuple((name, n) for name, n in state.violations().items() if n)
    return _finish(
        current,
        target,
        [b for b in cluster if b.id not in removed],
        max_concurrent_moves_per_broker=options.get("max_concurrent_moves_per_broker"),
        sizes=options.get("sizes"),
        hard_violations=violations,
        max_moves_reached=reached,
    )


def place_in_pools(
    current: Mapping[str, Mapping[int, Sequence[int]]],
    brokers: Sequence[Broker] | None,
    pools: PoolSpec,
    *,
    strategy: str = "minimal",
    seed: int | None = None,
    **options: Unpack[PoolPlanOptions],
) -> Plan:
    """One reassignment plan moving every topic inside its pool.

    ``strategy="minimal"``: :func:`plan` with ``pools`` (pool membership is a hard goal:
    replicas already in their pool stay; the pool is balanced), ``options`` as there.
    ``strategy="generate"``: what seed 002 does with Kafka's tools, ``--generate`` over each
    pool's broker list (:func:`~kpart.placement.reassign.generate_assignment` with ``pools``:
    the placer of ``kafka_version``, default the newest, 4.3: AdminUtils up to 4.0.x,
    ``StripedReplicaPlacer`` from 4.1.0, KAFKA-18798; rack-aware inside the pool when racks
    are known, one ``java.util.Random(seed)``) for every topic not entirely inside its pool;
    of ``options`` it takes ``max_concurrent_moves_per_broker``, ``sizes`` and
    ``kafka_version`` only.
    Errors: ``ConfigError`` (and those of :func:`plan`); ``TypeError`` for an option the
    strategy does not take.

    >>> from kpart.placement.pools import parse_pools
    >>> spec = parse_pools('{"pools": {"p": [2, 3]}, "topics": {"t": "p"}}')
    >>> cur = {"t": {0: (0, 1), 1: (1, 0)}}
    >>> dict(place_in_pools(cur, [Broker(b) for b in range(4)], spec).target["t"])
    {0: (3, 2), 1: (2, 3)}
    """
    if strategy == "minimal":
        return plan(current, brokers, pools=pools, **options)
    if strategy != "generate":
        raise ConfigError(f"Unknown pool strategy {strategy!r}: expected 'minimal' or 'generate'")
    _check_options(options)
    unused = sorted(set(options) - {"max_concurrent_moves_per_broker", "sizes", "kafka_version"})
    if unused:
        raise TypeError(f"strategy 'generate' takes no {unused[0]!r}")
    cluster = cluster_brokers(current, brokers)
    target = generate_assignment(current, cluster, seed=seed, pools=pools, only_outside=True,
                                 kafka_version=options.get("kafka_version"))
    return plan_from_target(
        current, target, cluster,
        max_concurrent_moves_per_broker=options.get("max_concurrent_moves_per_broker"),
        sizes=options.get("sizes"),
    )


#: ``kpart.plan_reassignment``: :func:`plan` under a name that says what it plans.
plan_reassignment = plan

