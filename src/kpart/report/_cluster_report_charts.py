"""Plotly figures of the multi-topic report page (private to
:mod:`kpart.report._cluster_report_html`).

As :mod:`kpart.report._plan_charts`: plain values in, a Plotly JSON dict out (no
``graph_objects`` validation: ~0.2 s a chart), one bar (one SVG ``g.point``) per datum shown,
lines and markers as scatter traces (not bars), so the browser test counts the marks. A topic's
chart has one visible bar per partition (records; buttons switch to bytes and to peak bytes-in
per second); the broker charts have one bar per broker and series; the heat map is one
``heatmap`` trace, one row per (topic, partition).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kpart.report._charts import ALT_COLOR, COLOR, COST_COLOR, HOT_COLOR, REPLICA_COLOR
from kpart.report._format import unit_for
from kpart.report._plan_charts import Figure, before_after_bars, figure_layout, value_axis

__all__ = ["MAX_COLUMNS", "broker_bytes", "broker_network", "broker_peak", "heatmap",
           "member_bars", "partition_count", "pool_columns", "topic_bars"]

#: A partition whose load exceeds ``HOT_FACTOR`` × the topic's mean is drawn red (as on the
#: single-topic page, :data:`kpart.report.html.HOT_FACTOR`).
HOT_FACTOR = 1.2
_LEGEND = {"orientation": "h", "y": 1.12, "x": 1, "xanchor": "right"}


def _mean_shape(values: Sequence[float | None]) -> tuple[float, list[dict[str, Any]]]:
    known = [v for v in values if v is not None]
    mean = sum(known) / len(known) if known else 0.0
    return mean, [{"type": "line", "xref": "paper", "x0": 0, "x1": 1, "yref": "y", "y0": mean,
                   "y1": mean, "line": {"color": "#333", "dash": "dash", "width": 1.5}}]


def _hot_colors(values: Sequence[float | None], mean: float) -> list[str]:
    return [HOT_COLOR if v is not None and mean > 0 and v > HOT_FACTOR * mean else COLOR
            for v in values]


def topic_bars(
    topic: str,
    partitions: Sequence[int],
    series: dict[str, tuple[Sequence[float | None], str]],
    markers: dict[str, Sequence[float | None]],
    hover: Sequence[str],
) -> Figure:
    """One topic's partitions: a bar per partition of the first of ``series`` (``{label:
    (values, unit)}``, e.g. records, bytes, peak bytes-in/s), buttons showing the others; hot
    bars red, the dashed line at the mean. ``markers`` (``{label: values}``, e.g. p99 and mean
    bytes-in/s) are drawn with the last series."""
    x = [str(p) for p in partitions]
    n = len(series) + len(markers)
    data: list[Any] = []
    buttons = []
    for i, (label, (values, unit)) in enumerate(series.items()):
        mean, shapes = _mean_shape(values)
        data.append({"type": "bar", "x": x, "y": list(values), "name": label,
                     "visible": i == 0, "marker": {"color": _hot_colors(values, mean)},
                     "hovertext": [f"{h}<br>{label}: {_fmt(v, unit)}" for h, v in
                                   zip(hover, values, strict=True)], "hoverinfo": "text"})
        last = i == len(series) - 1
        visible = [j == i or (last and j >= len(series)) for j in range(n)]
        axis = value_axis(values, unit, title=label)
        buttons.append({"label": label, "method": "update",
                        "args": [{"visible": visible}, {"shapes": shapes, "yaxis": axis}]})
        if i == 0:
            first_shapes, first_axis = shapes, axis
    symbols = ("line-ew-open", "diamond-open", "circle-open")
    for (label, values), symbol in zip(markers.items(), symbols, strict=False):
        data.append({"type": "scatter", "mode": "markers", "x": x, "y": list(values),
                     "name": label, "visible": False, "hoverinfo": "skip",
                     "marker": {"symbol": symbol, "size": 12, "color": "#333",
                                "line": {"width": 2, "color": "#333"}}})
    layout = figure_layout(
        barmode="overlay", meta={"topic": topic},  # the heading above names the topic
        xaxis={"title": {"text": "partition"}, "type": "category",
               "tickangle": -90 if len(x) > 60 else 0},
        yaxis=first_axis, shapes=first_shapes, showlegend=bool(markers),
        legend={"orientation": "h", "y": 1.0, "x": 1, "xanchor": "right", "yanchor": "bottom"},
        updatemenus=[{"type": "buttons", "direction": "right", "x": 0, "xanchor": "left",
                      "y": 1.02, "yanchor": "bottom", "showactive": True, "buttons": buttons,
                      "pad": {"r": 4, "t": 0}}] if len(series) > 1 else [],
    )
    return {"data": data, "layout": layout}


def _fmt(value: float | None, unit: str) -> str:
    from kpart.report._format import human

    return human(value, unit)


def _stack_tops(parts: list[Sequence[float | None]]) -> list[float]:
    """The top of each stack of two (``parts`` in pairs: produce + replication in, consumers
    + replication out), per broker."""
    return [(a or 0) + (b or 0) for lo, hi in zip(parts[::2], parts[1::2], strict=False)
            for a, b in zip(lo, hi, strict=True)]


def _broker_axis(brokers: Sequence[int]) -> dict[str, Any]:
    return {"title": {"text": "broker"}, "type": "category",
            "tickangle": -90 if len(brokers) > 60 else 0}


def broker_bytes(brokers: Sequence[int], leader: Sequence[float | None],
                 replica: Sequence[float | None], hover: Sequence[str]) -> Figure:
    """Bytes per broker as leader (dark) and as replica (light): two bars per broker."""
    x = [str(b) for b in brokers]
    data = [{"type": "bar", "x": x, "y": list(v), "name": name, "marker": {"color": color},
             "hovertext": list(hover), "hoverinfo": "text"}
            for name, v, color in (("as leader", leader, COLOR),
                                   ("as replica", replica, REPLICA_COLOR))]
    layout = figure_layout(title={"text": "Bytes per broker: as leader and as replica"},
                     barmode="group", bargap=0.05 if len(x) > 60 else 0.15,
                     xaxis=_broker_axis(brokers), legend=_LEGEND,
                     yaxis=value_axis([*leader, *replica], "B"))
    return {"data": data, "layout": layout}


def broker_network(brokers: Sequence[int], parts: Mapping[str, Sequence[float | None]],
                   hover: Sequence[str]) -> Figure:
    """Cruise Control's network load per broker: bytes in (produce + replication, stacked) beside
    bytes out (consumers + replication, stacked): four bars per broker, ``parts`` in that
    order (a ``None`` counts as 0 in the stack)."""
    x = [str(b) for b in brokers]
    names = list(parts)
    data = []
    colors = (COLOR, REPLICA_COLOR, COST_COLOR, "#FFBF79")
    for k, (name, values) in enumerate(parts.items()):
        below = parts[names[k - 1]] if k % 2 else None
        data.append({"type": "bar", "x": x, "y": list(values), "name": name,
                     "offsetgroup": "in" if k < 2 else "out",
                     "base": [v or 0 for v in below] if below is not None else None,
                     "marker": {"color": colors[k]}, "hovertext": list(hover),
                     "hoverinfo": "text"})
    layout = figure_layout(title={"text": "Network per broker (Cruise Control's load model): in "
                                    "and out"},
                     barmode="group", bargap=0.05 if len(x) > 60 else 0.15,
                     xaxis=_broker_axis(brokers), legend=_LEGEND,
                     yaxis=value_axis(_stack_tops(list(parts.values())), "B/s"))
    return {"data": data, "layout": layout}


def broker_peak(brokers: Sequence[int], peak: Sequence[float | None],
                markers: Mapping[str, Sequence[float | None]], hover: Sequence[str], *,
                capacity: Sequence[float | None], threshold: float | None,
                label: str = "peak bytes in") -> Figure:
    """Each broker's peak inbound bytes per second (one bar named ``label``; red above its
    network-in capacity), the ``markers`` (p99, mean) as open symbols, and the capacity as a
    step line (dashed: the capacity threshold)."""
    limit = ([None if c is None else c * threshold for c in capacity]
             if threshold is not None else None)
    fig = before_after_bars(brokers, {label: peak}, hover,
                            title="Bytes in per broker: peak window against the network-in "
                                  "capacity", unit="B/s",
                            added=[False] * len(brokers), removed=[False] * len(brokers),
                            lines={"capacity": capacity, "capacity threshold": limit})
    fig["data"][0]["marker"]["color"] = [
        HOT_COLOR if p is not None and c is not None and p > c else COLOR
        for p, c in zip(peak, capacity, strict=True)]
    x = [str(b) for b in brokers]
    for (label, values), symbol in zip(markers.items(), ("line-ew-open", "diamond-open"),
                                       strict=False):
        fig["data"].append({"type": "scatter", "mode": "markers", "x": x, "y": list(values),
                            "name": label, "hoverinfo": "skip",
                            "marker": {"symbol": symbol, "size": 10 if len(x) <= 60 else 5,
                                       "color": "#333",
                                       "line": {"width": 2 if len(x) <= 60 else 1,
                                                "color": "#333"}}})
    return fig


#: The most time columns the heat map draws (the summary's own bound): beyond, each column
#: shows the busiest of the columns it covers.
MAX_COLUMNS = 480


def pool_columns(columns: Sequence[str], z: Sequence[Sequence[float | None]],
                 most: int = MAX_COLUMNS) -> tuple[list[str], list[list[float | None]]]:
    """At most ``most`` columns: runs of ``ceil(len(columns) / most)`` columns merged into one
    (its first time, the max of its values; ``None`` where all are ``None``).

    >>> pool_columns(["a", "b", "c"], [[1, None, 3], [None, None, 2]], most=2)
    (['a', 'c'], [[1.0, 3.0], [None, 2.0]])
    """
    import numpy as np

    k = -(-len(columns) // most)
    if k <= 1:
        return list(columns), [list(r) for r in z]
    a = np.array(z, dtype=np.float64)  # None -> NaN
    pad = (-a.shape[1]) % k
    a = np.pad(a, ((0, 0), (0, pad)), constant_values=np.nan)
    pooled = np.fmax.reduce(a.reshape(a.shape[0], -1, k), axis=2)  # NaN only if all NaN
    out = [[None if v != v else v for v in row] for row in pooled.tolist()]
    return list(columns[::k]), out


def heatmap(rows: Sequence[tuple[str, int]], columns: Sequence[str],
            z: Sequence[Sequence[float | None]], *, title: str) -> Figure:
    """Bytes per second of each (topic, partition) row in each time column (at most
    :data:`MAX_COLUMNS`: :func:`pool_columns`): one heat map trace, first row on top, a line
    between topics; every row labelled up to 80 rows, else each
    topic at its first row (none beyond 80 topics)."""
    columns, z = pool_columns(columns, z)
    prefix, factor = unit_for([v for row in z for v in row])
    z = [[None if v is None else v / factor for v in row] for row in z]  # in one binary unit
    labels = [f"{topic} {p}" for topic, p in rows]
    firsts = [i for i, (topic, _) in enumerate(rows) if i == 0 or rows[i - 1][0] != topic]
    n = len(rows)
    height = min(1800, max(320, 110 + (14 if n <= 80 else 3) * n))
    data = [{"type": "heatmap", "x": list(columns), "y": labels, "z": list(z),
             "colorscale": "YlOrRd", "reversescale": True, "zmin": 0, "hoverongaps": False,
             "colorbar": {"title": {"text": f"{prefix}B/s"}, "tickformat": ",~g"},
             "hovertemplate": f"%{{y}}<br>%{{x}}<br>%{{z:,.3~r}} {prefix}B/s<extra></extra>"}]
    yaxis: dict[str, Any] = {"type": "category", "autorange": "reversed",
                             "title": {"text": "topic partition"}}
    if n > 80:
        yaxis.update(tickmode="array", tickvals=[labels[i] for i in firsts],
                     ticktext=[rows[i][0] for i in firsts], showticklabels=len(firsts) <= 80)
    shapes = [{"type": "line", "xref": "paper", "x0": 0, "x1": 1, "yref": "y", "y0": i - 0.5,
               "y1": i - 0.5, "line": {"color": "#1f2d3d", "width": 1}} for i in firsts[1:]]
    layout = figure_layout(title={"text": title}, height=height, shapes=shapes,
                     xaxis={"title": {"text": "time (UTC)"}, "type": "date"}, yaxis=yaxis)
    return {"data": data, "layout": layout}


def partition_count(topics: Sequence[str], current: Sequence[int],
                    recommended: Sequence[int | None], hover: Sequence[str]) -> Figure:
    """Partitions per topic now (grey) and recommended (blue; no bar where no count works:
    that trace leaves the topic out, as Plotly draws a blank mark for a null)."""
    data = []
    for name, values, color in (("current", current, ALT_COLOR),
                                ("recommended", recommended, COLOR)):
        keep = [i for i, v in enumerate(values) if v is not None]
        data.append({"type": "bar", "x": [topics[i] for i in keep],
                     "y": [values[i] for i in keep], "name": name, "marker": {"color": color},
                     "hovertext": [hover[i] for i in keep], "hoverinfo": "text",
                     "text": [str(values[i]) for i in keep], "textposition": "outside",
                     "cliponaxis": False})
    layout = figure_layout(title={"text": "Partition count per topic: current and recommended"},
                     barmode="group", legend=_LEGEND,
                     xaxis={"title": {"text": "topic"}, "type": "category"},
                     yaxis={"title": {"text": "partitions"}, "rangemode": "tozero"})
    return {"data": data, "layout": layout}


def member_bars(members: Sequence[str], records: Sequence[float], partitions: Sequence[str], *,
                title: str) -> Figure:
    """Records consumed per member of a group (one bar each), the dashed line at the mean;
    the hover lists the member's topic-partitions."""
    _, shapes = _mean_shape(records)
    data = [{"type": "bar", "x": list(members), "y": list(records), "name": "records",
             "marker": {"color": COLOR}, "hoverinfo": "text",
             "hovertext": [f"{m}<br>{r:,.0f} records<br>partitions: {p}"
                           for m, r, p in zip(members, records, partitions, strict=True)]}]
    layout = figure_layout(title={"text": title}, shapes=shapes,
                     xaxis={"title": {"text": "member"}, "type": "category"},
                     yaxis={"title": {"text": "records"}})
    return {"data": data, "layout": layout}
