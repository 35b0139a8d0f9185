"""Render the report page and screenshot it with the browser test's code (``make docs-img``).

    python docs/make_screenshot.py docs/img/report.png [--summary kpart-report/summary.json]

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
from _tools.sample import sample_summary  # noqa: E402
from kpart.report.html import write_report_html  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("png", type=Path, help="where to write the PNG")
    parser.add_argument("--summary", type=Path, help="summary.json of a kpart report run")
    parser.add_argument("--width", type=int, default=1280, help="page width in CSS pixels")
    args = parser.parse_args(argv)
    summary = (
        json.loads(args.summary.read_text(encoding="utf-8")) if args.summary else sample_summary()
    )
    with tempfile.TemporaryDirectory(prefix="kpart-docs-img-") as tmp:
        html = write_report_html(summary, Path(tmp) / "report.html")
        report = screenshot_report(html, args.png, width=args.width)
    if report.errors:
        print(f"JavaScript errors: {report.errors}", file=sys.stderr)
        return 1
    print(f"{args.png}: {len(report.charts)} charts, sections {', '.join(report.sections)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
