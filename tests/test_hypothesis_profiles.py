"""CI runs every property test derandomized with the example counts each test asks for
(issue 10, point 14 b); ``make fuzz`` scales the counts and draws a fresh seed.

The profiles live in ``tests/kpart_hypothesis.py``; ``tests/conftest.py`` loads one. These tests check, in fresh interpreters, which
profile an environment loads, and in this run that an explicit ``@settings(max_examples=...)``
survives the profile (hypothesis merges a test's own settings over the profile) and is
derandomized whenever CI is.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kpart_hypothesis import fuzz_scale, hypothesis_profile, scale_examples

TESTS = Path(__file__).parent
_PROBE = (
    "import sys; sys.path.insert(0, sys.argv[1]); import conftest; "
    "from hypothesis import settings; s = settings(max_examples=13); "
    "print(settings.default.derandomize, settings.default.database, s.derandomize, "
    "s.max_examples, s.deadline)"
)


def _probe(ci: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "KPART_FUZZ_SCALE")}
    if ci is not None:
        env["CI"] = ci
    done = subprocess.run([sys.executable, "-c", _PROBE, str(TESTS)], env=env,
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_ci_true_loads_the_derandomized_profile() -> None:
    # a settings object built after conftest (as every test module's are) inherits the profile
    # and keeps its own max_examples
    assert _probe("true") == "True None True 13 None"
    assert _probe(None).startswith("False ")
    assert _probe("false").startswith("False ")


def test_profile_choice_and_scale() -> None:
    assert hypothesis_profile({"CI": "true"}) == hypothesis_profile({"CI": "TRUE"}) == "ci"
    assert hypothesis_profile({}) == hypothesis_profile({"CI": ""}) == "dev"
    assert fuzz_scale({}) == 1 and fuzz_scale({"KPART_FUZZ_SCALE": "10"}) == 10
    with pytest.raises(pytest.UsageError, match="KPART_FUZZ_SCALE"):
        fuzz_scale({"KPART_FUZZ_SCALE": "0"})


_calls: list[int] = []


@settings(max_examples=13)
@given(st.integers())
def _thirteen(x: int) -> None:
    _calls.append(x)


def test_this_run_keeps_each_tests_own_counts() -> None:
    """In this very run: the test's own count, derandomized whenever ``CI`` is true."""
    effective = _thirteen._hypothesis_internal_use_settings
    assert effective.max_examples == 13
    _calls.clear()
    _thirteen()
    assert len(_calls) == 13
    if hypothesis_profile() == "ci" and getattr(settings, "_current_profile", "ci") == "ci":
        # (unless --hypothesis-profile chose another one on the command line)
        assert settings.default.derandomize and effective.derandomize
        first = list(_calls)
        _calls.clear()
        _thirteen()
        assert _calls == first  # the same examples every time


def test_make_fuzz_scales_the_counts() -> None:
    @settings(max_examples=7)
    @given(st.integers())
    def seven(x: int) -> None:
        calls.append(x)

    calls: list[int] = []
    scale_examples(seven, 3)
    assert seven._hypothesis_internal_use_settings.max_examples == 21
    seven()
    assert len(calls) == 21
