"""The cluster report's summary: many topics sharing brokers, their load over time.

Pure Python, no Spark (docs/report-cluster.md). The Spark job hands over one
:class:`~kpart.analysis.cluster_loads.TopicMeasure` per topic (loads per partition, per-window loads,
the partition count the topic needs); the resolved topology
(:class:`kpart.analysis.layout.ResolvedCluster`: replicas placed topic after topic, current leaders,
each group assigned over all its topics) lays them out. :func:`build_cluster_summary` gives
the ``summary.json`` document of ``"kind": "cluster"``: per topic its partitions, hot keys,
skew and partition count; per broker and rack the loads summed over topics with Cruise
Control's load model (:func:`kpart.cluster.load.broker_load` on
:func:`~kpart.analysis.cluster_model.report_cluster_model`, the model ``cluster.json`` holds);
per group member the load of its partitions across its group's topics; the peak, p99 and mean
rates of every partition, broker and member; the heat map; and the ``cluster`` section the
page shares with ``plan.html`` (broker rows as :func:`kpart.cluster.plan_summary.plan_summary`
builds them, :func:`kpart.cluster.plan_summary.broker_rows`, the ranked broker- and
rack-failure what-ifs of ``kpart outage --all``).

Units: records are counts, bytes as :data:`kpart.analysis.summary.BYTES_DEFINITION`, rates per
second, times ISO 8601 UTC. Null-key records are placed per topic as the single-topic report
places them (:func:`kpart.analysis.loads.place_loads`) and, window by window, in proportion to that
placement (:func:`kpart.analysis.cluster_model.null_windows`). A topic without timestamps has
``null`` rates; brokers and members sum the topics that have windows (``null`` when none
has). A partition's mean is over its topic's span, a broker's or member's peak, p99 and mean
over the common grid of all the topics' windows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from kpart._skew import skew_stats
from kpart.analysis.cluster_model import (
    PlacedCluster,
    PlacedTopic,
    ResolvedClusterLike,
    cluster_model_of,
    placed_cluster,
    report_cluster_model,
)
from kpart.analysis.cluster_windows import (
    broker_bytes_in,
    broker_network_in,
    broker_records,
    heatmap,
    member_records,
    rate_stats,
    windows_table,
)
from kpart.analysis.share_stream_loads import share_streams_sections
from kpart.analysis.summary import BYTES_DEFINITION, hot_key_rows

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa

    from kpart.analysis.cluster_loads import TopicMeasure
    from kpart.cluster.load import BrokerLoad
    from kpart.cluster.model import Capacity, ClusterModel

__all__ = ["build_cluster_summary", "cluster_windows_table", "placed_cluster",
           "report_cluster_model"]

KIND = "cluster"


def _num(x: float | np.floating[Any]) -> float:
    return float(x)


def _stats(counts: np.ndarray | None, window_s: float | None, n: int) -> list[tuple[
        float | None, float | None, float | None]]:
    """Per row ``(peak, p99, mean)`` rates, ``None`` without windows."""
    if counts is None or window_s is None or not counts.shape[1]:
        return [(None, None, None)] * n
    peak, p99, mean = rate_stats(counts, window_s)
    return [(_num(a), _num(b), _num(c)) for a, b, c in zip(peak, p99, mean, strict=True)]


def _owners(resolved: ResolvedClusterLike) -> dict[str, dict[tuple[str, int], str]]:
    return {name: {(t, p): m for m, owned in ga.assignment for t, ps in owned for p in ps}
            for name, ga in resolved.assignments}


def _partition_rows(t: PlacedTopic, window_s: float | None,
                    consumers: dict[str, dict[tuple[str, int], str]]) -> list[dict[str, Any]]:
    n = len(t.records)
    mean_b, mean_r = t.rates()
    bytes_stats = _stats(t.window_bytes, window_s, n)
    record_stats = _stats(t.window_records, window_s, n)
    nulls = t.placed.null_keys.records
    return [{
        "partition": p,
        "records": int(t.records[p]),
        "bytes": int(t.bytes[p]),
        "keys": t.placed.loads.partition_keys[p],
        "leader": t.leaders[p] if t.leaders[p] >= 0 else None,
        "replicas": list(t.replicas[p]),
        "null_key_records": nulls[p],
        "bytes_in_per_s": None if np.isnan(mean_b[p]) else _num(mean_b[p]),
        "peak_bytes_in_per_s": bytes_stats[p][0],
        "p99_bytes_in_per_s": bytes_stats[p][1],
        "records_per_s": None if np.isnan(mean_r[p]) else _num(mean_r[p]),
        "peak_records_per_s": record_stats[p][0],
        "p99_records_per_s": record_stats[p][1],
        "consumers": {g: owner.get((t.name, p)) for g, owner in consumers.items()},
    } for p in range(n)]


def _topic_row(t: PlacedTopic, window_s: float | None, source: Mapping[str, Any],
               consumers: dict[str, dict[tuple[str, int], str]]) -> dict[str, Any]:
    rt, loads = t.resolved, t.placed.loads
    cfg = rt.topic
    keyed = sum(loads.partition_records)
    count = t.measure.partition_count
    return {
        "topic": t.name,
        "records": int(t.records.sum()) + (0 if t.placed.null_keys.included
                                           else loads.null_key_records),
        "bytes": int(t.bytes.sum()) + (0 if t.placed.null_keys.included
                                       else loads.null_key_bytes),
        "num_partitions": len(t.records),
        "replication_factor": cfg.replication_factor,
        "key": cfg.key,
        "key_serializer": rt.serializer,
        "partitioner": rt.key_partitioner,
        "null_key_strategy": cfg.null_key_strategy,
        "input": {"path": source.get("path") or source.get("dataset"),
                  "format": source.get("format")},
        "timestamp": getattr(cfg, "timestamp", None),
        "null_key_records": loads.null_key_records,
        "null_keys_included": t.placed.null_keys.included,
        "distinct_keys": sum(loads.partition_keys),
        "span_s": t.span_s,
        "partitions": _partition_rows(t, window_s if t.windows else None, consumers),
        "hot_keys": hot_key_rows(loads.hot_keys, keyed),
        "skew": {"partition_records": skew_stats(t.records),
                 "partition_bytes": skew_stats(t.bytes)},
        "partition_count": None if count is None else count.to_json(),
    }


def _sum_rows(model: ClusterModel, values: np.ndarray, *, leaders: bool) -> np.ndarray:
    """int64 ``(B,)``: ``values`` (int64 per model row) summed per broker over the partitions
    it leads (``leaders``) or holds."""
    out = np.zeros(len(model.brokers), dtype=np.int64)
    if leaders:
        pos = model.broker_positions(model.leader)
        ok = pos >= 0
        np.add.at(out, pos[ok], values[ok])
    else:
        pos = model.broker_positions(model.replicas)
        rows = np.broadcast_to(np.arange(len(values))[:, None], pos.shape)
        np.add.at(out, pos[pos >= 0], values[rows[pos >= 0]])
    return out


def _rates(model: ClusterModel, load: BrokerLoad) -> dict[str, np.ndarray] | None:
    """The Cruise Control load split into its parts, per broker; ``None`` when no rate is
    known. Leader-only (``replicas`` = the leader): produce bytes-in and consumer bytes-out;
    the rest of the full load is replication."""
    from kpart.cluster.load import broker_load

    if np.isnan(model.bytes_in_per_s).all():
        return None
    own = broker_load(model, replicas=model.leader[:, None], leader=model.leader)
    return {
        "produce_bytes_in_per_s": own.network_in,
        "replication_bytes_in_per_s": np.maximum(load.network_in - own.network_in, 0.0),
        "consumer_bytes_out_per_s": own.network_out,
        "replication_bytes_out_per_s": np.maximum(load.network_out - own.network_out, 0.0),
        "nw_in_bytes_per_s": load.network_in,
        "nw_out_bytes_per_s": load.network_out,
    }


def _capacity(c: Capacity | None) -> dict[str, float | None] | None:
    return None if c is None else {"disk_bytes": c.disk_bytes, "nw_in_bytes_per_s": c.network_in,
                                   "nw_out_bytes_per_s": c.network_out}


def _broker_rows(placed: PlacedCluster, model: ClusterModel,
                 load: BrokerLoad) -> list[dict[str, Any]]:
    records = np.concatenate([t.records for t in placed.topics])
    byts = np.concatenate([t.bytes for t in placed.topics])
    sums = {f"{who}_{what}": _sum_rows(model, v, leaders=who == "leader")
            for who in ("leader", "replica") for what, v in (("records", records),
                                                              ("bytes", byts))}
    rates = _rates(model, load)
    ids = [b.id for b in model.brokers]
    window_s = None if placed.window_ms is None else placed.window_ms / 1000
    timed = bool(window_s)
    stats = _stats(broker_bytes_in(placed, ids) if timed else None, window_s, len(ids))
    nw_in = _stats(broker_network_in(placed, ids) if timed else None, window_s, len(ids))
    recs = _stats(broker_records(placed, ids) if timed else None, window_s, len(ids))
    rows = []
    for i, b in enumerate(model.brokers):
        row: dict[str, Any] = {"broker": b.id, "rack": b.rack, "leaders": int(load.leaders[i]),
                               "replicas": int(load.replicas[i])}
        row.update({k: int(v[i]) for k, v in sums.items()})
        row["disk_bytes"] = _num(load.disk_bytes[i])
        for key in ("produce_bytes_in_per_s", "replication_bytes_in_per_s",
                    "consumer_bytes_out_per_s", "replication_bytes_out_per_s",
                    "nw_in_bytes_per_s", "nw_out_bytes_per_s"):
            row[key] = None if rates is None else _num(rates[key][i])
        row["peak_bytes_in_per_s"], row["p99_bytes_in_per_s"], row["mean_bytes_in_per_s"] = (
            stats[i])
        row["peak_nw_in_bytes_per_s"], row["p99_nw_in_bytes_per_s"] = nw_in[i][:2]
        row["peak_records_per_s"], row["p99_records_per_s"], row["mean_records_per_s"] = (
            recs[i])
        row["capacity"] = _capacity(b.capacity)
        rows.append(row)
    return rows


def _rack_rows(racks: Sequence[str], brokers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    for rack in racks:
        mine = [b for b in brokers if b["rack"] == rack]
        row: dict[str, Any] = {"rack": rack, "brokers": [b["broker"] for b in mine]}
        for k in ("leader_records", "leader_bytes", "replica_records", "replica_bytes"):
            row[k] = sum(b[k] for b in mine)
        for k in ("nw_in_bytes_per_s", "nw_out_bytes_per_s"):
            known = [b[k] for b in mine if b[k] is not None]
            row[k] = _num(sum(known)) if known else None
        rows.append(row)
    return rows


def _group_rows(placed: PlacedCluster) -> list[dict[str, Any]]:
    resolved = placed.resolved
    topo = resolved.topology
    totals = {(t.name, p): (int(t.records[p]), int(t.bytes[p]))
              for t in placed.topics for p in range(len(t.records))}
    order = {t.name: i for i, t in enumerate(placed.topics)}
    window_s = None if placed.window_ms is None else placed.window_ms / 1000
    rows = []
    for (name, ga), cfg in zip(resolved.assignments, topo.groups, strict=True):
        topics = topo.group_topics(cfg)
        ids = [m.id for m in cfg.members]
        index = {m: k for k, m in enumerate(ids)}
        owners = {tp: index[m] for m, owned in ga.assignment for t, ps in owned
                  for tp in ((t, p) for p in ps) if m in index}
        timed = window_s is not None and any(placed.topics[order[t]].windows for t in topics)
        stats = (rate_stats(member_records(placed, owners, len(ids)), window_s)
                 if timed and window_s is not None and ids else None)
        members: list[dict[str, Any]] = []
        for k, m in enumerate(cfg.members):
            parts = sorted(ga.partitions_of(m.id), key=lambda tp: (order[tp[0]], tp[1]))
            members.append({
                "member": m.id, "rack": m.rack, "instance_id": m.instance_id,
                "partitions": [{"topic": t, "partition": p} for t, p in parts],
                "records": sum(totals[tp][0] for tp in parts),
                "bytes": sum(totals[tp][1] for tp in parts),
                "peak_records_per_s": None if stats is None else _num(stats[0][k]),
                "p99_records_per_s": None if stats is None else _num(stats[1][k]),
                "mean_records_per_s": None if stats is None else _num(stats[2][k]),
            })
        rows.append({"group": name, "strategy": cfg.strategy, "topics": list(topics),
                     "members": members, "skew": skew_stats(x["records"] for x in members)})
    return rows


def _hot_keys(placed: PlacedCluster, topics: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cluster's hot keys: every topic's, most records first (ties: topic order, then
    rank), as many as the longest topic list; ``share`` of the cluster's keyed records."""
    keyed = sum(sum(t.placed.loads.partition_records) for t in placed.topics)
    everything = sorted(((-h["records"], i, h["rank"]), t["topic"], h)
                        for i, t in enumerate(topics) for h in t["hot_keys"])
    top = max((len(t["hot_keys"]) for t in topics), default=0)
    return [{"rank": r, "topic": topic, "key": h["key"], "records": h["records"],
             "bytes": h["bytes"], "partition": h["partition"],
             "share": round(h["records"] / keyed, 6) if keyed else 0.0}
            for r, (_, topic, h) in enumerate(everything[:top], 1)]


