"""A topic's timestamp column as epoch milliseconds, and the window grid of the load over time
(issue 14, point 3): the type rules checked before Spark (:func:`timestamp_kind`,
:func:`iso_problem`), the Spark column (:func:`timestamp_ms_column`) and the limits of the grid
(:func:`check_window_grid`).

Usable timestamp types:

==========================  ===============================================================
Spark type                  epoch milliseconds
==========================  ===============================================================
``timestamp``               the instant (``unix_millis``)
``timestamp_ntz``           the wall-clock time read as UTC
``date``                    midnight UTC of the day
``tinyint`` … ``bigint``    epoch time in the topic's ``timestamp_unit`` (``s``, ``ms``,
                            ``us``, ``ns``; default ``ms``), floored to milliseconds
``string``                  ISO 8601 text: ``2013-01-01T10:00:00Z``, ``2013-01-01 10:00:00``
                            (no zone: UTC), ``2013-01-01T10:00:00.5+02:00``, ``2013-01-01``,
                            or an integer (``1714557600000``: epoch time in the
                            ``timestamp_unit``, as a CSV holds it); every value is checked in
                            the job: text that does not parse is an error naming the topic,
                            the column and the value, never null
==========================  ===============================================================

The unit is never guessed: an integer timestamp that, read in the unit, falls before 1971 or
after 2200 (:data:`EPOCH_RANGE_MS`; epoch seconds read as milliseconds are January 1970) is
refused naming the value and the unit it would make sense in (:func:`epoch_problem`), from the
first values before Spark starts and from every value's minimum and maximum before the job
(:func:`epoch_range_columns`).

Anything else (boolean, floating point, decimal, structs, ...) is refused before Spark. A null
timestamp leaves the record out of every window (counted as untimed). Window ``k`` of a topic is
``[k * window_ms, (k + 1) * window_ms)`` with ``k = floor(ms / window_ms)``
(:mod:`kpart.analysis.cluster_loads`).

>>> timestamp_kind("timestamp[us, tz=UTC]"), timestamp_kind("bigint"), timestamp_kind("boolean")
('timestamp', 'epoch_ms', None)
>>> iso_problem("2013-01-01T10:00:00Z") is None, iso_problem("01/02/2013")
(True, "'01/02/2013' is not ISO 8601 text (e.g. 2013-01-01T10:00:00Z)")
>>> format_duration(3_600_000), format_duration(90_000), format_duration(1_500)
('1h', '90s', '1500ms')
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from kpart.errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import Column, DataFrame

__all__ = [
    "EPOCH_RANGE_MS",
    "MAX_WINDOWS",
    "MAX_WINDOW_CELLS",
    "TIMESTAMP_UNITS",
    "check_common_grid",
    "check_timestamp_type",
    "check_timestamp_unit",
    "check_timestamp_values",
    "check_window_grid",
    "epoch_ms",
    "epoch_problem",
    "format_duration",
    "iso_ms",
    "iso_problem",
    "text_timestamp_problem",
    "timestamp_errors_as_config_errors",
    "timestamp_kind",
    "timestamp_ms_column",
    "timestamp_range",
]

#: Most windows one topic may have (``W``): past it, pass a longer ``--window``.
MAX_WINDOWS = 1_000_000
#: Most (partition, window) cells one topic may have (``P × W``, int64 records and bytes each:
#: 320 MB on the driver at the limit).
MAX_WINDOW_CELLS = 20_000_000

_ZONE = r"(Z|[+-][0-9]{2}:[0-9]{2})"
_ISO = (r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
        r"([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,9})?)?" + _ZONE + "?)?")
#: Java regex of the ISO 8601 text taken (``\z``: end of the text).
ISO_PATTERN = f"^{_ISO}\\z"
#: Java regex of ISO 8601 text carrying a zone (read as an instant; without: UTC wall clock).
ZONED_PATTERN = f"{_ZONE}\\z"
_INTEGRAL = ("tinyint", "smallint", "int", "bigint")
EXPECTED = "expected a timestamp, a date, an integer (epoch milliseconds) or ISO 8601 text"
#: ``timestamp_unit`` values: the unit of integer timestamps → (multiplier, divisor) to
#: milliseconds (floored).
TIMESTAMP_UNITS: dict[str, tuple[int, int]] = {
    "s": (1000, 1), "ms": (1, 1), "us": (1, 1000), "ns": (1, 1_000_000)}
_UNIT_NAMES = {"s": "seconds", "ms": "milliseconds", "us": "microseconds", "ns": "nanoseconds"}
#: Integer timestamps must fall in [1971-01-01, 2200-01-01) once read in their unit, in epoch
#: milliseconds: outside, the unit is wrong (seconds read as milliseconds land in January 1970;
#: nanoseconds read as milliseconds, millions of years ahead).
EPOCH_RANGE_MS = (31_536_000_000, 7_258_118_400_000)
_INTEGER_TEXT = r"[+-]?[0-9]{1,19}"
#: Java regex of integer text (epoch time in the unit).
INTEGER_PATTERN = f"^{_INTEGER_TEXT}\\z"


def check_timestamp_unit(unit: object, where: str = "timestamp_unit") -> str:
    """``unit`` when it is one of :data:`TIMESTAMP_UNITS` (``s``, ``ms``, ``us``, ``ns``),
    else ``ConfigError`` naming ``where``.

    >>> check_timestamp_unit("sec", "--timestamp-unit")
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: --timestamp-unit: expected one of s, ms, us, ns, got 'sec'
    """
    if not isinstance(unit, str) or unit not in TIMESTAMP_UNITS:
        raise ConfigError.naming_value(where, "{param}: expected one of {known}, got {value!r}",
                                       known=", ".join(TIMESTAMP_UNITS), value=unit)
    return unit


def epoch_ms(value: int, unit: str) -> int:
    """Epoch milliseconds of the integer timestamp ``value`` in ``unit`` (floored).

    >>> epoch_ms(1_700_000_000, "s"), epoch_ms(-1, "us"), epoch_ms(1_500_000_999, "ns")
    (1700000000000, -1, 1500)
    """
    times, div = TIMESTAMP_UNITS[unit]
    return value * times // div


def epoch_problem(value: int, unit: str) -> str | None:
    """Why the integer timestamp ``value`` cannot be epoch time in ``unit`` (before 1971 or
    after 2200 once read so: :data:`EPOCH_RANGE_MS`), naming the units it would make sense in;
    ``None`` when it can.

    >>> print(epoch_problem(1_700_000_000, "ms"))
    1700000000 read as epoch milliseconds is 1970-01-20T16:13:20Z, before 1971 (not a time \
kpart guesses: if the values are epoch seconds, set timestamp_unit = "s", --timestamp-unit s)
    >>> print(epoch_problem(7200, "s"))
    7200 read as epoch seconds is 1970-01-01T02:00:00Z, before 1971 (not a time kpart \
guesses: it is epoch time in no unit (s, ms, us, ns) between 1971 and 2200)
    >>> epoch_problem(1_700_000_000_000, "ms") is None
    True
    """
    ms = epoch_ms(value, unit)
    lo, hi = EPOCH_RANGE_MS
    if lo <= ms < hi:
        return None
    fits = [u for u in TIMESTAMP_UNITS if lo <= epoch_ms(value, u) < hi]
    when = "before 1971" if ms < lo else "after 2200"
    shown = _iso(ms) if -62_135_596_800_000 <= ms < 253_402_300_800_000 else f"{ms:,} ms"
    hint = (f"if the values are epoch {_UNIT_NAMES[fits[0]]}, set timestamp_unit = "
            f"\"{fits[0]}\", --timestamp-unit {fits[0]}" if fits else
            "it is epoch time in no unit (s, ms, us, ns) between 1971 and 2200")
    return (f"{value} read as epoch {_UNIT_NAMES[unit]} is {shown}, {when} (not a time kpart "
            f"guesses: {hint})")


def timestamp_kind(dtype: str) -> str | None:
    """How a column of type ``dtype`` becomes epoch milliseconds: ``"timestamp"``,
    ``"timestamp_ntz"``, ``"date"``, ``"epoch_ms"`` or ``"iso_text"``; ``None`` when it cannot.
    ``dtype``: a Spark type name, or an Arrow type as :mod:`kpart.spark.datasets` names a
    Parquet column it does not map (``timestamp[us, tz=UTC]``, ``date32[day]``)."""
    if dtype in ("timestamp", "timestamp_ltz") or (dtype.startswith("timestamp[")
                                                   and "tz=" in dtype):
        return "timestamp"
    if dtype == "timestamp_ntz" or dtype.startswith("timestamp["):
        return "timestamp_ntz"
    if dtype == "date" or dtype.startswith(("date32", "date64")):
        return "date"
    if dtype in _INTEGRAL:
        return "epoch_ms"
    if dtype == "string":
        return "iso_text"
    return None


def check_timestamp_type(where: str, column: str, dtype: str) -> str:
    """:func:`timestamp_kind` of ``dtype``, or ``ConfigError`` ``<where>: column 'ts' is boolean,
    expected a timestamp, a date, an integer (epoch milliseconds) or ISO 8601 text``.

    >>> check_timestamp_type("topics[0] (clicks).timestamp", "ts", "bool")
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: topics[0] (clicks).timestamp: column 'ts' is boolean, expected \
a timestamp, a date, an integer (epoch milliseconds) or ISO 8601 text
    """
    kind = timestamp_kind(dtype)
    if kind is None:
        shown = {"bool": "boolean"}.get(dtype, dtype)
        raise ConfigError.naming_value(where, "{param}: column {column!r} is {dtype}, " + EXPECTED,
                                       column=column, dtype=shown)
    return kind


def iso_problem(value: object) -> str | None:
    """Why ``value`` (a text timestamp as read) is not ISO 8601 text the job takes, or
    ``None`` (a ``None`` value is a null timestamp: fine)."""
    if value is None:
        return None
    if isinstance(value, str) and re.fullmatch(_ISO, value):
        try:
            iso_ms(value)
            return None
        except ValueError:
            pass
    return f"{value!r} is not ISO 8601 text (e.g. 2013-01-01T10:00:00Z)"


def iso_ms(text: str) -> int:
    """Epoch milliseconds of ISO 8601 ``text`` as the job reads it (no zone: UTC); the Python
    reference of :func:`timestamp_ms_column`. ``ValueError`` when it does not parse.

    >>> iso_ms("1970-01-01T00:00:01.5Z"), iso_ms("1970-01-02"), iso_ms("1970-01-01 02:00+02:00")
    (1500, 86400000, 0)
    """
    text = re.sub(r"(\.[0-9]{6})[0-9]+", r"\1", text)  # Python parses at most microseconds
    t = datetime.fromisoformat(text)
    if t.tzinfo is None:
        t = t.replace(tzinfo=UTC)
    return (t - datetime(1970, 1, 1, tzinfo=UTC)) // _MS


_MS = datetime(1970, 1, 1, 0, 0, 0, 1000, UTC) - datetime(1970, 1, 1, tzinfo=UTC)


def _bad_text_message(where: str, column: str) -> str:
    return f"{where}: column {column!r}: "


def text_timestamp_problem(value: object, unit: str = "ms") -> str | None:
    """Why ``value`` (a text timestamp as read: a CSV field, a JSON string) is neither ISO 8601
    text nor an integer that is epoch time in ``unit`` (:func:`epoch_problem`); ``None`` when
    the job takes it (a ``None`` value is a null timestamp: fine).

    >>> text_timestamp_problem("1714557600000"), text_timestamp_problem("2024-05-01")
    (None, None)
    >>> print(text_timestamp_problem("1714557600"))
    1714557600 read as epoch milliseconds is 1970-01-20T20:15:57Z, before 1971 (not a time kpart \
guesses: if the values are epoch seconds, set timestamp_unit = "s", --timestamp-unit s)
    """
    if isinstance(value, str) and re.fullmatch(_INTEGER_TEXT, value):
        return epoch_problem(int(value), unit)
    return iso_problem(value)


def check_timestamp_values(where: str, column: str, kind: str, values: Sequence[object],
                           unit: str | None = None, *, path: str = "") -> None:
    """The checks before Spark of a timestamp ``column`` of ``kind`` (:func:`timestamp_kind`)
    whose first ``values`` (as :func:`kpart.spark.datasets.sample_keys` reads them) are given:
    integers (or integer text) must be epoch time in ``unit`` (``None``: ``ms``;
    :func:`epoch_problem`), text must be ISO 8601 or an integer; a ``unit`` is refused for a
    column that holds no integers (a timestamp or a date). ``ConfigError`` naming ``where`` (the
    field, ``topics[0] (clicks).timestamp``; its ``_unit`` sibling for the unit), the column,
    the record and ``path``.

    >>> check_timestamp_values("topics[0] (t).timestamp", "ts", "epoch_ms", [1_700_000_000_000,
    ...                        1_700_000_000], path="t.json")
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: topics[0] (t).timestamp: column 'ts', record 2 of 't.json': \
1700000000 read as epoch milliseconds is 1970-01-20T16:13:20Z, before 1971 (not a time kpart \
guesses: if the values are epoch seconds, set timestamp_unit = "s", --timestamp-unit s)
    >>> check_timestamp_values("topics[0] (t).timestamp", "ts", "timestamp", [], "s")
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: topics[0] (t).timestamp_unit: 's' is the unit of integer \
timestamps; column 'ts' is a timestamp (give it no timestamp_unit, --timestamp-unit)
    """
    if unit is not None and kind in ("timestamp", "timestamp_ntz", "date"):
        raise ConfigError.naming_value(
            f"{where}_unit", "{param}: {unit!r} is the unit of integer timestamps; column "
            "{column!r} is a {kind} (give it no timestamp_unit, --timestamp-unit)", unit=unit,
            column=column,
            kind="date" if kind == "date" else "timestamp")
    unit = check_timestamp_unit(unit or "ms", f"{where}_unit")
    for i, value in enumerate(values):
        problem = None
        if kind == "iso_text":
            problem = text_timestamp_problem(value, unit)
        elif kind == "epoch_ms" and value is not None:
            try:
                problem = epoch_problem(int(str(value)), unit)
            except ValueError:
                problem = None  # not an integer: Spark's inferred type decides, in the job
        if problem is not None:
            raise ConfigError.naming_value(where, "{param}: column {column!r}, record {record} "
                                           "of {path!r}: {problem}", column=column, record=i + 1,
                                           path=path, problem=problem)


def timestamp_ms_column(col: Column, kind: str, *, where: str, column: str,
                        unit: str = "ms") -> Column:
    """Epoch milliseconds (``bigint``, null for a null) of ``col``, a column of ``kind``
    (:func:`timestamp_kind`); integers (``epoch_ms``, or integer text under ``iso_text``) are
    epoch time in ``unit`` (:data:`TIMESTAMP_UNITS`, floored to milliseconds). ``iso_text``: a
    non-null value that is not ISO 8601 or an integer fails the job with ``<where>: column
    '<column>': '<value>' is not ISO 8601 text ...``; an integer outside
    :data:`EPOCH_RANGE_MS` in ``unit`` fails it naming the value
    (:func:`timestamp_errors_as_config_errors` makes either a ``ConfigError``;
    :func:`timestamp_range` finds them first, with the unit they would make sense in)."""
    from pyspark.sql import functions as F

    if kind == "timestamp":
        return F.unix_millis(col)
    if kind == "timestamp_ntz":
        return _ntz_ms(col)
    if kind == "date":
        return F.unix_date(col).cast("bigint") * F.lit(86_400_000)
    if kind == "epoch_ms":
        return _epoch_ms_column(col.cast("bigint"), unit, where, column)
    integer = col.rlike(INTEGER_PATTERN)
    ms = F.when(integer, _epoch_ms_column(col.try_cast("bigint"), unit, where, column)
                ).otherwise(_iso_ms_column(col))
    bad = col.isNotNull() & ms.isNull()
    message = F.concat(F.lit(_bad_text_message(where, column) + "'"), col,
                       F.lit("' is not ISO 8601 text (e.g. 2013-01-01T10:00:00Z)"))
    return F.when(bad, F.raise_error(message).cast("bigint")).otherwise(ms)


def _iso_ms_column(col: Column) -> Column:
    """Epoch milliseconds of ISO 8601 text (null for other text)."""
    from pyspark.sql import functions as F

    zoned = F.unix_millis(col.try_cast("timestamp"))
    wall = _ntz_ms(col.try_cast("timestamp_ntz"))
    return F.when(~col.rlike(ISO_PATTERN), F.lit(None).cast("bigint")).when(
        col.rlike(ZONED_PATTERN), zoned).otherwise(wall)


def _raw_bounds(unit: str) -> tuple[int, int]:
    """:data:`EPOCH_RANGE_MS` as integers in ``unit``: ``lo <= raw <= hi`` exactly when
    ``lo_ms <= epoch_ms(raw) < hi_ms``."""
    times, div = TIMESTAMP_UNITS[unit]
    lo_ms, hi_ms = EPOCH_RANGE_MS
    return -(-lo_ms * div // times), -(-hi_ms * div // times) - 1


def _epoch_ms_column(raw: Column, unit: str, where: str, column: str) -> Column:
    """Epoch milliseconds of the integers ``raw`` in ``unit`` (exact, floored); a value outside
    :data:`EPOCH_RANGE_MS` fails the job naming it (never multiplied: no overflow)."""
    from pyspark.sql import functions as F

    times, div = TIMESTAMP_UNITS[unit]
    lo, hi = _raw_bounds(unit)
    if times > 1:
        ms = raw * F.lit(times)
    elif div > 1:
        ms = F.call_function("div", raw - F.pmod(raw, F.lit(div)), F.lit(div))
    else:
        ms = raw
    message = F.concat(F.lit(_bad_text_message(where, column)), raw.cast("string"),
                       F.lit(f" read as epoch {_UNIT_NAMES[unit]} is before 1971 or after 2200 "
                             "(set timestamp_unit, --timestamp-unit, to the values' unit: s, "
                             "ms, us or ns)"))
    return F.when(raw.isNull(), F.lit(None).cast("bigint")).when(
        raw.between(lo, hi), ms).otherwise(F.raise_error(message).cast("bigint"))


def timestamp_range(df: DataFrame, column: str, kind: str, *, where: str,
                    unit: str = "ms") -> tuple[int, int] | None:
    """The first and last epoch milliseconds of the timestamp ``column`` of ``df`` (a column
    of ``kind``, :func:`timestamp_kind`), by one Spark aggregation that reads that column only
    (``None``: null in every record) — what the window grid is checked against before the job
    (:func:`check_window_grid`). Integer timestamps are checked at their minimum and maximum
    first: ``ConfigError`` naming ``where``, the column, the value and the unit it would make
    sense in (:func:`epoch_problem`); a text value that does not parse is the job's error
    (:func:`timestamp_ms_column`), as a ``ConfigError``."""
    from pyspark.sql import functions as F

    from kpart.spark._keys import key_column

    col = key_column(column)
    none = F.lit(None).cast("bigint")
    too_long = F.lit(None).cast("string")  # integer text beyond a long: not a timestamp
    if kind == "epoch_ms":
        raw, other = col.cast("bigint"), none
    elif kind == "iso_text":
        integer = col.rlike(INTEGER_PATTERN)
        raw = F.when(integer, col.try_cast("bigint"))
        other = timestamp_ms_column(F.when(~integer, col), kind, where=where, column=column)
        too_long = F.when(integer & raw.isNull(), col)
    else:
        raw, other = none, timestamp_ms_column(col, kind, where=where, column=column)
    with timestamp_errors_as_config_errors(where, column):
        row = df.agg(F.min(raw).alias("a"), F.max(raw).alias("b"), F.min(other).alias("c"),
                     F.max(other).alias("d"), F.min(too_long).alias("e")).first()
    assert row is not None
    if row["e"] is not None:
        raise ConfigError(f"{_bad_text_message(where, column)}{row['e']!r} is not ISO 8601 "
                          "text (e.g. 2013-01-01T10:00:00Z)")
    ends: list[int] = []
    for value in (row["a"], row["b"]):
        if value is not None:
            problem = epoch_problem(int(value), unit)
            if problem is not None:
                raise ConfigError(_bad_text_message(where, column) + problem)
            ends.append(epoch_ms(int(value), unit))
    ends += [int(v) for v in (row["c"], row["d"]) if v is not None]
    return (min(ends), max(ends)) if ends else None


def _ntz_ms(col: Column) -> Column:
    """Milliseconds from 1970-01-01 00:00 to the ``timestamp_ntz`` ``col`` (wall clock as UTC)."""
    from pyspark.sql import functions as F

    epoch = F.expr("TIMESTAMP_NTZ'1970-01-01 00:00:00'")
    return F.timestamp_diff("MILLISECOND", epoch, col)


@contextmanager
def timestamp_errors_as_config_errors(where: str, column: str) -> Iterator[None]:
    """Turn the Spark error of a bad text timestamp (:func:`timestamp_ms_column`) into a
    one-line ``ConfigError``."""
    try:
        yield
    except ConfigError:
        raise
    except Exception as e:
        prefix = re.escape(_bad_text_message(where, column))
        m = re.search(prefix + r".*? is not ISO 8601 text \(e\.g\. [^)]*\)", str(e))
        if m is None:
            m = re.search(prefix + r"-?[0-9]+ read as epoch [a-z]+ is before 1971 or after "
                          r"2200 \([^)]*\)", str(e))
        if m is None:
            raise
        raise ConfigError(m.group(0)) from None


def format_duration(ms: int) -> str:
    """``ms`` as the shortest exact ``--window`` text (``1h``, ``90s``, ``1500ms``)."""
    for unit, size in (("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1_000)):
        if ms % size == 0 and ms >= size:
            return f"{ms // size}{unit}"
    return f"{ms}ms"


def _span_text(ms: int) -> str:
    """``ms`` in its largest units, at most three (``2h 59m 58s``, ``1m 30s``, ``0s``).

    >>> _span_text(10_798_000), _span_text(90_000), _span_text(0), _span_text(86_400_500)
    ('2h 59m 58s', '1m 30s', '0s', '1d 500ms')
    """
    parts = []
    for unit, size in (("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1_000),
                       ("ms", 1)):
        if ms >= size:
            parts.append(f"{ms // size}{unit}")
            ms %= size
    return " ".join(parts[:3]) or "0s"


def _iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="seconds").replace(
        "+00:00", "Z")


def check_window_grid(topic: str, window_ms: int, first_ms: int, last_ms: int,
                      partitions: int) -> int:
    """The number of windows ``W`` of a topic whose timestamps run from ``first_ms`` to
    ``last_ms``, or ``ConfigError`` about ``window`` (``--window`` on the command line) when the
    window is longer than that span, or the grid exceeds :data:`MAX_WINDOWS` or
    :data:`MAX_WINDOW_CELLS` (``partitions × W``) — checked before anything is allocated.

    >>> check_window_grid("clicks", 60_000, 0, 3_599_999, 6)
    60
    >>> check_window_grid("clicks", 3_600_000, 0, 60_000, 6)
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: window: 1h is longer than the span of topic 'clicks' (1m, \
1970-01-01T00:00:00Z to 1970-01-01T00:01:00Z)
    """
    span = last_ms - first_ms
    where = f"span of topic {topic!r} ({_span_text(span)}, {_iso(first_ms)} to {_iso(last_ms)})"
    if window_ms > span:
        raise ConfigError.about("window", "{param}: {value} is longer than the {where}",
                                value=format_duration(window_ms), where=where)
    windows = last_ms // window_ms - first_ms // window_ms + 1
    if windows > MAX_WINDOWS or windows * partitions > MAX_WINDOW_CELLS:
        raise ConfigError.about(
            "window", "{param}: {value} makes {windows:,} windows over the {where}, × "
            "{partitions:,} partitions; at most {most:,} windows and {cells:,} (partition, "
            "window) cells: pass a longer {param}", value=format_duration(window_ms),
            windows=windows, where=where, partitions=partitions, most=MAX_WINDOWS,
            cells=MAX_WINDOW_CELLS)
    return int(windows)


def check_common_grid(spans: Mapping[str, tuple[int, int]], window_ms: int, rows: int) -> int:
    """The number of windows of the common grid of a cluster's timed topics — from the first
    topic's first window to the last one's last — given each topic's first and last epoch
    milliseconds (``spans``, topology order), checked *before* any topic's job against the
    limits the summary applies to it (:func:`kpart.analysis.cluster_loads.check_grid`, as
    :func:`kpart.analysis.cluster_model.placed_cluster` does; ``rows``: its series: brokers, group
    members, heat-map rows). ``ConfigError`` about ``window`` (``--window``) naming the earliest and
    the latest topic: topics timed months apart under a 1-minute window.

    >>> day = 86_400_000
    >>> check_common_grid({"a": (0, day - 1), "b": (day, 2 * day - 1)}, 3_600_000, 10)
    48
    >>> check_common_grid({"a": (0, 1), "b": (200 * day, 200 * day + 1)}, 60_000, 100)
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: window: the topics' windows lie on one grid from \
1970-01-01T00:00:00Z (topic 'a') to 1970-07-20T00:01:00Z (topic 'b'): 288,001 windows of \
60,000 ms × 100 series (brokers, members, heat-map rows); at most 1,000,000 windows and \
20,000,000 cells: pass a longer window, or report topics timed far apart separately
    """
    from kpart.analysis.cluster_loads import check_grid

    return check_grid({name: first // window_ms * window_ms for name, (first, _) in spans.items()},
                      {name: (last // window_ms + 1) * window_ms
                       for name, (_, last) in spans.items()}, window_ms, rows)
