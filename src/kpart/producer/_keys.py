"""Serialized keys, their partitions under a client's partitioner, and load skew: the key
helpers shared by :mod:`kpart.producer.compat` and :mod:`kpart.producer.whatif` (and their
Spark versions). Kafka's serializers (``StringSerializer``, ``UUIDSerializer``,
``IntegerSerializer``/``LongSerializer``/``ShortSerializer``) are reproduced on Arrow arrays.

>>> import pyarrow as pa
>>> serialized_keys(pa.array([1, None]), "short").to_pylist(), skew([2, 2, 4])
([b'\\x00\\x01', None], {'max_over_mean': 1.5, 'cv': 0.353553})
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from kpart.errors import ConfigError
from kpart.producer.clients import ClientPartitioner
from kpart.producer.kernels import partition_for_keys
from kpart.producer.serializers import SERIALIZERS

__all__ = ["VALUE_SERIALIZERS", "distinct_keys", "key_partitions", "serialized_keys", "skew"]

#: The serializers of key *values* (:data:`kpart.producer.serializers.SERIALIZERS` but ``hex``,
#: whose text is decoded to its bytes before the keys get here, then hashed as ``bytes``).
VALUE_SERIALIZERS = tuple(s for s in SERIALIZERS if s != "hex")
_WIDTHS = {"int": 4, "long": 8, "short": 2}


def serialized_keys(values: pa.Array | pa.ChunkedArray, serializer: str = "string") -> pa.Array:
    """The serialized key bytes of a column of key values, as Kafka's serializer writes them.

    ``string``/``bytes``: string or binary arrays as they are (UTF-8); ``uuid``: lower-cased
    strings (``UUID.toString()``); ``int``/``long``/``short``: integer arrays as 4/8/2 big-endian
    bytes. Nulls stay null. Raises ConfigError naming the serializer, type or out-of-range value.

    >>> serialized_keys(pa.array([48069, None]), "int").to_pylist()
    [b'\\x00\\x00\\xbb\\xc5', None]
    """
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    if pa.types.is_dictionary(values.type):
        values = values.dictionary_decode()
    t = values.type
    textual = pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t)
    binary = pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t)
    if serializer not in VALUE_SERIALIZERS:
        raise ConfigError(f"unknown key serializer {serializer!r}; known: "
                          f"{', '.join(VALUE_SERIALIZERS)}")
    if pa.types.is_null(t):
        return pa.nulls(len(values), pa.binary())
    if serializer in ("string", "bytes") and (textual or binary):
        return values
    if serializer == "uuid" and textual:
        return pc.utf8_lower(values)
    if serializer in _WIDTHS and pa.types.is_integer(t):
        width = _WIDTHS[serializer]
        if t == pa.uint64() and (pc.max(values).as_py() or 0) >= 1 << 63:
            raise ConfigError(f"{pc.max(values).as_py()} does not fit the {serializer} "
                              f"serializer ({8 * width}-bit signed)")
        ints = pc.fill_null(values, 0).to_numpy(zero_copy_only=False).astype(np.int64)
        bound = 1 << (8 * width - 1)
        bad = (ints < -bound) | (ints >= bound)
        if bad.any():
            raise ConfigError(f"{int(ints[bad][0])} does not fit the {serializer} serializer "
                              f"({8 * width}-bit signed)")
        data = ints.astype(f">i{width}").tobytes()
        validity = values.buffers()[0] if values.null_count else None
        if values.null_count and values.offset:
            validity = pa.array(values.is_valid().to_numpy(zero_copy_only=False)).buffers()[1]
        return pa.Array.from_buffers(pa.binary(width), len(values),
                                     [validity, pa.py_buffer(data)], values.null_count)
    raise ConfigError(f"the {serializer} serializer cannot serialize keys of type {t}")


def key_partitions(spec: ClientPartitioner, keys: pa.Array, n: int) -> np.ndarray:
    """int64 partition of every serialized key under ``spec``, ``-1`` where the key does not
    decide (null key unless the client hashes it as empty; a random empty-key or random
    client). No randomness is drawn: random slots are masked, not sampled."""
    if spec.hash == "none":
        return np.full(len(keys), -1, dtype=np.int64)
    parts = partition_for_keys(keys, n, spec.id, seed=0, counter=0)
    out: np.ndarray = pc.fill_null(parts, -1).to_numpy(zero_copy_only=False).astype(np.int64)
    if keys.null_count and spec.null_key != "hash-empty":
        out[keys.is_null().to_numpy(zero_copy_only=False)] = -1
    if spec.empty_key == "random":
        empty = pc.fill_null(pc.equal(pc.binary_length(keys), 0), False)
        out[empty.to_numpy(zero_copy_only=False)] = -1
    return out


def skew(values: np.ndarray | Sequence[int]) -> dict[str, float]:
    """``{"max_over_mean", "cv"}`` of per-partition loads (population std / mean; 0 when the
    mean is 0): those of :func:`kpart._skew.skew_stats`, the one skew measure.

    >>> skew([1, 2, 3, 6])
    {'max_over_mean': 2.0, 'cv': 0.62361}
    """
    from kpart._skew import skew_stats

    s = skew_stats(values)
    return {"max_over_mean": s["max_over_mean"], "cv": s["cv"]}


def distinct_keys(values: pa.Array | Sequence[Any],
                  records: Sequence[int] | np.ndarray | None = None) -> tuple[pa.Array, np.ndarray]:
    """Distinct key values (nulls form one group) and their summed records (1 per value when
    ``records`` is None). Raises ConfigError when the lengths differ or a count is negative."""
    if not isinstance(values, pa.Array | pa.ChunkedArray):
        values = pa.array(list(values))
    n = len(values)
    counts = np.ones(n, dtype=np.int64) if records is None else np.asarray(records)
    if counts.shape != (n,):
        raise ConfigError(f"records: expected {n} counts (one per key), got {counts.shape}")
    if counts.size and (counts.dtype.kind not in "iu" or counts.min() < 0):
        raise ConfigError("records: counts must be non-negative integers")
    table = pa.table({"k": values, "r": counts.astype(np.int64)})
    grouped = table.group_by("k", use_threads=False).aggregate([("r", "sum")])
    return grouped.column("k").combine_chunks(), grouped.column("r_sum").to_numpy()
