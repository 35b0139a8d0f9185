"""Load over time for the cluster report (private to :mod:`kpart.report`): window statistics,
per-broker and per-member series on the common grid, the heat map and the ``windows.parquet``
table, all from a :class:`~kpart.analysis.cluster_model.PlacedCluster`.

A window's rate is its records (or bytes) / ``window_s``. Over a series of ``W`` windows:
``peak`` = the largest window's rate, ``p99`` = ``numpy.percentile(rates, 99,
method="higher")`` (an observed window, empty windows counted as 0), ``mean`` = the series'
total / its span (``W × window_s``).

>>> import numpy as np
>>> peak, p99, mean = rate_stats(np.array([[0, 60, 120, 0]]), 60.0)
>>> peak.tolist(), p99.tolist(), mean.tolist()
([2.0], [2.0], [0.75])
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa

    from kpart.analysis.cluster_model import PlacedCluster

__all__ = ["HEATMAP_COLUMNS", "HEATMAP_ROWS", "broker_bytes_in", "broker_network_in",
           "broker_records", "heatmap", "iso", "member_records",
           "rate_stats", "windows_table"]

#: The most columns of the heat map: longer series are folded, each column the max of the
#: windows it covers (so a peak stays visible).
HEATMAP_COLUMNS = 480
#: The most rows (partitions) of the heat map in ``summary.json`` and the page: the partitions
#: with the highest peak window (40,000 partitions × 480 columns would be ~200 MB of JSON).
HEATMAP_ROWS = 200


def iso(ms: int) -> str:
    """Epoch milliseconds → ISO 8601 UTC text (``Z``; milliseconds only when not 0).

    >>> iso(0), iso(1500)
    ('1970-01-01T00:00:00Z', '1970-01-01T00:00:01.500Z')
    """
    t = datetime.fromtimestamp(ms / 1000, UTC)
    if ms % 1000:
        return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def rate_stats(counts: np.ndarray, window_s: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(peak, p99, mean)`` rates (per second, float64, shape ``(N,)``) of ``N`` series of
    per-window counts (shape ``(N, W)``, ``W`` ≥ 1) of ``window_s``-second windows."""
    rates = counts / window_s
    peak = rates.max(axis=1)
    p99 = np.percentile(rates, 99, axis=1, method="higher")
    mean = counts.sum(axis=1) / (counts.shape[1] * window_s)
    return peak, p99, mean


def _on_grid(placed: PlacedCluster, rows: int, pick: str, owner_of: Any) -> np.ndarray:
    """int64 ``(rows, G)``: per topic, each partition's windows (``pick``: ``window_bytes`` or
    ``window_records``) added to the row ``owner_of(topic index, topic)`` gives (int array
    ``(P,)``, ``-1`` = none)."""
    out = np.zeros((rows, placed.grid_windows), dtype=np.int64)
    for i, t in enumerate(placed.topics):
        counts = getattr(t, pick)
        if counts is None:
            continue
        owner = owner_of(i, t)
        ok = owner >= 0
        o = placed.offset(i)
        np.add.at(out[:, o:o + counts.shape[1]], owner[ok], counts[ok])
    return out


def broker_bytes_in(placed: PlacedCluster, broker_ids: list[int]) -> np.ndarray:
    """int64 ``(B, G)``: per broker (in ``broker_ids`` order), the bytes of the partitions it
    leads in each window of the common grid (leader bytes-in, Kafka's ``BytesInPerSec``)."""
    pos = {b: k for k, b in enumerate(broker_ids)}
    return _on_grid(placed, len(broker_ids), "window_bytes",
                    lambda _i, t: np.array([pos.get(b, -1) for b in t.leaders], np.int64))


def broker_records(placed: PlacedCluster, broker_ids: list[int]) -> np.ndarray:
    """int64 ``(B, G)``: per broker, the records of the partitions it leads in each window
    (what producers write to it and consumers read from it)."""
    pos = {b: k for k, b in enumerate(broker_ids)}
    return _on_grid(placed, len(broker_ids), "window_records",
                    lambda _i, t: np.array([pos.get(b, -1) for b in t.leaders], np.int64))


def broker_network_in(placed: PlacedCluster, broker_ids: list[int]) -> np.ndarray:
    """int64 ``(B, G)``: per broker, the bytes of every partition it holds a replica of in
    each window — produce bytes-in as leader, replication bytes-in as follower: the inbound
    network load Cruise Control weighs against ``NW_IN`` (:mod:`kpart.cluster.load`)."""
    pos = {b: k for k, b in enumerate(broker_ids)}
    width = max((len(r) for t in placed.topics for r in t.replicas), default=0)
    out = np.zeros((len(broker_ids), placed.grid_windows), dtype=np.int64)
    for k in range(width):  # the k-th replica of every partition
        out += _on_grid(placed, len(broker_ids), "window_bytes", lambda _i, t, k=k: np.array(
            [pos.get(r[k], -1) if k < len(r) else -1 for r in t.replicas], np.int64))
    return out


def member_records(placed: PlacedCluster, owners: dict[tuple[str, int], int],
                   members: int) -> np.ndarray:
    """int64 ``(members, G)``: per member, the records of its partitions in each window
    (``owners``: ``(topic, partition)`` → member row)."""
    return _on_grid(placed, members, "window_records",
                    lambda _i, t: np.array([owners.get((t.name, p), -1)
                                            for p in range(len(t.records))], np.int64))


