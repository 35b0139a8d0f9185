"""Catalogue cases of issue 25 for the classic client assignors (ids ``classic-versions-*``):
``--kafka-version`` of ``kpart assign``/``rebalance`` and ``--from``/``--to`` of ``kpart upgrade``
with range, roundrobin, sticky, cooperative-sticky: an assignor the version lacks
(cooperative-sticky before 2.4.0), one kpart does not model there (sticky at 0.11, range and
roundrobin at 0.10.0.x), an unknown or unparseable version. One line naming the value, exit 2,
nothing written."""

from __future__ import annotations

import json

from bad_inputs.case import Case

GROUP = json.dumps({"topics": {"t": 3}, "members": [
    {"id": "m1", "topics": ["t"]}, {"id": "m2", "topics": ["t"], "instance_id": "host-2"}]})
SCENARIO = json.dumps({"topics": {"t": 3}, "steps": [{"join": [{"id": "m1", "topics": ["t"]},
                                                              {"id": "m2", "topics": ["t"]}]}]})


def _assign(cid: str, strategy: str, version: str, names: str) -> Case:
    return Case(id=f"classic-versions-assign-{cid}", names=names, files={"g.json": GROUP},
                argv=("assign", "g.json", "-s", strategy, "--kafka-version", version,
                      "-o", "out.json"))


def _upgrade(cid: str, assignor: str, old: str, new: str, names: str) -> Case:
    return Case(id=f"classic-versions-upgrade-{cid}", names=names, files={"g.json": GROUP},
                argv=("upgrade", "g.json", "--from", old, "--to", new, "-a", assignor,
                      "-o", "out.json"))


CASES = [
    _assign("cooperative-sticky-2.3", "cooperative-sticky", "2.3", "'2.3'"),
    _assign("cooperative-sticky-2.3.1", "cooperative-sticky", "2.3.1", "cooperative-sticky"),
    _assign("sticky-0.11", "sticky", "0.11.0.0", "'0.11.0.0'"),
    _assign("sticky-0.10", "sticky", "0.10.2", "'0.10.2'"),
    _assign("range-0.10.0", "range", "0.10.0", "'0.10.0'"),
    _assign("roundrobin-0.10.0.1", "roundrobin", "0.10.0.1", "'0.10.0.1'"),
    _assign("range-unknown", "range", "5.1", "'5.1'"),
    _assign("roundrobin-unknown-patch", "roundrobin", "2.4.9", "'2.4.9'"),
    _assign("range-unparseable", "range", "2.x", "'2.x'"),
    Case(id="classic-versions-assign-default-strategy-unknown", names="'9.9'",
         files={"g.json": GROUP}, argv=("assign", "g.json", "--kafka-version", "9.9")),
    Case(id="classic-versions-rebalance-cooperative-2.3", names="'2.3'",
         files={"s.json": SCENARIO},
         argv=("rebalance", "s.json", "-s", "roundrobin", "-s", "cooperative-sticky",
               "--kafka-version", "2.3", "-o", "out.json")),
    _upgrade("cooperative-sticky-from-2.3", "cooperative-sticky", "2.3", "4.3", "'2.3'"),
    _upgrade("cooperative-sticky-to-2.2", "cooperative-sticky", "4.3", "2.2", "'2.2'"),
    _upgrade("sticky-from-0.11", "sticky", "0.11.0.3", "4.3", "'0.11.0.3'"),
    _upgrade("range-from-unknown", "range", "2.4.9", "4.3", "'2.4.9'"),
    _upgrade("roundrobin-to-unparseable", "roundrobin", "2.4", "04.1", "'04.1'"),
]
