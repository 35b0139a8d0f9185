"""The partitions of a ``cluster.json`` topic read column by column, for clusters of a million
partitions (Cruise Control #1592's shape: 930,000).

:func:`partition_columns` reads one topic's ``partitions`` list straight into arrays, checking
every value with C-level passes (``map``/``all`` over one column at a time). It accepts only
documents whose every value is well formed and returns ``None`` otherwise: the caller then
reads that topic entry by entry, which names the bad field (``cluster.topics[0].partitions[3].
replicas[1]``). Both give the same model.
"""

from __future__ import annotations

import math
from itertools import chain
from typing import Any

import numpy as np

from kpart.cluster.model import LOADS

__all__ = ["INT32_MAX", "Columns", "partition_columns"]

#: Broker ids and partition numbers are Java ``int``s.
INT32_MAX = 2**31 - 1

_ALLOWED = frozenset(("partition", "replicas", "leader", "isr", *LOADS))

Columns = dict[str, np.ndarray]


def _ints(values: list[Any]) -> np.ndarray | None:
    """``values`` as int64 when all are ints (not bools) in ``[0, INT32_MAX]``, else ``None``."""
    if not all(map(int.__instancecheck__, values)) or any(map(bool.__instancecheck__, values)):
        return None
    out = np.array(values, dtype=np.int64) if values else np.zeros(0, np.int64)
    if len(out) and (out.min() < 0 or out.max() > INT32_MAX):
        return None
    return out


def _padded(rows: list[Any], *, allow_empty: bool) -> np.ndarray | None:
    """Lists of broker ids → int32 matrix padded with ``-1`` (at least one column), or
    ``None`` for anything but non-empty (``allow_empty``: possibly empty) lists of ids."""
    if not all(map(list.__instancecheck__, rows)):
        return None
    sizes = np.fromiter(map(len, rows), np.int64, len(rows))
    if not allow_empty and len(sizes) and sizes.min() == 0:
        return None
    flat = _ints(list(chain.from_iterable(rows)))
    if flat is None:
        return None
    width = int(sizes.max()) if len(sizes) and sizes.max() > 0 else 1
    if width > 1 and width > len(np.unique(flat)):
        return None  # a list repeating a broker: model.padded_ids names it
    out = np.full((len(rows), width), -1, dtype=np.int32)
    starts = np.cumsum(sizes) - sizes
    row = np.repeat(np.arange(len(rows)), sizes)
    out[row, np.arange(len(flat)) - np.repeat(starts, sizes)] = flat
    return out


def _amounts(values: list[Any]) -> np.ndarray | None:
    """Numbers ≥ 0 or ``None`` → float64 with ``NaN`` for ``None``; else ``None``."""
    cleaned = [math.nan if v is None else v for v in values]
    if not all(type(v) in (int, float) for v in cleaned):
        return None
    out = np.array(cleaned, dtype=np.float64) if cleaned else np.zeros(0, np.float64)
    given = np.array([v is not None for v in values], dtype=bool)
    if (np.isnan(out) & given).any() or (out < 0).any():
        return None
    return out


def partition_columns(parts: list[Any]) -> Columns | None:
    """One topic's ``partitions`` (parsed JSON) as columns ``partition`` (int32),
    ``replicas`` / ``isr`` (int32 matrices padded with ``-1``), ``leader`` (int32, ``-1`` =
    none) and the :data:`~kpart.cluster.model.LOADS` (float64, ``NaN`` = unknown), rows in
    document order; ``None`` when any entry is not well formed (see the module docstring).

    >>> cols = partition_columns([{"partition": 1, "replicas": [2, 1], "leader": 2},
    ...                           {"partition": 0, "replicas": [1], "size_bytes": 5}])
    >>> cols["replicas"].tolist(), cols["leader"].tolist(), cols["size_bytes"].tolist()
    ([[2, 1], [1, -1]], [2, -1], [nan, 5.0])
    >>> partition_columns([{"partition": 0, "replicas": [True]}]) is None
    True
    """
    if not all(map(dict.__instancecheck__, parts)):
        return None
    if not _ALLOWED.issuperset(chain.from_iterable(parts)):
        return None
    partition = _ints([p.get("partition") for p in parts])
    replicas = _padded([p.get("replicas") for p in parts], allow_empty=False)
    isr = _padded([p.get("isr") or [] for p in parts], allow_empty=True)
    raw_leader = [p.get("leader") for p in parts]
    none = np.array([x is None or (type(x) is int and x == -1) for x in raw_leader], dtype=bool)
    leader = _ints([0 if missing else x for x, missing in zip(raw_leader, none.tolist(),
                                                              strict=True)])
    if partition is None or replicas is None or isr is None or leader is None:
        return None
    columns: Columns = {
        "partition": partition.astype(np.int32),
        "replicas": replicas,
        "isr": isr,
        "leader": np.where(none, -1, leader).astype(np.int32),
    }
    for name in LOADS:
        values = _amounts([p.get(name) for p in parts])
        if values is None:
            return None
        columns[name] = values
    return columns
