"""``kpart._java.priority_queue.JavaPriorityQueue`` against ``java.util.PriorityQueue`` (Java 17,
``tests/java/PriorityQueueOracle.java``, one JVM for all requests): random interleavings of
``add`` and ``poll`` with many equal keys (the Streams assignor's process loads and member task
counts tie all the time), including re-adding a polled element with a new key."""

from __future__ import annotations

import heapq
import random
import shutil
import subprocess
from pathlib import Path

from kpart._java.priority_queue import JavaPriorityQueue

ORACLE = Path(__file__).parent / "java" / "PriorityQueueOracle.java"


def _requests() -> list[list[tuple[str, float]]]:
    rng = random.Random(20261128)
    out = []
    for _ in range(300):
        ops: list[tuple[str, float]] = []
        size = 0
        for _ in range(rng.randint(1, 80)):
            if size and rng.random() < 0.4:
                ops.append(("p", 0.0))
                size -= 1
            else:
                ops.append(("a", rng.choice([0.0, 0.5, 1.0, 1.5, 2.0, 1 / 3, 2 / 3])))
                size += 1
        ops.extend(("p", 0.0) for _ in range(size))
        out.append(ops)
    return out


def _python(ops: list[tuple[str, float]]) -> list[int]:
    q: JavaPriorityQueue[tuple[int, float]] = JavaPriorityQueue(key=lambda e: e[1])
    polled, n = [], 0
    for op, key in ops:
        if op == "p":
            e = q.poll()
            polled.append(-1 if e is None else e[0])
        else:
            q.add((n, key))
            n += 1
    return polled


def test_poll_order_matches_the_jvm() -> None:
    java = shutil.which("java")
    assert java, "Java 17 is required (Spark uses it too)"
    requests = _requests()
    lines = [" ".join("p" if op == "p" else f"a:{key!r}" for op, key in ops)
             for ops in requests]
    done = subprocess.run([java, str(ORACLE)], input="".join(x + "\n" for x in lines),
                          capture_output=True, text=True, timeout=300, check=True)
    replies = done.stdout.split("\n")[: len(requests)]
    for ops, reply in zip(requests, replies, strict=True):
        expected = [] if reply == "." else [int(t) for t in reply.split()]
        assert _python(ops) == expected
    # the keys tie: a stable queue (equal keys first-in, first-out) would differ somewhere
    assert any(_python(ops) != _stable(ops) for ops in requests)


def _stable(ops: list[tuple[str, float]]) -> list[int]:
    heap: list[tuple[float, int]] = []
    polled, n = [], 0
    for op, key in ops:
        if op == "p":
            polled.append(heapq.heappop(heap)[1] if heap else -1)
        else:
            heapq.heappush(heap, (key, n))
            n += 1
    return polled
