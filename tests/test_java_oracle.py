"""``kpart._java`` against the JVM itself, run by the machine's Java 17 (the one Spark uses)
on ``tests/java/JavaOrderOracle.java``, one process for all requests:

- ``String.hashCode``, ``String.compareTo`` and ``HashMap``/``HashSet`` iteration order
  (``put``, ``computeIfAbsent``, ``new HashSet<>(list)``) on about 150 random key sets in the
  id styles real groups use (``consumer-1-<uuid>``, numbered, static instance ids, rack names,
  CJK, emoji, lone surrogates, empty), up to 5,000 keys, some drawn with replacement;
- ``java.util.Random`` (``nextInt``, ``nextLong``, ``nextBoolean``, ``nextDouble``) and
  ``Collections.shuffle`` over extreme and random seeds, and ``HashSet<Integer>`` order.

Key sets avoid adversarial ``String.hashCode`` collisions: a bucket of 8+ keys in a table of
64+ becomes a tree bin, which kpart does not emulate (module docstring of
:mod:`kpart._java.collections`); realistic ids never get there.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest

from kpart._java.collections import JavaHashMap, JavaHashSet
from kpart._java.hashing import hashmap_order, string_hash_code
from kpart._java.strings import java_string_key

ORACLE = Path(__file__).parent / "java" / "JavaOrderOracle.java"
MODES = ("map", "cia", "copyset", "sort", "hash")


def _units(s: str) -> list[int]:
    data = s.encode("utf-16-be", "surrogatepass")
    return [int.from_bytes(data[i : i + 2], "big") for i in range(0, len(data), 2)]


def _encode(s: str) -> str:
    return "".join(f"{u:04x}" for u in _units(s)) or "."


def _decode(token: str) -> str:
    if token == ".":
        return ""
    data = bytes.fromhex(token)
    return data.decode("utf-16-be", "surrogatepass")


def _ask_java(requests: list[str]) -> list[list[str]]:
    """One reply (split on spaces) per request line, from one run of the oracle."""
    java = shutil.which("java")
    assert java, "Java 17 is required (Spark uses it too)"
    done = subprocess.run(
        [java, str(ORACLE)], input="".join(r + "\n" for r in requests), capture_output=True,
        text=True, timeout=300, check=True,
    )
    lines = done.stdout.split("\n")[: len(requests)]
    assert len(lines) == len(requests)
    return [line.split() for line in lines]


def _key(rnd: random.Random, style: str, i: int) -> str:
    if style == "uuid":
        return f"consumer-{rnd.randrange(1, 9)}-{uuid.UUID(int=rnd.getrandbits(128), version=4)}"
    if style == "numbered":
        return f"{rnd.choice(['consumer', 'C', 'member', 'analytics'])}-{i}"
    if style == "instance":
        return f"{rnd.choice(['billing', 'orders', 'i'])}-{rnd.randrange(10**6)}"
    if style == "rack":
        return f"{rnd.choice(['us-east-1', 'eu-west-2', 'rack', 'az'])}{rnd.choice('abc')}{i}"
    if style == "unicode":
        alphabet = "aZ0-_.éßж中文字😀🚀\ud800\udfff\uffff"
        while True:
            key = "".join(rnd.choice(alphabet) for _ in range(rnd.randrange(0, 12)))
            if _decode(_encode(key)) == key:  # no lone high + low surrogate forming a pair
                return key
    return "".join(chr(rnd.randrange(32, 127)) for _ in range(rnd.randrange(0, 40)))


def _cases() -> list[tuple[str, list[str]]]:
    rnd = random.Random(20241025)
    cases = []
    styles = ("uuid", "numbered", "instance", "rack", "unicode", "ascii", "mixed")
    for n in [0, 1, 2, 7, 12, 13, 25, 48, 49, 96, 97, 200, 385, 769, 1500, 5000]:
        for style in styles:
            keys = [
                _key(rnd, rnd.choice(styles[:-1]) if style == "mixed" else style, i)
                for i in range(n)
            ]
            if keys and rnd.random() < 0.3:  # repeated keys keep their first position
                keys += rnd.sample(keys, min(len(keys), 5))
            cases.append((MODES[len(cases) % len(MODES)], keys))
    # Keys drawn with replacement, like a map filled per partition and keyed by topic: every
    # call for a present key still runs computeIfAbsent's resize check.
    for n in [12, 13, 24, 25, 48, 49, 96, 97, 400, 769]:
        for mode in ("cia", "map", "copyset"):
            pool = [_key(rnd, "numbered", i) for i in range(n)]
            cases.append((mode, [rnd.choice(pool) for _ in range(3 * n)]))
    return cases


CASES = _cases()


@pytest.fixture(scope="module")
def java_answers() -> list[list[str]]:
    return _ask_java([" ".join([mode, *(_encode(k) for k in keys)]) for mode, keys in CASES])


def _kpart(mode: str, keys: list[str]) -> list[str]:
    if mode == "map":
        return hashmap_order(keys)
    if mode == "cia":
        m = JavaHashMap()
        for k in keys:
            m.compute_if_absent(k, list)
        return [k for k, _ in m.items()]
    if mode == "copyset":
        return list(JavaHashSet.copy_of(keys))
    if mode == "sort":
        return sorted(keys, key=java_string_key)
    return [str(string_hash_code(k)) for k in keys]


@pytest.mark.parametrize("index", range(len(CASES)))
def test_kpart_matches_the_jvm(java_answers, index):
    mode, keys = CASES[index]
    want = java_answers[index]
    if mode != "hash":
        want = [_decode(t) for t in want]
    assert _kpart(mode, keys) == want, (mode, len(keys))


def test_the_cases_cover_every_mode_and_large_tables():
    assert {mode for mode, _ in CASES} == set(MODES)
    assert max(len(k) for _, k in CASES) >= 5000
    assert any("\ud800" in key for _, keys in CASES for key in keys)  # lone surrogates


def _numeric_cases() -> list[tuple[str, ...]]:
    rnd = random.Random(7)
    seeds = [0, 1, -1, 42, 20241025, 2**63 - 1, -(2**63), *(rnd.getrandbits(64) - 2**63
                                                           for _ in range(20))]
    cases: list[tuple[str, ...]] = []
    for i, seed in enumerate(seeds):
        bound = [0, 1, 2, 3, 5, 6, 7, 10, 16, 1000, 2**30, 2**31 - 1, 2**30 + 1][i % 13]
        cases.append(("random", str(seed), str(bound), "50"))
        cases.append(("shuffle", str(seed), str([0, 1, 2, 5, 9, 10, 50, 300][i % 8])))
        values = [rnd.randrange(-(2**31), 2**31) for _ in range(rnd.choice([3, 13, 100, 700]))]
        values += [rnd.randrange(0, 64) for _ in range(10)]  # small ints: one per bucket
        cases.append(("intset", *map(str, values)))
    return cases


NUMERIC = _numeric_cases()


@pytest.fixture(scope="module")
def java_numeric() -> list[list[str]]:
    return _ask_java([" ".join(c) for c in NUMERIC])


def _kpart_numeric(case: tuple[str, ...]) -> list[str]:
    import struct

    from kpart._java.collections import JavaHashSet
    from kpart._java.random import JavaRandom, shuffle

    mode, *args = case
    if mode == "random":
        r = JavaRandom(int(args[0]))
        bound, count = int(args[1]), int(args[2])
        out = [str(r.next_int() if bound == 0 else r.next_int(bound)) for _ in range(count)]
        out.append(str(r.next_long()))
        out.append("true" if r.next_boolean() else "false")
        out.append(str(struct.unpack(">q", struct.pack(">d", r.next_double()))[0]))
        return out
    if mode == "shuffle":
        items = list(range(int(args[1])))
        shuffle(items, JavaRandom(int(args[0])))
        return [str(v) for v in items]
    s = JavaHashSet()
    for v in args:
        s.add(int(v))
    return [str(v) for v in s]


@pytest.mark.parametrize("index", range(len(NUMERIC)))
def test_java_random_shuffle_and_integer_sets_match_the_jvm(java_numeric, index):
    assert _kpart_numeric(NUMERIC[index]) == java_numeric[index], NUMERIC[index][:3]


def _ops_cases() -> list[tuple[int, list[tuple[str, str]]]]:
    """Puts, removes and clears on ``new HashMap<>(cap)``, like the sticky assignor's
    movement maps (a key removed and put again moves to its bucket's tail)."""
    rnd = random.Random(11)
    cases = []
    for i in range(40):
        cap = [-1, 0, 1, 2, 3, 16, 17, 100][i % 8]
        pool = [_key(rnd, rnd.choice(("numbered", "uuid", "unicode")), j)
                for j in range(rnd.choice([3, 10, 13, 30, 200]))]
        ops = []
        for _ in range(3 * len(pool)):
            roll = rnd.random()
            op = "+" if roll < 0.65 else "-" if roll < 0.99 else "c"
            ops.append((op, rnd.choice(pool)))
        cases.append((cap, ops))
    return cases


OPS = _ops_cases()


@pytest.fixture(scope="module")
def java_ops() -> list[list[str]]:
    answers = _ask_java(
        [" ".join(["ops", str(cap), *(f"{op} {_encode(k)}" for op, k in ops)]) for cap, ops in OPS]
    )
    return [[_decode(t) for t in line] for line in answers]


@pytest.mark.parametrize("index", range(len(OPS)))
def test_puts_removes_and_clears_match_the_jvm(java_ops, index):
    cap, ops = OPS[index]
    keys: JavaHashSet[str] = JavaHashSet() if cap < 0 else JavaHashSet(cap)
    table: JavaHashMap[str, int] = JavaHashMap() if cap < 0 else JavaHashMap(cap)
    for op, key in ops:
        if op == "+":
            keys.add(key)
            table.put(key, 1)
        elif op == "-":
            keys.remove(key)
            table.remove(key)
        else:
            keys.clear()
            table.clear()
    assert list(keys) == java_ops[index], ("JavaHashSet", cap)
    if java_ops[index]:
        assert keys.first() == java_ops[index][0]
    assert [k for k, _ in table.items()] == java_ops[index], ("JavaHashMap", cap)
