"""Plotly figures of the plan page (private to :mod:`kpart.report.plan_html`).

The figures of a load-aware plan (Cruise Control's ``GoalOptimizer`` result, as ``kpart plan``
summarises it): per broker before/after bars of one load, and the batch timeline of the
reassignment (``kafka-reassign-partitions.sh --execute --throttle``, one batch after the other).
As :mod:`kpart.report._charts`: plain values in, a figure out, one bar (one SVG ``g.point``)
per datum, so the browser test counts the marks: two bars per broker (before, after; one
without a before), one bar per batch. Lines (capacity) are scatter traces, not bars, and bands
(added/removed brokers) are layout shapes: neither counts as a mark. The figures are plain
Plotly JSON dicts, not ``graph_objects`` (whose validation of the template alone costs ~0.2 s
a chart), written by :func:`chart_html` without validation; the browser test checks them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from kpart.report._charts import _LAYOUT, COLOR, HOT_COLOR, REPLICA_COLOR, value_axis
from kpart.report._format import human
from kpart.report._html_parts import PLOT_CONFIG, POST_SCRIPT

__all__ = [
    "ADDED_COLOR",
    "REMOVED_COLOR",
    "Figure",
    "batch_timeline",
    "before_after_bars",
    "chart_html",
    "figure_layout",
    "human",
    "runs",
    "value_axis",
]

#: A Plotly figure as JSON: ``{"data": [trace, ...], "layout": {...}}``.
Figure = dict[str, Any]

#: Band behind added brokers (green) and removed brokers (red), faint.
ADDED_COLOR = "#54A24B"
REMOVED_COLOR = HOT_COLOR
_CAPACITY_COLOR = "#333"
_THRESHOLD_COLOR = "#F58518"


def runs(flags: Sequence[bool]) -> list[tuple[int, int]]:
    """``(first, last)`` index of each run of consecutive true ``flags``.

    >>> runs([False, True, True, False, True])
    [(1, 2), (4, 4)]
    """
    out: list[tuple[int, int]] = []
    for i, flag in enumerate(flags):
        if flag and out and out[-1][1] == i - 1:
            out[-1] = (out[-1][0], i)
        elif flag:
            out.append((i, i))
    return out


@cache
def _template() -> dict[str, Any]:
    import plotly.io as pio

    template: dict[str, Any] = pio.templates[_LAYOUT["template"]].to_plotly_json()
    return template


def figure_layout(**extra: Any) -> dict[str, Any]:
    """The report's chart layout (:data:`kpart.report._charts._LAYOUT`), template resolved."""
    return {**_LAYOUT, "template": _template(), **extra}


def chart_html(fig: Figure, div_id: str) -> str:
    """``fig`` as the report's chart div (``div.kpart-chart``, marked rendered once drawn)."""
    import plotly.io as pio

    inner = pio.to_html(fig, validate=False, full_html=False, include_plotlyjs=False,
                        div_id=div_id, config=PLOT_CONFIG, post_script=POST_SCRIPT)
    return f'<div class="kpart-chart">{inner}</div>'


def _bands(flags: Sequence[bool], color: str, label: str) -> tuple[list[Any], list[Any]]:
    """A faint band behind each run of flagged brokers (category ``i`` spans ``i ± 0.5``),
    named once in the legend (an empty trace: no mark): ``(shapes, traces)``."""
    spans = runs(flags)
    shapes = [{"type": "rect", "xref": "x", "yref": "paper", "x0": first - 0.5,
               "x1": last + 0.5, "y0": 0, "y1": 1, "fillcolor": color, "opacity": 0.13,
               "line": {"width": 0}, "layer": "below"} for first, last in spans]
    legend = [{"type": "scatter", "x": [None], "y": [None], "mode": "markers", "name": label,
               "marker": {"symbol": "square", "size": 12, "color": color, "opacity": 0.3},
               "hoverinfo": "skip"}] if spans else []
    return shapes, legend


