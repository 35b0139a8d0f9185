"""Coordinators (:mod:`kpart.cluster.coordinator`): Kafka's formulas on known values, the
``Utils.abs`` corner (``Integer.MIN_VALUE`` → partition 0, other negatives → their absolute
value, unlike ``& 0x7fffffff``), the partition count Kafka takes (the topic's, else the
config), leaders from a cluster model, versions and bad values. JVM-checked values:
tests/test_java_coordinator.py."""

from __future__ import annotations

import pytest

from kpart._java.hashing import string_hash_code
from kpart._java.ints import utils_abs
from kpart._java.murmur2 import to_positive
from kpart._java.objects import int_value, long_hash_code, long_value, objects_hash
from kpart.cluster.coordinator import (
    GroupKey,
    RemoteLogMetadataKey,
    SharePartitionKey,
    TransactionKey,
    find_coordinator,
    internal_topic_partitions,
)
from kpart.cluster.model import ClusterBroker, ClusterModel, PartitionState
from kpart.errors import ConfigError, InvalidPartitionsError


def test_utils_abs_is_neither_to_positive_nor_math_abs():
    assert utils_abs(-(2**31)) == 0
    assert utils_abs(-1) == 1 and to_positive(-1) == 2**31 - 1
    assert utils_abs(-5) == 5 and utils_abs(2**31 - 1) == 2**31 - 1
    with pytest.raises(ValueError):
        utils_abs(2**31)


@pytest.mark.parametrize("group_id", ["polygenelubricants", "GydZG_", "DESIGNING WORKHOUSES"])
def test_a_group_whose_hash_code_is_min_value_goes_to_partition_0(group_id):
    assert string_hash_code(group_id) == -(2**31)
    for n in (1, 7, 50, 64, 2**31 - 1):
        assert GroupKey(group_id).partition_for(n) == 0
        assert TransactionKey(group_id).partition_for(n) == 0
    # Math.abs(MIN_VALUE) stays negative: Java's MIN_VALUE % 3 would be -2, not a partition
    assert GroupKey(group_id).partition_for(3) == 0


def test_other_negative_hash_codes_take_the_absolute_value():
    negatives = [k for k in ("orders", "payments-v2", "consumer-1", "analytics", "tx-1", "zz",
                             "billing-service", "a" * 20) if string_hash_code(k) < 0]
    assert len(negatives) >= 3
    for key in negatives:
        h = string_hash_code(key)
        assert GroupKey(key).partition_for(50) == (-h) % 50
        assert TransactionKey(key).partition_for(50) == (-h) % 50
        if (-h) % 50 != to_positive(h) % 50:  # the & 0x7fffffff mistake would differ here
            break
    else:
        pytest.fail("no key where abs and & 0x7fffffff differ")


def test_known_values():
    assert GroupKey("a").partition_for() == 97 % 50
    assert GroupKey("orders").partition_for() == 31
    assert TransactionKey("tx-1").partition_for() == 20
    k = SharePartitionKey("sg", "TiSarLlxTTgvi602tDaz1Q", 3)
    assert k.coordinator_key == "sg:TiSarLlxTTgvi602tDaz1Q:3"
    assert k.partition_for() == utils_abs(string_hash_code(k.coordinator_key)) % 50
    assert RemoteLogMetadataKey("TiSarLlxTTgvi602tDaz1Q", 0).partition_for() == 30


def test_share_key_uses_the_canonical_topic_id():
    # Uuid.fromString ignores the last character's unused bits; toString writes zeros
    k = SharePartitionKey("g", "AAAAAAAAAAAAAAAAAAAAAR", 0)
    assert k.topic_id == "AAAAAAAAAAAAAAAAAAAAAQ"
    assert k.coordinator_key == "g:AAAAAAAAAAAAAAAAAAAAAQ:0"


def test_objects_hash_of_longs_and_an_int():
    assert objects_hash() == 1
    assert objects_hash(long_value(1), long_value(2), int_value(3)) == 30817
    assert long_hash_code(-1) == 0 and long_hash_code(2**64 - 1) == 0
    assert objects_hash(long_value(2**64 - 1)) == 31


