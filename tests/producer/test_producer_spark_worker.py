"""``partition_for_keys`` inside Spark Python workers (``mapInArrow``): the kernels compile (or load
from numba's cache) in the worker process; nothing compiled is pickled from the driver."""

from __future__ import annotations

import pytest

from kpart import partition_for_key

pytestmark = pytest.mark.spark


def test_map_in_arrow_matches_scalar(spark) -> None:
    def _partition_batches(batches):  # nested: cloudpickle ships it by value to the worker
        import pyarrow as pa

        from kpart.producer.kernels import partition_for_keys

        for batch in batches:
            keys = batch.column(0)
            yield pa.record_batch(
                [keys, partition_for_keys(keys, 12), partition_for_keys(keys, 12, "sarama:hash")],
                names=["key", "java", "sarama"],
            )

    keys = [f"key-{i}" for i in range(2000)] + ["", "日本", None]
    df = spark.createDataFrame([(k,) for k in keys], "key string").repartition(3)
    rows = df.mapInArrow(_partition_batches, "key string, java int, sarama int").collect()
    assert len(rows) == len(keys)
    for row in rows:
        key = None if row.key is None else row.key.encode()
        assert row.java == partition_for_key(key, 12)
        if key is not None:
            assert row.sarama == partition_for_key(key, 12, "sarama:hash")
        else:
            assert row.sarama is not None and 0 <= row.sarama < 12  # Sarama: nil key -> random
