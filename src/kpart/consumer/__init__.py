"""Consumer-group assignment (partition → member), as Kafka's assignors compute it.

Kafka has two families of assignors, configured by two settings:

- the classic protocol's client-side assignors, ``partition.assignment.strategy``:
  ``range``, ``roundrobin``, ``sticky``, ``cooperative-sticky``;
- KIP-848's group-coordinator assignors (``group.protocol=consumer``),
  ``group.remote.assignor``: ``uniform``, ``range``.

One registry, :data:`ASSIGNORS`, holds both: ``name → Strategy``, where each
:class:`Strategy` names its function (imported lazily), its rebalance ``protocol``
(``EAGER``, ``COOPERATIVE``, or ``CONSUMER`` for the KIP-848 family, which is how the two
families are told apart) and whether the previous assignment travels as user data (the eager
``StickyAssignor``). **Names**: an assignor's registry name is Kafka's name for it, unique
across both families; Kafka's two settings share one value, ``range``, which names the classic
``RangeAssignor`` here, so the coordinator's ``RangeAssignor`` is ``server-range`` (its
:attr:`Strategy.kafka_name` is ``range``). Everything takes these names, or a
:class:`Strategy` value itself: :func:`assign`, the rebalance simulator
(:mod:`kpart.consumer.rebalance`), ``kpart assign``/``kpart rebalance --strategy`` and
topology files. The entry points that only run KIP-848 assignors on a
:class:`~kpart.consumer.coordinator.server_spec.ServerGroupSpec` (:func:`server_assign`,
:func:`server_target`, :func:`~kpart.consumer.coordinator.server_simulation.simulate_server_group`,
``kpart server-assign --assignor``) also accept ``range`` for ``server-range``: an alias, since
there the family is known and Kafka's golden KIP-848 vectors name the assignor that way.
Registering an assignor is one line in :data:`ASSIGNORS`.

**Layout**, after Kafka's two subsystems: :mod:`kpart.consumer.classic` holds the client-side
assignors (``org.apache.kafka.clients.consumer``) and :mod:`kpart.consumer.coordinator` the
group coordinator's (``org.apache.kafka.coordinator.group.assignor``, KIP-848). What both
share stays here: the group as input (:mod:`kpart.consumer.spec`), the assignment as output
(:mod:`kpart.consumer.assignment`), and the rebalance simulator (:mod:`kpart.consumer.rebalance`,
with its scenarios and round values), which runs either family.

>>> from kpart.consumer.spec import GroupSpec
>>> g = GroupSpec.from_json({"topics": {"t0": 3, "t1": 3},
...                          "members": [{"id": "C0", "topics": ["t0", "t1"]},
...                                      {"id": "C1", "topics": ["t0", "t1"]}]})
>>> assign(g).to_json()
{'assignment': {'C0': {'t0': [0, 1], 't1': [0, 1]}, 'C1': {'t0': [2], 't1': [2]}}}
>>> assign(g, "roundrobin").as_dict()["C0"]
{'t0': [0, 2], 't1': [1]}
>>> get_strategy("server-range").kafka_name, server_strategy("range").name
('range', 'server-range')
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal, cast

from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.spec import GroupSpec
from kpart.errors import ConfigError
from kpart.limits import check_assignment
from kpart.versions import KafkaVersion, behaviour
from kpart.versions import kafka_version as _parse_version

if TYPE_CHECKING:
    from kpart.consumer.coordinator.server_spec import ServerGroupSpec, Target

__all__ = [
    "ASSIGNORS",
    "CONSUMER",
    "COOPERATIVE",
    "EAGER",
    "Strategy",
    "assign",
    "default_strategy",
    "get_strategy",
    "server_assign",
    "server_strategy",
    "server_target",
]

EAGER: Literal["EAGER"] = "EAGER"
COOPERATIVE: Literal["COOPERATIVE"] = "COOPERATIVE"
#: KIP-848 ``group.protocol=consumer``: the group coordinator computes the target assignment.
CONSUMER: Literal["CONSUMER"] = "CONSUMER"

#: ``member id → [(topic, partition), ...]`` in the order of the assignor's Java list.
JavaOrder = Mapping[str, Sequence[tuple[str, int]]]
#: A classic assignor: ``(GroupSpec) -> GroupAssignment``.
AssignorFn = Callable[[GroupSpec], GroupAssignment]
#: The order-preserving variant of a classic assignor.
OrderedFn = Callable[[GroupSpec], tuple[GroupAssignment, JavaOrder]]
#: A KIP-848 assignor: ``(ServerGroupSpec, java_order) -> Target`` (``java_order=False``
#: lets it skip ordering its result maps when only the canonical assignment is wanted).
ServerFn = Callable[["ServerGroupSpec", bool], "Target"]


@dataclass(frozen=True, slots=True)
class Strategy:
    """An assignor: how to run it, and how its consumers rebalance.

    - ``name``: its name in :data:`ASSIGNORS` (``"range"``, ``"server-range"``).
    - ``target``: the function, or ``"module:function"`` (imported on first use). Classic
      protocols: ``(GroupSpec) -> GroupAssignment``. ``CONSUMER``: ``(ServerGroupSpec,
      java_order: bool) -> Target`` (member id → ``[(topic id, [partitions])]``).
    - ``protocol``: ``"EAGER"`` (members revoke everything before each join),
      ``"COOPERATIVE"`` (members keep what they own; moved partitions are revoked first) or
      ``"CONSUMER"`` (KIP-848: the coordinator's assignor computes a target from each member's
      current assignment, ``Member.owned_partitions``; one target per change).
    - ``user_data``: the eager sticky assignor: members send their previous assignment and
      generation as user data (``Member.owned_partitions``, ``generation``, ``has_user_data``).
    - ``ordered``: optional, like ``target``: ``(GroupSpec) -> (GroupAssignment, JavaOrder)``,
      giving each member's partitions in the order of Kafka's assignment list (the simulator
      needs it to rebuild the sticky user data exactly).
    - ``kafka_name``: the value of Kafka's setting (``partition.assignment.strategy`` or
      ``group.remote.assignor``) when it differs from ``name``.
    - ``rules``: the rules of :mod:`kpart.versions` the assignor follows; when there are
      some, ``target`` (and ``ordered``) take ``kafka_version=`` (the brokers' version for
      ``CONSUMER`` assignors, the client's for the classic ones); ``kafka_version``: the
      version it runs as (``None``: the newest release, 4.3). :meth:`at_version` binds one, checked against every rule:
      ``simulate(doc, get_strategy("uniform").at_version("4.0.0"))``.

    A strategy that is not registered can be passed as a value wherever a name is taken:

    >>> coop_range = Strategy("coop-range", "kpart.consumer.classic.range_assignor:assign_range",
    ...                       COOPERATIVE)
    >>> get_strategy(coop_range) is coop_range
    True
    """

    name: str
    target: str | Callable[..., object]
    protocol: Literal["EAGER", "COOPERATIVE", "CONSUMER"] = EAGER
    user_data: bool = False
    ordered: str | Callable[..., object] | None = None
    kafka_name: str | None = None
    rules: tuple[str, ...] = ()
    kafka_version: str | None = None

    @property
    def versioned(self) -> bool:
        """Whether the assignor follows a Kafka version (``rules`` is not empty)."""
        return bool(self.rules)

    def at_version(self, kafka_version: str | KafkaVersion | None) -> Strategy:
        """This strategy run as Kafka ``kafka_version`` computes it (``None``: the newest
        release). Raises :class:`~kpart.errors.ConfigError` for a version kpart does not
        know, or where one of the strategy's rules has no single answer (the assignor does
        not exist there, kpart does not model it, or a release line whose releases differ),
        and for a strategy that follows no rule (one built by hand, without ``rules``): never
        another version's answer. The KIP-848 assignors follow the brokers' version, the
        classic ones the client's (``cooperative-sticky`` exists from 2.4.0).

        >>> str(get_strategy("uniform").at_version("4.0.0").kafka_version)
        '4.0.0'
        >>> get_strategy("cooperative-sticky").at_version("2.3")
        Traceback (most recent call last):
        ...
        kpart.errors.ConfigError: The cooperative-sticky assignor does not exist in kafka_version '2.3': CooperativeStickyAssignor was added in 2.4.0 (KAFKA-8179); kpart supports it for 2.4.0 to 4.3.1
        """
        version = _parse_version(kafka_version)
        if not self.rules:
            raise ConfigError.about(
                "kafka_version", "{param} {value!r}: kpart does not model the {name} assignor "
                "by Kafka version (a strategy without rules of kpart.versions)",
                value=str(version), name=self.name)
        for rule in self.rules:
            behaviour(rule, version)
        return replace(self, kafka_version=str(version))

    @property
    def config_name(self) -> str:
        """The value Kafka's setting takes for this assignor (``kafka_name`` or ``name``)."""
        return self.kafka_name or self.name

    def load(self) -> AssignorFn:
        """The function assigning a classic :class:`GroupSpec` (imported on first use). A
        ``CONSUMER`` strategy runs on the group as the coordinator sees it: members'
        ``owned_partitions`` are their current targets
        (:func:`~kpart.consumer.coordinator.server_spec.server_group`)."""
        if self.protocol == CONSUMER:
            run = self.load_server()

            def on_group(group: GroupSpec) -> GroupAssignment:
                from kpart.consumer.coordinator.server_spec import server_group

                spec = server_group(group)
                return spec.to_group_assignment(run(spec, False))

            return on_group
        return cast(AssignorFn, self._bound(_resolve(self.target)))

    def load_ordered(self) -> OrderedFn | None:
        """The order-preserving variant, or ``None`` when the strategy has none."""
        return None if self.ordered is None else cast(OrderedFn,
                                                      self._bound(_resolve(self.ordered)))

    def _bound(self, run: Callable[..., object]) -> Callable[..., object]:
        """``run`` with the strategy's ``kafka_version`` when it follows rules."""
        return functools.partial(run, kafka_version=self.kafka_version) if self.versioned else run

    def load_server(self) -> ServerFn:
        """A ``CONSUMER`` strategy's function on a ``ServerGroupSpec``; :class:`ConfigError`
        for a classic one."""
        if self.protocol != CONSUMER:
            raise ConfigError(
                f"Strategy {self.name!r} is a classic assignor, not a KIP-848 server-side one."
            )
        run = _resolve(self.target)
        if self.versioned:
            run = functools.partial(run, kafka_version=self.kafka_version)
        return cast("ServerFn", run)


