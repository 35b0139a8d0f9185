"""One topic's report computed from what its Spark job measured: the job
(:func:`kpart.spark.pipeline.measure_report`) returns a :class:`MeasuredTopic` (measures only);
:func:`topic_summary` gives the ``summary.json`` document the report renders — the loads laid
out per partition, broker, rack and consumer (:func:`kpart.analysis.summary.build_summary`), the
what-if counted as the report counts (:func:`kpart.analysis.loads.count_whatif_like_report`),
the cross-client comparison and the malformed records left out.

>>> from kpart.analysis.layout import resolve_topology
>>> from kpart.analysis.loads import Loads
>>> from kpart.topology import default_topology
>>> loads = Loads((1,) * 12, (10,) * 12, (1,) * 12, 0, 0, ())
>>> m = MeasuredTopic(resolve_topology(default_topology().with_topic(placement_seed=1)), loads,
...                   source={"path": "f.csv", "format": "csv"}, malformed_records=2)
>>> s = topic_summary(m, on_step=print)
placing replicas and assigning 2 consumer group(s)
>>> s["records"], s["malformed_records"], s["input"]["path"]
(12, 2, 'f.csv')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kpart.analysis.layout import ResolvedTopology
from kpart.analysis.loads import Loads, count_whatif_like_report
from kpart.analysis.summary import build_summary

__all__ = ["MeasuredTopic", "placing_step", "topic_summary"]


def _silent(step: str) -> None:
    """The default ``on_step``: library callers see no output."""


@dataclass(frozen=True, slots=True)
class MeasuredTopic:
    """What the report's job measured for one topic: the topology it ran on, ``resolved`` once
    before any Spark work (:func:`kpart.analysis.report_topology.resolve_report_topology`); the ``loads``;
    the measured ``sections`` (``"whatif"``: :meth:`~kpart.producer.whatif.WhatIfReport.to_json`
    over the records *with* a key; ``"compat"``: the cross-client comparison); the ``source``
    read (``{"path", "format"}`` or ``{"dataset", ...}``); ``analysed_at`` (UTC, ISO 8601); and
    ``malformed_records``, the JSON lines left out under ``bad_records="count"`` (``None``:
    refused, not counted)."""

    resolved: ResolvedTopology
    loads: Loads
    sections: Mapping[str, Any] = field(default_factory=dict)
    source: Mapping[str, Any] = field(default_factory=dict)
    analysed_at: str | None = None
    malformed_records: int | None = None


def placing_step(resolved: ResolvedTopology) -> str | None:
    """The step the summary announces (``"placing replicas and assigning 2 consumer
    group(s)"``); ``None`` in the producer view without groups (nothing placed or assigned)."""
    topology = resolved.topology
    steps = (["placing replicas"] if topology.brokers else []) + (
        [f"assigning {len(topology.groups)} consumer group(s)"] if topology.groups else [])
    return " and ".join(steps) or None


def topic_summary(measured: MeasuredTopic,
                  on_step: Callable[[str], None] = _silent) -> dict[str, Any]:
    """The ``summary.json`` document of ``measured`` (:func:`~kpart.analysis.summary.
    build_summary`), with its sections: the ``"whatif"`` counted as the report counts (null-key
    and randomly placed records added to every scenario), ``"compat"`` as measured, and
    ``malformed_records`` when they were counted (in no figure: neither keyed nor null-key
    records). ``on_step`` is told :func:`placing_step`. Errors: those of ``build_summary``."""
    resolved, loads = measured.resolved, measured.loads
    sections = dict(measured.sections)
    if "whatif" in sections:  # keyed records measured; the others placed as the report does
        sections["whatif"] = count_whatif_like_report(sections["whatif"], resolved, loads)
    step = placing_step(resolved)
    if step is not None:
        on_step(step)
    summary = build_summary(resolved, loads, source=dict(measured.source),
                            analysed_at=measured.analysed_at)
    if measured.malformed_records is not None:
        summary["malformed_records"] = measured.malformed_records
    summary.update(sections)
    return summary
