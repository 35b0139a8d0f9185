"""The ``spark-submit`` application of ``kpart report``: its arguments are those of the command.

Run this file as the application of ``spark-submit`` (the driver then uses the master and
resources spark-submit gives it) or with ``python -m``::

    spark-submit --master spark://host:7077 \\
        "$(python -c 'import kpart.cli._submit as m; print(m.__file__)')" DATA --out DIR
    python -m kpart.cli._submit DATA --out DIR

It is the ``kpart`` command line (:func:`kpart.cli.main`) with ``report`` put first, so errors,
warnings and exit codes are the command's. It lives in :mod:`kpart.cli` (not beside the job in
:mod:`kpart.spark.pipeline`), so the library never imports the command line.
"""

from __future__ import annotations

import sys

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    """Run ``kpart report`` with ``argv`` (default: this process's arguments); the exit code."""
    from kpart.cli import main as cli_main

    return cli_main(["report", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":  # pragma: no cover - spark-submit / python -m entry
    sys.exit(main())
