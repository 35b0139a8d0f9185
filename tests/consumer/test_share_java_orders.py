"""The Java behaviour the share-group assignor's iteration orders rest on, against Java 17
itself (``tests/java/ShareOrderOracle.java``, one process for all requests):

- ``TopicIdPartition.hashCode()``: the record ``hashCode`` OpenJDK generates for
  ``record TopicIdPartition(Uuid topicId, int partitionId)`` with Kafka's ``Uuid.hashCode``,
  over random and extreme ids (``kpart._java.topic_id_partition``);
- ``HashMap`` iteration order under the operations ``SimpleAssignor`` uses (``put``,
  ``computeIfAbsent``, ``remove``), for ``TopicIdPartition`` keys and for ``Integer`` keys
  (member and partition indices beyond the presized table), with the capacities
  ``AssignorHelpers.newHashMap`` gives (:class:`kpart._java.collections.JavaHashMap`).
"""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

from kpart._java.collections import JavaHashMap
from kpart._java.ints import to_int64
from kpart._java.topic_id_partition import assignor_helpers_capacity, topic_id_partition_hash

ORACLE = Path(__file__).parents[1] / "java" / "ShareOrderOracle.java"
_M64 = (1 << 64) - 1


def _ask_java(requests: list[str]) -> list[list[str]]:
    java = shutil.which("java")
    assert java, "Java 17 is required (Spark uses it too)"
    done = subprocess.run([java, str(ORACLE)], input="".join(r + "\n" for r in requests),
                          capture_output=True, text=True, timeout=300, check=True)
    lines = done.stdout.split("\n")[: len(requests)]
    assert len(lines) == len(requests)
    return [line.split() for line in lines]


def _halves(uuid: int) -> tuple[int, int]:
    return to_int64(uuid >> 64), to_int64(uuid & _M64)


def _uuids(rnd: random.Random, n: int) -> list[int]:
    extreme = [0, 1, (1 << 128) - 1, 1 << 127, (1 << 64) - 1, 1 << 63, 0x7FFFFFFF << 64]
    return [*extreme, *(rnd.getrandbits(128) for _ in range(n))]


def test_topic_id_partition_hash_code_is_the_jvm_record_hash() -> None:
    rnd = random.Random(932)
    keys = [(u, p) for u in _uuids(rnd, 200)
            for p in (0, 1, 31, rnd.randrange(1 << 20), 0x7FFFFFFF)]
    request = "hash " + " ".join(f"{_halves(u)[0]} {_halves(u)[1]} {p}" for u, p in keys)
    (reply,) = _ask_java([request])
    assert [int(h) for h in reply] == [topic_id_partition_hash(k) for k in keys]


def _script(rnd: random.Random, keys: list, n_ops: int) -> list[tuple[str, object]]:
    return [(rnd.choice("++cc-"), rnd.choice(keys)) for _ in range(n_ops)]


def test_hashmap_orders_of_topic_id_partitions_and_integers_match_the_jvm() -> None:
    rnd = random.Random(19362)
    requests: list[str] = []
    expected: list[list[str]] = []
    for case in range(120):
        n = rnd.choice([1, 2, 5, 12, 40, 150])
        cap = rnd.choice([-1, 0, assignor_helpers_capacity(n), assignor_helpers_capacity(n // 3)])
        if case % 2:
            topics = _uuids(rnd, 4)[-rnd.randrange(1, 5):]
            keys: list = [(t, p) for t in topics for p in range(rnd.randrange(1, 60))]
            ops = _script(rnd, keys, rnd.randrange(1, 4 * n + 2))
            m: JavaHashMap = JavaHashMap(16 if cap < 0 else cap, hash_of=topic_id_partition_hash)
            words = [f"tip {cap}"]
            for op, (t, p) in ops:
                words.append(f"{op} {_halves(t)[0]} {_halves(t)[1]} {p}")
        else:
            keys = [rnd.randrange(0, rnd.choice([8, 64, 1000])) for _ in range(n)]
            ops = _script(rnd, keys, rnd.randrange(1, 4 * n + 2))
            m = JavaHashMap(16 if cap < 0 else cap)
            words = [f"int {cap}"] + [f"{op} {k}" for op, k in ops]
        for op, k in ops:
            if op == "+":
                m.put(k, 1)
            elif op == "c":
                m.compute_if_absent(k, lambda: 1)
            else:
                m.remove(k)
        requests.append(" ".join(words))
        expected.append([f"{_halves(k[0])[0]}:{_halves(k[0])[1]}:{k[1]}" if isinstance(k, tuple)
                         else str(k) for k, _ in m.items()])
    assert _ask_java(requests) == expected
