"""The load-aware plan's writers and summary on generated clusters: the array reassignment
writer equals the object one byte for byte; the summary's per-broker loads, moves and lower
bound agree with the plan; the Arrow table agrees with the target."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kpart.cluster.model import Capacity, ClusterBroker, ClusterModel, PartitionState
from kpart.cluster.optimizer import plan_cluster
from kpart.cluster.plan_summary import lower_bound_bytes, plan_summary, target_model
from kpart.cluster.schedule import reassignment_json as rows_json
from kpart.cluster.schedule import rollback_json
from kpart.placement.reassign import reassignment_json


@st.composite
def _rows(draw: st.DrawFn) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    names = draw(st.lists(st.text(min_size=1, max_size=4), min_size=1, max_size=4, unique=True))
    keys = draw(st.lists(st.tuples(st.integers(0, len(names) - 1), st.integers(0, 50)),
                         max_size=30, unique=True))
    width = draw(st.integers(1, 4))
    reps = np.full((len(keys), width), -1, dtype=np.int32)
    for i in range(len(keys)):
        ids = draw(st.lists(st.integers(0, 20), min_size=1, max_size=width, unique=True))
        reps[i, : len(ids)] = ids
    topic = np.array([t for t, _ in keys], dtype=np.int32)
    part = np.array([p for _, p in keys], dtype=np.int32)
    return names, topic, part, reps


@given(_rows())
@settings(max_examples=60)
def test_array_writer_equals_the_object_writer(rows) -> None:
    names, topic, part, reps = rows
    mapping: dict[str, dict[int, list[int]]] = {}
    for t, p, r in zip(topic.tolist(), part.tolist(), reps.tolist(), strict=True):
        mapping.setdefault(names[t], {})[p] = [b for b in r if b >= 0]
    model = ClusterModel.from_partitions(
        [ClusterBroker(b) for b in range(21)],
        [PartitionState(names[t], p, tuple(b for b in r if b >= 0))
         for t, p, r in zip(topic.tolist(), part.tolist(), reps.tolist(), strict=True)])
    every = np.arange(model.num_partitions)
    assert rows_json(model, model.replicas, every) == reassignment_json(mapping)
    assert rollback_json(model, every[::-1]) == reassignment_json(mapping)


def _model(n: int, seed: int) -> ClusterModel:
    rng = np.random.default_rng(seed)
    cap = Capacity(disk_bytes=1e6, network_in=1e6, network_out=1e6)
    brokers = [ClusterBroker(i, f"r{i % 3}", cap) for i in range(6)]
    first = rng.integers(0, 6, n)
    second = (first + rng.choice([1, 2, 4, 5], n)) % 6  # another rack: rack-aware already
    parts = [PartitionState(f"t{p % 3}", p, (int(first[p]), int(second[p])),
                            size_bytes=float(rng.integers(1, 100)),
                            bytes_in_per_s=float(rng.integers(0, 10)),
                            bytes_out_per_s=float(rng.integers(0, 10))) for p in range(n)]
    return ClusterModel.from_partitions(brokers, parts)


@given(st.integers(6, 60), st.integers(0, 2**16), st.booleans())
@settings(max_examples=25, deadline=None)
def test_summary_agrees_with_the_plan(n, seed, add) -> None:
    model = _model(n, seed)
    cap = model.brokers[0].capacity
    added = [ClusterBroker(6, "r0", cap)] if add else []
    plan = plan_cluster(model, add_brokers=added, remove_brokers=[] if add else [5])
    s = plan_summary(plan, added=[b.id for b in added])
    after = {b["broker"]: b["after"] for b in s["brokers"]}
    target = plan.target
    for b in plan.model.brokers:
        held = (target == b.id).any(axis=1)
        assert after[b.id]["replicas"] == int(held.sum())
        assert after[b.id]["leaders"] == int((target[:, 0] == b.id).sum())
        assert after[b.id]["disk_bytes"] == float(plan.model.size_bytes[held].sum())
    assert s["moves"]["partitions"] == int((target != plan.model.replicas).any(axis=1).sum())
    disk = plan.load_before.disk_bytes
    expected = disk.sum() / 7 if add else disk[-1]
    assert abs(lower_bound_bytes(plan, [b.id for b in added]) - expected) < 1e-6 * max(1, expected)
    if not add:
        assert s["brokers"][-1]["removed"] and s["brokers"][-1]["after"]["replicas"] == 0
        assert len(target_model(plan).brokers) == 5


def test_unknown_loads_are_null() -> None:
    m = ClusterModel.from_partitions([ClusterBroker(i) for i in range(2)],
                                     [PartitionState("t", p, (p % 2,)) for p in range(4)])
    s = plan_summary(plan_cluster(m, add_brokers=[ClusterBroker(2)]), added=[2])
    b = s["brokers"][0]
    assert b["capacity"] == {"disk_bytes": None, "nw_in_bytes_per_s": None,
                             "nw_out_bytes_per_s": None}
    assert b["before"]["disk_bytes"] is None and b["after"]["nw_out_bytes_per_s"] is None
    assert s["goals"][0]["before"] is None and s["failures"] is None
