"""Reports of the main job, without Spark: the summary document, its files and terminal view.

* :mod:`kpart.report.summary` — :class:`Loads` (what Spark measured) + the topology's placement
  and assignments → the ``summary.json`` document (:func:`build_summary`);
* :mod:`kpart.report.output` — the report directory, written atomically (:func:`write_report`);
* :mod:`kpart.report.terminal` — the rich terminal summary (:func:`print_summary`).
"""

from __future__ import annotations

from kpart.report.summary import HotKey, Layout, Loads, build_summary, layout_for, skew_stats

__all__ = ["HotKey", "Layout", "Loads", "build_summary", "layout_for", "skew_stats"]
