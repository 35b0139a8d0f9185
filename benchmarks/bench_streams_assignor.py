"""Streams groups (KIP-1071): kpart's ``StickyTaskAssignor`` against Kafka's own, same shape,
same run.

Shape (issue 26's target): 1,000 members in 250 processes (4 threads each) × 10,000 tasks, all
stateful, 1 standby replica: 100 subtopologies ``s000``..``s099`` of 100 tasks each (Kafka's
``StreamsStickyAssignorBenchmark`` shape memberCount=1000, subtopologyCount=100,
partitionCount=100, standbyReplicas=1, with 4 members per process). Members
``app-<p>-StreamThread-<t>``, processes ``proc-<pppp>``. Two assignments: ``fresh`` (nobody
owns anything) and ``incremental`` (every member owns its fresh target and one member,
``newMember`` in its own process, joins; Kafka's ``INCREMENTAL`` type).

kpart: median of 5 runs, each from a built :class:`~kpart.consumer.streams.StreamsGroupSpec` to
a materialized ``StreamsGroupAssignment`` (tuples of every member's tasks); target ≤ 200 ms.
Kafka: with ``--kafka-src DIR`` (a checkout of Kafka, branch 4.3, or any directory holding
``group-coordinator/src/main/java/org/apache/kafka/coordinator/group/streams/assignor``) the
script compiles those 11 classes with a stub ``ApiException`` and the slf4j API jar that
pyspark ships, and runs ``benchmarks/java/StreamsAssignorDriver.java`` on the same shape
(20 warm-up runs, median of 9, in one JVM). Both sides print an MD5 of the sorted result, which
must be equal: the benchmark doubles as an exactness check at this scale.

Run: ``python benchmarks/bench_streams_assignor.py [--kafka-src DIR]``.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _timing import median_of

from kpart.consumer.streams import StreamsGroupAssignment, StreamsGroupSpec, assign

SUBTOPOLOGIES, TASKS, PROCESSES, PER_PROCESS, STANDBYS = 100, 100, 250, 4, 1
_ASSIGNOR = "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/streams/assignor"
_STUB = """package org.apache.kafka.common.errors;
public class ApiException extends RuntimeException {
    public ApiException(String m) { super(m); }
    public ApiException(String m, Throwable c) { super(m, c); }
}
"""


def _subtopologies() -> list[dict]:
    return [{"id": f"s{i:03d}", "tasks": TASKS, "stateful": True} for i in range(SUBTOPOLOGIES)]


def fresh_spec() -> StreamsGroupSpec:
    members = [{"id": f"app-{p}-StreamThread-{t}", "process_id": f"proc-{p:04d}"}
               for p in range(PROCESSES) for t in range(PER_PROCESS)]
    return StreamsGroupSpec.from_json({"subtopologies": _subtopologies(),
                                       "num_standby_replicas": STANDBYS, "members": members})


def incremental_spec(first: StreamsGroupAssignment, fresh: StreamsGroupSpec) -> StreamsGroupSpec:
    process = {m.member_id: m.process_id for m in fresh.members}
    members = [{"id": mid, "process_id": process[mid],
                "active": {s: list(ps) for s, ps in a.active},
                "standby": {s: list(ps) for s, ps in a.standby}} for mid, a in first.members]
    members.append({"id": "newMember", "process_id": "process-newMember"})
    return StreamsGroupSpec.from_json({"subtopologies": _subtopologies(),
                                       "num_standby_replicas": STANDBYS, "members": members})


def digest(result: StreamsGroupAssignment) -> str:
    """MD5 of the result as the Java driver writes it (members sorted, TreeSet texts)."""
    def text(tasks: tuple) -> str:
        return "".join(f"{s}:[{', '.join(map(str, ps))}];" for s, ps in sorted(tasks) if ps)
    lines = "".join(f"{m}|{text(a.active)}|{text(a.standby)}\n"
                    for m, a in sorted(result.members))
    return hashlib.md5(lines.encode()).hexdigest()


def run_kafka(src: Path) -> dict[str, tuple[float, str]]:
    java, javac = shutil.which("java"), shutil.which("javac")
    jars = glob.glob(os.path.join(os.path.dirname(__import__("pyspark").__file__), "jars",
                                  "slf4j-api-*.jar"))
    if not (java and javac and jars and (src / _ASSIGNOR).is_dir()):
        sys.exit("--kafka-src: needs java, javac, pyspark's slf4j-api jar and " + _ASSIGNOR)
    driver = Path(__file__).parent / "java" / "StreamsAssignorDriver.java"
    with tempfile.TemporaryDirectory() as tmp:
        stub = Path(tmp) / "ApiException.java"
        stub.write_text(_STUB)
        sources = [str(p) for p in sorted((src / _ASSIGNOR).glob("*.java"))
                   if p.name != "MockAssignor.java"]
        subprocess.run([javac, "-nowarn", "-d", f"{tmp}/classes", "-cp", jars[0], *sources,
                        str(stub), str(driver)], check=True, capture_output=True)
        done = subprocess.run(
            [java, "-cp", f"{tmp}/classes{os.pathsep}{jars[0]}", "StreamsAssignorDriver",
             *map(str, (SUBTOPOLOGIES, TASKS, PROCESSES, PER_PROCESS, STANDBYS, 9))],
            check=True, capture_output=True, text=True)
    out = {}
    for line in done.stdout.splitlines():
        name, ms, md5 = line.split()
        out[name] = (float(ms) / 1000, md5)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kafka-src", type=Path, help="Kafka sources (branch 4.3) to time too")
    args = ap.parse_args()
    fresh = fresh_spec()
    first = assign(fresh)
    incr = incremental_spec(first, fresh)
    ours = {}
    for name, spec in (("fresh", fresh), ("incremental", incr)):
        cpu0 = time.process_time()
        secs = median_of(5, lambda spec=spec: assign(spec))
        cpu = (time.process_time() - cpu0) / 5
        ours[name] = (secs, digest(assign(spec)), cpu)
    kafka = run_kafka(args.kafka_src) if args.kafka_src else {}
    print(f"Streams sticky assignor: {PROCESSES * PER_PROCESS:,} members in {PROCESSES} "
          f"processes x {SUBTOPOLOGIES * TASKS:,} tasks, {STANDBYS} standby")
    for name, (secs, md5, cpu) in ours.items():
        line = (f"  {name:<12} kpart {secs * 1000:7.1f} ms (cpu {cpu * 1000:.1f} ms, target "
                f"200 ms)")
        if name in kafka:
            ks, kmd5 = kafka[name]
            same = "same result" if kmd5 == md5 else f"RESULTS DIFFER ({md5} vs {kmd5})"
            line += f"   Kafka 4.3 {ks * 1000:7.1f} ms   kpart/Kafka {secs / ks:.2f}x   {same}"
        print(line)


if __name__ == "__main__":
    main()
