"""The one key contract of the Spark layer: which column is the key, which types each Kafka key
serializer takes, which values it cannot represent (never wrapped, never guessed), and how many
bytes a record counts.

Shared by :mod:`kpart.spark.transforms` (``with_partition``), :mod:`kpart.spark.pipeline`
(``kpart report``), :mod:`kpart.spark.compat`/:mod:`kpart.spark.whatif`, and the checks made
*before* Spark starts (:mod:`kpart.spark.datasets` reads the schema with pyarrow or the first
lines). The pure rules here import no pyspark; the column builders import it lazily. The pieces:

- the serializer names: :data:`SERIALIZERS` (the one list,
  :data:`kpart.producer.serializers.SERIALIZERS`);
- the key path (:func:`parse_key_path`, :func:`key_column`) and its type check, on a DataFrame
  (:func:`check_key_column`) or a type name read before Spark (:func:`check_key_type`);
- the key as the serializer takes it and the rows it cannot represent (:func:`prepared_key`,
  :func:`failing_on_bad`, :func:`bad_key_error`), in the column :data:`KEY_COLUMN` of the jobs;
- the bytes of a record (:func:`record_bytes`): the serialized key plus the record as JSON,
  ``to_json(struct(*))`` — ``kpart.analysis.summary.BYTES_DEFINITION``.

Errors are :class:`~kpart.errors.ConfigError` about the library parameter ``key`` or
``serializer`` (``key: column 'x' not found ...``; the command line names its flags).

**Key paths** follow Spark's column names: ``device.id`` is field ``id`` of struct column
``device`` (any depth); a name holding a dot is quoted in backticks, as in Spark SQL:
```` `device.id` ```` is the top-level column literally named ``device.id`` (a backtick inside
backticks is doubled). Fields inside arrays and maps are not keys.

**Types per serializer** (Spark type names):

=================  ========================================  ===================================
serializer         column types                              values it cannot represent
=================  ========================================  ===================================
``string``         ``string``                                none
``bytes``          ``binary``, ``string`` (its UTF-8)        none
``uuid``           ``string``                                not ``8-4-4-4-12`` hex digits
``hex``            ``string`` of hex digits (decoded; its     not what ``bytes.fromhex`` takes:
                   bytes hashed as ``ByteArraySerializer``)   odd digits, ``0x``, a space inside
                                                              a pair
``int``/``long``/  ``tinyint`` … ``bigint``; ``string``:     out of the Java type's range; text
``short``          the text parsed as ``Integer.parseInt``   that is not ``[+-]?[0-9]+``
=================  ========================================  ===================================

An integral column under ``string`` is refused with the serializer to use (Kafka's
``StringSerializer`` cannot take a ``Long``). Text under ``int``/``long``/``short`` is parsed as
Java's ``Integer.parseInt``/``Long.parseLong``/``Short.parseShort`` (radix 10) do: an optional
sign then ASCII digits, leading zeros allowed (``"0123"`` is the key 123, as a Java producer
parsing the text sends it), no spaces, no decimal point. ``uuid`` takes exactly the canonical
form ``UUID.toString()`` writes (any case; ``UUIDSerializer`` sends it lower-cased), so the
bytes hashed are never a guess about how a producer parsed a looser form — the rule of
``kpart partition --serializer uuid`` (:func:`kpart.producer.serializers.serialize_key`).
``hex`` takes the text ``kpart partition --serializer hex`` takes (``bytes.fromhex``: pairs of
hex digits in any case, ASCII whitespace between pairs; ``""`` is the empty key ``b""``) and
hashes the decoded bytes; :func:`serialized_as` names the serializer of the decoded key.

>>> parse_key_path("device.id"), parse_key_path("`device.id`"), parse_key_path("`a``b`.c")
(('device', 'id'), ('device.id',), ('a`b', 'c'))
>>> value_problem("0123", "int") is None, value_problem("2147483648", "int")
(True, "'2147483648' is out of the 'int' serializer's range [-2147483648, 2147483647]")
>>> value_problem("not-a-uuid", "uuid")
"'not-a-uuid' is not a UUID in the 8-4-4-4-12 hex form UUID.toString() writes (the 'uuid' serializer)"
>>> value_problem("00 ff", "hex") is None, value_problem("0x00ff", "hex")
(True, "'0x00ff' is not hex bytes as the 'hex' serializer reads them (pairs of hex digits, \
whitespace only between pairs, no 0x prefix)")
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from kpart.errors import ConfigError
from kpart.producer.serializers import HEX_PATTERN as _HEX_TEXT
from kpart.producer.serializers import HEX_SPACE, SERIALIZERS, check_serializer
from kpart.producer.serializers import UUID_PATTERN as _UUID_TEXT
from kpart.spark._fixed_width import FIXED_WIDTHS

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import Column, DataFrame

__all__ = [
    "INTEGRAL",
    "KEY_COLUMN",
    "RANGES",
    "SERIALIZERS",
    "SPARK_TYPES",
    "bad_key_error",
    "bad_keys_as_config_errors",
    "check_key_column",
    "check_key_type",
    "checked_key",
    "failing_on_bad",
    "hex_bytes",
    "key_column",
    "key_size_column",
    "parse_key_path",
    "prepared_key",
    "quote",
    "record_bytes",
    "schema_key_type",
    "serialized_as",
    "value_problem",
    "walk_fields",
]

INTEGRAL = ("tinyint", "smallint", "int", "bigint")
#: Java range of each fixed-width serializer's type.
RANGES = {"short": (-(2**15), 2**15 - 1), "int": (-(2**31), 2**31 - 1),
          "long": (-(2**63), 2**63 - 1)}
_WIDER = {"tinyint": 1, "smallint": 2, "int": 4, "bigint": 8}
#: Spark type of each fixed-width serializer's Java type.
SPARK_TYPES = {"short": "smallint", "int": "int", "long": "bigint"}
_HINT = {"tinyint": "short, int or long", "smallint": "short", "int": "int", "bigint": "long"}
#: Name of the distinct-key column of the jobs (``kpart report``, compat, whatif): the key as
#: :func:`prepared_key` gives it.
KEY_COLUMN = "__kpart_key"
_INTEGER_TEXT = "[+-]?[0-9]+"
#: Java regexes of the text each serializer takes: ``\z`` is the end of the text (``$`` would
#: also match before a final line break, which the command line's rule refuses)
INTEGER_PATTERN = f"^{_INTEGER_TEXT}\\z"
UUID_PATTERN = f"^{_UUID_TEXT}\\z"
HEX_PATTERN = f"^{_HEX_TEXT}\\z"


def serialized_as(serializer: str) -> str:
    """The serializer of the key :func:`prepared_key` gives: ``bytes`` for ``hex`` (the decoded
    bytes, hashed as ``ByteArraySerializer`` sends them), else ``serializer``.

    >>> serialized_as("hex"), serialized_as("int")
    ('bytes', 'int')
    """
    return "bytes" if serializer == "hex" else serializer


_EMPTY_PART = "{param}: {value!r} has an empty field name"


def parse_key_path(key: str) -> tuple[str, ...]:
    """The parts of a key path, split as Spark splits a column name (see the module docstring).
    ``ConfigError`` about ``key`` when it is empty, has an empty part or an open backtick.

    >>> parse_key_path("dev..id")
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: key: 'dev..id' has an empty field name
    """
    parts: list[str] = []
    current: list[str] = []
    i, quoted, was_quoted = 0, False, False
    while i < len(key):
        c = key[i]
        if quoted:
            if c == "`":
                if key[i + 1:i + 2] == "`":
                    current.append("`")
                    i += 1
                else:
                    quoted = False
            else:
                current.append(c)
        elif c == "`" and not current and not was_quoted:
            quoted = was_quoted = True
        elif c == ".":
            if not current and not was_quoted:
                raise ConfigError.about("key", _EMPTY_PART, value=key)
            parts.append("".join(current))
            current, was_quoted = [], False
        elif was_quoted:
            raise ConfigError.about(
                "key", "{param}: {value!r}: a backtick-quoted name must end at a dot", value=key)
        else:
            current.append(c)
        i += 1
    if quoted:
        raise ConfigError.about("key", "{param}: {value!r} has an unclosed backtick", value=key)
    if not current and not was_quoted:
        raise ConfigError.about("key", _EMPTY_PART, value=key)
    parts.append("".join(current))
    return tuple(parts)


def quote(name: str) -> str:
    """``name`` as one Spark column-name part (backticks, inner backticks doubled)."""
    return "`" + name.replace("`", "``") + "`"


def _hint_backticks(key: str, names: list[str]) -> str:
    return (f"; the column named {key!r} is written `{key}` (backticks)"
            if "." in key and key in names else "")


def walk_fields(key: str, root: Any, fields_of: Callable[[Any], Mapping[str, Any] | None]) -> Any:
    """Follow ``key``'s path from ``root``: ``fields_of(node)`` gives ``{name: child}`` of a
    struct node, or ``None`` when the node is not a struct. ``ConfigError`` about ``key``
    naming the fields available where the path breaks. Returns the node at the end.

    >>> walk_fields("dev.id", {"dev": {"id": 7}}, lambda n: n if isinstance(n, dict) else None)
    7
    >>> walk_fields("dev.x", {"dev": {"id": 7}}, lambda n: n if isinstance(n, dict) else None)
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: key: field 'x' not found in struct 'dev' (fields: id)
    """
    parts = parse_key_path(key)
    node = root
    for depth, part in enumerate(parts):
        fields = fields_of(node)
        where = ".".join(parts[:depth])
        if fields is None:
            raise ConfigError.about("key", "{param}: {where!r} is not a struct, so {value!r} "
                                    "does not exist", where=where, value=key)
        if part not in fields:
            names = ", ".join(fields)
            if depth == 0:
                raise ConfigError.about("key", "{param}: column {value!r} not found (columns: "
                                        "{names}){hint}", value=key, names=names,
                                        hint=_hint_backticks(key, list(fields)))
            raise ConfigError.about("key", "{param}: field {part!r} not found in struct "
                                    "{where!r} (fields: {names})", part=part, where=where,
                                    names=names)
        node = fields[part]
    return node


def schema_key_type(schema: Any, key: str) -> str:
    """Spark type name (``simpleString``) of ``key`` in the Spark ``StructType`` ``schema``."""
    from pyspark.sql.types import StructType

    def fields_of(node: Any) -> dict[str, Any] | None:
        dt = node if isinstance(node, StructType) else node.dataType
        return {f.name: f for f in dt.fields} if isinstance(dt, StructType) else None

    dtype: str = walk_fields(key, schema, fields_of).dataType.simpleString()
    return dtype


def check_key_column(df: DataFrame, key: str, serializer: str) -> str:
    """The Spark type name of the key ``key`` (a column or ``struct.field`` path) of ``df``,
    checked against ``serializer`` as :func:`check_key_type` does: the one column check of
    ``with_partition``, ``kpart report``, compat and whatif. ``ConfigError`` about ``key``
    (missing, a struct, array or map) or ``serializer`` (unknown, or not fitting the type)."""
    check_serializer(serializer)
    dtype = schema_key_type(df.schema, key)
    check_key_type(key, dtype, serializer)
    return dtype


def check_key_type(key: str, dtype: str, serializer: str) -> None:
    """``ConfigError`` naming the column, its type and the serializer when ``serializer`` cannot
    take a column of Spark type ``dtype`` (with the serializer to use where one fits): about
    ``serializer`` (unknown, or not fitting) or ``key`` (a struct, array or map column).

    >>> check_key_type("k", "binary", "bytes")
    >>> check_key_type("k", "binary", "string")
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: serializer: 'string' cannot serialize column 'k' of type binary
    >>> check_key_type("k", "bigint", "string")
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: serializer: 'string' cannot serialize column 'k' of type bigint: \
Kafka's StringSerializer cannot take a number; use serializer long (the producer's Java type)
    """
    check_serializer(serializer)
    kind = dtype.split("<", 1)[0]
    if kind in ("struct", "array", "map"):
        what = ("a struct: name one of its fields, e.g. " f"{key}.<field>" if kind == "struct"
                else f"{'an' if kind == 'array' else 'a'} {kind}: its elements are not a key")
        raise ConfigError.about("key", "{param}: column {value!r} is {what}", value=key,
                                what=what)
    ok = {
        "string": dtype == "string",
        "uuid": dtype == "string",
        "hex": dtype == "string",
        "bytes": dtype in ("binary", "string"),
    }.get(serializer, dtype in INTEGRAL or dtype == "string")
    if ok:
        return
    hint = ""
    if serializer == "string" and dtype in INTEGRAL:
        hint = (": Kafka's StringSerializer cannot take a number; use {param} "
                f"{_HINT[dtype]} (the producer's Java type)")
    elif serializer == "hex":
        hint = (": 'hex' takes text of hex digits"
                + ("; a binary column is its bytes already: use {param} bytes"
                   if dtype == "binary" else ""))
    raise ConfigError.about(
        "serializer", "{param}: {value!r} cannot serialize column {key!r} of type {dtype}" + hint,
        value=serializer, key=key, dtype=dtype)


def value_problem(value: Any, serializer: str) -> str | None:
    """Why ``serializer`` cannot represent the key ``value`` (a Python value as the dataset
    holds it: ``str``, ``int`` or bytes), or ``None`` when it can (a ``None`` key always can)."""
    if value is None:
        return None
    if serializer in RANGES:
        if isinstance(value, str):
            if not re.fullmatch(_INTEGER_TEXT, value):
                java = ("Integer.parseInt" if serializer == "int"
                        else f"{serializer.title()}.parse{serializer.title()}")
                return (f"{value!r} is not a decimal integer for the {serializer!r} serializer "
                        f"(Java's {java} rejects it)")
            number = int(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            return f"{value!r} is not an integer for the {serializer!r} serializer"
        lo, hi = RANGES[serializer]
        if not lo <= number <= hi:
            return f"{value!r} is out of the {serializer!r} serializer's range [{lo}, {hi}]"
        return None
    if serializer == "uuid" and (not isinstance(value, str)
                                 or not re.fullmatch(_UUID_TEXT, value)):
        return (f"{value!r} is not a UUID in the 8-4-4-4-12 hex form UUID.toString() writes "
                "(the 'uuid' serializer)")
    if serializer == "hex" and (not isinstance(value, str) or not re.fullmatch(_HEX_TEXT, value)):
        return (f"{value!r} is not hex bytes as the 'hex' serializer reads them (pairs of hex "
                "digits, whitespace only between pairs, no 0x prefix)")
    return None


def key_column(key: str) -> Column:
    """The Spark column at ``key``'s path (see the module docstring)."""
    from pyspark.sql import functions as F

    parts = parse_key_path(key)
    col = F.col(quote(parts[0]))
    for part in parts[1:]:
        col = col.getField(part)
    return col


