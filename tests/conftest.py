"""Shared fixtures: the golden vectors (gzip JSONL, copied from Kafka runs) and one SparkSession."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def spark() -> Iterator[object]:
    """One local[2] SparkSession for the whole run (UI off, loopback only)."""
    from kpart.spark.session import get_or_create_session

    session = get_or_create_session(master="local[2]", app_name="kpart-tests")
    yield session
    session.stop()


def pytest_configure(config: pytest.Config) -> None:
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
