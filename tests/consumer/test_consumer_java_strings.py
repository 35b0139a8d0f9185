"""``kpart._java.strings`` against ``String.compareTo`` values produced by a JVM (OpenJDK 17,
``Integer.signum(s[i].compareTo(s[j]))`` for every pair, and ``Collections.sort`` order)."""

from __future__ import annotations

from kpart._java.strings import java_compare, java_sorted

STRINGS = [
    "a",
    "b",
    "ab",
    "",
    "A",
    "\u00e9",
    "\ufffd",
    "\ue000",
    "a\U0001f600",
    "a\ufffd",
    "\U0001f600",
    "\U00010000",
    "z",
    "member-10",
    "member-9",
    "\u4e2d",
]
# Row i, column j: signum(STRINGS[i].compareTo(STRINGS[j])) printed by the JVM.
JVM_SIGNS = """
0,-1,-1,1,1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1
1,0,1,1,1,-1,-1,-1,1,1,-1,-1,-1,-1,-1,-1
1,-1,0,1,1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1
-1,-1,-1,0,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1
-1,-1,-1,1,0,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1
1,1,1,1,1,0,-1,-1,1,1,-1,-1,1,1,1,-1
1,1,1,1,1,1,0,1,1,1,1,1,1,1,1,1
1,1,1,1,1,1,-1,0,1,1,1,1,1,1,1,1
1,-1,1,1,1,-1,-1,-1,0,-1,-1,-1,-1,-1,-1,-1
1,-1,1,1,1,-1,-1,-1,1,0,-1,-1,-1,-1,-1,-1
1,1,1,1,1,1,-1,-1,1,1,0,1,1,1,1,1
1,1,1,1,1,1,-1,-1,1,1,-1,0,1,1,1,1
1,1,1,1,1,-1,-1,-1,1,1,-1,-1,0,1,1,-1
1,1,1,1,1,-1,-1,-1,1,1,-1,-1,-1,0,-1,-1
1,1,1,1,1,-1,-1,-1,1,1,-1,-1,-1,1,0,-1
1,1,1,1,1,1,-1,-1,1,1,-1,-1,1,1,1,0
"""
JVM_SORTED_INDEXES = [3, 4, 0, 2, 8, 9, 1, 13, 14, 12, 5, 15, 11, 10, 7, 6]


def test_compare_matches_jvm() -> None:
    rows = [[int(x) for x in line.split(",")] for line in JVM_SIGNS.split()]
    got = [[java_compare(a, b) for b in STRINGS] for a in STRINGS]
    assert got == rows


def test_sorted_matches_collections_sort() -> None:
    assert java_sorted(STRINGS) == [STRINGS[i] for i in JVM_SORTED_INDEXES]
    # Python's own order differs on the supplementary characters.
    assert sorted(STRINGS) != java_sorted(STRINGS)
    assert java_sorted([("x", "b"), ("y", "a")], key=lambda t: t[1]) == [("y", "a"), ("x", "b")]