def checked_key(df: DataFrame, key: str, serializer: str) -> tuple[Column, Column | None]:
    """``(key, bad)`` of :func:`prepared_key` for the key ``key`` of ``df``, its column checked
    first (:func:`check_key_column`): how every Spark job of kpart takes the key."""
    dtype = check_key_column(df, key, serializer)
    return prepared_key(key_column(key), dtype, serializer)


def prepared_key(col: Column, dtype: str, serializer: str) -> tuple[Column, Column | None]:
    """``(key, bad)``: the key ready for ``serializer`` (an integral column of the serializer's
    Java type for ``int``/``long``/``short``; lower-case text for ``uuid``; the decoded bytes
    (``binary``, :func:`hex_bytes`) for ``hex``; else ``col``), null
    where the value cannot be represented, and the boolean column ``bad`` marking those rows
    (``None`` when no value of ``dtype`` can be bad). Null keys are never bad."""
    from pyspark.sql import functions as F

    if serializer in RANGES:
        lo, hi = RANGES[serializer]
        target = SPARK_TYPES[serializer]
        if dtype in INTEGRAL:
            if _WIDER[dtype] <= FIXED_WIDTHS[serializer]:
                return col.cast(target), None
            fits = col.between(F.lit(lo), F.lit(hi))
            value = col
        else:  # text: Integer.parseInt's syntax, then the range (try_cast: null on overflow)
            value = col.try_cast("bigint")
            fits = col.rlike(INTEGER_PATTERN) & value.between(F.lit(lo), F.lit(hi))
        bad = col.isNotNull() & ~F.coalesce(fits, F.lit(False))
        return F.when(~bad, value.cast(target)), bad
    if serializer == "uuid":
        bad = col.isNotNull() & ~F.coalesce(col.rlike(UUID_PATTERN), F.lit(False))
        return F.when(~bad, F.lower(col)), bad
    if serializer == "hex":  # Spark's unhex pads odd input and nulls bad digits: check first
        bad = col.isNotNull() & ~F.coalesce(col.rlike(HEX_PATTERN), F.lit(False))
        return F.when(~bad, hex_bytes(col)), bad
    return col, None


