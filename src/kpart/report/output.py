"""Writing a report directory atomically: ``summary.json`` and Parquet tables.

The directory is built in a temporary sibling and moved into place by :func:`kpart._files.write_dir`;
an existing directory is replaced only if it is a previous kpart report (``summary.json`` with
``"format": "kpart-report"``, :func:`is_kpart_report`) holding only files kpart writes, or when
the user forces it, and never when it is the working directory, an input or a parent of either
(:func:`check_report_out`). The old report is removed only once the new one is complete, so a
failed run leaves either the old report or nothing, never a partial one.

Files: ``summary.json`` (:func:`kpart.analysis.summary.build_summary`), ``partitions.parquet``,
``brokers.parquet``, ``racks.parquet``, ``consumers.parquet`` (one row per group member) and
``hot_keys.parquet`` (written with pyarrow; no Spark). A cluster report (``"kind": "cluster"``,
:func:`kpart.analysis.cluster_summary.build_cluster_summary`) has the same tables, one row per
(topic, partition), broker, rack, group member and hot key, plus ``windows.parquet`` (the
per-window loads, :func:`kpart.analysis.cluster_summary.cluster_windows_table`) and
``cluster.json`` (the cluster model, :func:`kpart.cluster.cluster_json.cluster_to_json` of
:func:`kpart.analysis.cluster_model.report_cluster_model`) when given.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kpart._files import check_writable, is_kpart_temp, write_dir
from kpart.errors import ConfigError, Param

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa

    from kpart.cluster.groups import ConsumerGroup
    from kpart.cluster.model import ClusterModel

__all__ = [
    "CLUSTER_REPORT_FILES",
    "REPORT_FILES",
    "REPORT_FORMAT",
    "TABLES",
    "check_report_out",
    "is_kpart_report",
    "write_report",
    "write_tables",
]

#: Parquet tables of a report directory.
TABLES = ("partitions", "brokers", "racks", "consumers", "hot_keys")

#: ``summary.json``'s ``format``: what marks a directory as a report kpart wrote (and may replace).
REPORT_FORMAT = "kpart-report"
REPORT_FORMAT_VERSION = 1

#: Every file kpart writes in a single-topic report directory.
REPORT_FILES = frozenset({"summary.json", "report.html", *(f"{t}.parquet" for t in TABLES)})
#: Every file kpart writes in a cluster report directory; an entry in neither set makes a
#: report directory the user's.
CLUSTER_REPORT_FILES = REPORT_FILES | {"windows.parquet", "cluster.json"}

_TOPIC_PARTITION = "list<topic_partition>"
_CLUSTER_SCHEMAS = {
    "partitions": [("topic", "string"), ("partition", "int32"), ("records", "int64"),
                   ("bytes", "int64"), ("keys", "int64"), ("null_key_records", "int64"),
                   ("leader", "int32"), ("replicas", "list<int32>"),
                   ("bytes_in_per_s", "float64"), ("peak_bytes_in_per_s", "float64"),
                   ("p99_bytes_in_per_s", "float64"), ("records_per_s", "float64"),
                   ("peak_records_per_s", "float64"), ("p99_records_per_s", "float64")],
    "brokers": [("broker", "int32"), ("rack", "string"), ("leaders", "int32"),
                ("replicas", "int32"), ("leader_records", "int64"), ("leader_bytes", "int64"),
                ("replica_records", "int64"), ("replica_bytes", "int64"),
                *((k, "float64") for k in (
                    "disk_bytes", "produce_bytes_in_per_s", "replication_bytes_in_per_s",
                    "consumer_bytes_out_per_s", "replication_bytes_out_per_s",
                    "nw_in_bytes_per_s", "nw_out_bytes_per_s", "peak_bytes_in_per_s",
                    "p99_bytes_in_per_s", "mean_bytes_in_per_s", "peak_nw_in_bytes_per_s",
                    "p99_nw_in_bytes_per_s", "peak_records_per_s", "p99_records_per_s",
                    "mean_records_per_s"))],
    "racks": [("rack", "string"), ("brokers", "list<int32>"), ("leader_records", "int64"),
              ("leader_bytes", "int64"), ("replica_records", "int64"), ("replica_bytes", "int64"),
              ("nw_in_bytes_per_s", "float64"), ("nw_out_bytes_per_s", "float64")],
    "consumers": [("group", "string"), ("strategy", "string"), ("member", "string"),
                  ("rack", "string"), ("instance_id", "string"),
                  ("partitions", _TOPIC_PARTITION), ("records", "int64"), ("bytes", "int64"),
                  ("peak_records_per_s", "float64"), ("p99_records_per_s", "float64"),
                  ("mean_records_per_s", "float64")],
    "hot_keys": [("rank", "int32"), ("topic", "string"), ("key", "string"),
                 ("records", "int64"), ("bytes", "int64"), ("partition", "int32"),
                 ("share", "float64")],
}


def _cluster_rows(summary: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    partitions = [{"topic": t["topic"], **p} for t in summary["topics"] for p in t["partitions"]]
    consumers = [{"group": g["group"], "strategy": g["strategy"], **m}
                 for g in summary["groups"] for m in g["members"]]
    hot = [{**h, "key": str(h["key"])} for h in summary["hot_keys"]]
    return {"partitions": partitions, "brokers": summary["brokers"], "racks": summary["racks"],
            "consumers": consumers, "hot_keys": hot}


_MARKER = re.compile(r'\s*\{\s*"format"\s*:\s*"kpart-report"')


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


def _arrow_type(name: str) -> Any:
    import pyarrow as pa

    if name == _TOPIC_PARTITION:
        return pa.list_(pa.struct([("topic", pa.string()), ("partition", pa.int32())]))
    if name.startswith("list<"):
        return pa.list_(_arrow_type(name[5:-1]))
    return {"int32": pa.int32(), "int64": pa.int64(), "string": pa.string(),
            "float64": pa.float64()}[name]


def write_tables(summary: dict[str, Any], directory: str | Path, *,
                 windows: pa.Table | None = None) -> list[Path]:
    """Write the summary's tables as ``<directory>/<table>.parquet`` (a cluster summary's
    when its ``kind`` is ``"cluster"``) and, when given, ``windows`` as ``windows.parquet``
    (:func:`kpart.analysis.cluster_summary.cluster_windows_table`); returns the paths."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    cluster = summary.get("kind") == "cluster"
    schemas = _CLUSTER_SCHEMAS if cluster else _SCHEMAS
    written = []
    for name, rows in (_cluster_rows(summary) if cluster else _rows(summary)).items():
        schema = pa.schema([(col, _arrow_type(t)) for col, t in schemas[name]])
        columns = {col: [r.get(col) for r in rows] for col in schema.names}
        path = Path(directory) / f"{name}.parquet"
        pq.write_table(pa.table(columns, schema=schema), path)
        written.append(path)
    if windows is not None:
        path = Path(directory) / "windows.parquet"
        pq.write_table(windows, path)
        written.append(path)
    return written


