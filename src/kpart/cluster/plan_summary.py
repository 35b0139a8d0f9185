"""The summary of a load-aware plan (``{"format": "kpart-plan-summary", "version": 1}``): what
``kpart plan --json`` prints, ``--summary-out`` writes and ``plan.html`` renders, in the spirit
of Cruise Control's ``OptimizerResult`` (goals' status, per-broker load before and after,
the proposals' data to move).

:func:`plan_summary` builds the dict from a :class:`~kpart.cluster.optimizer.ClusterPlan`,
the verifier's goal checks, the failure what-ifs of the target and a schedule (each optional:
``null`` when not computed). Units: bytes, bytes per second, seconds; an unknown value is
``None``. Keys:

- ``partitions``, ``replicas``: the cluster's counts; ``added_brokers``, ``removed_brokers``;
- ``moves``: ``partitions`` (rows whose replica list changes), ``replica_moves``,
  ``leader_changes``, ``bytes_moved`` and ``lower_bound_bytes`` (:func:`lower_bound_bytes`);
- ``goals``: per goal in the priority order used, ``{"goal", "hard", "before", "after",
  "ok", "floor"}`` (violation counts; ``None`` without the verifier's checks; ``floor``: the
  violations no plan can go below, :func:`kpart.cluster.verifier.goal_floor`, ``None`` where
  not computed — added in version 1, so readers must allow it to be absent); ``verified``
  (``None`` when verification was not asked) and ``errors`` (invalid replica sets);
- ``brokers``: sorted by id, added and removed ones included: ``rack``, ``added``,
  ``removed``, ``capacity`` (``disk_bytes``, ``nw_in_bytes_per_s``, ``nw_out_bytes_per_s``)
  and ``before`` / ``after`` (``replicas``, ``leaders``, ``disk_bytes``,
  ``nw_in_bytes_per_s``, ``nw_out_bytes_per_s``; a load whose every partition value is
  unknown is ``None``); ``capacity_threshold``: the share of capacity the capacity goals allow
  (Cruise Control's ``*.capacity.threshold``; ``None`` when not given);
- ``schedule``: the schedule's own dict, or ``None``;
- ``failures``: ranked worst first as ``kpart outage --all`` ranks them (:func:`failure_rows`),
  or ``None``.

>>> from kpart.cluster.model import ClusterBroker, ClusterModel, PartitionState
>>> from kpart.cluster.optimizer import plan_cluster
>>> m = ClusterModel.from_partitions([ClusterBroker(i, f"r{i}") for i in range(2)],
...     [PartitionState("t", p, (p % 2,), size_bytes=10.0) for p in range(6)])
>>> s = plan_summary(plan_cluster(m, add_brokers=[ClusterBroker(2, "r2")]), added=[2])
>>> s["moves"]["partitions"], s["moves"]["lower_bound_bytes"], s["brokers"][2]["after"]["replicas"]
(2, 20.0, 2)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from kpart.cluster.broker_outage import OutageResult
    from kpart.cluster.load import BrokerLoad
    from kpart.cluster.model import ClusterModel
    from kpart.cluster.optimizer import ClusterPlan
    from kpart.cluster.verifier import GoalCheck

__all__ = ["broker_rows", "failure_rows", "lower_bound_bytes", "plan_summary", "target_model"]

FORMAT = "kpart-plan-summary"
VERSION = 1


def lower_bound_bytes(plan: ClusterPlan, added: Sequence[int]) -> float:
    """The bytes a plan moves at least to reach the mean (unknown sizes as 0): what the
    ``added`` brokers must hold to reach the mean disk use of the brokers left (their share
    of the total by disk capacity when every such broker's is known, else an equal share),
    plus what the removed brokers hold now — the bound of ISSUE13's target and of
    ``benchmarks/bench_cluster_plan.py``. Not strict: the distribution goals accept a broker
    within ``disk.balance.threshold`` of the mean (±10 %), so a plan may stop short of it
    and move less."""
    model = plan.model
    disk = plan.load_before.disk_bytes
    kept = np.array([b.id not in plan.removed for b in model.brokers], dtype=bool)
    caps = np.array([math.nan if b.capacity is None or b.capacity.disk_bytes is None
                     else b.capacity.disk_bytes for b in model.brokers])
    share = caps if np.isfinite(caps[kept]).all() else np.ones(len(caps))
    total = float(disk.sum())
    new = np.isin([b.id for b in model.brokers], list(added)) & kept
    want = total * share[new].sum() / share[kept].sum() if kept.any() else 0.0
    return float(want + disk[~kept].sum())


def target_model(plan: ClusterPlan) -> ClusterModel:
    """The cluster once the plan has completed: the target replicas, all in sync, each led by
    its preferred (first) replica, on the brokers left (removed ones dropped); loads and
    topic configs kept. What the failure what-ifs run on."""
    from kpart.cluster.goals import completed

    return completed(plan.model, plan.target, plan.removed)


def _known(values: np.ndarray) -> bool:
    return bool(len(values)) and not bool(np.isnan(values).all())


def failure_rows(results: Sequence[OutageResult]) -> list[dict[str, Any]]:
    """One dict per failure, in the order given (rank them first with
    :func:`kpart.cluster.broker_outage.ranked`): ``down``, ``rack``, the counts of
    ``offline_partitions`` and ``under_min_isr`` partitions, ``max_leaders`` /
    ``mean_leaders`` and ``max_bytes_in_per_s`` / ``mean_bytes_in_per_s`` (leader bytes-in)
    over the surviving brokers (``None`` when no rate is known)."""
    if not results:
        return []
    rated = _known(results[0].model.bytes_in_per_s)
    out = []
    for r in results:
        max_l, mean_l = r.max_mean_leaders
        max_b, mean_b = r.max_mean_bytes_in
        out.append({"down": list(r.down), "rack": r.rack,
                    "offline_partitions": len(r.offline), "under_min_isr": len(r.under_min_isr),
                    "max_leaders": int(max_l), "mean_leaders": mean_l,
                    "max_bytes_in_per_s": max_b if rated else None,
                    "mean_bytes_in_per_s": mean_b if rated else None})
    return out


def _load(load: BrokerLoad, i: int, known: dict[str, bool]) -> dict[str, Any]:
    def value(x: np.ndarray, what: str) -> float | None:
        return float(x[i]) if known[what] else None

    return {"replicas": int(load.replicas[i]), "leaders": int(load.leaders[i]),
            "disk_bytes": value(load.disk_bytes, "disk"),
            "nw_in_bytes_per_s": value(load.network_in, "in"),
            "nw_out_bytes_per_s": value(load.network_out, "out")}


def broker_rows(model: ClusterModel, after: BrokerLoad, before: BrokerLoad | None = None, *,
                added: Sequence[int] = (), removed: Sequence[int] = ()) -> list[dict[str, Any]]:
    """The ``brokers`` rows of the summary (see the module docstring), one per broker of
    ``model`` by id: ``after`` (and ``before``, when given; left out otherwise) weighed by
    :func:`kpart.cluster.broker_load`; ``added``/``removed``: broker ids. What the report's
    ``cluster`` section shows for the cluster as it is (``after`` only)."""
    known = {"disk": _known(model.size_bytes), "in": _known(model.bytes_in_per_s),
             "out": _known(model.bytes_in_per_s) or _known(model.bytes_out_per_s)}
    rows = []
    for i, b in enumerate(model.brokers):
        cap = b.capacity
        row = {
            "broker": b.id, "rack": b.rack, "added": b.id in added,
            "removed": b.id in removed,
            "capacity": {"disk_bytes": None if cap is None else cap.disk_bytes,
                         "nw_in_bytes_per_s": None if cap is None else cap.network_in,
                         "nw_out_bytes_per_s": None if cap is None else cap.network_out}}
        if before is not None:
            row["before"] = _load(before, i, known)
        row["after"] = _load(after, i, known)
        rows.append(row)
    return rows


def _brokers(plan: ClusterPlan, added: set[int]) -> list[dict[str, Any]]:
    return broker_rows(plan.model, plan.load_after, plan.load_before, added=sorted(added),
                       removed=plan.removed)


def _goals(plan: ClusterPlan, checks: Sequence[GoalCheck] | None) -> list[dict[str, Any]]:
    if checks is None:
        return [{"goal": g.name, "hard": g.hard, "before": None, "after": None, "ok": None,
                 "floor": None} for g in plan.goals]
    return [{"goal": c.name, "hard": c.hard, "before": c.before, "after": c.after, "ok": c.ok,
             "floor": c.floor} for c in checks]


def plan_summary(  # noqa: PLR0913
    plan: ClusterPlan,
    *,
    added: Sequence[int] = (),
    checks: Sequence[GoalCheck] | None = None,
    verified: bool | None = None,
    errors: Sequence[str] = (),
    failures: Sequence[OutageResult] | None = None,
    schedule: dict[str, Any] | None = None,
    capacity_threshold: float | None = None,
) -> dict[str, Any]:
    """The summary dict of ``plan`` (see the module docstring): ``added`` (ids of the brokers
    the plan adds), ``checks`` (the verifier's :class:`~kpart.cluster.verifier.GoalCheck` per
    goal, else every count is ``None``), ``verified`` (the verifier's verdict when it was
    asked), ``errors`` (its invalid replica sets), ``failures`` (ranked what-ifs of the
    target) and ``schedule`` (a schedule's ``to_dict()``). JSON-ready: ints, floats, strings,
    bools and ``None`` only."""
    m = plan.model
    return {
        "format": FORMAT, "version": VERSION, "capacity_threshold": capacity_threshold,
        "partitions": m.num_partitions, "replicas": int(m.replication_factors().sum()),
        "added_brokers": sorted(int(b) for b in added),
        "removed_brokers": [int(b) for b in plan.removed],
        "moves": {"partitions": len(plan.moved_rows()), "replica_moves": plan.replica_moves,
                  "leader_changes": plan.leader_changes, "bytes_moved": plan.bytes_moved,
                  "lower_bound_bytes": lower_bound_bytes(plan, added)},
        "goals": _goals(plan, checks),
        "verified": verified,
        "errors": list(errors),
        "brokers": _brokers(plan, set(added)),
        "schedule": schedule,
        "failures": None if failures is None else failure_rows(failures),
    }