def hex_bytes(col: Column) -> Column:
    """The bytes of hex text ``col`` (``binary``) as ``bytes.fromhex`` decodes them, for text
    matching :data:`HEX_PATTERN` (other text: see :func:`prepared_key`)."""
    from pyspark.sql import functions as F

    return F.unhex(F.regexp_replace(col, HEX_SPACE, ""))


def key_size_column(key: str | Column, serializer: str) -> Column:
    """Serialized key size in bytes (``int``; 0 for a null key) for ``serializer``; ``key``: a
    key path or a column (under ``hex``: the text, whose decoded length is the size — the
    decoded column of :func:`prepared_key` is sized as ``bytes``, :func:`serialized_as`)."""
    from pyspark.sql import functions as F

    col = key_column(key) if isinstance(key, str) else key
    if serializer == "hex":
        col = hex_bytes(col)
    fixed = FIXED_WIDTHS.get(serializer)
    size = F.octet_length(col) if fixed is None else F.lit(fixed)
    return F.when(col.isNull(), F.lit(0)).otherwise(size).cast("int")


def record_bytes(df: DataFrame, prepared: Column, serializer: str) -> Column:
    """Bytes of each record of ``df`` (``bigint``), as ``kpart report``, compat and whatif count
    them (``kpart.analysis.summary.BYTES_DEFINITION``): the serialized size of the key
    ``prepared`` (:func:`prepared_key` under ``serializer``; 0 for a null key) plus the value,
    the record as a JSON object: ``to_json(struct(*))`` over every column of ``df``, in bytes."""
    from pyspark.sql import functions as F

    value = F.to_json(F.struct(*[F.col(quote(c)) for c in df.columns]))
    return (key_size_column(prepared, serialized_as(serializer)).cast("bigint")
            + F.octet_length(value).cast("bigint"))


