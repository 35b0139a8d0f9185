"""``java.lang.String#compareTo`` order: strings compared by UTF-16 code units.

Python compares ``str`` by code point; Java compares by UTF-16 code unit. The two orders agree
inside the Basic Multilingual Plane but differ once a string holds a supplementary character
(encoded in Java as a surrogate pair ``0xD800..0xDFFF``, which sorts *below* BMP characters
``0xE000..0xFFFF``). Kafka sorts member ids, group instance ids and topic names with
``String.compareTo`` (``Collections.sort``, ``TreeSet``), so the assignors sort with
:func:`java_string_key` instead of a bare ``sorted()``.

>>> "\\U0001F600" < "\\uFFFD"                      # Python: code point order
False
>>> java_compare("\\U0001F600", "\\uFFFD") < 0      # Java: surrogate 0xD83D < 0xFFFD
True
>>> java_sorted(["b", "a\\uFFFD", "a\\U0001F600", "a"])
['a', 'a😀', 'a\\ufffd', 'b']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

__all__ = ["java_compare", "java_sorted", "java_string_key"]

T = TypeVar("T")


def java_string_key(s: str) -> bytes:
    """A sort key ordering strings as ``String.compareTo`` does.

    Big-endian UTF-16 bytes compare lexicographically exactly like the sequence of unsigned
    16-bit code units (and a proper prefix sorts first), which is Java's rule. Lone surrogates
    (possible in Java strings) are kept as they are.
    """
    return s.encode("utf-16-be", "surrogatepass")


def java_compare(a: str, b: str) -> int:
    """Sign of ``a.compareTo(b)`` in Java: ``-1``, ``0`` or ``1``."""
    ka, kb = java_string_key(a), java_string_key(b)
    return (ka > kb) - (ka < kb)


def java_sorted(items: Iterable[T], key: Callable[[T], str] | None = None) -> list[T]:
    """``items`` sorted (stably) in ``String.compareTo`` order of ``key(item)`` (default: the
    item itself, which must then be a ``str``)."""
    if key is None:
        return sorted(items, key=java_string_key)  # type: ignore[arg-type]  # T is str here
    k = key
    return sorted(items, key=lambda item: java_string_key(k(item)))
