"""Catalogue cases of issue 25, point 4 (ids ``upgrade-*``): ``kpart upgrade --from/--to`` and
``kpart migrate --to-protocol``: an unparseable or unknown version, a version without the
assignor, a classic assignor at a version without it or where kpart does not model it, a
``--to-protocol`` other than consumer/classic, an assignor or group file of the wrong family."""

from __future__ import annotations

import json

from bad_inputs.case import Case

KIP848 = json.dumps({
    "topics": [{"name": "t", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 3}],
    "members": [{"id": "m1", "topics": ["t"]}, {"id": "m2", "topics": ["t"]}],
})
CLASSIC = json.dumps({"topics": {"t": 3}, "members": [{"id": "m1", "topics": ["t"]},
                                                      {"id": "m2", "topics": ["t"]}]})


def _upgrade(cid: str, names: str, *argv: str, group: str = KIP848) -> Case:
    return Case(id=f"upgrade-{cid}", argv=("upgrade", "g.json", *argv), names=names,
                files={"g.json": group})


def _migrate(cid: str, names: str, *argv: str, group: str = CLASSIC) -> Case:
    return Case(id=f"upgrade-migrate-{cid}", argv=("migrate", "g.json", *argv), names=names,
                files={"g.json": group})


CASE_BAD_ASSIGNOR = json.dumps({"assignor": 7, "input": json.loads(KIP848)})
CASE_UNKNOWN_ASSIGNOR = json.dumps({"assignor": "stripy", "input": json.loads(CLASSIC)})

CASES = [
    _upgrade("case-assignor-not-a-name", "7", "--from", "4.0.0", "--to", "4.3",
             group=CASE_BAD_ASSIGNOR),
    _migrate("case-unknown-assignor", "'stripy'", "--to-protocol", "consumer", "-o", "o.json",
             group=CASE_UNKNOWN_ASSIGNOR),
    _upgrade("unparseable-from", "'4.x'", "--from", "4.x", "--to", "4.3"),
    _upgrade("unparseable-to", "'04.1'", "--from", "4.0.0", "--to", "04.1", "-o", "out.json"),
    _upgrade("four-parts", "'4.3.0.0'", "--from", "4.3.0.0", "--to", "4.3"),
    _upgrade("unknown-to", "'5.0'", "--from", "4.0.0", "--to", "5.0", "--json"),
    _upgrade("unknown-patch", "'4.0.9'", "--from", "4.0.9", "--to", "4.3"),
    _upgrade("before-kip848", "'3.6'", "--from", "3.6", "--to", "4.3", "-o", "out.json"),
    _upgrade("ambiguous-line", "'4.0'", "--from", "4.0", "--to", "4.3"),
    _upgrade("classic-across-versions", "cooperative-sticky", "--from", "2.3", "--to", "4.3",
             "-a", "cooperative-sticky", "-o", "out.json", group=CLASSIC),
    _upgrade("classic-range-across-versions", "'0.10.0.1'", "--from", "0.10.0.1", "--to",
             "3.9.1", "-a", "range", group=CLASSIC),
    _upgrade("unknown-assignor", "'stickyy'", "--from", "4.0.0", "--to", "4.3", "-a",
             "stickyy"),
    _upgrade("missing-to", "--to", "--from", "4.0.0"),
    _migrate("other-protocol", "'share'", "--to-protocol", "share", "-o", "out.json"),
    _migrate("protocol-case", "'Consumer'", "--to-protocol", "Consumer"),
    _migrate("bad-version", "'4.x'", "--to-protocol", "consumer", "--kafka-version", "4.x",
             "-o", "out.json"),
    _migrate("version-before-kip848", "'3.6'", "--to-protocol", "consumer", "--kafka-version",
             "3.6"),
    _migrate("server-assignor-as-classic", "'uniform'", "--to-protocol", "consumer", "-a",
             "uniform"),
    _migrate("kip848-file-to-consumer", "'consumer'", "--to-protocol", "consumer",
             group=KIP848),
    _migrate("classic-file-to-classic", "'classic'", "--to-protocol", "classic", "-o",
             "out.json"),
]
