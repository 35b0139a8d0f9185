"""Consumer-group assignment (partition → member), as Kafka's classic assignors compute it.

:func:`assign` dispatches on ``partition.assignment.strategy`` names through the registry
:data:`ASSIGNORS` (``name → Strategy``). Each :class:`Strategy` names the function that
assigns (imported lazily), the rebalance protocol its consumers use (``EAGER`` or
``COOPERATIVE``) and whether the previous assignment travels as user data (the eager
``StickyAssignor``); the rebalance simulator (:mod:`kpart.consumer.rebalance`) reads both.
Registering an assignor is one line in :data:`ASSIGNORS`.

>>> from kpart.consumer.spec import GroupSpec
>>> g = GroupSpec.from_json({"topics": {"t0": 3, "t1": 3},
...                          "members": [{"id": "C0", "topics": ["t0", "t1"]},
...                                      {"id": "C1", "topics": ["t0", "t1"]}]})
>>> assign(g).to_json()
{'assignment': {'C0': {'t0': [0, 1], 't1': [0, 1]}, 'C1': {'t0': [2], 't1': [2]}}}
>>> assign(g, "roundrobin").as_dict()["C0"]
{'t0': [0, 2], 't1': [1]}
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from kpart.consumer.spec import GroupAssignment, GroupSpec
from kpart.errors import ConfigError
from kpart.limits import check_assignment

__all__ = ["ASSIGNORS", "CONSUMER", "COOPERATIVE", "EAGER", "Strategy", "assign", "get_strategy"]

EAGER: Literal["EAGER"] = "EAGER"
COOPERATIVE: Literal["COOPERATIVE"] = "COOPERATIVE"
#: KIP-848 ``group.protocol=consumer``: the group coordinator computes the target assignment.
CONSUMER: Literal["CONSUMER"] = "CONSUMER"

#: ``member id → [(topic, partition), ...]`` in the order of the assignor's Java list.
JavaOrder = Mapping[str, Sequence[tuple[str, int]]]


@dataclass(frozen=True, slots=True)
class Strategy:
    """A registered assignor.

    - ``name``: the ``partition.assignment.strategy`` name (``"range"``).
    - ``target``: ``"module:function"``, a function ``(GroupSpec) -> GroupAssignment``.
    - ``protocol``: ``"EAGER"`` (members revoke everything before each join),
      ``"COOPERATIVE"`` (members keep what they own; moved partitions are revoked first) or
      ``"CONSUMER"`` (KIP-848: the coordinator's assignor computes a target from each member's
      current assignment, ``Member.owned_partitions``; one target per change).
    - ``user_data``: the eager sticky assignor: members send their previous assignment and
      generation as user data (``Member.owned_partitions``, ``generation``, ``has_user_data``).
    - ``ordered``: optional ``"module:function"``, ``(GroupSpec) -> (GroupAssignment,
      JavaOrder)``, giving each member's partitions in the order of Kafka's assignment list
      (the simulator needs it to rebuild the sticky user data exactly).
    """

    name: str
    target: str
    protocol: Literal["EAGER", "COOPERATIVE", "CONSUMER"] = EAGER
    user_data: bool = False
    ordered: str | None = None

    def load(self) -> Callable[[GroupSpec], GroupAssignment]:
        """The assigning function (imported on first use)."""
        return _resolve(self.target)

    def load_ordered(self) -> Callable[[GroupSpec], tuple[GroupAssignment, JavaOrder]] | None:
        """The order-preserving variant, or ``None`` when the strategy has none."""
        return None if self.ordered is None else _resolve(self.ordered)


def _resolve(target: str) -> Callable:
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


#: name → :class:`Strategy`. One line per assignor.
ASSIGNORS: dict[str, Strategy] = {
    "range": Strategy("range", "kpart.consumer.range_assignor:assign_range"),
    "roundrobin": Strategy("roundrobin", "kpart.consumer.round_robin_assignor:assign_round_robin"),
    "sticky": Strategy(
        "sticky",
        "kpart.consumer.sticky_assignor:assign_sticky",
        user_data=True,
        ordered="kpart.consumer.sticky_assignor:assign_sticky_ordered",
    ),
    "cooperative-sticky": Strategy(
        "cooperative-sticky",
        "kpart.consumer.cooperative_sticky_assignor:assign_cooperative_sticky",
        protocol=COOPERATIVE,
        ordered="kpart.consumer.cooperative_sticky_assignor:assign_cooperative_sticky_ordered",
    ),
    "uniform": Strategy(
        "uniform", "kpart.consumer._server_rebalance:assign_server_uniform", protocol=CONSUMER
    ),
    "server-range": Strategy(
        "server-range", "kpart.consumer._server_rebalance:assign_server_range", protocol=CONSUMER
    ),
}


def get_strategy(strategy: str) -> Strategy:
    """The registered :class:`Strategy` called ``strategy``; :class:`ConfigError` otherwise."""
    found = ASSIGNORS.get(strategy)
    if found is None:
        known = ", ".join(sorted(ASSIGNORS))
        raise ConfigError(f"Unknown assignment strategy {strategy!r}: expected one of {known}.")
    return found


def assign(group: GroupSpec, strategy: str = "range") -> GroupAssignment:
    """Compute ``group``'s assignment with the named Kafka assignor.

    ``strategy``: a key of :data:`ASSIGNORS` (``"range"``, ``"roundrobin"``, and the sticky
    assignors once registered). Returns a :class:`GroupAssignment` listing every member
    (``()`` for members with nothing). Raises :class:`~kpart.errors.ConfigError` for an
    unknown strategy, and whatever Kafka's assignor would throw (as a ``kpart.errors`` class).
    """
    run = get_strategy(strategy).load()
    check_assignment(sum(t.num_partitions for t in group.topics),
                     f"assigning {len(group.topics):,} topics to {len(group.members):,} members")
    return run(group)
