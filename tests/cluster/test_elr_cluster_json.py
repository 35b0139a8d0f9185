"""``cluster.json`` version 2: KIP-966's ``elr`` / ``last_known_elr`` per partition, written
only when the model records some; versions 1 and 2 read."""

from __future__ import annotations

import json

import pytest

from kpart.cluster.cluster_json import cluster_from_json, cluster_to_json
from kpart.cluster.model import ClusterBroker, ClusterModel, PartitionState
from kpart.errors import ConfigError

BROKERS = [ClusterBroker(1), ClusterBroker(2), ClusterBroker(3)]


def _model(elr=(), last=()) -> ClusterModel:
    return ClusterModel.from_partitions(BROKERS, [
        PartitionState("a", 0, (1, 2, 3), None, (), elr=elr, last_known_elr=last),
        PartitionState("a", 1, (2, 3, 1), 2, (2, 3, 1)),
        PartitionState("b", 0, (3, 1), 3, (3, 1))])


def test_elr_round_trips_as_version_2():
    doc = json.loads(json.dumps(cluster_to_json(_model((3, 2), (3,)))))
    assert doc["version"] == 2
    first = doc["topics"][0]["partitions"][0]
    assert first["elr"] == [3, 2] and first["last_known_elr"] == [3]
    back = cluster_from_json(doc)
    assert back.partition_state(0).elr == (3, 2)
    assert back.partition_state(0).last_known_elr == (3,)
    assert back.partition_state(2).elr == ()


def test_without_elr_it_stays_version_1_and_version_1_is_read():
    doc = json.loads(json.dumps(cluster_to_json(_model())))
    assert doc["version"] == 1 and "elr" not in doc["topics"][0]["partitions"][0]
    assert cluster_from_json(doc).elr is None


def test_elr_in_a_version_1_file_and_unknown_versions_are_errors():
    doc = json.loads(json.dumps(cluster_to_json(_model((3,), (3,)))))
    doc["version"] = 1
    with pytest.raises(ConfigError, match=r"partitions\[0\]\.elr: unknown field"):
        cluster_from_json(doc)
    doc["version"] = 4
    with pytest.raises(ConfigError, match="kpart reads versions 1 to 3, got 4"):
        cluster_from_json(doc)
