"""Kafka's own vectors are not mistakes: no :class:`~kpart.errors.KpartWarning` in this folder.

``GroupSpec.from_json`` warns about input Kafka accepts but a user probably did not mean (a
member subscribed to a topic the file does not list, an owned partition beyond the count: see
``test_group_file_checks.py``). Kafka's test vectors and the random groups of the property
tests contain exactly these on purpose (topics not created yet, partitions that shrank), so
every test collected here ignores the warning with the standard filter a library user would
use. Tests that check the warnings (``pytest.warns``, ``warnings.catch_warnings``, or
``kpart.cli.main``) install their own filters and are unaffected.
"""

from __future__ import annotations

from pathlib import Path

import pytest

_HERE = Path(__file__).parent
_IGNORE = pytest.mark.filterwarnings("ignore::kpart.errors.KpartWarning")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:  # the hook sees the whole session's items: keep to this folder
        if Path(str(item.fspath)).parent == _HERE:
            item.add_marker(_IGNORE)
