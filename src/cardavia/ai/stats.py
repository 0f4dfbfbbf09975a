"""Means with 95 % confidence intervals, for the tournaments (normal approximation).

>>> mean_ci([1.0, 0.0, 1.0, 0.0])[0]
0.5
>>> ci_json((0.5, -0.1, 1.2), rate=True)
{'mean': 0.5, 'lo': 0.0, 'hi': 1.0}
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95 % confidence interval (normal approximation)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    m = sum(values) / n
    if n == 1:
        return m, m, m
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return m, m - half, m + half


def ci_json(t: tuple[float, float, float], rate: bool = False) -> dict[str, float]:
    """``{"mean", "lo", "hi"}`` rounded to 4 places; a ``rate`` is clipped to [0, 1]."""
    lo, hi = (max(0.0, t[1]), min(1.0, t[2])) if rate else (t[1], t[2])
    return {"mean": round(t[0], 4), "lo": round(lo, 4), "hi": round(hi, 4)}


__all__ = ["ci_json", "mean_ci"]