def is_kpart_report(path: str | Path) -> bool:
    """Whether ``path`` is a directory kpart wrote as a report: its ``summary.json`` (a regular
    file) starts with ``{"format": "kpart-report"`` (kpart writes that key first).

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> is_kpart_report(d)
    False
    >>> _ = (d / "summary.json").write_text('{"format": "kpart-report", "format_version": 1}')
    >>> is_kpart_report(d)
    True
    """
    summary = Path(path) / "summary.json"
    if not summary.is_file() or summary.is_symlink():
        return False
    try:
        with summary.open("rb") as f:
            head = f.read(4096).decode("utf-8", errors="replace")
    except OSError:
        return False
    return _MARKER.match(head) is not None


def _inside(path: Path, directory: Path) -> bool:
    return path == directory or directory in path.parents


def _refused(option: str, why: str, shown: str, given: str | None = None) -> ConfigError:
    return ConfigError.naming_value(option, "{param}: refusing to write the report to {shown!r}: "
                                    + why, shown=shown, given=given)


#: ``--out`` suffixes that name a file, not the directory a report is.
FILE_SUFFIXES = (".html", ".htm", ".json", ".parquet", ".csv")


def _warn_file_like(out: str | Path, option: str) -> None:
    """One warning when ``out`` (not an existing directory) ends like a file
    (:data:`FILE_SUFFIXES`): ``--out`` is the report's directory, its files go inside."""
    from kpart._warnings import kpart_warn

    path = Path(out)
    if path.suffix.lower() in FILE_SUFFIXES and not path.is_dir():
        flag = f"--{option.replace('_', '-')}" if isinstance(option, Param) else option
        kpart_warn(f"{flag} {str(out)!r} is a directory, not a file: the report's files "
                   f"(report.html, summary.json, ...) are written inside it, e.g. "
                   f"{str(path / 'report.html')!r}")


