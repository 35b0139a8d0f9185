"""Assemble a per-release replica placement vector file from a driver's output for a Kafka release.

    python tools/golden/make_placement_vectors.py KIND VERSION COMMIT DATE INPUTS \
        DRIVER_OUT.jsonl BASE_OUT.jsonl OUT.jsonl.gz

``KIND``: ``striped`` (``StripedDriver`` on ``tests/golden/replicas_striped.jsonl.gz``),
``adminutils`` (``AdminUtilsDriver place`` on ``tests/golden/replicas_adminutils.jsonl.gz``) or
``add_partitions`` (``AdminUtilsDriver add`` on ``placement_inputs.py``'s output). For the first
two the input is not repeated (``input_from`` names the base file, same ``id`` and order); for
``add_partitions`` each line carries its ``input``. ``BASE_OUT`` is the same driver's output at
4.0.0 (``differs_from_4_0_0``). Format: tests/golden/FORMAT.md, "Per-release placement vectors";
gzip mtime 0 (byte-reproducible).
"""

from __future__ import annotations

import gzip
import io
import json
import sys

CLASSES = {
    "striped": "org.apache.kafka.metadata.placement.StripedReplicaPlacer",
    "adminutils": "org.apache.kafka.admin.AdminUtils#assignReplicasToBrokers",
    "add_partitions": "org.apache.kafka.admin.AdminUtils#assignReplicasToBrokers "
                      "(as kafka.zk.AdminZkClient#createNewPartitionsAssignment calls it)",
}
BASE_FILES = {"striped": "replicas_striped.jsonl.gz", "adminutils": "replicas_adminutils.jsonl.gz"}


def _read(path: str) -> dict[str, dict]:
    with open(path, encoding="utf-8") as fh:
        return {d["id"]: d for d in map(json.loads, fh)}


def main(argv: list[str]) -> int:
    kind, version, commit, date, inputs, driver_out, base_out, out = argv
    got, base = _read(driver_out), _read(base_out)
    opener = gzip.open if inputs.endswith(".gz") else open
    with opener(inputs, "rt", encoding="utf-8") as fh:
        cases = [json.loads(line) for line in fh if line.strip()]
    lines = []
    for case in cases:
        row: dict = {"id": case["id"]}
        if kind in BASE_FILES:
            row["input_from"] = BASE_FILES[kind]
        else:
            row["input"] = case["input"]
        row["expected"] = got[case["id"]]["expected"]
        row["differs_from_4_0_0"] = row["expected"] != base[case["id"]]["expected"]
        row["source"] = {"kafka_class": CLASSES[kind], "kafka_version": version,
                         "kafka_commit": commit, "kafka_commit_date": date}
        lines.append(json.dumps(row, separators=(",", ":")) + "\n")
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0) as gz:
        gz.write("".join(lines).encode("utf-8"))
    with open(out, "wb") as fh:
        fh.write(buf.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
