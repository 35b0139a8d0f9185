"""Assemble versioned golden vectors: the inputs of ``tests/golden/assign_<a>.jsonl.gz`` or
``tests/golden/uniform_assignor.jsonl.gz`` (the trunk-2024-10-25 set) joined with a driver's output
for a Kafka release (``{"id", "expected"}`` per single case as ``ClassicDriver`` and
``UniformDriver`` write them; ``{"id", "rounds"}`` per uniform sequence).

    python tools/golden/make_vectors.py VERSION REF COMMIT DATE DRIVER_OUT.jsonl BASE_OUT.jsonl OUT.jsonl.gz

``BASE_OUT`` is the same driver's output on release 4.0.0: ``differs_from_4_0_0`` compares with it,
so that a difference is the release's, never the driver's. Output lines are the input file's
single cases without their ``input`` (``input_from`` names the file that holds it, same ``id``),
with ``expected`` replaced and ``source`` naming the release; ``exact`` is dropped
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
    "uniform": "org.apache.kafka.coordinator.group.assignor.UniformAssignor",
}


def _answer(d: dict) -> object:
    """What a case's answer is: single -> expected; sequence -> each round's members and result."""
    if "rounds" not in d:
        return d["expected"]
    return [{k: r.get(k) for k in ("members", "assignment", "error")} for r in d["rounds"]]


def _read(path: str) -> dict[str, dict]:
    with open(path, encoding="utf-8") as fh:
        return {d["id"]: d for d in map(json.loads, fh)}


def main(argv: list[str]) -> int:
    version, ref, commit, date, driver_out, base_out, out = argv
    got, base = _read(driver_out), _read(base_out)
    with gzip.open(ref, "rt", encoding="utf-8") as fh:
        ref_lines = fh.readlines()
    lines = []
    for line in ref_lines:
        case = json.loads(line)
        if case["kind"] != "single" and case["assignor"] != "uniform":
            continue  # classic sequences are not re-simulated
        for k in ("exact", "nonexact_probes", "sequence_exact"):
            case.pop(k, None)
        mine = got[case["id"]]
        if case["kind"] == "single":
            case["expected"] = mine["expected"]
            if "subscription_type" in mine:
                case["subscription_type"] = mine["subscription_type"]
        else:
            case["expected"] = {"rounds": mine["rounds"]}
            for mine_round, base_round in zip(
                mine["rounds"], base[case["id"]]["rounds"], strict=True
            ):
                mine_round["differs_from_4_0_0"] = _answer({"rounds": [mine_round]}) != _answer(
                    {"rounds": [base_round]}
                )
        case["differs_from_4_0_0"] = _answer(mine) != _answer(base[case["id"]])
        case["source"] = {
            "kafka_class": CLASSES[case["assignor"]],
            "kafka_version": version,
            "kafka_commit": commit,
            "kafka_commit_date": date,
            **({"protocol": case["protocol"]} if "protocol" in case else {}),
        }
        # the input is not repeated: it is the base file's case of the same id
        keep = (
            "id",
            "assignor",
            "protocol",
            "kind",
            "subscription_type",
            "expected",
            "differs_from_4_0_0",
            "source",
        )
        slim = {k: case[k] for k in keep if k in case}
        slim["input_from"] = ref.rsplit("/", 1)[-1]
        lines.append(json.dumps(slim, separators=(",", ":"), sort_keys=False))
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=9) as gz:
        gz.write(("\n".join(lines) + "\n").encode("utf-8"))
    with open(out, "wb") as f:
        f.write(buf.getvalue())
    print(
        out,
        len(lines),
        "cases,",
        sum(json.loads(x)["differs_from_4_0_0"] for x in lines),
        "differ from 4.0.0",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
