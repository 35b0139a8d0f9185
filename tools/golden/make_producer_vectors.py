"""Assemble a per-release producer vector file: the cases of an input file (``rr_inputs.py``'s
output) joined with a driver's output for a Kafka release (``{"id", "expected", "on_new_batch"}``
per case as ``RoundRobinDriver`` writes them).

    python tools/golden/make_producer_vectors.py [--class KAFKA_CLASS] VERSION COMMIT DATE \
        INPUTS.jsonl DRIVER_OUT.jsonl BASE_OUT.jsonl OUT.jsonl.gz

``--class`` (default ``RoundRobinPartitioner``'s) names the class the driver ran; with
``NullKeyDriver``'s output (whose first line is its ``tlr_check`` header) each case also keeps
its ``tlr_seed`` and gets ``tlr`` = ``{"thread_id", "java_version"}`` from that header.
``BASE_OUT`` ``-``: no ``differs_from_4_0_0`` (classes 4.0.0 does not have).

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
        return {d.get("id", "tlr_check"): d for d in map(json.loads, fh)}


def main(argv: list[str]) -> int:
    kafka_class = KAFKA_CLASS
    if argv[0] == "--class":
        kafka_class, argv = argv[1], argv[2:]
    version, commit, date, inputs, driver_out, base_out, out = argv
    got = _read(driver_out)
    base = None if base_out == "-" else _read(base_out)
    header = got.pop("tlr_check", None)
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
        }
        if header is not None:
            row["tlr_seed"] = case["tlr_seed"]
            row["tlr"] = {"thread_id": header["thread_id"],
                          "java_version": header["java_version"]}
        if base is not None:
            row["differs_from_4_0_0"] = mine["expected"] != base[case["id"]]["expected"]
        row |= {
            "source": {
                "kafka_class": kafka_class,
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
