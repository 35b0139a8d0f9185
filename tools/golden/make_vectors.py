"""Assemble versioned golden vectors: the inputs of ``tests/golden/assign_<a>.jsonl.gz`` (the 4.0.0
set) joined with a driver's output for another Kafka release (one ``{"id", "expected"}`` line per
single case, as ``tools/golden/java/classic/ClassicDriver.java`` writes them).

    python tools/golden/make_vectors.py VERSION REF COMMIT DATE DRIVER_OUT.jsonl BASE_OUT.jsonl OUT.jsonl.gz

``BASE_OUT`` is the same driver's output on release 4.0.0: ``differs_from_4_0_0`` compares with it,
so that a difference is the release's, never the driver's. Output lines are the input file's
single cases with ``expected`` replaced and ``source`` naming the release; ``exact`` is dropped
(determinism probes were not re-run; see tests/golden/FORMAT.md). Written with gzip mtime 0 so the
bytes are reproducible.
"""

from __future__ import annotations

import gzip
import io
import json
import sys

CLASSES = {
    "range": "org.apache.kafka.clients.consumer.RangeAssignor",
    "roundrobin": "org.apache.kafka.clients.consumer.RoundRobinAssignor",
    "sticky": "org.apache.kafka.clients.consumer.StickyAssignor",
    "cooperative-sticky": "org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
}


def main(argv: list[str]) -> int:
    version, ref, commit, date, driver_out, base_out, out = argv
    got = {d["id"]: d["expected"] for d in map(json.loads, open(driver_out, encoding="utf-8"))}
    base = {d["id"]: d["expected"] for d in map(json.loads, open(base_out, encoding="utf-8"))}
    lines = []
    for line in gzip.open(ref, "rt", encoding="utf-8"):
        case = json.loads(line)
        if case["kind"] != "single":
            continue
        case.pop("exact", None)
        case.pop("nonexact_probes", None)
        case["expected"] = got[case["id"]]
        case["differs_from_4_0_0"] = got[case["id"]] != base[case["id"]]
        case["source"] = {
            "kafka_class": CLASSES[case["assignor"]],
            "kafka_version": version,
            "kafka_commit": commit,
            "kafka_commit_date": date,
            "protocol": case["protocol"],
        }
        lines.append(json.dumps(case, separators=(",", ":"), sort_keys=False))
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=9) as gz:
        gz.write(("\n".join(lines) + "\n").encode("utf-8"))
    with open(out, "wb") as f:
        f.write(buf.getvalue())
    print(out, len(lines), "cases,", sum(json.loads(x)["differs_from_4_0_0"] for x in lines), "differ from 4.0.0")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
