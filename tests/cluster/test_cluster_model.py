"""``kpart.cluster``: the model validates like Kafka's metadata, cluster.json round-trips, and
the load model is Cruise Control's (checked against a per-replica loop)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kpart.cluster import (
    Capacity,
    ClusterBroker,
    ClusterModel,
    PartitionState,
    TopicInfo,
    broker_load,
    cluster_from_json,
    cluster_to_json,
)
from kpart.errors import ConfigError

BROKERS = [ClusterBroker(i, f"r{i % 2}", Capacity(disk_bytes=1e9)) for i in (3, 1, 2)]


def _model(*parts: PartitionState) -> ClusterModel:
    return ClusterModel.from_partitions(BROKERS, parts, [TopicInfo("t", 2)])


def test_rows_are_sorted_and_read_back() -> None:
    m = _model(PartitionState("u", 0, (2,)), PartitionState("t", 1, (1, 2), leader=2),
               PartitionState("t", 0, (3, 1), leader=3, isr=(3,), size_bytes=5.0))
    assert [b.id for b in m.brokers] == [1, 2, 3]
    assert [t.name for t in m.topics] == ["t", "u"]
    assert [(m.partition_state(i).topic, m.partition_state(i).partition) for i in range(3)] == \
        [("t", 0), ("t", 1), ("u", 0)]
    assert m.partition_state(0) == PartitionState("t", 0, (3, 1), 3, (3,), size_bytes=5.0)
    assert m.replicas.shape == (3, 2) and not m.replicas.flags.writeable


@pytest.mark.parametrize(("parts", "message"), [
    ([PartitionState("t", 0, (9,))], "Partition t-0 has replica 9 on a broker the cluster"),
    ([PartitionState("t", 0, (1,)), PartitionState("t", 0, (2,))], "Partition t-0 is listed twice"),
    ([PartitionState("t", 0, (1, 2), leader=3)], "leader 3 is not one of its replicas"),
    ([PartitionState("t", 0, (1,), isr=(7,))], "has ISR member 7 on a broker"),
    ([PartitionState("t", 0, ())], "Partition t-0 has no replicas"),
    ([PartitionState("t", 0, (1,), size_bytes=-1.0)], "invalid size_bytes -1.0"),
])
def test_bad_partitions_are_named(parts, message) -> None:
    with pytest.raises(ConfigError, match=message):
        _model(*parts)


def test_bad_values_are_named() -> None:
    with pytest.raises(ConfigError, match="Broker 1 is listed twice"):
        ClusterModel.from_partitions([ClusterBroker(1), ClusterBroker(1)], [])
    with pytest.raises(ConfigError, match="capacity disk_bytes 0"):
        Capacity(disk_bytes=0)
    with pytest.raises(ConfigError, match="min.insync.replicas 0"):
        TopicInfo("t", 0)


def test_cluster_json_round_trips_and_refuses_misspellings() -> None:
    m = _model(PartitionState("t", 0, (3, 1), leader=3, isr=(3, 1), messages=10, size_bytes=2.5,
                              bytes_in_per_s=1.0, bytes_out_per_s=None))
    doc = json.loads(json.dumps(cluster_to_json(m)))
    back = cluster_from_json(doc)
    assert cluster_to_json(back) == doc
    assert doc["topics"][0]["configs"] == {"min.insync.replicas": 2}
    assert doc["topics"][0]["partitions"][0]["bytes_out_per_s"] is None
    doc["topics"][0]["partitions"][0]["replicaz"] = [1]
    with pytest.raises(ConfigError, match=r"cluster.topics\[0\].partitions\[0\].replicaz: unknown"):
        cluster_from_json(doc)
    with pytest.raises(ConfigError, match="cluster.version: kpart reads versions 1 to 3, got 4"):
        cluster_from_json({"format": "kpart-cluster", "version": 4})


_partition = st.builds(
    lambda reps, lead, size, rin, rout: (tuple(reps), reps[lead % len(reps)] if lead >= 0 else None,
                                         size, rin, rout),
    st.lists(st.sampled_from([1, 2, 3]), min_size=1, max_size=3, unique=True),
    st.integers(-1, 2),
    st.none() | st.floats(0, 1e6), st.none() | st.floats(0, 1e3), st.none() | st.floats(0, 1e3),
)


@given(st.lists(_partition, max_size=12))
def test_load_model_is_cruise_controls(rows) -> None:
    m = _model(*(PartitionState("t", i, reps, leader, size_bytes=size, bytes_in_per_s=rin,
                                bytes_out_per_s=rout)
                 for i, (reps, leader, size, rin, rout) in enumerate(rows)))
    want = {b: {"disk": 0.0, "in": 0.0, "out": 0.0, "replicas": 0, "leaders": 0} for b in (1, 2, 3)}
    for reps, leader, size, rin, rout in rows:
        for b in reps:
            want[b]["disk"] += size or 0.0
            want[b]["in"] += rin or 0.0  # leader from producers, followers by replication
            want[b]["replicas"] += 1
        if leader is not None:
            want[leader]["out"] += (rout or 0.0) + (rin or 0.0) * (len(reps) - 1)
            want[leader]["leaders"] += 1
    load = broker_load(m)
    for i, b in enumerate((1, 2, 3)):
        assert math.isclose(load.disk_bytes[i], want[b]["disk"], abs_tol=1e-6)
        assert math.isclose(load.network_in[i], want[b]["in"], abs_tol=1e-6)
        assert math.isclose(load.network_out[i], want[b]["out"], abs_tol=1e-6)
        assert (load.replicas[i], load.leaders[i]) == (want[b]["replicas"], want[b]["leaders"])


def test_load_of_a_target_uses_its_preferred_leaders() -> None:
    m = _model(PartitionState("t", 0, (1, 2), leader=1, bytes_in_per_s=4.0, bytes_out_per_s=1.0))
    target = np.array([[3, 2]], dtype=np.int32)
    load = broker_load(m, target, target[:, 0])
    assert load.network_out.tolist() == [0.0, 0.0, 5.0]
    assert load.replicas.tolist() == [0, 1, 1]


@pytest.mark.parametrize(("field", "value", "message"), [
    ("replicas", [1, True], r"partitions\[1\].replicas\[1\]: expected an integer"),
    ("replicas", [1, 2**31], r"partitions\[1\].replicas\[1\]: expected an integer from 0 to"),
    ("partition", -1, r"partitions\[1\].partition: expected an integer"),
    ("size_bytes", -2, r"partitions\[1\].size_bytes: expected a number >= 0"),
    ("leader", "2", r"partitions\[1\].leader: expected an integer"),
])
def test_the_columnar_reader_leaves_bad_values_to_the_reader_that_names_them(
        field, value, message) -> None:
    m = _model(PartitionState("t", 0, (3, 1), leader=3), PartitionState("t", 1, (2, 1)))
    doc = json.loads(json.dumps(cluster_to_json(m)))
    assert cluster_to_json(cluster_from_json(doc)) == doc  # the columnar reader took it
    doc["topics"][0]["partitions"][1][field] = value
    with pytest.raises(ConfigError, match=message):
        cluster_from_json(doc)


def test_the_columnar_and_entry_readers_agree() -> None:
    from kpart.cluster._partition_columns import partition_columns
    from kpart.cluster.cluster_json import _columns_of, _partition

    parts = [{"partition": 2, "replicas": [2, 1, 3], "leader": None, "isr": [2],
              "messages": 7, "size_bytes": 1.5},
             {"partition": 0, "replicas": [1], "leader": 1, "bytes_in_per_s": None}]
    fast = partition_columns(parts)
    slow = _columns_of([_partition("t", p, "x") for p in parts])
    assert fast is not None
    order = np.argsort(fast["partition"])  # the entry reader sorts by partition
    for name, column in fast.items():
        assert np.array_equal(column[order], slow[name], equal_nan=column.dtype.kind == "f"), name


def test_a_runaway_replica_list_is_refused_before_the_matrix_is_allocated() -> None:
    doc = cluster_to_json(_model(PartitionState("t", 0, (3, 1)), PartitionState("t", 1, (2,))))
    doc["topics"][0]["partitions"][1]["replicas"] = [1] * 1_000_000  # 1M x rows would not fit
    with pytest.raises(ConfigError, match=r"A list of 1000000 broker ids \(1, 1, .* repeats a "
                                          "broker: all the lists together name 2 brokers"):
        cluster_from_json(doc)