def _resolve(target: str | Callable[..., object]) -> Callable[..., object]:
    if not isinstance(target, str):
        return target
    module, _, attr = target.partition(":")
    return cast(Callable[..., object], getattr(importlib.import_module(module), attr))


#: name → :class:`Strategy`. One line per assignor.
ASSIGNORS: dict[str, Strategy] = {
    "range": Strategy("range", "kpart.consumer.classic.range_assignor:assign_range",
                      rules=("classic_range",)),
    "roundrobin": Strategy(
        "roundrobin", "kpart.consumer.classic.round_robin_assignor:assign_round_robin",
        rules=("classic_round_robin",),
    ),
    "sticky": Strategy(
        "sticky",
        "kpart.consumer.classic.sticky_assignor:assign_sticky",
        user_data=True,
        ordered="kpart.consumer.classic.sticky_assignor:assign_sticky_ordered",
        rules=("classic_sticky",),
    ),
    "cooperative-sticky": Strategy(
        "cooperative-sticky",
        "kpart.consumer.classic.cooperative_sticky_assignor:assign_cooperative_sticky",
        protocol=COOPERATIVE,
        ordered=(
            "kpart.consumer.classic.cooperative_sticky_assignor:assign_cooperative_sticky_ordered"
        ),
        rules=("cooperative_sticky", "classic_sticky"),
    ),
    "uniform": Strategy(
        "uniform", "kpart.consumer.coordinator.uniform_assignor:uniform_target", protocol=CONSUMER,
        rules=("uniform_homogeneous", "subscription_names_set", "uniform_heterogeneous"),
    ),
    "server-range": Strategy(
        "server-range",
        "kpart.consumer.coordinator.server_range_assignor:range_target",
        protocol=CONSUMER,
        kafka_name="range",
        rules=("server_range",),
    ),
}


