import subprocess
import sys

import kpart


def test_import_kpart_is_light():
    """``import kpart`` must not import pyspark, numba or pyarrow (names resolve lazily)."""
    code = "import sys, kpart; print(sorted(m for m in ('pyspark','numba','pyarrow') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_unknown_attribute_raises():
    import pytest

    with pytest.raises(AttributeError, match="no_such_thing"):
        kpart.no_such_thing  # noqa: B018


def test_every_export_resolves():
    """Every name in kpart.__all__ resolves to a real object (no stale lazy export)."""
    for name in kpart.__all__:
        assert getattr(kpart, name) is not None, name


def test_rebalance_module_alias():
    assert callable(kpart.rebalance.simulate)
