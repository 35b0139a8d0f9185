"""kpart._java.random against values printed by a real JVM (OpenJDK 17, data/JR.java)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kpart._java.random import JavaRandom, shuffle

_DATA = json.loads((Path(__file__).parent / "data" / "java_random_jvm.json").read_text())
_CASES = _DATA["cases"]
_BOUNDS = [1, 2, 3, 5, 7, 10, 16, 64, 100, 1000, 1 << 30, (1 << 30) + 1, 2147483647, 1500000000]


@pytest.mark.parametrize("case", _CASES, ids=[str(c["seed"]) for c in _CASES])
def test_java_random_matches_jvm(case: dict) -> None:
    r = JavaRandom(case["seed"])
    assert [r.next_int() for _ in range(5)] == case["ints"]
    bounded = [r.next_int(b) for b in _BOUNDS for _ in range(4)]
    assert bounded == case["bounded"]
    assert [r.next_long(), r.next_long()] == case["longs"]
    assert r.next_double() == case["double"]
    assert r.next_boolean() is case["bool"]
    items = list(range(10))
    shuffle(items, r)
    assert items == case["shuffle10"]
    fresh = [1, 2, 3, 4, 5]
    shuffle(fresh, JavaRandom(case["seed"]))
    assert fresh == case["shuffle5_fresh"]


def test_next_int_rejects_non_positive_bound() -> None:
    with pytest.raises(ValueError, match="bound must be positive: 0"):
        JavaRandom(1).next_int(0)


def test_shuffle_of_short_list_draws_nothing() -> None:
    a, b = JavaRandom(3), JavaRandom(3)
    one = [9]
    shuffle(one, a)
    shuffle([], a)
    assert one == [9] and a.next_int() == b.next_int()


def test_unseeded_randoms_differ() -> None:
    assert len({JavaRandom().next_long() for _ in range(4)}) > 1