def get_strategy(strategy: str | Strategy) -> Strategy:
    """The :class:`Strategy` called ``strategy`` in :data:`ASSIGNORS` (a :class:`Strategy`
    value is returned as it is); :class:`ConfigError` for an unknown name."""
    if isinstance(strategy, Strategy):
        return strategy
    found = ASSIGNORS.get(strategy)
    if found is None:
        known = ", ".join(sorted(ASSIGNORS))
        raise ConfigError(f"Unknown assignment strategy {strategy!r}: expected one of {known}.")
    return found


def default_strategy(kafka_version: str | KafkaVersion | None = None) -> str:
    """The classic assignor a group of Kafka ``kafka_version`` consumers runs when
    ``partition.assignment.strategy`` is not set (default: the newest release, 4.3; rule
    ``default_assignment_strategy``): the default list is ``[range]`` before 3.0.0 and
    ``[range, cooperative-sticky]`` from 3.0.0 (KIP-726), and the coordinator elects the first
    protocol of the members' lists that every member supports, so the first of the list.
    Raises :class:`~kpart.errors.ConfigError` for a version kpart does not know.

    >>> default_strategy("2.8"), default_strategy()
    ('range', 'range')
    """
    return behaviour("default_assignment_strategy", kafka_version).split(",")[0]


