"""Assemble a per-release producer vector file: the cases of an input file (``rr_inputs.py``'s
output) joined with a driver's output for a Kafka release (``{"id", "expected", "on_new_batch"}``
per case as ``RoundRobinDriver`` writes them).

    python tools/golden/make_producer_vectors.py VERSION COMMIT DATE INPUTS.jsonl \
        DRIVER_OUT.jsonl BASE_OUT.jsonl OUT.jsonl.gz

``BASE_OUT`` is the same driver's output on release 4.0.0 (``differs_from_4_0_0``). Each output
line is the input case (``id``, ``clusters``, ``sends``) with ``expected``, ``on_new_batch``,
``differs_from_4_0_0`` and ``source``; written with gzip mtime 0 so the bytes are reproducible.
Format: tests/golden/FORMAT.md, "Per-release RoundRobinPartitioner vectors".
"""

from __future__ import annotations

import gzip
import io
import json
import sys

KAFKA_CLASS = "org.apache.kafka.clients.producer.RoundRobinPartitioner"


def _read(path: str) -> dict[str, dict]:
    with open(path, encoding="utf-8") as fh:
        return {d["id"]: d for d in map(json.loads, fh)}


def main(argv: list[str]) -> int:
    version, commit, date, inputs, driver_out, base_out, out = argv
    got, base = _read(driver_out), _read(base_out)
    with open(inputs, encoding="utf-8") as fh:
        cases = [json.loads(line) for line in fh if line.strip()]
    lines = []
    for case in cases:
        mine = got[case["id"]]
        row = {
            "id": case["id"],
            "clusters": case["clusters"],
            "sends": case["sends"],
            "expected": mine["expected"],
            "on_new_batch": mine["on_new_batch"],
            "differs_from_4_0_0": mine["expected"] != base[case["id"]]["expected"],
            "source": {
                "kafka_class": KAFKA_CLASS,
                "kafka_version": version,
                "kafka_commit": commit,
                "kafka_commit_date": date,
            },
        }
        lines.append(json.dumps(row, separators=(",", ":")) + "\n")
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0) as gz:
        gz.write("".join(lines).encode("utf-8"))
    with open(out, "wb") as fh:
        fh.write(buf.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
