"""Independent peers: librdkafka (``confluent_kafka.murmur2/consistent/fnv1a``, the C library the
Python client bundles) on 10**5 random keys and partition counts, and kafka-python's murmur2."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from kpart import murmur2, partition_for_key, partition_for_keys

confluent_kafka = pytest.importorskip("confluent_kafka")

N_KEYS = 100_000
BLOCKS = 25  # one random partition count per block of 4,000 keys


@pytest.fixture(scope="module")
def random_keys() -> list[bytes]:
    rng = np.random.default_rng(20241025)
    lengths = rng.integers(0, 65, size=N_KEYS)
    blob = rng.integers(0, 256, size=int(lengths.sum()), dtype=np.uint8).tobytes()
    ends = np.cumsum(lengths)
    return [blob[e - n : e] for e, n in zip(ends.tolist(), lengths.tolist(), strict=True)]


@pytest.fixture(scope="module")
def counts() -> list[int]:
    rng = np.random.default_rng(7)
    small = rng.integers(1, 200, size=BLOCKS - 5).tolist()
    return [1, 2, 1000, 65_537, 2_147_483_647, *small]


@pytest.mark.parametrize(
    ("pid", "peer"),
    [
        ("librdkafka:murmur2", "murmur2"),
        ("librdkafka:consistent", "consistent"),
        ("librdkafka:fnv1a", "fnv1a"),
    ],
)
def test_vectorised_matches_librdkafka(
    pid: str, peer: str, random_keys: list[bytes], counts: list[int]
) -> None:
    fn = getattr(confluent_kafka, peer)
    block = N_KEYS // BLOCKS
    mismatches = []
    for b, n in enumerate(counts):
        keys = random_keys[b * block : (b + 1) * block]
        ours = partition_for_keys(pa.array(keys, type=pa.binary()), n, pid).to_pylist()
        theirs = [fn(k, n) for k in keys]
        mismatches += [(k, n, o, t) for k, o, t in zip(keys, ours, theirs, strict=True) if o != t]
    assert not mismatches[:5], f"{len(mismatches)} mismatches"


def test_scalar_matches_librdkafka(random_keys: list[bytes]) -> None:
    for i, key in enumerate(random_keys[:3000]):
        n = 1 + i % 97
        assert partition_for_key(key, n, "librdkafka:murmur2") == confluent_kafka.murmur2(key, n)
        assert partition_for_key(key, n, "librdkafka:consistent") == confluent_kafka.consistent(
            key, n
        )
        assert partition_for_key(key, n, "librdkafka:fnv1a") == confluent_kafka.fnv1a(key, n)


def test_java_default_matches_librdkafka_murmur2(random_keys: list[bytes]) -> None:
    keys = random_keys[:20_000]
    ours = partition_for_keys(pa.array(keys), 31).to_pylist()
    assert ours == [confluent_kafka.murmur2(k, 31) for k in keys]


def test_murmur2_matches_kafka_python(random_keys: list[bytes]) -> None:
    default = pytest.importorskip("kafka.partitioner.default")
    for key in random_keys[:2000]:
        assert murmur2(key) & 0xFFFFFFFF == default.murmur2(key)  # kafka-python is unsigned
