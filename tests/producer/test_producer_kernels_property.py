"""Property tests: the vectorised ``partition_for_keys`` equals the scalar ``partition_for_key``
for every partitioner, on binary/large_binary/string/large_string arrays, slices, nulls, empty and
non-ASCII keys, chunked and dictionary arrays."""

from __future__ import annotations

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kpart import partition_for_key, partition_for_keys
from kpart.producer.clients import PARTITIONERS, get_partitioner

DETERMINISTIC = [p.id for p in PARTITIONERS.values() if p.deterministic]
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

counts = st.one_of(st.integers(1, 64), st.integers(1, 2**31 - 1))
byte_keys = st.lists(st.one_of(st.none(), st.binary(max_size=40)), max_size=40)
text_keys = st.lists(st.one_of(st.none(), st.text(max_size=20)), max_size=40)


def _expected(pid: str, keys: list[bytes | None], n: int, got: list[int | None]) -> None:
    """Check ``got`` against the scalar function: keyed slots exactly, null/empty slots by rule."""
    spec = get_partitioner(pid)
    for key, value in zip(keys, got, strict=True):
        if key is not None and not (len(key) == 0 and spec.empty_key == "random"):
            assert value == partition_for_key(key, n, pid), (key, n)
        elif key is None and spec.null_key == "unkeyed":
            assert value is None
        elif key is None and spec.null_key == "hash-empty":
            assert value == partition_for_key(None, n, pid)
        else:
            assert value is not None and 0 <= value < n


@pytest.mark.parametrize("pid", DETERMINISTIC)
@SETTINGS
@given(keys=byte_keys, n=counts, pad=st.integers(0, 3), large=st.booleans())
def test_binary_arrays_match_scalar(
    pid: str, keys: list[bytes | None], n: int, pad: int, large: bool
) -> None:
    arrow_type = pa.large_binary() if large else pa.binary()
    arr = pa.array([b"pad"] * pad + keys, type=arrow_type).slice(pad)
    _expected(pid, keys, n, partition_for_keys(arr, n, pid, seed=0, counter=0).to_pylist())


@pytest.mark.parametrize("pid", DETERMINISTIC)
@SETTINGS
@given(texts=text_keys, n=counts, pad=st.integers(0, 3), large=st.booleans())
def test_string_arrays_hash_utf8(
    pid: str, texts: list[str | None], n: int, pad: int, large: bool
) -> None:
    arrow_type = pa.large_string() if large else pa.string()
    arr = pa.array(["é"] * pad + texts, type=arrow_type).slice(pad)
    keys = [None if t is None else t.encode("utf-8", "surrogatepass") for t in texts]
    _expected(pid, keys, n, partition_for_keys(arr, n, pid, seed=0).to_pylist())


@pytest.mark.parametrize("pid", ["java:default", "librdkafka:consistent_random", "sarama:hash"])
@SETTINGS
@given(chunks=st.lists(byte_keys, min_size=1, max_size=4), n=counts)
def test_chunked_arrays(pid: str, chunks: list[list[bytes | None]], n: int) -> None:
    arr = pa.chunked_array([pa.array(c, type=pa.binary()) for c in chunks], type=pa.binary())
    got = partition_for_keys(arr, n, pid, seed=1)
    assert isinstance(got, pa.ChunkedArray) and got.num_chunks == len(chunks)
    _expected(pid, [k for c in chunks for k in c], n, got.to_pylist())


@pytest.mark.parametrize("pid", ["java:default", "kafka-go:crc32", "librdkafka:fnv1a"])
@SETTINGS
@given(keys=byte_keys, n=counts)
def test_dictionary_arrays(pid: str, keys: list[bytes | None], n: int) -> None:
    arr = pa.array(keys, type=pa.binary()).dictionary_encode()
    _expected(pid, keys, n, partition_for_keys(arr, n, pid, seed=2).to_pylist())


@SETTINGS
@given(keys=byte_keys, n=counts)
def test_parallel_kernels_match_serial(keys: list[bytes | None], n: int) -> None:
    arr = pa.array(keys, type=pa.binary())
    for pid in ("java:default", "librdkafka:consistent", "sarama:hash", "kafkajs:legacy"):
        serial = partition_for_keys(arr, n, pid, seed=3, counter=0)
        assert partition_for_keys(arr, n, pid, seed=3, counter=0, parallel=True).equals(serial)


def test_record_batch_column_and_empty_inputs() -> None:
    batch = pa.record_batch({"key": pa.array(["a", None, ""]), "v": pa.array([1, 2, 3])})
    assert partition_for_keys(batch.column(0), 4).to_pylist() == [
        partition_for_key(b"a", 4), None, partition_for_key(b"", 4)
    ]
    assert partition_for_keys(pa.array([], type=pa.binary()), 4).to_pylist() == []
    assert partition_for_keys(pa.array([b""] * 3), 4).to_pylist() == [partition_for_key(b"", 4)] * 3
    assert partition_for_keys(pa.array([None, None]), 4).to_pylist() == [None, None]
    assert partition_for_keys(pa.array(["k"], type=pa.string_view()), 4).to_pylist() == [
        partition_for_key(b"k", 4)
    ]


@SETTINGS
@given(keys=st.lists(st.binary(max_size=40), max_size=40), n=counts)
def test_kernel_index_rules_match_the_java_reference(keys: list[bytes], n: int) -> None:
    """The compiled kernels re-state Java ``int`` arithmetic inline (``_client_kernels._index``):
    they agree with ``kpart._java.murmur2``'s ``to_positive`` / ``to_int32``."""
    import numpy as np

    from kpart._java.ints import to_int32
    from kpart._java.murmur2 import murmur2, murmur2_unsigned, to_positive
    from kpart.producer._client_kernels import KERNELS, MODES

    arr = pa.array(keys, type=pa.binary())
    _, offsets_buf, data_buf = arr.buffers()
    offsets = np.frombuffer(offsets_buf, dtype=np.int32)[: len(keys) + 1]
    data = (np.frombuffer(data_buf, dtype=np.uint8) if data_buf is not None and data_buf.size
            else np.zeros(1, dtype=np.uint8))
    expected = {
        "to-positive": [to_positive(murmur2(k)) % n for k in keys],
        "unsigned": [murmur2_unsigned(k) % n for k in keys],
        "abs": [abs(to_int32(murmur2_unsigned(k))) % n for k in keys],
    }
    for rule, mode in MODES.items():
        for kernel in KERNELS["murmur2"]:
            out = np.empty(len(keys), dtype=np.int32)
            kernel(data, offsets, n, mode, out)
            assert out.tolist() == expected[rule], rule


@pytest.mark.parametrize("style", ["kafkajs", "kafka-go"])
@SETTINGS
@given(start=st.one_of(st.integers(0, 2**32 - 1), st.integers(2**31 - 20, 2**31 + 20),
                       st.integers(2**32 - 20, 2**32 - 1)),
       size=st.integers(0, 40), n=counts)
def test_vectorised_round_robin_matches_scalar(style: str, start: int, size: int, n: int) -> None:
    """``kernels._Draws.round_robin`` (numpy over the counters) agrees with the scalar
    ``clients.round_robin_partition`` (``kpart._java.murmur2.to_positive``), across the wraps."""
    from kpart.producer.clients import round_robin_partition
    from kpart.producer.kernels import _Draws

    spec = next(p for p in PARTITIONERS.values() if p.round_robin == style)
    got = _Draws(spec, 0, start).round_robin(size, n).tolist()
    assert got == [round_robin_partition(style, start + i, n) for i in range(size)]
