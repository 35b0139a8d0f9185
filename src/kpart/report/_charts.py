"""Plotly figures of the HTML report, one function per chart (private to :mod:`kpart.report.html`).

Each function takes plain values already read from ``summary.json`` and returns a
``plotly.graph_objects.Figure``; one bar (one SVG ``g.point``) per datum, so the browser test
can count the marks: a partition chart has ``num_partitions`` bars, the broker chart two bars
per broker (leader, replica), a group chart one bar per member.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go

from kpart.report._format import human, unit_for

#: Bar colours: normal, hot (above the threshold), replica load, what-if / cross-client.
COLOR = "#4C78A8"
HOT_COLOR = "#E45756"
REPLICA_COLOR = "#9ECAE9"
ALT_COLOR = "#9D9DA8"  # neutral grey: a scenario is neither good nor bad by its colour
#: A cost (records whose partition changes): never green.
COST_COLOR = "#F58518"

_LAYOUT = {
    "template": "plotly_white",
    "height": 360,
    "margin": {"l": 60, "r": 20, "t": 50, "b": 50},
    "font": {"family": "system-ui, -apple-system, Segoe UI, sans-serif", "size": 12},
    "bargap": 0.15,
}


def _nice_step(top: float, ticks: int = 5) -> float:
    """The step of about ``ticks`` ticks from 0 to ``top``: 1, 2, 2.5 or 5 × a power of ten."""
    raw = top / ticks
    power = 10.0 ** math.floor(math.log10(raw))
    return float(next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw))


def value_axis(values: Sequence[float | None], unit: str, title: str | None = None,
               top: float | None = None) -> dict[str, Any]:
    """A value axis in kpart's units (:func:`kpart.report._format.human`): for bytes
    (``unit`` ``"B"`` or ``"B/s"``) ticks at round numbers of one binary unit (``0 MiB``,
    ``256 MiB``, ...), labelled as the tables print them; for a count (``""``) plain ticks.
    ``top`` (default: the largest of ``values``) is the top of the range the ticks cover.

    >>> value_axis([0, 3 * 2**30], "B")["ticktext"], value_axis([130e6], "B/s")["ticktext"][:3]
    (['0 B', '1 GiB', '2 GiB', '3 GiB', '4 GiB'], ['0 B/s', '25 MiB/s', '50 MiB/s'])
    >>> value_axis([5, 7], "")
    {'title': {'text': 'count'}, 'tickformat': ',~g'}
    """
    axis: dict[str, Any] = {"title": {"text": title or unit or "count"}}
    if not unit:
        return {**axis, "tickformat": ",~g"}
    if top is None:
        top = max((v for v in values if v is not None and math.isfinite(v)), default=0.0)
    if not top or top <= 0:
        return {**axis, "ticksuffix": f" {unit}"}
    prefix, factor = unit_for([top])
    step = _nice_step(top / factor) * factor
    vals = [i * step for i in range(int(top // step) + 2)]
    return {**axis, "tickmode": "array", "tickvals": vals,
            "ticktext": [human(v, unit) for v in vals]}


def _mean_line(fig: go.Figure, mean: float, label: str, unit: str = "") -> None:
    fig.add_hline(
        y=mean,
        line={"color": "#333", "dash": "dash", "width": 1.5},
        annotation_text=f"{label} {human(mean, 'B') if unit == 'bytes' else f'{mean:,.1f}'}",
        annotation_position="top left",
    )


def partition_bars(
    partitions: Sequence[int],
    values: Sequence[float],
    hot: Sequence[bool],
    *,
    title: str,
    unit: str,
) -> go.Figure:
    """Bars of ``values`` per partition, hot partitions in red, with a dashed mean line."""
    mean = sum(values) / len(values) if values else 0.0
    colors = [HOT_COLOR if h else COLOR for h in hot]
    text = [
        f"partition {p}<br>{human(v, 'B') if unit == 'bytes' else f'{v:,.0f} {unit}'}<br>"
        f"{(v / mean if mean else 0):.2f}× mean"
        + ("<br><b>hot</b>" if h else "")
        for p, v, h in zip(partitions, values, hot, strict=True)
    ]
    fig = go.Figure(
        go.Bar(
            x=[str(p) for p in partitions],
            y=list(values),
            marker_color=colors,
            hovertext=text,
            hoverinfo="text",
            name=unit,
        )
    )
    _mean_line(fig, mean, "mean", unit)
    fig.update_layout(title=title, xaxis_title="partition", yaxis_title=unit, **_LAYOUT)
    fig.update_xaxes(type="category")
    if unit == "bytes":  # ticks in kpart's units, not SI's "5k"
        fig.update_yaxes(**value_axis(values, "B", title=unit))
    return fig


def broker_bars(
    brokers: Sequence[int],
    racks: Sequence[str | None],
    leader: Sequence[float],
    replica: Sequence[float],
    *,
    unit: str,
) -> go.Figure:
    """Leader and replica load per broker, brokers grouped under their rack (multi-category x)."""
    rack_labels = [r if r is not None else "no rack" for r in racks]
    x = [rack_labels, [f"broker {b}" for b in brokers]]
    fig = go.Figure()
    fig.add_trace(go.Bar(x=x, y=list(leader), name=f"as leader ({unit})", marker_color=COLOR))
    fig.add_trace(
        go.Bar(x=x, y=list(replica), name=f"as replica ({unit})", marker_color=REPLICA_COLOR)
    )
    fig.update_layout(
        title="Broker load by rack: leader and replica",
        barmode="group",
        yaxis_title=unit,
        legend={"orientation": "h", "y": 1.1, "x": 1, "xanchor": "right"},
        **_LAYOUT,
    )
    return fig


def member_bars(
    members: Sequence[str],
    records: Sequence[float],
    partitions_text: Sequence[str],
    *,
    title: str,
) -> go.Figure:
    """Records consumed per member of one group/strategy, with a dashed mean line."""
    mean = sum(records) / len(records) if records else 0.0
    fig = go.Figure(
        go.Bar(
            x=list(members),
            y=list(records),
            marker_color=COLOR,
            hovertext=[
                f"{m}<br>{r:,.0f} records<br>partitions: {p}"
                for m, r, p in zip(members, records, partitions_text, strict=True)
            ],
            hoverinfo="text",
            name="records",
        )
    )
    _mean_line(fig, mean, "mean")
    fig.update_layout(title=title, xaxis_title="member", yaxis_title="records", **_LAYOUT)
    fig.update_xaxes(type="category")
    return fig


def grouped_partition_bars(
    partitions: Sequence[int], series: dict[str, Sequence[float]], *, title: str
) -> go.Figure:
    """One bar per (series, partition): e.g. records per partition under each partitioner."""
    fig = go.Figure()
    for name, values in series.items():
        fig.add_trace(go.Bar(x=[str(p) for p in partitions], y=list(values), name=name))
    fig.update_layout(
        title=title, barmode="group", xaxis_title="partition", yaxis_title="records",
        legend={"orientation": "h", "y": 1.12, "x": 1, "xanchor": "right"}, **_LAYOUT,
    )
    fig.update_xaxes(type="category")
    return fig


def scenario_bars(
    labels: Sequence[str],
    values: Sequence[float],
    *,
    title: str,
    xaxis: str,
    yaxis: str,
    highlight: Sequence[bool] | None = None,
    percent: bool = False,
    color: str = ALT_COLOR,
) -> go.Figure:
    """One bar per scenario (what-if partition counts, cross-client partitioners): highlighted
    ones (the current count, the reference client) in :data:`COLOR`, the others in ``color``;
    ``percent``: ``values`` are fractions, labelled as the CLI prints them (``75.9%``)."""
    from kpart.report._format import percent as pct

    colors = [COLOR if (highlight and h) else color for h in (highlight or [False] * len(values))]
    fig = go.Figure(
        go.Bar(
            x=list(labels),
            y=list(values),
            marker_color=colors,
            text=[pct(v) if percent else f"{v:,.3g}" for v in values],
            textposition="outside",
            cliponaxis=False,
            name=yaxis,
        )
    )
    fig.update_layout(title=title, xaxis_title=xaxis, yaxis_title=yaxis, **_LAYOUT)
    fig.update_xaxes(type="category")
    if percent:
        fig.update_yaxes(tickformat=".1%")
    return fig
