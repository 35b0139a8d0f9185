"""A small cluster of two topics for the cluster-report tests: a topology (``TOPOLOGY``) and
its datasets (``clicks.csv`` with ISO 8601 timestamps, one empty and one absent key;
``stock.json`` with zone-less timestamps), written by :func:`write_cluster`."""

from __future__ import annotations

import json
from pathlib import Path

TOPOLOGY = """\
window = "1m"

[cluster]
brokers = [{ id = 1, rack = "a" }, { id = 2, rack = "b" }, { id = 3, rack = "c" }]

[[topics]]
name = "clicks"
data = "clicks.csv"
key = "user"
timestamp = "ts"
partitions = 4
replication_factor = 2
placement_seed = 11

[[topics]]
name = "stock"
data = "stock.json"
key = "sku"
timestamp = "ts"
partitions = 3
replication_factor = 3
placement_seed = 12

[[groups]]
name = "both"
strategy = "cooperative-sticky"
topics = ["clicks", "stock"]
members = [{ id = "m1" }, { id = "m2" }]

[[groups]]
name = "audit"
strategy = "range"
topics = ["stock"]
members = ["a1"]
"""


def _clicks(n: int = 240) -> str:
    rows = ["user,ts,page"]
    for i in range(n):  # 4 minutes of clicks, u0 the hot user; one empty key, one absent
        user = {7: '""', 8: ""}.get(i, f"u{0 if i % 3 == 0 else i % 17}")
        rows.append(f"{user},2024-05-01T10:0{i * 4 // n}:{i % 60:02d}Z,/p{i % 5}")
    return "\n".join(rows) + "\n"


def _stock(n: int = 90) -> str:
    return "".join(json.dumps({"sku": f"s{i % 7}", "ts": f"2024-05-01 10:0{i % 3}:00",
                               "qty": i}) + "\n" for i in range(n))


def write_cluster(directory: Path) -> Path:
    """Write ``cluster.toml``, ``clicks.csv`` and ``stock.json`` into ``directory``; returns the
    topology's path."""
    (directory / "clicks.csv").write_text(_clicks())
    (directory / "stock.json").write_text(_stock())
    (directory / "cluster.toml").write_text(TOPOLOGY)
    return directory / "cluster.toml"
