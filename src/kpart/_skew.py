"""How uneven a load is: the one skew measure of kpart (the report's ``skew`` section, the
what-if's and the cross-client comparison's figures).

>>> skew_stats([1, 2, 3, 6])
{'min': 1, 'max': 6, 'mean': 3.0, 'max_over_mean': 2.0, 'cv': 0.62361}
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import SupportsInt, TypedDict

__all__ = ["Skew", "skew_stats"]


class Skew(TypedDict):
    """``min``, ``max`` of the loads, their ``mean``, ``max_over_mean`` and ``cv``."""

    min: int
    max: int
    mean: float
    max_over_mean: float
    cv: float


def _round(x: float) -> float:
    return round(x, 6)


def skew_stats(values: Iterable[SupportsInt]) -> Skew:
    """``{"min", "max", "mean", "max_over_mean", "cv"}`` of ``values`` (loads per partition,
    broker or consumer: integers, e.g. a list or a NumPy array): ``cv`` = population standard
    deviation / mean, both ratios 0 when the mean is 0 (no load, or no values); figures rounded
    to 6 decimals.

    >>> skew_stats([])
    {'min': 0, 'max': 0, 'mean': 0.0, 'max_over_mean': 0.0, 'cv': 0.0}
    """
    loads = [int(v) for v in values]
    n = len(loads)
    mean = sum(loads) / n if n else 0.0
    std = math.sqrt(sum((v - mean) ** 2 for v in loads) / n) if n else 0.0
    return {
        "min": min(loads, default=0),
        "max": max(loads, default=0),
        "mean": _round(mean),
        "max_over_mean": _round(max(loads) / mean) if mean else 0.0,
        "cv": _round(std / mean) if mean else 0.0,
    }