def _analysed(placed: PlacedCluster, sources: Sequence[Mapping[str, Any]], records: int,
              analysed_at: str | None) -> dict[str, Any]:
    from kpart import __version__

    topo = placed.resolved.topology
    return {
        "input": ", ".join(str(s.get("path") or s.get("dataset") or "—") for s in sources),
        "records": records,
        "topics": [t.name for t in placed.topics],
        "topic": ", ".join(t.name for t in placed.topics),
        "partitions": sum(len(t.records) for t in placed.topics),
        "brokers": [b.id for b in topo.brokers],
        "broker_racks": [b.rack for b in topo.brokers],
        "racks": list(topo.racks),
        "groups": [g.name for g in topo.groups],
        "placer": getattr(topo, "placer", None) if topo.brokers else None,  # nothing placed
        "window_s": None if placed.window_ms is None else placed.window_ms / 1000,
        "kpart_version": __version__,
        "time": analysed_at,
    }


def build_cluster_summary(  # noqa: PLR0913
    resolved: ResolvedClusterLike,
    measures: Sequence[TopicMeasure] | PlacedCluster,
    *,
    capacity: Mapping[int, Capacity] | None = None,
    sources: Mapping[str, Mapping[str, Any]] | None = None,
    analysed_at: str | None = None,
    capacity_threshold: float = 0.8,
    failures: bool = True,
    existing: ClusterModel | None = None,
) -> dict[str, Any]:
    """The ``summary.json`` document of a cluster report (``"kind": "cluster"``; the format in
    docs/report-cluster.md, units in the module docstring).

    ``resolved``: the topology resolved once (:func:`kpart.analysis.layout.resolve_cluster`);
    ``measures``: one :class:`~kpart.analysis.cluster_loads.TopicMeasure` per topic in the topology's
    order (or :func:`placed_cluster`'s result, placed once for the summary, the model and the
    windows table); ``capacity``: broker id → :class:`~kpart.cluster.model.Capacity` (Cruise
    Control's ``capacity.json``, :func:`kpart.cluster.capacity.capacities_for`);
    ``sources``: topic → ``{"path", "format"}`` (default: each measure's ``source``);
    ``analysed_at``: the run's UTC time (ISO 8601); ``capacity_threshold``: the share of
    capacity the page draws (Cruise Control's 0.8); ``failures``: compute the broker- and
    rack-failure what-ifs (:func:`kpart.cluster.broker_outage.outage_all`, ranked); ``existing``:
    the cluster the existing topics were taken from (their ISR and ``min.insync.replicas``
    weigh in the failures).

    Errors: those of :func:`placed_cluster` (``ConfigError``: a measure for another topic,
    another partition count, windows of different lengths). JSON-ready and deterministic
    when every topic has a seed (or its null-key rule draws nothing). The per-window table
    is not in the document: :func:`windows_table` gives it for ``windows.parquet``.

    A topology without brokers (a ``[topic]`` with a ``timestamp`` and no ``[cluster]``, or
    ``kpart report DATA --timestamp COLUMN`` without ``--brokers``) is the producer view over
    time: partitions without leader or replicas, ``brokers`` and ``racks`` empty, ``cluster``
    ``None`` (no model, no failure what-ifs); the topics, windows, heat map, hot keys, null
    keys and partition count as with brokers."""
    from kpart.cluster.load import broker_load

    placed = placed_cluster(resolved, measures)
    owners = _owners(resolved)
    topo = resolved.topology
    readers = {g.name: topo.group_topics(g) for g in topo.groups}
    window_s = None if placed.window_ms is None else placed.window_ms / 1000
    srcs = [dict(t.measure.source) | dict((sources or {}).get(t.name, {}))
            for t in placed.topics]
    topics = [_topic_row(t, window_s, s, {g: o for g, o in owners.items()
                                          if t.name in readers.get(g, ())})
              for t, s in zip(placed.topics, srcs, strict=True)]
    brokers: list[dict[str, Any]] = []
    cluster = None
    if topo.brokers:  # none: the producer view (nothing placed, no broker or rack invented)
        model = cluster_model_of(placed, capacity, existing)
        load = broker_load(model)
        brokers = _broker_rows(placed, model, load)
        cluster = _cluster_section(model, load, capacity_threshold, failures=failures)
    records = sum(t["records"] for t in topics)
    return {
        "format": "kpart-report",
        "format_version": 1,
        "kind": KIND,
        "analysed": _analysed(placed, srcs, records, analysed_at),
        "records": records,
        "bytes": sum(t["bytes"] for t in topics),
        "bytes_definition": BYTES_DEFINITION,
        "window_s": window_s,
        "topics": topics,
        "brokers": brokers,
        "racks": _rack_rows(topo.racks, brokers),
        "groups": _group_rows(placed),
        "hot_keys": _hot_keys(placed, topics),
        "heatmap": heatmap(placed),
        "cluster": cluster,
        # [[share_groups]] / [[streams_groups]]: present only when the topology has them
        **share_streams_sections(topo, {t.name: t.records for t in placed.topics},
                                 {t.name: t.bytes for t in placed.topics}),
    }


