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


def test_public_names_report_kpart_as_their_module():
    """As httpx does: help() and reprs show ``kpart.JavaRandom``, not ``kpart._java.random``.
    The errors keep their public module kpart.errors (tracebacks name it); an alias keeps its
    defining module, where pickle finds it by its own name."""
    import kpart.errors

    assert repr(kpart.JavaRandom) == "<class 'kpart.JavaRandom'>"
    for name in kpart.__all__:
        value = getattr(kpart, name)
        if isinstance(value, type) and issubclass(value, (kpart.KpartError, kpart.KpartWarning)):
            assert value.__module__ == "kpart.errors" and getattr(kpart.errors, name) is value
        elif value.__qualname__ != name:  # an alias (plan_reassignment = plan)
            assert getattr(sys.modules[value.__module__], value.__qualname__) is value, name
        else:
            assert value.__module__ == "kpart", name


def test_public_names_still_pickle():
    """Classes and functions pickle by reference (kpart.<name>), instances by value: in this
    process and in a fresh one, which resolves the name lazily."""
    import pickle

    for name in kpart.__all__:
        value = getattr(kpart, name)
        assert pickle.loads(pickle.dumps(value)) is value, name
    values = [
        kpart.JavaRandom(42),
        kpart.Broker(1, "a"),
        kpart.GroupSpec((kpart.Topic("t", 3),), (kpart.Member("m", ("t",)),)),
        kpart.assign_replicas_to_brokers([kpart.Broker(i) for i in range(3)], 4, 2,
                                         fixed_start_index=0),
        kpart.ConfigError.about("max_moves", "Invalid {param} {value}", value=-1),
    ]
    data = pickle.dumps(values)
    assert b"kpart._java" not in data
    code = ("import pickle, sys; r, b, g, a, e = pickle.loads(sys.stdin.buffer.read()); "
            "print(r.next_int(1000), b, len(g.topics), e.naming('--max-moves'), type(r))")
    out = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True,
                         check=True).stdout.decode().strip()
    assert out == (f"{kpart.JavaRandom(42).next_int(1000)} Broker(id=1, rack='a', fenced=False) "
                   "1 Invalid --max-moves -1 <class 'kpart.JavaRandom'>")
