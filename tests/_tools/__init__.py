"""Test and docs tooling, not part of the installed package: a headless-Chromium driver
(:mod:`_tools.browser`) and a synthetic report summary (:mod:`_tools.sample`).

They live beside the tests because only the tests and ``docs/make_screenshot.py`` use them:
pytest puts ``tests/`` on the path (its rootdir-relative imports), so every test imports
``_tools`` with no configuration, and the docs script adds ``tests/`` itself.
"""
