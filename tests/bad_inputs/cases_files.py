"""Catalogue cases for the user's files (issue 10 points 1, 2, 9): every output option at a
directory, a missing or file parent, an unwritable directory; ``kpart report --out`` at ``.``,
``..``, the input's directory or a directory kpart did not write; every file input given a
non-UTF-8 file, a directory or a missing file. Ids start with ``files-``."""

from __future__ import annotations

from bad_inputs.case import Case

DESCRIBE = (  # a whole-cluster dump: its topic header first (issue 24, point 4(d))
    "Topic: t\tPartitionCount: 2\tReplicationFactor: 2\tConfigs: \n"
    "Topic: t\tPartition: 0\tLeader: 0\tReplicas: 0,1\tIsr: 0,1\n"
    "Topic: t\tPartition: 1\tLeader: 1\tReplicas: 1,2\tIsr: 1,2\n"
)
GROUP = '{"topics": {"t": 3}, "members": [{"id": "a", "topics": ["t"]}]}'
SERVER_GROUP = (
    '{"topics": [{"name": "t", "id": "AAAAAAAAAAAAAAAAAAAAAg", "partitions": 3}], '
    '"members": [{"id": "a", "topics": ["t"]}]}'
)
SCENARIO = '{"topics": {"t": 3}, "steps": [{"join": ["a"]}]}'
EVENTS = "user_key,v\nu1,1\nu2,2\n"
NOT_UTF8 = b"\xff\xfe not text"
SUB = {"sub/keep.txt": "the user's"}  # makes the directory 'sub'

PLACE = ("place", "--brokers", "0,1,2", "--partitions", "3", "--replication-factor", "2")
PLAN = ("plan", "--current", "current.txt", "--add-brokers", "3")
KEYS = ("--keys", "a,b,c", "--partitions", "3")
REPORT = ("report", "data/events.csv", "--key", "user_key")


def _outputs() -> list[Case]:
    """(id, argv before the path, files) of every command writing a file."""
    writers = [
        ("place", (*PLACE, "-o"), {}),
        ("plan-out", (*PLAN, "--out"), {"current.txt": DESCRIBE}),
        ("plan-rollback", (*PLAN, "--rollback-out"), {"current.txt": DESCRIBE}),
        ("plan-describe-out", (*PLAN, "--describe-out"), {"current.txt": DESCRIBE}),
        ("plan-topics-out", (*PLAN, "--topics-out"), {"current.txt": DESCRIBE}),
        ("assign", ("assign", "group.json", "--out"), {"group.json": GROUP}),
        ("server-assign", ("server-assign", "group.json", "--out"),
         {"group.json": SERVER_GROUP}),
        ("simulate", ("simulate", "-n", "10", "--seed", "1", "--out"), {}),
        ("compat", ("compat", *KEYS, "--out"), {}),
        ("whatif", ("whatif", *KEYS, "--to", "4", "--out"), {}),
    ]
    cases = []
    for name, argv, files in writers:  # names without the option: its spelling may change
        cases += [
            Case(f"files-{name}-out-is-a-directory", (*argv, "sub"),
                 "cannot write 'sub': is a directory", files={**files, **SUB}),
            Case(f"files-{name}-out-missing-parent", (*argv, "no/such/out.json"),
                 "directory 'no/such' does not exist", files=files),
        ]
    cases += [
        Case("files-place-out-parent-is-a-file", (*PLACE, "-o", "sub/keep.txt/out.txt"),
             "'sub/keep.txt' is not a directory", files=SUB),
        Case("files-place-out-unwritable-directory", (*PLACE, "-o", "/sys/kpart-out.txt"),
             "'/sys/kpart-out.txt': permission denied"),
        Case("files-plan-out-unwritable-directory", (*PLAN, "--out", "/sys/kpart-plan.json"),
             "'/sys/kpart-plan.json': permission denied", files={"current.txt": DESCRIBE}),
        Case("files-rebalance-out-is-a-directory",
             ("rebalance", "scenario.json", "--out", "sub"), "--out: cannot write 'sub'",
             files={"scenario.json": SCENARIO, **SUB}),
        Case("files-plan-out-is-the-current-input", (*PLAN, "--out", "current.txt"),
             "cannot write 'current.txt': it is the input", files={"current.txt": DESCRIBE}),
        Case("files-plan-out-twice", (*PLAN, "--out", "p.json", "--rollback-out", "./p.json"),
             "it is also the output of --out", files={"current.txt": DESCRIBE}),
        Case("files-assign-out-is-the-input", ("assign", "group.json", "--out", "group.json"),
             "cannot write 'group.json': it is the input", files={"group.json": GROUP}),
        Case("files-simulate-out-is-the-input",
             ("simulate", "-i", "r.csv", "--out", "r.csv"),
             "cannot write 'r.csv': it is the input", files={"r.csv": "timestamp_ms,size\n0,1\n"}),
        Case("files-whatif-out-is-the-data",
             ("whatif", "d.json", "--partitions", "3", "--to", "4", "--out", "d.json"),
             "cannot write 'd.json': it is the input", files={"d.json": '{"tailnum": "a"}\n'}),
        Case("files-compat-out-not-utf8", ("compat", *KEYS, "--out", "prev.json"),
             "--out: cannot read 'prev.json': not UTF-8", files={"prev.json": NOT_UTF8}),
    ]
    return cases


