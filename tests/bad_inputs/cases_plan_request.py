"""Catalogue cases of issue 27, point 2, for ``kpart plan``'s request value
(:class:`kpart.cluster.plan_request.PlanRequest`) and its ``OptimizationFailureError``
(ids ``plan-request-*``): options refused before any file is read, and a hard goal no plan
can meet, in both modes — each one line naming the value."""

from __future__ import annotations

from pathlib import Path

from bad_inputs.case import Case

_EX = Path(__file__).resolve().parents[2] / "docs" / "examples"
_FILES = {name: (_EX / name).read_text(encoding="utf-8")
          for name in ("cluster.describe.txt", "cluster.log-dirs.txt", "capacity.json",
                       "rates.csv")}
_LOAD = ("plan", "--current", "cluster.describe.txt", "--sizes", "cluster.log-dirs.txt",
         "--loads", "rates.csv", "--capacity", "capacity.json", "--brokers", "1:a,2:b,3:c,4:d",
         "--out", "plan.json")
_COUNT = ("plan", "--current", "cluster.describe.txt", "--out", "plan.json")
_POOLS = ('{"pools": {"p1": {"brokers": [1, 2], "topics": []}, "p2": {"brokers": [3, 4], '
          '"topics": []}}}')

CASES = [
    # the request, checked before any read (the files named do not exist)
    Case(id="plan-request-old-goal-name", argv=("plan", "--current", "missing.txt", "--goals",
                                                "RackAware"), names="unknown goal 'RackAware'"),
    Case(id="plan-request-goal-twice", argv=("plan", "--current", "missing.txt", "--goals",
                                             "RackAwareGoal,RackAwareGoal"),
         names="RackAwareGoal is listed twice"),
    Case(id="plan-request-infinite-balance", argv=("plan", "--current", "missing.txt", "--verify",
                                                   "--balance-threshold", "inf"),
         names="threshold inf"),
    Case(id="plan-request-threshold-in-count-mode",
         argv=("plan", "--current", "missing.txt", "--capacity-threshold", "0.5"),
         names="--capacity-threshold only goes with the load-aware mode"),
    Case(id="plan-request-seed-in-load-mode",
         argv=("plan", "--current", "missing.txt", "--verify", "--seed", "3"),
         names="--seed does not go with the load-aware mode"),
    Case(id="plan-request-negative-max-moves",
         argv=("plan", "--current", "missing.txt", "--max-moves", "-1"),
         names="Invalid --max-moves -1"),
    # a hard goal no plan can meet: OptimizationFailureError, one line naming the goal
    Case(id="plan-request-infeasible-replica-capacity", files=_FILES,
         argv=(*_LOAD, "--max-replicas-per-broker", "2", "--goals", "ReplicaCapacityGoal"),
         names="Infeasible ReplicaCapacityGoal"),
    Case(id="plan-request-infeasible-rack-aware", files=_FILES,
         argv=(*_LOAD[:-4], "--brokers", "1:a,2:a,3:a,4:a", "--out", "plan.json"),
         names="Infeasible RackAwareGoal"),
    Case(id="plan-request-infeasible-pool", files={**_FILES, "pools.json": _POOLS},
         argv=(*_COUNT, "--pools", "pools.json", "--remove-brokers", "3,4"),
         names="Infeasible BrokerSetAwareGoal"),
]