def _cluster(offsets: int = 5) -> ClusterModel:
    rows = [PartitionState("__consumer_offsets", p, (1 + p % 3, 1 + (p + 1) % 3),
                           leader=None if p == 0 else 1 + p % 3,
                           isr=() if p == 0 else (1 + p % 3, 1 + (p + 1) % 3))
            for p in range(offsets)]
    rows.append(PartitionState("t", 0, (1,), leader=1))
    return ClusterModel.from_partitions([ClusterBroker(b) for b in (1, 2, 3)], rows)


def test_the_topic_s_partition_count_wins_over_the_config():
    m = _cluster(5)
    assert internal_topic_partitions(m, "__consumer_offsets") == 5
    assert internal_topic_partitions(m, "__transaction_state") is None
    c = find_coordinator(GroupKey("orders"), cluster=m, num_partitions=50)
    assert c.num_partitions == 5 and c.partition == 31 % 5 and c.leader == 1 + 1 % 3
    t = find_coordinator(TransactionKey("tx-1"), cluster=m, num_partitions=7)
    want = utils_abs(string_hash_code("tx-1")) % 7
    assert (t.num_partitions, t.partition, t.leader) == (7, want, None)


def test_an_offline_coordinator_partition_has_no_leader():
    c = find_coordinator(GroupKey("polygenelubricants"), cluster=_cluster(5))
    assert (c.partition, c.leader) == (0, None)


def test_without_a_cluster_the_leader_is_unknown():
    c = find_coordinator(GroupKey("orders"))
    assert (c.topic, c.partition, c.num_partitions, c.leader) == ("__consumer_offsets", 31, 50,
                                                                  None)


@pytest.mark.parametrize("rule_key, version", [
    (TransactionKey("t"), "0.10.2"),
    (SharePartitionKey("g", "TiSarLlxTTgvi602tDaz1Q", 0), "3.9"),
    (RemoteLogMetadataKey("TiSarLlxTTgvi602tDaz1Q", 0), "3.5"),
])
def test_a_version_without_the_feature_is_an_error(rule_key, version):
    with pytest.raises(ConfigError, match=repr(version)):
        rule_key.partition_for(50, version)
    rule_key.partition_for(50, "4.3")


@pytest.mark.parametrize("n", [0, -1, 2**31, True, 1.5])
def test_bad_partition_counts(n):
    with pytest.raises(InvalidPartitionsError, match="num_partitions"):
        GroupKey("g").partition_for(n)


@pytest.mark.parametrize("make", [
    lambda: GroupKey(""),
    lambda: TransactionKey(""),
    lambda: SharePartitionKey("g", "nope", 0),
    lambda: SharePartitionKey("g", "AAAAAAAAAAAAAAAAAAAAAA", 0),
    lambda: SharePartitionKey("g", "TiSarLlxTTgvi602tDaz1Q", -1),
    lambda: RemoteLogMetadataKey("TiSarLlxTTgvi602tDaz1Q", 2**31),
])
def test_bad_keys(make):
    with pytest.raises(ConfigError):
        make()


def test_coordinator_changes_after_an_outage():
    from kpart.cluster.broker_outage import outage
    from kpart.cluster.coordinator import coordinator_changes

    m = _cluster(5)
    found = [find_coordinator(GroupKey(g), cluster=m) for g in ("orders", "polygenelubricants")]
    found.append(find_coordinator(TransactionKey("tx-1"), cluster=m))  # not recorded: left out
    before = {c.key: c.leader for c in found}
    after = outage(m, [before["orders"]]).leader_after()
    changes = coordinator_changes(found, m, after)
    assert [(c.coordinator.key, c.status) for c in changes] == [("orders", "moved")]
    assert changes[0].leader not in (None, before["orders"])
    assert coordinator_changes(found, m, m.leader) == []
    with pytest.raises(ValueError):
        coordinator_changes(found, m, after[:2])
