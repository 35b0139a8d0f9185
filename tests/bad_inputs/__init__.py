"""The bad-input catalogue: cases of every command, collected by ``tests/test_bad_input_catalogue.py``.

Each ``cases_<area>.py`` module defines ``CASES: list[Case]``. Areas own their module (no two
areas edit the same file); the runner collects every ``cases_*.py`` of this package.
"""
