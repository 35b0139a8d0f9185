"""Cross-client key partitioning at Spark scale (``kpart compat`` on a dataset): Java
``BuiltInPartitioner.partitionForKey`` vs every other client, per pair of clients.

Aggregate before you hash:

1. ``groupBy(key)`` natively → one row per distinct key with its records (and bytes, for
   :mod:`kpart.spark.whatif`): :func:`aggregate_keys`;
2. ``mapInArrow`` over the distinct keys: each Arrow batch is placed by every partitioner with
   the compiled kernels (:func:`kpart.producer.compat.tally_batch`) and reduced on the executor
   to a few partial rows (pair counts, per-partition records, the best example keys);
3. the partials (a few rows per batch) are streamed to the driver, summed (examples: the best
   k per pair) and turned into the same :class:`~kpart.producer.compat.CompatReport` as the pure
   core computes from the same keys.

Example, given a DataFrame ``df`` of flights (checked in ``tests/spark/``)::

    report = measure_compat(df, "tailnum", 12)
    report.to_json()["matrix"]["record_fraction"]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kpart.errors import ConfigError
from kpart.limits import check_partitions
from kpart.producer.clients import check_num_partitions
from kpart.producer.compat import (
    KEY_SERIALIZERS,
    CompatReport,
    CompatTally,
    parse_partitioners,
)
from kpart.spark._keys import bad_keys_as_config_errors, serialized_as

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import DataFrame

__all__ = ["KEY", "aggregate_keys", "check_key_column", "measure_compat"]

#: Name of the distinct-key column of :func:`aggregate_keys`.
KEY = "__kpart_key"


def check_key_column(df: DataFrame, key: str, serializer: str) -> str:
    """The Spark type of the key ``key`` (a column or ``struct.field`` path); ConfigError naming
    the column (missing) or the serializer (unknown, or not fitting the column type). The same
    checks as :func:`kpart.spark.transforms.check_key_column` (:mod:`kpart.spark._keys`)."""
    from kpart.spark._keys import check_key_type, schema_key_type

    if serializer not in (*KEY_SERIALIZERS, "hex"):  # hex: decoded by aggregate_keys
        raise ConfigError(f"--serializer: unknown key serializer {serializer!r} "
                          f"(known: {', '.join((*KEY_SERIALIZERS, 'hex'))})")
    dtype = schema_key_type(df.schema, key)
    check_key_type(key, dtype, serializer)
    return dtype


def aggregate_keys(df: DataFrame, key: str, serializer: str = "string", *,
                   with_bytes: bool = False) -> DataFrame:
    """One row per distinct value of ``key`` (null included; text under ``int``/``long``/
    ``short`` parsed, ``uuid`` lower-cased, ``hex`` decoded to its bytes — hashed as ``bytes``
    from here on — and a value the serializer cannot represent fails the job naming it,
    :mod:`kpart.spark._keys`): ``__kpart_key``, ``records``
    (bigint) and, with ``with_bytes``, ``bytes`` = serialized key size + the record as JSON
    (the definition of ``kpart.report.summary.BYTES_DEFINITION``)."""
    from pyspark.sql import functions as F

    from kpart.spark._keys import failing_on_bad, key_column, prepared_key, quote, serialized_as
    from kpart.spark.transforms import key_size_column

    dtype = check_key_column(df, key, serializer)
    prepared, bad = prepared_key(key_column(key), dtype, serializer)
    # never wrap or guess: a value the serializer cannot take fails the job
    prepared = failing_on_bad(key, serializer, prepared, bad)
    aggs = [F.count(F.lit(1)).alias("records")]
    if with_bytes:
        value = F.to_json(F.struct(*[F.col(quote(c)) for c in df.columns]))
        size = (key_size_column(prepared, serialized_as(serializer)).cast("bigint")
                + F.octet_length(value).cast("bigint"))
        aggs.append(F.sum(size).alias("bytes"))
    return df.groupBy(prepared.alias(KEY)).agg(*aggs)


def _compat_partials(df: DataFrame, n: int, ids: tuple[str, ...], serializer: str,
                     examples: int) -> DataFrame:
    from pyspark.sql.types import (
        BinaryType,
        IntegerType,
        LongType,
        StringType,
        StructField,
        StructType,
    )

    key_type = df.schema[KEY].dataType
    schema = StructType([
        StructField("kind", StringType(), False), StructField("i", IntegerType(), False),
        StructField("j", IntegerType(), False), StructField("keys", LongType(), False),
        StructField("records", LongType(), False), StructField("example", key_type, True),
        StructField("example_bytes", BinaryType(), True),
    ])

    def partials(batches):  # runs on executors: imports there, closes over plain values only
        import numpy as np
        import pyarrow as pa

        from kpart.producer.compat import tally_batch

        for batch in batches:
            values = batch.column(batch.schema.get_field_index(KEY))
            records = batch.column(batch.schema.get_field_index("records")).to_numpy(
                zero_copy_only=False)
            t = tally_batch(values, records, n, ids, serializer, examples)
            rows: dict[str, list[Any]] = {c: [] for c in ("kind", "i", "j", "keys", "records",
                                                          "ex", "exb")}

            def add(kind, i, j, keys, recs, ex=None, exb=None, rows=rows):
                for c, v in zip(rows, (kind, i, j, keys, recs, ex, exb), strict=True):
                    rows[c].append(v)

            add("total", -1, -1, t.keys, t.records)
            add("null", -1, -1, 0, t.null_key_records)
            for i in range(len(ids)):
                add("undetermined", i, -1, int(t.undetermined[i]), 0)
                for p in np.flatnonzero(t.loads[i]).tolist():  # zero loads: no row
                    add("load", i, p, 0, int(t.loads[i, p]))
                for j in range(i + 1, len(ids)):
                    add("pair", i, j, int(t.pair_keys[i, j]), int(t.pair_records[i, j]))
            for (i, j), items in t.examples.items():
                for recs, kb, value in items:
                    add("example", i, j, 0, recs, value, kb)
            yield pa.RecordBatch.from_arrays(
                [pa.array(rows["kind"], pa.string()), pa.array(rows["i"], pa.int32()),
                 pa.array(rows["j"], pa.int32()), pa.array(rows["keys"], pa.int64()),
                 pa.array(rows["records"], pa.int64()), pa.array(rows["ex"], values.type),
                 pa.array(rows["exb"], pa.binary())],
                names=["kind", "i", "j", "keys", "records", "example", "example_bytes"])

    from kpart.spark.transforms import map_in_arrow

    return map_in_arrow(df, partials, schema)


def measure_compat(
    df: DataFrame,
    key: str,
    num_partitions: int,
    partitioners: Sequence[str] | str | None = None,
    *,
    serializer: str = "string",
    examples: int = 3,
) -> CompatReport:
    """:func:`kpart.producer.compat.compare_partitioners` over column ``key`` of ``df``, one
    record per row, computed on Spark (same result as the core on the same keys).

    Raises ConfigError (missing column — named —, unknown partitioner or serializer, a
    serializer that does not fit the column) and InvalidPartitionsError, before any Spark job;
    ConfigError naming a key value the serializer cannot represent, from the job.
    """
    n = check_partitions(check_num_partitions(num_partitions))  # kpart.limits
    ids = parse_partitioners(partitioners)
    if isinstance(examples, bool) or not isinstance(examples, int) or examples < 0:
        raise ConfigError(f"examples must be a non-negative integer, got {examples!r}")
    per_key = aggregate_keys(df, key, serializer)
    serializer = serialized_as(serializer)  # hex keys are their decoded bytes from here
    # One job: the partials are tiny (per Arrow batch: P*(P-1)/2 pairs, P*n loads, at most
    # k examples per pair), so they are collected and summed on the driver.
    tally = CompatTally(ids, n, examples)
    with bad_keys_as_config_errors():
        partials = _compat_partials(per_key, n, ids, serializer, examples).collect()
    for r in partials:
        kind, i, j = r["kind"], r["i"], r["j"]
        if kind == "total":
            tally.keys += r["keys"]
            tally.records += r["records"]
        elif kind == "null":
            tally.null_key_records += r["records"]
        elif kind == "undetermined":
            tally.undetermined[i] += r["keys"]
        elif kind == "load":
            tally.loads[i, j] += r["records"]
        elif kind == "pair":
            tally.pair_keys[i, j] += r["keys"]
            tally.pair_records[i, j] += r["records"]
        else:
            value = r["example"]
            tally.add_example(i, j, int(r["records"]), bytes(r["example_bytes"]),
                              bytes(value) if isinstance(value, bytearray) else value)
    return CompatReport.from_tally(tally, serializer)
