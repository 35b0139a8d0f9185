"""Shared fixtures: the golden vectors (gzip JSONL, copied from Kafka runs) and one SparkSession.

Hypothesis profiles: :mod:`kpart_hypothesis` (``ci`` when ``CI=true``), loaded here, before any
test module builds its ``@settings``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest
from hypothesis import settings

from kpart_hypothesis import fuzz_scale, hypothesis_profile, scale_examples

settings.load_profile(hypothesis_profile())


# Tests that need Spark run in one pytest-xdist worker (``make test`` runs ``-n 2 --dist
# loadgroup``), so the run still has one SparkSession and at most one Spark cluster at a time.
_SPARK_MARKERS = ("spark", "cluster", "connect")


def _needs_spark(item: pytest.Item) -> bool:
    fixtures = getattr(item, "fixturenames", ())
    return "spark" in fixtures or any(item.get_closest_marker(m) for m in _SPARK_MARKERS)


def _group_spark_tests(items: list[pytest.Item]) -> None:
    """Mark the Spark tests as one xdist group, and run them first: they are the longest part
    of the run, so the other worker takes the rest meanwhile."""
    needs = [_needs_spark(item) for item in items]
    spark = [item for item, n in zip(items, needs, strict=True) if n]
    for item in spark:
        item.add_marker(pytest.mark.xdist_group("spark"))
    items[:] = spark + [item for item, n in zip(items, needs, strict=True) if not n]


_SESSION_STARTED_BY_FIXTURE = False


def pytest_runtest_teardown(item: pytest.Item) -> None:
    """A test that starts a SparkSession in this process must say so (the ``spark`` fixture or
    the ``spark`` marker): else, run in the other xdist worker, it would start a second one."""
    module = sys.modules.get("pyspark.sql.session")
    if module is None or _SESSION_STARTED_BY_FIXTURE or _needs_spark(item):
        return
    if module.SparkSession._instantiatedSession is not None:
        pytest.fail(f"{item.nodeid} started a SparkSession without the spark fixture or marker")


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the xdist_group markers
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put every Spark test in one xdist group, and scale every hypothesis test's
    ``max_examples`` by ``KPART_FUZZ_SCALE`` (``make fuzz``)."""
    _group_spark_tests(items)
    scale = fuzz_scale()
    if scale == 1:
        return
    done: set[int] = set()
    for item in items:
        fn = getattr(getattr(item, "obj", None), "__func__", getattr(item, "obj", None))
        if getattr(fn, "is_hypothesis_test", False) and id(fn) not in done:
            done.add(id(fn))
            scale_examples(fn, scale)


@pytest.fixture(scope="session")
def spark() -> Iterator[object]:
    """One local[2] SparkSession for the whole run (UI off, loopback only)."""
    from kpart.spark.session import get_or_create_session

    global _SESSION_STARTED_BY_FIXTURE
    session = get_or_create_session(master="local[2]", app_name="kpart-tests")
    _SESSION_STARTED_BY_FIXTURE = True
    yield session
    session.stop()


@pytest.fixture(scope="session")
def chromium() -> str:
    """The headless Chromium binary of the browser tests (the Debian package, `make
    browser`): a failure under CI=true when it is missing, else a skip."""
    from _tools.browser import find_chromium

    binary = find_chromium()
    if binary is None:
        if hypothesis_profile() == "ci":
            pytest.fail("CI=true but chromium is missing: `make browser` must install it")
        pytest.skip("chromium not installed: run `make browser` to enable the browser test")
    return binary


def pytest_configure(config: pytest.Config) -> None:
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
