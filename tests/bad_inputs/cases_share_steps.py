"""Catalogue cases of ``kpart share-assign`` on a sequence of group states (ids
``share-steps-*``): no steps, a step that is not a share group, and a sequence asked for in a
format other than JSON."""

from __future__ import annotations

import json

from bad_inputs.case import Case

_T = [{"name": "t", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 2}]
_STEP = {"topics": _T, "members": [{"id": "A", "topics": ["t"]}]}

CASES = [
    Case(id="share-steps-empty", names="steps", argv=("share-assign", "s.json"),
         files={"s.json": json.dumps({"steps": []})}),
    Case(id="share-steps-bad-step", names="steps[1]", argv=("share-assign", "s.json"),
         files={"s.json": json.dumps({"steps": [_STEP, {"topics": _T, "members": 5}]})}),
    Case(id="share-steps-table", names="--format table",
         argv=("share-assign", "s.json", "--format", "table"),
         files={"s.json": json.dumps({"steps": [_STEP]})}),
]
