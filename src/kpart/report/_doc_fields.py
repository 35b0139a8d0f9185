"""Checked field access for the documents the report pages read (private to
:mod:`kpart.report`): each accessor returns the field with the type asked for, or raises one
:class:`~kpart.errors.ConfigError` naming the field by its path (``topics[1].partitions[3].
bytes: expected a number or null, got 'x'``).

>>> obj({"a": [1, None]}, "doc")["a"], onum({"n": None}, "n", "doc"), count({"l": [4, 5]}, "l", "x")
([1, None], None, 2)
>>> num({"n": "x"}, "n", "topics[0]")
Traceback (most recent call last):
kpart.errors.ConfigError: topics[0].n: expected a number or null, got 'x'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from kpart.errors import ConfigError
from kpart.report._cluster_html import opt_num
from kpart.report._html_parts import require_field

__all__ = ["check_numbers", "count", "integer", "lst", "num", "obj", "oint", "onum", "ostr",
           "ratio"]


def obj(value: Any, where: str) -> Mapping[str, Any]:
    """``value``, which must be an object."""
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where}: expected an object, got {value!r:.60}")
    return value


def lst(doc: Mapping[str, Any], key: str, where: str, *, required: bool = True,
        nonempty: bool = False) -> list[Any]:
    """``doc[key]``, a list (``nonempty``: with an item); not ``required``: absent or
    ``null`` is ``[]``."""
    value = require_field(doc, key, where) if required else doc.get(key)
    if value is None and not required:
        return []
    if not isinstance(value, list) or (nonempty and not value):
        what = "a non-empty list" if nonempty else "a list"
        raise ConfigError(f"{where}.{key}: expected {what}, got {value!r:.60}")
    return value


def num(doc: Mapping[str, Any], key: str, where: str) -> float:
    """A required, finite number."""
    value = opt_num(require_field(doc, key, where), f"{where}.{key}")
    if value is None:
        raise ConfigError(f"{where}.{key}: expected a number, got null")
    return value


def onum(doc: Mapping[str, Any], key: str, where: str) -> float | None:
    """An optional number (absent or ``null``: ``None``)."""
    return opt_num(doc.get(key), f"{where}.{key}")


def integer(value: Any, where: str) -> int:
    """``value``, an integer (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{where}: expected an integer, got {value!r:.60}")
    return value


def oint(doc: Mapping[str, Any], key: str, where: str) -> int | None:
    """``doc[key]``, an integer or ``None`` (absent or ``null``)."""
    value = doc.get(key)
    return None if value is None else integer(value, f"{where}.{key}")


def ostr(doc: Mapping[str, Any], key: str, where: str) -> str | None:
    """``doc[key]``, a string or ``None`` (absent or ``null``)."""
    value = doc.get(key)
    if value is not None and not isinstance(value, str):
        raise ConfigError(f"{where}.{key}: expected a string or null, got {value!r:.60}")
    return value


def count(doc: Mapping[str, Any], key: str, where: str) -> int | None:
    """A count given as an integer or as the list it counts (``leaders``, ``replicas``)."""
    value = doc.get(key)
    return len(value) if isinstance(value, list) else oint(doc, key, where)


def ratio(doc: Any, where: str) -> float | None:
    """``max_over_mean`` of a skew object (``null`` or absent: ``None``)."""
    if doc is None:
        return None
    return onum(obj(doc, where), "max_over_mean", where)


_NUMBER_TYPES = frozenset((int, float, type(None)))


def check_numbers(values: list[Any], where: str) -> None:
    """Every value a finite number or null (C-speed on the common case: 480 values a row)."""
    if set(map(type, values)) <= _NUMBER_TYPES:
        a = np.array(values, dtype=np.float64)  # None -> NaN
        if np.isfinite(a).sum() + values.count(None) == len(values):
            return
    for j, v in enumerate(values):
        opt_num(v, f"{where}[{j}]")
