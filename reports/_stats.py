"""Summary statistics over seeds: mean, standard error, paired 95% t-intervals.

A spread that is exactly zero is reported as exactly zero: when every value is the same, the mean is that value
and the standard error 0 (floating-point summation would otherwise leave a residue such as 4.5e-16).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from bounds import TaccInputError

__all__ = ["Summary", "summarize", "Paired", "paired", "mean_and_se"]


@dataclass(frozen=True)
class Summary:
    n: int
    mean: float
    se: float
    min: float
    max: float


def mean_and_se(values) -> tuple[float, float]:
    """The sample mean and its standard error s / sqrt(n), s the sample standard deviation (n - 1 degrees of
    freedom); the standard error of one value is undefined (NaN: no spread is measured from one seed; JSON ``null``
    with its reason, tables ``undefined``; it was 0, read as no spread), and of identical values exactly 0."""
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        raise TaccInputError("values", list(values), "needs at least one value")
    if x.size == 1:
        return float(x[0]), math.nan
    if np.all(x == x[0]):
        return float(x[0]), 0.0
    mean = math.fsum(x.tolist()) / x.size
    s = math.sqrt(math.fsum(((x - mean) ** 2).tolist()) / (x.size - 1))
    return mean, s / math.sqrt(x.size)


def summarize(values) -> Summary:
    """Mean, standard error (:func:`mean_and_se`), min and max."""
    x = np.asarray(values, dtype=float)
    mean, se = mean_and_se(x)
    return Summary(int(x.size), mean, se, float(x.min()), float(x.max()))


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
    """The paired difference a - b (same seeds, same order) with a 95% Student-t interval (n - 1 degrees of
    freedom): mean +- t_{0.975, n-1} x standard error of the differences."""
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    m, se = mean_and_se(d)
    if d.size < 2:
        return Paired(int(d.size), m, m, m)
    from scipy.special import stdtrit        # the t quantile scipy.stats.t.ppf computes, without importing scipy.stats

    half = float(stdtrit(d.size - 1, 0.975)) * se
    return Paired(int(d.size), m, m - half, m + half)
