"""Reusable check of a golden ``kind: "sequence"`` case against the rebalance simulator.

``check_sequence(case, strategy)`` runs :func:`kpart.consumer.rebalance.simulate_rounds` on
the case's steps and returns a list of human-readable mismatches (empty = every recorded
round reproduced: step, round, generation, leader, the member inputs the simulator built
(generation, owned partitions and their order, user-data flag, member order) and the
assignment). ``replay=True`` feeds the recorded assignments back instead of calling the
assignor, which checks the simulator's bookkeeping for any strategy, even one not yet
implemented; with ``owned_order="sets"`` owned partitions are compared as sets (the Java list
order of an assignment, which decides the sticky user data's order, is not in the vectors).

Sticky engineers: ``assert check_sequence(case, "sticky") == []``.
"""

from __future__ import annotations

from typing import Any

from kpart.consumer.assignment import GroupAssignment
from kpart.consumer.rebalance import member_input_json, simulate_rounds
from kpart.consumer.spec import GroupSpec

__all__ = ["check_sequence", "golden_steps", "round_group"]


def golden_steps(case: dict[str, Any]) -> list[GroupSpec]:
    """The absolute steps of a sequence case as :class:`GroupSpec` values."""
    return [GroupSpec.from_json(step) for step in case["input"]["steps"]]


def round_group(case: dict[str, Any], rnd: dict[str, Any]) -> GroupSpec:
    """The group the assignor saw in a recorded round (step metadata + recorded members)."""
    step = case["input"]["steps"][rnd["step"]]
    doc = {"topics": step["topics"], "members": rnd["members"]}
    if "partition_racks" in step:
        doc["partition_racks"] = step["partition_racks"]
    return GroupSpec.from_json(doc)


def _recorded(case: dict[str, Any]):
    rounds = case["expected"]["rounds"]
    by_key = {(r["step"], r["round"]): r for r in rounds}

    def run(group: GroupSpec, step: int, rnd: int):
        r = by_key.get((step, rnd))
        if r is None or "assignment" not in r:
            raise AssertionError(f"no recorded assignment for step {step} round {rnd}")
        ids = [m.member_id for m in group.members]
        pairs = {
            m: [(t, p) for t, ps in r["assignment"].get(m, {}).items() for p in ps] for m in ids
        }
        return GroupAssignment.from_pairs(ids, pairs), None

    return run


def _norm_owned(member: dict[str, Any], owned_order: str) -> dict[str, Any]:
    if owned_order == "exact":
        return member
    out = dict(member)
    out["owned"] = sorted([t, sorted(ps)] for t, ps in member["owned"])
    return out


def check_sequence(
    case: dict[str, Any], strategy: str, *, replay: bool = False, owned_order: str = "exact"
) -> list[str]:
    """Mismatches between the simulator and the recorded rounds of ``case`` (see module)."""
    expected = case["expected"]["rounds"]
    rounds = simulate_rounds(
        golden_steps(case), strategy, assign_fn=_recorded(case) if replay else None
    )
    problems: list[str] = []
    if len(rounds) != len(expected):
        problems.append(f"{len(rounds)} rounds simulated, {len(expected)} recorded")
    for got, exp in zip(rounds, expected, strict=False):
        where = f"step {exp['step']} round {exp['round']}"
        for name, g, e in (
            ("step", got.step, exp["step"]),
            ("round", got.round, exp["round"]),
            ("generation", got.generation, exp["generation"]),
            ("leader", got.leader, exp["leader"]),
        ):
            if g != e:
                problems.append(f"{where}: {name} {g!r} != {e!r}")
        members = [_norm_owned(member_input_json(m, strategy), owned_order) for m in got.members]
        want = [
            _norm_owned({k: v for k, v in m.items() if k != "user_data_hex"}, owned_order)
            for m in exp["members"]
        ]
        for gm, em in zip(members, want, strict=False):
            if gm != em:
                problems.append(f"{where}: member input {gm} != {em}")
        if len(members) != len(want):
            problems.append(f"{where}: {len(members)} members != {len(want)}")
        if "error" in exp:
            err = got.error
            if err is None:
                problems.append(f"{where}: no error, expected {exp['error']}")
            elif (err.java_class, str(err)) != (exp["error"]["class"], exp["error"]["message"]):
                problems.append(f"{where}: error {err.java_class}: {err} != {exp['error']}")
        elif got.assignment is None:
            problems.append(f"{where}: error {got.error!r}, expected an assignment")
        elif got.assignment.to_json() != {"assignment": exp["assignment"]}:
            problems.append(f"{where}: assignment differs")
    return problems
