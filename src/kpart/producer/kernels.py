"""Vectorised org.apache.kafka.clients.producer.internals.BuiltInPartitioner#partitionForKey (and
every other client's key partitioner): Arrow keys in, Arrow ``int32`` partitions out.

:func:`partition_for_keys` runs a compiled numba kernel straight over the Arrow offsets and data
buffers (no Python per key, no copy of the keys). The scalar
:func:`kpart.producer.builtin.partition_for_key` is the reference; property tests check that both
agree on every partitioner, on binary and string arrays, slices, nulls and empty keys.

Importable in Spark Python workers: the kernels are module-level ``@njit(cache=True)`` functions,
compiled (or loaded from numba's cache) in the process that calls them. Use it on a
``pyarrow.RecordBatch`` column inside ``mapInArrow``.

>>> import pyarrow as pa
>>> partition_for_keys(pa.array([b"my_key_1", b"my_key_2", None, b""]), 6).to_pylist()
[0, 4, None, 3]
>>> partition_for_keys(pa.array(["100:48069", "TT0124"]), 12, "kafkajs:legacy").to_pylist()
[6, 4]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from kpart.errors import ConfigError
from kpart.producer.clients import (
    ClientPartitioner,
    check_num_partitions,
    get_partitioner,
    index_of_hash,
    initial_counter,
    key_hash,
    rng_from,
)

__all__ = ["partition_for_keys"]

_EMPTY_DATA = np.zeros(1, dtype=np.uint8)


def _binary_view(keys: pa.Array) -> pa.Array:
    """``keys`` as binary/large_binary (strings share the layout; views are cast)."""
    t = keys.type
    if pa.types.is_binary(t) or pa.types.is_large_binary(t):
        return keys
    if pa.types.is_string(t):
        return keys.view(pa.binary())
    if pa.types.is_large_string(t):
        return keys.view(pa.large_binary())
    if pa.types.is_binary_view(t) or pa.types.is_string_view(t):
        return keys.cast(pa.large_binary() if len(keys) > 1 << 20 else pa.binary())
    if pa.types.is_fixed_size_binary(t):
        return keys.cast(pa.binary())
    if pa.types.is_null(t):
        return pa.nulls(len(keys), pa.binary())
    raise ConfigError(
        f"keys must be a binary or string Arrow array (serialize them first), got type {t}"
    )


def _hash_partitions(
    spec: ClientPartitioner, keys: pa.Array, n: int, parallel: bool
) -> np.ndarray:
    """int32 partition of every slot of a binary/large_binary array (null slots: garbage)."""
    from kpart.producer._client_kernels import KERNELS, MODES

    length = len(keys)
    out = np.empty(length, dtype=np.int32)
    if length == 0:
        return out
    _, offsets_buf, data_buf = keys.buffers()
    window = slice(keys.offset, keys.offset + length + 1)
    offsets: NDArray[np.int32] | NDArray[np.int64] = (
        np.frombuffer(offsets_buf, dtype=np.int64)[window]
        if pa.types.is_large_binary(keys.type)
        else np.frombuffer(offsets_buf, dtype=np.int32)[window]
    )
    data = (
        np.frombuffer(data_buf, dtype=np.uint8)
        if data_buf is not None and data_buf.size > 0
        else _EMPTY_DATA
    )
    serial, par = KERNELS[spec.hash]
    (par if parallel else serial)(data, offsets, n, MODES[spec.index], out)
    return out


class _Draws:
    """The random generator and round-robin counter shared by all chunks of one call."""

    __slots__ = ("_rng", "_seed", "counter", "spec")

    def __init__(self, spec: ClientPartitioner, seed: Any, counter: int | None) -> None:
        self.spec = spec
        self._seed = seed
        self._rng: np.random.Generator | None = None
        self.counter = counter

    def rng(self) -> np.random.Generator:
        if self._rng is None:  # created on first use: no entropy drawn when nothing is random
            self._rng = rng_from(self._seed)
        return self._rng

    def random(self, size: int, n: int) -> np.ndarray:
        return self.rng().integers(0, n, size=size, dtype=np.int64)

    def round_robin(self, size: int, n: int) -> np.ndarray:
        style = self.spec.round_robin
        assert style is not None
        if self.counter is None:
            self.counter = initial_counter(style, self.rng())
        counters = self.counter + np.arange(size, dtype=np.int64)
        self.counter += size
        # Vectorised over the counters: must agree with the scalar
        # kpart.producer.clients.round_robin_partition (kpart._java.murmur2.to_positive).
        if style == "kafkajs":  # toPositive(++counter) % n
            return ((counters + 1) & 0x7FFFFFFF) % n
        return (counters & 0xFFFFFFFF) % n  # kafka-go: counter++ % n


def _apply_rules(
    spec: ClientPartitioner,
    out: np.ndarray,
    is_null: np.ndarray | None,
    empty: np.ndarray | None,
    n: int,
    draws: _Draws,
) -> pa.Int32Array:
    """Apply the null-key rule (``is_null``) and the random empty-key rule (``empty``, non-null
    empty keys) to the hashed partitions ``out``; random draws follow record order."""
    mask = None
    random_slots = empty
    if is_null is not None and is_null.any():
        rule = spec.null_key
        if rule == "unkeyed":
            mask = is_null
        elif rule == "hash-empty":
            out[is_null] = index_of_hash(spec.index, key_hash(spec, b""), n)
        elif rule == "round-robin":
            where = np.flatnonzero(is_null)
            out[where] = draws.round_robin(where.size, n)
        else:
            random_slots = is_null if random_slots is None else random_slots | is_null
    if random_slots is not None and random_slots.any():
        where = np.flatnonzero(random_slots)
        out[where] = draws.random(where.size, n)
    return pa.array(out, type=pa.int32(), mask=mask)


def _partition_array(
    spec: ClientPartitioner, keys: pa.Array, n: int, draws: _Draws, parallel: bool
) -> pa.Int32Array:
    if pa.types.is_dictionary(keys.type):
        if keys.dictionary.null_count:
            return _partition_array(spec, keys.dictionary_decode(), n, draws, parallel)
        values = _binary_view(keys.dictionary)
        value_parts = _hash_partitions(spec, values, n, parallel) if spec.hash != "none" else None
        indices = keys.indices
        is_null = indices.is_null().to_numpy(zero_copy_only=False) if indices.null_count else None
        idx = pc.fill_null(indices, 0).to_numpy(zero_copy_only=False).astype(np.intp)
        length = len(indices)
        lengths = pc.binary_length(values).to_numpy(zero_copy_only=False)[idx] if len(values) else (
            np.zeros(length, dtype=np.int64))
    else:
        keys = _binary_view(keys)
        length = len(keys)
        is_null = keys.is_null().to_numpy(zero_copy_only=False) if keys.null_count else None
        value_parts, idx = None, None
        lengths = None
    if spec.hash == "none":  # librdkafka:random: the key is never looked at
        return pa.array(draws.random(length, n).astype(np.int32), type=pa.int32())
    if value_parts is not None:
        out = value_parts[idx] if len(value_parts) else np.zeros(length, dtype=np.int32)
    else:
        out = _hash_partitions(spec, keys, n, parallel)
    empty = None
    if spec.empty_key == "random":
        if lengths is None:
            lengths = pc.fill_null(pc.binary_length(keys), 1).to_numpy(zero_copy_only=False)
        empty = lengths == 0
        if is_null is not None:
            empty &= ~is_null
    return _apply_rules(spec, out, is_null, empty, n, draws)


def partition_for_keys(
    keys: pa.Array | pa.ChunkedArray,
    num_partitions: int,
    partitioner: str = "java:default",
    *,
    seed: int | np.random.Generator | None = None,
    counter: int | None = None,
    parallel: bool = False,
) -> pa.Int32Array | pa.ChunkedArray:
    """The partition of every serialized key, as a client's producer computes it.

    Vectorised :func:`kpart.partition_for_key`: element ``i`` of the result equals
    ``partition_for_key(keys[i], num_partitions, partitioner)`` for every non-null key.

    Args:
        keys: Arrow ``binary``, ``large_binary``, ``string``, ``large_string`` (UTF-8 bytes, as
            Kafka's ``StringSerializer``), binary/string views or dictionary of those; a
            ``ChunkedArray`` is processed chunk by chunk. Slices (non-zero offsets) are fine.
        num_partitions: the topic's partition count, ``> 0``.
        partitioner: partitioner id (``"java:default"``, ``"librdkafka:consistent_random"``,
            ``"sarama:hash"``, ... see :data:`kpart.producer.clients.PARTITIONERS`).
        seed: seed or ``numpy.random.Generator`` for random rules (null keys for ``*_random``,
            Sarama, kafka-go, kafka-python; empty keys for ``librdkafka:consistent_random`` and
            ``kafka-go:crc32``; all keys for ``librdkafka:random``); ``None`` = fresh entropy.
        counter: round-robin counter before the first null key (kafkajs, ``kafka-go:hash``);
            ``None`` = a fresh client's (kafkajs: random from ``seed``; kafka-go: 0). Null keys
            consume it in array order.
        parallel: use the multi-threaded (``prange``) kernel.

    Returns:
        ``pyarrow.Int32Array`` of the same length (``ChunkedArray`` for chunked input). Null keys
        are null for ``java:default`` (Kafka's sticky/adaptive partitioner picks, not the key),
        otherwise the client's null-key rule applies.

    Raises:
        InvalidPartitionsError: ``num_partitions`` not a positive int (message names it).
        ConfigError: unknown partitioner; keys of another Arrow type.
    """
    spec = get_partitioner(partitioner)
    n = check_num_partitions(num_partitions)
    draws = _Draws(spec, seed, counter)
    if isinstance(keys, pa.ChunkedArray):
        chunks = [_partition_array(spec, chunk, n, draws, parallel) for chunk in keys.chunks]
        return pa.chunked_array(chunks, type=pa.int32())
    if not isinstance(keys, pa.Array):
        keys = pa.array(keys)
    return _partition_array(spec, keys, n, draws, parallel)
