"""No module under src/kpart/cluster imports another kpart module's private name (issue 27).

The names still listed in ``REMAINING`` are the ones not yet made public; the list may only
shrink.
"""

from __future__ import annotations

import ast
from pathlib import Path

CLUSTER = Path(__file__).resolve().parents[2] / "src" / "kpart" / "cluster"

REMAINING = frozenset(
    {
        "_cheapest",
        "_counts",
        "_heavy",
        "_move",
        "_receivers",
        "_swap",
    }
)


def private_imports() -> set[tuple[str, str, str]]:
    """(importing file, source module, name) for every private name imported from kpart."""
    found = set()
    for path in sorted(CLUSTER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("kpart"):
                for alias in node.names:
                    if alias.name.startswith("_") and alias.name != "__future__":
                        found.add((path.name, node.module or "", alias.name))
    return found


def test_no_new_private_cross_imports() -> None:
    extra = {f for f in private_imports() if f[2] not in REMAINING}
    assert extra == set()


def test_remaining_list_only_shrinks() -> None:
    assert {f[2] for f in private_imports()} == REMAINING
