"""KIP-848 ``uniform`` at Kafka 4.3 (and 4.0.0 beside it) on Kafka's JMH shapes, against Kafka's own score.

Kafka's benchmark: ``ServerSideAssignorBenchmark`` (``jmh-benchmarks/.../jmh/assignor``, branch
4.3; PRs #17133 and #17385), ``doAssignment`` = ``UniformAssignor.assign(groupSpec,
describer)`` on a ``GroupSpec`` built in ``@Setup``. The shapes held to a score (kpart issue 25):

- ``hom``: memberCount 10,000, partitionsToMemberRatio 10, topicCount 1,000 (100 partitions
  each, 100,000 in all), HOMOGENEOUS, isRackAware false, assignmentType FULL: Kafka's score
  4.309 ms/op (PR #17133's table, "10000 10 HOMOGENEOUS 1000 FULL UNIFORM false");
- ``het``: 10,000 × ratio 5 × 1,000 topics (50 partitions each), HETEROGENEOUS (5 buckets),
  FULL, no racks: 202.7 ms/op (PR #17385's "after" column).

Both are also run as assignmentType INCREMENTAL, for information (as Kafka's setup: 9,999
members keep their FULL targets and ``newMember`` joins, subscribed to every topic, or as
member 9,998 in the heterogeneous case). The groups are built by
``bench_server_assignors.build`` (names ``member<i>`` / ``topic-<i>``, ids derived from the
names, buckets as ``createHeterogeneousBucketedMembers``).

Two timings of kpart, each to a materialized result, an Arrow table
(``server_assign(spec, "uniform", kafka_version=V).to_arrow()``, one row per partition):

- ``strict``: from a freshly built ``ServerGroupSpec`` (nothing derived from it yet: member
  map order, subscription type, arrays all computed inside the timing);
- ``as JMH``: the spec prepared as Kafka's ``@Setup`` prepares its ``GroupSpec`` (the member
  ``HashMap`` built, so the member ids hashed; the subscription type known): here
  ``spec_arrays(spec).map_order()`` runs before the clock starts; the assignment (topic
  order, quotas, revocation, dealing out) and the table are timed.

Median and min over ``--repeats`` runs (wall time; the machine may be shared; a garbage
collection before each run, untimed, so that the spec's construction is not paid inside the
timing, while collections during the run are timed), the peak RSS of
this process, Kafka's published score with its source, and, with ``--java-cp CP``, Kafka 4.3's
own ``UniformAssignor`` timed on this machine by our JMH-free driver
``benchmarks/java/UniformJmhShapes.java`` (5 warm-up and 5 measured iterations of 1 s, as
JMH's ``AverageTime``; CP: the driver compiled against Kafka 4.3's sources, which are not part
of kpart). The golden vectors of both versions are replayed through the array path at the end.

Measured 2026-11-28 20:21 UTC on the shared 2-core machine (load about 2), ``--repeats 40
--no-incremental --java-cp CP``, one run per shape: hom FULL at 4.3, strict, median 4.82 ms
(min 4.36), as JMH 3.94 ms (min 3.48); Kafka 4.3's own ``UniformAssignor`` through the
driver in the same run: median 8.38 ms/op (min 6.84). het FULL at 4.3: strict 20.4 ms (min
20.2), as JMH 18.8 ms; Kafka's in the same run 195.6 ms/op. Peak RSS 210 MiB. Under load every
figure moves by tens of percent (Kafka's hom went to 35 ms/op at load 6). The homogeneous
path's steps run in numba kernels (``cache=True``), compiled once in about 5 s the first time
on a machine, loaded from numba's cache afterwards: the warm-up (untimed) prints which.

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/bench_uniform_jmh.py [--repeats 30]
[--only hom] [--no-incremental] [--java-cp CP]``
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import statistics
import subprocess
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from _timing import peak_rss_mb
from bench_server_assignors import GOLDEN, Shape, build

from kpart.consumer import server_assign
from kpart.consumer.coordinator import _spec_arrays
from kpart.consumer.coordinator.server_spec import ServerGroupSpec, ServerMember
from kpart.errors import KpartWarning

VERSIONS = ("4.3", "4.0.0")


@dataclass(frozen=True)
class JmhShape:
    """One ``ServerSideAssignorBenchmark`` parameter set (UNIFORM, isRackAware false)."""

    key: str
    shape: Shape
    kafka_ms: float | None
    source: str


HOM = Shape("hom-10000x10x1000", 10_000, 10, 1000, False, 4.309, 4.309, "")
HET = Shape("het-10000x5x1000", 10_000, 5, 1000, True, 202.7, 202.7, "")
SHAPES = (
    JmhShape("hom", HOM, 4.309, "apache/kafka PR #17133 (JMH avgt, FULL, no racks)"),
    JmhShape("het", HET, 202.7, "apache/kafka PR #17385, after the rework (JMH avgt, FULL, "
                                "no racks)"),
)


def incremental(shape: Shape) -> ServerGroupSpec:
    """``assignmentType = INCREMENTAL``: the FULL group of ``members - 1`` members, each
    owning its 4.3 target, and ``newMember`` joining (all topics; heterogeneous: member
    ``members - 2``'s topics), as Kafka's ``simulateIncrementalRebalance``."""
    base = build(Shape(shape.name, shape.members - 1, shape.ratio, shape.topics,
                       shape.heterogeneous, 0.0, None, ""))
    # the partitions per topic follow the full member count, as in Kafka's setup
    per_topic = shape.members * shape.ratio // shape.topics
    topics = tuple(type(t)(t.name, t.topic_id, per_topic) for t in base.topics)
    base = ServerGroupSpec(topics, base.members)
    previous = server_assign(base, "uniform", kafka_version="4.3").as_dict()
    members = [ServerMember(m.member_id, m.topics, assignment=tuple(
        (t, tuple(ps)) for t, ps in previous[m.member_id].items())) for m in base.members]
    new_topics = base.members[-1].topics if shape.heterogeneous else tuple(
        t.name for t in topics)
    members.append(ServerMember("newMember", new_topics))
    return ServerGroupSpec(topics, tuple(members))


def time_runs(make: Callable[[], ServerGroupSpec], version: str, repeats: int,
              as_jmh: bool) -> tuple[float, float, int]:
    """Median and min milliseconds of ``repeats`` runs, each on a fresh spec, to a
    materialized Arrow table; and the table's row count."""
    times, rows = [], 0
    for _ in range(repeats):
        spec = make()
        if as_jmh:  # what Kafka's @Setup holds ready: the member map (ids hashed)
            _spec_arrays.spec_arrays(spec).map_order()
        gc.collect()  # the garbage of building the spec is not the assignor's (not timed)
        start = time.perf_counter()
        table = server_assign(spec, "uniform", kafka_version=version).to_arrow()
        times.append((time.perf_counter() - start) * 1e3)
        rows = table.num_rows
    return statistics.median(times), min(times), rows


def java_score(java_cp: str, shape: Shape) -> str:
    """Kafka 4.3's ``UniformAssignor`` on this machine (our driver), or why not."""
    kind = "HETEROGENEOUS" if shape.heterogeneous else "HOMOGENEOUS"
    try:
        out = subprocess.run(["java", "-cp", java_cp, "UniformJmhShapes", str(shape.members),
                              str(shape.ratio), str(shape.topics), kind],
                             capture_output=True, text=True, timeout=600, check=True).stdout
        found = json.loads(out.strip().splitlines()[-1])
    except (OSError, subprocess.SubprocessError, ValueError, IndexError) as e:
        return f"not run ({type(e).__name__})"
    return (f"mean {found['mean_ms']:.3f} ms/op, median {found['median_ms']:.3f}, "
            f"min {found['min_ms']:.3f} (5 x 1 s after 5 x 1 s warm-up)")


def golden(name: str, version: str) -> tuple[int, int]:
    """Rounds of Kafka ``version``'s uniform vectors ``tests/golden/<name>.jsonl.gz`` that
    ``server_assign`` matches, and their count (their subscriptions to topics the metadata
    lacks are there on purpose: that warning is silenced)."""
    ok = total = 0
    with gzip.open(GOLDEN / f"{name}.jsonl.gz", "rt", encoding="utf-8") as fh, \
            warnings.catch_warnings():
        warnings.simplefilter("ignore", KpartWarning)
        for line in fh:
            case = json.loads(line)
            if case["kind"] == "single":
                rounds = [(case["input"]["topics"], case["input"]["members"], case["expected"])]
            else:
                steps = case["input"]["steps"]
                rounds = [(steps[r["step"]]["topics"], r["members"], r)
                          for r in case["expected"]["rounds"]]
            for topics, members, expected in rounds:
                spec = ServerGroupSpec.from_json({"topics": topics, "members": members})
                got = server_assign(spec, "uniform", kafka_version=version).as_dict()
                ok += got == expected["assignment"]
                total += 1
    return ok, total


def kernels() -> dict[str, Any]:
    """The numba kernels of the homogeneous path (imported here: numba is required)."""
    from kpart._java import _hash_kernels
    from kpart.consumer import _columns_kernels
    from kpart.consumer.coordinator import _uniform_homogeneous_kernels

    return {"String.hashCode": _hash_kernels._hash_codes,
            "rows": _columns_kernels._owner_rows,
            "deal": _uniform_homogeneous_kernels._deal}


def warm_up() -> None:
    """Import and run the array paths once on small groups (not timed), and say whether the
    numba kernels were compiled or loaded from numba's on-disk cache, and in how long."""
    saved = _spec_arrays.ARRAY_THRESHOLD
    _spec_arrays.ARRAY_THRESHOLD = 0
    start = time.perf_counter()
    try:
        for heterogeneous in (False, True):
            spec = build(Shape("warm-up", 100, 5, 10, heterogeneous, 0.0, None, ""))
            for version in VERSIONS:
                server_assign(spec, "uniform", kafka_version=version).to_arrow()
    finally:
        _spec_arrays.ARRAY_THRESHOLD = saved
    took = time.perf_counter() - start
    stats = {name: (sum(f.stats.cache_hits.values()), sum(f.stats.cache_misses.values()))
             for name, f in kernels().items()}
    compiled = [name for name, (_, misses) in stats.items() if misses]
    how = (f"compiled ({', '.join(compiled)}; numba cache was cold)" if compiled
           else "loaded from numba's cache")
    print(f"warm-up, not timed: numba kernels {how}, {took:.2f} s in all")


def report(jmh: JmhShape, args: argparse.Namespace) -> None:
    s = jmh.shape
    print(f"\n{jmh.key}: {s.members:,} members x ratio {s.ratio} x {s.topics:,} topics "
          f"({s.members * s.ratio // s.topics} partitions each), "
          f"{'HETEROGENEOUS' if s.heterogeneous else 'HOMOGENEOUS'}, no racks")
    print(f"  Kafka's JMH score (FULL): {jmh.kafka_ms} ms/op, {jmh.source}")
    if args.java_cp:
        print(f"  Kafka 4.3 UniformAssignor on this machine (FULL): {java_score(args.java_cp, s)}")
    kinds: list[tuple[str, Callable[[], ServerGroupSpec]]] = [("FULL", lambda: build(s))]
    if args.incremental:
        inc = incremental(s)  # built once; each run gets a fresh spec of the same values
        kinds.append(("INCREMENTAL", lambda: ServerGroupSpec(inc.topics, inc.members)))
    for kind, make in kinds:
        for version in VERSIONS:
            for as_jmh in (False, True):
                med, low, rows = time_runs(make, version, args.repeats, as_jmh)
                held = ""
                if kind == "FULL" and version == "4.3" and jmh.kafka_ms is not None:
                    held = (f"  <= {jmh.kafka_ms} ms: median "
                            f"{'met' if med <= jmh.kafka_ms else 'MISSED'}, min "
                            f"{'met' if low <= jmh.kafka_ms else 'MISSED'}")
                mode = "as JMH" if as_jmh else "strict"
                print(f"  {kind:<11} kafka_version {version:<5} {mode:<6}: median {med:8.2f} ms,"
                      f" min {low:8.2f} ms ({rows:,} rows){held}")
    print(f"  peak RSS of this process so far: {peak_rss_mb():.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30, help="runs per figure (default 30)")
    parser.add_argument("--only", choices=[j.key for j in SHAPES])
    parser.add_argument("--no-incremental", dest="incremental", action="store_false")
    parser.add_argument("--java-cp", help="class path of benchmarks/java/UniformJmhShapes "
                                          "compiled against Kafka 4.3 (see the docstring)")
    args = parser.parse_args()
    warm_up()
    for jmh in SHAPES:
        if args.only in (None, jmh.key):
            report(jmh, args)
    for name, version in (("uniform_assignor", "4.0.0"), ("4.3/uniform_assignor", "4.3")):
        saved = _spec_arrays.ARRAY_THRESHOLD
        _spec_arrays.ARRAY_THRESHOLD = 0
        try:
            ok, total = golden(name, version)
        finally:
            _spec_arrays.ARRAY_THRESHOLD = saved
        print(f"golden {name:<20} (Kafka {version}) through the array path: {ok}/{total}")


if __name__ == "__main__":
    main()
