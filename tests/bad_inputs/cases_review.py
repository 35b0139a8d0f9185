"""Catalogue cases found by reviewing issue 10's change (ids ``review-``)."""

from __future__ import annotations

from bad_inputs.case import Case

CASES = [
    Case("review-report-partitions-double-sign", ("report", "--partitions=--5"), "'--5'"),
    Case("review-report-rf-double-sign", ("report", "--replication-factor=--2"), "'--2'"),
    Case("review-compat-keys-with-master", ("compat", "--keys", "a,b", "-p", "3", "--master",
                                            "local[2]"), "--master"),
    Case("review-compat-keys-with-master-timeout", ("compat", "--keys", "a", "-p", "3",
                                                    "--master-timeout", "-1"), "--master-timeout"),
    Case("review-whatif-keys-with-master", ("whatif", "--keys", "a,b", "-p", "3", "--to", "4",
                                            "--master", "local[2]"), "--master"),
]
