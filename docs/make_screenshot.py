"""Render the report page and screenshot it with the browser test's code (``make docs-img``).

    python docs/make_screenshot.py docs/img/report.png [--summary kpart-report/summary.json]
    python docs/make_screenshot.py docs/img/plan.png --plan [--summary plan-summary.json]

``--plan``: the plan page (``plan.html``) instead, of a ``kpart plan --json`` summary or, without
``--summary``, of the synthetic plan the plan tests use (``tests/_tools/plan_sample.py``).

Without ``--summary`` (e.g. no ``make demo`` output yet) the page is rendered from the synthetic
summary the report tests use (``tests/_tools/sample.py``). Needs Chromium (``make browser``).
The browser driver and the sample are test tooling (``tests/_tools``), not part of the installed
package: this script, run from a checkout, puts ``tests/`` on its path.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from _tools.browser import screenshot_report  # noqa: E402 - test tooling, on the path above
from _tools.plan_sample import plan_summary  # noqa: E402
from _tools.sample import sample_summary  # noqa: E402
from kpart.report.html import write_report_html  # noqa: E402
from kpart.report.plan_html import write_plan_html  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("png", type=Path, help="where to write the PNG")
    parser.add_argument("--summary", type=Path, help="summary.json of a kpart report run")
    parser.add_argument("--width", type=int, default=1280, help="page width in CSS pixels")
    parser.add_argument("--plan", action="store_true", help="the plan page (plan.html)")
    args = parser.parse_args(argv)
    sample = plan_summary if args.plan else sample_summary
    summary = (
        json.loads(args.summary.read_text(encoding="utf-8")) if args.summary else sample()
    )
    write, name = (write_plan_html, "plan.html") if args.plan else (write_report_html,
                                                                     "report.html")
    with tempfile.TemporaryDirectory(prefix="kpart-docs-img-") as tmp:
        html = write(summary, Path(tmp) / name)
        report = screenshot_report(html, args.png, width=args.width)
    if report.errors:
        print(f"JavaScript errors: {report.errors}", file=sys.stderr)
        return 1
    print(f"{args.png}: {len(report.charts)} charts, sections {', '.join(report.sections)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
