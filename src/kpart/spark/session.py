"""SparkSession set-up for kpart: loopback only, UI off, the project's own Python on executors.

``get_or_create_session`` is the only place kpart builds a session. It applies the platform
rules of DESIGN.md before the JVM starts:

* ``PYSPARK_PYTHON = sys.executable`` so Python workers (``mapInArrow``) run the interpreter
  that has kpart installed, locally and on standalone executors on the same machine;
* ``SPARK_LOCAL_IP = 127.0.0.1``, ``spark.driver.bindAddress`` / ``spark.driver.host`` =
  ``127.0.0.1``: all traffic stays on loopback;
* ``spark.ui.enabled = false``, a small ``spark.sql.shuffle.partitions`` (the jobs shuffle
  kilobytes, not gigabytes), and a quiet log4j2 profile shipped in ``kpart/data``.

Under ``spark-submit`` (the driver is started by Spark, ``PYSPARK_GATEWAY_PORT`` is set), a
``master`` of ``None`` keeps the master chosen by ``spark-submit``.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Mapping
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import SparkSession

__all__ = [
    "DEFAULT_SHUFFLE_PARTITIONS",
    "get_or_create_session",
    "has_active_session",
    "quiet_log4j_path",
]

#: Shuffle partitions of kpart sessions: kpart's shuffles are small (one row per key, then
#: one row per partition), so a few tasks per core beat Spark's default of 200.
DEFAULT_SHUFFLE_PARTITIONS = 8


def quiet_log4j_path() -> str:
    """Path of the log4j2 profile shipped with kpart (root logger at ERROR, console only)."""
    return str(resources.files("kpart") / "data" / "log4j2.properties")


def has_active_session() -> bool:
    """True when this process already runs a SparkSession (``get_or_create_session`` reuses
    it; whoever started it stops it)."""
    if "pyspark" not in sys.modules:
        return False
    from pyspark.sql import SparkSession

    return SparkSession.getActiveSession() is not None


def _launched_by_spark_submit() -> bool:
    return "PYSPARK_GATEWAY_PORT" in os.environ


def get_or_create_session(
    master: str | None = "local[*]",
    app_name: str = "kpart",
    conf: Mapping[str, str] | None = None,
) -> SparkSession:
    """Return the active SparkSession, or start one bound to loopback with the UI off.

    ``master``: a Spark master URL (``local[*]``, ``local[2]``, ``spark://127.0.0.1:7077``);
    ``None`` keeps the master given by ``spark-submit`` (``local[*]`` when there is none).
    ``conf``: extra ``spark.*`` settings, applied last. Environment variables ``PYSPARK_PYTHON``
    and ``SPARK_LOCAL_IP`` are set for this process (and so for the JVM it launches).
    Starting a local session takes ~5 s and ~400 MiB; an existing session is reused as is.
    """
    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName(app_name)
    if master is None and not _launched_by_spark_submit():
        master = "local[*]"
    if master is not None:
        builder = builder.master(master)
    log4j = quiet_log4j_path()
    settings = {
        "spark.driver.bindAddress": "127.0.0.1",
        "spark.driver.host": "127.0.0.1",
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.shuffle.partitions": str(DEFAULT_SHUFFLE_PARTITIONS),
        "spark.sql.execution.arrow.pyspark.enabled": "true",
        "spark.sql.session.timeZone": "UTC",  # to_json of timestamps: same bytes everywhere
        "spark.pyspark.python": sys.executable,
        "spark.driver.extraJavaOptions": f"-Dlog4j2.configurationFile=file:{log4j}",
        "spark.executor.extraJavaOptions": f"-Dlog4j2.configurationFile=file:{log4j}",
    }
    settings.update(conf or {})
    for key, value in settings.items():
        builder = builder.config(key, value)
    from kpart.spark._stderr import jvm_stderr_filtered

    with jvm_stderr_filtered():  # the JVM's "Using incubator modules" warning stays out
        session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    return session
