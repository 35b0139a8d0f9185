"""``RoundRobinPartitioner`` by the client's Kafka version (KAFKA-17632 in 3.9.2, not 3.9.1, and 4.0.0;
``onNewBatch`` removed by KAFKA-18295 in 4.0.0): 4 partitions, records sent back to back, each
needing a new batch: p1, p3, p1, p3 up to 3.9.1; p0, p1, p2, p3 after."""

from __future__ import annotations

import warnings

import pytest

from kpart.errors import ConfigError
from kpart.producer.cluster import Cluster
from kpart.producer.round_robin_partitioner import RoundRobinPartitioner


def _back_to_back(p: RoundRobinPartitioner, n: int) -> list[int]:
    c = Cluster.of("t", [0, 0, 0, 0])
    out = []
    for _ in range(n):
        first = p.partition("t", None, None, None, None, c)
        p.on_new_batch("t", c, first)
        out.append(p.partition("t", None, None, None, None, c))
    return out


@pytest.mark.parametrize("version", ["2.4.0", "2.8", "3.6.2", "3.9.0", "3.9.1"])
def test_up_to_3_9_1_every_other_partition(version):
    assert _back_to_back(RoundRobinPartitioner(kafka_version=version), 4) == [1, 3, 1, 3]


@pytest.mark.parametrize("version", ["3.9.2", "4.0.0", "4.0", "4.1.2", "4.3", None])
def test_from_3_9_2_every_partition(version):
    assert _back_to_back(RoundRobinPartitioner(kafka_version=version), 4) == [0, 1, 2, 3]


def test_versions_without_the_partitioner_or_ambiguous_are_errors():
    with pytest.raises(ConfigError, match=r"^RoundRobinPartitioner does not exist in "
                       r"kafka_version '2\.3\.1': RoundRobinPartitioner was added in 2\.4\.0"):
        RoundRobinPartitioner(kafka_version="2.3.1")
    with pytest.raises(ConfigError, match=r"^kafka_version '3\.9' is ambiguous for "
                       r"RoundRobinPartitioner: 3\.9\.0 kafka-9965, 3\.9\.2 kafka-17632"):
        RoundRobinPartitioner(kafka_version="3.9")
    with pytest.raises(ConfigError, match=r"^Unknown kafka_version '3\.9\.9'"):
        RoundRobinPartitioner(kafka_version="3.9.9")


def test_kafka_17632_fix_is_a_deprecated_alias():
    with pytest.warns(DeprecationWarning, match="kafka_version="):
        fixed = RoundRobinPartitioner(kafka_17632_fix=True)
    with pytest.warns(DeprecationWarning):
        old = RoundRobinPartitioner(kafka_17632_fix=False)
    assert _back_to_back(fixed, 4) == [0, 1, 2, 3] and _back_to_back(old, 4) == [1, 3, 1, 3]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        RoundRobinPartitioner(kafka_version="3.9.0")  # no warning without the alias
    with pytest.raises(ConfigError, match="got both"):
        RoundRobinPartitioner(kafka_version="4.3", kafka_17632_fix=True)
