"""kpart._java.hashing against values Java itself produced."""

from golden_vectors import load_golden
from kpart._java.hashing import (
    HashMapOrder,
    hashmap_capacity,
    hashmap_order,
    hashset_copy_capacity,
    java_hash,
    string_hash_code,
)


def test_string_hash_code_known_java_values():
    # Values printed by the JVM: "hello".hashCode(), the Aa/BB collision, the famous
    # Integer.MIN_VALUE hash, and a supplementary character (two UTF-16 code units).
    assert string_hash_code("hello") == 99162322
    assert string_hash_code("Aa") == string_hash_code("BB") == 2112
    assert string_hash_code("polygenelubricants") == -(2**31)
    assert string_hash_code("\U0001f600") == 0xD83D * 31 + 0xDE00
    # Printed by OpenJDK 17 (jshell): a surrogate pair, a lone surrogate, strings longer
    # than the 64 units summed before masking, ASCII and not.
    assert string_hash_code("\U0001f600x") == 54959989
    assert string_hash_code("\ud800") == 55296
    assert string_hash_code("x" * 1000) == -1715418112
    assert string_hash_code("\u00e9" * 70) == 395256672


def test_topic_partition_hash():
    # TopicPartition.hashCode = 31 * (31 + partition) + topic.hashCode()
    assert java_hash(("t", 0)) == 31 * 31 + ord("t")


def test_capacity_growth_matches_hashmap_resize_thresholds():
    assert hashmap_capacity(12) == 16
    assert hashmap_capacity(13) == 32
    assert hashmap_capacity(0, initial_capacity=0) == 1
    assert hashset_copy_capacity(13) == 32  # new HashMap(max(13/.75+1, 16)=18) -> 32


def test_rack_order_matches_striped_placer_aux():
    """StripedReplicaPlacer's HashMap<Optional<String>, Rack>, filled in broker order: its
    iteration order was recorded by the JVM for every golden case."""
    cases = load_golden("replicas_striped")
    for c in cases:
        racks = [b["rack"] for b in c["input"]["brokers"]]
        assert hashmap_order(racks) == c["aux"]["java_rack_hash_order"], c["id"]


def test_remove_and_put_moves_key_to_bucket_tail():
    m = HashMapOrder()
    for k in ["Aa", "BB"]:  # same bucket
        m.put(k)
    assert m.keys() == ["Aa", "BB"]
    m.remove("Aa")
    m.put("Aa")
    assert m.keys() == ["BB", "Aa"]


def test_first_is_iteration_head_and_clear_keeps_capacity():
    m = HashMapOrder()
    for k in [("t", 5), ("t", 1), ("u", 0)]:  # TopicPartition keys, as in PartitionMovements
        m.put(k)
    assert m.first() == m.keys()[0]
    for i in range(20):
        m.put(("v", i))
    assert m.capacity == 32
    m.clear()
    assert len(m) == 0 and m.capacity == 32  # HashMap.clear() never shrinks the table
    m.put("BB")
    m.put("Aa")  # same bucket as "BB": insertion order decides
    assert m.first() == "BB"
