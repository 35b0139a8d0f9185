"""Catalogue cases of issue 24, point 12 (ids ``pages-*``).

* A key that starts with ``-`` (``-1`` under ``--serializer long``) given before ``--`` is read
  as an unknown option: the one error line says to put keys after ``--``.
* ``--out report.html`` (a name ending like a file) on ``kpart report``: a warning that
  ``--out`` is the report's directory, and the report is written inside it (Spark).
"""

from __future__ import annotations

from bad_inputs.case import Case

_DATA = "user_id,v\n" + "".join(f"u{i % 7},{i}\n" for i in range(40))

CASES = [
    Case(id="pages-partition-negative-long-key", names="-- -1",
         argv=("partition", "-1", "--serializer", "long", "-p", "6")),
    Case(id="pages-partition-negative-key-after-options", names="-- -7",
         argv=("partition", "-p", "6", "--serializer", "int", "-7")),
    Case(id="pages-partition-negative-key-among-keys", names="-- -42",
         argv=("partition", "-p", "6", "--serializer", "long", "5", "-42")),
    Case(id="pages-report-out-html", names="--out 'report.html' is a directory",
         argv=("report", "events.csv", "--key", "user_id", "--topic", "events", "--out",
               "report.html", "--quiet"),
         files={"events.csv": _DATA}, expect="warning", quiet_ok=True, marks=("spark",)),
]
