"""The terminal summary of a report of several topics (``"kind": "cluster"``): the topics
table, the brokers with their loads (the busiest when there are many), one partition-count line
per topic, and a malformed document refused before anything is printed."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from _tools.cluster_report_sample import cluster_report_summary
from kpart.errors import ConfigError
from kpart.report._terminal_cluster import BROKER_ROWS
from kpart.report.terminal import print_summary


def printed(summary: dict) -> str:
    buf = io.StringIO()
    print_summary(summary, Console(file=buf, width=200, force_terminal=False))
    return buf.getvalue()


def rows(text: str, title: str) -> list[list[str]]:
    """The body rows of the table titled ``title`` (cells stripped)."""
    block = text.split(f"\n{title}")[1].split("└")[0]
    body = block.split("┡")[1].split("\n")[1:]
    return [[c.strip() for c in line.strip("│ ").split("│")] for line in body if "│" in line]


def test_topics_brokers_and_partition_counts() -> None:
    s = cluster_report_summary(hot_key_topic=2)
    text = printed(s)
    assert text.startswith("3 topics: 131,088 records (12.2 MiB), 21 partitions on 6 brokers in "
                           "3 racks; load over time in windows of 1 h 00 min\n")
    topics = rows(text, "Topics")
    assert [r[0] for r in topics] == ["topic-0", "topic-1", "topic-2"]
    assert topics[0][1:5] == ["78,410", "7.3", "12", "3"] and topics[0][7] == "2 d 00 h"
    brokers = rows(text, "Brokers")
    assert [r[0] for r in brokers] == [str(b) for b in range(6)]
    over = {r[0]: r[-1] for r in brokers}
    assert over["0"] == "300.0%" and over["1"] == "100.0%"  # peak over its capacity
    assert "group g0 (cooperative-sticky) reads topic-0, topic-1, topic-2: 3 members" in text
    lines = text.split("Partition count\n")[1].splitlines()
    assert lines == [
        "topic-0: 12 partitions are enough (busiest partition's peak 488 KiB/s, 400 records/s)",
        "topic-1: 3 → 6 partitions (busiest partition's peak 488 KiB/s, 400 records/s at 6); "
        "50.0% of keys and 48.0% of records change partition",
        "topic-2: no partition count up to 4,000 keeps the busiest partition under the limits: "
        "the key 'K2' alone exceeds a limit; fix the key, not the count",
    ]


def test_many_brokers_show_the_busiest() -> None:
    s = cluster_report_summary(partitions=(30, 30), brokers=225, racks=6)
    text = printed(s)
    brokers = rows(text, "Brokers")
    assert len(brokers) == BROKER_ROWS
    peaks = sorted(((b["peak_bytes_in_per_s"], b["broker"]) for b in s["brokers"]),
                   key=lambda x: -x[0])
    assert [r[0] for r in brokers] == [str(b) for _, b in peaks[:BROKER_ROWS]]
    assert f"the {BROKER_ROWS} busiest of 225 brokers" in text


def test_without_timestamps() -> None:
    text = printed(cluster_report_summary(timed=False, capacity=False))
    assert "no timestamp column: no load over time" in text
    assert text.count("no timestamp column, partition count not computed") == 3
    assert all(r[-1] == "-" and r[-3] == "-" for r in rows(text, "Brokers"))


def test_a_malformed_document_prints_nothing() -> None:
    s = cluster_report_summary()
    s["brokers"][2]["leaders"] = "many"
    buf = io.StringIO()
    with pytest.raises(ConfigError, match=re.escape("brokers[2].leaders: expected an integer, "
                                                    "got 'many'")):
        print_summary(s, Console(file=buf, width=200))
    assert buf.getvalue() == ""


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ConfigError, match="^summary.kind: expected 'cluster' or no kind, got 7$"):
        print_summary({"kind": 7}, Console(file=io.StringIO()))


def test_the_terminal_does_not_import_plotly() -> None:
    import subprocess
    import sys

    code = "import sys, kpart.report.terminal; print('plotly' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_piped_output_is_wide_enough_for_the_tables(capsys: pytest.CaptureFixture[str]) -> None:
    print_summary(cluster_report_summary())  # stdout captured: not a terminal
    text = capsys.readouterr().out
    assert "…" not in text  # no header or cell cut to the 80 columns of a pipe
    assert max(len(line) for line in text.splitlines()) <= 160


def test_slow_rates_keep_three_digits() -> None:
    from kpart.report._terminal_cluster import _per_s

    assert [_per_s(x) for x in (None, 0.000833, 0.0261, 9.5, 12345.6)] == \
        ["-", "0.000833", "0.0261", "9.5", "12,346"]
