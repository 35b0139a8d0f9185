"""kpart._java.uuid and kpart._java.collections against values a JVM (OpenJDK 17) printed.

``java.util.UUID`` has the same ``hashCode`` as Kafka's ``Uuid`` and the same signed
``compareTo`` as Kafka's ``Uuid`` at the golden-vector commit, so the JVM values below come
from ``new UUID(msb, lsb)`` built from the base64 strings. Collection orders come from
``HashSet``/``HashMap`` ``keySet()`` printouts.
"""

import pytest

from kpart._java.collections import JavaHashMap, JavaHashSet
from kpart._java.uuid import (
    uuid_compare_key,
    uuid_from_string,
    uuid_hash_code,
    uuid_hashset_order,
    uuid_to_string,
)
from kpart.errors import ConfigError

JVM_HASH = {
    "TiSarLlxTTgvi602tDaz1Q": 1827195255,
    "sY93prXaEpK1LjNHeBOFYA": -915877101,
    "3Sux13oGcW-najeAySSn7A": -916238124,
    "_KhgYzqwxf5UtM5S-CIi3g": 1787709713,
    "AAAAAAAAAAAAAAAAAAAAAQ": 1,
    "_____________________w": 0,
    "y5x7hSQe1iQYD1_6b2OT8A": -1729207893,
    "wyuKhjHyaBOUVmNbMgdF4w": 1418249261,
}
JVM_SORTED = [
    "sY93prXaEpK1LjNHeBOFYA",
    "wyuKhjHyaBOUVmNbMgdF4w",
    "y5x7hSQe1iQYD1_6b2OT8A",
    "3Sux13oGcW-najeAySSn7A",
    "_KhgYzqwxf5UtM5S-CIi3g",
    "_____________________w",
    "AAAAAAAAAAAAAAAAAAAAAQ",
    "TiSarLlxTTgvi602tDaz1Q",
]
# HashMap<UUID, ...>() filled with computeIfAbsent in JVM_HASH order, keySet() order.
JVM_UUID_MAP_ORDER = [
    "_____________________w",
    "AAAAAAAAAAAAAAAAAAAAAQ",
    "wyuKhjHyaBOUVmNbMgdF4w",
    "y5x7hSQe1iQYD1_6b2OT8A",
    "3Sux13oGcW-najeAySSn7A",
    "sY93prXaEpK1LjNHeBOFYA",
    "_KhgYzqwxf5UtM5S-CIi3g",
    "TiSarLlxTTgvi602tDaz1Q",
]
# new HashSet<UUID>(), add in JVM_HASH order, iteration order.
JVM_UUID_SET_ORDER = [
    "_____________________w",
    "AAAAAAAAAAAAAAAAAAAAAQ",
    "y5x7hSQe1iQYD1_6b2OT8A",
    "wyuKhjHyaBOUVmNbMgdF4w",
    "3Sux13oGcW-najeAySSn7A",
    "sY93prXaEpK1LjNHeBOFYA",
    "TiSarLlxTTgvi602tDaz1Q",
    "_KhgYzqwxf5UtM5S-CIi3g",
]


@pytest.mark.parametrize("text", sorted(JVM_HASH))
def test_uuid_hash_code_and_round_trip(text):
    u = uuid_from_string(text)
    assert uuid_hash_code(u) == JVM_HASH[text]
    assert uuid_to_string(u) == text


def test_uuid_compare_to_is_signed_like_the_jvm():
    ordered = sorted(JVM_HASH, key=lambda s: uuid_compare_key(uuid_from_string(s)))
    assert ordered == JVM_SORTED


def test_uuid_map_order_with_compute_if_absent():
    m = JavaHashMap(hash_of=uuid_hash_code)
    for s in JVM_HASH:
        m.compute_if_absent(uuid_from_string(s), lambda: 1)
    assert [uuid_to_string(k) for k, _ in m.items()] == JVM_UUID_MAP_ORDER


def test_uuid_hashset_order_with_add():
    # new HashSet<UUID>(), add in JVM_HASH order: y5x7... and wyuK... share a bucket and keep
    # their insertion order (computeIfAbsent above linked wyuK... first).
    order = uuid_hashset_order([uuid_from_string(s) for s in JVM_HASH], capacity=16)
    assert [uuid_to_string(k) for k in order] == JVM_UUID_SET_ORDER


@pytest.mark.parametrize(
    "bad", ["", "abc", "TiSarLlxTTgvi602tDaz1Q==x", "TiSarLlxTTgvi602tDaz1", 7]
)
def test_uuid_from_string_rejects_non_uuids(bad):
    with pytest.raises(ConfigError):
        uuid_from_string(bad)


def test_hashset_copy_constructor_order():
    # new HashSet<>(Arrays.asList(17, 1, 16, 0, 33, 49, 65))
    assert list(JavaHashSet.copy_of([17, 1, 16, 0, 33, 49, 65])) == [16, 0, 17, 1, 33, 49, 65]


def test_hashmap_compute_if_absent_links_at_bucket_head_and_resizes_first():
    # new HashMap<>(0), computeIfAbsent for each key
    m = JavaHashMap(0)
    for k in [1, 17, 33, 2, 49, 65, 3, 81]:
        m.compute_if_absent(k, lambda: None)
    assert [k for k, _ in m.items()] == [81, 65, 49, 33, 17, 1, 2, 3]


def test_hashmap_put_appends_at_bucket_tail():
    # new HashMap<>(0), put for each key
    m = JavaHashMap(0)
    for k in [1, 17, 33, 2, 49, 65, 3, 81]:
        m.put(k, k)
    assert [k for k, _ in m.items()] == [1, 17, 33, 49, 65, 81, 2, 3]


def test_hashset_remove_then_add_moves_to_bucket_tail():
    # new HashSet<>(Arrays.asList(40, 8, 24, 56, 72, 88)); remove(8); add(8); add(104)
    s = JavaHashSet.copy_of([40, 8, 24, 56, 72, 88])
    s.remove(8)
    s.add(8)
    s.add(104)
    assert list(s) == [40, 24, 56, 72, 88, 8, 104]
    assert 104 in s and len(s) == 7


def test_small_table_resizes_instead_of_making_a_tree_bin():
    # A 9th key in one bucket (put) or an 8th (computeIfAbsent) of a table below 64 buckets
    # doubles the table (HashMap.treeifyBin). JVM printouts:
    strided = [0, 16, 32, 48, 64, 80, 96, 112, 128]
    assert list(JavaHashSet.copy_of(strided)) == [0, 32, 64, 96, 128, 16, 48, 80, 112]
    s = JavaHashSet(16)
    for k in [*strided, 144]:
        s.add(k)
    assert list(s) == [0, 32, 64, 96, 128, 16, 48, 80, 112, 144]
    assert s.capacity == 32
    m = JavaHashMap(16)
    for k in strided:
        m.compute_if_absent(k, list)
    assert [k for k, _ in m.items()] == [128, 96, 64, 32, 0, 112, 80, 48, 16]
    m = JavaHashMap(16)
    for k in strided[:-1]:
        m.compute_if_absent(k, list)
    assert [k for k, _ in m.items()] == [96, 64, 32, 0, 112, 80, 48, 16]
    r = JavaHashSet(16)
    for k in strided[:-1]:
        r.add(k)
    r.remove(0)
    r.add(128)
    r.add(0)
    assert list(r) == [32, 64, 96, 128, 0, 16, 48, 80, 112]