def bad_key_error(key: str, serializer: str, records: int, first: Any) -> ConfigError:
    """The error (about ``key``) of a key column holding ``records`` values ``serializer``
    cannot represent, ``first`` the smallest.

    >>> str(bad_key_error("k", "int", 3, "12x"))  # doctest: +ELLIPSIS
    "key: column 'k' holds 3 record(s) the int serializer cannot represent; first bad value: \
'12x' is not a decimal integer ..."
    """
    why = value_problem(first, serializer) or f"{first!r} cannot be serialized"
    return ConfigError.about("key", "{param}: column {value!r} holds {records:,} record(s) the "
                             "{serializer} serializer cannot represent; first bad value: {why}",
                             value=key, records=records, serializer=serializer, why=why)


_FAILS = "the {!r} serializer cannot represent the key "


def failing_on_bad(key: str, serializer: str, prepared: Column, bad: Column | None) -> Column:
    """``prepared`` where ``bad`` is false; a row where it is true fails the Spark job with
    ``key column '<key>': the '<serializer>' serializer cannot represent the key <value>``
    (see :func:`bad_keys_as_config_errors`)."""
    from pyspark.sql import functions as F

    if bad is None:
        return prepared
    return F.when(bad, F.raise_error(F.concat(
        F.lit(f"key column {key!r}: " + _FAILS.format(serializer)),
        key_column(key).cast("string")))).otherwise(prepared)


@contextmanager
def bad_keys_as_config_errors() -> Iterator[None]:
    """Turn the Spark error raised by :func:`failing_on_bad` into a one-line ``ConfigError``."""
    try:
        yield
    except ConfigError:
        raise
    except Exception as e:
        m = re.search(r"key column .*? serializer cannot represent the key [^\n]*", str(e))
        if m is None:
            raise
        text = re.sub(r"\s*SQLSTATE: \w+\s*$", "", m.group(0)).strip()
        raise ConfigError.about("key", "{param}: {text}", text=text) from None
