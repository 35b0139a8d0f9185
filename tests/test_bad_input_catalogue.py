"""The bad-input catalogue (``tests/bad_inputs/cases_*.py``) run through ``kpart.cli.main``.

Every case runs in its own directory holding only its input files. An error case must exit 2
with exactly one ``kpart: error:`` line naming the bad value, no traceback, and leave the
directory exactly as it was; a warning case must exit 0 with a ``kpart: warning:`` line naming
the value and still print its result. See :mod:`bad_inputs.case`.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

import bad_inputs
from bad_inputs.case import Case
from kpart.cli import main


def _all_cases() -> list[Case]:
    cases: list[Case] = []
    for info in pkgutil.iter_modules(bad_inputs.__path__):
        if info.name.startswith("cases_"):
            cases.extend(importlib.import_module(f"bad_inputs.{info.name}").CASES)
    ids = [c.id for c in cases]
    dup = {i for i in ids if ids.count(i) > 1}
    assert not dup, f"duplicate case ids: {sorted(dup)}"
    return cases


CASES = _all_cases()


def _snapshot(d: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(d)): (p.read_bytes() if p.is_file() else b"<dir>")
        for p in sorted(d.rglob("*"))
    }


def test_catalogue_is_large_enough() -> None:
    assert len(CASES) >= 120, len(CASES)


@pytest.mark.parametrize(
    "case",
    [pytest.param(c, id=c.id, marks=[getattr(pytest.mark, m) for m in c.marks]) for c in CASES],
)
def test_bad_input(
    case: Case, tmp_path: Path, capfd: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    d = tmp_path / "case"
    d.mkdir()
    for name, content in case.files.items():
        path = d / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content.replace("{d}", str(d)), encoding="utf-8")
    before = _snapshot(d)
    argv = [a.replace("{d}", str(d)) for a in case.argv]
    monkeypatch.chdir(d)
    if case.stdin is not None:
        import io
        import sys

        monkeypatch.setattr(sys, "stdin", io.StringIO(case.stdin))
    code = main(argv)
    out, err = capfd.readouterr()
    assert "Traceback" not in err and "Traceback" not in out, err
    lines = [line for line in err.splitlines() if line.strip()]
    if case.expect == "error":
        assert code == 2, (code, out, err)
        assert len(lines) == 1 and lines[0].startswith("kpart: error: "), err
        assert case.names in lines[0], (case.names, lines[0])
        assert _snapshot(d) == before, "the directory changed"
    else:
        assert code == 0, (code, out, err)
        warnings = [line for line in lines if line.startswith("kpart: warning: ")]
        assert any(case.names in w for w in warnings), (case.names, err)
        assert case.quiet_ok or out.strip(), "no result printed"