def _cluster_section(model: ClusterModel, load: BrokerLoad, capacity_threshold: float, *,
                     failures: bool) -> dict[str, Any]:
    """``{"brokers", "failures", "capacity_threshold"}``: the broker rows of ``kpart plan
    --json`` (:func:`kpart.cluster.plan_summary.broker_rows`) for the cluster as it is (no
    ``before``) and :func:`~kpart.cluster.plan_summary.failure_rows` of the ranked what-ifs
    (``None`` when not asked)."""
    from kpart.cluster.broker_outage import outage_all, ranked
    from kpart.cluster.plan_summary import broker_rows, failure_rows

    return {"brokers": broker_rows(model, load),
            "failures": failure_rows(ranked(outage_all(model))) if failures else None,
            "capacity_threshold": capacity_threshold}


def cluster_windows_table(resolved: ResolvedClusterLike,
                          measures: Sequence[TopicMeasure] | PlacedCluster) -> pa.Table | None:
    """``windows.parquet``'s table (one row per non-empty window of a partition, null-key
    records placed: ``topic``, ``partition``, ``window_start`` timestamp[ms, UTC],
    ``records``, ``bytes``), for :func:`kpart.report.output.write_report`'s ``windows``;
    ``None`` when no topic has windows."""
    placed = placed_cluster(resolved, measures)
    return None if placed.window_ms is None else windows_table(placed)
