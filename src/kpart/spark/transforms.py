"""DataFrame transforms applying Kafka's ``BuiltInPartitioner.partitionForKey`` at Spark scale.

``df.transform(with_partition(key="tailnum", num_partitions=12, serializer="string"))`` adds an
``int`` column ``partition`` = ``toPositive(murmur2(serialize(key))) % num_partitions``; a null
key gives a null partition (Kafka does not hash null keys; another client's ``partitioner``
applies its null-key rule, see :func:`kpart.producer.kernels.partition_for_keys` — the report
places null keys by the topology's strategy instead, :mod:`kpart.producer.null_keys`). The
fastest exact path is picked per key type (``method="auto"``):

=================  ===============================  =========================================
serializer         Kafka serializer                 path
=================  ===============================  =========================================
``string``         ``StringSerializer`` (UTF-8)     JVM: ``MurmurHash2.hash32`` over the bytes
``uuid``           ``UUIDSerializer`` (``toString``) JVM, on ``lower(key)``
``bytes``          ``ByteArraySerializer``          JVM: ``MurmurHash2.hash32`` over the bytes
``hex``            ``ByteArraySerializer`` of the   as ``bytes``, after ``unhex`` (text that
                   text's bytes (``bytes.fromhex``)  ``bytes.fromhex`` refuses fails the job)
``int``/``long``/  ``IntegerSerializer``/``Long``/  SQL column arithmetic on 4/8/2 big-endian
``short``          ``ShortSerializer``              bytes (no loop, bigint-masked)
=================  ===============================  =========================================

``method="reflect"`` (strings: SQL ``reflect``) and ``method="arrow"`` (every key type: the
numba kernel :func:`kpart.producer.kernels.partition_for_keys` through ``mapInArrow``) are the
fallbacks; they give identical results. On a Spark Connect session (no py4j, so no
``StaticInvoke``) ``auto`` takes ``reflect`` for ``string``/``uuid`` keys — the same Commons
Codec ``hash32`` on the server's JVM, no Python there, and faster than the Arrow kernel (6M
distinct 10-char keys hashed and summed, local[2] server, median of 3 taking turns: 7.0 s
against 12.1 s) — and the Arrow kernel for ``bytes``/``hex`` keys (the server's Python
workers then import kpart). ``partitioner="spark:hash"`` is *not* a Kafka client:
it is Spark's own ``pmod(hash(key), n)``, the baseline of ``benchmarks/bench_report.py``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from kpart.errors import ConfigError, InvalidPartitionsError
from kpart.producer.serializers import SERIALIZERS, check_serializer
from kpart.spark._fixed_width import FIXED_WIDTHS, murmur2_fixed_width
from kpart.spark._keys import (
    SPARK_TYPES,
    checked_key,
    failing_on_bad,
    parse_key_path,
    serialized_as,
)

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa
    from pyspark.sql import Column, DataFrame
    from pyspark.sql.types import StructType

__all__ = [
    "BASELINE_PARTITIONERS",
    "KAFKA_PARTITIONERS",
    "METHODS",
    "SERIALIZERS",
    "map_in_arrow",
    "with_partition",
]

#: Arrow batches in, Arrow batches out: the function :func:`map_in_arrow` runs on executors.
ArrowBatches = Callable[[Iterator["pa.RecordBatch"]], Iterator["pa.RecordBatch"]]
#: Partitioner ids with a JVM-side path (every id of ``kpart.producer.clients.PARTITIONERS``
#: works: the others run the Arrow kernels through ``mapInArrow``).
KAFKA_PARTITIONERS = ("java:default",)
#: Non-Kafka partitioners kept as benchmark baselines.
BASELINE_PARTITIONERS = ("spark:hash",)
#: How ``with_partition`` computes the hash.
METHODS = ("auto", "jvm", "reflect", "sql", "arrow")


def _check_partitioner(partitioner: str) -> None:
    if partitioner in BASELINE_PARTITIONERS:
        return
    from kpart.producer.clients import PARTITIONERS

    if partitioner not in PARTITIONERS:
        known = ", ".join([*PARTITIONERS, *BASELINE_PARTITIONERS])
        raise ConfigError.about("partitioner", "{param}: unknown partitioner {value!r} (known: "
                                "{known})", value=partitioner, known=known)


def _check_num_partitions(n: object) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
        raise InvalidPartitionsError.about(
            "num_partitions", "{param}: expected a positive integer, got {value!r}", value=n)
    return n


def _serialized(col: Column, serializer: str) -> Column:
    """The key's serialized bytes as a Spark ``binary`` column (string/uuid/bytes serializers)."""
    from pyspark.sql import functions as F

    if serializer == "uuid":
        col = F.lower(col)  # UUIDSerializer writes UUID.toString(): lower-case hex
    return col.cast("binary")


