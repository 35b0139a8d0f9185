"""The coordinator formulas (:mod:`kpart.cluster.coordinator`, :func:`kpart._java.ints.utils_abs`,
:mod:`kpart._java.objects`) against the JVM: ``tests/java/CoordinatorOracle.java`` computes them
with plain Java 17 (``String.hashCode``, ``String.format``, ``Objects.hash``, ``Math.abs``) and
Commons Codec's ``MurmurHash2`` (Kafka's murmur2, from pyspark's jars), one process for all
requests. Keys include ids whose ``hashCode()`` is ``Integer.MIN_VALUE`` and other negatives."""

from __future__ import annotations

import random
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest

from kpart._java.hashing import string_hash_code
from kpart._java.objects import int_value, long_value, objects_hash
from kpart._java.uuid import uuid_to_string
from kpart.cluster.coordinator import (
    GroupKey,
    RemoteLogMetadataKey,
    SharePartitionKey,
    TransactionKey,
)

ORACLE = Path(__file__).parent / "java" / "CoordinatorOracle.java"
COUNTS = (1, 2, 3, 7, 50, 64, 1000, 2**31 - 1)
MIN_VALUE_IDS = ("polygenelubricants", "GydZG_", "DESIGNING WORKHOUSES")


def _encode(s: str) -> str:
    data = s.encode("utf-16-be", "surrogatepass")
    return "".join(f"{int.from_bytes(data[i:i + 2], 'big'):04x}"
                   for i in range(0, len(data), 2)) or "."


def _ask_java(requests: list[str]) -> list[list[str]]:
    java = shutil.which("java")
    assert java, "Java 17 is required (Spark uses it too)"
    pyspark = pytest.importorskip("pyspark")
    jars = sorted((Path(pyspark.__file__).parent / "jars").glob("commons-codec-*.jar"))
    assert jars, "pyspark ships Commons Codec"
    done = subprocess.run([java, "-cp", str(jars[-1]), str(ORACLE)],
                          input="".join(r + "\n" for r in requests), capture_output=True,
                          text=True, timeout=300, check=True)
    lines = done.stdout.split("\n")[: len(requests)]
    assert len(lines) == len(requests)
    return [line.split() for line in lines]


def _ids(rnd: random.Random) -> list[str]:
    ids = list(MIN_VALUE_IDS)
    for i in range(300):
        style = i % 5
        if style == 0:
            ids.append(f"consumer-group-{i}")
        elif style == 1:
            ids.append(f"{uuid.UUID(int=rnd.getrandbits(128), version=4)}")
        elif style == 2:
            ids.append("".join(rnd.choice("aZ0-_.éßж中😀\uffff") for _ in range(rnd.randrange(1, 12))))
        else:
            ids.append("".join(chr(rnd.randrange(32, 127)) for _ in range(rnd.randrange(1, 40))))
    return ids


def _topic_id(rnd: random.Random) -> str:
    while True:
        text = uuid_to_string(rnd.getrandbits(128))
        if text != "AAAAAAAAAAAAAAAAAAAAAA":
            return text


def _cases() -> list[tuple[str, tuple[object, ...]]]:
    rnd = random.Random(2026)
    cases: list[tuple[str, tuple[object, ...]]] = []
    for i, key in enumerate(_ids(rnd)):
        cases.append(("hash", (key, COUNTS[i % len(COUNTS)])))
    extreme_ids = ["AAAAAAAAAAAAAAAAAAAAAQ", "_____________________w", "gAAAAAAAAAAAAAAAAAAAAA",
                   "f_____________________"[:21] + "w"]
    for i in range(200):
        topic_id = extreme_ids[i] if i < len(extreme_ids) else _topic_id(rnd)
        partition = rnd.choice([0, 1, 7, 99, 2**31 - 1, rnd.randrange(2**31)])
        n = COUNTS[i % len(COUNTS)]
        group = rnd.choice(_ids(random.Random(i))[:20] + ["g:with:colons"])
        cases.append(("share", (group, topic_id, partition, n)))
        cases.append(("rlmm", (topic_id, partition, n)))
    for a, b, c in [(0, 0, 0), (-1, -1, -1), (2**63 - 1, -(2**63), 2**31 - 1),
                    (-(2**63), 2**63 - 1, -(2**31)), *((rnd.getrandbits(64) - 2**63,
                                                        rnd.getrandbits(64) - 2**63,
                                                        rnd.getrandbits(32) - 2**31)
                                                       for _ in range(50))]:
        cases.append(("objects", (a, b, c)))
    return cases


CASES = _cases()


def _request(mode: str, args: tuple[object, ...]) -> str:
    if mode == "hash":
        return f"hash {_encode(str(args[0]))} {args[1]}"
    if mode == "share":
        return f"share {_encode(str(args[0]))} {args[1]} {args[2]} {args[3]}"
    return " ".join([mode, *map(str, args)])


@pytest.fixture(scope="module")
def java_answers() -> list[list[str]]:
    return _ask_java([_request(mode, args) for mode, args in CASES])


def test_the_cases_hold_min_value_and_other_negative_hash_codes():
    codes = [string_hash_code(str(args[0])) for mode, args in CASES if mode == "hash"]
    assert codes.count(-(2**31)) == len(MIN_VALUE_IDS)
    assert sum(1 for c in codes if -(2**31) < c < 0) > 50


@pytest.mark.parametrize("index", range(len(CASES)))
def test_kpart_matches_the_jvm(java_answers, index):
    mode, args = CASES[index]
    want = java_answers[index]
    if mode == "hash":
        key, n = str(args[0]), int(args[1])  # type: ignore[call-overload]
        assert [str(string_hash_code(key)), str(GroupKey(key).partition_for(n)),
                str(TransactionKey(key).partition_for(n))] == [*want, want[1]]
    elif mode == "share":
        group, topic_id, partition, n = args
        k = SharePartitionKey(group, topic_id, partition)  # type: ignore[arg-type]
        assert [_encode(k.coordinator_key), str(k.partition_for(n))] == want  # type: ignore[arg-type]
    elif mode == "rlmm":
        topic_id, partition, n = args
        k2 = RemoteLogMetadataKey(topic_id, partition)  # type: ignore[arg-type]
        assert str(k2.partition_for(n)) == want[1]  # type: ignore[arg-type]
    else:
        a, b, c = args
        assert [str(objects_hash(long_value(a), long_value(b), int_value(c)))] == want  # type: ignore[arg-type]
