"""Writing a report directory atomically: ``summary.json`` and Parquet tables.

The directory is built in a temporary sibling (``.<name>.tmp-*``) and renamed into place; an
existing report directory is replaced only once the new one is complete, so a failed run leaves
either the old report or nothing, never a partial one.

Files: ``summary.json`` (:func:`kpart.report.summary.build_summary`), ``partitions.parquet``,
``brokers.parquet``, ``racks.parquet``, ``consumers.parquet`` (one row per group member) and
``hot_keys.parquet`` (written with pyarrow; no Spark).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from kpart.errors import ConfigError

__all__ = ["TABLES", "write_report", "write_tables"]

#: Parquet tables of a report directory.
TABLES = ("partitions", "brokers", "racks", "consumers", "hot_keys")


def _rows(summary: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    partitions = [{k: v for k, v in p.items() if k != "consumers"} for p in summary["partitions"]]
    consumers = [
        {"group": g["group"], "strategy": g["strategy"], **m}
        for g in summary["groups"] for m in g["members"]
    ]
    hot = [{**h, "key": str(h["key"])} for h in summary["hot_keys"]]
    return {
        "partitions": partitions,
        "brokers": summary["brokers"],
        "racks": summary["racks"],
        "consumers": consumers,
        "hot_keys": hot,
    }


_SCHEMAS = {
    "partitions": [("partition", "int32"), ("records", "int64"), ("bytes", "int64"),
                   ("keyed_records", "int64"), ("keyed_bytes", "int64"),
                   ("null_key_records", "int64"), ("null_key_bytes", "int64"),
                   ("keys", "int64"), ("leader", "int32"), ("replicas", "list<int32>")],
    "brokers": [("broker", "int32"), ("rack", "string"), ("leader_partitions", "list<int32>"),
                ("replica_partitions", "list<int32>"), ("leader_records", "int64"),
                ("leader_bytes", "int64"), ("replica_records", "int64"),
                ("replica_bytes", "int64")],
    "racks": [("rack", "string"), ("brokers", "list<int32>"), ("leader_records", "int64"),
              ("leader_bytes", "int64"), ("replica_records", "int64"), ("replica_bytes", "int64")],
    "consumers": [("group", "string"), ("strategy", "string"), ("member", "string"),
                  ("rack", "string"), ("instance_id", "string"), ("partitions", "list<int32>"),
                  ("records", "int64"), ("bytes", "int64")],
    "hot_keys": [("rank", "int32"), ("key", "string"), ("records", "int64"), ("bytes", "int64"),
                 ("partition", "int32"), ("share", "float64")],
}


def _arrow_type(name: str):
    import pyarrow as pa

    if name.startswith("list<"):
        return pa.list_(_arrow_type(name[5:-1]))
    return {"int32": pa.int32(), "int64": pa.int64(), "string": pa.string(),
            "float64": pa.float64()}[name]


def write_tables(summary: dict[str, Any], directory: str | Path) -> list[Path]:
    """Write the summary's tables as ``<directory>/<table>.parquet``; returns the paths."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    written = []
    for name, rows in _rows(summary).items():
        schema = pa.schema([(col, _arrow_type(t)) for col, t in _SCHEMAS[name]])
        columns = {col: [r.get(col) for r in rows] for col in schema.names}
        path = Path(directory) / f"{name}.parquet"
        pq.write_table(pa.table(columns, schema=schema), path)
        written.append(path)
    return written


def write_report(
    summary: dict[str, Any],
    out_dir: str | Path,
    extra: Iterable[Callable[[dict[str, Any], Path], Any]] = (),
) -> Path:
    """Atomically write ``summary.json`` and the Parquet tables to ``out_dir``.

    ``extra``: more writers ``(summary, directory) -> None`` run inside the temporary directory
    (e.g. an HTML page). ``ConfigError`` when ``out_dir``'s parent does not exist or ``out_dir``
    is a file. Returns ``out_dir``.
    """
    out = Path(out_dir)
    parent = out.resolve().parent
    if not parent.is_dir():
        raise ConfigError(f"--out: parent directory {str(parent)!r} does not exist")
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out: {str(out)!r} exists and is not a directory")
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=parent))
    try:
        with (tmp / "summary.json").open("w", encoding="utf-8") as f:
            json.dump(summary, f, indent=2, ensure_ascii=False)
            f.write("\n")
        write_tables(summary, tmp)
        for writer in extra:
            writer(summary, tmp)
        os.chmod(tmp, 0o755)
        if out.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=parent))
            os.replace(out, old / out.name)
            os.replace(tmp, out)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out