def _to_partition(hash32: Column, n: int) -> Column:
    """Kafka's ``Utils.toPositive(hash) % n`` for a signed-int or unsigned-bigint hash."""
    from pyspark.sql import functions as F

    return (hash32.bitwiseAND(F.lit(0x7FFFFFFF)) % F.lit(n)).cast("int")


_FIXED_KEY = "__kpart_fixed_key"
_PREPARED_KEY = "__kpart_prepared_key"


def _fixed_width_binary(values: pa.Array, width: int) -> pa.Array:
    """Arrow binary array of Kafka's big-endian ``width``-byte serialization of ``values``."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    n = len(values)
    data = values.fill_null(0).to_numpy(zero_copy_only=False).astype(f">i{width}").tobytes()
    offsets = np.arange(0, width * (n + 1), width, dtype=np.int32)
    validity = pc.is_valid(values).buffers()[1] if values.null_count else None
    return pa.Array.from_buffers(pa.binary(), n, [validity, pa.py_buffer(offsets),
                                                  pa.py_buffer(data)], null_count=values.null_count)


def _arrow_transform(
    df: DataFrame, key: str, n: int, serializer: str, partitioner: str, output: str
) -> DataFrame:
    from pyspark.sql import functions as F
    from pyspark.sql.types import IntegerType, StructField, StructType

    if output in df.columns:  # replaced, as withColumn does
        df = df.drop(output)
    schema = StructType([*df.schema.fields, StructField(output, IntegerType(), True)])
    lower = serializer == "uuid"
    width = FIXED_WIDTHS.get(serializer)
    source = key
    if width is not None:  # cast in Spark: ANSI mode rejects values out of the Java type's range
        source = _FIXED_KEY
        df = df.withColumn(source, F.col(key).cast(SPARK_TYPES[serializer]))
    kept = len(schema.fields) - 1

    def partition_batches(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        # runs on executors: imports there, closes over values only
        import pyarrow as pa
        import pyarrow.compute as pc

        from kpart.producer.kernels import partition_for_keys

        for batch in batches:
            keys = batch.column(batch.schema.get_field_index(source))
            if lower:
                keys = pc.utf8_lower(keys)
            if width is not None:
                keys = _fixed_width_binary(keys, width)
            if partitioner == "java:default":
                parts = partition_for_keys(keys, n)
            else:
                parts = partition_for_keys(keys, n, partitioner=partitioner)
            yield pa.RecordBatch.from_arrays(
                [*batch.columns[:kept], parts.cast(pa.int32())],
                names=[*batch.schema.names[:kept], output],
            )

    return map_in_arrow(df, partition_batches, schema)


def map_in_arrow(df: DataFrame, fn: ArrowBatches, schema: StructType) -> DataFrame:
    """``df.mapInArrow(fn, schema)`` (``fn``: iterator of Arrow ``RecordBatch`` → iterator of
    batches, run on the executors), without pyspark's "pandas >= 3 is not fully supported"
    ``FutureWarning``: kpart's Arrow functions use no pandas."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=FutureWarning, module="pyspark")
        return df.mapInArrow(fn, schema)


def _jvm_hash(df: DataFrame, key: str, serializer: str, method: str) -> Column | None:
    from pyspark.sql import functions as F

    from kpart.spark._jvm import murmur2_reflect, murmur2_static_invoke

    col = F.col(key)
    if method in ("auto", "jvm"):  # None on Spark Connect: reflect (text) or Arrow (bytes)
        hashed = murmur2_static_invoke(df.sparkSession, _serialized(col, serializer))
        if hashed is not None or method == "jvm":
            return hashed
    if serializer in ("string", "uuid"):
        return murmur2_reflect(F.lower(col) if serializer == "uuid" else col)
    return None


