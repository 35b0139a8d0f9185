"""The numpy AdminUtils walk against the scalar reference (Kafka's loop, partition by
partition) on random clusters: racks balanced or not, RF above the rack count, any start."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kpart import Broker
from kpart.placement import admin_utils
from kpart.placement._admin_utils_numpy import walk_array


@st.composite
def plans(draw: st.DrawFn) -> admin_utils._Plan:
    n = draw(st.integers(1, 24))
    ids = draw(st.lists(st.integers(0, 200), min_size=n, max_size=n, unique=True))
    racked = draw(st.booleans())
    if racked:
        num_racks = draw(st.integers(1, n))
        rack_ids = draw(st.lists(st.integers(0, num_racks - 1), min_size=n, max_size=n))
        brokers = [Broker(b, f"r{r}") for b, r in zip(ids, rack_ids, strict=True)]
    else:
        brokers = [Broker(b) for b in ids]
    rf = draw(st.integers(1, n))
    partitions = draw(st.integers(1, 4 * n + 5))
    start = draw(st.one_of(st.none(), st.integers(0, 3 * n)))
    fixed = draw(st.one_of(st.none(), st.integers(0, 3 * n)))
    seed = draw(st.integers(-(2**63), 2**63 - 1))
    return admin_utils._plan(*admin_utils._placement_inputs(brokers, partitions, rf, fixed, start, seed, True, None))


@settings(max_examples=150, deadline=None)
@given(plans())
def test_vectorised_walk_equals_scalar_reference(plan: admin_utils._Plan) -> None:
    expected = admin_utils._walk(plan)
    got = walk_array(plan)
    assert got.shape == (plan.num_partitions, plan.replication_factor)
    first = plan.start_partition_id
    assert {first + i: tuple(r) for i, r in enumerate(got.tolist())} == expected


def test_large_dict_path_uses_vectorised_walk() -> None:
    brokers = [Broker(i, f"rack{i % 4}") for i in range(12)]
    kw = {"fixed_start_index": 5, "start_partition_id": 7}
    got = admin_utils.assign_replicas_to_brokers(brokers, 5000, 3, **kw)
    plan = admin_utils._plan(*admin_utils._placement_inputs(brokers, 5000, 3, 5, 7, None, True, None))
    assert got == admin_utils._walk(plan)
    assert min(got) == 7 and max(got) == 5006


def test_array_dtype_and_unaware_large() -> None:
    a = admin_utils.assign_replicas_to_brokers_array(list(range(0, 30, 3)), 1000, 3,
                                                     fixed_start_index=3)
    assert a.dtype == np.int64 and a.shape == (1000, 3)
    assert (np.sort(a, axis=1)[:, 1:] != np.sort(a, axis=1)[:, :-1]).all()
