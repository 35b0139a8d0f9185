"""Catalogue cases of issue 25, producer side (ids ``prodver-*``): ``--kafka-version`` on
``kpart simulate`` and ``kpart partition`` (unknown, unparseable, a strategy the version lacks,
KIP-1123 before 4.4 or without ``--client-rack``, KAFKA-14303's ``batch.size=0``), and
``kpart upgrade --keys/--dataset`` (versions, partitioner, missing or conflicting options)."""

from __future__ import annotations

from bad_inputs.case import Case

SIM = ("simulate", "-n", "10", "-p", "4", "--seed", "1")
KEYS = {"keys.txt": "a\nb\n\nc\n"}


def _sim(cid: str, names: str, *argv: str) -> Case:
    return Case(id=f"prodver-simulate-{cid}", argv=(*SIM, *argv, "-o", "out.json"), names=names)


def _up(cid: str, names: str, *argv: str, files: dict[str, str] | None = None) -> Case:
    return Case(id=f"prodver-upgrade-{cid}", argv=("upgrade", *argv, "-o", "out.json"),
                names=names, files=KEYS if files is None else files)


CASES = [
    _sim("unknown-version", "'5.0'", "--kafka-version", "5.0"),
    _sim("unparseable-version", "'4.x'", "--kafka-version", "4.x"),
    _sim("legacy-in-3", "'3.0'", "--kafka-version", "3.0", "-s", "legacy"),
    _sim("sticky-removed", "'4.0.0'", "--kafka-version", "4.0.0", "-s", "sticky"),
    _sim("round-robin-before-2.4", "'2.3'", "--kafka-version", "2.3", "-s", "round-robin"),
    _sim("round-robin-line-ambiguous", "'3.9'", "--kafka-version", "3.9", "-s", "round-robin"),
    _sim("builtin-before-3.3", "'3.2.3'", "--kafka-version", "3.2.3", "-s", "builtin"),
    _sim("rack-aware-default-4.3", "'4.3'", "--rack-aware", "--client-rack", "a"),
    _sim("rack-aware-4.3", "'4.3.1'", "--kafka-version", "4.3.1", "--rack-aware",
         "--client-rack", "a"),
    _sim("rack-aware-no-rack", "client.rack", "--kafka-version", "4.4", "--rack-aware"),
    _sim("batch-size-zero-3.3.0", "'3.3.0'", "--kafka-version", "3.3.0", "--batch-size", "0"),
    Case(id="prodver-partition-unknown-version", names="'0.9.0.1'",
         argv=("partition", "k", "-p", "3", "--kafka-version", "0.9.0.1")),
    Case(id="prodver-partition-not-java", names="'sarama:hash'",
         argv=("partition", "k", "-p", "3", "--partitioner", "sarama:hash",
               "--kafka-version", "3.0")),
    _up("unknown-to", "'9.1'", "--keys", "keys.txt", "-p", "4", "--from", "3.9.0", "--to", "9.1"),
    _up("round-robin-before-2.4", "'2.3'", "--keys", "keys.txt", "-p", "4", "--from", "2.3",
        "--to", "4.3", "--partitioner", "round-robin"),
    _up("round-robin-line", "'3.9'", "--keys", "keys.txt", "-p", "4", "--from", "3.9",
        "--to", "4.3", "--partitioner", "round-robin"),
    _up("unknown-partitioner", "'sticky'", "--keys", "keys.txt", "-p", "4", "--from", "3.0",
        "--to", "4.3", "--partitioner", "sticky"),
    _up("no-partitions", "--partitions", "--keys", "keys.txt", "--from", "3.0", "--to", "4.3"),
    _up("zero-partitions", "0", "--keys", "keys.txt", "-p", "0", "--from", "3.0", "--to", "4.3"),
    _up("negative-limit", "-1", "--keys", "keys.txt", "-p", "2", "--from", "3.0", "--to", "4.3",
        "--limit", "-1"),
    _up("keys-and-dataset", "--dataset", "--keys", "keys.txt", "--dataset", "keys.txt", "-p", "2",
        "--from", "3.0", "--to", "4.3"),
    _up("keys-missing", "'nope.txt'", "--keys", "nope.txt", "-p", "2", "--from", "3.0",
        "--to", "4.3"),
    _up("dataset-not-parquet", "'keys.txt'", "--dataset", "keys.txt", "-p", "2", "--from", "3.0",
        "--to", "4.3"),
    _up("parquet-format", "parquet", "--keys", "keys.txt", "-p", "2", "--from", "3.0", "--to",
        "4.3", "--format", "parquet"),
    _up("keys-with-group-file", "FILE", "g.json", "--keys", "keys.txt", "-p", "2", "--from", "3.0",
        "--to", "4.3", files={**KEYS, "g.json": "{}"}),
]
