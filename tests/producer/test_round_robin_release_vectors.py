"""Golden vectors of ``RoundRobinPartitioner`` per Kafka release
(``tests/golden/<version>/round_robin_partitioner.jsonl.gz``, made by ``tools/golden``'s
``RoundRobinDriver`` from each release's own class; see ``tests/golden/FORMAT.md``, section
"Per-release RoundRobinPartitioner vectors").

Every case is run on kpart's :class:`~kpart.producer.round_robin_partitioner.RoundRobinPartitioner`
with ``kafka_version=<release>``, driven as that release's producer drives it (the file's
``on_new_batch`` says whether the release's producer calls ``onNewBatch`` and ``partition()`` again
for a record needing a new batch), and compared exactly with the release's answers."""

from __future__ import annotations

import pytest

from golden_vectors import load_golden
from kpart.producer.cluster import Node, PartitionInfo, ProducerCluster
from kpart.producer.round_robin_partitioner import RoundRobinPartitioner

RELEASES = ("3.9.0", "3.9.1", "3.9.2", "4.0.0", "4.3")
CASES = 194


def _cluster(spec: dict[str, list[int | None]]) -> ProducerCluster:
    ids = sorted({b for leaders in spec.values() for b in leaders if b is not None})
    nodes = {b: Node(b, f"broker-{b}", 9092, None) for b in ids}
    topics = tuple(
        (t, tuple(PartitionInfo(t, i, None if b is None else nodes[b])
                  for i, b in enumerate(leaders)))
        for t, leaders in spec.items()
    )
    return ProducerCluster(tuple(nodes.values()), topics)


def _run(case: dict, version: str) -> list[int]:
    clusters = [_cluster(c) for c in case["clusters"]]
    p = RoundRobinPartitioner(kafka_version=version)
    got = []
    for topic, index, new_batch in case["sends"]:
        cluster = clusters[index]
        partition = p.partition(topic, None, None, None, None, cluster)
        if new_batch and case["on_new_batch"]:
            p.on_new_batch(topic, cluster, partition)
            partition = p.partition(topic, None, None, None, None, cluster)
        got.append(partition)
    return got


@pytest.mark.parametrize("version", RELEASES)
def test_release_file_is_complete(version: str) -> None:
    cases = load_golden(f"{version}/round_robin_partitioner")
    assert len(cases) == CASES
    assert {c["source"]["kafka_version"] for c in cases} == {version}
    assert [c["id"] for c in cases] == [c["id"] for c in load_golden("4.0.0/round_robin_partitioner")]
    # the releases whose producer still calls onNewBatch (KAFKA-18295 removed it in 4.0.0)
    assert {c["on_new_batch"] for c in cases} == {version.startswith("3.")}


def test_the_issue_example_back_to_back_on_4_partitions() -> None:
    by_id = {v: {c["id"]: c for c in load_golden(f"{v}/round_robin_partitioner")}
             for v in RELEASES}
    head = {v: by_id[v]["rr-003-all-new-batch-4p"]["expected"][:4] for v in RELEASES}
    assert head == {"3.9.0": [1, 3, 1, 3], "3.9.1": [1, 3, 1, 3], "3.9.2": [0, 1, 2, 3],
                    "4.0.0": [0, 1, 2, 3], "4.3": [0, 1, 2, 3]}


@pytest.mark.parametrize(
    "version,case",
    [
        pytest.param(v, c, id=f"{v}-{c['id']}")
        for v in RELEASES
        for c in load_golden(f"{v}/round_robin_partitioner")
    ],
)
def test_kpart_equals_the_release(version: str, case: dict) -> None:
    assert _run(case, version) == case["expected"]
