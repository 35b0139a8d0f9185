"""Partition-count what-if at Spark scale (``kpart whatif`` on a dataset) for
``BuiltInPartitioner.partitionForKey`` or any other client's key partitioner.

Aggregate before you hash: ``groupBy(key)`` natively to distinct keys with records and bytes
(:func:`kpart.spark.compat.aggregate_keys`), then ``mapInArrow``: each Arrow batch of distinct
keys is placed under the current count N and every other count M with the compiled kernels and
reduced on the executor to one row per (M, partition) (:func:`kpart.producer.whatif.tally_batch`);
the rows are summed on the driver and give the same
:class:`~kpart.producer.whatif.WhatIfReport` as the pure core on the same keys.

Example, given a DataFrame ``df`` of flights (checked in ``tests/spark/``)::

    report = measure_whatif(df, "tailnum", 12, [16, 18, 24], search=(13, 48))
    report.best
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from kpart.errors import ConfigError
from kpart.producer.clients import check_num_partitions, get_partitioner
from kpart.producer.whatif import WhatIfReport, WhatIfTally, whatif_counts
from kpart.spark._keys import bad_keys_as_config_errors, serialized_as
from kpart.spark.compat import KEY, aggregate_keys

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import DataFrame

__all__ = ["measure_whatif"]

_COLUMNS = ("keys", "records", "bytes", "moved_keys", "moved_records", "moved_bytes")


def _whatif_partials(df: DataFrame, partitioner: str, n: int, counts: tuple[int, ...],
                     serializer: str, with_bytes: bool) -> DataFrame:
    from pyspark.sql.types import IntegerType, LongType, StructField, StructType

    schema = StructType([StructField("m", IntegerType(), False),
                         StructField("partition", IntegerType(), False),
                         *[StructField(c, LongType(), False) for c in _COLUMNS]])

    def partials(batches):  # runs on executors: imports there, closes over plain values only
        import numpy as np
        import pyarrow as pa

        from kpart.producer.whatif import tally_batch

        for batch in batches:
            names = batch.schema.names
            values = batch.column(names.index(KEY))
            records = batch.column(names.index("records")).to_numpy(zero_copy_only=False)
            byts = (batch.column(names.index("bytes")).fill_null(0).to_numpy(
                zero_copy_only=False) if with_bytes else None)
            t = tally_batch(values, records, byts, partitioner, n, counts, serializer)
            ms = [np.full(m, m, dtype=np.int32) for m in counts]
            ps = [np.arange(m, dtype=np.int32) for m in counts]
            stacked = np.concatenate([t.loads[m] for m in counts], axis=1)
            unkeyed = np.array([[t.unkeyed_keys], [t.unkeyed_records], [t.unkeyed_bytes],
                                [0], [0], [0]], dtype=np.int64)
            stacked = np.concatenate([stacked, unkeyed], axis=1)
            arrays = [pa.array(np.concatenate([*ms, [-1]]).astype(np.int32)),
                      pa.array(np.concatenate([*ps, [-1]]).astype(np.int32)),
                      *[pa.array(stacked[k]) for k in range(len(_COLUMNS))]]
            yield pa.RecordBatch.from_arrays(arrays, names=["m", "partition", *_COLUMNS])

    from kpart.spark.transforms import map_in_arrow

    return map_in_arrow(df, partials, schema)


def measure_whatif(
    df: DataFrame,
    key: str,
    num_partitions: int,
    to: Sequence[int],
    partitioner: str = "java:default",
    *,
    search: tuple[int, int] | None = None,
    serializer: str = "string",
    with_bytes: bool = True,
) -> WhatIfReport:
    """:func:`kpart.producer.whatif.partition_count_whatif` over column ``key`` of ``df`` (one
    record per row; bytes per record as ``kpart report`` counts them when ``with_bytes``).

    Raises ConfigError / InvalidPartitionsError naming the bad value, before any Spark job
    (a key value the serializer cannot represent: ConfigError from the job).
    """
    spec = get_partitioner(partitioner)
    if spec.hash == "none":
        raise ConfigError(f"partitioner {spec.id!r} ignores keys: no partition-count what-if")
    targets = tuple(check_num_partitions(m) for m in to)
    counts = whatif_counts(num_partitions, targets, search)
    per_key = aggregate_keys(df, key, serializer, with_bytes=with_bytes)
    serializer = serialized_as(serializer)  # hex keys are their decoded bytes from here
    # One job: each Arrow batch of distinct keys yields one row per (m, partition); the rows
    # come back as Arrow and are summed with numpy.
    with bad_keys_as_config_errors():
        table = _whatif_partials(per_key, spec.id, num_partitions, counts, serializer,
                                 with_bytes).toArrow()
    tally = WhatIfTally(spec.id, num_partitions, counts, with_bytes)
    m = table.column("m").to_numpy()
    p = table.column("partition").to_numpy()
    cols = np.stack([table.column(c).to_numpy() for c in _COLUMNS]) if len(table) else (
        np.zeros((len(_COLUMNS), 0), dtype=np.int64))
    unkeyed = m < 0
    tally.unkeyed_keys, tally.unkeyed_records, tally.unkeyed_bytes = (
        int(x) for x in cols[:3, unkeyed].sum(axis=1))
    starts = dict(zip(counts, np.cumsum([0, *counts[:-1]]).tolist(), strict=True))
    ordered = np.array(sorted(counts), dtype=np.int64)
    ordered_starts = np.array([starts[c] for c in ordered.tolist()], dtype=np.int64)
    flat = np.zeros((len(_COLUMNS), sum(counts)), dtype=np.int64)
    index = ordered_starts[np.searchsorted(ordered, m[~unkeyed])] + p[~unkeyed]
    for k in range(len(_COLUMNS)):
        np.add.at(flat[k], index, cols[k, ~unkeyed])
    for c, start in starts.items():
        tally.loads[c] += flat[:, start : start + c]
    return WhatIfReport.from_tally(tally, targets, search)
