"""Golden vectors of the default partitioners per Kafka release, from each release's own classes
(``tests/golden/2.3.1/default_partitioner``: the per-topic round robin;
``tests/golden/{2.4.1,2.8.2,3.9.0}/default_partitioner`` and ``uniform_sticky_partitioner``:
KIP-480's sticky cache), made by ``tools/golden``'s ``NullKeyDriver``; see ``tests/golden/FORMAT.md``, section
"Per-release default partitioner vectors".

Kafka draws from ``ThreadLocalRandom``; the driver installs each case's ``tlr_seed`` as the
thread's state, and :class:`kpart._java.thread_local_random.ThreadLocalRandom` replays JDK 17's generator from it (checked
against the driver's own ``tlr_check`` values), so kpart's partitioner, given that source and
``kafka_version=<release>``, must give exactly the release's partitions."""

from __future__ import annotations

import pytest

from golden_vectors import load_golden
from kpart._java.thread_local_random import ThreadLocalRandom
from kpart.producer.cluster import Node, PartitionInfo, ProducerCluster
from kpart.producer.default_partitioner import DefaultPartitioner
from kpart.producer.legacy_default_partitioner import LegacyDefaultPartitioner
from kpart.producer.uniform_sticky_partitioner import UniformStickyPartitioner

FILES = {
    ("2.3.1", "default_partitioner"): LegacyDefaultPartitioner,
    ("2.4.1", "default_partitioner"): DefaultPartitioner,
    ("2.4.1", "uniform_sticky_partitioner"): UniformStickyPartitioner,
    ("2.8.2", "default_partitioner"): DefaultPartitioner,
    ("2.8.2", "uniform_sticky_partitioner"): UniformStickyPartitioner,
    ("3.9.0", "default_partitioner"): DefaultPartitioner,
    ("3.9.0", "uniform_sticky_partitioner"): UniformStickyPartitioner,
}
CASES = 194
def test_the_emulation_gives_the_drivers_check_values() -> None:
    # NullKeyDriver's tlr_check line: seed 0, main thread (id 1), JDK 17.0.15
    r = ThreadLocalRandom(0, 1)
    assert [r.next_int() for _ in range(4)] == [-118004909, 1594776516, 1244138524, -2098499193]


def _cluster(spec: dict[str, list[int | None]]) -> ProducerCluster:
    ids = sorted({b for leaders in spec.values() for b in leaders if b is not None})
    nodes = {b: Node(b, f"broker-{b}", 9092, None) for b in ids}
    return ProducerCluster(tuple(nodes.values()), tuple(
        (t, tuple(PartitionInfo(t, i, None if b is None else nodes[b])
                  for i, b in enumerate(leaders)))
        for t, leaders in spec.items()))


@pytest.mark.parametrize(("version", "name"), FILES)
def test_release_file_is_complete(version: str, name: str) -> None:
    cases = load_golden(f"{version}/{name}")
    assert len(cases) == CASES
    assert {c["source"]["kafka_version"] for c in cases} == {version}
    assert {c["on_new_batch"] for c in cases} == {version != "2.3.1"}
    assert {(c["tlr"]["thread_id"], c["tlr"]["java_version"]) for c in cases} == {(1, "17.0.15")}


@pytest.mark.parametrize(
    "version,name,case",
    [pytest.param(v, n, c, id=f"{v}-{n}-{c['id']}")
     for (v, n) in FILES for c in load_golden(f"{v}/{n}")],
)
def test_kpart_equals_the_release(version: str, name: str, case: dict) -> None:
    clusters = [_cluster(c) for c in case["clusters"]]
    p = FILES[(version, name)](ThreadLocalRandom(case["tlr_seed"], case["tlr"]["thread_id"]),
                               kafka_version=version)
    got = []
    for topic, index, new_batch, key in case["sends"]:
        cluster, key_bytes = clusters[index], None if key is None else bytes.fromhex(key)
        partition = p.partition(topic, key_bytes, key_bytes, None, None, cluster)
        if new_batch and case["on_new_batch"]:
            p.on_new_batch(topic, cluster, partition)
            partition = p.partition(topic, key_bytes, key_bytes, None, None, cluster)
        got.append(partition)
    assert got == case["expected"]
