"""org.apache.kafka.common.serialization key serializers (StringSerializer, IntegerSerializer,
LongSerializer, ShortSerializer, UUIDSerializer, ByteArraySerializer): the bytes Kafka hashes.

Kafka partitions on the *serialized* key, so the same logical key serialized differently lands on
a different partition (``42`` as a string is ``b"42"``; as an ``IntegerSerializer`` int it is
``b"\\x00\\x00\\x00*"``).

=============  ===============================  ================================================
serializer     Kafka class                      bytes
=============  ===============================  ================================================
``string``     ``StringSerializer`` (UTF-8)     ``str.encode("utf-8")``; unpaired surrogates
                                                become ``?`` as in Java's ``String.getBytes``
``int``        ``IntegerSerializer``            4 bytes big-endian two's complement
``long``       ``LongSerializer``               8 bytes big-endian
``short``      ``ShortSerializer``              2 bytes big-endian
``uuid``       ``UUIDSerializer``               the UTF-8 of ``UUID.toString()`` (36 chars)
``bytes``      ``ByteArraySerializer``          the bytes themselves
``hex``        (kpart, for the command line)    ``bytes.fromhex(value)``
=============  ===============================  ================================================

A ``None`` value serializes to ``None`` (a null key), as Kafka's serializers do. The Java class
names (simple or fully qualified) are accepted as aliases by :func:`serialize_key`.

:data:`SERIALIZERS` is the one list of serializer names: the command line's ``--serializer``, a
topology's ``key_serializer`` and the Spark key contract (:mod:`kpart.spark._keys`) import it;
:func:`check_serializer` is the one check of a name (no aliases).

>>> serialize_key("TT0124", "string")
b'TT0124'
>>> serialize_key(48069, "int").hex()
'0000bbc5'
>>> serialize_key("-1", "long").hex()
'ffffffffffffffff'
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from kpart.errors import ConfigError

__all__ = ["SERIALIZERS", "check_serializer", "serialize_key"]

#: Key serializer names, everywhere in kpart (aliases aside: :func:`serialize_key` takes those).
SERIALIZERS = ("string", "int", "long", "short", "uuid", "bytes", "hex")

_ALIASES = {
    "str": "string",
    "utf8": "string",
    "utf-8": "string",
    "StringSerializer": "string",
    "integer": "int",
    "int32": "int",
    "IntegerSerializer": "int",
    "int64": "long",
    "LongSerializer": "long",
    "int16": "short",
    "ShortSerializer": "short",
    "UUIDSerializer": "uuid",
    "raw": "bytes",
    "ByteArraySerializer": "bytes",
    "BytesSerializer": "bytes",
}

_WIDTH = {"int": 4, "long": 8, "short": 2}
#: The text ``UUID.toString()`` writes, in any case: the one form whose bytes under
#: ``UUIDSerializer`` are known without guessing how a producer parsed it (its lower case).
UUID_PATTERN = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
#: The texts ``bytes.fromhex`` (the ``hex`` serializer) accepts, as a regular expression that
#: means the same in Python's ``re`` (``fullmatch``) and Java's (Spark ``rlike``, anchored): pairs
#: of hex digits in any case, ASCII whitespace (space, ``\t\n\r\v\f``) before or after a pair
#: but never inside one; no ``0x`` prefix, no odd digit. Only whitespace (or nothing) is the
#: empty key ``b""``.
HEX_SPACE = r"[ \t\n\r\x0B\f]"
HEX_PATTERN = rf"(?:{HEX_SPACE}*[0-9A-Fa-f]{{2}})*{HEX_SPACE}*"


def check_serializer(serializer: object, parameter: str = "serializer") -> str:
    """``serializer`` when it is one of :data:`SERIALIZERS` (no aliases); else a
    ``ConfigError`` about ``parameter`` (the caller's name for it) listing the known names.

    >>> check_serializer("long")
    'long'
    >>> check_serializer("IntegerSerializer")
    Traceback (most recent call last):
    ...
    kpart.errors.ConfigError: serializer: unknown key serializer 'IntegerSerializer' \
(known: string, int, long, short, uuid, bytes, hex)
    """
    if not isinstance(serializer, str) or serializer not in SERIALIZERS:
        raise ConfigError.about(parameter, "{param}: unknown key serializer {value!r} "
                                "(known: {known})", value=serializer, known=", ".join(SERIALIZERS))
    return serializer


def _canonical(serializer: str) -> str:
    if not isinstance(serializer, str):
        raise ConfigError(f"unknown serializer {serializer!r}; known: {', '.join(SERIALIZERS)}")
    name = serializer.rsplit(".", 1)[-1] if "." in serializer else serializer
    name = _ALIASES.get(name, name)
    if name not in SERIALIZERS:
        raise ConfigError(f"unknown serializer {serializer!r}; known: {', '.join(SERIALIZERS)}")
    return name


def _as_int(value: Any, name: str) -> int:
    if isinstance(value, bool):
        raise ConfigError(f"not an integer for the {name} serializer: {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str):  # Java's parseInt syntax: no "1_000", no non-ASCII digits
        if not re.fullmatch("[+-]?[0-9]+", value.strip()):
            raise ConfigError(f"not an integer for the {name} serializer: {value!r}")
        return int(value.strip(), 10)
    try:
        import numpy as np

        if isinstance(value, np.integer):
            return int(value)
    except ImportError:  # pragma: no cover - numpy is a dependency
        pass
    raise ConfigError(f"not an integer for the {name} serializer: {value!r}")


def serialize_key(value: Any, serializer: str = "string") -> bytes | None:
    """Serialize a key the way the named Kafka serializer does.

    Args:
        value: the key: ``str`` for ``string``/``hex``/``uuid`` (or a ``uuid.UUID``), ``int`` (or
            a decimal string) for ``int``/``long``/``short``, bytes-like for ``bytes``; ``None``
            gives ``None``.
        serializer: ``string``, ``int``, ``long``, ``short``, ``uuid``, ``bytes``, ``hex``, or a
            Kafka serializer class name (``"IntegerSerializer"``, ...).

    Returns:
        the serialized key bytes (``None`` for a ``None`` value).

    Raises:
        ConfigError: unknown serializer; a value that does not fit it (non-integer, out of the
            Java type's range, bad hex, bad UUID, wrong type); the message names the value.

    >>> serialize_key("caf\\u00e9")
    b'caf\\xc3\\xa9'
    >>> serialize_key("00112233-4455-6677-8899-AABBCCDDEEFF", "uuid")
    b'00112233-4455-6677-8899-aabbccddeeff'
    """
    name = _canonical(serializer)
    if value is None:
        return None
    if name == "string":
        if not isinstance(value, str):
            raise ConfigError(f"the string serializer needs a str, got {value!r}")
        # Java's String.getBytes(UTF_8) replaces each unpaired surrogate with '?'.
        return value.encode("utf-8", errors="replace")
    if name in _WIDTH:
        number = _as_int(value, name)
        width = _WIDTH[name]
        bound = 1 << (8 * width - 1)
        if not -bound <= number < bound:
            raise ConfigError(
                f"{number} does not fit the {name} serializer ({8 * width}-bit signed)"
            )
        return number.to_bytes(width, "big", signed=True)
    if name == "uuid":
        if isinstance(value, uuid.UUID):
            return str(value).encode("ascii")
        if not isinstance(value, str) or not re.fullmatch(UUID_PATTERN, value):
            raise ConfigError(f"not a UUID: {value!r} (expected the 8-4-4-4-12 hex digits "
                              "UUID.toString() writes)")
        return value.lower().encode("ascii")
    if name == "hex":
        if not isinstance(value, str):
            raise ConfigError(f"the hex serializer needs a str, got {value!r}")
        try:
            return bytes.fromhex(value)
        except ValueError:
            raise ConfigError(f"not hex bytes: {value!r}") from None
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    raise ConfigError(f"the bytes serializer needs bytes, got {value!r}")