def server_strategy(assignor: str | Strategy) -> Strategy:
    """A KIP-848 (``CONSUMER``) strategy by registry name or by Kafka's
    ``group.remote.assignor`` value (``"uniform"``, ``"range"``, ``"server-range"``; a
    :class:`Strategy` value is returned as it is). Raises :class:`ConfigError` naming an
    unknown or classic ``assignor``."""
    if isinstance(assignor, Strategy):
        return assignor
    family = [s for s in ASSIGNORS.values() if s.protocol == CONSUMER]
    for s in family:
        if assignor in (s.name, s.config_name):
            return s
    raise ConfigError(
        f"Unknown server-side assignor {assignor!r}: expected one of "
        f"{[s.config_name for s in family]}."
    )


def assign(group: GroupSpec, strategy: str | Strategy | None = None, *,
           kafka_version: str | KafkaVersion | None = None) -> GroupAssignment:
    """Compute ``group``'s assignment with a Kafka assignor.

    ``strategy``: a name in :data:`ASSIGNORS` (``"range"``, ``"roundrobin"``, ``"sticky"``,
    ``"cooperative-sticky"``, and the KIP-848 ``"uniform"``/``"server-range"``, which read
    members' ``owned_partitions`` as their current targets) or a :class:`Strategy`; ``None``
    (default): what consumers of ``kafka_version`` run by default, :func:`default_strategy`
    (``range`` in every version). Returns a
    :class:`GroupAssignment` listing every member (``()`` for members with nothing).
    ``kafka_version``: the brokers' version for the KIP-848 assignors, the client's for the
    classic ones (default: the newest release, 4.3; see :meth:`Strategy.at_version` and
    :mod:`kpart.versions`: rules ``classic_range``, ``classic_round_robin``,
    ``cooperative_sticky``, ``classic_sticky``). Raises :class:`~kpart.errors.ConfigError` for
    an unknown strategy or version, a version without the assignor or where kpart does not
    model it, and whatever Kafka's assignor would throw (as a ``kpart.errors`` class).

    >>> g = GroupSpec.from_json({"topics": {"t": 2}, "members": [
    ...     {"id": "a", "topics": ["t"]}, {"id": "b", "topics": ["t"], "instance_id": "i"}]})
    >>> assign(g, "roundrobin").as_dict(), assign(g, "roundrobin", kafka_version="2.3").as_dict()
    ({'a': {'t': [1]}, 'b': {'t': [0]}}, {'a': {'t': [0]}, 'b': {'t': [1]}})
    """
    if strategy is None:
        strategy = default_strategy(kafka_version)
    run = _versioned(get_strategy(strategy), kafka_version).load()
    check_assignment(sum(t.num_partitions for t in group.topics),
                     f"assigning {len(group.topics):,} topics to {len(group.members):,} members")
    return run(group)


