"""The leadership program is bounded by a count of work (HiGHS's branch-and-bound nodes),
never by the clock: the same input gives the same plan when another process loads the CPU
(issue 27). Nothing here is timed: the load only slows the second solve down."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

import kpart.cluster.goals._exact_leadership as program
from kpart.cluster import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.goals import DEFAULT_GOALS, GoalState, goal_state
from kpart.cluster.goals._exact_leadership import NODE_LIMIT, program_leaders
from kpart.cluster.optimizer import plan_cluster

_GOALS = [g for g in DEFAULT_GOALS if g in program.leadership_goals(DEFAULT_GOALS) or g.hard]


def _model(seed: int, brokers: int, partitions: int) -> ClusterModel:
    """Random RF 1-3 partitions with heavy-tailed rates (as test_optimizer_program.py)."""
    rng = np.random.default_rng(seed)
    parts = []
    for i in range(partitions):
        rf = int(rng.integers(1, min(3, brokers) + 1))
        reps = tuple(int(b) for b in rng.choice(brokers, size=rf, replace=False))
        out, rin = float(rng.pareto(1.5) * 10), float(rng.pareto(1.5) * 3)
        parts.append(PartitionState("t", i, reps, leader=reps[0], isr=reps, size_bytes=1.0,
                                    bytes_in_per_s=rin, bytes_out_per_s=out))
    cap = Capacity(disk_bytes=1e9, network_in=1e9,
                   network_out=float(rng.choice([1e9, 400.0])))
    return ClusterModel.from_partitions(
        [ClusterBroker(i, f"r{i}", cap) for i in range(brokers)], parts)


def _state(model: ClusterModel) -> GoalState:
    return goal_state(model, model.replicas, np.ones(len(model.brokers), bool))


@contextmanager
def _cpu_load(processes: int = 2) -> Iterator[None]:
    """``processes`` busy-looping Python processes (the machine's cores taken) for the body;
    each has started looping before the body runs, and each is ended by its own handle."""
    code = "import sys; print('busy', flush=True)\nwhile True: pass"
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
             for _ in range(processes)]
    try:
        for p in procs:
            assert p.stdout is not None and p.stdout.readline() == "busy\n"
        yield
    finally:
        for p in procs:
            p.kill()
            p.wait()


def _leaders_twice(seed: int, brokers: int, partitions: int,
                   nodes: int) -> tuple[tuple[int, list[int]], tuple[int, list[int]]]:
    out = []
    for loaded in (False, True):
        s = _state(_model(seed, brokers, partitions))
        if loaded:
            with _cpu_load():
                made = program_leaders(s, _GOALS, nodes=nodes)
        else:
            made = program_leaders(s, _GOALS, nodes=nodes)
        out.append((made, s.pos[:, 0].tolist()))
    return out[0], out[1]


def test_a_bounded_solve_gives_the_same_leaders_under_load() -> None:
    """Seed 220 (6 brokers, 36 partitions) needs 23 nodes to its optimum (12 leaderships);
    stopped after 4 it passes 8. Stopped by the count, the answer is the same on an idle and
    on a loaded machine; a clock-bound stop has no such guarantee."""
    idle, loaded = _leaders_twice(220, 6, 36, nodes=4)
    assert idle == loaded
    assert idle[0] == 8
    full_idle, full_loaded = _leaders_twice(220, 6, 36, nodes=NODE_LIMIT)
    assert full_idle == full_loaded
    assert full_idle[0] == 12


def test_the_solver_gets_a_node_limit_and_no_time_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[dict[str, Any]] = []
    real = program.milp

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(dict(kwargs["options"]))
        return real(*args, **kwargs)

    monkeypatch.setattr(program, "milp", spy)
    assert program_leaders(_state(_model(220, 6, 36)), _GOALS) == 12
    assert seen and all(o.get("node_limit") == NODE_LIMIT and "time_limit" not in o
                        for o in seen)


def test_the_same_plan_twice_when_the_cpu_is_loaded_in_between() -> None:
    model = _model(220, 6, 36)
    first = plan_cluster(model)
    assert "leadership program" in dict(first.seconds)
    with _cpu_load():
        second = plan_cluster(model)
    assert first.leader_changes > 0
    assert second.target.tolist() == first.target.tolist()
    assert second.leader_changes == first.leader_changes
    assert second.replica_moves == first.replica_moves
