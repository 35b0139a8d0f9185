"""KIP-932 share groups: kpart's ``SimpleAssignor`` port against Kafka's own builders, same run.

Shapes (issue 26's targets): 10,000 members x 1,000 partitions (10 topics of 100), every
partition initialized; homogeneous (everyone reads all 10 topics) and heterogeneous (each
member reads 5 of the 10, drawn per member); fresh (nobody holds anything) and after 1 % of the
members leave (every 100th member gone, the others holding their previous targets). Target:
<= 50 ms each, from a built ``ShareGroupSpec`` to a materialized Arrow table
(``assign_simple(spec).to_arrow()``, one row per member and partition).

kpart: median of ``--repeats`` runs (default 5), each on a freshly built spec (nothing
memoized), after one untimed run of the same shape (as the JVM below is warm: the first run
of a process also pays one-time imports and cached kernel loads); wall time. Kafka: ``SimpleHomogeneousAssignmentBuilder`` /
``SimpleHeterogeneousAssignmentBuilder`` of Kafka's branch 4.3, compiled from a Kafka git
checkout (``--kafka-git``, default the local mirror ``/work/.mirror/confluentinc+kafka/repo``)
together with their few API classes and a one-class stub of ``ApiException``, driven by
``benchmarks/BenchShareAssignor.java`` (no JMH: median of 10 runs in one JVM, the first runs
warm it; the builders only, no Arrow table). Without a checkout or a JDK the Kafka column says
so; Kafka has no published figure for these builders (its ``ShareGroupAssignorBenchmark`` JMH
class has no results in the PRs, KAFKA-19362 / KAFKA-19363).

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/bench_share_assignor.py [--repeats 5]
[--kafka-git DIR] [--no-kafka]``.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from _timing import median_of

from kpart.consumer.coordinator.server_spec import derived_topic_id
from kpart.consumer.share import ShareGroupSpec, assign_simple, simple_target

MEMBERS, PARTITIONS, TOPICS, PER_MEMBER = 10_000, 1_000, 10, 5
TARGET_MS = 50.0
_KAFKA_FILES = [
    "group-coordinator/group-coordinator-api/src/main/java/org/apache/kafka/coordinator/group/"
    f"api/assignor/{c}.java" for c in ("GroupAssignment", "GroupSpec", "MemberAssignment",
                                       "MemberSubscription", "PartitionAssignorException",
                                       "SubscribedTopicDescriber", "SubscriptionType")
] + [
    "clients/src/main/java/org/apache/kafka/common/Uuid.java",
    "server-common/src/main/java/org/apache/kafka/server/common/TopicIdPartition.java",
    "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/modern/"
    "MemberAssignmentImpl.java",
] + [
    f"group-coordinator/src/main/java/org/apache/kafka/coordinator/group/assignor/{c}.java"
    for c in ("AssignorHelpers", "SimpleHomogeneousAssignmentBuilder",
              "SimpleHeterogeneousAssignmentBuilder")
]
_STUB = """package org.apache.kafka.common.errors;
public class ApiException extends RuntimeException {
    public ApiException(String m) { super(m); }
    public ApiException(String m, Throwable c) { super(m, c); }
    public ApiException(Throwable c) { super(c); }
    public ApiException() { }
}
"""


def group_doc(heterogeneous: bool, prior: dict[str, list] | None = None,
              leave: bool = False) -> dict:
    topics = [{"name": f"topic-{t}", "id": derived_topic_id(f"topic-{t}"),
               "partitions": PARTITIONS // TOPICS} for t in range(TOPICS)]
    names = [t["name"] for t in topics]
    members = []
    for m in range(MEMBERS):
        if leave and m % 100 == 0:
            continue
        subs = sorted(random.Random(m).sample(names, PER_MEMBER)) if heterogeneous else names
        member: dict = {"id": f"consumer-{m}", "topics": subs}
        if prior is not None:
            member["assignment"] = prior.get(member["id"], [])
        members.append(member)
    return {"topics": topics, "members": members}


def _prior(doc: dict) -> dict[str, list]:
    spec = ShareGroupSpec.from_json(doc)
    target = simple_target(spec)
    return {m: [[spec.group.topic_name(t), ps] for t, ps in owned] for m, owned in target.items()}


def kafka_times(kafka_git: Path, heterogeneous: bool) -> str:
    """``"fresh_ms leave_ms"`` of Kafka's builders, or why there is none."""
    javac, java = shutil.which("javac"), shutil.which("java")
    if not (javac and java) or not ((kafka_git / "HEAD").exists()
                                    or (kafka_git / ".git").exists()):
        return "n/a (no Kafka checkout or no JDK)"
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        for path in _KAFKA_FILES:
            text = subprocess.run(["git", "-C", str(kafka_git), "show", f"4.3:{path}"],
                                  capture_output=True, text=True, check=True).stdout
            out = src / path.split("src/main/java/")[1]
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(text)
        stub = src / "org/apache/kafka/common/errors/ApiException.java"
        stub.parent.mkdir(parents=True, exist_ok=True)
        stub.write_text(_STUB)
        driver = Path(__file__).with_name("BenchShareAssignor.java")
        classes = Path(tmp) / "classes"
        subprocess.run([str(javac), "-d", str(classes), *map(str, src.rglob("*.java")),
                        str(driver)], check=True, capture_output=True)
        done = subprocess.run([str(java), "-cp", str(classes), "BenchShareAssignor",
                               str(MEMBERS), str(PARTITIONS), str(TOPICS),
                               str(PER_MEMBER if heterogeneous else 0), "10"],
                              capture_output=True, text=True, check=True)
        fresh, leave = done.stdout.split()
        return f"{float(fresh):.1f} / {float(leave):.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--kafka-git", type=Path,
                        default=Path("/work/.mirror/confluentinc+kafka/repo"))
    parser.add_argument("--no-kafka", action="store_true")
    args = parser.parse_args()
    print(f"share groups, {MEMBERS:,} members x {PARTITIONS:,} partitions ({TOPICS} topics); "
          f"target <= {TARGET_MS:.0f} ms to an Arrow table")
    print(f"{'shape':<16} {'kpart fresh ms':>15} {'kpart leave ms':>15}   Kafka 4.3 fresh / "
          "leave ms (builders, warm JVM)")
    for heterogeneous in (False, True):
        fresh_doc = group_doc(heterogeneous)
        leave_doc = group_doc(heterogeneous, _prior(fresh_doc), leave=True)
        times = []
        for doc in (fresh_doc, leave_doc):
            specs = [ShareGroupSpec.from_json(doc) for _ in range(args.repeats + 1)]
            assign_simple(specs.pop()).to_arrow()  # warm-up, not timed

            def one(specs: list = specs) -> object:
                return assign_simple(specs.pop()).to_arrow()

            times.append(median_of(args.repeats, one) * 1000)
        kafka = "skipped" if args.no_kafka else kafka_times(args.kafka_git, heterogeneous)
        name = "heterogeneous" if heterogeneous else "homogeneous"
        print(f"{name:<16} {times[0]:>15.0f} {times[1]:>15.0f}   {kafka}")


if __name__ == "__main__":
    main()