def _versioned(strategy: Strategy, kafka_version: str | KafkaVersion | None) -> Strategy:
    """``strategy`` at ``kafka_version`` when one is given (``None`` keeps the strategy's own,
    itself ``None`` for the newest release)."""
    return strategy if kafka_version is None else strategy.at_version(kafka_version)


def server_target(
    spec: ServerGroupSpec, assignor: str | Strategy = "uniform", *, java_order: bool = True,
    kafka_version: str | KafkaVersion | None = None,
) -> Target:
    """The raw target of a KIP-848 server-side assignor (see :func:`server_strategy` for the
    names): member id → ``[(topic id, [partitions])]``, in the Java iteration order of Kafka's
    result maps (``java_order=False`` lets the range assignor skip that ordering when only the
    canonical assignment is wanted), as the brokers' ``kafka_version`` computes it (default:
    the newest release, 4.3, see :mod:`kpart.versions`). Raises
    :class:`~kpart.errors.ConfigError` naming an unknown ``assignor`` or a version without it;
    ``PartitionAssignorError`` as Kafka's assignors throw it."""
    strategy = _versioned(server_strategy(assignor), kafka_version)
    return strategy.load_server()(spec, java_order)


def server_assign(spec: ServerGroupSpec, assignor: str | Strategy = "uniform", *,
                  kafka_version: str | KafkaVersion | None = None) -> GroupAssignment:
    """Run a KIP-848 server-side assignor, ``"uniform"`` (default) or ``"range"``
    (``org.apache.kafka.coordinator.group.assignor.UniformAssignor`` / ``RangeAssignor``) on
    ``spec`` as the brokers' ``kafka_version`` computes it (default: the newest release, 4.3;
    ``uniform`` changed in 4.0.1, KAFKA-18688, see :mod:`kpart.versions`): every member of
    ``spec`` in order, topics by name, sorted. The registered
    assignors answer large groups from their array paths: a columnar result whose
    ``to_arrow()`` is read from the arrays (Kafka's JMH shape, 10,000 members and 100,000
    partitions, in tens of milliseconds). Errors: see :func:`server_target`.

    >>> from kpart.consumer.coordinator.server_spec import ServerGroupSpec
    >>> g = ServerGroupSpec.from_json({
    ...     "topics": [{"name": "t0", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 4}],
    ...     "members": [{"id": "A", "topics": ["t0"], "assignment": [["t0", [0, 1, 2, 3]]]},
    ...                 {"id": "B", "topics": ["t0"]}]})
    >>> server_assign(g, "uniform").as_dict()
    {'A': {'t0': [0, 1]}, 'B': {'t0': [2, 3]}}
    >>> g3 = ServerGroupSpec.from_json({
    ...     "topics": [{"name": "t0", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 3}],
    ...     "members": [{"id": "m1", "topics": ["t0"]}, {"id": "m2", "topics": ["t0"]}]})
    >>> server_assign(g3).as_dict(), server_assign(g3, kafka_version="4.0.0").as_dict()
    ({'m1': {'t0': [0]}, 'm2': {'t0': [1, 2]}}, {'m1': {'t0': [0, 1]}, 'm2': {'t0': [2]}})
    """
    strategy = _versioned(server_strategy(assignor), kafka_version)
    check_assignment(sum(t.num_partitions for t in spec.topics),
                     f"assigning {len(spec.topics):,} topics to {len(spec.members):,} members")
    # The registered assignors have an array path (a columnar result for large groups).
    columnar = {
        "uniform": "kpart.consumer.coordinator.uniform_assignor:assign_uniform",
        "server-range": "kpart.consumer.coordinator.server_range_assignor:assign_range",
    }.get(strategy.name)
    registered = ASSIGNORS.get(strategy.name)
    if columnar is not None and registered is not None and registered == replace(
        strategy, kafka_version=None
    ):
        run = cast(Callable[..., GroupAssignment], _resolve(columnar))
        return run(spec, kafka_version=strategy.kafka_version)
    return spec.to_group_assignment(strategy.load_server()(spec, False))