def _report() -> list[Case]:
    data = {"data/events.csv": EVENTS}
    return [
        Case("files-report-out-dot", (*REPORT, "--out", "."), "'.'", files=data),
        Case("files-report-out-dotdot", (*REPORT, "--out", ".."), "'..'", files=data),
        Case("files-report-out-dot-forced", (*REPORT, "--out", ".", "--force"),
             "working directory", files=data),
        Case("files-report-out-is-the-input-dir", (*REPORT, "--out", "data"),
             "--out: refusing to write the report to 'data': it holds the input", files=data),
        Case("files-report-out-input-dir-forced", (*REPORT, "--out", "data/", "--force"),
             "holds the input", files=data),
        Case("files-report-out-parent-of-input",
             ("report", "data/deep/events.csv", "--key", "user_key", "--out", "data"),
             "holds the input", files={"data/deep/events.csv": EVENTS}),
        Case("files-report-out-is-the-input", (*REPORT, "--out", "data/events.csv"),
             "it is the input", files=data),
        Case("files-report-out-inside-input-directory",
             ("report", "table", "--format", "csv", "--key", "user_key", "--out", "table/r"),
             "inside the input directory 'table'", files={"table/part-0.csv": EVENTS}),
        Case("files-report-out-not-a-report", (*REPORT, "--out", "precious"),
             "'precious' exists and is not a kpart report",
             files={**data, "precious/notes.txt": "mine"}),
        Case("files-report-out-report-with-users-file", (*REPORT, "--out", "r"),
             "also holds 'notes.txt'",
             files={**data, "r/summary.json": '{"format": "kpart-report"}',
                    "r/notes.txt": "mine"}),
        Case("files-report-out-missing-parent", (*REPORT, "--out", "no/such/r"),
             "directory 'no/such' does not exist", files=data),
        Case("files-report-out-parent-is-a-file", (*REPORT, "--out", "data/events.csv/r"),
             "'data/events.csv' is not a directory", files=data),
        Case("files-report-out-is-a-file", (*REPORT, "--out", "notes.txt"),
             "exists and is not a directory", files={**data, "notes.txt": "mine"}),
        Case("files-report-out-unwritable", (*REPORT, "--out", "/sys/kpart-report"),
             "permission denied", files=data),
    ]


def _inputs() -> list[Case]:
    """Every file input: not UTF-8, a directory, a missing file."""
    readers = [
        ("plan-current", ("plan", "--add-brokers", "3", "--current"), "--current", {}),
        ("describe-current", ("describe", "--current"), "--current", {}),
        ("plan-pools", ("plan", "--current", "current.txt", "--pools"), "--pools",
         {"current.txt": DESCRIBE}),
        ("plan-sizes", ("plan", "--current", "current.txt", "--add-brokers", "3", "--sizes"),
         "--sizes", {"current.txt": DESCRIBE}),
        ("describe-pools", ("describe", "--current", "current.txt", "--pools"), "--pools",
         {"current.txt": DESCRIBE}),
        ("pools-pools", ("pools", "--current", "current.txt", "--pools"), "--pools",
         {"current.txt": DESCRIBE}),
        ("assign-file", ("assign",), "FILE", {}),
        ("server-assign-file", ("server-assign",), "FILE", {}),
        ("rebalance-scenario", ("rebalance",), "SCENARIO_FILE", {}),
        ("simulate-input", ("simulate", "-i"), "--input", {}),
        ("report-topology", ("report", "--topology"), "--topology", {}),
        ("report-show-topology", ("report", "--show-topology", "--topology"), "--topology",
         {}),
    ]
    cases = []
    for name, argv, _option, files in readers:  # names without the option (may be renamed)
        cases += [
            Case(f"files-{name}-not-utf8", (*argv, "bad.txt"),
                 "cannot read 'bad.txt': not UTF-8 (byte 0xff at offset 0)",
                 files={**files, "bad.txt": NOT_UTF8}),
            Case(f"files-{name}-is-a-directory", (*argv, "sub"),
                 "cannot read 'sub': is a directory", files={**files, **SUB}),
            Case(f"files-{name}-missing", (*argv, "missing.json"),
                 "cannot read 'missing.json': does not exist", files=files),
        ]
    cases += [
        Case("files-rebalance-scenario-toml-not-utf8", ("rebalance", "s.toml"),
             "cannot read 's.toml': not UTF-8 (byte 0xe9 at offset 8)",
             files={"s.toml": b"name = '\xe9t\xe9'\n"}),
        Case("files-simulate-input-jsonl-not-utf8", ("simulate", "-i", "r.jsonl"),
             "cannot read 'r.jsonl': not UTF-8",
             files={"r.jsonl": b'{"timestamp_ms": 0, "size": 1, "key": "\xc3"}\n'}),
    ]
    return cases


CASES = [*_outputs(), *_report(), *_inputs()]
