"""Reports rendered, without Spark: the report directory, its pages and the terminal view.
This package renders only: what a report shows is computed before, from measures, in
:mod:`kpart.analysis` (the ``summary.json`` document of one topic,
:func:`kpart.analysis.summary.build_summary`, or of a cluster,
:func:`kpart.analysis.cluster_summary.build_cluster_summary`).

* :mod:`kpart.report.output` — the report directory, written atomically (:func:`write_report`);
* :mod:`kpart.report.terminal` — the rich terminal summary (:func:`print_summary`);
* :mod:`kpart.report.html` — the self-contained page (``report.html``);
* :mod:`kpart.report.plan_html` — the plan's page (``plan.html``).
"""

from __future__ import annotations

__all__: list[str] = []
