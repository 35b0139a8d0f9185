"""Cross-client key partitioning at Spark scale (``kpart compat`` on a dataset): Java
``BuiltInPartitioner.partitionForKey`` vs every other client, per pair of clients.

Aggregate before you hash:

1. ``groupBy(key)`` natively → one row per distinct key with its records (and bytes, for
   :mod:`kpart.spark.whatif`): :func:`aggregate_keys`;
2. ``mapInArrow`` over the distinct keys: each Arrow batch is placed by every partitioner with
   the compiled kernels and tallied on the executor (:func:`kpart.producer.compat.tally_batch`:
   pair counts, per-partition records, the best example keys);
3. each Spark task merges the tallies of its batches (:meth:`CompatTally.merge
   <kpart.producer.compat.CompatTally.merge>`: counts summed, the best k examples per pair kept)
   and sends that one tally to the driver (:func:`merge_tallies`), which merges them and turns
   the sum into the same :class:`~kpart.producer.compat.CompatReport` as the pure core computes
   from the same keys.

The key is taken by the one key contract of :mod:`kpart.spark._keys` (the column checks, the
serializer list, the bytes of a record), as ``kpart report`` takes it.

Example, given a DataFrame ``df`` of flights (checked in ``tests/spark/``)::

    report = measure_compat(df, "tailnum", 12)
    report.to_json()["matrix"]["record_fraction"]
"""

from __future__ import annotations

import pickle
import zlib
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Protocol, Self, TypeVar

from kpart.errors import ConfigError
from kpart.limits import check_partitions
from kpart.producer.clients import check_num_partitions
from kpart.producer.compat import CompatReport, CompatTally, parse_partitioners
from kpart.spark._keys import (
    KEY_COLUMN,
    bad_keys_as_config_errors,
    checked_key,
    failing_on_bad,
    record_bytes,
    serialized_as,
)

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa
    from pyspark.sql import DataFrame

__all__ = ["aggregate_keys", "measure_compat", "merge_tallies"]


class _Tally(Protocol):
    """Additive counts over batches of distinct keys (:class:`~kpart.producer.compat.
    CompatTally`, :class:`~kpart.producer.whatif.WhatIfTally`)."""

    def merge(self, other: Self) -> Self:
        """Add ``other`` into this tally; returns ``self``."""
        ...


T = TypeVar("T", bound=_Tally)


def aggregate_keys(df: DataFrame, key: str, serializer: str = "string", *,
                   with_bytes: bool = False) -> DataFrame:
    """One row per distinct value of ``key`` (null included; text under ``int``/``long``/
    ``short`` parsed, ``uuid`` lower-cased, ``hex`` decoded to its bytes — hashed as ``bytes``
    from here on — and a value the serializer cannot represent fails the job naming it,
    :mod:`kpart.spark._keys`): ``__kpart_key`` (:data:`~kpart.spark._keys.KEY_COLUMN`),
    ``records`` (bigint) and, with ``with_bytes``, ``bytes``: the records' bytes as
    ``kpart report`` counts them (:func:`~kpart.spark._keys.record_bytes`).

    Raises ConfigError about ``key`` (missing column, struct, array) or ``serializer``
    (unknown, or not fitting the column type), before any Spark job."""
    from pyspark.sql import functions as F

    prepared, bad = checked_key(df, key, serializer)
    # never wrap or guess: a value the serializer cannot take fails the job
    prepared = failing_on_bad(key, serializer, prepared, bad)
    aggs = [F.count(F.lit(1)).alias("records")]
    if with_bytes:
        aggs.append(F.sum(record_bytes(df, prepared, serializer)).alias("bytes"))
    return df.groupBy(prepared.alias(KEY_COLUMN)).agg(*aggs)


def merge_tallies(per_key: DataFrame, tally_of: Callable[[pa.RecordBatch], T], total: T) -> T:
    """``total`` merged with ``tally_of(batch)`` of every Arrow batch of ``per_key`` (distinct
    keys, :func:`aggregate_keys`), in one Spark job: each task merges the tallies of its
    batches (``merge``) and sends that one tally, pickled and compressed, to the driver, where
    they are merged into ``total`` (returned). ``tally_of`` runs on the executors: it imports
    what it needs there and closes over plain values only. A key value the serializer cannot
    represent fails the job: ConfigError about ``key``."""
    from pyspark.sql.types import BinaryType, StructField, StructType

    from kpart.spark.transforms import map_in_arrow

    def merged(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        import pyarrow as pa

        part: T | None = None
        for batch in batches:
            tally = tally_of(batch)
            part = tally if part is None else part.merge(tally)
        if part is not None:  # zeros compress well: sparse loads stay small
            blob = zlib.compress(pickle.dumps(part, pickle.HIGHEST_PROTOCOL), 1)
            yield pa.RecordBatch.from_arrays([pa.array([blob], pa.binary())], names=["tally"])

    schema = StructType([StructField("tally", BinaryType(), False)])
    with bad_keys_as_config_errors():
        rows = map_in_arrow(per_key, merged, schema).collect()
    for row in rows:  # the driver's own job's output: a tally per task
        total.merge(pickle.loads(zlib.decompress(row["tally"])))
    return total


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

    Raises ConfigError (about ``key``: missing column; about ``serializer``: unknown or not
    fitting the column; an unknown partitioner, a negative ``examples``) and
    InvalidPartitionsError, before any Spark job; ConfigError about ``key`` naming a key value
    the serializer cannot represent, from the job.
    """
    n = check_partitions(check_num_partitions(num_partitions))  # kpart.limits
    ids = parse_partitioners(partitioners)
    if isinstance(examples, bool) or not isinstance(examples, int) or examples < 0:
        raise ConfigError.about("examples", "{param} must be a non-negative integer, got "
                                "{value!r}", value=examples)
    per_key = aggregate_keys(df, key, serializer)
    serializer = serialized_as(serializer)  # hex keys are their decoded bytes from here

    def tally_of(batch: pa.RecordBatch) -> CompatTally:  # on executors: plain values only
        from kpart.producer.compat import tally_batch

        values = batch.column(batch.schema.get_field_index(KEY_COLUMN))
        records = batch.column(batch.schema.get_field_index("records"))
        return tally_batch(values, records.to_numpy(zero_copy_only=False), n, ids, serializer,
                           examples)

    tally = merge_tallies(per_key, tally_of, CompatTally(ids, n, examples))
    return CompatReport.from_tally(tally, serializer)
