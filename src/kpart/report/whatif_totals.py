"""The report's what-if section counted the way the report counts its own loads.

:func:`kpart.producer.whatif.partition_count_whatif` (and its Spark version) places only the
records whose key decides the partition. The report's totals (:func:`kpart.report.summary.
build_summary`) also hold the records a client places at random (empty keys under a random
empty-key rule: a seeded draw per partition count) and the null-key records, placed by the
topic's ``null_key_strategy`` on the partitions led as the placement leads them. So that "now"
in the what-if is the report's own skew figure, :func:`count_whatif_like_report` adds both to
every scenario (for ``M`` partitions, with the same seeds and the placement of ``M``
partitions) and recomputes the skew with :func:`~kpart.report.summary.skew_stats` — the
function of the report's ``skew`` section. ``best`` is then chosen among all scenarios, the
current count included.

Per scenario, ``loads[i]["keyed_records"]``/``["keyed_bytes"]`` keep the records placed by
their key; ``records``/``bytes`` are the totals; ``moved_*`` fractions stay those of the
records with a key (a record without a key has no partition to keep).
"""

from __future__ import annotations

from typing import Any

from kpart.producer.null_keys import apportion, distribute_null_keys, random_partition_counts
from kpart.report.summary import Loads, skew_stats
from kpart.topology import Topology

__all__ = ["count_whatif_like_report", "null_keys_note"]


def _leaders(topology: Topology, m: int) -> list[int]:
    from kpart.placement.admin_utils import assign_replicas_to_brokers

    t = topology.topic
    replicas = assign_replicas_to_brokers(topology.brokers, m, t.replication_factor,
                                          seed=t.placement_seed, rack_aware=t.rack_aware)
    return [replicas[p][0] for p in range(m)]


def count_whatif_like_report(section: dict[str, Any], topology: Topology,
                             loads: Loads) -> dict[str, Any]:
    """``section`` (the ``"whatif"`` JSON of :meth:`~kpart.producer.whatif.WhatIfReport.
    to_json`, measured over the records *with* a key) with every scenario's records and bytes
    counted as :func:`~kpart.report.summary.build_summary` counts them (``loads``: the report's
    measured loads, for its null-key records and bytes). Returns a new dict."""
    t = topology.topic
    seed = t.effective_null_key_seed
    unkeyed = int(section.get("unkeyed_records") or 0)
    unkeyed_bytes = int(section.get("unkeyed_bytes") or 0)
    scenarios, new_loads = [], []
    strategy = None
    for scenario, load in zip(section["scenarios"], section["loads"], strict=True):
        m = load["num_partitions"]
        recs = list(load["records"])
        byts = list(load["bytes"]) if load.get("bytes") is not None else None
        if unkeyed:  # as kpart.spark.pipeline.measure_loads draws them for the report
            drawn = random_partition_counts(unkeyed, m, seed)
            recs = [a + b for a, b in zip(recs, drawn, strict=True)]
            if byts is not None:
                byts = [a + b for a, b in zip(byts, apportion(unkeyed_bytes, drawn), strict=True)]
        nulls = distribute_null_keys(
            loads.null_key_records, loads.null_key_bytes, m, strategy=t.null_key_strategy,
            partitioner=t.partitioner, leaders=_leaders(topology, m),
            batch_size=t.batch_size, seed=seed)
        strategy = nulls.strategy
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
        "null_key_strategy": strategy,
        "null_keys_included": strategy != "separate",
    }


def null_keys_note(section: dict[str, Any]) -> str:
    """One sentence saying how the what-if ``section`` counts records without a key."""
    if "null_key_records" not in section:
        return ("Records whose key does not decide their partition (no key, or a key the "
                "client places at random) are left out of these figures.")
    if not section["null_key_records"]:
        return ("Skew figures count every record as the report does (there are no records "
                "without a key); moved shares are of records with a key.")
    if not section.get("null_keys_included"):
        return ("Records without a key are left out of these figures, as of the report's "
                "totals (null-key strategy 'separate').")
    return (f"Skew figures count every record as the report does: records without a key "
            f"({section['null_key_records']:,}) are placed by the "
            f"{section['null_key_strategy']} null-key model for each partition count, so the "
            f"current count's figure is the report's own; moved shares are of records with a "
            f"key.")
