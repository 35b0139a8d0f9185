"""Every client's key partitioner: DESIGN.md cross-client vectors, the clients' own published test
vectors, and each client's null-key and empty-key rule (scalar and vectorised)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from kpart import partition_for_key, partition_for_keys
from kpart.errors import ConfigError, InvalidPartitionsError
from kpart.producer._hashes import crc32, fnv1a32
from kpart.producer.clients import PARTITIONERS, get_partitioner

FAMILY = {
    "murmur2": [p.id for p in PARTITIONERS.values() if p.hash == "murmur2"],
    "crc32": [p.id for p in PARTITIONERS.values() if p.hash == "crc32"],
    "fnv1a-abs": [p.id for p in PARTITIONERS.values() if p.hash == "fnv1a" and p.index == "abs"],
    "kafkajs-legacy": ["kafkajs:legacy"],
}

# DESIGN.md "Cross-client key hashing": Java, kafkajs legacy, librdkafka consistent, Sarama default.
DESIGN_VECTORS = [
    (b"100:48069", 12, {"murmur2": 9, "kafkajs-legacy": 6, "crc32": 6, "fnv1a-abs": 3}),
    (b"TT0124", 15, {"murmur2": 10, "kafkajs-legacy": 1, "crc32": 9, "fnv1a-abs": 2}),
    (b"my_key_1", 6, {"murmur2": 0}),
    (b"my_key_2", 6, {"murmur2": 4}),
    (b"my_key_3", 6, {"murmur2": 5}),
    (b"my_key_4", 6, {"murmur2": 2}),
    (b"", 10, {"murmur2": 1}),
]


def _design_params() -> list:
    out = []
    for key, n, expected in DESIGN_VECTORS:
        for family, partition in expected.items():
            for pid in FAMILY[family]:
                if key == b"" and get_partitioner(pid).empty_key == "random":
                    continue  # librdkafka consistent_random / kafka-go CRC32: empty key = no key
                out.append(pytest.param(pid, key, n, partition, id=f"{pid}-{key!r}-{n}"))
    return out


@pytest.mark.parametrize(("pid", "key", "n", "expected"), _design_params())
def test_design_vectors(pid: str, key: bytes, n: int, expected: int) -> None:
    assert partition_for_key(key, n, pid, seed=1) == expected
    assert partition_for_keys(pa.array([b"x", key]).slice(1), n, pid, seed=1).to_pylist() == [
        expected
    ]
    assert partition_for_keys(pa.array([key.decode()]), n, pid, seed=1).to_pylist() == [expected]


# Sarama's TestConsistentCRCHashPartitioner (100 partitions): CRC-32 taken unsigned.
SARAMA_CRC = [
    ("abc123def456", 57),
    ("SheetJS", 26),
    ("9e8c7f4cf45857cfff7645d6", 24),
    ("3900446192ff85a5f67da10c", 75),
    ("0f4407b7a67d6d27de372198", 50),
]


@pytest.mark.parametrize("pid", FAMILY["crc32"])
@pytest.mark.parametrize(("key", "expected"), SARAMA_CRC)
def test_sarama_crc_vectors(pid: str, key: str, expected: int) -> None:
    assert partition_for_key(key.encode(), 100, pid) == expected
    assert partition_for_keys(pa.array([key]), 100, pid).to_pylist() == [expected]


# librdkafka's unittest_fnv1a: abs(int32(FNV-1a)) of these keys, obtained from Go's hash/fnv.
LIBRDKAFKA_FNV1A = [
    (b"kafka", 0xD33C4E1),
    (b"giberish123456789", 0x77A58295),
    (b"1234", 0x23BDD03),
    (b"234", 0x2DEA3CD2),
    (b"34", 0x740FA83E),
    (b"4", 0x310CA263),
    (b"PreAmbleWillBeRemoved,ThePrePartThatIs", 0x65CBD69C),
    (b"", 0x7EE3623B),
]


@pytest.mark.parametrize(("key", "abs_hash"), LIBRDKAFKA_FNV1A)
def test_librdkafka_fnv1a_vectors(key: bytes, abs_hash: int) -> None:
    h = fnv1a32(key)
    signed = h - (1 << 32) if h >= 1 << 31 else h
    assert abs(signed) == abs_hash
    for n in (1, 7, 12, 1000):
        for pid in FAMILY["fnv1a-abs"]:
            assert partition_for_key(key, n, pid) == abs_hash % n


def test_sarama_min_int32_hash() -> None:
    """Sarama's TestHashPartitionerMinInt32: FNV-1a = 2**31, int32 = MinInt32; abs still in range."""
    key = b"1468509572224"
    assert fnv1a32(key) == 1 << 31
    for pid in FAMILY["fnv1a-abs"]:
        assert partition_for_key(key, 50, pid) == (1 << 31) % 50
        assert partition_for_keys(pa.array([key]), 50, pid).to_pylist() == [(1 << 31) % 50]
    assert partition_for_key(key, 50, "sarama:reference") == 0  # (MinInt32 & 0x7fffffff) % 50


def test_crc32_is_ieee() -> None:
    assert crc32(b"123456789") == 0xCBF43926  # the CRC-32/ISO-HDLC check value


# ---- null and empty keys ---------------------------------------------------------------------


