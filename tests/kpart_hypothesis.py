"""Hypothesis profiles of the test suite, and ``make fuzz``'s scaling (issue 10, point 14 b).

Importable as ``kpart_hypothesis`` (``tests/`` is on ``sys.path``; import it rather than
``conftest``, whose module name other directories' conftest files share).

Hypothesis profiles (``tests/conftest.py`` loads one before any test module builds its
``@settings``, so every property test inherits the profile; a test's own ``max_examples``
always wins):

- ``ci`` (when ``CI=true``, as ``make test`` passes it on): derandomized (the same examples on
  every run: a red CI is a regression, never luck), no example database, failing examples
  printed as a reproduction blob, no deadline;
- ``dev`` (local runs): random examples, the local database, no deadline;
- ``fuzz`` (``make fuzz``, with ``--hypothesis-profile=fuzz --hypothesis-seed=N``): random from
  the printed seed, no database (the seed alone reproduces a run), blobs printed.

``KPART_FUZZ_SCALE=K`` multiplies every hypothesis test's ``max_examples`` by ``K`` (``make
fuzz`` sets it; unset = the counts each test asks for, as CI runs them).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

# Parent: hypothesis' own defaults (it loads its built-in "ci" profile by itself whenever a CI
# variable exists, even CI=false). too_slow is a timing health check: never in CI.
_BASE = settings.get_profile("default")
settings.register_profile(
    "ci", _BASE, derandomize=True, database=None, print_blob=True, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", _BASE, deadline=None)
settings.register_profile(
    "fuzz", _BASE, database=None, print_blob=True, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def hypothesis_profile(env: dict[str, str] | os._Environ[str] = os.environ) -> str:
    """The profile for an environment: ``ci`` when ``CI`` is true, else ``dev``.

    >>> hypothesis_profile({"CI": "true"}), hypothesis_profile({})
    ('ci', 'dev')
    """
    return "ci" if env.get("CI", "").strip().lower() in ("true", "1", "yes") else "dev"


def fuzz_scale(env: dict[str, str] | os._Environ[str] = os.environ) -> int:
    """``KPART_FUZZ_SCALE`` as a positive integer (1 when unset)."""
    text = env.get("KPART_FUZZ_SCALE", "").strip() or "1"
    if not text.isdigit() or int(text) < 1:
        raise pytest.UsageError(f"KPART_FUZZ_SCALE must be a positive integer, got {text!r}")
    return int(text)


def scale_examples(test: object, scale: int) -> None:
    """Multiply the ``max_examples`` of a ``@given`` test (its own, or the profile's) by
    ``scale``, keeping every other setting."""
    own = test._hypothesis_internal_use_settings  # type: ignore[attr-defined]
    test._hypothesis_internal_use_settings = settings(  # type: ignore[attr-defined]
        own, max_examples=own.max_examples * scale
    )
