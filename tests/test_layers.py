"""kpart's layers import downward only (docs: DESIGN "Layers"): every import the interpreter can
run (module level and inside functions, not under ``if TYPE_CHECKING:``; the walker of
test_import_cycles.py) goes from a module to one of the same or a lower layer, and ``spark`` and
``report`` (the same layer) never import each other: ``spark`` measures, ``report`` renders,
:mod:`kpart.analysis` computes what the report shows and :mod:`kpart.cli` composes them.

The layers, lowest first (a top-level module or package of ``kpart`` belongs to exactly one;
a new one must be placed here before it can be imported):

0. ``base``: the exception tree, size limits, the version table, warnings, files, Arrow and
   JSON helpers, the one skew measure (``_skew``: the producer's cross-client comparison uses
   it as much as the report) and the root package (``kpart.__version__``);
1. ``_java``: Java behaviour reproduced;
2. ``cores``: ``producer``, ``consumer``, ``placement`` (pure functions, usable alone);
3. ``topology``: the layout file (``topology``, ``_topology_tables``,
   ``_topology_share_streams``), a document written in
   the cores' values (brokers, topic and null-key settings, group strategies) that computes
   nothing: above the cores it names, below every layer that reads it;
4. ``cluster``: the cluster model, its loaders, goals, planner, verifier and elections;
5. ``analysis``: what a report shows, computed from measures (the topology resolved, loads,
   the cluster model of a report, summaries, what changes at another Kafka version);
6. ``spark`` (measures) and ``report`` (renders), which never import each other;
7. ``cli``: composes the above.
"""

from __future__ import annotations

import ast

import pytest

from test_import_cycles import _imports, import_graph

LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("base", frozenset({"kpart", "errors", "limits", "versions", "_warnings", "_files", "_arrow",
                        "_json_fields", "_skew"})),
    ("_java", frozenset({"_java"})),
    ("cores", frozenset({"producer", "consumer", "placement"})),
    ("topology", frozenset({"topology", "_topology_tables", "_topology_share_streams"})),
    ("cluster", frozenset({"cluster"})),
    ("analysis", frozenset({"analysis"})),
    ("spark/report", frozenset({"spark", "report"})),
    ("cli", frozenset({"cli"})),
)
#: Pairs of units of one layer that must not import each other.
APART = (("spark", "report"), ("report", "spark"))


def unit(module: str) -> str:
    """The top-level part of ``kpart`` a module belongs to (``kpart.spark.pipeline`` → ``spark``;
    the root package → ``kpart``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "kpart"


def rank(name: str) -> int | None:
    """The layer index of a unit (``None``: not placed in :data:`LAYERS`)."""
    return next((i for i, (_, units) in enumerate(LAYERS) if name in units), None)


def violations(graph: dict[str, set[str]]) -> list[str]:
    """Every edge of ``graph`` (module → modules it imports) that goes up a layer, joins
    :data:`APART` units, or touches a unit no layer holds; one line each, sorted."""
    found = set()
    for module, deps in graph.items():
        for dep in deps:
            a, b = unit(module), unit(dep)
            if a == b:
                continue
            ra, rb = rank(a), rank(b)
            if ra is None or rb is None:
                missing = a if ra is None else b
                found.add(f"{module} -> {dep}: {missing!r} is in no layer (place it in LAYERS)")
            elif rb > ra:
                found.add(f"{module} -> {dep}: {LAYERS[ra][0]} imports {LAYERS[rb][0]} (up)")
            elif (a, b) in APART:
                found.add(f"{module} -> {dep}: {a} imports {b} (one layer, kept apart)")
    return sorted(found)


def test_the_layer_check_sees_an_upward_import_and_spark_report() -> None:
    known = {"kpart", "kpart.producer", "kpart.producer.x", "kpart.analysis", "kpart.analysis.y",
             "kpart.spark", "kpart.spark.z", "kpart.report", "kpart.report.w", "kpart.newthing"}
    src = "def f():\n    from kpart.analysis.y import g\n"
    graph = {"kpart.producer.x": _imports(ast.parse(src), "kpart.producer.x", False, known)}
    assert violations(graph) == [
        "kpart.producer.x -> kpart.analysis.y: cores imports analysis (up)"]
    assert violations({"kpart.analysis.y": {"kpart.producer.x"}}) == []
    assert violations({"kpart.spark.z": {"kpart.report.w"}, "kpart.report.w": {"kpart.analysis.y"},
                       "kpart.newthing": {"kpart.producer.x"}}) == [
        "kpart.newthing -> kpart.producer.x: 'newthing' is in no layer (place it in LAYERS)",
        "kpart.spark.z -> kpart.report.w: spark imports report (one layer, kept apart)"]


def test_every_unit_has_one_layer() -> None:
    units = [u for _, us in LAYERS for u in us]
    assert len(units) == len(set(units))
    present = {unit(m) for m in import_graph()}
    assert present - set(units) == set(), "place these in LAYERS"


def test_kpart_imports_downward_only() -> None:
    bad = violations(import_graph())
    if bad:
        pytest.fail(f"{len(bad)} import(s) against the layers:\n" + "\n".join(bad))