@pytest.mark.parametrize("pid", list(PARTITIONERS))
def test_null_key_rule(pid: str) -> None:
    spec = get_partitioner(pid)
    n = 7
    nulls = pa.nulls(500, type=pa.binary())
    got = partition_for_keys(nulls, n, pid, seed=5, counter=10)
    again = partition_for_keys(nulls, n, pid, seed=5, counter=10)
    assert got.equals(again)
    one = partition_for_key(None, n, pid, seed=5, counter=10)
    if spec.null_key == "unkeyed":
        assert got.null_count == 500 and one is None
        return
    values = got.to_numpy()
    assert got.null_count == 0 and ((values >= 0) & (values < n)).all()
    if spec.null_key == "hash-empty":
        assert set(values) == {partition_for_key(b"", n, pid)} == {one}
    elif spec.null_key == "random":
        assert set(values) == set(range(n))  # 500 uniform draws hit all 7 partitions
        assert 0 <= one < n
    else:  # round-robin, counter before the first record = 10
        step = 1 if spec.round_robin == "kafkajs" else 0
        assert values.tolist() == [(10 + step + j) % n for j in range(500)]
        assert one == (10 + step) % n


def test_kafkajs_counter_wraps_like_to_positive() -> None:
    counter = (1 << 31) - 3  # ++counter: 2**31-2, 2**31-1, 2**31 (toPositive -> 0), 2**31+1 -> 1
    got = partition_for_keys(pa.nulls(4, pa.binary()), 3, "kafkajs:legacy", counter=counter)
    assert got.to_pylist() == [(2**31 - 2) % 3, (2**31 - 1) % 3, 0, 1]


def test_kafka_go_round_robin_starts_at_zero_and_skips_keyed_records() -> None:
    keys = pa.array([None, b"a", None, None, b"", None], type=pa.binary())
    got = partition_for_keys(keys, 3, "kafka-go:hash").to_pylist()
    assert [got[i] for i in (0, 2, 3, 5)] == [0, 1, 2, 0]
    assert got[1] == partition_for_key(b"a", 3, "kafka-go:hash")
    assert got[4] == partition_for_key(b"", 3, "kafka-go:hash")


def test_round_robin_counter_continues_across_chunks() -> None:
    chunked = pa.chunked_array([pa.nulls(3, pa.binary()), pa.nulls(4, pa.binary())])
    got = partition_for_keys(chunked, 5, "kafka-go:hash")
    assert isinstance(got, pa.ChunkedArray)
    assert got.to_pylist() == [0, 1, 2, 3, 4, 0, 1]


@pytest.mark.parametrize("pid", list(PARTITIONERS))
def test_empty_key_rule(pid: str) -> None:
    spec = get_partitioner(pid)
    empties = pa.array([b""] * 400, type=pa.binary())
    values = partition_for_keys(empties, 5, pid, seed=3).to_numpy()
    if spec.empty_key == "random":
        assert set(values) == set(range(5))
    else:
        expected = partition_for_key(b"", 5, pid)
        assert expected is not None and set(values) == {expected}


def test_librdkafka_random_ignores_the_key() -> None:
    keys = pa.array([b"same key"] * 300)
    values = partition_for_keys(keys, 6, "librdkafka:random", seed=9).to_numpy()
    assert set(values) == set(range(6))
    draws = {partition_for_key(b"same key", 6, "librdkafka:random", seed=s) for s in range(60)}
    assert draws == set(range(6))


def test_random_rules_are_seeded_not_hidden_state() -> None:
    keys = pa.array([None, b"k", None, b"", None] * 50, type=pa.binary())
    for pid in ("librdkafka:consistent_random", "sarama:hash", "kafka-python:default"):
        a = partition_for_keys(keys, 11, pid, seed=42)
        assert a.equals(partition_for_keys(keys, 11, pid, seed=42))
        assert a.equals(partition_for_keys(keys, 11, pid, seed=np.random.default_rng(42)))
        assert not a.equals(partition_for_keys(keys, 11, pid, seed=43))


# ---- bad input -------------------------------------------------------------------------------


def test_unknown_partitioner_is_named() -> None:
    with pytest.raises(ConfigError, match="'librdkafka:crc'"):
        partition_for_key(b"k", 3, "librdkafka:crc")
    with pytest.raises(ConfigError, match="'nope'"):
        partition_for_keys(pa.array([b"k"]), 3, "nope")


@pytest.mark.parametrize("bad", [0, -1, 2.5, "12", True, 1 << 31])
def test_bad_partition_count_is_named(bad: object) -> None:
    with pytest.raises(InvalidPartitionsError, match=str(bad).replace(".", r"\.")):
        partition_for_key(b"k", bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidPartitionsError):
        partition_for_keys(pa.array([b"k"]), bad)  # type: ignore[arg-type]


def test_registry_ids_and_descriptions() -> None:
    assert list(PARTITIONERS) == [
        "java:default", "librdkafka:consistent", "librdkafka:consistent_random",
        "librdkafka:murmur2", "librdkafka:murmur2_random", "librdkafka:fnv1a",
        "librdkafka:fnv1a_random", "librdkafka:random", "sarama:hash", "sarama:reference",
        "sarama:crc", "sarama:murmur2", "kafkajs:default", "kafkajs:legacy", "kafka-go:hash",
        "kafka-go:reference-hash", "kafka-go:crc32", "kafka-go:murmur2", "kafka-python:default",
    ]
    assert all(p.description and "\n" not in p.description for p in PARTITIONERS.values())
