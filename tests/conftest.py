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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Scale every hypothesis test's ``max_examples`` by ``KPART_FUZZ_SCALE`` (``make fuzz``)."""
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

    session = get_or_create_session(master="local[2]", app_name="kpart-tests")
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
