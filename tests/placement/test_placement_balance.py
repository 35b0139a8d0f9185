"""Balance figures of an assignment and partition sizes."""

from __future__ import annotations

import math

import pytest

from kpart.errors import ConfigError
from kpart.placement.balance import balance, parse_partition_sizes, ratio
from kpart.placement.spec import Broker


def test_seed_001_topic_test4_is_perfectly_balanced():
    a = {"topic-test4": {0: (2, 0, 1), 1: (0, 1, 2), 2: (1, 2, 0), 3: (2, 1, 0),
                         4: (0, 2, 1), 5: (1, 0, 2)}}
    r = balance(a)
    assert r.replicas_per_broker == ((0, 6), (1, 6), (2, 6))
    assert r.leaders_per_broker == ((0, 2), (1, 2), (2, 2))
    assert r.replica_ratio == r.leader_ratio == 1.0
    assert (r.partitions, r.replicas, r.brokers) == (6, 18, 3)


def test_per_rack_figures_and_violations():
    brokers = [Broker(0, "a"), Broker(1, "a"), Broker(2, "b"), Broker(3, "c")]
    a = {"x": {0: (0, 1), 1: (2, 3), 2: (0, 2)}, "y": {0: (1, 0, 2)}}
    r = balance(a, brokers)
    assert r.replicas_per_broker == ((0, 3), (1, 2), (2, 3), (3, 1))
    assert r.leaders_per_broker == ((0, 2), (1, 1), (2, 1), (3, 0))
    assert r.replicas_per_rack == (("a", 5), ("b", 3), ("c", 1))
    assert r.leaders_per_rack == (("a", 3), ("b", 1), ("c", 0))
    # x-0 sits in rack a only; y-0 (RF 3, 3 racks) spans a and b only
    assert r.rack_violations == (("x", 0), ("y", 0))
    assert r.replica_ratio == 3.0 and math.isinf(r.leader_ratio)
    d = r.to_dict()
    assert d["leader_ratio"] is None and d["replicas_per_broker"]["0"] == 3


def test_rack_violations_respect_the_pool():
    brokers = [Broker(0, "a"), Broker(1, "a"), Broker(2, "b")]
    a = {"x": {0: (0, 1)}}
    assert balance(a, brokers).rack_violations == (("x", 0),)
    assert balance(a, brokers, allowed={"x": {0, 1}}).rack_violations == ()


def test_new_brokers_count_as_empty():
    r = balance({"t": {0: (0,)}}, [Broker(0), Broker(1)])
    assert r.replicas_per_broker == ((0, 1), (1, 0))
    assert math.isinf(r.replica_ratio)


def test_unknown_broker_is_an_error():
    with pytest.raises(ConfigError, match="Unknown broker id 5 in the replicas of t-0"):
        balance({"t": {0: (5,)}}, [Broker(0)])


def test_ratio():
    assert ratio([]) == 1.0
    assert ratio([0, 0]) == 1.0
    assert ratio([2, 4]) == 2.0


LOG_DIRS = """Querying brokers for log directories information
Received log directory information from brokers 0,1
{"version":1,"brokers":[{"broker":0,"logDirs":[{"logDir":"/kafka","error":null,"partitions":[{"partition":"foo-0","size":100,"offsetLag":0,"isFuture":false},{"partition":"my-topic-1","size":7,"offsetLag":0,"isFuture":false}]}]},{"broker":1,"logDirs":[{"logDir":"/kafka","error":null,"partitions":[{"partition":"foo-0","size":120,"offsetLag":0,"isFuture":false},{"partition":"foo-0","size":999,"offsetLag":0,"isFuture":true}]}]}]}
"""


def test_sizes_from_kafka_log_dirs():
    assert parse_partition_sizes(LOG_DIRS) == {("foo", 0): 120, ("my-topic", 1): 7}


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ('{"foo": 1}', "Invalid partition name 'foo'"),
        ('{"foo-0": -1}', "Invalid size -1 for foo-0"),
        ('{"foo": {"x": 1}}', "Invalid partition 'x' of topic 'foo'"),
        ("{", "Malformed partition sizes JSON"),
        ("no json", "No JSON found"),
    ],
)
def test_bad_sizes(text, match):
    with pytest.raises(ConfigError, match=match):
        parse_partition_sizes(text)
