"""Summary statistics over seeds: mean, standard error, paired 95% t-intervals."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

__all__ = ["Summary", "summarize", "Paired", "paired"]


@dataclass(frozen=True)
class Summary:
    n: int
    mean: float
    se: float
    min: float
    max: float


def summarize(values) -> Summary:
    """Mean and standard error (sample sd / sqrt(n); 0 for one value)."""
    x = np.asarray(values, dtype=float)
    se = float(x.std(ddof=1) / math.sqrt(x.size)) if x.size > 1 else 0.0
    return Summary(int(x.size), float(x.mean()), se, float(x.min()), float(x.max()))


@dataclass(frozen=True)
class Paired:
    """a - b over common seeds: mean difference and its 95% t-interval."""

    n: int
    mean: float
    low: float
    high: float

    @property
    def excludes_zero(self) -> bool:
        return self.high < 0 or self.low > 0


def paired(a, b) -> Paired:
    """The paired difference a - b (same seeds, same order) with a 95% Student-t interval."""
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    m = float(d.mean())
    if d.size < 2:
        return Paired(int(d.size), m, m, m)
    half = float(stats.t.ppf(0.975, d.size - 1) * d.std(ddof=1) / math.sqrt(d.size))
    return Paired(int(d.size), m, m - half, m + half)
