"""Golden: all murmur2.jsonl vectors (Kafka's Utils.murmur2 / BuiltInPartitioner.partitionForKey),
through the scalar and vectorised paths, the key serializers, and every murmur2-based client."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from golden_vectors import case_ids, load_golden
from kpart import murmur2, partition_for_key, partition_for_keys, serialize_key
from kpart._java.murmur2 import to_positive
from kpart.producer.clients import PARTITIONERS

CASES = load_golden("murmur2")
COUNTS = sorted({int(n) for case in CASES for n in case["partitions"]})
MURMUR2_CLIENTS = [p.id for p in PARTITIONERS.values() if p.hash == "murmur2"]
ROW = {c["id"]: i for i, c in enumerate(CASES)}
SERIALIZER_OF_KIND = {"int32": "int", "int64": "long", "utf8": "string"}


def test_golden_file_is_complete() -> None:
    assert len(CASES) == 1926
    assert len(set(case_ids(CASES))) == 1926
    assert {c["key_kind"] for c in CASES} == {"empty", "bytes", "utf8", "int32", "int64"}
    assert all(c["exact"] for c in CASES)


@pytest.fixture(scope="module")
def vectorised() -> dict[tuple[str, int], list[int | None]]:
    """Every murmur2-based client's vectorised partitions of all golden keys, per count.

    Keys go in as one binary array and as a string array sliced by one (offset != 0) where
    every key is valid UTF-8, so both layouts are exercised."""
    keys = [bytes.fromhex(c["key_hex"]) for c in CASES]
    binary = pa.array(keys, type=pa.binary())
    large = pa.array([b"pad", *keys], type=pa.large_binary()).slice(1)
    results: dict[tuple[str, int], list[int | None]] = {}
    for client in MURMUR2_CLIENTS:
        for n in COUNTS:
            got = partition_for_keys(binary, n, client, seed=0).to_pylist()
            assert partition_for_keys(large, n, client, seed=0).to_pylist() == got
            results[(client, n)] = got
    return results


@pytest.mark.parametrize("case", CASES, ids=case_ids(CASES))
def test_murmur2_vector(case: dict, vectorised: dict) -> None:
    key = bytes.fromhex(case["key_hex"])
    assert murmur2(key) == case["murmur2"]
    assert to_positive(murmur2(key)) == case["to_positive"]
    row = ROW[case["id"]]
    for n_text, expected in case["partitions"].items():
        n = int(n_text)
        assert partition_for_key(key, n) == expected, n
        for client in MURMUR2_CLIENTS:
            assert partition_for_key(key, n, client, seed=0) == expected, (client, n)
            assert vectorised[(client, n)][row] == expected, (client, n)
    kind = case["key_kind"]
    if kind in ("int32", "int64"):
        assert serialize_key(case["key_int"], SERIALIZER_OF_KIND[kind]) == key
        assert serialize_key(str(case["key_int"]), SERIALIZER_OF_KIND[kind]) == key
    elif kind == "utf8":
        assert serialize_key(case["key_utf8"], "string") == key


def test_utf8_vectors_as_arrow_strings() -> None:
    """StringSerializer path: Arrow ``string`` arrays hash their UTF-8 bytes."""
    utf8 = [c for c in CASES if c["key_kind"] == "utf8"]
    strings = pa.array(["x", *(c["key_utf8"] for c in utf8)], type=pa.string()).slice(1)
    for n in COUNTS:
        got = partition_for_keys(strings, n).to_pylist()
        assert got == [c["partitions"][str(n)] for c in utf8], n
        large = partition_for_keys(strings.cast(pa.large_string()), n).to_pylist()
        assert large == got


def test_parallel_kernel_matches_golden() -> None:
    keys = pa.array([bytes.fromhex(c["key_hex"]) for c in CASES], type=pa.binary())
    for n in COUNTS:
        got = partition_for_keys(keys, n, parallel=True).to_numpy()
        expected = np.array([c["partitions"][str(n)] for c in CASES])
        np.testing.assert_array_equal(got, expected)
