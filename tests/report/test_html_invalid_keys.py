"""``--invalid-keys count``: the records counted apart are shown on the page and the terminal,
and an input whose every key is invalid is not called empty."""

from __future__ import annotations

import io
import re

from rich.console import Console

from kpart.analysis.summary import Loads, build_summary
from kpart.report.html import render_report
from kpart.report.terminal import print_summary
from kpart.topology import default_topology

_TOPO = default_topology()
_N = _TOPO.topic.partitions
_SOURCE = {"path": "data/flights.csv", "format": "csv"}


def _summary(records: int, invalid: int) -> dict:
    recs = tuple(records // _N + (p < records % _N) for p in range(_N))
    loads = Loads(recs, tuple(60 * r for r in recs), tuple(min(r, 1) for r in recs), 0, 0, (),
                  invalid_key_records=invalid)
    return build_summary(_TOPO, loads, source=_SOURCE, analysed_at="2026-11-24T00:00:00Z")


def _terminal(summary: dict) -> str:
    buf = io.StringIO()
    print_summary(summary, Console(file=buf, width=200, force_terminal=False))
    return buf.getvalue()


def _cards(page: str) -> dict[str, str]:
    return dict(re.findall(r'<div class="label">([^<]*)</div><div class="value">([^<]*)</div>',
                           page))


def test_invalid_key_records_get_a_card_and_a_line() -> None:
    s = _summary(1_200, 37)
    assert _cards(render_report(s))["invalid-key records"] == "37"
    out = _terminal(s)
    assert "37 invalid-key records" in out and "no records" not in out


def test_no_invalid_key_records_no_card_no_line() -> None:
    s = _summary(1_200, 0)
    page = render_report(s)
    assert "invalid-key records" not in _cards(page) and 'id="invalid-keys"' not in page
    assert "invalid-key" not in _terminal(s)


def test_all_keys_invalid_is_not_an_empty_input() -> None:
    s = _summary(0, 1_500)
    assert s["records"] == 0
    page = render_report(s)
    assert _cards(page)["invalid-key records"] == "1,500"
    assert "all 1,500 records have keys the serializer cannot represent" in page
    out = _terminal(s)
    assert "all 1,500 records have keys the serializer cannot represent" in out
    assert "no records in" not in out


def test_an_empty_input_still_says_so() -> None:
    s = _summary(0, 0)
    assert "no records in data/flights.csv" in _terminal(s)
    assert 'id="invalid-keys"' not in render_report(s)
