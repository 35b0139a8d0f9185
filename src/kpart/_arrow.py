"""Arrow arrays from numpy buffers, without ``pyarrow.array``.

``pa.array``, ``pa.scalar``, ``pa.repeat`` and ``Array.to_numpy`` import pandas the first time
they run (to check whether their argument is a pandas object): about 0.4 s of CPU, more than
writing a million-row Parquet file. The result tables of kpart's commands (``--format parquet|arrow``) and
the library's ``to_arrow`` methods are built from numpy arrays with these helpers instead, which
wrap the numpy buffers (``pa.Array.from_buffers``) and never import pandas.

>>> import numpy as np
>>> int32_array(np.array([3, 1, 2]), null=np.array([False, True, False])).to_pylist()
[3, None, 2]
>>> string_array(["t0", "é"]).to_pylist(), bool_array(np.array([True, False])).to_pylist()
(['t0', 'é'], [True, False])
>>> int32_lists([(1, 2), None, ()]).to_pylist()
[[1, 2], None, []]
>>> import pyarrow as pa
>>> constant("range", pa.string(), 2).to_pylist(), constant(None, pa.int32(), 1).to_pylist()
(['range', 'range'], [None])
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import TYPE_CHECKING, cast

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa

__all__ = ["bool_array", "constant", "flatten_lists", "int32_array", "int32_lists",
           "list_array", "numeric_array", "string_array"]


def _validity(null: np.ndarray | None) -> tuple[pa.Buffer | None, int]:
    """The validity bitmap (LSB first, 1 = valid) of a bool ``null`` mask, and the null count
    (``(None, 0)`` without nulls)."""
    import pyarrow as pa

    if null is None or not null.any():
        return None, 0
    return pa.py_buffer(np.packbits(~null, bitorder="little")), int(null.sum())


def numeric_array(values: np.ndarray, null: np.ndarray | None = None) -> pa.Array:
    """A 1-d numpy numeric array as an Arrow array of the same type (sharing its buffer when
    contiguous); ``null``: a bool mask, ``True`` = null."""
    import pyarrow as pa

    data = np.ascontiguousarray(values)
    validity, nulls = _validity(null)
    return pa.Array.from_buffers(pa.from_numpy_dtype(data.dtype), len(data),
                                 [validity, pa.py_buffer(data)], null_count=nulls)


def int32_array(values: np.ndarray, null: np.ndarray | None = None) -> pa.Int32Array:
    """``values`` (1-d, integers) as an Arrow ``int32`` array; ``null``: ``True`` = null."""
    return cast("pa.Int32Array", numeric_array(np.asarray(values, dtype=np.int32), null))


def bool_array(values: np.ndarray) -> pa.BooleanArray:
    """A 1-d numpy bool array as an Arrow ``bool`` array (bit-packed)."""
    import pyarrow as pa

    bits = np.packbits(np.asarray(values, dtype=bool), bitorder="little")
    return cast("pa.BooleanArray",
                pa.Array.from_buffers(pa.bool_(), len(values), [None, pa.py_buffer(bits)]))


def string_array(values: Sequence[str]) -> pa.StringArray:
    """``values`` as an Arrow ``string`` array, built from their UTF-8 bytes."""
    import pyarrow as pa

    data = "".join(values)
    if data.isascii():  # one byte a character: no per-string encode (member ids, topic names)
        offsets = np.zeros(len(values) + 1, dtype=np.int32)
        np.cumsum(np.fromiter(map(len, values), np.int64, len(values)), out=offsets[1:])
        return pa.StringArray.from_buffers(len(values), pa.py_buffer(offsets),
                                           pa.py_buffer(data.encode("ascii")))
    encoded = [v.encode("utf-8") for v in values]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int32)
    np.cumsum(np.fromiter(map(len, encoded), np.int64, len(encoded)), out=offsets[1:])
    return pa.StringArray.from_buffers(len(encoded), pa.py_buffer(offsets),
                                       pa.py_buffer(b"".join(encoded)))


def flatten_lists(
    lists: Sequence[Sequence[int] | None],
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``lists`` as numpy arrays: ``offsets`` (int32, ``len(lists) + 1``; list ``i`` is
    ``flat[offsets[i]:offsets[i + 1]]``), ``flat`` (int32, every value in one pass) and
    ``null`` (bool, ``True`` where the entry is ``None``, which holds no value; ``None`` when
    no entry is).

    >>> flatten_lists([(1, 2), None, (3,)])
    (array([0, 2, 2, 3], dtype=int32), array([1, 2, 3], dtype=int32), array([False,  True, False]))
    """
    null = None
    if None in lists:
        null = np.fromiter((x is None for x in lists), bool, len(lists))
        lists = [() if x is None else x for x in lists]
    present = cast("Sequence[Sequence[int]]", lists)
    offsets = np.zeros(len(present) + 1, np.int32)
    np.cumsum(np.fromiter(map(len, present), np.int64, len(present)), out=offsets[1:])
    flat = np.fromiter(chain.from_iterable(present), np.int32, int(offsets[-1]))
    return offsets, flat, null


def list_array(offsets: np.ndarray, flat: np.ndarray, null: np.ndarray | None = None
               ) -> pa.ListArray:
    """The Arrow ``list<int32>`` array of :func:`flatten_lists`' three arrays."""
    import pyarrow as pa

    return pa.ListArray.from_arrays(
        int32_array(offsets), int32_array(flat), type=pa.list_(pa.int32()),
        mask=None if null is None else bool_array(null))


def int32_lists(lists: Sequence[Sequence[int] | None]) -> pa.ListArray:
    """``lists`` as an Arrow ``list<int32>`` array (``None``: a null list), through flat numpy
    arrays (:func:`flatten_lists`: no per-list Python work)."""
    return list_array(*flatten_lists(lists))


def constant(value: str | int | bool | None, kind: pa.DataType, n: int) -> pa.Array:
    """``n`` times ``value`` as an Arrow array of type ``kind`` (string, int32, int64 or bool;
    ``None``: ``n`` nulls of any type). ``TypeError`` for another type."""
    import pyarrow as pa

    if value is None:
        return pa.nulls(n, kind)
    one: pa.Array
    if pa.types.is_string(kind):
        one = string_array([str(value)])
    elif pa.types.is_boolean(kind):
        one = bool_array(np.array([value], dtype=bool))
    elif kind in (pa.int32(), pa.int64()):
        one = numeric_array(np.array([value], dtype=np.int32 if kind == pa.int32() else np.int64))
    else:
        raise TypeError(f"constant: unsupported type {kind}")
    return one.take(int32_array(np.zeros(n, np.int32)))
