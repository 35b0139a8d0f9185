"""kpart on Spark: the only package importing pyspark.

* :func:`with_partition` — ``df.transform(with_partition(key="tailnum", num_partitions=12))``
  adds Kafka's partition of every record (:mod:`kpart.spark.transforms`);
* :func:`get_or_create_session` — a loopback-only session with the UI off
  (:mod:`kpart.spark.session`);
* :func:`run_report` — the main job behind ``kpart report`` (:mod:`kpart.spark.pipeline`);
* :func:`measure_loads` — one topic's loads per partition (:mod:`kpart.spark.key_loads`).

Importing this package does not start Spark; pyspark itself is imported on first use.
"""

from __future__ import annotations

from typing import Any

from kpart.spark.session import get_or_create_session
from kpart.spark.transforms import with_partition

__all__ = ["get_or_create_session", "measure_loads", "run_report", "with_partition"]


def __getattr__(name: str) -> Any:
    if name == "run_report":
        from kpart.spark import pipeline

        return pipeline.run_report
    if name == "measure_loads":
        from kpart.spark import key_loads

        return key_loads.measure_loads
    raise AttributeError(f"module 'kpart.spark' has no attribute {name!r}")