def before_after_bars(
    brokers: Sequence[int],
    series: Mapping[str, Sequence[float | None]],
    hover: Sequence[str],
    *,
    title: str,
    unit: str,
    added: Sequence[bool],
    removed: Sequence[bool],
    lines: Mapping[str, Sequence[float | None] | None] | None = None,
) -> Figure:
    """Grouped bars per broker (x: broker ids in the given order), one trace per ``series``
    (``{"before": ..., "after": ...}``: light then dark; a single series is dark).
    ``hover[i]``: the hover text of broker ``i`` (every bar of it). Added brokers get a green
    band, removed ones a red band. ``lines`` (``{"capacity": ..., "capacity threshold": ...}``,
    per broker, ``None`` = unknown): a solid then a dashed step line each (one step per
    broker: capacities may differ; broken where unknown). ``unit``: ``"B"``, ``"B/s"`` (binary
    ticks, :func:`value_axis`) or ``""`` (a count). The value axis is scaled to the bars: a
    capacity line far above them is left above the range, with a note naming it.
    """
    x = [str(b) for b in brokers]
    colors = [REPLICA_COLOR, COLOR] if len(series) == 2 else [COLOR] * len(series)
    data: list[Any] = [
        {"type": "bar", "x": x, "y": list(values), "name": name, "marker": {"color": color},
         "hovertext": list(hover), "hoverinfo": "text"}
        for (name, values), color in zip(series.items(), colors, strict=False)]
    styles = ((_CAPACITY_COLOR, "solid"), (_THRESHOLD_COLOR, "dash"))
    for (name, line), (color, dash) in zip((lines or {}).items(), styles, strict=False):
        if line is not None and any(v is not None for v in line):
            data.append({"type": "scatter", "x": x, "y": list(line), "name": name,
                         "mode": "lines", "line": {"shape": "hvh", "color": color,
                                                   "dash": dash, "width": 1.5},
                         "hoverinfo": "skip", "connectgaps": False})
    shapes_added, legend_added = _bands(added, ADDED_COLOR, "added broker")
    shapes_removed, legend_removed = _bands(removed, REMOVED_COLOR, "removed broker")
    many = len(brokers) > 60  # 225 brokers: thin bars, little gap, labels upright
    yaxis, notes = _bars_axis(data, unit)
    layout = figure_layout(annotations=notes,
        title={"text": title}, barmode="group", bargap=0.05 if many else 0.15,
        xaxis={"title": {"text": "broker"}, "type": "category", "tickangle": -90 if many else 0},
        yaxis=yaxis, shapes=shapes_added + shapes_removed,
        legend={"orientation": "h", "y": 1.12, "x": 1, "xanchor": "right"},
    )
    return {"data": data + legend_added + legend_removed, "layout": layout}


def _finite(values: Sequence[Any]) -> list[float]:
    return [v for v in values if isinstance(v, int | float) and math.isfinite(v)]


def _bars_axis(data: list[dict[str, Any]], unit: str) -> tuple[dict[str, Any], list[Any]]:
    """The value axis of bars with capacity lines, and its annotations: scaled to the bars (a
    capacity far above them would make them slivers: it is then left above the range, a note
    at the top says so, and each broker's hover gives it), ticks in kpart's units
    (:func:`value_axis`)."""
    bars = _finite([v for t in data if t["type"] == "bar" for v in t["y"]])
    lines = [t for t in data if t["type"] == "scatter"]
    top = max(bars, default=0.0)
    line_top = max(_finite([v for t in lines for v in t["y"]]), default=0.0)
    if not (top > 0 and line_top > _FAR * top):
        return value_axis(bars, unit, top=max(top, line_top)), []
    above = []
    for t in lines:
        low = min(_finite(t["y"]), default=0.0)
        if low > _ROOM * top:
            above.append(f"{t['name']} {human(low, unit)}"
                         + (" and more" if max(_finite(t["y"])) > low else ""))
    note = [{"xref": "paper", "yref": "paper", "x": 0, "y": 1, "xanchor": "left",
             "yanchor": "bottom", "showarrow": False, "font": {"size": 11},
             "text": "scaled to the bars; above them: " + "; ".join(above)}] if above else []
    return {**value_axis(bars, unit, top=_ROOM * top), "range": [0, _ROOM * top]}, note


#: The room above the highest bar when a capacity line is left above the range.
_ROOM = 1.15
#: A line this many times above the highest bar is left above the range (the bars would use
#: less than half the chart: at 6 % of capacity they were slivers).
_FAR = 2.0


def batch_timeline(
    labels: Sequence[str],
    start: Sequence[float],
    length: Sequence[float],
    hover: Sequence[str],
    *,
    title: str,
    xaxis: str,
    unit: str,
) -> Figure:
    """A Gantt-like chart: one horizontal bar per batch (``labels``, first on top) from
    ``start`` over ``length`` (in ``unit``: time, or bytes ``"B"`` when no throttle gives a
    duration: binary ticks, :func:`value_axis`)."""
    n = len(labels)
    bars = {"type": "bar", "y": list(labels), "x": list(length), "base": list(start),
            "orientation": "h", "marker": {"color": COLOR}, "hovertext": list(hover),
            "hoverinfo": "text", "name": "batch"}
    layout = figure_layout(
        title={"text": title}, showlegend=False, bargap=0.25,
        height=min(1600, max(220, 110 + 16 * n)),
        xaxis={**(value_axis([a + b for a, b in zip(start, length, strict=True)], unit,
                             title=xaxis) if unit == "B" else
                  {"title": {"text": xaxis}, "tickformat": ",~g", "ticksuffix": " " + unit}),
               "rangemode": "tozero"},
        yaxis={"type": "category", "autorange": "reversed", "showticklabels": n <= 60},
    )
    return {"data": [bars], "layout": layout}
