"""Summary statistics over seeds: mean, standard error, paired 95% t-intervals.

A spread that is exactly zero is reported as exactly zero: when every value is the same, the mean is that value
and the standard error 0 (floating-point summation would otherwise leave a residue such as 4.5e-16).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from bounds import TaccInputError

__all__ = ["Summary", "summarize", "RunningSummary", "Paired", "paired", "paired_of", "mean_and_se", "IntSums"]


@dataclass(frozen=True)
class Summary:
    n: int
    mean: float
    se: float
    min: float
    max: float


class RunningSummary:
    """:class:`Summary` of values given one at a time (:meth:`add`), in memory that does not grow with their number:
    the sums of the values and of their squares are kept exactly (as integers in units of 2^-1074, the smallest
    float's, and its square), so the mean is the exact mean and the squared standard error the exact sample
    variance (n - 1 degrees of freedom) over n, each rounded once, whatever the order or the count (no overflow
    of a sum: the mean of 1e308 and 1e308 is 1e308).

    >>> s = RunningSummary()
    >>> for x in (1, 2, 3, 4):
    ...     s.add(x)
    >>> s.summary()
    Summary(n=4, mean=2.5, se=0.6454972243679028, min=1.0, max=4.0)
    """

    __slots__ = ("n", "sum", "squares", "min", "max", "odd")

    def __init__(self):
        self.n = 0
        self.sum = 0                        # sum of x, in units of 2^-1074
        self.squares = 0                    # sum of x^2, in units of 2^-2148
        self.min, self.max = math.inf, -math.inf
        self.odd: set = set()               # the non-finite values met (inf, -inf, nan): they decide mean and se

    def add(self, x) -> None:
        x = float(x)
        self.n += 1
        if not math.isfinite(x):
            self.odd.add("nan" if x != x else x)
            return
        if x < self.min:
            self.min = x
        if x > self.max:
            self.max = x
        num, den = x.as_integer_ratio()     # den = 2^e, e <= 1074
        shift = _EXP - den.bit_length() + 1
        self.sum += num << shift
        self.squares += (num * num) << (2 * shift)

    def mean_and_se(self) -> tuple[float, float]:
        """See :func:`mean_and_se`."""
        n = self.n
        if n == 0:
            raise TaccInputError("values", [], "needs at least one value")
        if self.odd:
            mean = math.nan if "nan" in self.odd or len(self.odd) == 2 else next(iter(self.odd))
            return mean, math.nan
        mean = _ratio(self.sum, n << _EXP)               # the exact mean, rounded once
        if n == 1:
            return mean, math.nan
        spread = n * self.squares - self.sum * self.sum   # n^2 (n - 1) s^2, in units of 2^-2148
        return mean, math.sqrt(_ratio(spread, (n * n * (n - 1)) << (2 * _EXP)))

    def summary(self) -> "Summary":
        mean, se = self.mean_and_se()
        if self.odd:
            lo = math.nan if "nan" in self.odd else min([self.min, *self.odd])
            hi = math.nan if "nan" in self.odd else max([self.max, *self.odd])
            return Summary(self.n, mean, se, lo, hi)
        return Summary(self.n, mean, se, self.min, self.max)


#: the binary exponent of the smallest positive float (2^-1074): every finite float is an integer in its units.
_EXP = 1074


def _ratio(a: int, b: int) -> float:
    """a / b correctly rounded (Python's integer true division), infinite where the float overflows."""
    try:
        return a / b
    except OverflowError:
        return math.copysign(math.inf, a)


def mean_and_se(values) -> tuple[float, float]:
    """The sample mean and its standard error s / sqrt(n), s the sample standard deviation (n - 1 degrees of
    freedom), from exact sums (:class:`RunningSummary`); the standard error of one value is undefined (NaN: no
    spread is measured from one seed; JSON ``null`` with its reason, tables ``undefined``; it was 0, read as no
    spread), and of identical values exactly 0."""
    return _running(values).mean_and_se()


def _running(values) -> RunningSummary:
    s = RunningSummary()
    for x in np.asarray(values, dtype=float).ravel().tolist():
        s.add(x)
    return s


def summarize(values) -> Summary:
    """Mean, standard error (:func:`mean_and_se`), min and max."""
    return _running(values).summary()


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
    return paired_of(_running(d))


def paired_of(differences: RunningSummary) -> Paired:
    """:func:`paired` from the differences a - b counted as they came (``tacc reproduce`` pairs its runs seed by
    seed as they finish)."""
    n = differences.n
    m, se = differences.mean_and_se()
    if n < 2:
        return Paired(n, m, m, m)
    from scipy.special import stdtrit        # the t quantile scipy.stats.t.ppf computes, without importing scipy.stats

    half = float(stdtrit(n - 1, 0.975)) * se
    return Paired(n, m, m - half, m + half)


class IntSums:
    """Per position (an arm), the exact sum of the non-negative integers added (:meth:`add`, one row at a time, of
    a fixed width), at any count: int64 rows are added into an int64 part that is folded into Python ints before it
    could reach 2^63 (what may still be added is tracked from the largest entry of each row).

    >>> s = IntSums(2)
    >>> s.add([1, 2]); s.add([3, 4])
    >>> s.total()
    [4, 6]
    """

    __slots__ = ("_part", "_whole", "_room", "fold_at")

    def __init__(self, width: int, fold_at: int = 1 << 62):
        self._part = np.zeros(width, dtype=np.int64)
        self._whole = np.zeros(width, dtype=object)
        self.fold_at = fold_at
        self._room = fold_at

    def add(self, row) -> None:
        row = np.asarray(row, dtype=np.int64)
        top = int(row.max(initial=0))
        if top >= self._room:
            self._whole += self._part.astype(object)
            self._part[:] = 0
            self._room = self.fold_at
        self._room -= top
        self._part += row

    def total(self) -> list[int]:
        """The sums, as Python ints."""
        return [int(x) for x in self._whole + self._part.astype(object)]
