"""kpart._java.hashing against values Java itself produced."""

from golden_vectors import load_golden
from kpart._java.collections import JavaHashSet
from kpart._java.hashing import (
    hashmap_capacity,
    hashmap_order,
    hashset_copy_capacity,
    java_hash,
    presized_capacity,
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
    m: JavaHashSet[str] = JavaHashSet()
    for k in ["Aa", "BB"]:  # same bucket
        m.add(k)
    assert list(m) == ["Aa", "BB"]
    m.remove("Aa")
    m.add("Aa")
    assert list(m) == ["BB", "Aa"]


def test_first_is_iteration_head_and_clear_keeps_capacity():
    m: JavaHashSet[object] = JavaHashSet()
    for k in [("t", 5), ("t", 1), ("u", 0)]:  # TopicPartition keys, as in PartitionMovements
        m.add(k)
    assert m.first() == next(iter(m))
    for i in range(20):
        m.add(("v", i))
    assert m.capacity == 32
    m.clear()
    assert len(m) == 0 and m.capacity == 32  # HashMap.clear() never shrinks the table
    m.add("BB")
    m.add("Aa")  # same bucket as "BB": insertion order decides
    assert m.first() == "BB"


def test_presized_capacity_is_computed_in_float():
    # (int) (n / 0.75f) + 1, values printed by the JVM; for n = 3 * 2**22 + 1 the quotient
    # 2**24 + 1.33 rounds to the float 2**24 + 2 (double arithmetic would give 16777218).
    ns = (0, 1, 3, 12, 13, 3 * 2**22 + 1, 3 * 2**22 + 2)
    assert [presized_capacity(n) for n in ns] == [1, 2, 5, 17, 18, 16777219, 16777219]