def with_partition(
    key: str,
    num_partitions: int,
    serializer: str = "string",
    *,
    partitioner: str = "java:default",
    method: str = "auto",
    output: str = "partition",
) -> Callable[[DataFrame], DataFrame]:
    """A ``DataFrame → DataFrame`` transform adding ``output`` (int; null for a null key).

    ``key``: the key column or a ``struct.field`` path (:mod:`kpart.spark._keys`);
    ``num_partitions`` > 0; ``serializer``: one of :data:`SERIALIZERS` (the column type must
    fit: string for string/uuid/hex, binary or string for bytes, an integral type or text for
    int/long/short — a value the serializer cannot represent, e.g. ``2**31`` under ``int`` or
    ``"not-a-uuid"`` under ``uuid``, fails the Spark job naming it, never wraps);
    ``partitioner``: ``"java:default"`` (``BuiltInPartitioner.partitionForKey``), another
    client's id of ``kpart.producer.clients.PARTITIONERS`` (Arrow kernel), or the ``"spark:hash"`` baseline; ``method``: one of :data:`METHODS`. Rows and columns are kept.
    Errors: :class:`~kpart.errors.InvalidPartitionsError`, :class:`~kpart.errors.ConfigError`
    naming the bad argument. Reproduces ``org.apache.kafka.clients.producer.internals.
    BuiltInPartitioner.partitionForKey`` (``Utils.toPositive(Utils.murmur2(bytes)) % n``).

    Example, given a DataFrame ``df`` of flights (checked in ``tests/spark/``)::

        t = with_partition("tailnum", 12)
        df.transform(t).select("tailnum", "partition").first()
        # Row(tailnum='N14228', partition=...)
    """
    n = _check_num_partitions(num_partitions)
    if method not in METHODS:
        raise ConfigError(f"method: unknown method {method!r} (known: {', '.join(METHODS)})")
    _check_partitioner(partitioner)
    check_serializer(serializer)

    def transform(df: DataFrame) -> DataFrame:
        prepared, bad = checked_key(df, key, serializer)
        if bad is None and parse_key_path(key) == (key,):
            return apply(df, key)
        # never wrap or guess: a value the serializer cannot take fails the job
        prepared = failing_on_bad(key, serializer, prepared, bad)
        return apply(df.withColumn(_PREPARED_KEY, prepared), _PREPARED_KEY).drop(_PREPARED_KEY)

    # the prepared key's serializer (``hex`` is decoded by prepared_key: ``bytes`` from here)
    def apply(df: DataFrame, key: str, serializer: str = serialized_as(serializer)) -> DataFrame:
        from pyspark.sql import functions as F

        col = F.col(key)
        if partitioner == "spark:hash":
            return df.withColumn(output, F.pmod(F.hash(col), F.lit(n)).cast("int"))
        if partitioner not in KAFKA_PARTITIONERS:  # other clients: the Arrow kernels
            return _arrow_transform(df, key, n, serializer, partitioner, output)
        if serializer in FIXED_WIDTHS:
            if method == "arrow":
                return _arrow_transform(df, key, n, serializer, partitioner, output)
            if method not in ("auto", "sql"):
                raise ConfigError(f"method: {method!r} does not apply to {serializer!r} keys")
            return df.withColumn(
                output, _to_partition(murmur2_fixed_width(col, FIXED_WIDTHS[serializer]), n)
            )
        if method == "sql":
            raise ConfigError(f"method: 'sql' applies to fixed-width keys, not {serializer!r}")
        if method == "reflect" and serializer == "bytes":
            raise ConfigError("method: 'reflect' cannot hash raw bytes; use 'jvm' or 'arrow'")
        hashed = None if method == "arrow" else _jvm_hash(df, key, serializer, method)
        if hashed is None:
            if method == "jvm":
                raise ConfigError("method: 'jvm' needs a classic (py4j) SparkSession")
            return _arrow_transform(df, key, n, serializer, partitioner, output)
        return df.withColumn(output, _to_partition(hashed, n))

    return transform