def check_report_out(out: str | Path, inputs: Iterable[str | Path] = (), *, force: bool = False,
                     option: str = Param("out"), warn: bool = True) -> None:
    """Check, before any work, that ``out`` may receive a report; ``ConfigError`` (one line
    naming ``out``, or ``option``: the name the caller gives it) otherwise.

    Always refused, even with ``force``: the working directory or any parent of it (``.``,
    ``..``), the directory of an input or any parent of it, an input itself, and a path inside
    an input that is a directory. Refused unless ``force``: an existing directory that is not a
    previous kpart report (:func:`is_kpart_report`), or a report holding files kpart did not
    write (:data:`REPORT_FILES`). Also refused: a missing or unwritable parent, a file. A new
    ``out`` named like a file (:data:`FILE_SUFFIXES`: ``report.html``) gets one
    ``KpartWarning`` (unless ``warn`` is false: the caller checked it already): it is the
    report's directory.

    >>> try:
    ...     check_report_out("..", force=True)
    ... except ConfigError as e:
    ...     print(str(e)[:60])
    out: refusing to write the report to '..': it is the working
    """
    shown = str(out)
    resolved = Path(os.path.realpath(out))
    if _inside(Path.cwd().resolve(), resolved):
        raise _refused(option, "it is the working directory or one of its parents (name a new "
                       "directory)", shown)
    for given in inputs:
        inp = Path(os.path.realpath(given))
        if resolved == inp:
            raise _refused(option, "it is the input", shown)
        if _inside(inp.parent, resolved):
            raise _refused(option, "it holds the input {given!r} (name a new directory)", shown,
                           given=str(given))
        if inp.is_dir() and _inside(resolved, inp):
            raise _refused(option, "it is inside the input directory {given!r}", shown,
                           given=str(given))
    check_writable(out, option, directory=True)
    if warn:  # once nothing refuses it: an error stays one line
        _warn_file_like(out, option)
    if not resolved.is_dir() or force:
        return
    if not is_kpart_report(resolved):
        raise ConfigError.naming_value(option, "{param}: {shown!r} exists and is not a kpart report (no "
                                "summary.json written by kpart): name a new directory, or pass "
                                "{param_force} to replace it", mentions=("force",), shown=shown)
    foreign = sorted(p.name for p in resolved.iterdir()
                     if p.name not in CLUSTER_REPORT_FILES and not is_kpart_temp(p.name))
    if foreign:
        raise ConfigError.naming_value(option, "{param}: {shown!r} is a kpart report but also holds "
                                "{foreign!r}, which kpart did not write: move it away, or pass "
                                "{param_force} to replace the directory", mentions=("force",),
                                shown=shown, foreign=foreign[0])


def _write_cluster_json(model: ClusterModel, directory: Path,
                        groups: Iterable[ConsumerGroup] | None = None) -> None:
    """``cluster.json`` of ``model`` (and ``groups``) in ``directory`` (the report's temporary
    directory)."""
    from kpart.cluster.cluster_json import cluster_to_json

    with (directory / "cluster.json").open("w", encoding="utf-8") as f:
        json.dump(cluster_to_json(model, groups), f, separators=(",", ":"), ensure_ascii=False,
                  allow_nan=False)
        f.write("\n")


def write_report(
    summary: dict[str, Any],
    out_dir: str | Path,
    extra: Iterable[Callable[[dict[str, Any], Path], Any]] = (),
    *,
    force: bool = False,
    inputs: Iterable[str | Path] = (),
    windows: pa.Table | None = None,
    cluster: ClusterModel | None = None,
    groups: Iterable[ConsumerGroup] | None = None,
) -> Path:
    """Atomically write ``summary.json`` and the Parquet tables to ``out_dir``.

    ``extra``: more writers ``(summary, directory) -> None`` run inside the temporary directory
    (e.g. an HTML page). A cluster report also passes ``windows`` (written as
    ``windows.parquet`` by :func:`write_tables`) and ``cluster``, the model written as
    ``cluster.json`` (:func:`kpart.cluster.cluster_json.cluster_to_json`, what ``kpart plan
    --snapshot`` reads), with its consumer ``groups`` when given (``kpart snapshot-group``
    reads them). ``out_dir`` is checked by :func:`check_report_out` (``inputs``,
    ``force``; its warning about a name like a file is the caller's): an existing directory is replaced only if it is a previous kpart report (or
    ``force``), once the new report is complete. ``ConfigError`` naming ``out_dir`` when it may
    not be written. Returns ``out_dir``.
    """
    inputs = tuple(inputs)
    check_report_out(out_dir, inputs, force=force, option=Param("out_dir"), warn=False)
    # the marker first, where is_kpart_report looks for it
    doc = {"format": REPORT_FORMAT, "format_version": REPORT_FORMAT_VERSION, **summary}

    def fill(tmp: Path) -> None:
        with (tmp / "summary.json").open("w", encoding="utf-8") as f:
            if doc.get("kind") == "cluster":  # its heat map: compact, C-encoded (8x faster)
                f.write(json.dumps(doc, separators=(",", ":"), ensure_ascii=False))
            else:
                json.dump(doc, f, indent=2, ensure_ascii=False)
            f.write("\n")
        write_tables(summary, tmp, windows=windows)
        if cluster is not None:
            _write_cluster_json(cluster, tmp, groups)
        for writer in extra:
            writer(summary, tmp)

    return write_dir(out_dir, fill, Param("out_dir"), replace=lambda _: True)  # checked above
