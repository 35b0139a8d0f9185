"""What the report's Spark job measures (:class:`Loads`) and the totals the report counts from it:
the null-key records placed by the producer's null-key rule on the partitions as they are led
(:func:`place_loads`), and the what-if scenarios counted the same way
(:func:`count_whatif_like_report`).

Units: ``records`` are counts; ``bytes`` = serialized key length + value length (the record as
a JSON object, ``kpart.analysis.summary.BYTES_DEFINITION``).

Records with a null key have no key to hash: the topic's ``null_key_strategy`` places them
(:class:`kpart.producer.null_keys.NullKeyRule`, a seeded model of the producer over their count
and bytes, led by the placement's leaders), and the totals *include* them, except under
``separate``. Records whose key is empty (``""``, ``b""``) *are* keyed: Kafka hashes the empty
key like any other.

The what-if (:func:`kpart.producer.whatif.partition_count_whatif` and its Spark version) places
only the records whose key decides the partition. So that "now" in the what-if is the report's
own skew figure, :func:`count_whatif_like_report` adds the records a client places at random
(empty keys under a random empty-key rule: a seeded draw per partition count) and the null-key
records (placed on the partitions led as ``AdminUtils`` places ``M`` partitions) to every
scenario and recomputes the skew with :func:`kpart._skew.skew_stats`, the function of the
report's ``skew`` section. ``best`` is then chosen among all scenarios, the current count
included. Per scenario, ``loads[i]["keyed_records"]``/``["keyed_bytes"]`` keep the records
placed by their key; ``records``/``bytes`` are the totals; ``moved_*`` fractions stay those of
the records with a key (a record without a key has no partition to keep).

>>> from kpart.topology import default_topology
>>> loads = Loads(partition_records=(1,) * 12, partition_bytes=(10,) * 12,
...               partition_keys=(1,) * 12, null_key_records=12, null_key_bytes=120, hot_keys=())
>>> placed = place_loads(resolve_topology(default_topology()), loads)
>>> sum(placed.records), sum(placed.bytes), placed.null_keys.strategy
(24, 240, 'builtin')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kpart._skew import skew_stats
from kpart.analysis.layout import Layout, ResolvedTopology, replica_assignment, resolve_topology
from kpart.errors import ConfigError
from kpart.producer.null_keys import NullKeyDistribution, apportion, random_partition_counts
from kpart.topology import Topology

__all__ = ["HotKey", "Loads", "PlacedLoads", "count_whatif_like_report", "place_loads"]


@dataclass(frozen=True, slots=True)
class HotKey:
    """One of the most frequent keys: ``key`` (str, int, or hex for bytes), ``records``,
    ``bytes`` and its ``partition``."""

    key: str | int
    records: int
    bytes: int
    partition: int


@dataclass(frozen=True, slots=True)
class Loads:
    """What the Spark job measures. ``partition_*[p]``: records, bytes and distinct keys of
    partition ``p``; ``null_key_*``: records without key (not hashed); ``hot_keys``: the top keys
    by records, most frequent first (ties: smallest key first)."""

    partition_records: tuple[int, ...]
    partition_bytes: tuple[int, ...]
    partition_keys: tuple[int, ...]
    null_key_records: int
    null_key_bytes: int
    hot_keys: tuple[HotKey, ...]
    #: records whose key is the empty string/bytes: hashed like any key (Kafka hashes b""),
    #: so they are in ``partition_*``; counted apart from ``null_key_records``
    empty_key_records: int = 0
    #: records whose key the serializer cannot represent, counted apart on request (in no
    #: partition and in no total)
    invalid_key_records: int = 0

    def __post_init__(self) -> None:
        n = len(self.partition_records)
        if n == 0 or len(self.partition_bytes) != n or len(self.partition_keys) != n:
            raise ConfigError("loads: partition_records, partition_bytes and partition_keys "
                              "must have the same non-zero length")


@dataclass(frozen=True, slots=True)
class PlacedLoads:
    """``loads`` with its null-key records placed (``null_keys``, by the resolved topology's
    null-key rule): ``records[p]``/``bytes[p]`` are the totals of partition ``p`` (keyed +
    placed null-key records; keyed only under ``separate``)."""

    loads: Loads
    null_keys: NullKeyDistribution
    records: tuple[int, ...]
    bytes: tuple[int, ...]


def place_loads(resolved: ResolvedTopology, loads: Loads) -> PlacedLoads:
    """Place ``loads``' null-key records by ``resolved.null_keys`` on the partitions led as in
    ``resolved.layout`` and add them to the measured keyed loads.

    Shapes: ``loads.partition_*`` and the result's ``records``/``bytes`` have one entry per
    partition of the topic (``resolved.topic.partitions``); units are records and bytes (see
    the module docstring). Errors: ``ConfigError`` when ``loads`` has another partition count
    than the topic.

    >>> from kpart.topology import default_topology
    >>> resolved = resolve_topology(default_topology())          # 12 partitions
    >>> loads = Loads(partition_records=(2,) * 12, partition_bytes=(20,) * 12,
    ...               partition_keys=(1,) * 12, null_key_records=6, null_key_bytes=60,
    ...               hot_keys=())
    >>> placed = place_loads(resolved, loads)
    >>> len(placed.records), sum(placed.records), sum(placed.bytes), sum(placed.null_keys.records)
    (12, 30, 300, 6)
    >>> place_loads(resolved, Loads((1,) * 6, (1,) * 6, (1,) * 6, 0, 0, ()))
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: loads: 6 partitions measured, topology has 12
    """
    n = resolved.topic.partitions
    if len(loads.partition_records) != n:
        raise ConfigError(
            f"loads: {len(loads.partition_records)} partitions measured, topology has {n}"
        )
    nulls = resolved.null_keys.place(loads.null_key_records, loads.null_key_bytes,
                                     resolved.layout.leaders)
    return PlacedLoads(
        loads, nulls,
        tuple(a + b for a, b in zip(loads.partition_records, nulls.records, strict=True)),
        tuple(a + b for a, b in zip(loads.partition_bytes, nulls.bytes, strict=True)),
    )


def count_whatif_like_report(section: dict[str, Any], topology: Topology | ResolvedTopology,
                             loads: Loads) -> dict[str, Any]:
    """``section`` (the ``"whatif"`` JSON of :meth:`~kpart.producer.whatif.WhatIfReport.
    to_json`, measured over the records *with* a key) with every scenario's records and bytes
    counted as :func:`~kpart.analysis.summary.build_summary` counts them (``loads``: the report's
    measured loads, for its null-key records and bytes; ``topology`` resolved once, or
    resolved here). Returns a new dict (``section`` is not changed).

    Shapes: ``section["scenarios"]`` and ``section["loads"]`` are parallel lists, one entry
    per partition count ``M``; ``loads[i]["records"]``/``["bytes"]`` hold ``M`` counts
    (``bytes`` may be ``None``). In the result, every scenario's ``records``/``bytes`` are the
    totals (keyed + records placed at random + null-key records), ``keyed_records`` /
    ``keyed_bytes`` the input's, and each scenario's ``max_over_mean``, ``cv`` and
    ``bytes_max_over_mean`` and the section's ``best`` are recomputed from the totals;
    ``null_key_records``, ``null_key_strategy`` and ``null_keys_included`` are added.

    Errors: ``KeyError`` when ``section`` lacks ``scenarios``/``loads`` (or a load its
    ``num_partitions``/``records``), ``ValueError`` when they differ in length or a load's
    ``records`` is not ``num_partitions`` long; those of :func:`resolve_topology` when
    ``topology`` is not resolved yet.

    >>> from kpart.producer.whatif import partition_count_whatif
    >>> from kpart.topology import default_topology
    >>> section = partition_count_whatif([f"k{i}" for i in range(24)], 12, [6]).to_json()
    >>> loads = Loads(partition_records=(1,) * 12, partition_bytes=(10,) * 12,
    ...               partition_keys=(1,) * 12, null_key_records=12, null_key_bytes=120,
    ...               hot_keys=())
    >>> out = count_whatif_like_report(section, default_topology(), loads)
    >>> [(s["num_partitions"], sum(ld["keyed_records"]), sum(ld["records"]))
    ...  for s, ld in zip(out["scenarios"], out["loads"])]
    [(12, 24, 36), (6, 24, 36)]
    >>> out["best"], out["null_key_records"], out["null_keys_included"]
    (6, 12, True)
    """
    resolved = resolve_topology(topology)
    rule = resolved.null_keys
    seed = rule.seed
    unkeyed = int(section.get("unkeyed_records") or 0)
    unkeyed_bytes = int(section.get("unkeyed_bytes") or 0)
    scenarios, new_loads = [], []
    for scenario, load in zip(section["scenarios"], section["loads"], strict=True):
        m = load["num_partitions"]
        recs = list(load["records"])
        byts = list(load["bytes"]) if load.get("bytes") is not None else None
        if unkeyed:  # as kpart.spark.key_loads.measure_loads draws them for the report
            drawn = random_partition_counts(unkeyed, m, seed)
            recs = [a + b for a, b in zip(recs, drawn, strict=True)]
            if byts is not None:
                byts = [a + b for a, b in zip(byts, apportion(unkeyed_bytes, drawn), strict=True)]
        leaders = (resolved.layout.leaders if m == resolved.topic.partitions
                   else Layout(replica_assignment(resolved.topology, m), ()).leaders)
        nulls = rule.place(loads.null_key_records, loads.null_key_bytes, leaders)
        recs = [a + b for a, b in zip(recs, nulls.records, strict=True)]
        if byts is not None:
            byts = [a + b for a, b in zip(byts, nulls.bytes, strict=True)]
        sk = skew_stats(recs)
        scenarios.append({**scenario, "max_over_mean": sk["max_over_mean"], "cv": sk["cv"],
                          "bytes_max_over_mean": None if byts is None
                          else skew_stats(byts)["max_over_mean"]})
        new_loads.append({**load, "records": recs, "bytes": byts,
                          "keyed_records": load["records"], "keyed_bytes": load.get("bytes")})
    best = min(scenarios, key=lambda s: (s["max_over_mean"], s["cv"], s["num_partitions"]))
    return {
        **section,
        "scenarios": scenarios,
        "loads": new_loads,
        "best": best["num_partitions"],
        "null_key_records": loads.null_key_records,
        "null_key_strategy": rule.strategy,
        "null_keys_included": rule.included,
    }
