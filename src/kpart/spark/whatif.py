"""Partition-count what-if at Spark scale (``kpart whatif`` on a dataset) for
``BuiltInPartitioner.partitionForKey`` or any other client's key partitioner.

Aggregate before you hash: ``groupBy(key)`` natively to distinct keys with records and bytes
(:func:`kpart.spark.compat.aggregate_keys`), then ``mapInArrow``: each Arrow batch of distinct
keys is placed under the current count N and every other count M with the compiled kernels
(:func:`kpart.producer.whatif.tally_batch`), each Spark task merges the tallies of its batches
(:meth:`WhatIfTally.merge <kpart.producer.whatif.WhatIfTally.merge>`) and the driver merges the
tasks' tallies (:func:`kpart.spark.compat.merge_tallies`): the same
:class:`~kpart.producer.whatif.WhatIfReport` as the pure core on the same keys.

Example, given a DataFrame ``df`` of flights (checked in ``tests/spark/``)::

    report = measure_whatif(df, "tailnum", 12, [16, 18, 24], search=(13, 48))
    report.best
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kpart.errors import ConfigError
from kpart.producer.clients import check_num_partitions, get_partitioner
from kpart.producer.whatif import WhatIfReport, WhatIfTally, whatif_counts
from kpart.spark._keys import KEY_COLUMN, serialized_as
from kpart.spark.compat import aggregate_keys, merge_tallies

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa
    from pyspark.sql import DataFrame

__all__ = ["measure_whatif"]


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
    record per row; bytes per record as ``kpart report`` counts them when ``with_bytes``,
    :func:`kpart.spark._keys.record_bytes`).

    Raises ConfigError / InvalidPartitionsError naming the bad value (about ``key`` or
    ``serializer`` for the key column, as :func:`kpart.spark._keys.check_key_column`), before
    any Spark job (a key value the serializer cannot represent: ConfigError about ``key``, from
    the job).
    """
    spec = get_partitioner(partitioner)
    if spec.hash == "none":
        raise ConfigError(f"partitioner {spec.id!r} ignores keys: no partition-count what-if")
    targets = tuple(check_num_partitions(m) for m in to)
    counts = whatif_counts(num_partitions, targets, search)
    per_key = aggregate_keys(df, key, serializer, with_bytes=with_bytes)
    serializer = serialized_as(serializer)  # hex keys are their decoded bytes from here
    pid, n = spec.id, num_partitions

    def tally_of(batch: pa.RecordBatch) -> WhatIfTally:  # on executors: plain values only
        from kpart.producer.whatif import tally_batch

        names = batch.schema.names
        values = batch.column(names.index(KEY_COLUMN))
        records = batch.column(names.index("records")).to_numpy(zero_copy_only=False)
        byts = (batch.column(names.index("bytes")).fill_null(0).to_numpy(zero_copy_only=False)
                if with_bytes else None)
        return tally_batch(values, records, byts, pid, n, counts, serializer)

    tally = merge_tallies(per_key, tally_of, WhatIfTally(pid, n, counts, with_bytes))
    return WhatIfReport.from_tally(tally, targets, search)
