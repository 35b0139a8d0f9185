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
``tinyint`` … ``bigint``    the value itself: epoch milliseconds (never guessed as seconds)
``string``                  ISO 8601 text: ``2013-01-01T10:00:00Z``, ``2013-01-01 10:00:00``
                            (no zone: UTC), ``2013-01-01T10:00:00.5+02:00``, ``2013-01-01``;
                            every value is checked in the job: text that does not parse is
                            an error naming the topic, the column and the value, never null
==========================  ===============================================================

Anything else (boolean, floating point, decimal, structs, ...) is refused before Spark. A null
timestamp leaves the record out of every window (counted as untimed). Window ``k`` of a topic is
``[k * window_ms, (k + 1) * window_ms)`` with ``k = floor(ms / window_ms)``
(:mod:`kpart._cluster_loads`).

>>> timestamp_kind("timestamp[us, tz=UTC]"), timestamp_kind("bigint"), timestamp_kind("boolean")
('timestamp', 'epoch_ms', None)
>>> iso_problem("2013-01-01T10:00:00Z") is None, iso_problem("01/02/2013")
(True, "'01/02/2013' is not ISO 8601 text (e.g. 2013-01-01T10:00:00Z)")
>>> format_duration(3_600_000), format_duration(90_000), format_duration(1_500)
('1h', '90s', '1500ms')
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from kpart.errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import Column

__all__ = [
    "MAX_WINDOWS",
    "MAX_WINDOW_CELLS",
    "check_timestamp_type",
    "check_window_grid",
    "format_duration",
    "iso_ms",
    "iso_problem",
    "timestamp_errors_as_config_errors",
    "timestamp_kind",
    "timestamp_ms_column",
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


def timestamp_ms_column(col: Column, kind: str, *, where: str, column: str) -> Column:
    """Epoch milliseconds (``bigint``, null for a null) of ``col``, a column of ``kind``
    (:func:`timestamp_kind`). ``iso_text``: a non-null value that is not ISO 8601 fails the job
    with ``<where>: column '<column>': '<value>' is not ISO 8601 text ...``
    (:func:`timestamp_errors_as_config_errors` makes it a ``ConfigError``)."""
    from pyspark.sql import functions as F

    if kind == "timestamp":
        return F.unix_millis(col)
    if kind == "timestamp_ntz":
        return _ntz_ms(col)
    if kind == "date":
        return F.unix_date(col).cast("bigint") * F.lit(86_400_000)
    if kind == "epoch_ms":
        return col.cast("bigint")
    zoned = F.unix_millis(col.try_cast("timestamp"))
    wall = _ntz_ms(col.try_cast("timestamp_ntz"))
    ms = F.when(~col.rlike(ISO_PATTERN), F.lit(None).cast("bigint")).when(
        col.rlike(ZONED_PATTERN), zoned).otherwise(wall)
    bad = col.isNotNull() & ms.isNull()
    message = F.concat(F.lit(_bad_text_message(where, column) + "'"), col,
                       F.lit("' is not ISO 8601 text (e.g. 2013-01-01T10:00:00Z)"))
    return F.when(bad, F.raise_error(message).cast("bigint")).otherwise(ms)


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
