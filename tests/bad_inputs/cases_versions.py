"""Catalogue cases of issue 25 (ids ``versions-*``): ``--kafka-version`` of ``kpart
server-assign``, ``assign`` and ``rebalance``: unparseable (``4.x``, ``04.1``, ``4.3.0.0``), unknown (``5.0``, ``4.0.9``), a
version without the feature (server-side assignors before 3.7.0), one kpart does not model
(3.7-3.9), a release line whose releases differ (``4.0``: KAFKA-18688 is in 4.0.1), and a
classic assignor at a version where kpart does not model it."""

from __future__ import annotations

import json

from bad_inputs.case import Case

GROUP = json.dumps({
    "topics": [{"name": "t", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 3}],
    "members": [{"id": "m1", "topics": ["t"]}, {"id": "m2", "topics": ["t"]}],
})


def _case(cid: str, version: str, names: str, *extra: str) -> Case:
    return Case(id=f"versions-{cid}",
                argv=("server-assign", "group.json", "--kafka-version", version, *extra),
                names=names, files={"group.json": GROUP})


CLASSIC_GROUP = json.dumps({"topics": {"t": 3}, "members": [{"id": "m1", "topics": ["t"]},
                                                            {"id": "m2", "topics": ["t"]}]})
SCENARIO = json.dumps({"topics": {"t": 3}, "steps": [{"join": [{"id": "m1", "topics": ["t"]},
                                                              {"id": "m2", "topics": ["t"]}]}]})

CASES = [
    Case(id="versions-assign-classic", names="'0.11.0.0'", files={"group.json": CLASSIC_GROUP},
         argv=("assign", "group.json", "-s", "sticky", "--kafka-version", "0.11.0.0")),
    Case(id="versions-assign-uniform-bad", names="'4.3.0.0'", files={"group.json": CLASSIC_GROUP},
         argv=("assign", "group.json", "-s", "uniform", "--kafka-version", "4.3.0.0", "-o",
               "out.json")),
    Case(id="versions-rebalance-classic", names="'2.3.1'", files={"s.json": SCENARIO},
         argv=("rebalance", "s.json", "-s", "range", "-s", "cooperative-sticky",
               "--kafka-version", "2.3.1", "-o", "out.json")),
    Case(id="versions-rebalance-before-kip848", names="'3.6'", files={"s.json": SCENARIO},
         argv=("rebalance", "s.json", "-s", "uniform", "--kafka-version", "3.6")),
    _case("letter", "4.x", "'4.x'"),
    _case("leading-zero", "04.1", "'04.1'"),
    _case("four-parts", "4.3.0.0", "'4.3.0.0'"),
    _case("empty", "", "--kafka-version ''"),
    _case("unknown-line", "5.0", "'5.0'"),
    _case("unknown-patch", "4.0.9", "'4.0.9'"),
    _case("before-kip848", "3.6.2", "'3.6.2'"),
    _case("before-kip848-range", "2.8", "'2.8'", "-a", "range"),
    _case("not-modelled", "3.9.1", "'3.9.1'"),
    _case("ambiguous-line", "4.0", "'4.0'"),
    _case("unreleased", "4.4", "'4.4'", "-o", "out.json"),
]
