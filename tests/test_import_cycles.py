"""src/kpart has no import cycles: every import the interpreter can run (module level and inside
functions, but not under ``if TYPE_CHECKING:``) is an edge between kpart modules, and the graph
of those edges is acyclic. A cycle is reported as the chain of modules that forms it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "kpart"


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST, module: str, is_package: bool, known: set[str]) -> set[str]:
    """Every kpart module ``module`` imports at run time (``from x import y`` counts as an import
    of ``x.y`` when that is a module, else of ``x``). The parent packages an import initialises on
    the way are not edges: they are already initialising when one of their modules runs."""
    found: set[str] = set()

    def add(name: str) -> None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name and name != module:
            found.add(name)

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "kpart":
                    add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module if is_package else module.rpartition(".")[0]
                for _ in range(node.level - 1):
                    anchor = anchor.rpartition(".")[0]
                base = f"{anchor}.{base}" if base else anchor
            if base.split(".")[0] == "kpart":
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    add(full if full in known else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def import_graph() -> dict[str, set[str]]:
    """kpart module → the kpart modules it imports at run time."""
    paths = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    known = set(paths)
    return {m: _imports(ast.parse(p.read_text(), str(p)), m, p.name == "__init__.py", known)
            for m, p in paths.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as ``[a, b, ..., a]``, or ``None`` when it is acyclic."""
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    path: list[str] = []

    def dfs(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (cycle := dfs(nxt)) is not None:
                return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (cycle := dfs(start)) is not None:
            return cycle
    return None


def test_the_walker_sees_function_level_imports_and_skips_type_checking() -> None:
    src = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from kpart.b import x\n"
           "def f():\n    from kpart.c import y\n")
    known = {"kpart", "kpart.a", "kpart.b", "kpart.c"}
    assert _imports(ast.parse(src), "kpart.a", False, known) == {"kpart.c"}
    assert find_cycle({"kpart.a": {"kpart.c"}, "kpart.c": {"kpart.a"}}) == [
        "kpart.a", "kpart.c", "kpart.a"]
    assert find_cycle({"kpart.a": {"kpart.c"}, "kpart.c": set()}) is None


def test_kpart_has_no_import_cycle() -> None:
    graph = import_graph()
    assert len(graph) > 50, "the walker found too few kpart modules"
    cycle = find_cycle(graph)
    if cycle is not None:
        pytest.fail("import cycle: " + " -> ".join(cycle))
