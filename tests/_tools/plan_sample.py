"""A realistic load-aware plan summary, as ``kpart plan --json`` writes it (``docs/plan-html.md``).

For the plan page's tests and ``docs/make_screenshot.py``: ``brokers`` brokers in ``racks``
racks with Cruise Control-like capacities (10 TB disk, 100 MB/s in and out), heavy-tailed disk
use before the plan (a few hot brokers), ``added`` new empty brokers and ``removed`` brokers
emptied by the plan, the load evened out after it; Cruise Control's default goals; ``batches``
batches (timed with ``throttle``); one failure per broker and per rack, ranked worst first.
Deterministic for a given ``seed``; numbers made up, shapes as ``kpart plan --json`` writes.

>>> s = plan_summary(brokers=6, added=1, removed=1, seed=1)
>>> [b["broker"] for b in s["brokers"]], s["added_brokers"], s["removed_brokers"]
([0, 1, 2, 3, 4, 5], [5], [4])
"""

from __future__ import annotations

from typing import Any

import numpy as np

GOALS = (
    ("RackAwareGoal", True), ("ReplicaCapacityGoal", True), ("DiskCapacityGoal", True),
    ("NetworkInboundCapacityGoal", True), ("NetworkOutboundCapacityGoal", True),
    ("ReplicaDistributionGoal", False), ("PotentialNwOutGoal", False),
    ("DiskUsageDistributionGoal", False), ("NetworkInboundUsageDistributionGoal", False),
    ("NetworkOutboundUsageDistributionGoal", False), ("TopicReplicaDistributionGoal", False),
    ("LeaderReplicaDistributionGoal", False), ("LeaderBytesInDistributionGoal", False),
    ("PreferredLeaderElectionGoal", False),
)
CAPACITY = {"disk_bytes": 1e13, "nw_in_bytes_per_s": 1e8, "nw_out_bytes_per_s": 1e8}


def _loads(replicas: np.ndarray, leaders: np.ndarray, disk: np.ndarray, nw_in: np.ndarray,
           nw_out: np.ndarray, i: int) -> dict[str, Any]:
    return {"replicas": int(replicas[i]), "leaders": int(leaders[i]),
            "disk_bytes": float(disk[i]), "nw_in_bytes_per_s": float(nw_in[i]),
            "nw_out_bytes_per_s": float(nw_out[i])}


def _even(values: np.ndarray, live: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``values``' total spread over the ``live`` brokers, within ±5 % of the mean."""
    out = np.zeros_like(values, dtype=float)
    out[live] = values.sum() / live.sum() * rng.uniform(0.95, 1.05, int(live.sum()))
    return out


def _brokers(n: int, old: int, racks: int, removed: set[int],
             rng: np.random.Generator) -> tuple[list[dict[str, Any]], float, int]:
    had = np.arange(n) < old
    live = np.array([b not in removed for b in range(n)])
    replicas = np.where(had, rng.integers(800, 1200, n), 0)
    leaders = replicas // 3
    disk = np.where(had, 3e12 * rng.pareto(3.0, n) + 2e12, 0.0)
    nw_in = np.where(had, rng.uniform(2e7, 6e7, n), 0.0)
    nw_out = nw_in * rng.uniform(1.5, 2.2, n)
    before = (replicas, leaders, disk, nw_in, nw_out)
    after = tuple(np.rint(_even(v, live, rng)) if k < 2 else _even(v, live, rng)
                  for k, v in enumerate(before))
    rows = [{"broker": b, "rack": f"r{b % racks}", "added": b >= old, "removed": b in removed,
             "capacity": dict(CAPACITY), "before": _loads(*before, b), "after": _loads(*after, b)}
            for b in range(n)]
    moved = float(np.abs(after[2] - disk).sum() / 2)
    return rows, moved, int(replicas.sum())


def _schedule(batches: int, moved: float, brokers: int, throttle: float | None,
              rng: np.random.Generator) -> dict[str, Any]:
    share = rng.dirichlet(np.ones(batches)) * moved
    rows = []
    for i, nbytes in enumerate(share):
        moves = int(rng.integers(5, 40))
        rows.append({"batch": i + 1, "partitions": moves - moves // 4, "replica_moves": moves,
                     "bytes": float(nbytes), "seconds": None if throttle is None else
                     float(nbytes / throttle),
                     "brokers": sorted(rng.choice(brokers, min(brokers, 6), replace=False)
                                       .tolist())})
    return {"max_moves_per_broker": 5, "throttle_bytes_per_s": throttle,
            "total_seconds": None if throttle is None else moved / throttle, "batches": rows}


def _failures(rows: list[dict[str, Any]], racks: int, rng: np.random.Generator) -> list[Any]:
    live = [r["broker"] for r in rows if not r["removed"]]
    out = []
    racked = [([b for b in live if b % racks == r], f"r{r}") for r in range(racks)]
    for down, rack in [([b], None) for b in live] + [(d, r) for d, r in racked if d]:
        if len(down) == len(live):
            continue  # the whole cluster down: no survivor to rank by
        mean = 4e7 * len(live) / (len(live) - len(down))
        out.append({"down": down, "rack": rack,
                    "offline_partitions": 0 if rack is None else int(rng.integers(0, 3)),
                    "under_min_isr": int(rng.integers(0, 50)) * (1 + 10 * (rack is not None)),
                    "max_leaders": int(rng.integers(300, 500)),
                    "max_bytes_in_per_s": mean * rng.uniform(1.05, 1.6),
                    "mean_bytes_in_per_s": mean})
    return sorted(out, key=lambda f: (-f["max_bytes_in_per_s"], -f["max_leaders"], f["down"]))


def plan_summary(brokers: int = 12, *, racks: int = 3, added: int = 2, removed: int = 1,
                 batches: int = 8, throttle: float | None = 5e7, failures: bool = True,
                 verified: bool | None = True, seed: int = 7) -> dict[str, Any]:
    """The summary of a plan over ``brokers`` brokers, the last ``added`` of them new, the
    ``removed`` before those emptied (see the module docstring)."""
    rng = np.random.default_rng(seed)
    old = brokers - added
    gone = set(range(old - removed, old))
    rows, moved, replicas = _brokers(brokers, old, racks, gone, rng)
    goals = [{"goal": g, "hard": hard, "before": 0 if hard else int(rng.integers(1, 30)),
              "after": 0, "ok": True, "floor": None} for g, hard in GOALS]
    # a soft goal the plan could not fully meet, above what the verifier shows feasible
    goals[-2].update(after=2, ok=False, floor=1)
    return {
        "format": "kpart-plan-summary", "version": 1,
        "partitions": replicas // 3, "replicas": replicas,
        "added_brokers": list(range(old, brokers)), "removed_brokers": sorted(gone),
        "moves": {"partitions": int(moved / 4e10), "replica_moves": int(moved / 3e10),
                  "leader_changes": int(rng.integers(10, 400)), "bytes_moved": moved,
                  "lower_bound_bytes": moved / 1.12},
        "goals": goals, "verified": verified, "errors": [],
        "capacity_threshold": 0.8,
        "brokers": rows,
        "schedule": _schedule(batches, moved, brokers, throttle, rng) if batches else None,
        "failures": _failures(rows, racks, rng) if failures else None,
    }
