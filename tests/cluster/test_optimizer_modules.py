"""The cluster planner's modules keep the house rules issue 27 asked for: no module under
src/kpart/cluster imports another kpart module's private name, and goal names appear as
strings only in the goals themselves (their package, whose registry finds goals by name)
and the verifier (which recomputes every goal by name on purpose)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

CLUSTER = Path(__file__).resolve().parents[2] / "src" / "kpart" / "cluster"


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


def test_no_private_cross_imports() -> None:
    assert private_imports() == set()


def goal_name_strings() -> dict[str, set[str]]:
    """Per file (relative to src/kpart/cluster), the ``"...Goal"`` strings it holds (what
    ``grep -o '"[A-Za-z]*Goal"'`` finds)."""
    out: dict[str, set[str]] = {}
    for path in sorted(CLUSTER.rglob("*.py")):
        found = set(re.findall(r'"[A-Za-z]*Goal"', path.read_text()))
        if found:
            out[path.relative_to(CLUSTER).as_posix()] = found
    return out


def test_goal_names_only_in_the_goals_and_the_verifier() -> None:
    where = goal_name_strings()
    assert "goals/registry.py" in where or "goals/__init__.py" in where
    outside = {f for f in where if not f.startswith("goals/") and f != "verifier.py"}
    assert outside == set()


def test_the_optimizer_is_the_loop_over_goals() -> None:
    text = (CLUSTER / "optimizer.py").read_text()
    assert "goal.optimize(s, guards=" in text
    assert "isinstance(" not in text and ".name ==" not in text
