"""Plotly figures of the plan page (private to :mod:`kpart.report.plan_html`).

The figures of a load-aware plan (Cruise Control's ``GoalOptimizer`` result, as ``kpart plan``
summarises it): per broker before/after bars of one load, and the batch timeline of the
reassignment (``kafka-reassign-partitions.sh --execute --throttle``, one batch after the other).
As :mod:`kpart.report._charts`: plain values in, a ``plotly.graph_objects.Figure`` out, one bar
(one SVG ``g.point``) per datum, so the browser test counts the marks: two bars per broker
(before, after; one without a before), one bar per batch. Lines (capacity) are scatter traces,
not bars, and bands (added/removed brokers) are layout shapes: neither counts as a mark.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import plotly.graph_objects as go

from kpart.report._charts import _LAYOUT, COLOR, HOT_COLOR, REPLICA_COLOR

__all__ = ["ADDED_COLOR", "REMOVED_COLOR", "batch_timeline", "before_after_bars", "human",
           "runs"]

#: Band behind added brokers (green) and removed brokers (red), faint.
ADDED_COLOR = "#54A24B"
REMOVED_COLOR = HOT_COLOR
_CAPACITY_COLOR = "#333"
_THRESHOLD_COLOR = "#F58518"
_PREFIXES = ("", "k", "M", "G", "T", "P", "E")


def human(value: float | None, unit: str) -> str:
    """``value`` with a decimal SI prefix, three significant digits, and ``unit`` (bytes as
    Kafka's tools print sizes in decimal units; ``unit`` ``""`` for counts, shown whole).

    >>> human(1.2e12, "B"), human(52_000_000, "B/s"), human(999, "B"), human(1234, ""), human(None, "B")
    ('1.2 TB', '52 MB/s', '999 B', '1,234', '—')
    """
    if value is None:
        return "—"
    if not unit:
        return f"{value:,.0f}"
    scaled, i = float(value), 0
    while abs(scaled) >= 999.5 and i < len(_PREFIXES) - 1:
        scaled, i = scaled / 1000, i + 1
    return f"{scaled:.3g} {_PREFIXES[i]}{unit}"


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


def _band(fig: go.Figure, flags: Sequence[bool], color: str, label: str) -> None:
    """A faint band behind each run of flagged brokers (category ``i`` spans ``i ± 0.5``),
    named once in the legend (an empty trace: no mark)."""
    spans = runs(flags)
    for first, last in spans:
        fig.add_vrect(x0=first - 0.5, x1=last + 0.5, fillcolor=color, opacity=0.13,
                      line_width=0, layer="below")
    if spans:
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=label,
                                 marker={"symbol": "square", "size": 12, "color": color,
                                         "opacity": 0.3}, hoverinfo="skip"))


def _line(fig: go.Figure, x: list[str], y: Sequence[float | None], name: str, color: str,
          dash: str) -> None:
    """A step line over the brokers (one step per broker: capacities may differ), broken
    where a broker's value is unknown."""
    fig.add_trace(go.Scatter(x=x, y=list(y), name=name, mode="lines", line_shape="hvh",
                             line={"color": color, "dash": dash, "width": 1.5},
                             hoverinfo="skip", connectgaps=False))


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
) -> go.Figure:
    """Grouped bars per broker (x: broker ids in the given order), one trace per ``series``
    (``{"before": ..., "after": ...}``: light then dark; a single series is dark).
    ``hover[i]``: the hover text of broker ``i`` (every bar of it). Added brokers get a green
    band, removed ones a red band. ``lines`` (``{"capacity": ..., "capacity threshold": ...}``,
    per broker, ``None`` = unknown): a solid then a dashed step line each. ``unit``: ``"B"``,
    ``"B/s"`` (SI ticks) or ``""`` (a count).
    """
    x = [str(b) for b in brokers]
    fig = go.Figure()
    colors = [REPLICA_COLOR, COLOR] if len(series) == 2 else [COLOR] * len(series)
    for (name, values), color in zip(series.items(), colors, strict=False):
        fig.add_trace(go.Bar(x=x, y=list(values), name=name, marker_color=color,
                             hovertext=list(hover), hoverinfo="text"))
    styles = ((_CAPACITY_COLOR, "solid"), (_THRESHOLD_COLOR, "dash"))
    for (name, line), (color, dash) in zip((lines or {}).items(), styles, strict=False):
        if line is not None and any(v is not None for v in line):
            _line(fig, x, line, name, color, dash)
    _band(fig, added, ADDED_COLOR, "added broker")
    _band(fig, removed, REMOVED_COLOR, "removed broker")
    many = len(brokers) > 60  # 225 brokers: thin bars, no gap between a broker's two
    fig.update_layout(
        title=title, barmode="group", xaxis_title="broker", yaxis_title=unit or "count",
        legend={"orientation": "h", "y": 1.12, "x": 1, "xanchor": "right"},
        **{**_LAYOUT, "bargap": 0.05 if many else 0.15},
    )
    fig.update_xaxes(type="category", tickangle=-90 if many else 0)
    if unit:
        fig.update_yaxes(tickformat="~s", ticksuffix=" " + unit)
    return fig


def batch_timeline(
    labels: Sequence[str],
    start: Sequence[float],
    length: Sequence[float],
    hover: Sequence[str],
    *,
    title: str,
    xaxis: str,
    unit: str,
) -> go.Figure:
    """A Gantt-like chart: one horizontal bar per batch (``labels``, first on top) from
    ``start`` over ``length`` (in ``unit``: time, or bytes ``"B"`` when no throttle gives a
    duration: SI ticks)."""
    n = len(labels)
    fig = go.Figure(go.Bar(
        y=list(labels), x=list(length), base=list(start), orientation="h",
        marker_color=COLOR, hovertext=list(hover), hoverinfo="text", name="batch",
    ))
    layout = {**_LAYOUT, "height": min(1600, max(220, 110 + 16 * n)), "bargap": 0.25}
    fig.update_layout(title=title, xaxis_title=xaxis, showlegend=False, **layout)
    fig.update_yaxes(type="category", autorange="reversed", showticklabels=n <= 60)
    fig.update_xaxes(tickformat="~s" if unit == "B" else ",~g", ticksuffix=" " + unit,
                     rangemode="tozero")
    return fig
