"""Building blocks of the report pages (shared by the renderers of :mod:`kpart.report`):
field access with errors naming the field, number formatting, escaped tables, sections, Plotly
chart divs.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from kpart.errors import ConfigError

__all__ = ["PAGE_CSS", "PLOT_CONFIG", "POST_SCRIPT", "chart_div", "doc_ratio", "escape_html",
           "format_value", "html_section", "html_table", "number_field", "require_field",
           "stat_rows"]

PLOT_CONFIG = {"displaylogo": False, "responsive": True}
# Each plot marks itself rendered once Plotly.newPlot's promise resolved (the browser test
# and anyone scripting the page can wait on it).
POST_SCRIPT = "document.getElementById('{plot_id}').setAttribute('data-rendered', '1');"


def require_field(doc: Mapping[str, Any], key: str, where: str = "summary") -> Any:
    """``doc[key]``; ``ConfigError`` naming ``where`` and ``key`` when ``doc`` is not a mapping
    or lacks it (a summary.json written by hand or by another version)."""
    if not isinstance(doc, Mapping) or key not in doc:
        raise ConfigError(f"{where}: missing field {key!r}")
    return doc[key]


def number_field(value: Any, where: str) -> float:
    """``value`` when it is a JSON number (not a boolean); ``ConfigError`` naming ``where``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"{where}: expected a number, got {value!r}")
    return value


def format_value(value: Any) -> str:
    """A summary value as the page shows it: ``—`` for null, ``1,234`` for an int, 4
    significant digits under 1,000 (``0.1235``), lists joined by ``, ``."""
    if isinstance(value, bool) or value is None:
        return "—" if value is None else str(value).lower()
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:.4g}" if abs(value) < 1000 else f"{value:,.1f}"
    if isinstance(value, list | tuple):
        return ", ".join(format_value(v) for v in value)
    return str(value)


def escape_html(value: Any) -> str:
    """:func:`format_value`, HTML-escaped."""
    return html.escape(format_value(value))


def chart_div(fig: Any, div_id: str) -> str:
    """A Plotly figure as a ``<div id=div_id>`` of the page (Plotly's script loaded once by
    the page); the plot marks itself rendered (:data:`POST_SCRIPT`)."""
    inner = fig.to_html(
        full_html=False,
        include_plotlyjs=False,
        div_id=div_id,
        config=PLOT_CONFIG,
        post_script=POST_SCRIPT,
    )
    return f'<div class="kpart-chart">{inner}</div>'


def _cell(column: str, value: Any) -> str:
    from kpart.report._format import is_fraction, percent

    if is_fraction(str(column)) and isinstance(value, int | float) and not isinstance(value, bool):
        return html.escape(percent(value))  # as the CLI prints it
    return escape_html(value)


def _th(column: str) -> str:
    from kpart.report._format import AS_REPLICA, header

    name = str(column)
    tip = (f' title="{html.escape(AS_REPLICA)}"'
           if "replica" in name and "replication" not in name else "")
    return f"<th{tip}>{html.escape(header(str(column)))}</th>"


def html_table(
    rows: Sequence[Mapping[str, Any]], table_id: str, skip: Sequence[str] = ()
) -> str:
    """``rows`` (dicts) as an escaped ``<table id=table_id>``: the columns in first-seen
    order but ``skip``, headers and fractions as the terminal writes them."""
    columns: list[str] = []
    for row in rows:
        columns.extend(k for k in row if k not in columns and k not in skip)
    head = "".join(_th(c) for c in columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{_cell(c, row.get(c))}</td>" for c in columns) + "</tr>"
        for row in rows
    )
    return f'<table id="{table_id}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def doc_ratio(doc: Mapping[str, Any]) -> float | None:
    """``max_over_mean`` (summary.py's name) or ``max_mean`` of a skew/scenario dict."""
    for key in ("max_over_mean", "max_mean"):
        value = doc.get(key)
        if isinstance(value, int | float):
            return value
    return None


def html_section(sid: str, title: str, body: str, note: str = "") -> str:
    """``<section id=sid>`` with an escaped ``<h2>`` title, an optional note (HTML) and
    ``body`` (HTML, already escaped)."""
    note_html = f'<p class="note">{note}</p>' if note else ""
    return f'<section id="{sid}"><h2>{html.escape(title)}</h2>{note_html}{body}</section>'


def stat_rows(doc: Mapping[str, Any], prefix: str = "") -> list[dict[str, Any]]:
    """One row per innermost dict of figures: ``{"load": path, **figures}``."""
    rows: list[dict[str, Any]] = []
    scalars = {k: v for k, v in doc.items() if not isinstance(v, Mapping)}
    if scalars:
        rows.append({"load": prefix.rstrip(" ·") or "all", **scalars})
    for key, value in doc.items():
        if isinstance(value, Mapping):
            rows.extend(stat_rows(value, f"{prefix}{key} · "))
    return rows


PAGE_CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#222;background:#fafafa}
header{background:#1f2d3d;color:#fff;padding:16px 32px}header h1{margin:0;font-size:22px}
nav{padding:6px 32px;background:#e9eef3}nav a{margin-right:16px;color:#1f4e79}
main{padding:8px 32px 32px;max-width:1200px}section{margin-top:24px}
h2{border-bottom:1px solid #ccd;padding-bottom:4px}.note{color:#555;font-size:13px}
.cards{display:flex;flex-wrap:wrap;gap:12px}.card{background:#fff;border:1px solid #dde;
border-radius:6px;padding:8px 14px;min-width:120px}.card .label{font-size:12px;color:#666}
.card .value{font-size:20px;font-weight:600}.kpart-chart{background:#fff;margin:12px 0;
border:1px solid #e3e3e8;border-radius:6px}table{border-collapse:collapse;font-size:13px;
margin:8px 0;background:#fff}th,td{border:1px solid #dde;padding:3px 10px;text-align:right}
th{background:#eef2f6}td:first-child,th:first-child{text-align:left}
table.analysed td{text-align:left}h3{font-size:15px;margin:16px 0 4px}
"""
