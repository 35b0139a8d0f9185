"""Per-partition loads from a rates CSV or from ``kpart report``'s output.

What Cruise Control's ``PartitionMetricSample`` holds per partition (``LEADER_BYTES_IN``,
``LEADER_BYTES_OUT``, ``MESSAGE_IN_RATE``), from files an operator exports from any metrics
system:

**Rates CSV**, one row per partition, the header naming the columns (any order)::

    topic,partition,bytes_in_per_s,bytes_out_per_s,messages_in_per_s
    orders,0,1048576,2097152,1200

``bytes_in_per_s``: bytes/s produced to the partition (Kafka's ``BytesInPerSec``);
``bytes_out_per_s``: bytes/s consumers fetch from it (``BytesOutPerSec``, without replication);
``messages_in_per_s``: records/s produced (``MessagesInPerSec``). An empty cell is unknown.
Lines before the header (a banner) and blank lines are skipped; every cell is read as text and
converted here (no type guessing): a number is a plain decimal (``12``, ``1.5e6``), ≥ 0.
``messages_in_per_s`` becomes the model's ``messages_in_per_s`` (records/s; its ``messages``
is a count of records).

**kpart report output** (a report directory or its ``summary.json``): one topic, per partition
``records`` and ``bytes`` counted over the analysed data set. It has no time base, so no rate:
``records`` becomes the partition's ``messages`` and ``bytes`` (serialized key + value, without
Kafka's record overhead or compression) its ``size_bytes`` — an estimate of size on disk that
measured sizes (``kafka-log-dirs`` JSON) replace when both are given. A cluster report (several
topics, ``"kind": "cluster"``) gives every topic's partitions; with a timestamp column it has a
time base, and each partition's mean ``bytes_in_per_s`` is taken too.

Errors: :class:`~kpart.errors.ConfigError` naming the line and column (or the field), e.g.
``line 7, column bytes_in_per_s: invalid number '12,5'``; a negative rate; a partition listed
twice.

>>> loads = parse_rates_csv("topic,partition,bytes_in_per_s,bytes_out_per_s,messages_in_per_s\\n"
...                         "t,0,100,250.5,\\n")
>>> loads.topics, loads.partition.tolist(), loads.columns["bytes_out_per_s"].tolist()
(('t',), [0], [250.5])
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pyarrow import csv as pa_csv

from kpart.errors import ConfigError

__all__ = ["RATE_COLUMNS", "PartitionLoads", "parse_rates_csv", "parse_report_loads"]

#: The rates CSV's columns, in the documented order.
RATE_COLUMNS = ("topic", "partition", "bytes_in_per_s", "bytes_out_per_s", "messages_in_per_s")
#: The largest rate taken (2^63 - 1, a Java long: a metric beyond it is a typo; sums of such
#: rates over millions of partitions stay finite).
MAX_RATE = float(2**63 - 1)
_NUMBER = re.compile(r"[+]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_NEGATIVE = re.compile(r"-(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


@dataclass(frozen=True, eq=False)
class PartitionLoads:
    """Loads of some partitions, one row each: ``topics`` (per row, the topic name),
    ``partition`` (int64, shape ``(N,)``), ``columns`` (``{name: float64 (N,)}``, ``NaN`` =
    unknown; names among :data:`kpart.cluster.LOADS` are applied to the model, others kept
    for reference), ``where`` (per row, how an error names it: ``"line 7"``) and ``source``
    (the kind of file, for messages)."""

    topics: tuple[str, ...]
    partition: np.ndarray
    columns: Mapping[str, np.ndarray]
    where: tuple[str, ...]
    source: str


def _number(cell: str, line: int, column: str) -> float:
    cell = cell.strip()
    if not cell:
        return math.nan
    if _NUMBER.fullmatch(cell):
        value = float(cell)
        if value <= MAX_RATE:
            return value
        raise ConfigError(f"rates CSV line {line}, column {column}: rate {cell!r:.40} is above "
                          "2^63 - 1 (a Java long)")
    if _NEGATIVE.fullmatch(cell):
        raise ConfigError(f"rates CSV line {line}, column {column}: negative rate {cell!r}: "
                          "must be >= 0")
    raise ConfigError(f"rates CSV line {line}, column {column}: invalid number {cell!r:.40}")


def _header(row: list[str]) -> dict[str, int] | None:
    cells = [c.strip().lower() for c in row]
    if "topic" not in cells or "partition" not in cells:
        return None
    return {c: i for i, c in enumerate(cells)}


#: What the fast path takes whole (anything else goes to :func:`_parse_rows`, which converts
#: it or names it): a Kafka topic name (legal characters only), a partition of digits, a
#: plain decimal or nothing; spaces or tabs around each.
_FAST_CELLS = {"topic": r"^[ \t]*[A-Za-z0-9._-]+[ \t]*$",
               "partition": r"^[ \t]*[0-9]{1,10}[ \t]*$",
               "number": r"^[ \t]*(?:[+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)?"
                         r"[ \t]*$"}


def parse_rates_csv(text: str) -> PartitionLoads:
    """Parse a rates CSV (see the module docstring). Errors: :class:`ConfigError` naming the
    line and column. Shapes: one row per partition; 930,000 rows in about 1.4 s (a file
    :func:`_fast_rows` does not take whole — quotes, ``\\r``, blank or banner lines, a cell
    it does not recognise — goes through the row-by-row reader, about 9 s;
    ``benchmarks/bench_rates_csv.py``)."""
    try:
        return _fast_rows(text) or _parse_rows(text)
    finally:  # Arrow's allocator keeps what the reader freed (about 170 MB here) for reuse:
        pa.default_memory_pool().release_unused()  # back to the system before planning


def _fast_rows(text: str) -> PartitionLoads | None:
    """:func:`_parse_rows`'s result for a plain file (the header on the first line, no blank
    line after it, no quotes, ``\\n`` line ends, every cell as :data:`_FAST_CELLS` takes),
    read by Arrow's CSV reader with every column as text (no type inferred) and checked and
    converted column by column; ``None`` for any other file, including every file
    :func:`_parse_rows` refuses (it then names the line)."""
    if '"' in text or "\r" in text or "\x00" in text:
        return None
    head = text.partition("\n")[0].split(",")
    index = _header(head)
    if index is None or set(index) != set(RATE_COLUMNS) or len(head) != len(RATE_COLUMNS):
        return None  # a banner line, or a header _parse_rows names the fault of
    names = [f"c{i}" for i in range(len(head))]
    try:
        table = pa_csv.read_csv(
            io.BytesIO(text.encode()),
            read_options=pa_csv.ReadOptions(column_names=names, skip_rows=1, use_threads=False),
            parse_options=pa_csv.ParseOptions(quote_char=False, ignore_empty_lines=False),
            convert_options=pa_csv.ConvertOptions(
                column_types=dict.fromkeys(names, pa.string()), strings_can_be_null=False))
    except (pa.ArrowInvalid, UnicodeEncodeError):  # a blank line, a row of another length
        return None
    if table.num_rows == 0:
        return None
    cells = {c: pc.utf8_trim(table.column(names[i]), " \t") for c, i in index.items()}
    for column, i in index.items():
        pattern = _FAST_CELLS.get(column, _FAST_CELLS["number"])
        if not pc.all(pc.match_substring_regex(table.column(names[i]), pattern)).as_py():
            return None
    partition = pc.cast(cells["partition"], pa.int64()).to_numpy()
    if (partition >= 2**31).any():
        return None
    values: dict[str, np.ndarray] = {}
    for column in RATE_COLUMNS[2:]:
        blank = pc.equal(cells[column], "")
        v = pc.cast(pc.if_else(blank, None, cells[column]), pa.float64())
        values[column] = pc.fill_null(v, math.nan).to_numpy()
        if (values[column] > MAX_RATE).any():
            return None  # _parse_rows names it
    code = pc.dictionary_encode(cells["topic"]).combine_chunks().indices
    keys = np.sort(pc.cast(code, pa.int64()).to_numpy() << 31 | partition)
    if (keys[1:] == keys[:-1]).any():
        return None  # a partition listed twice: _parse_rows names both lines
    return PartitionLoads(tuple(cells["topic"].to_pylist()), partition, values,
                          tuple(f"line {n}" for n in range(2, table.num_rows + 2)), "rates CSV")


def _parse_rows(text: str) -> PartitionLoads:
    """:func:`parse_rates_csv`, row by row through :mod:`csv`."""
    reader = csv.reader(io.StringIO(text))
    index: dict[str, int] | None = None
    topics: list[str] = []
    partitions: list[int] = []
    lines: list[int] = []
    values: dict[str, list[float]] = {c: [] for c in RATE_COLUMNS[2:]}
    seen: dict[tuple[str, int], int] = {}
    for row in reader:
        line = reader.line_num
        if not any(c.strip() for c in row):
            continue
        if index is None:
            index = _header(row)
            if index is not None:
                unknown = [c for c in index if c not in RATE_COLUMNS]
                missing = [c for c in RATE_COLUMNS if c not in index]
                why = (f"unknown column {unknown[0]!r}" if unknown else
                       f"missing column {missing[0]!r}" if missing else
                       "a column twice" if len(index) != len(row) else "")
                if why:
                    raise ConfigError(f"rates CSV line {line}: expected the header "
                                      f"{','.join(RATE_COLUMNS)} ({why})")
            continue
        if len(row) != len(index):
            raise ConfigError(f"rates CSV line {line}: expected {len(index)} cells, got {len(row)}")
        topic = row[index["topic"]].strip()
        part = row[index["partition"]].strip()
        if not topic:
            raise ConfigError(f"rates CSV line {line}, column topic: empty topic name")
        if not (part.isascii() and part.isdigit()) or int(part) >= 2**31:
            raise ConfigError(f"rates CSV line {line}, column partition: invalid partition "
                              f"{part!r:.40}")
        key = (topic, int(part))
        if key in seen:
            raise ConfigError(f"rates CSV line {line}: partition {topic}-{part} is listed twice "
                              f"(first on line {seen[key]})")
        seen[key] = line
        topics.append(topic)
        partitions.append(key[1])
        lines.append(line)
        for column, out in values.items():
            out.append(_number(row[index[column]], line, column))
    if index is None:
        raise ConfigError(f"rates CSV: no header line {','.join(RATE_COLUMNS)} found")
    return PartitionLoads(
        tuple(topics), np.array(partitions, dtype=np.int64),
        {c: np.array(v, dtype=np.float64) for c, v in values.items()},
        tuple(f"line {n}" for n in lines), "rates CSV",
    )


def _count(value: object, where: str) -> float:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ConfigError(f"kpart report {where}: expected a count >= 0, got {value!r:.40}")
    return float(value)


def _rate(value: object, where: str) -> float:
    if (not isinstance(value, int | float) or isinstance(value, bool)
            or not 0 <= value <= MAX_RATE):
        raise ConfigError(f"kpart report {where}: expected a rate >= 0, got {value!r:.40}")
    return float(value)


def parse_report_loads(text: str) -> PartitionLoads:
    """The per-partition loads of a ``kpart report`` ``summary.json`` (see the module
    docstring for the mapping: ``records`` → ``messages``, ``bytes`` → ``size_bytes``; no
    rates). A cluster report (``"kind": "cluster"``, several topics) gives every topic's
    partitions, and with a timestamp column their mean ``bytes_in_per_s`` too. Errors:
    :class:`ConfigError` naming the field.

    >>> doc = {"format": "kpart-report", "kind": "cluster", "topics": [
    ...     {"topic": "a", "partitions": [{"partition": 0, "records": 2, "bytes": 20,
    ...                                     "bytes_in_per_s": 0.5}]},
    ...     {"topic": "b", "partitions": [{"partition": 0, "records": 1, "bytes": 9,
    ...                                     "bytes_in_per_s": None}]}]}
    >>> loads = parse_report_loads(json.dumps(doc))
    >>> loads.topics, loads.columns["size_bytes"].tolist(), loads.where
    (('a', 'b'), [20.0, 9.0], ('topics[0].partitions[0]', 'topics[1].partitions[0]'))
    >>> loads.columns["bytes_in_per_s"].tolist()
    [0.5, nan]
    """
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(f"Malformed kpart report summary.json: {e.msg} at line {e.lineno} "
                          f"column {e.colno}") from None
    if not isinstance(doc, Mapping) or doc.get("format") != "kpart-report":
        raise ConfigError("Not a kpart report: summary.json has no \"format\": \"kpart-report\"")
    if doc.get("kind") == "cluster":
        entries = doc.get("topics")
        if not isinstance(entries, list):
            raise ConfigError("kpart report topics: expected a list")
        parts = [_report_topic(t, f"topics[{i}].") for i, t in enumerate(entries)]
    else:
        parts = [_report_topic(doc, "")]
    rows = [r for part in parts for r in part]
    columns = {"messages": np.array([r[2] for r in rows], dtype=np.float64),
               "size_bytes": np.array([r[3] for r in rows], dtype=np.float64)}
    if doc.get("kind") == "cluster":
        columns["bytes_in_per_s"] = np.array([r[4] for r in rows], dtype=np.float64)
    return PartitionLoads(
        tuple(r[0] for r in rows), np.array([r[1] for r in rows], dtype=np.int64), columns,
        tuple(r[5] for r in rows), "kpart report",
    )


def _report_topic(doc: object, prefix: str) -> list[tuple[str, int, float, float, float, str]]:
    """One topic of a report summary: ``(topic, partition, records, bytes, bytes_in_per_s,
    where)`` per partition (``NaN`` = unknown)."""
    if not isinstance(doc, Mapping):
        raise ConfigError(f"kpart report {prefix.rstrip('.')}: expected an object")
    topic = doc.get("topic")
    rows = doc.get("partitions")
    if not isinstance(topic, str) or not topic:
        raise ConfigError(f"kpart report {prefix}topic: expected a topic name")
    if not isinstance(rows, list):
        raise ConfigError(f"kpart report {prefix}partitions: expected a list")
    out: list[tuple[str, int, float, float, float, str]] = []
    seen: set[int] = set()
    for i, row in enumerate(rows):
        where = f"{prefix}partitions[{i}]"
        if not isinstance(row, Mapping):
            raise ConfigError(f"kpart report {where}: expected an object")
        p = row.get("partition")
        if not isinstance(p, int) or isinstance(p, bool) or p < 0 or p in seen:
            raise ConfigError(f"kpart report {where}.partition: invalid or repeated partition "
                              f"{p!r:.40}")
        seen.add(p)
        size, rate = row.get("bytes"), row.get("bytes_in_per_s")
        out.append((topic, p, _count(row.get("records"), f"{where}.records"),
                    math.nan if size is None else _count(size, f"{where}.bytes"),
                    math.nan if rate is None else _rate(rate, f"{where}.bytes_in_per_s"),
                    where))
    return out