def _rounded(row: np.ndarray) -> list[float]:
    """``row`` to 4 significant digits of its largest value (a heat map cell's precision)."""
    top = float(row.max(initial=0.0))
    if top <= 0:
        return row.tolist()  # type: ignore[no-any-return]
    return np.round(row, 3 - int(np.floor(np.log10(top)))).tolist()  # type: ignore[no-any-return]


def _heatmap_rows(placed: PlacedCluster, limit: int) -> list[tuple[int, int]]:
    """``(topic index, partition)`` of the at most ``limit`` timed partitions with the highest
    peak window (bytes), in topic then partition order; ties at the cut go to the earlier
    topic, then the lower partition."""
    index, parts, peaks = [], [], []
    for i, t in enumerate(placed.topics):
        if t.window_bytes is None:
            continue
        n = len(t.records)
        index.append(np.full(n, i, dtype=np.int64))
        parts.append(np.arange(n, dtype=np.int64))
        peaks.append(t.window_bytes.max(axis=1, initial=0))
    if not index:
        return []
    ti, pa_, pk = np.concatenate(index), np.concatenate(parts), np.concatenate(peaks)
    keep = np.lexsort((pa_, ti, -pk))[:limit]  # busiest first; ties: topic, partition
    keep.sort()  # back to topic then partition order
    return list(zip(ti[keep].tolist(), pa_[keep].tolist(), strict=True))


def _fold(rates: np.ndarray, offset: int, per: int, cols: int) -> np.ndarray:
    """float64 ``(R, cols)``: ``rates`` (``(R, W)``, window ``w`` at grid window
    ``offset + w``) folded into columns of ``per`` grid windows, each the max of its windows
    (0 where the topic has none); memory ``R × (W + per)``, never the whole grid."""
    lead = offset % per
    first = offset // per
    n = -(-(lead + rates.shape[1]) // per)
    padded = np.zeros((rates.shape[0], n * per))
    padded[:, lead:lead + rates.shape[1]] = rates
    out = np.zeros((rates.shape[0], cols))
    out[:, first:first + n] = padded.reshape(rates.shape[0], n, per).max(axis=2)
    return out


def heatmap(placed: PlacedCluster, max_rows: int = HEATMAP_ROWS) -> dict[str, Any] | None:
    """The ``heatmap`` section: bytes/s per (topic, partition) × column of the common grid
    (to 4 significant digits of the row's peak), at most :data:`HEATMAP_COLUMNS` columns (each
    the max rate of the ``column_windows`` windows it covers) and at most ``max_rows`` rows
    (:data:`HEATMAP_ROWS`): the partitions with the highest peak window, in topic then
    partition order; ``partitions`` counts the timed partitions, ``rows_omitted`` those left
    out (``windows.parquet`` keeps every one). ``None`` without windows."""
    if placed.window_ms is None or placed.start_ms is None:
        return None
    g = placed.grid_windows
    per = -(-g // HEATMAP_COLUMNS)
    cols = -(-g // per)
    window_s = placed.window_ms / 1000
    chosen = _heatmap_rows(placed, max_rows)
    rows: list[dict[str, Any]] = []
    for i, t in enumerate(placed.topics):
        mine = [p for ti, p in chosen if ti == i]
        if t.window_bytes is None or not mine:
            continue
        folded = _fold(t.window_bytes[mine] / window_s, placed.offset(i), per, cols)
        rows.extend({"topic": t.name, "partition": p, "bytes_per_s": _rounded(folded[k])}
                    for k, p in enumerate(mine))
    timed = sum(len(t.records) for t in placed.topics if t.window_bytes is not None)
    starts = placed.start_ms + placed.window_ms * per * np.arange(cols, dtype=np.int64)
    return {"window_s": window_s, "column_windows": per, "column_s": per * window_s,
            "start": iso(placed.start_ms), "columns": [iso(int(x)) for x in starts],
            "partitions": timed, "max_rows": max_rows, "rows_omitted": timed - len(rows),
            "rows": rows}


def windows_table(placed: PlacedCluster) -> pa.Table:
    """``windows.parquet``'s table: one row per non-empty (topic, partition, window), null-key
    records included: ``topic`` (string), ``partition`` (int32), ``window_start``
    (timestamp[ms, UTC]), ``records``, ``bytes`` (int64); topics and partitions in order,
    windows by time."""
    import pyarrow as pa

    index, parts, starts, recs, byts = [], [], [], [], []
    for i, t in enumerate(placed.topics):
        w = t.windows
        if w is None or t.window_records is None or t.window_bytes is None:
            continue
        p, k = np.nonzero((t.window_records > 0) | (t.window_bytes > 0))
        index.append(np.full(len(p), i, dtype=np.int32))
        parts.append(p.astype(np.int32))
        starts.append(w.start_ms + w.window_ms * k.astype(np.int64))
        recs.append(t.window_records[p, k])
        byts.append(t.window_bytes[p, k])

    def cat(xs: list[np.ndarray], dtype: Any) -> np.ndarray:
        return np.concatenate(xs) if xs else np.zeros(0, dtype=dtype)

    names = pa.array([t.name for t in placed.topics], pa.string())
    schema = pa.schema([("topic", pa.string()), ("partition", pa.int32()),
                        ("window_start", pa.timestamp("ms", tz="UTC")),
                        ("records", pa.int64()), ("bytes", pa.int64())])
    return pa.table([names.take(pa.array(cat(index, np.int32))),
                     pa.array(cat(parts, np.int32), pa.int32()),
                     pa.array(cat(starts, np.int64), pa.int64()).cast(schema.field(2).type),
                     pa.array(cat(recs, np.int64), pa.int64()),
                     pa.array(cat(byts, np.int64), pa.int64())], schema=schema)
