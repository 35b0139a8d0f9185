"""partition_for_key / partition_for_record (explicit partition path) and the key serializers."""

from __future__ import annotations

import uuid

import pytest

from kpart import partition_for_key, partition_for_record, serialize_key
from kpart.errors import ConfigError, InvalidPartitionError, InvalidPartitionsError, KpartError


def test_explicit_partition_wins_over_key() -> None:
    assert partition_for_record(12, partition=11, key=b"100:48069") == 11
    assert partition_for_record(12, partition=0) == 0
    assert partition_for_record(12, key=b"100:48069") == 9
    assert partition_for_record(12) is None  # no key, no partition: Kafka's sticky partitioner


def test_out_of_range_partition_uses_kafkas_message() -> None:
    with pytest.raises(InvalidPartitionError) as e:
        partition_for_record(3, partition=3, key=b"k")
    assert str(e.value) == "Invalid partition given with record: 3 is not in the range [0...3)."
    with pytest.raises(InvalidPartitionError) as e:
        partition_for_record(3, partition=-1)
    assert str(e.value) == (
        "Invalid partition: -1. Partition number should always be non-negative or null."
    )
    assert e.value.java_class == "java.lang.IllegalArgumentException"
    assert isinstance(e.value, KpartError) and isinstance(e.value, ValueError)


def test_explicit_partition_path_validates_count_first() -> None:
    with pytest.raises(InvalidPartitionsError, match="got 0"):
        partition_for_record(0, partition=0)


def test_java_null_key_is_not_key_decided() -> None:
    assert partition_for_key(None, 5) is None


@pytest.mark.parametrize("bad", ["text", 5, ["b"]])
def test_key_must_be_bytes(bad: object) -> None:
    with pytest.raises(ConfigError, match="key must be bytes"):
        partition_for_key(bad, 3)  # type: ignore[arg-type]


def test_bytes_like_keys() -> None:
    expected = partition_for_key(b"abc", 7)
    assert partition_for_key(bytearray(b"abc"), 7) == expected
    assert partition_for_key(memoryview(b"abc"), 7) == expected


# ---- serializers -----------------------------------------------------------------------------


def test_integer_serializers_are_big_endian_twos_complement() -> None:
    assert serialize_key(1, "int") == b"\x00\x00\x00\x01"
    assert serialize_key(-2, "int") == b"\xff\xff\xff\xfe"
    assert serialize_key(2**31 - 1, "IntegerSerializer") == b"\x7f\xff\xff\xff"
    assert serialize_key(-(2**63), "long") == b"\x80" + b"\x00" * 7
    assert serialize_key(-1, "org.apache.kafka.common.serialization.ShortSerializer") == b"\xff\xff"
    assert serialize_key(" 42 ", "short") == b"\x00\x2a"


@pytest.mark.parametrize(
    ("value", "serializer"),
    [(2**31, "int"), (-(2**31) - 1, "int"), (2**63, "long"), (32768, "short")],
)
def test_integer_out_of_range_is_named(value: int, serializer: str) -> None:
    with pytest.raises(ConfigError, match=str(value)):
        serialize_key(value, serializer)


@pytest.mark.parametrize("value", ["1.5", "abc", "", True, 2.0])
def test_non_integer_is_named(value: object) -> None:
    with pytest.raises(ConfigError, match="not an integer"):
        serialize_key(value, "int")


def test_string_serializer_is_utf8_like_java() -> None:
    assert serialize_key("TT0124") == b"TT0124"
    assert serialize_key("日本") == "日本".encode()
    assert serialize_key("\U0001d11e") == b"\xf0\x9d\x84\x9e"
    assert serialize_key("a\ud800b") == b"a?b"  # Java replaces an unpaired surrogate with '?'
    assert serialize_key("", "string") == b""
    assert serialize_key(None, "string") is None


def test_uuid_serializer_is_the_tostring_text() -> None:
    u = uuid.UUID("123e4567-e89b-12d3-a456-426614174000")
    assert serialize_key(u, "uuid") == b"123e4567-e89b-12d3-a456-426614174000"
    assert serialize_key("123E4567-E89B-12D3-A456-426614174000", "uuid") == serialize_key(u, "uuid")
    with pytest.raises(ConfigError, match="not-a-uuid"):
        serialize_key("not-a-uuid", "uuid")


def test_hex_and_bytes() -> None:
    assert serialize_key("00ff10", "hex") == b"\x00\xff\x10"
    assert serialize_key(b"\x01", "bytes") == b"\x01"
    with pytest.raises(ConfigError, match="'0g'"):
        serialize_key("0g", "hex")
    with pytest.raises(ConfigError, match="'text'"):
        serialize_key("text", "bytes")


def test_unknown_serializer_is_named() -> None:
    with pytest.raises(ConfigError, match="'avro'"):
        serialize_key("x", "avro")
