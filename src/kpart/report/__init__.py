"""Reports of the main job, without Spark: the summary document, its files and terminal view.
This package renders; what it shows is computed elsewhere (the topology resolved once in
:mod:`kpart.analysis.layout`, the loads and their null-key records in :mod:`kpart.analysis.loads`, skew in
:mod:`kpart._skew`).

* :mod:`kpart.analysis.summary` — :class:`Loads` (what Spark measured) + the topology's placement
  and assignments → the ``summary.json`` document (:func:`build_summary`);
* :mod:`kpart.report.output` — the report directory, written atomically (:func:`write_report`);
* :mod:`kpart.report.terminal` — the rich terminal summary (:func:`print_summary`);
* :mod:`kpart.report.html` — the self-contained page (``report.html``).
"""

from __future__ import annotations

from kpart.analysis.summary import HotKey, Loads, build_summary

__all__ = ["HotKey", "Loads", "build_summary"]
