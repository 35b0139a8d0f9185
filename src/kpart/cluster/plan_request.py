"""What ``kpart plan`` was asked, as one frozen value: the inputs, the cluster change, the
planner's options (count-based or load-aware) and the outputs.

:meth:`PlanRequest.from_options` takes the command's options by their parameter names, checks
what can be checked without reading a file (which mode the options choose, the options the
other mode refuses, ``--goals`` against Cruise Control's goal names, the thresholds, the
formats and numeric ranges) and raises one :class:`~kpart.errors.ConfigError` line naming the
option and its value; :meth:`PlanRequest.options` gives the options back, so
``PlanRequest.from_options(**r.options()) == r``. The request serves both planners: the
count-based one (:mod:`kpart.placement.planner`) and the load-aware one
(:mod:`kpart.cluster.optimizer`), which :attr:`PlanRequest.load_aware` chooses.

>>> from pathlib import Path
>>> r = PlanRequest.from_options(current=Path("d.txt"), add_brokers="5:b", verify=True)
>>> r.load_aware, r.goals, r.thresholds.to_thresholds().capacity  # goals: Cruise Control's default
(True, None, 0.8)
>>> PlanRequest.from_options(**r.options()) == r
True
>>> PlanRequest.from_options(current=Path("d.txt"), seed=1, verify=True)
Traceback (most recent call last):
...
kpart.errors.ConfigError: --seed does not go with the load-aware mode (chosen by --goals, \
--capacity, --loads, --snapshot or --verify)
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kpart.errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from kpart.cluster.goals import Thresholds

__all__ = ["CHOOSERS", "PLAN_FORMATS", "GoalThresholds", "PlanRequest"]

#: The options that choose the load-aware mode (any one of them).
CHOOSERS = ("--goals", "--capacity", "--loads", "--snapshot", "--verify")
_CHOSEN = "the load-aware mode (chosen by " + ", ".join(CHOOSERS[:-1]) + " or --verify)"
#: ``--format`` of ``kpart plan``'s ``--out``.
PLAN_FORMATS = ("json", "parquet", "arrow")


@dataclass(frozen=True, slots=True)
class GoalThresholds:
    """The thresholds ``kpart plan`` was given (``None``: Cruise Control's default):
    ``max_replicas_per_broker`` (``max.replicas.per.broker``, >= 1), ``capacity`` (the
    ``*.capacity.threshold`` share, in (0, 1]) and ``balance`` (every
    ``*.balance.threshold``, from 1). Errors: :class:`~kpart.errors.ConfigError` naming the
    value (Cruise Control's limits, :class:`kpart.cluster.goals.Thresholds`).

    >>> GoalThresholds(balance=1.2).to_thresholds().disk_balance
    1.2
    >>> GoalThresholds(capacity=1.5)
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: Invalid capacity threshold 1.5: must be in (0, 1].
    """

    max_replicas_per_broker: int | None = None
    capacity: float | None = None
    balance: float | None = None

    def __post_init__(self) -> None:
        self.to_thresholds()

    @property
    def options(self) -> dict[str, int | float | None]:
        """``{option: value}`` of the command-line options (``None``: not given)."""
        return {"--max-replicas-per-broker": self.max_replicas_per_broker,
                "--capacity-threshold": self.capacity, "--balance-threshold": self.balance}

    def to_thresholds(self) -> Thresholds:
        """The load-aware planner's :class:`~kpart.cluster.goals.Thresholds`."""
        from kpart.cluster.goals import Thresholds

        given: dict[str, Any] = {}
        if self.max_replicas_per_broker is not None:
            given["max_replicas_per_broker"] = self.max_replicas_per_broker
        if self.capacity is not None:
            given["capacity"] = self.capacity
        if self.balance is not None:
            for name in ("replica_balance", "leader_balance", "disk_balance",
                         "network_in_balance", "network_out_balance"):
                given[name] = self.balance
        return Thresholds(**given)


def _goal_names(names: str | None) -> tuple[str, ...] | None:
    """``--goals NAME,...`` → the names (``None``: Cruise Control's default goals)."""
    from kpart.cluster.goals import GOALS

    if names is None:
        return None
    wanted = [n.strip() for n in names.split(",") if n.strip()]
    known = [g.name for g in GOALS]
    for n in wanted:
        if n not in known:
            raise ConfigError(f"--goals: unknown goal {n!r}: the goals are {', '.join(known)}")
    if not wanted:
        raise ConfigError(f"--goals: no goal given: the goals are {', '.join(known)}")
    if len(set(wanted)) < len(wanted):
        twice = next(n for n in wanted if wanted.count(n) > 1)
        raise ConfigError(f"--goals: {twice} is listed twice")
    return tuple(wanted)


def _refuse(options: dict[str, object], why: str) -> None:
    for option, value in options.items():
        if value is not None:
            raise ConfigError(f"{option} {why}")


def _at_least(option: str, value: object, low: int) -> None:
    """The count limits, checked as the planners check them (their wording, the flag named)."""
    if value is not None and (not isinstance(value, int) or value < low):
        raise ConfigError(f"Invalid {option} {value}: must be >= {low}")


@dataclass(frozen=True, slots=True)
class PlanRequest:
    """What ``kpart plan`` was asked (fields: the options, by parameter name; paths as given).

    Inputs: ``current`` (``--current``), ``snapshot``, ``topic``, ``brokers``, ``sizes``,
    ``capacity``, ``loads``, ``pools``; the change: ``add_brokers``, ``remove_brokers``
    (``ID[:RACK],...`` text), ``cordoned``; the count-based planner: ``max_moves``, ``seed``,
    ``leaders``, ``rebalance``, ``kafka_version``; the load-aware one: ``goals`` (Cruise
    Control's names, ``None``: its defaults), ``thresholds``, ``verify``, ``failures``;
    both: ``max_moves_per_broker``, ``throttle`` (bytes/s); outputs: ``out`` (``fmt``),
    ``rollback``, ``describe_out``, ``topics_out``, ``summary_out``, ``html``, ``as_json``;
    ``partial``: a ``--describe`` dump that is not the whole cluster."""

    current: Path | None = None
    snapshot: Path | None = None
    topic: str | None = None
    brokers: str | None = None
    add_brokers: str | None = None
    remove_brokers: str | None = None
    pools: Path | None = None
    sizes: Path | None = None
    capacity: Path | None = None
    loads: tuple[Path, ...] = ()
    goals: tuple[str, ...] | None = None
    thresholds: GoalThresholds = GoalThresholds()
    verify: bool = False
    failures: bool = False
    max_moves: int | None = None
    max_moves_per_broker: int | None = None
    seed: int | None = None
    leaders: bool | None = None
    rebalance: bool | None = None
    throttle: int | None = None
    out: Path | None = None
    fmt: str = "json"
    rollback: Path | None = None
    describe_out: Path | None = None
    topics_out: Path | None = None
    summary_out: Path | None = None
    html: Path | None = None
    as_json: bool = False
    partial: bool = False
    kafka_version: str | None = None
    cordoned: str | None = None

    @property
    def load_aware(self) -> bool:
        """Whether the load-aware planner runs (any option of :data:`CHOOSERS` given)."""
        return (self.goals is not None or self.capacity is not None or bool(self.loads)
                or self.snapshot is not None or self.verify)

    @classmethod
    def from_options(cls, *, goals: str | None = None, max_replicas: int | None = None,
                     capacity_threshold: float | None = None,
                     balance_threshold: float | None = None,
                     loads: Any = (), **options: Any) -> PlanRequest:
        """The request from the command's options (``goals`` as ``NAME,...`` text, the
        thresholds one by one, every other field by its name). Errors: one
        :class:`~kpart.errors.ConfigError` line naming the option and its value."""
        fmt = options.get("fmt", "json")
        if fmt not in PLAN_FORMATS:
            raise ConfigError(f"--format: unknown format {fmt!r} (expected one of "
                              f"{', '.join(PLAN_FORMATS)})")
        if fmt != "json" and options.get("out") is None:
            raise ConfigError(f"--format {fmt} writes a binary file: give -o/--out FILE")
        _at_least("--max-moves", options.get("max_moves"), 0)
        _at_least("--max-concurrent-moves-per-broker", options.get("max_moves_per_broker"), 1)
        loads = tuple(loads or ())
        chosen = {"--goals": goals, "--capacity": options.get("capacity"),
                  "--loads": loads or None, "--snapshot": options.get("snapshot"),
                  "--verify": options.get("verify") or None}
        thresholds = GoalThresholds(max_replicas, capacity_threshold, balance_threshold)
        if any(v is not None for v in chosen.values()):
            _refuse({"--max-moves": options.get("max_moves"), "--seed": options.get("seed"),
                     "--kafka-version": options.get("kafka_version"),
                     "--cordoned": options.get("cordoned"),
                     "--leaders/--no-leaders": options.get("leaders"),
                     "--rebalance/--no-rebalance": options.get("rebalance")},
                    f"does not go with {_CHOSEN}")
            names = _goal_names(goals)
        else:
            _refuse({"--failures": options.get("failures") or None,
                     "--summary-out": options.get("summary_out"),
                     "--html-out": options.get("html"), "--throttle": options.get("throttle"),
                     **thresholds.options}, f"only goes with {_CHOSEN}")
            if options.get("current") is None:
                raise ConfigError("Missing option '--current' (or give --snapshot, for the "
                                  "load-aware mode)")
            names = None
        try:
            return cls(goals=names, thresholds=thresholds, loads=loads, **options)
        except TypeError as e:  # pragma: no cover - a caller's typo, not a user's input
            raise TypeError(f"PlanRequest.from_options: {e}") from None

    def options(self) -> dict[str, Any]:
        """The keyword arguments of :meth:`from_options` that give this request back."""
        given = {f.name: getattr(self, f.name) for f in fields(self)
                 if f.name not in ("goals", "thresholds")}
        th = self.thresholds
        return {**given, "goals": None if self.goals is None else ",".join(self.goals),
                "max_replicas": th.max_replicas_per_broker, "capacity_threshold": th.capacity,
                "balance_threshold": th.balance}
