"""Compiled (numba) ``String.hashCode`` over ASCII bytes (private to :mod:`kpart._java.arrays`).

An ASCII string's UTF-16 code units are its bytes, so Java's ``s[0]*31^(n-1) + ... + s[n-1]``
(``int`` arithmetic, wrapping) is a Horner loop over the bytes; the strings
are passed joined, each ended by a NUL byte (none contains one). Compiled on first use and
cached on disk (``cache=True``).

>>> import numpy as np
>>> ascii_hash_codes(np.frombuffer(b"rack-a\\0\\0", dtype=np.uint8), 2).tolist()
[3356358379, 0]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

__all__ = ["ascii_hash_codes"]

_F = TypeVar("_F", bound=Callable[..., Any])


def _compiled(**options: Any) -> Callable[[_F], _F]:
    """``numba.njit(**options)``, typed as the Python function it compiles."""
    return cast("Callable[[_F], _F]", njit(**options))


@_compiled(cache=True, nogil=True)
def _hash_codes(data: np.ndarray, out: np.ndarray) -> None:
    thirty_one = np.uint32(31)
    h = np.uint32(0)
    i = 0
    for k in range(data.shape[0]):
        b = data[k]
        if b == 0:  # the end of a string
            out[i] = h
            i += 1
            h = np.uint32(0)
        else:
            h = h * thirty_one + np.uint32(b)


def ascii_hash_codes(data: np.ndarray, n: int) -> np.ndarray:
    """``String.hashCode()`` as uint32 values (int64 array) of ``n`` ASCII strings without a
    NUL character, each followed by a NUL byte in ``data`` (uint8)."""
    out = np.empty(n, dtype=np.uint32)
    _hash_codes(data, out)
    return out.astype(np.int64)
